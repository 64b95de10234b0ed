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
// player whose action has waited one deadline gets a reminder, which names the time of the
// second deadline, one deadline later; if nothing has come from him by then he forfeits,
// which is logged like any command (CmdForfeit), so that replaying the log gives the same
// result. A forfeit always follows a reminder, however short the deadline or long the daemon
// was down. An action starts when the turn passed to the player (see actionStart): no query,
// of his or his opponent's, restarts it. It returns how many mails it queued.
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

// reminded reports whether the reminder for the action that began at start went out: the
// game keeps the time of its last reminder, and a reminder is sent only a deadline after its
// action began, so one sent before start was for an earlier action.
func reminded(sg *store.Game, start time.Time) bool { return sg.Reminded.After(start) }

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
	switch {
	case reminded(sg, start) && !tx.Now.Before(sg.Reminded.Add(d)):
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
		res := g.Outcome()
		sg.Status, sg.Result, sg.Reason = "over", res.Result, res.Reason
		if err := tx.PutGame(sg); err != nil {
			return 0, err
		}
		var out outcome
		for _, n := range notices {
			out.add(n)
		}
		if err := r.send(tx, sg, v, g, &out, nil, true, "deadline"); err != nil {
			return 0, err
		}
		r.logger().Info("forfeit on time", "game", id, "side", waiting)
		return 2, nil
	case !reminded(sg, start) && tx.Now.Sub(start) >= d:
		sg.Reminded = tx.Now
		if err := tx.PutGame(sg); err != nil {
			return 0, err
		}
		due := tx.Now.Add(d)
		text := fmt.Sprintf("Reminder: it is your move. It has waited %s, and this game gives %s for each move. If nothing comes from you by %s (%s from now), you forfeit the game.",
			span(tx.Now.Sub(start)), span(d), when(due), span(d))
		l := letter{side: waiting, kind: "reminder", what: "reminder: your move" + turnLabel(g, waiting) + " is due by " + when(due),
			paras: []string{text}, diagram: diagram(g, waiting, variant.ShowView)}
		if err := r.enqueue(tx, sg, v, l); err != nil {
			return 0, err
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
	s := fmt.Sprintf("Waiting for %s since %s (%s ago); deadline %s", waiting, when(start), span(tx.Now.Sub(start)), span(d))
	if reminded(sg, start) {
		s += fmt.Sprintf("; reminded %s, forfeit at %s", when(sg.Reminded), when(sg.Reminded.Add(d)))
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
