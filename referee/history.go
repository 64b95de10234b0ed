package referee

import (
	"fmt"
	"slices"
	"strings"

	"github.com/refereed/refereed/archive"
	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/referee/ifmoves"
	"github.com/refereed/refereed/referee/play"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/variant"
)

// HISTORY: a player's own account of his game, replayed from its log.

// history replays the game's log with notices on and keeps what side was told, a line a
// mail: the events one mail caused (one Source) are told as that mail told them, a later
// notice leaving out one it made untrue (variant.Notice.Supersedes: "your C-move is stated"
// after "you have not stated a C-move"), and the takebacks are told where they came, with
// the game as it then stood. Answers that only showed a view are not kept.
func (r *Referee) history(a *play.Game, side chess.Color) (string, error) {
	_, say := r.speaker(a.Tx(), a.Stored(), side)
	tx, sg, v := a.Tx(), a.Stored(), a.Variant()
	all, err := tx.Events(sg.ID)
	if err != nil {
		return "", err
	}
	opts := variant.Options{FEN: sg.FEN, Flags: sg.Flags}
	g, err := v.New(opts)
	if err != nil {
		return "", fmt.Errorf("referee: history: %w", err)
	}
	var lines []string
	var mail *play.Outcome
	source := ""
	var numeric [2]bool
	numeric[side] = play.PrefsOf(tx, sg.Players[side].Address).Numeric
	hasIf := slices.ContainsFunc(all, func(e store.Event) bool { return e.Kind == store.EventIf })
	flush := func() { // one line a mail, its paragraphs run together as sentences
		if mail != nil && len(mail.Paras[side]) > 0 {
			paras := make([]string, len(mail.Paras[side]))
			for i, p := range mail.Paras[side] {
				if p = strings.TrimSpace(p); !strings.ContainsAny(p[len(p)-1:], ".!?:") {
					p += "."
				}
				paras[i] = p
			}
			lines = append(lines, "- "+strings.ReplaceAll(strings.Join(paras, " "), "\n", "\n  "))
		}
		mail = nil
	}
	for i, e := range all {
		if mail == nil || e.Source != source || e.Source == "takeback" { // "takeback": logged before they named their mail
			flush()
			mail, source = &play.Outcome{Numeric: numeric}, e.Source
		}
		var ns []variant.Notice
		switch {
		case e.IsCommand():
			pos := g.Position()
			if ns, err = g.Submit(variant.Command{By: chess.Color(e.Side), Text: e.Text}); err != nil {
				return "", fmt.Errorf("referee: history: event %d: %w", i, err)
			}
			if hasIf {
				ns = append(append(ifmoves.FiredNews(e, pos), ns...), ifmoves.DroppedNews(all[:i+1])...)
			}
		case e.Kind == store.EventIf:
			ns = ifmoves.Told(g, all[:i+1])
		case e.Kind == store.EventTakeback:
			l, err := archive.LoadEvents(tx, sg, v, all[:i])
			if err != nil {
				return "", err
			}
			if ns, _, err = takebackStep(l, all[:i], chess.Color(e.Side), e.Text); err != nil && !variant.IsRejection(err) {
				return "", err
			}
			if e.Undo > 0 {
				// The game as the takeback left it: what is logged after it plays on it.
				if g, err = replayEvents(v, opts, store.Effective(all[:i+1])); err != nil {
					return "", err
				}
			}
		}
		for _, n := range ns {
			if n.Kind != "help" && n.Kind != variant.KindView && n.Kind != "board" {
				mail.Add(n)
			}
		}
	}
	flush()
	if len(lines) == 0 {
		return say("history-empty", nil), nil
	}
	return say("history", nil) + "\n" + strings.Join(lines, "\n"), nil
}

// replayEvents is the game of v that the commands events replay to, ready to play on with
// its notices on.
func replayEvents(v *variant.Variant, opts variant.Options, events []store.Event) (variant.Game, error) {
	log := make([]variant.Command, len(events))
	for i, e := range events {
		log[i] = variant.Command{By: chess.Color(e.Side), Text: e.Text}
	}
	g, fail, err := variant.Replay(v, opts, log)
	if err == nil && fail != nil {
		err = fail
	}
	if err != nil {
		return nil, fmt.Errorf("referee: history: %w", err)
	}
	return g, nil
}
