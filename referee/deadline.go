package referee

import (
	"fmt"
	"strings"
	"time"

	"github.com/refereed/refereed/archive"
	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/templates"
	"github.com/refereed/refereed/tournament"
	"github.com/refereed/refereed/variant"
)

// DefaultDeadline is how long a player has for each action unless the game says otherwise
// (rules.md 0.4a).
const DefaultDeadline = 72 * time.Hour

// deadlineOf is the game's deadline: the option "deadline" (a duration like 48h), else 72 h.
func deadlineOf(g *store.Game) time.Duration {
	if d, err := time.ParseDuration(g.Flags["deadline"]); err == nil && d > 0 {
		return d
	}
	return DefaultDeadline
}

// CheckDeadlines applies rules.md 0.4a to every active game, one transaction per game: a
// player whose action has waited one deadline gets a reminder, which names the time of the
// second deadline, one deadline later; if nothing has come from him by then he forfeits,
// which is logged like any command (CmdForfeit), so that replaying the log gives the same
// result. A forfeit always follows a reminder, however short the deadline or long the daemon
// was down. An action starts when the turn passed to the player (see actionStart): no query,
// of his or his opponent's, restarts it. A simultaneous game (one whose ToAct names both players) waits for
// both players at the start of each turn: then no clock runs. Once one of them has chosen,
// the game waits for the other alone, and his clock runs from the moment his opponent chose
// (rules.md 0.4a), with the same reminder and forfeit. It
// returns how many mails it queued.
func (r *Referee) CheckDeadlines() (int, error) {
	var ids []uint64
	if err := r.DB.View(func(tx *store.Tx) error {
		games, err := tx.Games()
		for _, g := range games {
			if !g.Over() {
				ids = append(ids, g.ID)
			}
		}
		return err
	}); err != nil {
		return 0, err
	}
	queued := 0
	for _, id := range ids {
		if !r.mayBeDue(id) {
			continue
		}
		err := r.DB.Update(func(tx *store.Tx) error {
			n, err := r.checkDeadline(tx, id)
			queued += n
			return err
		})
		if err != nil {
			return queued, fmt.Errorf("referee: deadline of game %d: %w", id, err)
		}
	}
	return queued, nil
}

// reminded reports whether the reminder for the action that began at start went out: the
// game keeps the time of its last reminder, and a reminder is sent only after its action
// began, so one sent before start was for an earlier action.
func reminded(sg *store.Game, start time.Time) bool { return sg.Reminded.After(start) }

// waitCache is what the deadline check knows of a game without replaying it: while its log
// has the same length, its reminder the same time and no leave, pause or extension was
// granted anywhere (clockGen), the next moment something may fall due. The check runs every
// minute over every active game; only a game whose log changed, or whose moment came, is
// replayed.
type waitCache struct {
	events   uint64
	reminded time.Time
	gen      uint64
	due      time.Time // zero: nothing falls due until something changes
}

// mayBeDue reports whether game id must be looked at: it changed since it was cached, or
// its reminder or forfeit may be due.
func (r *Referee) mayBeDue(id uint64) bool {
	r.cacheMu.Lock()
	c, ok := r.waits[id]
	r.cacheMu.Unlock()
	if !ok {
		return true
	}
	var events, gen uint64
	var reminded time.Time
	now := time.Now()
	r.DB.View(func(tx *store.Tx) error {
		events, now, gen = tx.EventCount(id), tx.Now, tx.ClockGen()
		if sg, err := tx.Game(id); err == nil {
			reminded = sg.Reminded
		}
		return nil
	})
	switch {
	case events != c.events || !reminded.Equal(c.reminded) || gen != c.gen:
		return true
	case c.due.IsZero():
		return false
	}
	return !now.Before(c.due)
}

func (r *Referee) remember(id uint64, c waitCache) {
	r.cacheMu.Lock()
	defer r.cacheMu.Unlock()
	if r.waits == nil {
		r.waits = map[uint64]waitCache{}
	}
	r.waits[id] = c
}

// clocksChanged tells the deadline check that leave, a pause or an extension moved some
// game's moments: every game is looked at again (by any referee on the store: the command
// may come from the command line).
func clocksChanged(tx *store.Tx) error { return tx.BumpClockGen() }

// due is what the deadline check finds for the side a game waits for: when his reminder and
// his loss fall (zero: not yet known), and whether he loses on time or by the simple
// deadline.
type due struct {
	remind, lose time.Time
	onTime       bool
}

