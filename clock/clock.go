// Package clock is correspondence clocks, as ICCF keeps them, worked out from a game's times
// alone (no store, no mail: package referee/clocks keeps the games' deadlines and leave by
// them): time in whole days, a control of days plus an increment per move ("30d+3d") or of days per number of moves ("50d/10", time left at a
// control carried forward), and spans in which every clock of a game stands still (a
// player's leave, a tournament's pause). A day is charged only once 24 hours of reflection
// have passed: a move made within a day of the turn's start costs nothing, one made after 2
// days and 5 hours costs 2 days. The flag falls when a move would cost more days than the
// player has left: with 0 days left he still has 24 hours.
//
// Decisions the ICCF rules leave to the organizer, taken here: no doubling of long
// reflection (ICCF's optional "duplication" after 20 days is not applied); a player's moves
// are his completed turns (a Progressive series, a Transactional commit, a Synchronous
// choice is one move each), so the increment comes once a turn.
package clock

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Day is the unit of a correspondence clock.
const Day = 24 * time.Hour

// TimeControl is a game's time: Base days for the first move, then either Inc days added
// after each move, or, when Moves > 0, Base days more every Moves moves.
type TimeControl struct {
	Base  int
	Inc   int
	Moves int
}

// The bounds of a time control: ten years at most, 200 moves a control.
const (
	maxDays  = 3650
	maxMoves = 200
)

// ParseTimeControl reads "30d+3d" (or "30d+3", "30+3"), "50d/10" and "30d".
func ParseTimeControl(s string) (TimeControl, error) {
	var tc TimeControl
	t := strings.ToLower(strings.Join(strings.Fields(s), ""))
	bad := fmt.Errorf("time control %q: write days and an increment like 30d+3d, days per moves like 50d/10, or days like 30d", s)
	days := func(x string) (int, bool) {
		n, err := strconv.Atoi(strings.TrimSuffix(x, "d"))
		return n, err == nil && n >= 0 && n <= maxDays && x != ""
	}
	switch {
	case strings.Contains(t, "+"):
		b, i, _ := strings.Cut(t, "+")
		var ok1, ok2 bool
		tc.Base, ok1 = days(b)
		tc.Inc, ok2 = days(i)
		if !ok1 || !ok2 {
			return tc, bad
		}
	case strings.Contains(t, "/"):
		b, m, _ := strings.Cut(t, "/")
		var ok bool
		if tc.Base, ok = days(b); !ok {
			return tc, bad
		}
		n, err := strconv.Atoi(strings.TrimSuffix(m, "moves"))
		if err != nil || n < 1 || n > maxMoves {
			return tc, fmt.Errorf("time control %q: the number of moves is from 1 to %d", s, maxMoves)
		}
		tc.Moves = n
	default:
		var ok bool
		if tc.Base, ok = days(t); !ok {
			return tc, bad
		}
	}
	if tc.Base < 1 {
		return tc, fmt.Errorf("time control %q: a player needs at least 1 day", s)
	}
	return tc, nil
}

// String writes tc as ParseTimeControl reads it.
func (tc TimeControl) String() string {
	switch {
	case tc.Moves > 0:
		return fmt.Sprintf("%dd/%d", tc.Base, tc.Moves)
	case tc.Inc > 0:
		return fmt.Sprintf("%dd+%dd", tc.Base, tc.Inc)
	}
	return fmt.Sprintf("%dd", tc.Base)
}

// Allowance is the days a player has had in all, once he has made moves moves.
func (tc TimeControl) Allowance(moves int) int {
	if tc.Moves > 0 {
		return tc.Base * (moves/tc.Moves + 1)
	}
	return tc.Base + tc.Inc*moves
}

// Stop is a span in which a game's clocks stand still: [From, To).
type Stop struct{ From, To time.Time }

// Running is how much of [from, to) lies outside every stop.
func Running(from, to time.Time, stops []Stop) time.Duration {
	if !to.After(from) {
		return 0
	}
	d := to.Sub(from)
	for _, s := range merge(stops) {
		lo, hi := later(s.From, from), earlier(s.To, to)
		if hi.After(lo) {
			d -= hi.Sub(lo)
		}
	}
	return d
}

// After is the moment at which a clock started at from has run for d.
func After(from time.Time, d time.Duration, stops []Stop) time.Time {
	at := from
	for _, s := range merge(stops) {
		if !s.To.After(at) {
			continue
		}
		if s.From.After(at) {
			if gap := s.From.Sub(at); gap >= d {
				return at.Add(d)
			} else {
				d -= gap
			}
		}
		at = s.To
	}
	return at.Add(d)
}

// Merge sorts stops and joins those that overlap or touch.
func Merge(stops []Stop) []Stop { return merge(stops) }

func merge(stops []Stop) []Stop {
	if len(stops) < 2 {
		return stops
	}
	s := append([]Stop(nil), stops...)
	sort.Slice(s, func(i, j int) bool { return s[i].From.Before(s[j].From) })
	out := s[:1]
	for _, x := range s[1:] {
		last := &out[len(out)-1]
		if !x.From.After(last.To) {
			last.To = later(last.To, x.To)
			continue
		}
		out = append(out, x)
	}
	return out
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func earlier(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// Charge is the days a move costs whose reflection ran for d.
func Charge(d time.Duration) int { return int(d / Day) }

// Clock is the time of one game as its log and the stops make it: per side, the moves made,
// the days charged for them and the days an organizer added; and whose clock runs, since
// when. Build it with Start, Stop and Moved as the game goes; read it with Left and Flag.
type Clock struct {
	Control TimeControl
	Moves   [2]int
	Used    [2]int
	Extra   [2]int
	Running int // the side whose clock runs, -1 for none
	Since   time.Time
	Stops   []Stop
}

// NewClock is a clock for tc before the first move, none running.
func NewClock(tc TimeControl, stops []Stop) *Clock {
	return &Clock{Control: tc, Running: -1, Stops: stops}
}

// Start starts side's clock at at.
func (c *Clock) Start(side int, at time.Time) { c.Running, c.Since = side, at }

// Stop stops side's clock at at, charging what ran.
func (c *Clock) Stop(side int, at time.Time) {
	if c.Running != side {
		return
	}
	c.Used[side] += Charge(Running(c.Since, at, c.Stops))
	c.Running = -1
}

// Moved counts a move made by side.
func (c *Clock) Moved(side int) { c.Moves[side]++ }

// Left is the days side has left at now: his allowance, less what his moves cost and what
// the move he is on has cost so far. Below zero, his flag fell.
func (c *Clock) Left(side int, now time.Time) int {
	left := c.Control.Allowance(c.Moves[side]) + c.Extra[side] - c.Used[side]
	if c.Running == side {
		left -= c.Charged(now)
	}
	return left
}

// Charged is the days the running move has cost at now.
func (c *Clock) Charged(now time.Time) int {
	if c.Running < 0 {
		return 0
	}
	return Charge(Running(c.Since, now, c.Stops))
}

// Flag is when the running side's flag falls, if nothing changes: once his move has run one
// day more than he had left when it began. Zero when no clock runs.
func (c *Clock) Flag() time.Time {
	if c.Running < 0 {
		return time.Time{}
	}
	had := c.Control.Allowance(c.Moves[c.Running]) + c.Extra[c.Running] - c.Used[c.Running]
	if had < 0 {
		had = -1
	}
	return After(c.Since, time.Duration(had+1)*Day, c.Stops)
}
