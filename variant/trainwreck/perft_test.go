package trainwreck

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/refereed/refereed/chess"
)

// An independent enumeration of Train Wreck's moves, written from rules.md §9 alone on a
// plain array board (FEN letters, no bitboards, nothing of the chess package but reading the
// FEN), to check the game's moves against: part 1 and part 2 move lists, and perft-style
// counts of whole turns.

// refPos is a position for the reference: the board, the kings' castling rights (FEN
// letters), and the queens and rooks still unmoved for the queens' castling.
type refPos struct {
	sq      [64]byte // FEN letter, or 0
	rights  map[byte]bool
	unmoved map[int]bool
}

func refFrom(t *testing.T, fen string) *refPos {
	t.Helper()
	p, err := chess.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	r := &refPos{rights: map[byte]bool{}, unmoved: map[int]bool{}}
	for s := 0; s < 64; s++ {
		if pc := p.At(chess.Square(s)); pc != chess.NoPiece {
			r.sq[s] = pc.FENChar()
		}
	}
	if f := strings.Fields(p.FEN())[2]; f != "-" {
		for i := 0; i < len(f); i++ {
			r.rights[f[i]] = true
		}
	}
	// The game's decision for a set-up position: queens and rooks on their array squares are
	// unmoved.
	for s, want := range map[int]byte{3: 'Q', 0: 'R', 7: 'R', 59: 'q', 56: 'r', 63: 'r'} {
		r.unmoved[s] = r.sq[s] == want
	}
	return r
}

func (r *refPos) clone() *refPos {
	c := &refPos{sq: r.sq, rights: map[byte]bool{}, unmoved: map[int]bool{}}
	for k, v := range r.rights {
		c.rights[k] = v
	}
	for k, v := range r.unmoved {
		c.unmoved[k] = v
	}
	return c
}

func white(c byte) bool { return c >= 'A' && c <= 'Z' }

func lower(c byte) byte {
	if white(c) {
		return c + 'a' - 'A'
	}
	return c
}

func sqName(s int) string { return string([]byte{byte('a' + s%8), byte('1' + s/8)}) }

// refMove is a move: from, to, promotion letter (lower case), castling.
type refMove struct {
	from, to int
	promo    byte
	castle   bool
}

func (m refMove) uci() string {
	s := sqName(m.from) + sqName(m.to)
	if m.promo != 0 {
		s += string(m.promo)
	}
	return s
}

// attacked reports whether a man of colour byWhite could capture on s with orthodox
// geometry.
func (r *refPos) attacked(s int, byWhite bool) bool {
	f, k := s%8, s/8
	at := func(ff, kk int) byte {
		if ff < 0 || ff > 7 || kk < 0 || kk > 7 {
			return 0
		}
		return r.sq[kk*8+ff]
	}
	is := func(c byte, role byte) bool { return c != 0 && white(c) == byWhite && lower(c) == role }
	for _, d := range [][2]int{{1, 2}, {2, 1}, {-1, 2}, {-2, 1}, {1, -2}, {2, -1}, {-1, -2}, {-2, -1}} {
		if is(at(f+d[0], k+d[1]), 'n') {
			return true
		}
	}
	for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}} {
		if is(at(f+d[0], k+d[1]), 'k') {
			return true
		}
		diag := d[0] != 0 && d[1] != 0
		for i := 1; ; i++ {
			ff, kk := f+d[0]*i, k+d[1]*i
			if ff < 0 || ff > 7 || kk < 0 || kk > 7 {
				break
			}
			c := at(ff, kk)
			if c == 0 {
				continue
			}
			if is(c, 'q') || (diag && is(c, 'b')) || (!diag && is(c, 'r')) {
				return true
			}
			break
		}
	}
	// A white pawn captures upwards, so it stands below s.
	dk := -1
	if !byWhite {
		dk = 1
	}
	return is(at(f-1, k+dk), 'p') || is(at(f+1, k+dk), 'p')
}

