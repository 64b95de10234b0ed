package synchronous

import (
	"fmt"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/variant"
)

// koMoves appends c's moves in p (KO-D1): (a) the orthodox legal moves, with e.p. against
// the opponent's double step of the last turn (KO-D4); (b) "captures" of his own men other
// than the king with the capture geometry of the moving man, his king safe afterwards; (c)
// the capture of the enemy king when it is attacked. A player in check has only (a) and
// (c): no self-capture, not even his king's onto a safe square (only that one could have
// met the check). With mustMove he has only king moves and (c).
func koMoves(buf []chess.Move, p *chess.Position, ep [2]chess.Square, c chess.Color, mustMove bool) []chess.Move {
	q := *p
	q.Turn, q.EnPassant = c, ep[c.Other()]
	start := len(buf)
	buf = q.Generate(buf, chess.MoveRules{Color: c, SelfCapture: true})
	if k := q.King(c); k != chess.NoSquare && q.KingAttacked(c) {
		out := buf[:start]
		for _, m := range buf[start:] {
			own := q.At(m.To) != chess.NoPiece && q.At(m.To).Color() == c
			if !own && (!mustMove || m.From == k) {
				out = append(out, m)
			}
		}
		buf = out
	}
	if ek := q.King(c.Other()); ek != chess.NoSquare && q.KingAttacked(c.Other()) {
		var tmp [128]chess.Move
		for _, m := range q.Generate(tmp[:0], chess.MoveRules{Color: c, Pseudo: true, NoCastling: true, NoEnPassant: true}) {
			if _, dup := chess.FindMove(buf[start:], m); m.To == ek && !dup {
				buf = append(buf, m)
			}
		}
	}
	return buf
}

// step is one man moving in a turn: a castling moves two.
type step struct {
	c        chess.Color
	from, to chess.Square
	piece    chess.Piece // what arrives (the promoted piece)
	mover    chess.Piece // what left
}

// koResolve applies both moves to p at once (KO-D2): every mover leaves its square and goes
// to its destination, paths unchecked; a man still standing on a destination is captured;
// two men arriving on one vacant square are both removed, but a king survives and only the
// other man goes; on a square where one side's self-capture meets the other's capture of
// the same man, that man goes, the self-capturer stays and the other arriving man is
// captured. An e.p. capture takes the passed pawn only if it did not move.
func koResolve(p *chess.Position, moves [2]chess.Move) result {
	r := result{pos: *p, ep: [2]chess.Square{chess.NoSquare, chess.NoSquare}, quiet: true}
	b := &r.pos.Board
	var steps []step
	var origins chess.Bitboard
	for _, c := range []chess.Color{chess.White, chess.Black} {
		m := moves[c]
		pc := p.At(m.From)
		if pc.Role() == chess.Pawn {
			r.quiet = false
		}
		arrive := pc
		if m.Promotion != chess.NoRole {
			arrive = chess.MakePiece(c, m.Promotion)
		}
		steps = append(steps, step{c: c, from: m.From, to: m.To, piece: arrive, mover: pc})
		origins |= m.From.Bit()
		if m.Kind == chess.Castle {
			rook := m.CastlingRook()
			steps = append(steps, step{c: c, from: rook, to: m.RookTo(), piece: p.At(rook), mover: p.At(rook)})
			origins |= rook.Bit()
		}
	}
	for _, s := range steps {
		b.Remove(s.from)
	}
	removed := func(chess.Piece) { r.quiet = false }
	placed := map[chess.Square]bool{}
	for i, s := range steps {
		if placed[s.to] {
			continue
		}
		var other *step
		for j := range steps {
			if j != i && steps[j].to == s.to {
				other = &steps[j]
			}
		}
		placed[s.to] = true
		stay := b.At(s.to)
		sq := s.to.String()
		if other == nil {
			if stay != chess.NoPiece {
				b.Remove(s.to)
				removed(stay)
				if stay.Color() == s.c {
					r.events = append(r.events, Event{Kind: "self-capture", Square: sq, Man: manOf(s.mover), Victim: stay.Role().String(), Lost: stay.Color().String()})
				} else {
					r.events = append(r.events, Event{Kind: "capture", Square: sq, Man: manOf(stay), Other: manOf(s.mover), Lost: stay.Color().String()})
				}
			} else if was := p.At(s.to); was != chess.NoPiece && origins.Has(s.to) && was.Color() != s.c {
				// The man it meant to take moved away: an illusory capture, or, when that
				// man took this one's square, an exchange of places (cases 2-4).
				if back := stepFrom(steps, s.to); back != nil && back.to == s.from {
					if s.c == chess.White {
						r.events = append(r.events, Event{Kind: "exchange", Square: s.from.String() + " and " + sq, Man: manOf(s.mover), Other: manOf(back.mover)})
					}
				} else {
					r.events = append(r.events, Event{Kind: "illusory", Square: sq, Man: manOf(s.mover), Other: manOf(was)})
				}
			}
			b.Put(s.to, s.piece)
			continue
		}
		// Two men arrive on one square.
		if stay == chess.NoPiece {
			sk, ok := s.piece.Role() == chess.King, other.piece.Role() == chess.King
			switch {
			case sk != ok:
				king, man := s, *other
				if ok {
					king, man = *other, s
				}
				b.Put(s.to, king.piece)
				removed(man.piece)
				r.events = append(r.events, Event{Kind: "collision-king", Square: sq, Man: manOf(king.mover), Other: manOf(man.mover), Lost: man.c.String()})
			default:
				removed(s.piece)
				removed(other.piece)
				w, bl := s, *other
				if s.c == chess.Black {
					w, bl = bl, w
				}
				r.events = append(r.events, Event{Kind: "collision", Square: sq, Man: manOf(w.mover), Other: manOf(bl.mover), Lost: "both"})
			}
			continue
		}
		// A self-capture met by the enemy's capture of the same man: the anticipation.
		keep, lose := s, *other
		if other.c == stay.Color() {
			keep, lose = *other, s
		}
		b.Remove(s.to)
		removed(stay)
		removed(lose.piece)
		b.Put(s.to, keep.piece)
		r.events = append(r.events, Event{Kind: "anticipated", Square: sq, Man: manOf(keep.mover), Victim: stay.Role().String(), Other: manOf(lose.mover), Lost: "both"})
	}
	for _, c := range []chess.Color{chess.White, chess.Black} {
		m := moves[c]
		if m.Kind == chess.EnPassant {
			v := m.CaptureSquare()
			if pawn := chess.MakePiece(c.Other(), chess.Pawn); !origins.Has(v) && !placed[v] && b.At(v) == pawn {
				b.Remove(v)
				removed(pawn)
				r.events = append(r.events, Event{Kind: "capture", Square: v.String(), Man: manOf(pawn), Other: manOf(p.At(m.From)), Lost: c.Other().String()})
			} else {
				r.events = append(r.events, Event{Kind: "illusory", Square: m.To.String(), Man: manOf(p.At(m.From)), Other: manOf(pawn)})
			}
		}
		if p.At(m.From).Role() == chess.Pawn && b.At(m.To) == p.At(m.From) {
			if d := int(m.To) - int(m.From); d == 16 || d == -16 {
				r.ep[c] = (m.From + m.To) / 2
			}
		}
	}
	for _, s := range steps {
		r.pos.Castling &^= chess.CastlingRightsOf(s.from) | chess.CastlingRightsOf(s.to)
	}
	// A rook or king taken where it stood loses its castling too.
	for _, home := range []chess.Square{chess.A1, chess.H1, chess.E1, chess.A8, chess.H8, chess.E8} {
		if p.At(home) != b.At(home) {
			r.pos.Castling &^= chess.CastlingRightsOf(home)
		}
	}
	return r
}

