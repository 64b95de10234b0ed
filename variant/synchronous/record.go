package synchronous

import (
	"fmt"
	"strings"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/record"
	"github.com/refereed/refereed/variant"
)

// Movetext writes the resolved turns: "1. e4 e5 2. Nf3 d5", each turn White's move then
// Black's, both in SAN on the position before the turn, disambiguated among the moves the
// game offered that player (under fog among the moves his men's patterns allow, as he was
// told them: PS-D9).
func (g *Game) Movetext() string {
	var sb strings.Builder
	for i, t := range g.turns {
		if i > 0 {
			sb.WriteByte(' ')
		}
		fmt.Fprintf(&sb, "%d.", t.pre.Fullmove)
		for _, c := range []chess.Color{chess.White, chess.Black} {
			sb.WriteByte(' ')
			sb.WriteString(g.write(&t.pre, t.ep, c, t.moves[c], g.movesAt(&t.pre, t.ep, c)))
		}
	}
	// Once the game is over nothing is secret (rules.md 0.4b): a move chosen for a turn
	// that was never played is written too, as the first half of a turn ("12. e4"), or
	// with the turn's number and "..." when only Black had chosen ("12... e5").
	if g.Outcome().Over() && (g.has[chess.White] || g.has[chess.Black]) {
		if sb.Len() > 0 {
			sb.WriteByte(' ')
		}
		for _, c := range []chess.Color{chess.White, chess.Black} {
			if !g.has[c] {
				continue
			}
			switch {
			case c == chess.White:
				fmt.Fprintf(&sb, "%d. ", g.pos.Fullmove)
			case !g.has[chess.White]:
				fmt.Fprintf(&sb, "%d... ", g.pos.Fullmove)
			}
			sb.WriteString(g.write(&g.pos, g.ep, c, g.chosen[c], g.moves[c]))
		}
	}
	return sb.String()
}

var _ variant.Scorer = (*Game)(nil)

// Score is the game so far as v may know it: the turns resolved so far, both moves of each,
// which both players were told (never a move sealed for the turn in play); under fog his own
// moves alone, each written from his own man ("1. e2-e4 2. Ng1-f3"), since what the
// opponent played and what his own move took are not his to know. The referee's is the record.
func (g *Game) Score(v variant.Viewer) (words, moves string) {
	if v == variant.AsReferee || g.Outcome().Over() || !g.fog {
		return "score", g.Movetext()
	}
	return "synchronous/score", g.turnMoves([]chess.Color{chess.Color(v)}, false)
}

var _ variant.NumericScorer = (*Game)(nil)

// NumericScore is Score in ICCF numeric notation: the turns resolved, both moves of each, or
// under fog his own moves; once the game is over, the record in its own notation.
func (g *Game) NumericScore(v variant.Viewer) string {
	if v == variant.AsReferee || g.Outcome().Over() {
		return g.Movetext()
	}
	if !g.fog {
		return g.turnMoves([]chess.Color{chess.White, chess.Black}, true)
	}
	return g.turnMoves([]chess.Color{chess.Color(v)}, true)
}

// turnMoves writes the moves of sides in the turns resolved, numbered by turn: each from its
// man ("Ng1-f3") or in numeric notation.
func (g *Game) turnMoves(sides []chess.Color, numeric bool) string {
	var sb strings.Builder
	for _, t := range g.turns {
		if sb.Len() > 0 {
			sb.WriteByte(' ')
		}
		fmt.Fprintf(&sb, "%d.", t.pre.Fullmove)
		for _, s := range sides {
			m := t.moves[s]
			sb.WriteByte(' ')
			switch {
			case m == chess.NullMove:
				sb.WriteString("--")
			case numeric:
				sb.WriteString(chess.Numeric(m))
			default:
				if role := t.pre.At(m.From).Role(); role != chess.Pawn && role != chess.NoRole {
					sb.WriteString(role.Letter())
				}
				fmt.Fprintf(&sb, "%v-%v", m.From, m.To)
				if m.Promotion != chess.NoRole {
					sb.WriteString("=" + m.Promotion.Letter())
				}
			}
		}
	}
	return sb.String()
}

// Steps reads a record of synchronous chess: after each turn number, White's move then
// Black's, both judged on the position before the turn. A turn number is optional; one that
// does not fit the count (a turn skipped, "N..." before White's move) is a warning, and the
// count goes on.
func Steps(start variant.Game, toks []record.Token, buf []variant.Step) ([]variant.Step, error) {
	count := record.Counter{No: start.Position().Fullmove}
	steps := buf
	add := func(text string) {
		side, after := chess.White, ""
		if count.Black {
			side, after = chess.Black, "..."
		}
		steps = append(steps, variant.Step{By: side, Text: text, Where: "turn ", Num: count.No, After: after, Warnings: count.Warnings()})
		count.Next()
	}
	for _, t := range toks {
		switch t.Kind {
		case record.Number, record.Symbol:
			num, text := record.MoveText(t)
			if num != "" {
				count.Number(num)
			}
			if text != "" {
				add(text)
			}
		case record.Paren:
			if len(steps) == 0 {
				return nil, fmt.Errorf("%s before any move", t.Text)
			}
			steps[len(steps)-1].Text += t.Text
		case record.Result:
			return steps, nil
		}
	}
	return steps, nil
}
