package referee

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-msgauth/dkim"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/referee/senders"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/variant"
)

// The reply token travels in the reply address only: the referee's Message-IDs and bounce
// addresses carry an opaque id, and a mail whose thread headers name the referee's mail (as
// every reply does, and as anyone who saw a forwarded mail can write) but that does not come
// to the reply address applies nothing. (The attack: In-Reply-To copied from a player's mail
// and a forged From made that player resign.)
func TestTokenOnlyInReplyAddress(t *testing.T) {
	h := newHarness(t)
	id := h.newGame("orthodox")
	mails := h.outbox()
	ann := h.player(id, W)
	for _, m := range mails {
		raw := string(m.Raw)
		if n := strings.Count(raw, ann.Token); m.To[0] == ann.Address && n != 1 {
			t.Errorf("Ann's token appears %d times in her opening mail, want once (Reply-To)", n)
		}
		if strings.Contains(m.MessageID, ann.Token) || strings.Contains(m.From, ann.Token) {
			t.Errorf("token in Message-ID %q or envelope sender %q", m.MessageID, m.From)
		}
	}
	var annMID string
	for _, m := range mails {
		if m.To[0] == ann.Address {
			annMID = m.MessageID
		}
	}
	forged := mailText(ann.Address, "referee@example.org", "Re: your move", "RESIGN", fmt.Sprintf("In-Reply-To: <%s>\r\nReferences: <%s>\r\n", annMID, annMID))
	h.deliver(forged)
	if out := h.outcome(id); out.Over() {
		t.Fatalf("a mail with the thread headers but no reply address made Ann resign: %+v", out)
	}
}