// stepFrom is the step that leaves s, or nil.
func stepFrom(steps []step, s chess.Square) *step {
	for i := range steps {
		if steps[i].from == s {
			return &steps[i]
		}
	}
	return nil
}

// koJudge is KO-D3 and KO-D5: a king removed loses (both: a draw), before checkmate; then
// checkmate (in check with no move of KO-D1; both: a draw), stalemate, 50 quiet turns and
// dead positions (rules.md 0.4c: in this game only king against king and king and one
// minor piece against a lone king).
func (g *Game) koJudge() *variant.Ending {
	wk, bk := g.pos.King(chess.White) == chess.NoSquare, g.pos.King(chess.Black) == chess.NoSquare
	switch {
	case wk && bk:
		return &variant.Ending{Result: variant.Draw, Termination: "both kings captured", Reason: "both kings were captured at once"}
	case wk:
		return &variant.Ending{Result: "0-1", Termination: "king capture", Reason: "Black captured White's king"}
	case bk:
		return &variant.Ending{Result: "1-0", Termination: "king capture", Reason: "White captured Black's king"}
	}
	var mate, stale [2]bool
	for _, c := range []chess.Color{chess.White, chess.Black} {
		if len(g.moves[c]) == 0 {
			mate[c] = g.pos.KingAttacked(c)
			stale[c] = !mate[c]
		}
	}
	switch {
	case mate[chess.White] && mate[chess.Black]:
		return &variant.Ending{Result: variant.Draw, Termination: "checkmate", Reason: "both kings were checkmated at once"}
	case mate[chess.White]:
		return &variant.Ending{Result: "0-1", Termination: "checkmate", Reason: "Black checkmated White"}
	case mate[chess.Black]:
		return &variant.Ending{Result: "1-0", Termination: "checkmate", Reason: "White checkmated Black"}
	}
	for _, c := range []chess.Color{chess.White, chess.Black} {
		if stale[c] {
			return &variant.Ending{Result: variant.Draw, Termination: "stalemate", Reason: fmt.Sprintf("%v has no legal move", c)}
		}
	}
	if g.pos.Halfmove >= quietLimit {
		return &variant.Ending{Result: variant.Draw, Termination: "fifty-move rule", Reason: "50 turns without a capture, a man removed or a pawn move"}
	}
	if g.pos.KingsAndOneMinorAtMost() {
		return &variant.Ending{Result: variant.Draw, Termination: "insufficient material", Reason: "neither side has the men to mate"}
	}
	return nil
}
