// Package clocks is the referee's one place for time: when a game's player is due and in what
// words (ICCF clocks in whole days, which package tournament counts, or the simple deadline of
// rules.md 0.4a), the reminder and the loss they lead to, the clock paragraph of every mail of
// a timed game, and leave (its dates, the days it takes in a year). Its Keeper runs the
// deadline check and grants leave (keeper.go), changing games through package play.
package clocks

import (
	"fmt"
	"strings"
	"time"

	"github.com/refereed/refereed/clock"
	"github.com/refereed/refereed/lang"

	"github.com/refereed/refereed/archive"
	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/templates"
	"github.com/refereed/refereed/variant"
)

// DefaultLeaveDays is the leave a player may take in a calendar year, unless his tournament
// says otherwise.
const DefaultLeaveDays = 45

// MaxLeaveSpan bounds one leave: nobody asks for more than the allowance at once.
const MaxLeaveSpan = 366

// Days writes a number of days: "1 day", "27 days"; an overdrawn clock shows 0.
func Days(n int) string {
	if n == 1 {
		return "1 day"
	}
	return fmt.Sprintf("%d days", max(n, 0))
}

// Args are what the clock paragraph says of l at now: each side's days left, whose
// clock runs since when and when his flag falls, and the stops still to come. While the
// organizer's pause lasts no clock runs and no flag can fall: it says that instead.
func Args(l *archive.Game, now time.Time) templates.Args {
	c := l.Clock
	over := l.Stored.Over() || l.Live.Outcome().Over()
	args := templates.Args{"Control": c.Control.String(), "White": Days(c.Left(0, now)), "Black": Days(c.Left(1, now)),
		"Running": "", "Since": "", "Flag": "", "Paused": ""}
	// The pause going on is named by its own start: merged with a leave that began earlier
	// the stop would start at that leave's first day.
	for _, s := range l.Stops {
		if !over && openEnded(s, now) && !s.From.After(now) {
			args["Paused"] = When(s.From)
		}
	}
	var stops []string
	for _, s := range clock.Merge(l.Stops) {
		switch {
		case over || !s.To.After(now) || openEnded(s, now):
		default:
			last := s.To.Add(-time.Second).UTC().Format(archive.DateLayout)
			if first := s.From.UTC().Format(archive.DateLayout); first == last {
				stops = append(stops, first)
			} else {
				stops = append(stops, first+" to "+last)
			}
		}
	}
	if c.Running >= 0 && !over && args["Paused"] == "" {
		args["Running"] = chess.Color(c.Running).String()
		args["Since"] = When(c.Since)
		args["Flag"] = When(c.Flag())
	}
	args["Stops"] = stops
	return args
}

// openEnded reports whether s is a pause still going (stopsOf writes its end a thousand
// years ahead).
func openEnded(s clock.Stop, now time.Time) bool { return s.To.Sub(now) > 100*365*clock.Day }

// Text is the clock paragraph of a game with a time control.
func Text(l *archive.Game, now time.Time, t lang.Tag) string {
	return templates.SayIn(t, "", "clock", Args(l, now))
}

// Para is the clock paragraph for a mail of game sg, "" for a game without a time
// control. It replays the game: the mail is written after its commands were logged.
func Para(tx *store.Tx, sg *store.Game, t lang.Tag) (string, error) {
	if _, ok := archive.TimeControlOf(sg); !ok {
		return "", nil
	}
	l, err := archive.Load(tx, sg.ID)
	if err != nil {
		return "", err
	}
	return Text(l, tx.Now, t), nil
}

// LeaveRequest is a leave asked for: LEAVE 2027-01-02 2027-01-10 (a single date: one day).
type LeaveRequest struct{ From, To time.Time }

