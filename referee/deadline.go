package referee

import (
	"fmt"
	"time"

	"github.com/refereed/refereed/archive"
	"github.com/refereed/refereed/referee/clocks"
	"github.com/refereed/refereed/referee/play"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/templates"
	"github.com/refereed/refereed/tournament"
	"github.com/refereed/refereed/variant"
)

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
	dl := clocks.DueOf(l, waiting)
	next := dl.Remind
	if clocks.Reminded(sg, start) || dl.OnTime {
		next = dl.Lose
		if !clocks.Reminded(sg, start) && dl.Remind.Before(next) {
			next = dl.Remind
		}
	}
	defer func() {
		r.remember(id, waitCache{events: l.Events, reminded: sg.Reminded, gen: gen, due: next})
	}()
	switch {
	case !dl.Lose.IsZero() && !tx.Now.Before(dl.Lose):
		forfeit := variant.CmdForfeit
		if dl.OnTime {
			forfeit = variant.CmdTimeForfeit
		}
		a := &play.Game{Game: l, Tx: tx}
		notices, err := a.Submit(variant.Command{By: waiting, Text: forfeit}, "deadline")
		if err != nil {
			return 0, err
		}
		if _, err := a.Settle(""); err != nil {
			return 0, err
		}
		res := g.Outcome()
		var out play.Outcome
		for _, n := range notices {
			out.Add(n)
		}
		if err := play.Finish(r.out(), a, &out, nil, true, "deadline", r.tournamentGameOver); err != nil {
			return 0, err
		}
		queued := 2
		if n, err := r.tellOrganizer(tx, sg, say("organizer-forfeit", templates.Args{"Game": sg.ID, "Player": sg.Players[waiting].Address, "Reason": res.Reason, "Result": res.Result, "OnTime": dl.OnTime})); err != nil {
			return 0, err
		} else {
			queued += n
		}
		r.logger().Info("forfeit", "game", id, "side", waiting, "reason", res.Reason)
		return queued, nil
	case !clocks.Reminded(sg, start) && !tx.Now.Before(dl.Remind):
		sg.Reminded = tx.Now
		if err := tx.PutGame(sg); err != nil {
			return 0, err
		}
		var text, subject string
		if dl.OnTime {
			text = say("reminder-clock", templates.Args{"Left": l.Clock.Left(int(waiting), tx.Now), "Due": clocks.When(dl.Lose)})
			subject = say("subject/reminder", templates.Args{"Turn": play.TurnLabel(g, waiting), "Due": clocks.When(dl.Lose)})
		} else {
			d := clocks.DeadlineOf(sg)
			due := tournament.After(tx.Now, d, l.Stops)
			text = say("reminder", templates.Args{"Waited": clocks.Span(tournament.Running(start, tx.Now, l.Stops)), "Deadline": clocks.Span(d), "Due": clocks.When(due)})
			subject = say("subject/reminder", templates.Args{"Turn": play.TurnLabel(g, waiting), "Due": clocks.When(due)})
		}
		lt := letter{Side: waiting, Kind: "reminder", What: subject, Paras: []string{text}, Diagram: play.Diagram(g, waiting, variant.ShowView)}
		if err := r.enqueue(tx, sg, v, lt); err != nil {
			return 0, err
		}
		next = dl.Lose
		if next.IsZero() {
			next = tournament.After(tx.Now, clocks.DeadlineOf(sg), l.Stops)
		}
		return 1, nil
	}
	return 0, nil
}
