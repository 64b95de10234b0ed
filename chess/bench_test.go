package chess

import (
	"strings"
	"testing"
)

// BenchmarkPerft6 is perft(6) from the start; bench/ compares it with fairy-stockfish.
func BenchmarkPerft6(b *testing.B) {
	p := Start()
	for i := 0; i < b.N; i++ {
		if n := p.Perft(6); n != 119060324 {
			b.Fatalf("perft(6) = %d", n)
		}
	}
	b.ReportMetric(float64(119060324*b.N)/b.Elapsed().Seconds(), "nodes/s")
}

// BenchmarkPerftDeep runs the deeper depths of the suite positions.
func BenchmarkPerftDeep(b *testing.B) {
	cases := map[string]struct {
		fen   string
		depth int
		nodes uint64
	}{
		"kiwipete-4": {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 4, 4085603},
		"pos3-6":     {"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 6, 11030083},
		"pos4-5":     {"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 5, 15833292},
		"pos5-4":     {"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 4, 2103487},
		"pos6-4":     {"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 4, 3894594},
	}
	for name, c := range cases {
		b.Run(name, func(b *testing.B) {
			p, err := ParseFEN(c.fen)
			if err != nil {
				b.Fatal(err)
			}
			for i := 0; i < b.N; i++ {
				if n := p.Perft(c.depth); n != c.nodes {
					b.Fatalf("perft(%d) = %d, want %d", c.depth, n, c.nodes)
				}
			}
		})
	}
}

// operaGame is Morphy v Duke Karl / Count Isouard, Paris 1858: checks, castling, a mate.
var operaGame = strings.Fields("e4 e5 Nf3 d6 d4 Bg4 dxe5 Bxf3 Qxf3 dxe5 Bc4 Nf6 Qb3 Qe7 Nc3 c6 Bg5 b5 " +
	"Nxb5 cxb5 Bxb5+ Nbd7 O-O-O Rd8 Rxd7 Rxd7 Rd1 Qe6 Bxd7+ Nxd7 Qb8+ Nxb8 Rd8#")

// BenchmarkReplaySAN is what a replay does per ply in the chess core: read the SAN, find its
// move, judge its check mark, play it, and ask whether the side to move has a move. The
// "candidates" way generates only the moves the SAN may name and stops at the first legal
// move (what verify does); "all-legal" generates every legal move for both, as verify did
// before. Metric: ns per ply.
func BenchmarkReplaySAN(b *testing.B) {
	notations := make([]Notation, len(operaGame))
	for i, s := range operaGame {
		n, err := ParseNotation(s)
		if err != nil {
			b.Fatal(err)
		}
		notations[i] = n
	}
	ways := []struct {
		name   string
		find   func(p *Position, n Notation, buf []Move) []Move
		noMove func(p *Position, buf []Move) bool
	}{
		{"candidates", func(p *Position, n Notation, buf []Move) []Move { return p.Candidates(buf, n) },
			func(p *Position, _ []Move) bool { return !p.HasLegalMove() }},
		{"all-legal", func(p *Position, _ Notation, buf []Move) []Move { return p.LegalMoves(buf) },
			func(p *Position, buf []Move) bool { return len(p.LegalMoves(buf)) == 0 }},
	}
	for _, w := range ways {
		b.Run(w.name, func(b *testing.B) {
			var buf [256]Move
			for i := 0; i < b.N; i++ {
				p := Start()
				for _, n := range notations {
					m, _, err := Resolve(&p, n, w.find(&p, n, buf[:0]))
					if err != nil {
						b.Fatal(err)
					}
					p.Checks(m)
					p.Play(m)
					if w.noMove(&p, buf[:0]) != (p.Fullmove == 17 && p.Turn == Black) {
						b.Fatalf("%s: wrong end", p.FEN())
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(notations)), "ns/ply")
		})
	}
}