// moves lists the moves of colour isWhite's men: own (part 1: every man, castling of king
// and queen) or not (part 2: no king, the queen's castling only).
func (r *refPos) moves(isWhite, own bool) []refMove {
	var out []refMove
	fwd, start, last := 1, 1, 7
	if !isWhite {
		fwd, start, last = -1, 6, 0
	}
	enemy := func(c byte) bool { return c != 0 && white(c) != isWhite }
	add := func(from, to int, pawn bool) {
		if pawn && to/8 == last {
			for _, p := range []byte{'q', 'r', 'b', 'n'} {
				out = append(out, refMove{from: from, to: to, promo: p})
			}
			return
		}
		out = append(out, refMove{from: from, to: to})
	}
	for s := 0; s < 64; s++ {
		c := r.sq[s]
		if c == 0 || white(c) != isWhite {
			continue
		}
		f, k := s%8, s/8
		role := lower(c)
		if role == 'k' && !own {
			continue
		}
		in := func(ff, kk int) bool { return ff >= 0 && ff < 8 && kk >= 0 && kk < 8 }
		switch role {
		case 'p':
			if one := s + 8*fwd; in(f, k+fwd) && r.sq[one] == 0 {
				add(s, one, true)
				if two := one + 8*fwd; k == start && r.sq[two] == 0 {
					add(s, two, true)
				}
			}
			for _, df := range []int{-1, 1} {
				if in(f+df, k+fwd) && enemy(r.sq[(k+fwd)*8+f+df]) {
					add(s, (k+fwd)*8+f+df, true)
				}
			}
		case 'n', 'k':
			deltas := [][2]int{{1, 2}, {2, 1}, {-1, 2}, {-2, 1}, {1, -2}, {2, -1}, {-1, -2}, {-2, -1}}
			if role == 'k' {
				deltas = [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
			}
			for _, d := range deltas {
				if !in(f+d[0], k+d[1]) {
					continue
				}
				to := (k+d[1])*8 + f + d[0]
				if (r.sq[to] == 0 && d[1]*fwd > 0) || enemy(r.sq[to]) {
					add(s, to, false)
				}
			}
		default:
			var dirs [][2]int
			if role != 'b' {
				dirs = append(dirs, [2]int{1, 0}, [2]int{-1, 0}, [2]int{0, 1}, [2]int{0, -1})
			}
			if role != 'r' {
				dirs = append(dirs, [2]int{1, 1}, [2]int{1, -1}, [2]int{-1, 1}, [2]int{-1, -1})
			}
			for _, d := range dirs {
				for i := 1; in(f+d[0]*i, k+d[1]*i); i++ {
					to := (k+d[1]*i)*8 + f + d[0]*i
					if r.sq[to] == 0 {
						if d[1]*fwd > 0 {
							add(s, to, false)
						}
						continue
					}
					if enemy(r.sq[to]) {
						add(s, to, false)
					}
					break
				}
			}
		}
	}
	home := 0
	K, Q, R, kr, qr := byte('K'), byte('Q'), byte('R'), byte('K'), byte('Q')
	if !isWhite {
		home, K, Q, R, kr, qr = 56, 'k', 'q', 'r', 'k', 'q'
	}
	empty := func(ss ...int) bool {
		for _, s := range ss {
			if r.sq[home+s] != 0 {
				return false
			}
		}
		return true
	}
	safe := func(ss ...int) bool {
		for _, s := range ss {
			if r.attacked(home+s, !isWhite) {
				return false
			}
		}
		return true
	}
	if own && r.sq[home+4] == K {
		if r.rights[kr] && r.sq[home+7] == R && empty(5, 6) && safe(4, 5, 6) {
			out = append(out, refMove{from: home + 4, to: home + 6, castle: true})
		}
		if r.rights[qr] && r.sq[home] == R && empty(1, 2, 3) && safe(4, 3, 2) {
			out = append(out, refMove{from: home + 4, to: home + 2, castle: true})
		}
	}
	if r.sq[home+3] == Q && r.unmoved[home+3] {
		if r.sq[home] == R && r.unmoved[home] && empty(1, 2) {
			out = append(out, refMove{from: home + 3, to: home + 1, castle: true})
		}
		if r.sq[home+7] == R && r.unmoved[home+7] && empty(4, 5, 6) {
			out = append(out, refMove{from: home + 3, to: home + 5, castle: true})
		}
	}
	return out
}

// play makes m on a copy and returns it with the man taken.
func (r *refPos) play(m refMove) (*refPos, byte) {
	n := r.clone()
	c := n.sq[m.from]
	taken := n.sq[m.to]
	touched := []int{m.from, m.to}
	n.sq[m.from], n.sq[m.to] = 0, c
	if m.promo != 0 {
		n.sq[m.to] = m.promo
		if white(c) {
			n.sq[m.to] -= 'a' - 'A'
		}
	}
	if m.castle {
		rank := m.from / 8 * 8
		rook, rookTo := rank, (m.from+m.to)/2
		if m.to > m.from {
			rook = rank + 7
		}
		n.sq[rookTo], n.sq[rook] = n.sq[rook], 0
		touched = append(touched, rook)
		taken = 0
	}
	for _, s := range touched {
		n.unmoved[s] = false
		switch s {
		case 4:
			n.rights['K'], n.rights['Q'] = false, false
		case 7:
			n.rights['K'] = false
		case 0:
			n.rights['Q'] = false
		case 60:
			n.rights['k'], n.rights['q'] = false, false
		case 63:
			n.rights['k'] = false
		case 56:
			n.rights['q'] = false
		}
	}
	return n, taken
}

// refTurns counts the whole turns of depth turns from r, isWhite to play a turn of own own
// moves (then three tells how many the next turns have). A turn that ends the game is a leaf
// however deep.
func refTurns(r *refPos, isWhite bool, own int, three bool, depth int) int {
	nextOwn := 1
	if three {
		nextOwn = 2
	}
	var turns func(r *refPos, k int) int
	turns = func(r *refPos, k int) int {
		n := 0
		for _, m := range r.moves(isWhite, true) {
			q, taken := r.play(m)
			switch {
			case lower(taken) == 'k':
				n++
			case k+1 < own:
				if len(q.moves(isWhite, true)) == 0 {
					n++
				} else {
					n += turns(q, k+1)
				}
			default:
				others := q.moves(!isWhite, false)
				if len(others) == 0 {
					n++
				}
				for _, o := range others {
					z, taken := q.play(o)
					switch {
					case lower(taken) == 'k', depth == 1, len(z.moves(!isWhite, true)) == 0:
						n++
					default:
						n += refTurns(z, !isWhite, nextOwn, three, depth-1)
					}
				}
			}
		}
		return n
	}
	return turns(r, 0)
}

// gameTurns is the same count through the game's own move lists.
func gameTurns(p chess.Position, unmoved chess.Bitboard, own int, three bool, depth int) int {
	by := p.Turn
	nextOwn := 1
	if three {
		nextOwn = 2
	}
	var turns func(p chess.Position, unmoved chess.Bitboard, k int) int
	turns = func(p chess.Position, unmoved chess.Bitboard, k int) int {
		n := 0
		for _, m := range ownMoves(nil, &p, by, unmoved) {
			q, u := p, unmoved
			taken := play(&q, &u, m)
			switch {
			case taken.Role() == chess.King:
				n++
			case k+1 < own:
				if !hasOwnMove(&q, by, u) {
					n++
				} else {
					n += turns(q, u, k+1)
				}
			default:
				others := otherMoves(nil, &q, by.Other(), u)
				if len(others) == 0 {
					n++
				}
				for _, o := range others {
					z, zu := q, u
					taken := play(&z, &zu, o)
					z.Turn = by.Other()
					switch {
					case taken.Role() == chess.King, depth == 1, !hasOwnMove(&z, z.Turn, zu):
						n++
					default:
						n += gameTurns(z, zu, nextOwn, three, depth-1)
					}
				}
			}
		}
		return n
	}
	return turns(p, unmoved, 0)
}

var perftPositions = []struct {
	name, fen string
	turns     []int // whole turns to depth 1, 2, ...: the reference enumeration's counts
}{
	{"initial", chess.StartFEN, []int{400, 188065}},
	{"both castlings, kings' and queens'", "r2qk2r/pppb1ppp/2n2n2/8/8/2N2N2/PPPB1PPP/R2QK2R w KQkq - 0 1", []int{523, 326373}},
	{"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", []int{767}},
	{"promotions, king captures", "n1n1k3/1P1P4/8/8/8/8/1p1p4/N1N1K3 w - - 0 1", []int{774, 195896}},
	{"TW-5", "4k3/4p3/4P3/8/8/8/8/4K2R w K - 0 1", []int{11}},
	{"attacked kings, castling refused", "r3k2r/8/8/1b6/6B1/8/8/R3K2R b KQkq - 0 1", []int{379, 80387}},
}

// Part 1 and part 2 of every position, and every position reached by one move, list the
// same moves as the reference.
func TestMovesAgreeWithReference(t *testing.T) {
	for _, c := range perftPositions {
		r := refFrom(t, c.fen)
		g := newGame(t, false, c.fen, nil)
		by := g.pos.Turn
		compare := func(what string, r *refPos, isWhite, own bool, p *chess.Position, unmoved chess.Bitboard) {
			t.Helper()
			var ref []string
			for _, m := range r.moves(isWhite, own) {
				ref = append(ref, m.uci())
			}
			slices.Sort(ref)
			col := chess.Black
			if isWhite {
				col = chess.White
			}
			var got []string
			if own {
				got = uci(ownMoves(nil, p, col, unmoved))
			} else {
				got = uci(otherMoves(nil, p, col, unmoved))
			}
			if !slices.Equal(ref, got) {
				t.Errorf("%s, %s: the game has %d moves, the reference %d\ngame: %v\nref:  %v", c.name, what, len(got), len(ref), got, ref)
			}
		}
		compare("part 1", r, by == chess.White, true, &g.pos, g.unmoved)
		for _, m := range ownMoves(nil, &g.pos, by, g.unmoved) {
			p, u := g.pos, g.unmoved
			play(&p, &u, m)
			rm := refMove{from: int(m.From), to: int(m.To), castle: m.Kind == chess.Castle}
			if m.Promotion != chess.NoRole {
				rm.promo = m.UCI()[4]
			}
			q, _ := r.play(rm)
			if q.sq != [64]byte(boardOf(&p)) {
				t.Fatalf("%s: %s plays differently", c.name, m.UCI())
			}
			compare("part 2 after "+m.UCI(), q, by != chess.White, false, &p, u)
			compare("part 1 of the next turn after "+m.UCI(), q, by != chess.White, true, &p, u)
		}
	}
}

func boardOf(p *chess.Position) [64]byte {
	var b [64]byte
	for s := 0; s < 64; s++ {
		if pc := p.At(chess.Square(s)); pc != chess.NoPiece {
			b[s] = pc.FENChar()
		}
	}
	return b
}

// Perft-style counts of whole turns (part 1 then part 2, a game-ending turn a leaf), the
// game's against the reference's and against the numbers the reference gave.
func TestTurnCounts(t *testing.T) {
	for _, c := range perftPositions {
		for d, want := range c.turns {
			depth := d + 1
			if testing.Short() && depth > 1 {
				continue
			}
			t.Run(fmt.Sprintf("%s depth %d", c.name, depth), func(t *testing.T) {
				r := refFrom(t, c.fen)
				g := newGame(t, false, c.fen, nil)
				ref := refTurns(r, g.pos.Turn == chess.White, 1, false, depth)
				got := gameTurns(g.pos, g.unmoved, 1, false, depth)
				if got != ref || ref != want {
					t.Errorf("%d turns, the reference %d, recorded %d", got, ref, want)
				}
			})
		}
	}
	t.Run("Three-Move, Black's turn 1 of two own moves", func(t *testing.T) {
		const fen = "r1bqkbnr/pppppppp/2n5/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
		g := newGame(t, true, fen, nil)
		ref := refTurns(refFrom(t, fen), false, 2, true, 1)
		got := gameTurns(g.pos, g.unmoved, g.ownCount(), true, 1)
		if got != ref || ref != 12516 {
			t.Errorf("%d turns, the reference %d", got, ref)
		}
	})
}
