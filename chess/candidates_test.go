package chess

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// The targeted generators (LegalMovesTo, Candidates, HasLegalMove) must agree with the full
// list they stand in for: the same moves in the same order, and the same resolutions.

// extraPositions add to the perft suite what it lacks at shallow depth: mate, stalemate, a
// side without a king, promotions, en passant and castling through or out of check.
var extraPositions = []string{
	"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", // fool's mate: no move
	"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",                                // stalemate
	"8/8/8/3k4/8/8/2N1N3/8 w - - 0 1",                               // White has no king
	"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
	"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
	"r3k2r/8/8/8/8/8/8/R3K1r1 w Qkq - 0 1", // castling out of check: no
	"8/8/8/KPp4r/8/8/8/7k w - c6 0 2",      // the horizontal pin on en passant
	"4k3/8/8/2pPp3/8/8/8/4K3 w - e6 0 2",   // two pawns could take on one square
	"4k3/8/8/8/8/2N3N1/8/N3K1N1 w - - 0 1", // four knights onto e2
	"7k/8/8/8/3b4/8/1N1n4/K1n5 w - - 0 1",  // stalemate: the only knight is pinned
	"k7/8/8/3b4/6n1/7n/6P1/7K w - - 0 1",   // stalemate: the only pawn is pinned
}

// walkAgreement calls f on the perft suite's positions to depth plies, on extraPositions and
// the positions one ply below them, and on every position of games random games.
func walkAgreement(t *testing.T, depth, games int, f func(id string, p *Position)) {
	walkSuite(t, depth, f)
	// Random games to their end reach what the suite's shallow trees do not: bare kings,
	// lone pieces, mates and stalemates far from the start.
	rng := rand.New(rand.NewPCG(27, 1))
	for g := 0; g < games; g++ {
		p := Start()
		for ply := 0; ply < 400; ply++ {
			f(fmt.Sprintf("random-%d ply %d", g, ply), &p)
			moves := p.LegalMoves(nil)
			if len(moves) == 0 || p.InsufficientMaterial() {
				break
			}
			p.Play(moves[rng.IntN(len(moves))])
		}
	}
	for i, fen := range extraPositions {
		p, err := ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		f(fmt.Sprintf("extra-%d", i), &p)
		for _, m := range p.LegalMoves(nil) {
			q := p
			q.Play(m)
			f(fmt.Sprintf("extra-%d %v", i, m), &q)
		}
	}
}

func filterMoves(moves []Move, froms Bitboard, to Square) []Move {
	var out []Move
	for _, m := range moves {
		if froms.Has(m.From) && m.To == to {
			out = append(out, m)
		}
	}
	return out
}

func TestLegalMovesToAgreesWithLegalMoves(t *testing.T) {
	walkAgreement(t, 2, 40, func(id string, p *Position) {
		legal := p.LegalMoves(nil)
		if got := p.HasLegalMove(); got != (len(legal) > 0) {
			t.Fatalf("%s %s: HasLegalMove %v with %d legal moves", id, p.FEN(), got, len(legal))
		}
		for _, froms := range []Bitboard{All, p.ByColor(p.Turn), FileA | FileH, Rank2 | Rank7, p.ByRole(Pawn)} {
			for to := Square(0); to < 64; to++ {
				want := filterMoves(legal, froms, to)
				if got := p.LegalMovesTo(nil, froms, to); !slices.Equal(got, want) {
					t.Fatalf("%s %s: LegalMovesTo(%x, %v) = %v, want %v", id, p.FEN(), froms, to, got, want)
				}
			}
		}
	})
}

// notationsFor lists texts a writer might send in p: every legal move in SAN and in
// coordinates, and around every square the forms of a move there by each role, right or not.
func notationsFor(p *Position) []string {
	out := []string{"O-O", "O-O-O", "0-0+", "Kg1", "Kc8", "e1g1", "e8c8"}
	for _, m := range p.LegalMoves(nil) {
		out = append(out, p.SAN(m), m.UCI(), m.From.String()+"-"+m.To.String())
	}
	for to := Square(0); to < 64; to++ {
		sq := to.String()
		for _, r := range []string{"", "N", "B", "R", "Q", "K", "T"} {
			out = append(out, r+sq, r+"x"+sq)
		}
		file := string(rune('a' + (to.File()+1)%8))
		out = append(out, file+"x"+sq, file+":"+sq, "N"+file+sq, "R1"+sq, sq+"=Q", file+"x"+sq+"=N", sq+"(Q)")
	}
	return out
}

func sameResolution(p *Position, n Notation) error {
	legal := p.LegalMoves(nil)
	m1, w1, e1 := Resolve(p, n, legal)
	m2, w2, e2 := Resolve(p, n, p.Candidates(nil, n))
	if m1 != m2 || !slices.Equal(w1, w2) || fmt.Sprint(e1) != fmt.Sprint(e2) {
		return fmt.Errorf("among all legal moves %v %v %v; among the candidates %v %v %v", m1, w1, e1, m2, w2, e2)
	}
	return nil
}

func TestCandidatesResolveAsLegalMoves(t *testing.T) {
	walkAgreement(t, 1, 2, func(id string, p *Position) {
		for _, text := range notationsFor(p) {
			n, err := ParseNotation(text)
			if err != nil {
				continue
			}
			if err := sameResolution(p, n); err != nil {
				t.Fatalf("%s %s: %q: %v", id, p.FEN(), text, err)
			}
		}
	})
}

// FuzzCandidates: any text that parses resolves among the candidates as among all the legal
// moves, in a few positions.
func FuzzCandidates(f *testing.F) {
	for _, s := range []string{"e4", "Nbd7", "exd8=Q+", "O-O-O#", "0-0", "e7e8q", "Nb1-c3", "T:d1", "f:d4", "e8(N)",
		"Kxe2??", "cxd1(Q)+", "a8(N)", "bxa8(B)", "Ne2", "Nge2", "e1g1", "dxe6", "bxc6"} {
		f.Add(s)
	}
	var positions []Position
	for _, fen := range append([]string{StartFEN, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"}, extraPositions...) {
		p, err := ParseFEN(fen)
		if err != nil {
			f.Fatal(err)
		}
		positions = append(positions, p)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := ParseNotation(s)
		if err != nil {
			return
		}
		for i := range positions {
			if err := sameResolution(&positions[i], n); err != nil {
				t.Fatalf("%s: %q: %v", positions[i].FEN(), s, err)
			}
		}
	})
}

// Checks answers as playing the move and looking does, for every move generated in any of
// the ways variants generate them (its shortcut skips the play when nothing can check).
func TestChecksAsPlayed(t *testing.T) {
	walkAgreement(t, 2, 40, func(id string, p *Position) {
		var moves []Move
		for _, c := range []Color{White, Black} {
			moves = p.Generate(moves, MoveRules{Color: c, Pseudo: true})
			moves = p.Generate(moves, MoveRules{Color: c, Pseudo: true, SelfCapture: true})
		}
		for _, m := range moves {
			q := *p
			q.Play(m)
			check := q.InCheck()
			mate := check && len(q.LegalMoves(nil)) == 0
			if c, mt := p.Checks(m); c != check || mt != mate {
				t.Fatalf("%s %s: Checks(%v) = %v, %v; played: %v, %v", id, p.FEN(), m, c, mt, check, mate)
			}
		}
	})
}
