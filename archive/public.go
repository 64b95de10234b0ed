package archive

import (
	"errors"
	"fmt"
	"strings"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/clock"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/variant"
)

// Reader reads a store in read-only transactions (a *store.DB is one): what the read side
// is given, never the store's handle.
type Reader interface {
	View(fn func(tx *store.Tx) error) error
}

var _ Reader = (*store.DB)(nil)

// ErrNoStep is returned by Public for a step a finished game's log does not have.
var ErrNoStep = errors.New("no such step")

// PublicGame is what a spectator may see of a game: the one place that says it. A game in
// progress shows only what both its players already know, as its variant declares
// (variant.Variant.InProgress, rules.md 0.4b); a finished game shows the whole truth, at one
// step of its log.
type PublicGame struct {
	Stored   *store.Game
	Variant  *variant.Variant
	Finished bool
	// Hidden: a game in progress whose position is not shown (the public minimum).
	Hidden bool
	// Turn is whose turn it is and its name ("White to play: move 12"), or the turn's
	// number ("turn 7"), where spectators may know it; "" otherwise.
	Turn string
	// Clock is the game's clock where spectators may see whose turn it is (what a running
	// clock tells); nil otherwise or without a time control.
	Clock *clock.Clock
	// Movetext is the moves in the literature's notation: in progress without comments (they
	// may carry what is not yet public), finished with its comments and replacements.
	Movetext string
	// Boards are the boards shown, Lines the words under them (announcements, a view's lines).
	Boards []PublicBoard
	Lines  []string
	// A finished game: its result and how it ended, the effective commands of its log (each
	// a step), and the step shown.
	Result, How string
	Steps       []store.Event
	Step        int
}

// PublicBoard is one board a spectator sees.
type PublicBoard struct {
	Title  string
	Board  chess.Board
	Bottom chess.Color
	Marked chess.Bitboard
	Legend string
}

// Public is what a spectator may see of game id: a finished game at step (its first step
// counts 1; step < 0: the last), a game in progress as its variant allows. name writes a
// player's address for people (a finished game's replacements name the players).
func Public(tx *store.Tx, id uint64, step int, name func(string) string) (*PublicGame, error) {
	sg, v, err := storedGame(tx, id)
	if err != nil {
		return nil, err
	}
	p := &PublicGame{Stored: sg, Variant: v, Finished: sg.Over(), Result: "*"}
	if p.Finished {
		return p, p.finished(tx, step, name)
	}
	pol := v.InProgress
	p.Hidden = !pol.Position
	if pol == (variant.Spectator{}) {
		return p, nil // nothing of the game's state is replayed, so nothing can leak
	}
	l, err := Load(tx, id)
	if err != nil {
		return nil, err
	}
	g := l.Live
	if pol.Turn {
		p.Turn = turnOf(g)
		p.Clock = l.Clock // what a clock that runs tells (issue 33)
	}
	if pol.Number {
		p.Turn = fmt.Sprintf("turn %d", g.Position().Fullmove)
	}
	if pol.Position {
		pos := g.Position()
		p.Boards = []PublicBoard{{Board: pos.Board, Bottom: chess.White}}
	}
	if pol.Moves {
		p.Movetext = stripComments(v.WriteMovetext(g))
	}
	if pv, ok := g.(variant.PublicViewer); ok && pol.Public {
		view := pv.PublicView()
		for _, panel := range view.Panels {
			p.Boards = append(p.Boards, PublicBoard{Title: panel.Title, Board: panel.Board, Bottom: chess.White})
		}
		p.Lines = english(view.Lines)
	}
	return p, nil
}

// finished fills p with the whole truth of a finished game, at step of its log.
func (p *PublicGame) finished(tx *store.Tx, step int, name func(string) string) error {
	sg, v := p.Stored, p.Variant
	all, err := tx.Events(sg.ID)
	if err != nil {
		return err
	}
	events := store.Effective(all)
	log := make([]variant.Command, len(events))
	for i, e := range events {
		log[i] = variant.Command{By: chess.Color(e.Side), Text: e.Text}
	}
	p.Steps = events
	p.Step = len(log)
	if step >= 0 {
		if step > len(log) {
			return ErrNoStep
		}
		p.Step = step
	}
	var at variant.View
	g, fail, err := variant.ReplayWith(v, variant.Options{FEN: sg.FEN, Flags: sg.Flags}, log, variant.Watch{
		Each: func(i int, g variant.Game, _ []variant.Notice) error {
			if i+1 == p.Step {
				at = g.View(variant.AsReferee)
			}
			return nil
		}})
	if err != nil {
		return fmt.Errorf("game %d: %w", sg.ID, err)
	}
	if fail != nil {
		return fmt.Errorf("game %d: log does not replay: %w", sg.ID, fail)
	}
	out := g.Outcome()
	p.Result, p.How = out.Result, out.Reason
	if !out.Over() {
		p.Result, p.How = sg.Result, sg.Reason
	}
	if p.Result == "" {
		p.Result = "*"
	}
	if p.How == "" {
		p.How = out.Termination
	}
	// The game is over: its comments (a Conditional game's revealed C-moves) are the truth
	// now, and so is who played it up to where.
	if p.Movetext, err = WithReplacements(sg, v, all, v.WriteMovetext(g), name); err != nil {
		return err
	}
	for _, panel := range at.Panels {
		p.Boards = append(p.Boards, PublicBoard{Title: panel.Title, Board: panel.Board, Bottom: at.Bottom, Marked: panel.Marked, Legend: panel.MarkLegend})
	}
	p.Lines = english(at.Lines)
	return nil
}

// turnOf names whose turn it is, for a game whose turn is public.
func turnOf(g variant.Game) string {
	act := g.ToAct()
	if len(act) != 1 {
		return ""
	}
	s := act[0].String()
	if tn, ok := g.(variant.TurnNamer); ok {
		if n := tn.TurnName(act[0]); n != "" {
			s += " to play: " + n
		}
	}
	return s
}

// stripComments drops {comments} from a movetext: in a game in progress they may carry what
// is not yet public (a stated conditional move).
func stripComments(s string) string {
	var sb strings.Builder
	depth := 0
	for _, c := range s {
		switch {
		case c == '{':
			depth++
		case c == '}' && depth > 0:
			depth--
		case depth == 0:
			sb.WriteRune(c)
		}
	}
	return strings.Join(strings.Fields(sb.String()), " ")
}

// english is a view's lines in English: the web archive's language.
func english(lines []variant.Line) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l.String()
	}
	return out
}
