package synchronous

import (
	"fmt"
	"strings"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/variant"
)

// counts are PSC's attack counts: counts[c][s] is how many of c's men attack s (PS-D1).
type counts [2][64]int8

// frozen reports whether c's man on s is frozen: attacked by two men of the other colour
// (rule 5).
func (n *counts) frozen(c chess.Color, s chess.Square) bool { return n[c.Other()][s] >= 2 }

// controls reports whether c controls s: more of his men attack it than of the opponent's
// (rule 3).
func (n *counts) controls(c chess.Color, s chess.Square) bool { return n[c][s] > n[c.Other()][s] }

// reach is what c's man on s attacks (PS-D1, rule 4): the squares it can move to with the
// geometry of chess on the current board, the enemy men it can capture, and its own square;
// never a man of its own colour. A pawn attacks its pushes when free and its diagonals only
// onto an enemy man, or onto the square an enemy pawn passed in a double step last turn
// (PS-D5: it can move there). Castling is not an attack.
func reach(p *chess.Position, epOf [2]chess.Square, c chess.Color, s chess.Square) chess.Bitboard {
	pc := p.At(s)
	occ := p.Occupied()
	own := p.ByColor(c)
	if pc.Role() != chess.Pawn {
		return chess.Attacks(pc, s, occ)&^own | s.Bit()
	}
	att := s.Bit() | chess.PawnAttacks(c, s)&p.ByColor(c.Other())
	if e := epOf[c.Other()]; e != chess.NoSquare && chess.PawnAttacks(c, s).Has(e) && !own.Has(e) {
		att |= e.Bit() // (not when a man of c's went there in the same turn)
	}
	step, home := chess.Square(8), 1
	if c == chess.Black {
		step, home = -8, 6
	}
	if one := s + step; one.Valid() && !occ.Has(one) {
		att |= one.Bit()
		if two := one + step; s.Rank() == home && !occ.Has(two) {
			att |= two.Bit()
		}
	}
	return att
}

// pscAttacks counts every man's attacks in p.
func pscAttacks(p *chess.Position, ep [2]chess.Square) (n counts) {
	for _, c := range []chess.Color{chess.White, chess.Black} {
		for b := p.ByColor(c); b != 0; b &= b - 1 {
			for a := reach(p, ep, c, b.First()); a != 0; a &= a - 1 {
				n[c][a.First()]++
			}
		}
	}
	return n
}

// seen is what c's men see with fog (PS-D9): the squares they attack, their own included.
func (n *counts) seen(p *chess.Position, c chess.Color) chess.Bitboard {
	var b chess.Bitboard
	for s := chess.Square(0); s < 64; s++ {
		if n[c][s] > 0 {
			b |= s.Bit()
		}
	}
	return b
}

// pscMoves appends c's legal moves in p (PS-D2): a man that is not frozen moves with the
// geometry of chess to a square c controls; castling needs the king and rook unmoved and not
// frozen, the squares between free and both destinations controlled (rule 6; there is no
// check to castle out of or through); en passant needs the passed pawn frozen and the
// destination controlled (rule 7, PS-D5). The mover's own king may be left attacked (PS-D3).
func pscMoves(buf []chess.Move, p *chess.Position, ep [2]chess.Square, n *counts, c chess.Color) []chess.Move {
	q := *p
	q.EnPassant = chess.NoSquare
	start := len(buf)
	buf = q.Generate(buf, chess.MoveRules{Color: c, Pseudo: true, NoCastling: true, NoEnPassant: true})
	out := buf[:start]
	for _, m := range buf[start:] {
		if !n.frozen(c, m.From) && n.controls(c, m.To) {
			out = append(out, m)
		}
	}
	buf = out
	if e := ep[c.Other()]; e != chess.NoSquare && !p.Occupied().Has(e) && n.controls(c, e) {
		victim := e - 8
		if c == chess.Black {
			victim = e + 8
		}
		if p.At(victim) == chess.MakePiece(c.Other(), chess.Pawn) && n.frozen(c.Other(), victim) {
			for b := chess.PawnAttacks(c.Other(), e) & p.ByPiece(c, chess.Pawn); b != 0; b &= b - 1 {
				if from := b.First(); !n.frozen(c, from) {
					buf = append(buf, chess.Move{From: from, To: e, Kind: chess.EnPassant})
				}
			}
		}
	}
	home, short, long := chess.E1, chess.WhiteShort, chess.WhiteLong
	if c == chess.Black {
		home, short, long = chess.E8, chess.BlackShort, chess.BlackLong
	}
	if p.At(home) != chess.MakePiece(c, chess.King) || n.frozen(c, home) {
		return buf
	}
	occ := p.Occupied()
	for _, side := range []struct {
		right chess.CastlingRights
		to    chess.Square
	}{{short, home + 2}, {long, home - 2}} {
		m := chess.Move{From: home, To: side.to, Kind: chess.Castle}
		rook := m.CastlingRook()
		if p.Castling&side.right == 0 || p.At(rook) != chess.MakePiece(c, chess.Rook) || occ&chess.Between(home, rook) != 0 {
			continue
		}
		if !n.frozen(c, rook) && n.controls(c, m.To) && n.controls(c, m.RookTo()) {
			buf = append(buf, m)
		}
	}
	return buf
}

