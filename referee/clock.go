package referee

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/refereed/refereed/archive"
	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/templates"
	"github.com/refereed/refereed/tournament"
	"github.com/refereed/refereed/variant"
)

// Correspondence clocks and leave (issue: tournaments, items 3 and 4). A game with a time
// control (its flag "time", "30d+3d" or "50d/10") keeps ICCF clocks in whole days
// (tournament.Clock) in place of the simple deadline of rules.md 0.4a: every mail of it shows
// both clocks, a reminder goes out before the flag falls, and a player whose flag falls loses
// on time. A player's leave stops the clocks (and the simple deadlines) of all his games on
// those days, and a tournament's pause stops all of its games'. Both are read from the store
// whenever a game is loaded, so a clock is always the pure result of the game's log, the
// leave granted and the pauses. Leave can be asked for from today on, never for the past:
// what a clock charged before it was granted stays charged.

// DefaultLeaveDays is the leave a player may take in a calendar year, unless his tournament
// says otherwise.
const DefaultLeaveDays = 45

// maxLeaveSpan bounds one leave: nobody asks for more than the allowance at once.
const maxLeaveSpan = 366

// days writes a number of days: "1 day", "27 days"; an overdrawn clock shows 0.
func days(n int) string {
	if n == 1 {
		return "1 day"
	}
	return fmt.Sprintf("%d days", max(n, 0))
}

// clockArgs are what the clock paragraph says of l at now: each side's days left, whose
// clock runs since when and when his flag falls, and the stops still to come. While the
// organizer's pause lasts no clock runs and no flag can fall: it says that instead.
func clockArgs(l *archive.Game, now time.Time) templates.Args {
	c := l.Clock
	over := l.Stored.Over() || l.Live.Outcome().Over()
	args := templates.Args{"Control": c.Control.String(), "White": days(c.Left(0, now)), "Black": days(c.Left(1, now)),
		"Running": "", "Since": "", "Flag": "", "Paused": ""}
	// The pause going on is named by its own start: merged with a leave that began earlier
	// the stop would start at that leave's first day.
	for _, s := range l.Stops {
		if !over && openEnded(s, now) && !s.From.After(now) {
			args["Paused"] = when(s.From)
		}
	}
	var stops []string
	for _, s := range tournament.Merge(l.Stops) {
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
		args["Since"] = when(c.Since)
		args["Flag"] = when(c.Flag())
	}
	args["Stops"] = stops
	return args
}

// openEnded reports whether s is a pause still going (stopsOf writes its end a thousand
// years ahead).
func openEnded(s tournament.Stop, now time.Time) bool { return s.To.Sub(now) > 100*365*tournament.Day }

// clockText is the clock paragraph of a game with a time control.
func clockText(l *archive.Game, now time.Time) string { return say("clock", clockArgs(l, now)) }

// clockPara is the clock paragraph for a mail of game sg, "" for a game without a time
// control. It replays the game: the mail is written after its commands were logged.
func clockPara(tx *store.Tx, sg *store.Game) (string, error) {
	if _, ok := archive.TimeControlOf(sg); !ok {
		return "", nil
	}
	l, err := archive.Load(tx, sg.ID)
	if err != nil {
		return "", err
	}
	return clockText(l, tx.Now), nil
}

// leaveRequest is a leave asked for: LEAVE 2027-01-02 2027-01-10 (a single date: one day).
type leaveRequest struct{ from, to time.Time }

// parseLeave reads the dates of a LEAVE command.
func parseLeave(args []string) (leaveRequest, error) {
	var lr leaveRequest
	if len(args) < 1 || len(args) > 2 {
		return lr, variant.Reject("%s", say("leave-usage", nil))
	}
	var err error
	if lr.from, err = time.Parse(archive.DateLayout, args[0]); err != nil {
		return lr, variant.Reject("%s", say("leave-usage", nil))
	}
	lr.to = lr.from
	if len(args) == 2 {
		if lr.to, err = time.Parse(archive.DateLayout, args[1]); err != nil {
			return lr, variant.Reject("%s", say("leave-usage", nil))
		}
	}
	if lr.to.Before(lr.from) {
		return lr, variant.Reject("%s", say("leave-backwards", nil))
	}
	if n := lr.days(); n > maxLeaveSpan {
		return lr, variant.Reject("%s", say("leave-too-long", templates.Args{"Days": n}))
	}
	return lr, nil
}

