package kriegspiel

import (
	"fmt"
	"strings"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/variant"
)

// View is what v may know. A player sees his own men, whose turn it is and the list of
// everything announced so far, as he would have heard it over the board (rules.md §4.3): not
// the opponent's men, not what he captured, not the text of the opponent's attempts. The
// referee sees the umpire's board.
func (g *Game) View(v variant.Viewer) variant.View {
	if v == variant.AsReferee {
		return variant.View{Bottom: chess.White, Panels: []variant.Panel{{Title: "The umpire's board", Board: g.pos.Board}},
			Lines: []variant.Line{g.status()}, FEN: g.pos.FEN()}
	}
	side := chess.Color(v)
	lines := []variant.Line{g.status()}
	if !g.Outcome().Over() {
		if d := g.inCheck(); d != "" {
			lines = append(lines, variant.Text(fmt.Sprintf("%s is in check %s.", g.pos.Turn, d)))
		}
		if g.mustPawn && side == g.pos.Turn {
			lines = append(lines, variant.Says("view/kriegspiel-must-pawn", nil))
		}
	}
	if len(g.events) > 0 {
		lines = append(lines, variant.Text(""), variant.Says("view/announced", nil))
		lines = append(lines, g.announcedLines()...)
	}
	return variant.View{Bottom: side, Panels: []variant.Panel{{Title: "view/your-men", Board: g.pos.Board.Only(side)}}, Lines: lines}
}

// status says whose turn it is, or how the game ended.
func (g *Game) status() variant.Line {
	if out := g.Outcome(); out.Over() {
		return out.Line()
	}
	return g.rules.toPlay(g)
}

// inCheck names the check the player to move is in, as it was announced ("on the file"),
// or is "" when the last move gave none.
func (g *Game) inCheck() string {
	for i := len(g.events) - 1; i >= 0; i-- {
		e := g.events[i]
		if e.kind != evPlayed {
			continue
		}
		if e.by == g.pos.Turn || e.checks.n == 0 {
			return ""
		}
		return directionWords(e.checks)
	}
	return ""
}

// directionWords are the directions of checks as the umpire says them: "on the file and by
// a knight".
func directionWords(c checks) string {
	var out []string
	for _, d := range c.d[:c.n] {
		if d == dirKnight {
			out = append(out, "by a knight")
		} else {
			out = append(out, "on the "+directionNames[d])
		}
	}
	return strings.Join(out, " and ")
}

// announcedLines lists the announcements so far, a line for each player's turn:
// "- 2. White: Any? Try. No. Played and captured on d5, check on the file." (the sentences
// "view/kr-line" and "view/kr-event", said in the reader's language).
func (g *Game) announcedLines() []variant.Line {
	var lines []variant.Line
	var events []map[string]any
	var head map[string]any
	flush := func() {
		if head != nil {
			head["Events"] = events
			lines = append(lines, variant.Says("view/kr-line", head))
		}
		events = nil
	}
	for i, e := range g.events {
		if i == 0 || !g.sameTurn(g.events[i-1], e) {
			flush()
			_, series := g.moveOf(e)
			head = map[string]any{"By": e.by, "White": e.by == chess.White, "N": e.fullmove, "Series": series}
		}
		events = append(events, g.eventArgs(e))
	}
	flush()
	return lines
}

// sameTurn reports whether two announcements belong to one turn: a move or a series.
func (g *Game) sameTurn(a, b event) bool {
	return a.by == b.by && g.rules.turnOf(a) == g.rules.turnOf(b)
}

// eventArgs are the fields of one announcement's words ("view/kr-event").
func (g *Game) eventArgs(e event) map[string]any {
	a := map[string]any{"Kind": "played", "Answer": "", "K": 0, "Of": 0, "Captured": "", "EP": e.ep, "Checks": []string(nil),
		"Mate": e.end == endMate, "Stalemate": e.end == endStalemate, "Tries": "", "Next": e.by}
	switch e.kind {
	case evNo:
		a["Kind"] = "no"
		return a
	case evAny:
		a["Kind"], a["Answer"] = "any", e.answer.String()
		return a
	}
	a["K"], a["Of"] = g.moveOf(e)
	if e.captured != chess.NoSquare {
		a["Captured"] = e.captured.String()
	}
	if e.checks.n > 0 {
		a["Checks"] = e.checks.names()
	}
	if e.tries != triesNone {
		next := e.by
		if e.checks.n > 0 || e.k == e.n {
			next = e.by.Other()
		}
		a["Next"], a["Tries"] = next, map[tries]string{triesYes: "yes", triesNo: "no"}[e.tries]
	}
	return a
}

// PublicView is what both players heard from the umpire: the announcements so far, and whose
// turn it is (rules.md §4.3). No board: each player sees only his own men.
func (g *Game) PublicView() variant.View {
	lines := []variant.Line{g.status()}
	if len(g.events) > 0 {
		lines = append(lines, variant.Says("view/announced", nil))
		lines = append(lines, g.announcedLines()...)
	}
	return variant.View{Bottom: chess.White, Lines: lines}
}

var _ variant.PublicViewer = (*Game)(nil)

var _ variant.Scorer = (*Game)(nil)

// Score is the game so far as v may know it: his own moves, as his mails told him them
// ("1. e2-e4 2. Ng1-f3", Progressive Kriegspiel by series: "2. e7-e5, d7-d5"), written from
// his own men alone; the announcements are under his board already, and nothing of the
// opponent's moves is known. The referee's is the record.
func (g *Game) Score(v variant.Viewer) (words, moves string) {
	if v == variant.AsReferee || g.Outcome().Over() {
		return "score", g.Movetext()
	}
	return "kriegspiel/score", g.ownMoves(chess.Color(v), false)
}

var _ variant.NumericScorer = (*Game)(nil)

// NumericScore is Score in ICCF numeric notation: his own moves, numbered as Score numbers
// them; the record (once the game is over) stays in its own notation.
func (g *Game) NumericScore(v variant.Viewer) string {
	if v == variant.AsReferee || g.Outcome().Over() {
		return g.Movetext() // the record's own notation: attempts and answers are not moves
	}
	return g.ownMoves(chess.Color(v), true)
}

// ownMoves writes s's moves played, numbered, in long algebraic or numeric notation.
func (g *Game) ownMoves(s chess.Color, numeric bool) string {
	q := g.start
	var sb strings.Builder
	last := -1
	for _, e := range g.events {
		if e.kind != evPlayed {
			continue
		}
		if e.by == s {
			no := g.rules.turnOf(e)
			switch {
			case no == last:
				sb.WriteString(", ")
			case sb.Len() > 0:
				sb.WriteByte(' ')
				fallthrough
			default:
				if s == chess.Black && !g.rules.series { // Black's move numbers are White's too
					fmt.Fprintf(&sb, "%d... ", no)
				} else {
					fmt.Fprintf(&sb, "%d. ", no)
				}
			}
			last = no
			if numeric {
				sb.WriteString(chess.Numeric(e.move))
			} else {
				sb.WriteString(longAlgebraic(&q, e.move)) // reads the man on the from-square: his own
			}
		}
		q.Turn = e.by
		q.Play(e.move)
	}
	return sb.String()
}