// ParseLeave reads the dates of a LEAVE command.
func ParseLeave(args []string) (LeaveRequest, error) {
	var lr LeaveRequest
	if len(args) < 1 || len(args) > 2 {
		return lr, variant.Refuse("leave-usage", nil)
	}
	var err error
	if lr.From, err = time.Parse(archive.DateLayout, args[0]); err != nil {
		return lr, variant.Refuse("leave-usage", nil)
	}
	lr.To = lr.From
	if len(args) == 2 {
		if lr.To, err = time.Parse(archive.DateLayout, args[1]); err != nil {
			return lr, variant.Refuse("leave-usage", nil)
		}
	}
	if lr.To.Before(lr.From) {
		return lr, variant.Refuse("leave-backwards", nil)
	}
	if n := lr.Days(); n > MaxLeaveSpan {
		return lr, variant.Refuse("leave-too-long", templates.Args{"Days": n})
	}
	return lr, nil
}

func (lr LeaveRequest) Days() int { return int(lr.To.Sub(lr.From)/clock.Day) + 1 }

func (lr LeaveRequest) String() string {
	return lr.From.Format(archive.DateLayout) + " " + lr.To.Format(archive.DateLayout)
}

// DaysIn counts the days of [from, to] (inclusive dates) in calendar year y.
func DaysIn(from, to time.Time, y int) int {
	lo := Later(from, time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC))
	hi := to
	if end := time.Date(y, 12, 31, 0, 0, 0, 0, time.UTC); end.Before(hi) {
		hi = end
	}
	if hi.Before(lo) {
		return 0
	}
	return int(hi.Sub(lo)/clock.Day) + 1
}

// MaxLeavePeriods bounds the separate leaves a player asks for in a year: each is told to
// every opponent, so a player cannot flood them with one-day leaves.
const MaxLeavePeriods = 12

// LeavesStartingIn counts the leaves of rec that start in year y.
func LeavesStartingIn(rec *store.PlayerRecord, y int) int {
	n := 0
	for _, lv := range rec.Leaves {
		if s, ok := archive.LeaveStop(lv); ok && s.From.Year() == y {
			n++
		}
	}
	return n
}

// Going counts the games of games that addr plays and that are still going.
func Going(games []store.Game, addr string) int {
	n := 0
	for _, g := range games {
		if !g.Over() && (g.Players[0].Address == addr || g.Players[1].Address == addr) {
			n++
		}
	}
	return n
}

// DaysTakenIn is the leave rec holds in year y.
func DaysTakenIn(rec *store.PlayerRecord, y int) int {
	n := 0
	for _, lv := range rec.Leaves {
		if s, ok := archive.LeaveStop(lv); ok {
			n += DaysIn(s.From, s.To.AddDate(0, 0, -1), y)
		}
	}
	return n
}

// DefaultDeadline is how long a player has for each action unless the game says otherwise
// (rules.md 0.4a).
const DefaultDeadline = 72 * time.Hour

// DeadlineOf is the game's deadline: the option "deadline" (a duration like 48h), else 72 h.
func DeadlineOf(g *store.Game) time.Duration {
	if d, err := time.ParseDuration(g.Flags["deadline"]); err == nil && d > 0 {
		return d
	}
	return DefaultDeadline
}

// Reminded reports whether the reminder for the action that began at start went out: the
// game keeps the time of its last reminder, and a reminder is sent only after its action
// began, so one sent before start was for an earlier action.
func Reminded(sg *store.Game, start time.Time) bool { return sg.Reminded.After(start) }

// Due is what the deadline check finds for the side a game waits for: when his reminder and
// his loss fall (zero: not yet known), and whether he loses on time or by the simple
// deadline.
type Due struct {
	Remind, Lose time.Time
	OnTime       bool
}

