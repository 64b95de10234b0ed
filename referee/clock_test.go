package referee

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/refereed/refereed/archive"
	"github.com/refereed/refereed/referee/organizer"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/variant"
)

const day = 24 * time.Hour

func (h *harness) timedGame(v, control string) uint64 {
	h.t.Helper()
	id, err := h.ref.NewGame(v, ann, bob, variant.Options{Flags: map[string]string{"time": control}})
	if err != nil {
		h.t.Fatal(err)
	}
	return id
}

func (h *harness) deadlines() int {
	h.t.Helper()
	n, err := h.ref.CheckDeadlines()
	if err != nil {
		h.t.Fatal(err)
	}
	return n
}

// TestTimeControl: ICCF clocks by mail. Whole days are charged (2 days 3 hours cost 2), the
// increment comes after each move, both clocks are in every mail, a reminder goes out three
// days before the flag, and the flag's fall loses the game on time; replay gives the same.
func TestTimeControl(t *testing.T) {
	h := newHarness(t)
	id := h.timedGame("orthodox", "5d+1d")
	open := h.outbox()
	mustSay(t, "White's opening", bodyTo(t, open, ann), "Clocks (5d+1d, whole days): White 5 days left, Black 5 days left.",
		"White's clock runs since Sun 2026-11-22 12:00 UTC; without a move his flag falls Sat 2026-11-28 12:00 UTC.")

	h.now = h.now.Add(2*day + 3*time.Hour)
	h.deliver(h.reply(id, W, "e4"))
	m := h.outbox()
	for _, who := range []string{ann, bob} {
		mustSay(t, "after 1. e4", bodyTo(t, m, who), "White 4 days left, Black 5 days left.", "Black's clock runs since Tue 2026-11-24 15:00 UTC")
	}

	// A private question does not move a clock.
	h.now = h.now.Add(time.Hour)
	h.deliver(h.reply(id, B, "BOARD"))
	mustSay(t, "Black's BOARD", bodyTo(t, h.outbox(), bob), "White 4 days left, Black 5 days left.", "Black's clock runs since Tue 2026-11-24 15:00 UTC")

	// Black's flag falls 6 days after his clock started; the reminder comes 3 days before.
	if n := h.deadlines(); n != 0 {
		t.Fatalf("%d mails a day into Black's move", n)
	}
	h.now = h.now.Add(2*day - time.Hour) // 2 days into the move
	if n := h.deadlines(); n != 0 {
		t.Fatalf("%d mails 2 days into Black's move", n)
	}
	h.now = h.now.Add(day)
	if n := h.deadlines(); n != 1 {
		t.Fatalf("%d mails 3 days into Black's move, want the reminder", n)
	}
	mustSay(t, "the reminder", bodyTo(t, h.outbox(), bob), "2 days left", "your flag falls Mon 2026-11-30 15:00 UTC", "White 4 days left, Black 2 days left.")
	if n := h.deadlines(); n != 0 {
		t.Fatalf("a second reminder: %d mails", n)
	}
	h.now = h.now.Add(3*day - time.Minute)
	if n := h.deadlines(); n != 0 {
		t.Fatalf("%d mails a minute before the flag", n)
	}
	h.now = h.now.Add(time.Minute)
	if n := h.deadlines(); n != 2 {
		t.Fatalf("%d mails at the flag, want the loss on time to both", n)
	}
	end := h.outbox()
	for _, who := range []string{ann, bob} {
		mustSay(t, "the loss on time", bodyTo(t, end, who), "Black's time ran out: Black loses on time. White wins.", "game over: 1-0")
	}
	if out := h.outcome(id); out.Result != "1-0" || out.Termination != "time forfeit" {
		t.Fatalf("outcome %+v", out)
	}
	// A fresh referee on the same store (a restart) finds the same game.
	again := &Referee{DB: h.db, Address: h.ref.Address}
	if err := h.db.View(func(tx *store.Tx) error {
		l, err := archive.Load(tx, id)
		if err != nil {
			return err
		}
		if l.Live.Outcome().Termination != "time forfeit" || l.Clock.Moves != [2]int{1, 0} || l.Clock.Used != [2]int{2, 6} {
			t.Errorf("replayed: %+v, clock %+v", l.Live.Outcome(), l.Clock)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if n, err := again.CheckDeadlines(); err != nil || n != 0 {
		t.Fatalf("after the end: %d mails, %v", n, err)
	}
}

// TestClockPerMoves: 3 days per 2 moves; a simultaneous game's clock runs only for the one
// who has not chosen once the other has.
func TestClockSimultaneous(t *testing.T) {
	h := newHarness(t)
	id := h.timedGame("korolev", "3d/2")
	h.outbox()
	h.now = h.now.Add(5 * day) // no clock runs while both must choose
	h.deliver(h.reply(id, W, "e4"))
	m := h.outbox()
	mustSay(t, "Black after White chose", bodyTo(t, m, bob), "White 3 days left, Black 3 days left.", "Black's clock runs since Fri 2026-11-27 12:00 UTC")
	h.now = h.now.Add(day + time.Hour)
	h.deliver(h.reply(id, B, "e5"))
	m = h.outbox()
	mustSay(t, "after the turn", bodyTo(t, m, ann), "White 3 days left, Black 2 days left.")
	if strings.Contains(bodyTo(t, m, ann), "clock runs") {
		t.Fatalf("a clock runs while both must choose:\n%s", bodyTo(t, m, ann))
	}
}

// TestLeave: LEAVE by mail stops the clocks of all the player's games on those days; his
// opponents are told the dates, and nothing else; the allowance and the calendar are kept.
func TestLeave(t *testing.T) {
	h := newHarness(t)
	id := h.timedGame("orthodox", "3d")
	other, err := h.ref.NewGame("orthodox", "cleo@example.org", ann, variant.Options{Flags: map[string]string{"time": "3d"}})
	if err != nil {
		t.Fatal(err)
	}
	h.outbox()
	for _, c := range []struct{ line, want string }{
		{"LEAVE 2026-11-20 2026-11-25", "starts today (2026-11-22) at the earliest"},
		{"LEAVE 2026-12-10 2026-12-01", "comes before the first"},
		{"LEAVE 2027-01-01 2027-02-20", "more leave than you may take in 2027: 45 days a year, 0 taken, 51 asked for"},
		{"LEAVE tomorrow", "write LEAVE and the first and last day"},
		{"LEAVE 2027-11-23", "at most a year ahead: it may start on 2027-11-22 at the latest"},
	} {
		h.deliver(h.reply(id, W, c.line))
		m := h.outbox()
		mustSay(t, c.line, bodyTo(t, m, ann), c.want)
		if len(m) != 1 {
			t.Fatalf("%s: %d mails", c.line, len(m))
		}
	}
	h.deliver(h.reply(id, W, "LEAVE 2026-11-23 2026-11-27"))
	m := h.outbox()
	mustSay(t, "the answer", bodyTo(t, m, ann), "Leave granted from 2026-11-23 to 2026-11-27 (5 days): the clocks of your 2 games", "Leave left for 2026: 40 days.",
		"Clocks stand still on leave: 2026-11-23 to 2026-11-27.")
	mustSay(t, "the opponent here", bodyTo(t, m, bob), "White takes leave from 2026-11-23 to 2026-11-27 (5 days)")
	mustSay(t, "the opponent in the other game", bodyTo(t, m, "cleo@example.org"), "Black takes leave from 2026-11-23 to 2026-11-27 (5 days)")
	if len(m) != 3 {
		t.Fatalf("%d mails for a leave, want 3", len(m))
	}
	// White's flag: 4 days of clock (3 left, plus the day that charges the 4th) around 5 of leave.
	h.deliver(h.reply(id, W, "LEAVE 2026-11-26"))
	mustSay(t, "an overlap", bodyTo(t, h.outbox(), ann), "you already have leave from 2026-11-23 to 2026-11-27")
	// Both games' clocks stood still on ann's leave, cleo's too: both flags fall together.
	h.now = time.Date(2026, 12, 1, 11, 59, 0, 0, time.UTC)
	if n := h.deadlines(); n != 2 { // the reminders to ann and to cleo
		t.Fatalf("%d mails before the flag, want 2 reminders", n)
	}
	h.outbox()
	h.now = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	if n := h.deadlines(); n != 4 {
		t.Fatalf("%d mails at the flags (Nov 22 12:00 + 4 days + 5 days of leave), want 4", n)
	}
	if out := h.outcome(id); out.Termination != "time forfeit" || out.Result != "0-1" {
		t.Fatalf("game %d: %+v", id, out)
	}
	if out := h.outcome(other); out.Termination != "time forfeit" || out.Result != "0-1" {
		t.Fatalf("game %d: %+v", other, out)
	}
}

// TestLeaveDeadline: leave stops the simple deadline too.
func TestLeaveDeadline(t *testing.T) {
	h := newHarness(t)
	id := h.newGame("orthodox")
	h.outbox()
	h.deliver(h.reply(id, W, "LEAVE 2026-11-23 2026-11-24"))
	h.outbox()
	h.now = h.now.Add(72*time.Hour + 47*time.Hour)
	if n := h.deadlines(); n != 0 {
		t.Fatalf("reminded during leave: %d", n)
	}
	h.now = h.now.Add(time.Hour)
	if n := h.deadlines(); n != 1 {
		t.Fatalf("%d mails after 72 h outside leave, want the reminder", n)
	}
}

// TestLeaveAllowance: a tournament's allowance is its players'; the organizer may grant more.
func TestLeaveAllowance(t *testing.T) {
	h := newHarness(t)
	id, err := h.ref.Tournaments().New(organizer.Options{Name: "Short Leave Cup", Variant: "orthodox", Players: quartet[:3], Time: "10d", LeaveDays: 10})
	if err != nil {
		t.Fatal(err)
	}
	h.outbox()
	g := h.tournament(id).Rounds[0].Games[0].Game
	w := h.player(g, W).Address
	h.deliver(h.reply(g, W, "LEAVE 2027-03-01 2027-03-11"))
	mustSay(t, "11 days of 10", bodyTo(t, h.outbox(), w), "more leave than you may take in 2027: 10 days a year, 0 taken, 11 asked for")
	h.deliver(h.reply(g, W, "LEAVE 2027-03-01 2027-03-10"))
	mustSay(t, "10 days of 10", bodyTo(t, h.outbox(), w), "Leave granted from 2027-03-01 to 2027-03-10 (10 days)", "Leave left for 2027: 0 days.")
	out, err := h.ref.Tournaments().Organize(id, "LEAVE "+w+" 2027-04-01")
	if err != nil || !strings.Contains(strings.Join(strings.Fields(out), " "), "goes beyond the 10 days a player may take in 2027 (11 in all): the organizer granted it") {
		t.Fatalf("the organizer's leave beyond the allowance: %v\n%s", err, out)
	}
}

// TestLeaveBounds: what one player's leave can make the referee send is bounded: one LEAVE a
// mail, twelve leaves a year, none without a game going; a finished game's opponent is not
// told.
func TestLeaveBounds(t *testing.T) {
	h := newHarness(t)
	id := h.timedGame("orthodox", "30d")
	h.outbox()
	h.deliver(h.reply(id, W, "LEAVE 2026-12-01\nLEAVE 2026-12-03"))
	m := h.outbox()
	mustSay(t, "two leaves in a mail", bodyTo(t, m, ann), "Leave granted on 2026-12-01", "Line 2 (LEAVE 2026-12-03) was refused: one LEAVE a mail")
	mustSay(t, "the opponent", bodyTo(t, m, bob), "White takes leave on 2026-12-01: the clocks of this game stand still that day.")
	for d := 5; d < 5+2*11; d += 2 {
		h.deliver(h.reply(id, W, fmt.Sprintf("LEAVE 2026-12-%02d", d)))
		h.outbox()
	}
	h.deliver(h.reply(id, W, "LEAVE 2026-12-30"))
	mustSay(t, "a thirteenth leave", bodyTo(t, h.outbox(), ann), "more than 12 separate leaves starting in 2026")

	h.deliver(h.reply(id, W, "RESIGN"))
	h.outbox()
	h.deliver(h.reply(id, W, "LEAVE 2027-01-10"))
	m = h.outbox()
	mustSay(t, "leave with no game going", bodyTo(t, m, ann), "you have no game in progress")
	if bodyTo(t, m, bob) != "" {
		t.Fatalf("the opponent of a finished game was written to:\n%s", bodyTo(t, m, bob))
	}
}

// Every game keeps a clock: after White's first mail the game waits for Black alone (in a
// simultaneous game, once White has chosen), every mail shows both clocks, Black is reminded,
// and his flag falls four days later (3 left, then one more day): he loses on time.
func TestTimeForfeitEveryVariant(t *testing.T) {
	for _, key := range variant.Keys() {
		first, ok := firstOf(key)
		if !ok || key == stopperKey {
			continue
		}
		t.Run(key, func(t *testing.T) {
			h := newHarness(t)
			id := h.timedGame(key, "3d")
			for _, m := range h.outbox() {
				checkMail(t, m)
				mustSay(t, key+" opening", bodyTo(t, []store.OutMail{m}, m.To[0]), "Clocks (3d, whole days): White 3 days left, Black 3 days left.")
			}
			h.now = h.now.Add(time.Hour)
			h.deliver(h.reply(id, W, first))
			for _, m := range h.outbox() {
				checkMail(t, m)
				mustSay(t, key+" after White's first mail", bodyTo(t, []store.OutMail{m}, m.To[0]), "Black's clock runs since Sun 2026-11-22 13:00 UTC; without a move his flag falls Thu 2026-11-26 13:00 UTC.")
			}
			h.now = h.now.Add(2 * day)
			if n := h.deadlines(); n != 1 {
				t.Fatalf("%d mails two days into Black's move, want the reminder", n)
			}
			h.outbox()
			h.now = h.now.Add(2 * day)
			if n := h.deadlines(); n != 2 {
				t.Fatalf("%d mails at the flag, want the loss on time to both", n)
			}
			for _, m := range h.outbox() {
				checkMail(t, m)
				mustSay(t, key+" loss on time", bodyTo(t, []store.OutMail{m}, m.To[0]), "Black's time ran out: Black loses on time. White wins.")
			}
			if out := h.outcome(id); out.Result != "1-0" || out.Termination != "time forfeit" {
				t.Fatalf("outcome %+v", out)
			}
		})
	}
}
