package referee

import (
	"fmt"
	"strings"
	"time"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/store"
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
// player whose action has waited one deadline gets a reminder; after a second deadline on the
// same action he forfeits, which is logged like any command (CmdForfeit), so that replaying
// the log gives the same result. An action starts at the game's creation or at the last
// command of another player; the waiting player's own queries do not restart it. It returns
// how many mails it queued.
func (r *Referee) CheckDeadlines() (int, error) {
	var ids []uint64
	if err := r.DB.View(func(tx *store.Tx) error {
		games, err := tx.Games()
		for _, g := range games {
			if g.Status == "active" {
				ids = append(ids, g.ID)
			}
		}
		return err
	}); err != nil {
		return 0, err
	}
	queued := 0
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
	return queued, nil
}

func (r *Referee) checkDeadline(tx *store.Tx, id uint64) (int, error) {
	sg, v, g, err := Load(tx, id)
	if err != nil || g.Outcome().Over() {
		return 0, err
	}
	act := g.ToAct()
	if len(act) != 1 {
		return 0, nil // simultaneous games: 0.4a's own clock rule, not built yet
	}
	waiting := act[0]
	events, err := tx.Events(id)
	if err != nil {
		return 0, err
	}
	start := sg.Created
	for _, e := range events {
		if chess.Color(e.Side) != waiting && e.At.After(start) {
			start = e.At
		}
	}
	d := deadlineOf(sg)
	waited := tx.Now.Sub(start)
	switch {
	case waited >= 2*d:
		before := len(g.Log())
		notices, err := g.Submit(variant.Command{By: waiting, Text: variant.CmdForfeit})
		if err != nil {
			return 0, err
		}
		for _, cmd := range g.Log()[before:] {
			if _, err := tx.AppendEvent(id, store.Event{Side: int(cmd.By), Text: cmd.Text, Source: "deadline"}); err != nil {
				return 0, err
			}
		}
		out := g.Outcome()
		sg.Status, sg.Result, sg.Reason = "over", out.Result, out.Reason
		if err := tx.PutGame(sg); err != nil {
			return 0, err
		}
		var o outcome
		for _, n := range notices {
			o.add(n)
		}
		for _, s := range []chess.Color{chess.White, chess.Black} {
			if err := r.enqueue(tx, sg, v, s, "game over, "+out.Result, o.paras[s], g.View(variant.AsReferee).Diagram(), nil, "", nil, "deadline"); err != nil {
				return 0, err
			}
		}
		r.logger().Info("forfeit on time", "game", id, "side", waiting)
		return 2, nil
	case waited >= d && !sg.Reminded.Equal(start):
		sg.Reminded = start
		if err := tx.PutGame(sg); err != nil {
			return 0, err
		}
		left := (2*d - waited).Round(time.Hour)
		text := fmt.Sprintf("Reminder: it is your move, and it has waited %s; the deadline is %s. If nothing comes from you within %s more, you forfeit the game (a second deadline on the same action loses).",
			roundDur(waited), roundDur(d), roundDur(left))
		if err := r.enqueue(tx, sg, v, waiting, "reminder: your move is due", []string{text}, g.View(variant.ViewerOf(waiting)).Diagram(), nil, "", nil, "reminder"); err != nil {
			return 0, err
		}
		return 1, nil
	}
	return 0, nil
}

// roundDur writes 72h0m0s as "72 hours", 1h as "1 hour" and 90m as "1.5 hours".
func roundDur(d time.Duration) string {
	h := d.Hours()
	if h == 1 {
		return "1 hour"
	}
	if h == float64(int(h)) {
		return fmt.Sprintf("%d hours", int(h))
	}
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.1f", h), "0"), ".") + " hours"
}

// Waiting describes, for the organizer, whose action a game awaits, since when, and where it
// stands against its deadline; "" for a finished game or one with several players to act.
func Waiting(tx *store.Tx, id uint64) (string, error) {
	sg, _, g, err := Load(tx, id)
	if err != nil || g.Outcome().Over() || len(g.ToAct()) != 1 {
		return "", err
	}
	waiting := g.ToAct()[0]
	events, err := tx.Events(id)
	if err != nil {
		return "", err
	}
	start := sg.Created
	for _, e := range events {
		if chess.Color(e.Side) != waiting && e.At.After(start) {
			start = e.At
		}
	}
	d := deadlineOf(sg)
	s := fmt.Sprintf("Waiting for %s since %s (%s ago); deadline %s", waiting, start.UTC().Format("2006-01-02 15:04 UTC"), roundDur(tx.Now.Sub(start).Round(time.Hour)), roundDur(d))
	if sg.Reminded.Equal(start) {
		s += "; reminded, forfeit at " + start.Add(2*d).UTC().Format("2006-01-02 15:04 UTC")
	}
	return s + ".", nil
}
