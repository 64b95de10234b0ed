package referee

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/refereed/refereed/lang"

	"github.com/refereed/refereed/archive"
	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/parser"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/store/storetest"
	"github.com/refereed/refereed/variant"
	_ "github.com/refereed/refereed/variant/all"
)

// testLanguage is the server's language of the harnesses made (TestNoninterferenceInEveryLanguage
// runs the noninterference tests in each).
var testLanguage lang.Tag

// fixedNow is the clock of every test: mails must not depend on when tests run.
var fixedNow = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

type harness struct {
	t    testing.TB
	db   *store.DB
	ref  *Referee
	uid  uint32
	sent [2]int    // mails sent by each player, to number their Message-IDs
	now  time.Time // the store's clock; tests move it
}

func newHarness(t testing.TB) *harness {
	t.Helper()
	db, err := store.OpenURL(storetest.Location(t, storetest.Default()), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	h := &harness{t: t, db: db, now: fixedNow, ref: &Referee{DB: db, Address: "referee@example.org", Rand: rand.New(rand.NewSource(1)), Language: testLanguage}}
	db.Now = func() time.Time { return h.now }
	if testLanguage != "" { // the words in it, the moves in the letters the tests write
		for _, a := range []string{ann, bob, "carl@example.com", "dora@example.com"} {
			h.setLanguage(a, "", lang.EN)
		}
	}
	return h
}

func (h *harness) newGame(v string) uint64 {
	h.t.Helper()
	id, err := h.ref.NewGame(v, "ann@example.com", "bob@example.net", variant.Options{})
	if err != nil {
		h.t.Fatal(err)
	}
	return id
}

func (h *harness) player(id uint64, side chess.Color) store.Player {
	h.t.Helper()
	var p store.Player
	if err := h.db.View(func(tx *store.Tx) error {
		g, err := tx.Game(id)
		if err == nil {
			p = g.Players[side]
		}
		return err
	}); err != nil {
		h.t.Fatal(err)
	}
	return p
}

// reply is a plain-text reply from a player to the game, as a mail client writes it.
func (h *harness) reply(id uint64, side chess.Color, body string) []byte {
	p := h.player(id, side)
	h.sent[side]++
	raw := mailText(p.Address, h.ref.replyAddress(id, side, p.Token), "Re: your move", body, "")
	return []byte(strings.Replace(string(raw), "Message-ID: <", fmt.Sprintf("Message-ID: <%d.%d.", side, h.sent[side]), 1))
}

func mailText(from, to, subject, body, extra string) []byte {
	return []byte(fmt.Sprintf("From: Player <%s>\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <%s@%s>\r\nDate: Sun, 22 Nov 2026 11:00:00 +0000\r\nMIME-Version: 1.0\r\n%sContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n",
		from, to, subject, "m", strings.SplitN(from, "@", 2)[len(strings.SplitN(from, "@", 2))-1], extra, strings.ReplaceAll(body, "\n", "\r\n")))
}

// deliver hands raw to Handle under the next inbox key.
func (h *harness) deliver(raw []byte) store.InboxKey {
	h.t.Helper()
	h.uid++
	key := store.InboxKey{Mailbox: "INBOX", UIDValidity: 7, UID: h.uid}
	if err := h.ref.Handle(key, raw); err != nil {
		h.t.Fatalf("Handle: %v", err)
	}
	return key
}

// outbox returns the queued mails and empties the outbox (as delivery would).
func (h *harness) outbox() []store.OutMail {
	h.t.Helper()
	var out []store.OutMail
	if err := h.db.Update(func(tx *store.Tx) error {
		mails, err := tx.Outbox()
		if err != nil {
			return err
		}
		for _, m := range mails {
			if err := tx.Done(m); err != nil {
				return err
			}
		}
		out = mails
		return nil
	}); err != nil {
		h.t.Fatal(err)
	}
	return out
}

// bodyTo returns the text part of the one mail to addr in mails ("" if none).
func bodyTo(t *testing.T, mails []store.OutMail, addr string) string {
	t.Helper()
	var found []string
	for _, m := range mails {
		if m.To[0] == addr {
			p, err := parser.Parse(m.Raw)
			if err != nil {
				t.Fatal(err)
			}
			found = append(found, "Subject: "+p.Subject+"\n"+p.Body)
		}
	}
	if len(found) > 1 {
		t.Fatalf("%d mails to %s in one round", len(found), addr)
	}
	if len(found) == 0 {
		return ""
	}
	return found[0]
}

func (h *harness) outcome(id uint64) variant.Outcome {
	h.t.Helper()
	var out variant.Outcome
	if err := h.db.View(func(tx *store.Tx) error {
		l, err := archive.Load(tx, id)
		var g variant.Game
		if err == nil {
			g = l.Live
		}
		if err == nil {
			out = g.Outcome()
		}
		return err
	}); err != nil {
		h.t.Fatal(err)
	}
	return out
}

// mustSay is mustContain on texts as a reader takes them: a mail's lines are wrapped, so
// words are compared apart from the spaces and line breaks between them.
func mustSay(t *testing.T, what, got string, wants ...string) {
	t.Helper()
	flat := strings.Join(strings.Fields(got), " ")
	for _, w := range wants {
		if !strings.Contains(flat, strings.Join(strings.Fields(w), " ")) {
			t.Errorf("%s lacks %q:\n%s", what, w, got)
		}
	}
}

// flat is s with its runs of white space made single spaces (a mail's lines are wrapped).
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }
