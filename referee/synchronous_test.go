package referee

import (
	"testing"
	"time"

	"github.com/refereed/refereed/referee/clocks"
	"github.com/refereed/refereed/store"
)

// Deadlines of a simultaneous turn (rules.md 0.4a): no clock runs while neither player has
// chosen; once one has, the other's runs from that moment, with a reminder after one
// deadline and a forfeit after the second; the one who chose is never reminded.
func TestSynchronousDeadlines(t *testing.T) {
	h := newHarness(t)
	id := h.trainWreck("korolev", "", nil)
	waiting := func() string {
		var s string
		if err := h.db.View(func(tx *store.Tx) error {
			var err error
			s, err = clocks.Waiting(tx, id)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return s
	}
	mustSay(t, "Waiting", waiting(), "Waiting for both players to choose their moves; no clock runs")
	h.now = h.now.Add(10 * clocks.DefaultDeadline)
	if n, err := h.ref.CheckDeadlines(); err != nil || n != 0 {
		t.Fatalf("neither has chosen, yet %d mails (%v)", n, err)
	}
	chose := h.now
	h.deliver(h.reply(id, W, "e4"))
	h.outbox()
	mustSay(t, "Waiting", waiting(), "Waiting for Black since "+clocks.When(chose))

	h.now = chose.Add(clocks.DefaultDeadline - time.Minute)
	if n, _ := h.ref.CheckDeadlines(); n != 0 {
		t.Fatalf("%d mails before the deadline", n)
	}
	h.now = chose.Add(clocks.DefaultDeadline + time.Minute)
	if n, err := h.ref.CheckDeadlines(); err != nil || n != 1 {
		t.Fatalf("%d mails at the deadline, want Black's reminder (%v)", n, err)
	}
	mails := h.outbox()
	if len(mails) != 1 || mails[0].To[0] != bob {
		t.Fatalf("the reminder went to %v, want Black alone", mails[0].To)
	}
	checkMail(t, mails[0])
	mustSay(t, "the reminder", bodyTo(t, mails, bob), "your move (turn 1), due ")

	h.now = h.now.Add(clocks.DefaultDeadline + time.Minute)
	if _, err := h.ref.CheckDeadlines(); err != nil {
		t.Fatal(err)
	}
	if out := h.outcome(id); out.Result != "1-0" || out.Termination != "forfeit" {
		t.Fatalf("after the second deadline: %+v, want Black's forfeit", out)
	}
	mails = h.outbox()
	for _, m := range mails {
		checkMail(t, m)
	}
	// The whole truth, White's sealed move included, is in the record both are sent.
	mustSay(t, "the game-over mail", bodyTo(t, mails, bob), "The whole game:", "1. e4")

	// A turn that Black chose first runs White's clock, not Black's.
	h2 := newHarness(t)
	id2 := h2.trainWreck("synchronous", "", nil)
	h2.deliver(h2.reply(id2, B, "Nf6"))
	h2.outbox()
	h2.now = h2.now.Add(clocks.DefaultDeadline + time.Minute)
	if n, _ := h2.ref.CheckDeadlines(); n != 1 {
		t.Fatalf("%d mails, want White's reminder", n)
	}
	if mails := h2.outbox(); mails[0].To[0] != ann {
		t.Errorf("the reminder went to %v, want White", mails[0].To)
	}
}

// Exactly once across a crash between the second submission and the resolution: the daemon
// dies after Black's move was accepted and before the notices were queued (a fault at that
// step rolls the transaction back, as a kill does), and the mail, handled again, resolves the
// turn once: one log entry per move, one mail each.
func TestSynchronousResolvedOnceAcrossACrash(t *testing.T) {
	for _, step := range []string{"log", "render", "enqueue", "mark"} {
		t.Run(step, func(t *testing.T) {
			h := newHarness(t)
			id := h.trainWreck("korolev", "", nil)
			h.deliver(h.reply(id, W, "e4"))
			h.outbox()
			raw := h.reply(id, B, "d5")
			key := store.InboxKey{Mailbox: "INBOX", UIDValidity: 9, UID: 1}
			h.ref.Fault = func(s string) error {
				if s == step {
					return errCrash
				}
				return nil
			}
			if err := h.ref.Handle(key, raw); err == nil {
				t.Fatal("the crash did not happen")
			}
			h.ref.Fault = nil
			if n := len(h.outbox()); n != 0 {
				t.Fatalf("%d mails left by the crashed attempt", n)
			}
			for i := 0; i < 2; i++ { // the daemon comes back; the mail is fetched again, twice
				if err := h.ref.Handle(key, raw); err != nil {
					t.Fatal(err)
				}
			}
			var events []store.Event
			h.db.View(func(tx *store.Tx) error { events, _ = tx.Events(id); return nil })
			if len(events) != 2 {
				t.Errorf("%d log entries, want White's and Black's move once each: %+v", len(events), events)
			}
			mails := h.outbox()
			if len(mails) != 2 {
				t.Fatalf("%d mails after the turn was resolved, want one to each player", len(mails))
			}
			mustSay(t, "the resolution", bodyTo(t, mails, ann), "Turn 1:")
		})
	}
}

var errCrash = errorString("the daemon was killed here")

type errorString string

func (e errorString) Error() string { return string(e) }