// dueOf works out the moments of the wait for side s. With a time control, the flag falls
// when his clock runs out, and he is reminded some days before (three, or half the time he
// had when the move began if that is less). Else rules.md 0.4a: reminded when he has waited
// one deadline (plus what the organizer added to this wait), and he forfeits one deadline
// after the reminder. Leave and pauses do not count as waiting.
func dueOf(l *archive.Game, s chess.Color) due {
	start := l.Since[s]
	if l.Clock != nil {
		flag := l.Clock.Flag()
		before := min(3*tournament.Day, tournament.Running(start, flag, l.Stops)/2)
		return due{remind: tournament.After(start, tournament.Running(start, flag, l.Stops)-before, l.Stops), lose: flag, onTime: true}
	}
	d := deadlineOf(l.Stored)
	for _, e := range l.Extended {
		if e.Side == int(s) && e.At.After(start) {
			d += time.Duration(e.Days) * tournament.Day
		}
	}
	dl := due{remind: tournament.After(start, d, l.Stops)}
	if reminded(l.Stored, start) {
		dl.lose = later(tournament.After(l.Stored.Reminded, deadlineOf(l.Stored), l.Stops), tournament.After(start, d+deadlineOf(l.Stored), l.Stops))
	}
	return dl
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func (r *Referee) checkDeadline(tx *store.Tx, id uint64) (int, error) {
	r.deadlineLoads.Add(1)
	gen := tx.ClockGen()
	l, err := archive.Load(tx, id)
	if err != nil {
		return 0, err
	}
	sg, v, g := l.Stored, l.Variant, l.Live
	act := g.ToAct()
	if g.Outcome().Over() || len(act) != 1 {
		// Over, or a simultaneous turn that neither player has chosen yet: no clock runs
		// (0.4a). It starts for the one who has not chosen when the other has, which
		// load's since records as the moment the game began to wait for him alone.
		r.remember(id, waitCache{events: l.Events, reminded: sg.Reminded, gen: gen})
		return 0, nil
	}
	waiting := act[0]
	start := l.Since[waiting]
	dl := dueOf(l, waiting)
	next := dl.remind
	if reminded(sg, start) || dl.onTime {
		next = dl.lose
		if !reminded(sg, start) && dl.remind.Before(next) {
			next = dl.remind
		}
	}
	defer func() {
		r.remember(id, waitCache{events: l.Events, reminded: sg.Reminded, gen: gen, due: next})
	}()
	switch {
	case !dl.lose.IsZero() && !tx.Now.Before(dl.lose):
		forfeit := variant.CmdForfeit
		if dl.onTime {
			forfeit = variant.CmdTimeForfeit
		}
		a := &game{Game: l, tx: tx}
		notices, err := a.submit(variant.Command{By: waiting, Text: forfeit}, "deadline")
		if err != nil {
			return 0, err
		}
		if _, err := a.settle(""); err != nil {
			return 0, err
		}
		res := g.Outcome()
		var out outcome
		for _, n := range notices {
			out.add(n)
		}
		if err := r.finish(a, &out, nil, true, "deadline"); err != nil {
			return 0, err
		}
		queued := 2
		if n, err := r.tellOrganizer(tx, sg, say("organizer-forfeit", templates.Args{"Game": sg.ID, "Player": sg.Players[waiting].Address, "Reason": res.Reason, "Result": res.Result, "OnTime": dl.onTime})); err != nil {
			return 0, err
		} else {
			queued += n
		}
		r.logger().Info("forfeit", "game", id, "side", waiting, "reason", res.Reason)
		return queued, nil
	case !reminded(sg, start) && !tx.Now.Before(dl.remind):
		sg.Reminded = tx.Now
		if err := tx.PutGame(sg); err != nil {
			return 0, err
		}
		var text, subject string
		if dl.onTime {
			text = say("reminder-clock", templates.Args{"Left": l.Clock.Left(int(waiting), tx.Now), "Due": when(dl.lose)})
			subject = say("subject/reminder", templates.Args{"Turn": turnLabel(g, waiting), "Due": when(dl.lose)})
		} else {
			d := deadlineOf(sg)
			due := tournament.After(tx.Now, d, l.Stops)
			text = say("reminder", templates.Args{"Waited": span(tournament.Running(start, tx.Now, l.Stops)), "Deadline": span(d), "Due": when(due)})
			subject = say("subject/reminder", templates.Args{"Turn": turnLabel(g, waiting), "Due": when(due)})
		}
		lt := letter{Side: waiting, Kind: "reminder", What: subject, Paras: []string{text}, Diagram: diagram(g, waiting, variant.ShowView)}
		if err := r.enqueue(tx, sg, v, lt); err != nil {
			return 0, err
		}
		next = dl.lose
		if next.IsZero() {
			next = tournament.After(tx.Now, deadlineOf(sg), l.Stops)
		}
		return 1, nil
	}
	return 0, nil
}

// when writes a moment for players anywhere: "Sat 2026-11-28 13:00 UTC".
func when(t time.Time) string { return t.UTC().Format("Mon 2006-01-02 15:04 UTC") }

// span writes a duration in days, hours and minutes, as far as they are not zero: "3 days",
// "1 day 2 hours", "1 hour 30 minutes", "less than a minute". Seconds are dropped.
func span(d time.Duration) string {
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
		dl := dueOf(l, waiting)
		if dl.onTime {
			s = fmt.Sprintf("Waiting for %s since %s (%s ago)", waiting, when(start), span(tx.Now.Sub(start)))
		} else {
			s = fmt.Sprintf("Waiting for %s since %s (%s ago); deadline %s", waiting, when(start), span(tx.Now.Sub(start)), span(deadlineOf(sg)))
			if reminded(sg, start) {
				s += fmt.Sprintf("; reminded %s, forfeit at %s", when(sg.Reminded), when(dl.lose))
			} else {
				s += fmt.Sprintf("; reminder at %s", when(dl.remind))
			}
		}
		s += "."
	}
	if l.Clock != nil {
		s += "\n" + clockText(l, tx.Now)
	}
	return s, nil
}
