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
// the log gives the same result. An action starts when the turn passed to the player (see
// actionStart): no query, of his or his opponent's, restarts it. It returns how many mails it
// queued.
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
	start, err := actionStart(tx, sg, v, waiting)
	if err != nil {
		return 0, err
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
	sg, v, g, err := Load(tx, id)
	if err != nil || g.Outcome().Over() || len(g.ToAct()) != 1 {
		return "", err
	}
	waiting := g.ToAct()[0]
	start, err := actionStart(tx, sg, v, waiting)
	if err != nil {
		return "", err
	}
	d := deadlineOf(sg)
	s := fmt.Sprintf("Waiting for %s since %s (%s ago); deadline %s", waiting, start.UTC().Format("2006-01-02 15:04 UTC"), roundDur(tx.Now.Sub(start).Round(time.Hour)), roundDur(d))
	if sg.Reminded.Equal(start) {
		s += "; reminded, forfeit at " + start.Add(2*d).UTC().Format("2006-01-02 15:04 UTC")
	}
	return s + ".", nil
}

// actionStart is when the turn passed to waiting: the time of the last logged command after
// which the game began to wait for him, or the game's creation. Only the game's own turn
// changes count: an opponent's private query or C-move statement does not restart the clock,
// so the timing of a reminder tells the player nothing he may not know.
func actionStart(tx *store.Tx, sg *store.Game, v *variant.Variant, waiting chess.Color) (time.Time, error) {
	events, err := tx.Events(sg.ID)
	if err != nil {
		return time.Time{}, err
	}
	g, err := v.New(variant.Options{FEN: sg.FEN, Flags: sg.Flags})
	if err != nil {
		return time.Time{}, err
	}
	g.SetQuiet(true)
	start := sg.Created
	waits := func() bool { act := g.ToAct(); return len(act) == 1 && act[0] == waiting }
	was := waits()
	for _, e := range events {
		if _, err := g.Submit(variant.Command{By: chess.Color(e.Side), Text: e.Text}); err != nil {
			return time.Time{}, fmt.Errorf("replay for the deadline: %w", err)
		}
		now := waits()
		if now && !was {
			start = e.At
		}
		was = now
	}
	return start, nil
}
