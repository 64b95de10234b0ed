package kriegspiel

import (
	"fmt"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/variant"
)

// Progressive Kriegspiel's series (rules.md §5): the rules the Progressive value names.

// pkBegin starts a Progressive Kriegspiel game: the side to move plays series 1 (White) or 2
// (Black), and an e.p. square in the FEN is eligible for its first move.
func (g *Game) pkBegin() {
	g.series = 1 + int(g.pos.Turn)
	if g.pos.EnPassant != chess.NoSquare {
		g.eps = g.pos.EnPassant.Bit()
	}
	g.pos.EnPassant = chess.NoSquare
	g.start = g.pos
	g.legal = g.pos.LegalMovesEP(make([]chess.Move, 0, 64), g.eps)
	g.judgeSeriesStart()
}

// pkTurnName is "series 5" before its first move, "series 5, move 2 of 5" after.
func (g *Game) pkTurnName(s variant.Side) string {
	if g.done == 0 {
		return g.NameTurn(s, g.pos.Turn, "series %d", g.series) // short: subjects give it
	}
	return g.NameTurn(s, g.pos.Turn, "series %d, move %d of %d", g.series, g.done+1, g.series)
}

// pkPlayed goes on with the series after a move, or ends it at a check or its last move; a
// player out of moves in mid-series is stalemated (PK-D4). Unless the game is over, the move
// tells whether the next mover has a pawn capture (PK-D1).
func (g *Game) pkPlayed(ev *event, irreversible bool) {
	p := &g.pos
	p.Turn = ev.by // the series goes on, unless it ends here
	p.EnPassant = chess.NoSquare
	g.done++
	g.seriesMoves = append(g.seriesMoves, ev.move)
	g.irreversible = g.irreversible || irreversible
	if ev.checks.n > 0 || g.done == g.series {
		g.endSeries()
	} else {
		g.legal = p.LegalMoves(g.legal[:0])
		switch {
		case p.InsufficientMaterial():
			g.End(variant.Draw, "insufficient material", g.rules.ends.Dead)
		case len(g.legal) == 0: // PK-D4: no move left in mid-series
			g.End(variant.Draw, "stalemate", fmt.Sprintf("%s has no move left in series %d", ev.by, g.series))
		}
	}
	if !g.Outcome().Over() {
		ev.tries = triesNo
		if g.hasPawnCapture(g.legal) {
			ev.tries = triesYes
		}
	}
}

// endSeries hands the turn over after a series (PK-D5: its double steps may be taken e.p.
// with the first move of the next one) and judges the next series' start.
func (g *Game) endSeries() {
	p := &g.pos
	g.eps = chess.PassedOver(g.seriesMoves)
	if g.irreversible {
		g.quietSeries = 0
	} else {
		g.quietSeries++
	}
	g.seriesMoves, g.irreversible = g.seriesMoves[:0], false
	p.Turn = p.Turn.Other()
	g.series++
	g.done = 0
	p.Fullmove = (g.series + 1) / 2 // a FEN's move number: White's series 2k-1 and Black's 2k
	g.legal = p.LegalMovesEP(g.legal[:0], g.eps)
	g.judgeSeriesStart()
}

// judgeSeriesStart ends a Progressive Kriegspiel game when the series to play cannot start
// (mate, stalemate, a dead position, the ten-series rule).
func (g *Game) judgeSeriesStart() {
	p := &g.pos
	noMove := len(g.legal) == 0
	g.Judge(g.rules.ends, variant.Standing{Mover: p.Turn, NoMove: noMove, InCheck: noMove && p.InCheck(),
		Dead: p.InsufficientMaterial(), Quiet: g.quietSeries})
}

// pkStop stops a Progressive Kriegspiel list at a "No", a check or the end of the series,
// and unless NOSTOP at a capture or "pawn tries: yes" (PK-D6).
func pkStop(r result, nostop bool) string {
	switch {
	case !r.played:
		return "no"
	case r.check:
		return "check"
	case r.turnOver:
		return "series"
	case nostop:
		return ""
	case r.capture:
		return "capture"
	case r.tries:
		return "tries"
	}
	return ""
}
