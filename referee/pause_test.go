package referee

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/referee/organizer"
	"github.com/refereed/refereed/store"
)

// TestPauseReminder (issue 33): a PAUSE sends no reminder, and after RESUME the reminder comes
// at its moment, three days before the flag, counted without the pause; then the flag.
func TestPauseReminder(t *testing.T) {
	h := newHarness(t)
	id, err := h.ref.Tournaments().New(organizer.Options{Name: "Winter Cup", Variant: "orthodox", Players: quartet[:3], Organizer: td, Time: "10d"})
	if err != nil {
		t.Fatal(err)
	}
	open := h.outbox()
	addr := organizerReplyTo(t, open)
	g := h.tournament(id).Rounds[0].Games[0].Game
	white := h.player(g, chess.White).Address
	org := func(body string) []store.OutMail {
		h.uid++
		raw := strings.Replace(string(mailText(td, addr, "Re: Winter Cup", body, "")), "Message-ID: <", "Message-ID: <o"+strconv.Itoa(int(h.uid))+".", 1)
		if err := h.ref.Handle(store.InboxKey{Mailbox: "INBOX", UIDValidity: 7, UID: h.uid}, []byte(raw)); err != nil {
			t.Fatal(err)
		}
		return h.outbox()
	}
	reminders := func(mails []store.OutMail) int {
		n := 0
		for _, b := range mailsTo(t, mails, white) {
			if strings.Contains(b, "Reminder") {
				n++
			}
		}
		return n
	}
	h.now = h.now.Add(5 * day) // White has thought 5 of his 10 days
	if n := reminders(append(org("PAUSE"), h.outbox()...)); n != 0 {
		t.Fatalf("PAUSE sent %d reminders", n)
	}
	h.deadlines()
	if n := reminders(h.outbox()); n != 0 {
		t.Fatalf("the deadline check sent %d reminders at the pause", n)
	}
	h.now = h.now.Add(20 * day)
	h.deadlines()
	if n := reminders(h.outbox()); n != 0 {
		t.Fatalf("%d reminders while paused", n)
	}
	org("RESUME")
	h.deadlines()
	if n := reminders(h.outbox()); n != 0 {
		t.Fatalf("RESUME sent %d reminders: White has 5 days left", n)
	}
	// The flag falls 6 days after RESUME (5 days left, and a day's grace: a move charged
	// whole days); the reminder 3 days before it.
	h.now = h.now.Add(2*day + 23*time.Hour)
	h.deadlines()
	if n := reminders(h.outbox()); n != 0 {
		t.Fatalf("reminded early")
	}
	h.now = h.now.Add(2 * time.Hour)
	h.deadlines()
	if n := reminders(h.outbox()); n != 1 {
		t.Fatalf("%d reminders at the moment", n)
	}
	h.now = h.now.Add(3 * day)
	h.deadlines()
	if out := h.outcome(g); out.Result != "0-1" {
		t.Fatalf("no flag: %+v", out)
	}
}
