package organizer_test

import (
	"strings"
	"testing"
	"time"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/referee/organizer"
	"github.com/refereed/refereed/referee/refereetest"
	"github.com/refereed/refereed/store"
)

// TestPauseReminder (issue 33): a PAUSE sends no reminder, and after RESUME the reminder comes
// at its moment, three days before the flag, counted without the pause; then the flag.
func TestPauseReminder(t *testing.T) {
	h := refereetest.New(t)
	id, err := h.Ref.Tournaments().New(organizer.Options{Name: "Winter Cup", Variant: "orthodox", Players: quartet[:3], Organizer: td, Time: "10d"})
	if err != nil {
		t.Fatal(err)
	}
	open := h.Outbox()
	addr := organizerReplyTo(t, open)
	g := h.Tournament(id).Rounds[0].Games[0].Game
	white := h.Game(g).Players[chess.White].Address
	send := toOrganizer(h, addr)
	org := func(body string) []store.OutMail { return send(td, body) }
	reminders := func(mails []store.OutMail) int {
		n := 0
		for _, b := range refereetest.MailsTo(t, mails, white) {
			if strings.Contains(b, "Reminder") {
				n++
			}
		}
		return n
	}
	h.Clock = h.Clock.Add(5 * day) // White has thought 5 of his 10 days
	if n := reminders(append(org("PAUSE"), h.Outbox()...)); n != 0 {
		t.Fatalf("PAUSE sent %d reminders", n)
	}
	h.Wait(0)
	if n := reminders(h.Outbox()); n != 0 {
		t.Fatalf("the deadline check sent %d reminders at the pause", n)
	}
	h.Clock = h.Clock.Add(20 * day)
	h.Wait(0)
	if n := reminders(h.Outbox()); n != 0 {
		t.Fatalf("%d reminders while paused", n)
	}
	org("RESUME")
	h.Wait(0)
	if n := reminders(h.Outbox()); n != 0 {
		t.Fatalf("RESUME sent %d reminders: White has 5 days left", n)
	}
	// The flag falls 6 days after RESUME (5 days left, and a day's grace: a move charged
	// whole days); the reminder 3 days before it.
	h.Clock = h.Clock.Add(2*day + 23*time.Hour)
	h.Wait(0)
	if n := reminders(h.Outbox()); n != 0 {
		t.Fatalf("reminded early")
	}
	h.Clock = h.Clock.Add(2 * time.Hour)
	h.Wait(0)
	if n := reminders(h.Outbox()); n != 1 {
		t.Fatalf("%d reminders at the moment", n)
	}
	h.Clock = h.Clock.Add(3 * day)
	h.Wait(0)
	if out := h.Outcome(g); out.Result != "0-1" {
		t.Fatalf("no flag: %+v", out)
	}
}