// DueOf works out the moments of the wait for side s. With a time control, the flag falls
// when his clock runs out, and he is reminded some days before (three, or half the time he
// had when the move began if that is less). Else rules.md 0.4a: reminded when he has waited
// one deadline (plus what the organizer added to this wait), and he forfeits one deadline
// after the reminder. Leave and pauses do not count as waiting.
//
// While the organizer's pause lasts nothing falls due (zero moments): the reminder and the
// flag are worked out again when he resumes, from the time that ran before the pause.
func DueOf(l *archive.Game, s chess.Color) Due {
	if archive.PauseGoing(l.Stops) {
		return Due{OnTime: l.Clock != nil}
	}
	start := l.Since[s]
	if l.Clock != nil {
		flag := l.Clock.Flag()
		before := min(3*clock.Day, clock.Running(start, flag, l.Stops)/2)
		return Due{Remind: clock.After(start, clock.Running(start, flag, l.Stops)-before, l.Stops), Lose: flag, OnTime: true}
	}
	d := DeadlineOf(l.Stored)
	for _, e := range l.Extended {
		if e.Side == int(s) && e.At.After(start) {
			d += time.Duration(e.Days) * clock.Day
		}
	}
	dl := Due{Remind: clock.After(start, d, l.Stops)}
	if Reminded(l.Stored, start) {
		dl.Lose = Later(clock.After(l.Stored.Reminded, DeadlineOf(l.Stored), l.Stops), clock.After(start, d+DeadlineOf(l.Stored), l.Stops))
	}
	return dl
}

// Later is the later of a and b.
func Later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// When writes a moment for players anywhere: "Sat 2026-11-28 13:00 UTC".
func When(t time.Time) string { return t.UTC().Format("Mon 2006-01-02 15:04 UTC") }

// Span writes a duration in days, hours and minutes, as far as they are not zero: "3 days",
// "1 day 2 hours", "1 hour 30 minutes", "less than a minute". Seconds are dropped.
func Span(d time.Duration) string {
	if d < time.Minute {
		return "less than a minute"
	}
	var parts []string
	for _, u := range []struct {
		name string
		size time.Duration
	}{{"day", 24 * time.Hour}, {"hour", time.Hour}, {"minute", time.Minute}} {
		n := int(d / u.size)
		d -= time.Duration(n) * u.size
		switch {
		case n == 1:
			parts = append(parts, "1 "+u.name)
		case n > 1:
			parts = append(parts, fmt.Sprintf("%d %ss", n, u.name))
		}
	}
	return strings.Join(parts, " ")
}

// Waiting describes, for the organizer, whose action a game awaits, since when, and where it
// stands against its deadline or clock; "" for a finished game. A simultaneous turn that
// both players have still to choose runs no clock, and says so.
func Waiting(tx *store.Tx, id uint64) (string, error) {
	l, err := archive.Load(tx, id)
	if err != nil || l.Live.Outcome().Over() || len(l.Live.ToAct()) == 0 || l.Stored.Over() {
		return "", err
	}
	var s string
	if len(l.Live.ToAct()) > 1 {
		s = "Waiting for both players to choose their moves; no clock runs until one of them has."
	} else {
		sg, waiting := l.Stored, l.Live.ToAct()[0]
		start := l.Since[waiting]
		dl := DueOf(l, waiting)
		if dl.OnTime {
			s = fmt.Sprintf("Waiting for %s since %s (%s ago)", waiting, When(start), Span(tx.Now.Sub(start)))
		} else {
			s = fmt.Sprintf("Waiting for %s since %s (%s ago); deadline %s", waiting, When(start), Span(tx.Now.Sub(start)), Span(DeadlineOf(sg)))
			if Reminded(sg, start) {
				s += fmt.Sprintf("; reminded %s, forfeit at %s", When(sg.Reminded), When(dl.Lose))
			} else {
				s += fmt.Sprintf("; reminder at %s", When(dl.Remind))
			}
		}
		s += "."
	}
	if l.Clock != nil {
		s += "\n" + Text(l, tx.Now, lang.EN) // the operator's
	}
	return s, nil
}

// say is one of the referee's own sentences (templates/words).
func say(kind string, args templates.Args) string { return templates.Say("", kind, args) }
