package referee

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/variant"
)

const (
	ann = "ann@example.com"
	bob = "bob@example.net"
	W   = chess.White
	B   = chess.Black
)

func mustContain(t *testing.T, what, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, got)
		}
	}
}

// The same inbound key handled twice changes nothing the second time.
func TestHandleIdempotent(t *testing.T) {
	h := newHarness(t)
	id := h.newGame("orthodox")
	raw := h.reply(id, W, "e4")
	key := store.InboxKey{Mailbox: "INBOX", UIDValidity: 1, UID: 1}
	if err := h.ref.Handle(key, raw); err != nil {
		t.Fatal(err)
	}
	before, _ := h.db.Dump()
	if err := h.ref.Handle(key, raw); err != nil {
		t.Fatal(err)
	}
	after, _ := h.db.Dump()
	if !reflect.DeepEqual(before, after) {
		t.Error("handling a processed key again changed the store")
	}
	// The same mail under another key (a re-sent copy) is not applied twice either.
	h.outbox()
	h.deliver(raw)
	if mails := h.outbox(); len(mails) != 0 {
		t.Errorf("a re-sent mail was answered: %d mails", len(mails))
	}
}

// A fault injected at each step of Handle leaves the store as it was before the message.
func TestFaultAtEachStepLeavesStoreUnchanged(t *testing.T) {
	steps := []string{"parse", "lookup", "replay", "submit", "log", "render", "enqueue", "mark"}
	for _, step := range steps {
		t.Run(step, func(t *testing.T) {
			h := newHarness(t)
			id := h.newGame("transactional")
			raw := h.reply(id, W, "e4\nNf3")
			before, _ := h.db.Dump()
			h.ref.Fault = func(s string) error {
				if s == step {
					return errors.New("injected")
				}
				return nil
			}
			key := store.InboxKey{Mailbox: "INBOX", UIDValidity: 1, UID: 1}
			if err := h.ref.Handle(key, raw); err == nil || !strings.Contains(err.Error(), "injected") {
				t.Fatalf("Handle with a fault at %s: %v", step, err)
			}
			after, _ := h.db.Dump()
			if !reflect.DeepEqual(before, after) {
				for k := range after {
					if before[k] != after[k] {
						t.Errorf("changed: %s", k)
					}
				}
				t.Fatalf("a fault at %s changed the store", step)
			}
			// Without the fault the same message goes through.
			h.ref.Fault = nil
			if err := h.ref.Handle(key, raw); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// A Transactional game to checkmate through Handle, with the mail clients' quirks on the way:
// HTML-only mail, Latin-1, a quoted reply with an Outlook separator, a forged From, a wrong
// token and an auto-reply.
func TestTransactionalGameByMail(t *testing.T) {
	h := newHarness(t)
	id := h.newGame("transactional")
	h.outbox()
	wa := h.player(id, W)
	ba := h.player(id, B)
	wAddr := h.ref.replyAddress(id, W, wa.Token)
	bAddr := h.ref.replyAddress(id, B, ba.Token)

	// White, HTML only (a web client).
	html := fmt.Sprintf("From: Ann <%s>\r\nTo: %s\r\nSubject: move\r\nMessage-ID: <html.1@example.com>\r\nMIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<html><body><div dir=\"ltr\">T1: f3 (C)<br></div><div class=\"gmail_quote\">On Sun, Nov 22, 2026 referee wrote:<blockquote>e4 old</blockquote></div></body></html>\r\n", ann, wAddr)
	h.deliver([]byte(html))
	m := h.outbox()
	mustContain(t, "Ann (HTML mail)", bodyTo(t, m, ann), "Accepted T1: f3, committed.")
	mustContain(t, "Bob after White's commit", bodyTo(t, m, bob), "White has committed: Pf2-Pf3", "Your turn: transaction T2")

	// Black, a reply-all whose To names the reply address among others, one of them broken
	// (as some clients write): the reply address is still found, and Bob's move counts.
	broken := mailText(bob, "Ann <"+ann+">, "+bAddr+", <<undisclosed@", "Re: move", "HELP", "")
	h.deliver(broken)
	m = h.outbox()
	if len(m) != 1 || m[0].To[0] != bob {
		t.Fatalf("a To with a broken address: mails %v", m)
	}
	mustContain(t, "Bob (a To with a broken address)", bodyTo(t, m, bob), "T2")

	// Black, Latin-1 quoted-printable, a line of greeting noise refused? No: only commands.
	latin1 := fmt.Sprintf("From: Bob <%s>\r\nTo: %s\r\nSubject: =?ISO-8859-1?Q?Z=FCge?=\r\nMessage-ID: <l1.1@example.net>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=ISO-8859-1\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nT2: e5 (C)\r\n-- \r\nGr=FC=DFe, J=F6rg\r\n", bob, bAddr)
	h.deliver([]byte(latin1))
	m = h.outbox()
	mustContain(t, "Bob (Latin-1)", bodyTo(t, m, bob), "Accepted T2: e5, committed.")

	// A forged From on White's token: refused; a generic mail to Ann only; nothing to the forger.
	h.deliver(mailText("mallory@evil.example", wAddr, "move", "g4 (C)", ""))
	m = h.outbox()
	if len(m) != 1 || m[0].To[0] != ann {
		t.Fatalf("forged From: mails %v", m)
	}
	// It names the game (it goes to Ann's registered address, never to the sender).
	mustContain(t, "refusal notice", bodyTo(t, m, ann), "A mail came to your reply address for this game (#1, Transactional", "from mallory@evil.example, which is not", "registered for you", "Nothing was done")

	// A wrong token: ignored, no answer to anyone.
	h.deliver(mailText(ann, "referee+g1-w-aaaaaaaaaa@example.org", "move", "g4 (C)", ""))
	// An auto-reply from Bob's vacation responder: not answered.
	h.deliver(mailText(bob, bAddr, "Out of office", "I am away", "Auto-Submitted: auto-replied\r\n"))
	if m := h.outbox(); len(m) != 0 {
		t.Fatalf("wrong token or auto-reply answered: %d mails", len(m))
	}

	// White, a reply quoting the referee's mail under an Outlook separator.
	h.deliver(h.reply(id, W, "g4 (C)\n\n-----Original Message-----\nFrom: refereed\nSent: Sunday\nQh4 e5 junk"))
	m = h.outbox()
	mustContain(t, "Ann (Outlook reply)", bodyTo(t, m, ann), "Accepted T3: g4, committed.")

	// Black mates: Qh4 gives check, the commit is mandatory and automatic; White has no move.
	h.deliver(h.reply(id, B, "Qh4"))
	m = h.outbox()
	for _, who := range []string{ann, bob} {
		mustContain(t, "end of game", bodyTo(t, m, who), "Black checkmated White", "The whole game", "1. T1: f3 (C) T2: e5 (C)", "Potential view")
	}
	if out := h.outcome(id); out.Result != "0-1" || out.Termination != "checkmate" {
		t.Errorf("outcome %+v", out)
	}
}

// A mail says each thing once and nothing it then takes back: a batch line played at once
// in the mail that brought its player's turn is not preceded by "Your turn", and a C-move
// sent on the line after its A-move is not preceded by "you have not stated a C-move".
func TestNothingSaidThenTakenBack(t *testing.T) {
	h := newHarness(t)
	id := h.newGame("transactional")
	h.deliver(h.reply(id, W, "e4\nNf3"))
	h.outbox()
	h.deliver(h.reply(id, B, "d5")) // no commit: White's Nf3 is played at once
	m := h.outbox()
	white := bodyTo(t, m, ann)
	mustContain(t, "Ann's batch line", white, "Subject: [refereed #1] Transactional: news from your game", "Accepted T1: Nf3, pending", "It is your opponent's turn.")
	if strings.Contains(white, "Your turn") {
		t.Errorf("Ann is told it is her turn, then that her batch played it:\n%s", white)
	}
	mustContain(t, "Bob's answer", bodyTo(t, m, bob), "Subject: [refereed #1] Transactional: your move (T2)", "Accepted T2: d5, pending", "Your turn: transaction T2.")

	h = newHarness(t)
	id = h.newGame("conditional")
	h.outbox()
	h.deliver(h.reply(id, W, "A: e4\nC: !d4"))
	white = bodyTo(t, h.outbox(), ann)
	mustContain(t, "Ann's A-move and C-move on two lines", white, "White's A-move: e4", "Your C-move !d4 is stated")
	if strings.Contains(white, "not stated") {
		t.Errorf("Ann is told she stated no C-move, then that she did:\n%s", white)
	}
}

// A bounce to a player's bounce address is recorded against that player and not answered.
func TestBounceRecorded(t *testing.T) {
	h := newHarness(t)
	id := h.newGame("orthodox")
	h.outbox()
	p := h.player(id, B)
	bounce := fmt.Sprintf("From: MAILER-DAEMON@example.org\r\nTo: %s\r\nSubject: Undelivered Mail Returned to Sender\r\nMessage-ID: <b1@example.org>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/report; report-type=delivery-status; boundary=XX\r\n\r\n--XX\r\nContent-Type: text/plain\r\n\r\nbob@example.net: mailbox unknown\r\n--XX--\r\n", h.ref.out().BounceAddress(id, B, p.Token))
	h.deliver([]byte(bounce))
	if m := h.outbox(); len(m) != 0 {
		t.Fatalf("a bounce was answered")
	}
	if got := h.player(id, B); got.Bounces != 1 || !strings.Contains(got.LastBounce, "Undelivered") {
		t.Errorf("bounce not recorded: %+v", got)
	}
}

// Internal errors keep the mail; after MaxAttempts the sender is told, once.
func TestInternalErrorKeepsMail(t *testing.T) {
	h := newHarness(t)
	id := h.newGame("orthodox")
	h.outbox()
	raw := h.reply(id, W, "e4")
	if err := h.db.Update(func(tx *store.Tx) error {
		_, err := tx.PutInbound(store.InboundMail{Key: store.InboxKey{Mailbox: "INBOX", UIDValidity: 1, UID: 9}, Raw: raw})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	h.ref.Fault = func(s string) error {
		if s == "render" {
			return errors.New("disk on fire")
		}
		return nil
	}
	for i := 0; i < 4; i++ {
		if _, err := h.ref.ProcessInbox(); err != nil {
			t.Fatal(err)
		}
	}
	m := h.outbox()
	if len(m) != 1 || !strings.Contains(bodyTo(t, m, ann), "your mail was kept") {
		t.Fatalf("after repeated internal errors: %d mails", len(m))
	}
	checkMail(t, m[0]) // threaded under the game like every mail of it
	mustContain(t, "internal error notice", bodyTo(t, m, ann), "Subject: [refereed #1] Orthodox: internal error; your mail was kept")
	h.ref.Fault = nil
	var pending []store.InboundMail
	h.db.View(func(tx *store.Tx) error { pending, _ = tx.PendingInbound(); return nil })
	if len(pending) != 1 || pending[0].Attempts != 3 {
		t.Errorf("the mail was not kept for the operator: %+v", pending)
	}
}

// design.md: replies are rate-limited per sender. Refusal-only answers to a player's own
// mail stop after OwnRefusalLimit in RefusalWindow in one game; an accepted move is still
// answered.
func TestRefusalsRateLimited(t *testing.T) {
	h := newHarness(t)
	id := h.newGame("orthodox")
	h.outbox()
	for i := 0; i < OwnRefusalLimit+5; i++ {
		h.deliver(h.reply(id, W, fmt.Sprintf("nonsense %d", i)))
	}
	if n := len(h.outbox()); n != OwnRefusalLimit {
		t.Errorf("%d refusal answers, want %d", n, OwnRefusalLimit)
	}
	h.deliver(h.reply(id, W, "e4"))
	if m := h.outbox(); len(m) != 2 || !strings.Contains(bodyTo(t, m, ann), "White played 1. e4") {
		t.Errorf("an accepted move after the limit: %d mails", len(m))
	}
}

// rules.md 0.4a: a reminder after one deadline, a forfeit after two on the same action; the
// waiting player's own queries do not restart his clock; the forfeit is in the log.
func TestDeadlines(t *testing.T) {
	h := newHarness(t)
	now := fixedNow
	h.db.Now = func() time.Time { return now }
	id, err := h.ref.NewGame("transactional", ann, bob, variant.Options{Flags: map[string]string{"deadline": "48h"}})
	if err != nil {
		t.Fatal(err)
	}
	h.outbox()
	h.deliver(h.reply(id, W, "e4 (C)"))
	h.outbox()
	check := func() int {
		n, err := h.ref.CheckDeadlines()
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	now = now.Add(47 * time.Hour)
	h.deliver(h.reply(id, B, "VIEW")) // Bob's own query: his clock runs on
	h.deliver(h.reply(id, W, "VIEW")) // Ann's private query: it must not move Bob's clock either
	h.outbox()
	if check() != 0 {
		t.Fatal("a reminder before the deadline")
	}
	now = now.Add(2 * time.Hour)
	if check() != 1 {
		t.Fatal("no reminder after the deadline")
	}
	mustContain(t, "reminder", bodyTo(t, h.outbox(), bob), "your move (T2), due Thu 2026-11-26", "It has waited 2 days 1 hour", "2 days for each move", "(2 days from now), you forfeit")
	if check() != 0 {
		t.Fatal("the reminder was sent twice")
	}
	now = now.Add(48 * time.Hour)
	if check() != 2 {
		t.Fatal("no forfeit after two deadlines")
	}
	m := h.outbox()
	for _, who := range []string{ann, bob} {
		mustContain(t, "forfeit", bodyTo(t, m, who), "Black did not act in time, twice", "White wins", "game over: 1-0")
	}
	if out := h.outcome(id); out.Result != "1-0" || out.Termination != "forfeit" {
		t.Errorf("outcome %+v (from the replayed log)", out)
	}
	if check() != 0 {
		t.Error("a finished game was checked again")
	}
	// A move in time restarts the clock: no reminder for White after Black's move.
	g := newHarness(t)
	gnow := fixedNow
	g.db.Now = func() time.Time { return gnow }
	gid := g.newGame("orthodox")
	gnow = gnow.Add(70 * time.Hour)
	g.deliver(g.reply(gid, W, "e4"))
	g.outbox()
	gnow = gnow.Add(10 * time.Hour)
	if n, _ := g.ref.CheckDeadlines(); n != 0 {
		t.Error("a reminder to Black only 10 hours after White's move")
	}
}

// Issue 33: a player who mates writing + is not told to write #: the game is over, and the
// note would help nobody; a wrong check mark in a game that goes on is still noted.
func TestMateWithPlusNotNoted(t *testing.T) {
	h := newHarness(t)
	id := h.newGame("orthodox")
	h.outbox()
	h.deliver(h.reply(id, W, "f3"))
	h.outbox()
	h.deliver(h.reply(id, B, "e5+"))
	mustContain(t, "a wrong check mark", bodyTo(t, h.outbox(), bob), "the move gives no check")
	h.deliver(h.reply(id, W, "g4"))
	h.outbox()
	h.deliver(h.reply(id, B, "Qh4+"))
	body := bodyTo(t, h.outbox(), bob)
	mustContain(t, "the mate", body, "Black checkmated White")
	if strings.Contains(body, "write #") {
		t.Errorf("the mate written with + is noted:\n%s", body)
	}
	// Nor is one written with no mark (found by review).
	id = h.newGame("orthodox")
	h.outbox()
	for i, m := range []string{"f3", "e5", "g4", "Qh4"} {
		h.deliver(h.reply(id, chess.Color(i%2), m))
		body = bodyTo(t, h.outbox(), [2]string{ann, bob}[i%2])
	}
	mustContain(t, "the mate with no mark", body, "Black checkmated White")
	if strings.Contains(body, "write #") {
		t.Errorf("the mate written with no mark is noted:\n%s", body)
	}
}

// Found by review (issue 34): "Hi," right above the move and "Thanks!" right under it, or a
// name in a paragraph of its own: the move is played and nothing is refused; the answer
// says the greeting was not read.
func TestGreetingBesideTheMove(t *testing.T) {
	for _, body := range []string{"Hi,\ne4", "Hi referee,\ne4\nThanks!", "e4\n\nAnn"} {
		h := newHarness(t)
		id := h.newGame("orthodox")
		h.outbox()
		h.deliver(h.reply(id, W, body))
		m := h.outbox()
		a := bodyTo(t, m, ann)
		if strings.Contains(a, "refused") || !strings.Contains(bodyTo(t, m, bob), "White played 1. e4") {
			t.Errorf("%q:\n%s", body, a)
		}
		mustContain(t, "the answer", a, "not read as")
	}
}