func (lr leaveRequest) days() int { return int(lr.to.Sub(lr.from)/tournament.Day) + 1 }

func (lr leaveRequest) String() string {
	return lr.from.Format(archive.DateLayout) + " " + lr.to.Format(archive.DateLayout)
}

// daysIn counts the days of [from, to] (inclusive dates) in calendar year y.
func daysIn(from, to time.Time, y int) int {
	lo := later(from, time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC))
	hi := to
	if end := time.Date(y, 12, 31, 0, 0, 0, 0, time.UTC); end.Before(hi) {
		hi = end
	}
	if hi.Before(lo) {
		return 0
	}
	return int(hi.Sub(lo)/tournament.Day) + 1
}

// leaveAllowance is the leave addr may take in a year: the least of the allowances of the
// tournaments he plays in (a leave stops all his games), else the referee's.
func (r *Referee) leaveAllowance(tx *store.Tx, addr string) (int, error) {
	ts, err := tx.Tournaments()
	if err != nil {
		return 0, err
	}
	allow := -1
	for _, t := range ts {
		if t.LeaveDays > 0 && slices.Contains(t.Players, addr) && (allow < 0 || t.LeaveDays < allow) {
			allow = t.LeaveDays
		}
	}
	switch {
	case allow >= 0:
		return allow, nil
	case r.LeaveDays > 0:
		return r.LeaveDays, nil
	}
	return DefaultLeaveDays, nil
}

// grantLeave records leave for addr after checking it: from today on, not overlapping leave
// he has, and (unless the organizer of tournament organizer grants it) within his allowance in every
// calendar year it touches. Then every opponent in his games still going is told the dates,
// and nothing more, except the opponent in game except, who hears of it in the caller's mail.
// It returns what the requester is told.
func (r *Referee) grantLeave(tx *store.Tx, addr string, lr leaveRequest, by string, organizer *store.Tournament, except uint64) (string, error) {
	byOrganizer := organizer != nil
	today := tx.Now.UTC().Truncate(tournament.Day)
	if lr.from.Before(today) {
		return "", variant.Reject("%s", say("leave-past", templates.Args{"Today": today.Format(archive.DateLayout)}))
	}
	if horizon := today.AddDate(1, 0, 0); lr.from.After(horizon) {
		return "", variant.Reject("%s", say("leave-too-early", templates.Args{"Latest": horizon.Format(archive.DateLayout)}))
	}
	rec, err := tx.PlayerRecord(addr)
	if err != nil {
		return "", err
	}
	allow, err := r.leaveAllowance(tx, addr)
	if err != nil {
		return "", err
	}
	for _, lv := range rec.Leaves {
		s, ok := archive.LeaveStop(lv)
		if ok && s.From.Before(lr.to.AddDate(0, 0, 1)) && lr.from.Before(s.To) {
			return "", variant.Reject("%s", say("leave-overlaps", templates.Args{"From": lv.From, "To": lv.To}))
		}
	}
	if periods := leavesStartingIn(rec, lr.from.Year()); periods >= maxLeavePeriods && !byOrganizer {
		return "", variant.Reject("%s", say("leave-too-many", templates.Args{"Year": lr.from.Year(), "Max": maxLeavePeriods}))
	}
	if going, err := gamesGoing(tx, addr); err != nil {
		return "", err
	} else if going == 0 {
		return "", variant.Reject("%s", say("leave-no-games", nil))
	}
	var notes []string
	for y := lr.from.Year(); y <= lr.to.Year(); y++ {
		taken := 0
		for _, lv := range rec.Leaves {
			if s, ok := archive.LeaveStop(lv); ok {
				taken += daysIn(s.From, s.To.AddDate(0, 0, -1), y)
			}
		}
		asked := daysIn(lr.from, lr.to, y)
		if taken+asked > allow {
			if !byOrganizer {
				return "", variant.Reject("%s", say("leave-over-allowance", templates.Args{"Year": y, "Allowance": allow, "Taken": taken, "Asked": asked}))
			}
			notes = append(notes, say("leave-beyond-allowance", templates.Args{"Year": y, "Allowance": allow, "Days": taken + asked}))
		}
	}
	rec.Leaves = append(rec.Leaves, store.Leave{From: lr.from.Format(archive.DateLayout), To: lr.to.Format(archive.DateLayout), Granted: tx.Now, By: by})
	if err := tx.PutPlayerRecord(rec); err != nil {
		return "", err
	}
	if err := clocksChanged(tx); err != nil {
		return "", err
	}
	// Each of his tournaments logs it (the organizer's own, which the caller holds, in place).
	ts, err := tx.Tournaments()
	if err != nil {
		return "", err
	}
	for i := range ts {
		t := &ts[i]
		if organizer != nil && t.ID == organizer.ID {
			t = organizer
		}
		if !slices.Contains(t.Players, addr) {
			continue
		}
		t.Log = append(t.Log, store.TournamentEvent{At: tx.Now, By: by, Text: "leave " + addr + " " + lr.String()})
		if err := tx.PutTournament(t); err != nil {
			return "", err
		}
	}
	games, err := tx.Games()
	if err != nil {
		return "", err
	}
	args := templates.Args{"From": lr.from.Format(archive.DateLayout), "To": lr.to.Format(archive.DateLayout), "Days": lr.days()}
	n := 0
	for i := range games {
		sg := &games[i]
		if sg.Over() {
			continue
		}
		for side, p := range sg.Players {
			if p.Address != addr {
				continue
			}
			n++
			v, err := variant.Lookup(sg.Variant)
			if err != nil {
				return "", err
			}
			if sg.ID == except {
				continue // this game's opponent hears of it in the caller's mail
			}
			// The opponent is told the dates and nothing more; the player himself is told once,
			// in the answer.
			s := chess.Color(side).Other()
			a := templates.Args{"From": args["From"], "To": args["To"], "Days": args["Days"], "Side": chess.Color(side)}
			if err := r.enqueue(tx, sg, v, letter{Side: s, Kind: "update", What: say("subject/leave-news", nil), Paras: []string{say("leave-told", a)}}); err != nil {
				return "", err
			}
		}
	}
	args["Games"] = n
	args["For"] = ""
	if byOrganizer {
		args["For"] = addr
	}
	args["Left"] = allow - daysTakenIn(rec, lr.from.Year())
	args["Year"] = lr.from.Year()
	return strings.Join(append([]string{say("leave-granted", args)}, notes...), "\n"), nil
}

