package synchronous_test

import (
	"errors"
	"testing"
	"time"

	"github.com/refereed/refereed/referee/clocks"
	"github.com/refereed/refereed/referee/refereetest"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/templates/mailcheck"
)

// Deadlines of a simultaneous turn (rules.md 0.4a): no clock runs while neither player has
// chosen; once one has, the other's runs from that moment, with a reminder after one
// deadline and a forfeit after the second; the one who chose is never reminded.
func TestSynchronousDeadlines(t *testing.T) {
	h := refereetest.New(t)
	id := newGame(h, "korolev")
	waiting := func() string {
		var s string
		if err := h.DB.View(func(tx *store.Tx) error {
			var err error
			s, err = clocks.Waiting(tx, id)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return s
	}
	refereetest.Says(t, "Waiting", waiting(), "Waiting for both players to choose their moves; no clock runs")
	if n := h.Wait(10 * clocks.DefaultDeadline); n != 0 {
		t.Fatalf("neither has chosen, yet %d mails", n)
	}
	chose := h.Clock
	h.Deliver(h.Reply(id, W, "e4"))
	h.Outbox()
	refereetest.Says(t, "Waiting", waiting(), "Waiting for Black since "+clocks.When(chose))

	if n := h.Wait(clocks.DefaultDeadline - time.Minute); n != 0 {
		t.Fatalf("%d mails before the deadline", n)
	}
	if n := h.Wait(2 * time.Minute); n != 1 {
		t.Fatalf("%d mails at the deadline, want Black's reminder", n)
	}
	mails := h.Outbox()
	if len(mails) != 1 || mails[0].To[0] != refereetest.Black {
		t.Fatalf("the reminder went to %v, want Black alone", mails[0].To)
	}
	refereetest.Says(t, "the reminder", refereetest.BodyTo(t, mails, refereetest.Black), "your move (turn 1), due ")

	h.Wait(clocks.DefaultDeadline + time.Minute)
	if out := h.Outcome(id); out.Result != "1-0" || out.Termination != "forfeit" {
		t.Fatalf("after the second deadline: %+v, want Black's forfeit", out)
	}
	mails = h.Outbox()
	for _, m := range mails {
		mailcheck.Check(t, m)
	}
	// The whole truth, White's sealed move included, is in the record both are sent.
	refereetest.Says(t, "the game-over mail", refereetest.BodyTo(t, mails, refereetest.Black), "The whole game:", "1. e4")

	// A turn that Black chose first runs White's clock, not Black's.
	h2 := refereetest.New(t)
	id2 := newGame(h2, "synchronous")
	h2.Deliver(h2.Reply(id2, B, "Nf6"))
	h2.Outbox()
	if n := h2.Wait(clocks.DefaultDeadline + time.Minute); n != 1 {
		t.Fatalf("%d mails, want White's reminder", n)
	}
	if mails := h2.Outbox(); mails[0].To[0] != refereetest.White {
		t.Errorf("the reminder went to %v, want White", mails[0].To)
	}
}

// Exactly once across a crash between the second submission and the resolution: the daemon
// dies after Black's move was accepted and before the notices were queued (a fault at that
// step rolls the transaction back, as a kill does), and the mail, handled again, resolves the
// turn once: one log entry per move, one mail each.
func TestSynchronousResolvedOnceAcrossACrash(t *testing.T) {
	errCrash := errors.New("the daemon was killed here")
	for _, step := range []string{"log", "render", "enqueue", "mark"} {
		t.Run(step, func(t *testing.T) {
			h := refereetest.New(t)
			id := newGame(h, "korolev")
			h.Deliver(h.Reply(id, W, "e4"))
			h.Outbox()
			raw := h.Reply(id, B, "d5")
			key := store.InboxKey{Mailbox: "INBOX", UIDValidity: 9, UID: 1}
			h.Ref.Fault = func(s string) error {
				if s == step {
					return errCrash
				}
				return nil
			}
			if err := h.Ref.Handle(key, raw); err == nil {
				t.Fatal("the crash did not happen")
			}
			h.Ref.Fault = nil
			if n := len(h.Outbox()); n != 0 {
				t.Fatalf("%d mails left by the crashed attempt", n)
			}
			for i := 0; i < 2; i++ { // the daemon comes back; the mail is fetched again, twice
				if err := h.Ref.Handle(key, raw); err != nil {
					t.Fatal(err)
				}
			}
			if events := h.Log(id); len(events) != 2 {
				t.Errorf("%d log entries, want White's and Black's move once each: %+v", len(events), events)
			}
			mails := h.Outbox()
			if len(mails) != 2 {
				t.Fatalf("%d mails after the turn was resolved, want one to each player", len(mails))
			}
			refereetest.Says(t, "the resolution", refereetest.BodyTo(t, mails, refereetest.White), "Turn 1:")
		})
	}
}