// signer signs mail as example.com (Ann's domain) with a test key the referee finds through
// its resolver seam.
func signer(t *testing.T, h *harness) func(raw []byte) []byte {
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	record := "v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(pub)
	h.ref.Auth.LookupTXT = func(domain string) ([]string, error) {
		if domain == "sel._domainkey.example.com" {
			return []string{record}, nil
		}
		return nil, errors.New("no such record")
	}
	return func(raw []byte) []byte {
		var b bytes.Buffer
		if err := dkim.Sign(&b, bytes.NewReader(raw), &dkim.SignOptions{Domain: "example.com", Selector: "sel", Signer: priv}); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
}

// Sender authentication by policy: with the default ("prefer") a signed mail and an unsigned
// one are accepted and a mail whose signature fails (a forgery of a signed mail) is refused to
// the registered address; with "require" only a verified signature counts.
func TestSenderAuthentication(t *testing.T) {
	for _, policy := range []string{"", senders.AuthRequire, senders.AuthNone} {
		t.Run("policy="+policy, func(t *testing.T) {
			h := newHarness(t)
			sign := signer(t, h)
			id, err := h.ref.NewGame("orthodox", "ann@example.com", "bob@example.net", variant.Options{Flags: map[string]string{"auth": policy}})
			if err != nil {
				t.Fatal(err)
			}
			h.outbox()
			moves := func() int {
				var n int
				h.db.View(func(tx *store.Tx) error { ev, _ := tx.Events(id); n = len(ev); return nil })
				return n
			}
			// A forged copy: signed by Ann's domain, then its command changed.
			forged := bytes.Replace(sign(h.reply(id, W, "e4")), []byte("e4"), []byte("f3"), 1)
			h.deliver(forged)
			wantForged := 0
			if policy == senders.AuthNone {
				wantForged = 1
			}
			if got := moves(); got != wantForged {
				t.Fatalf("forged signed mail: %d moves applied, want %d", got, wantForged)
			}
			if policy != senders.AuthNone {
				mustContain(t, "refusal", bodyTo(t, h.outbox(), ann), "could not confirm that you sent it")
			}
			h.outbox()
			before := moves()
			h.deliver(h.reply(id, W, "RESIGN")) // unsigned
			if over := h.outcome(id).Over(); over != (policy != senders.AuthRequire) {
				t.Errorf("unsigned mail under %q: game over %v", policy, over)
			}
			if policy == senders.AuthRequire {
				h.outbox()
				h.deliver(sign(h.reply(id, W, "e4")))
				if moves() != before+1 {
					t.Errorf("a signed mail was refused under require")
				}
			}
		})
	}
}

// Each player's Message-IDs are his own: Bob cannot learn whether Ann sent a mail by reusing
// its Message-ID, nor make her next mail be dropped by sending first under it.
func TestMessageIDsPerPlayer(t *testing.T) {
	h := newHarness(t)
	id := h.newGame("orthodox")
	h.outbox()
	ann, bob := h.player(id, W), h.player(id, B)
	annMail := mailText(ann.Address, h.ref.replyAddress(id, W, ann.Token), "Re", "e4", "")
	bobMail := mailText(bob.Address, h.ref.replyAddress(id, B, bob.Token), "Re", "HELP", "")
	// Both carry the same Message-ID: Bob sends first.
	h.deliver(bobMail)
	if len(h.outbox()) != 1 {
		t.Fatal("Bob's HELP was not answered")
	}
	h.deliver(annMail)
	if out := h.outbox(); len(out) != 2 {
		t.Fatalf("Ann's move after Bob used her Message-ID: %d mails, want her answer and Bob's news", len(out))
	}
	h.deliver(annMail) // the same mail again is applied once
	if out := h.outbox(); len(out) != 0 {
		t.Errorf("a re-sent mail was applied again: %d mails", len(out))
	}
}

// Forged mail cannot use up the answers a player's own mistakes get: refusals are counted
// per cause (the review's attack: ten forgeries in Bob's name silenced his illegal moves).
func TestForgeriesDoNotSilenceThePlayer(t *testing.T) {
	h := newHarness(t)
	id := h.newGame("orthodox")
	h.outbox()
	bob := h.player(id, B)
	for i := 0; i < 2*RefusalLimit; i++ {
		h.deliver(mailText(fmt.Sprintf("eve%d@evil.example", i), h.ref.replyAddress(id, B, bob.Token), "Re", "RESIGN", ""))
		h.deliver(mailText(bob.Address, "referee@example.org", "hi", "where are my games?", ""))
	}
	if n := len(h.outbox()); n != 2*RefusalLimit {
		t.Errorf("%d answers to forgeries and bare-address mail, want %d (each kind limited)", n, 2*RefusalLimit)
	}
	h.deliver(h.reply(id, B, "e5")) // not his turn: refused, and he must hear of it
	mustContain(t, "Bob's own refusal", bodyTo(t, h.outbox(), bob.Address), "was refused")
}

// DKIM keys are looked up before the mail's transaction, never inside it: a slow DNS must not
// hold the store's writer (every other mail, the intake, the deliveries' records).
func TestSenderJudgedOutsideTheTransaction(t *testing.T) {
	h := newHarness(t)
	sign := signer(t, h)
	lookup := h.ref.Auth.LookupTXT
	inside := 0
	h.ref.Auth.LookupTXT = func(domain string) ([]string, error) {
		done := make(chan struct{})
		go func() { h.db.Update(func(*store.Tx) error { return nil }); close(done) }()
		select {
		case <-done:
		case <-time.After(500 * time.Millisecond):
			inside++ // a writer is open: this look-up holds it
		}
		return lookup(domain)
	}
	id := h.newGame("orthodox")
	h.outbox()
	h.deliver(sign(h.reply(id, W, "e4")))
	if inside != 0 {
		t.Errorf("a DKIM key was looked up inside the mail's write transaction")
	}
	if got := len(h.outbox()); got != 2 {
		t.Errorf("the signed move: %d mails, want the answer and the news", got)
	}
}

// A reply address is taken whole: its token with another game's number, another side, or
// the organizer's form is not a way into the token's game.
func TestReplyAddressWhole(t *testing.T) {
	h := newHarness(t)
	id := h.newGame("orthodox")
	h.newGame("orthodox")
	h.outbox()
	tok := h.player(id, W).Token
	for _, to := range []string{
		"referee+g2-w-" + tok + "@example.org",
		"referee+g1-b-" + tok + "@example.org",
		"referee+t1-o-" + tok + "@example.org",
	} {
		h.deliver(mailText(ann, to, "Re: game", "e4", ""))
		if m := h.outbox(); len(m) != 0 {
			t.Errorf("mail to %s was answered: %d mails", to, len(m))
		}
	}
	h.db.View(func(tx *store.Tx) error {
		if n, err := tx.EventCount(id); n != 0 || err != nil {
			t.Errorf("%d events in game %d (%v)", n, id, err)
		}
		return nil
	})
	h.deliver(mailText(ann, "referee+g1-w-"+tok+"@example.org", "Re: game", "e4", ""))
	if m := h.outbox(); len(m) != 2 {
		t.Errorf("the whole address: %d mails, want 2", len(m))
	}
}

// Issue 23: what the intake may record as processed without storing it (Ignorable): a
// stranger's ordinary mail, and nothing else.
func TestIgnorable(t *testing.T) {
	h := newHarness(t)
	id := h.newGame("orthodox")
	for _, c := range []struct {
		name   string
		raw    []byte
		ignore bool
	}{
		{"a stranger to the bare address", mailText("spam@example.com", "referee@example.org", "hi", "buy now", ""), true},
		{"a stranger to a made-up reply address", mailText("spam@example.com", "referee+g1-w-nosuchtoken@example.org", "hi", "buy", ""), false},
		{"a player to the bare address", mailText("ann@example.com", "referee@example.org", "help", "HELP", ""), false},
		{"a player's move", h.reply(id, chess.White, "e4"), false},
		{"a stranger's bounce", mailText("MAILER-DAEMON@example.com", "referee@example.org", "Undelivered Mail Returned to Sender", "x", "Auto-Submitted: auto-replied\r\n"), false},
		{"unreadable", []byte("\x00\x01"), false},
	} {
		if got := h.ref.Ignorable(c.raw) != ""; got != c.ignore {
			t.Errorf("%s: ignorable %v, want %v", c.name, got, c.ignore)
		}
	}
}