// maxLeavePeriods bounds the separate leaves a player asks for in a year: each is told to
// every opponent, so a player cannot flood them with one-day leaves.
const maxLeavePeriods = 12

// leavesStartingIn counts the leaves of rec that start in year y.
func leavesStartingIn(rec *store.PlayerRecord, y int) int {
	n := 0
	for _, lv := range rec.Leaves {
		if s, ok := archive.LeaveStop(lv); ok && s.From.Year() == y {
			n++
		}
	}
	return n
}

// gamesGoing counts the games addr plays that are still going.
func gamesGoing(tx *store.Tx, addr string) (int, error) {
	games, err := tx.Games()
	n := 0
	for _, g := range games {
		if !g.Over() && (g.Players[0].Address == addr || g.Players[1].Address == addr) {
			n++
		}
	}
	return n, err
}

// daysTakenIn is the leave rec holds in year y.
func daysTakenIn(rec *store.PlayerRecord, y int) int {
	n := 0
	for _, lv := range rec.Leaves {
		if s, ok := archive.LeaveStop(lv); ok {
			n += daysIn(s.From, s.To.AddDate(0, 0, -1), y)
		}
	}
	return n
}

// leaveCommand is a player's LEAVE in game sg: granted for all his games, his opponent here
// told in this mail's news, the others by mail of their own.
func (r *Referee) leaveCommand(tx *store.Tx, sg *store.Game, side chess.Color, args []string) ([]variant.Notice, error) {
	lr, err := parseLeave(args)
	if err != nil {
		return nil, err
	}
	addr := sg.Players[side].Address
	granted, err := r.grantLeave(tx, addr, lr, addr, nil, sg.ID)
	if err != nil {
		return nil, err
	}
	notices := []variant.Notice{{To: variant.To(side), Kind: "leave", Text: granted}}
	if !sg.Over() {
		told := say("leave-told", templates.Args{"From": lr.from.Format(archive.DateLayout), "To": lr.to.Format(archive.DateLayout), "Days": lr.days(), "Side": side})
		notices = append(notices, variant.Notice{To: variant.To(side.Other()), Kind: "leave-told", Text: told})
	}
	return notices, nil
}
