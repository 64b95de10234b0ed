package referee

import (
	"fmt"
	"time"

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
	queued := 0
	for {
		var ids []uint64
		if err := r.DB.View(func(tx *store.Tx) (err error) {
			ids, err = tx.DueGames(tx.Now, dueBatch)
			return err
		}); err != nil {
			return queued, err
		}
		for _, id := range ids {
			err := r.DB.Update(func(tx *store.Tx) error {
				n, err := r.checkDeadline(tx, id)
				queued += n
				return err
			})
			if err != nil {
				return queued, fmt.Errorf("referee: deadline of game %d: %w", id, err)
			}
		}
		if len(ids) < dueBatch {
			return queued, nil
		}
	}
}

// dueBatch is how many due games the deadline check reads at a time.
const dueBatch = 256

// markDue asks the deadline check to look again at the games still going among ids: leave,
// a pause or a new player moved when they are due (what their logs say marks them itself).
func markDue(tx *store.Tx, ids ...uint64) error {
	for _, id := range ids {
		if err := tx.MarkDue(id); err != nil {
			return err
		}
	}
	return nil
}

// checkDeadline looks at a game the index says is due: it reminds or forfeits the player it
// waits for when his moment has come, and records when to look again (never, for a game
// over or a simultaneous turn nobody has chosen yet: a command marks it again).
func (r *Referee) checkDeadline(tx *store.Tx, id uint64) (queued int, err error) {
	r.deadlineLoads.Add(1)
	a, err := r.openGame(tx, id)
	if err != nil {
		return 0, err
	}
	l := a.Game
	sg, v, g := l.Stored, l.Variant, l.Live
	act := g.ToAct()
	if g.Outcome().Over() || len(act) != 1 {
		// Over, or a simultaneous turn that neither player has chosen yet: no clock runs
		// (0.4a). It starts for the one who has not chosen when the other has, which
		// load's since records as the moment the game began to wait for him alone.
		return 0, tx.SetDue(id, time.Time{})
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
		if err == nil {
			err = tx.SetDue(id, next)
		}
	}()
	switch {
	case !dl.Lose.IsZero() && !tx.Now.Before(dl.Lose):
		forfeit := variant.CmdForfeit
		if dl.OnTime {
			forfeit = variant.CmdTimeForfeit
		}
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
		next = time.Time{} // over: nothing falls due any more
		queued = 2
		if n, err := r.tellOrganizer(tx, sg, say("organizer-forfeit", templates.Args{"Game": sg.ID, "Player": sg.Players[waiting].Address, "Reason": res.Reason, "Result": res.Result, "OnTime": dl.OnTime})); err != nil {
			return 0, err
		} else {
			queued += n
		}
		r.logger().Info("forfeit", "game", id, "side", waiting, "reason", res.Reason)
		return queued, nil
	case !dl.Remind.IsZero() && !clocks.Reminded(sg, start) && !tx.Now.Before(dl.Remind):
		if err := a.Reminded(); err != nil {
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
		lt := letter{Side: waiting, Kind: "reminder", What: subject, Paras: []string{text}, Diagram: play.Diagram(v, g, waiting, variant.ShowView, play.PrefsOf(tx, sg.Players[waiting].Address))}
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

// tournamentGames are the ids of t's games.
func tournamentGames(t *store.Tournament) []uint64 {
	var ids []uint64
	for _, rd := range t.Rounds {
		for _, tg := range rd.Games {
			ids = append(ids, tg.Game)
		}
	}
	return ids
}