// pscResolve plays both moves on p at once (PS-D4). The control rules keep them apart: they
// never land on one square, and no man they capture moves (it is frozen), so they may be
// played one after the other.
func pscResolve(p *chess.Position, moves [2]chess.Move) result {
	r := result{pos: *p, ep: [2]chess.Square{chess.NoSquare, chess.NoSquare}, quiet: true}
	for _, c := range []chess.Color{chess.White, chess.Black} {
		m := moves[c]
		pc := p.At(m.From)
		if victim := p.At(m.CaptureSquare()); m.Kind != chess.Castle && victim != chess.NoPiece {
			r.events = append(r.events, Event{Kind: "capture", Square: m.CaptureSquare().String(), Man: manOf(victim), Other: manOf(pc), Lost: victim.Color().String(), Role: victim.Role().String()})
			r.quiet = false
		}
		if pc.Role() == chess.Pawn {
			r.quiet = false
			if d := int(m.To) - int(m.From); d == 16 || d == -16 {
				r.ep[c] = (m.From + m.To) / 2
			}
		}
		r.pos.Play(m)
	}
	return r
}

// pscJudge is PS-D6, then PS-D7: a side loses with its king frozen, or with no legal move
// while its king is attacked; both losing is a draw; one losing is the other's win, even if
// the winner is stalemated; then stalemate of either side, 50 quiet turns and king against
// king draw.
func (g *Game) pscJudge() *variant.Ending {
	var lose [2]bool
	var frozenKing [2]bool
	for _, c := range []chess.Color{chess.White, chess.Black} {
		k := g.pos.King(c)
		if k == chess.NoSquare {
			lose[c] = true
			continue
		}
		a := g.att[c.Other()][k]
		frozenKing[c] = a >= 2
		lose[c] = a >= 2 || (a >= 1 && len(g.moves[c]) == 0)
	}
	switch {
	case lose[chess.White] && lose[chess.Black]:
		return &variant.Ending{Result: variant.Draw, Termination: "both kings lost", Reason: "both kings were frozen or checkmated at once"}
	case lose[chess.White] || lose[chess.Black]:
		loser := chess.White
		if lose[chess.Black] {
			loser = chess.Black
		}
		if frozenKing[loser] {
			return &variant.Ending{Result: variant.WinFor(loser.Other()), Termination: "frozen king", Reason: fmt.Sprintf("%v froze %v's king", loser.Other(), loser)}
		}
		return &variant.Ending{Result: variant.WinFor(loser.Other()), Termination: "checkmate", Reason: fmt.Sprintf("%v checkmated %v", loser.Other(), loser)}
	}
	for _, c := range []chess.Color{chess.White, chess.Black} {
		if len(g.moves[c]) == 0 {
			return &variant.Ending{Result: variant.Draw, Termination: "stalemate", Reason: fmt.Sprintf("%v has no legal move", c)}
		}
	}
	if g.pos.Halfmove >= quietLimit {
		return &variant.Ending{Result: variant.Draw, Termination: "fifty-move rule", Reason: "50 turns without a capture or a pawn move"}
	}
	if g.pos.Occupied() == g.pos.ByRole(chess.King) {
		return &variant.Ending{Result: variant.Draw, Termination: "insufficient material", Reason: "only the two kings are left"}
	}
	return nil
}

// controlMap draws who controls each square, from s's side: each square as W or B (who
// controls it) or . (nobody), then the white and the black count, like "W21"; " . " when
// nothing attacks it.
func (g *Game) controlMap(s chess.Color) string {
	var sb strings.Builder
	files := "   "
	for j := 0; j < 8; j++ {
		file := j
		if s == chess.Black {
			file = 7 - j
		}
		files += " " + string(rune('a'+file)) + "   "
	}
	files = strings.TrimRight(files, " ") + "\n"
	sb.WriteString(files)
	for i := 0; i < 8; i++ {
		rank := 7 - i
		if s == chess.Black {
			rank = i
		}
		fmt.Fprintf(&sb, "%d  ", rank+1)
		for j := 0; j < 8; j++ {
			file := j
			if s == chess.Black {
				file = 7 - j
			}
			sq := chess.SquareAt(file, rank)
			w, b := g.att[chess.White][sq], g.att[chess.Black][sq]
			switch {
			case w == 0 && b == 0:
				sb.WriteString(" . ")
			case w > b:
				fmt.Fprintf(&sb, "W%d%d", w, b)
			case b > w:
				fmt.Fprintf(&sb, "B%d%d", w, b)
			default:
				fmt.Fprintf(&sb, ".%d%d", w, b)
			}
			sb.WriteString("  ")
		}
		fmt.Fprintf(&sb, "%d\n", rank+1)
	}
	sb.WriteString(files)
	return strings.TrimRight(sb.String(), "\n")
}
