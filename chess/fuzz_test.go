package chess

import (
	"strings"
	"testing"
)

// FuzzFEN: any input gives a position or an error; a position that parses writes a FEN that
// parses to the same FEN.
func FuzzFEN(f *testing.F) {
	for _, s := range []string{StartFEN, "8/8/8/8/8/8/8/8 w - - 0 1", "4k3/8/8/8/8/8/8/4K2R w K e3 5 9", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseFEN(s)
		if err != nil {
			return
		}
		out := p.FEN()
		q, err := ParseFEN(out)
		if err != nil || q.FEN() != out {
			t.Fatalf("FEN %q -> %q does not read back: %v", s, out, err)
		}
		if p.Validate() == nil {
			p.LegalMoves(nil) // must not panic on any valid position
		}
	})
}

// FuzzNotation: any text gives a notation or an error, and resolving it against the legal
// moves of a few positions gives a legal move or an error.
func FuzzNotation(f *testing.F) {
	for _, s := range []string{"e4", "Nbd7", "exd8=Q+", "O-O-O#", "0-0", "e7e8q", "Nb1-c3", "T:d1", "f:d4", "e8(N)", "Kxe2??", "a",
		"cxd1(Q)+", "c:d8(Q)#", "a1(Q)+", "d1(Q)+", "a8(N)", "e8(T)", "bxa8(B)", "c8(n)",
		"5254", "57581", "5171+", "27284", "hello there"} {
		f.Add(s)
	}
	positions := []Position{Start()}
	for _, fen := range []string{"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1"} {
		p, _ := ParseFEN(fen)
		positions = append(positions, p)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := ParseNotation(s)
		if err != nil {
			return
		}
		if n.Numeric {
			// A numeric move names both squares, and writes back as it was read.
			if n.FromFile < 0 || n.FromRank < 0 || n.To == NoSquare {
				t.Fatalf("%q: numeric without both squares: %+v", s, n)
			}
			m := Move{From: SquareAt(int(n.FromFile), int(n.FromRank)), To: n.To, Promotion: n.Promotion}
			if got := Numeric(m); !strings.HasPrefix(strings.TrimSpace(s), got) {
				t.Fatalf("%q read as %+v writes %q", s, n, got)
			}
		}
		for i := range positions {
			p := &positions[i]
			legal := p.LegalMoves(nil)
			m, _, err := Resolve(p, n, legal)
			if err != nil {
				continue
			}
			found := false
			for _, l := range legal {
				found = found || l == m
			}
			if !found {
				t.Fatalf("%q resolved to %v, not a legal move", s, m)
			}
		}
	})
}

// FuzzLegalMovesAreLegal plays random legal moves from fuzzed choices and checks each
// generated move against an independent test: the mover's king is not attacked after it
// (shakmaty's legals_are_legal).
func FuzzLegalMovesAreLegal(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
	f.Fuzz(func(t *testing.T, choices []byte) {
		p := Start()
		for _, c := range choices {
			moves := p.LegalMoves(nil)
			if len(moves) == 0 {
				return
			}
			for _, m := range moves {
				q := p
				q.Play(m)
				if k := q.King(p.Turn); q.AttackersTo(k, p.Turn.Other(), q.Occupied()) != 0 {
					t.Fatalf("%s: %v leaves the king attacked", p.FEN(), m)
				}
			}
			p.Play(moves[int(c)%len(moves)])
		}
	})
}
