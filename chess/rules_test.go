package chess

import (
	"errors"
	"sort"
	"strings"
	"testing"
)

func mustFEN(t testing.TB, fen string) Position {
	t.Helper()
	p, err := ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// ucis writes moves in coordinates, sorted.
func ucis(moves []Move) string {
	s := make([]string, len(moves))
	for i, m := range moves {
		s[i] = m.UCI()
	}
	sort.Strings(s)
	return strings.Join(s, " ")
}

func TestFindUCI(t *testing.T) {
	cases := []struct {
		fen, uci string
		want     Move
		err      error // ErrNoMove, or nil; a parse error is wantParse
		parseErr bool
	}{
		{StartFEN, "e2e4", Move{From: SquareAt(4, 1), To: SquareAt(4, 3), Kind: DoublePush}, nil, false},
		{StartFEN, "g1f3", Move{From: G1, To: SquareAt(5, 2)}, nil, false},
		{StartFEN, "e2e5", NullMove, ErrNoMove, false},
		{StartFEN, "e7e5", NullMove, ErrNoMove, false}, // Black's pawn, White to move
		{StartFEN, "e2", NullMove, nil, true},
		{StartFEN, "e2e4x", NullMove, nil, true},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1", Move{From: E1, To: C1, Kind: Castle}, nil, false},
		{"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8n", Move{From: SquareAt(1, 6), To: B8, Promotion: Knight}, nil, false},
		{"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8", NullMove, ErrNoMove, false}, // the piece must be said
		{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", Move{From: SquareAt(4, 4), To: SquareAt(3, 5), Kind: EnPassant}, nil, false},
	}
	for _, c := range cases {
		p := mustFEN(t, c.fen)
		m, err := FindUCI(p.LegalMoves(nil), c.uci)
		switch {
		case c.parseErr:
			if err == nil || errors.Is(err, ErrNoMove) {
				t.Errorf("%s %s: %v, want a notation error", c.fen, c.uci, err)
			}
		case !errors.Is(err, c.err) || m != c.want:
			t.Errorf("%s %s: %+v %v, want %+v %v", c.fen, c.uci, m, err, c.want, c.err)
		}
	}
}

func TestKingAttacked(t *testing.T) {
	cases := []struct {
		fen          string
		white, black bool
	}{
		{StartFEN, false, false},
		{"4k3/8/8/8/8/8/8/4R2K w - - 0 1", false, true},    // open file
		{"4k3/4p3/8/8/8/8/8/4R2K w - - 0 1", false, false}, // blocked
		{"4k3/3P4/8/8/8/8/8/7K w - - 0 1", false, true},    // a pawn
		{"4k3/8/8/8/8/8/5n2/7K b - - 0 1", true, false},    // a knight, whoever is to move
		{"8/8/8/8/8/8/8/4R3 w - - 0 1", false, false},      // no kings: nothing to attack
		{"4k3/8/8/8/8/8/8/q3K3 w - - 0 1", true, false},    // White's, with White to move
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1", false, false},    // bare kings
		{"3k4/8/8/8/8/8/8/B2K4 w - - 0 1", false, false},   // a diagonal that misses
		{"7k/8/8/8/8/8/8/B2K4 w - - 0 1", false, true},     // a diagonal that hits
		{"r3k3/8/8/1pP5/K7/8/8/8 w - - 0 1", true, false},  // two checkers
		{"4k3/8/8/8/8/8/8/8 w - - 0 1", false, false},      // White has no king
	}
	for _, c := range cases {
		p := mustFEN(t, c.fen)
		if w, b := p.KingAttacked(White), p.KingAttacked(Black); w != c.white || b != c.black {
			t.Errorf("%s: White %v, Black %v; want %v, %v", c.fen, w, b, c.white, c.black)
		}
		if got, want := p.InCheck(), p.KingAttacked(p.Turn); got != want {
			t.Errorf("%s: InCheck %v, KingAttacked(side to move) %v", c.fen, got, want)
		}
	}
}

func TestLegalMovesEP(t *testing.T) {
	sq := func(s string) Square { x, _ := ParseSquare(s); return x }
	cases := []struct {
		name, fen string
		eps       []string
		want      string // the e.p. captures, in coordinates
	}{
		{"two squares, as after a Progressive series", "4k3/8/8/2pP1pP1/8/8/8/4K3 w - - 0 1", []string{"c6", "f6"}, "d5c6 g5f6"},
		{"one of two", "4k3/8/8/2pP1pP1/8/8/8/4K3 w - - 0 1", []string{"f6"}, "g5f6"},
		{"the FEN's square is not used", "4k3/8/8/2pP1pP1/8/8/8/4K3 w - c6 0 1", nil, ""},
		{"Black", "4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1", []string{"e3"}, "d4e3"},
		{"no pawn passed there", "4k3/8/8/3P4/8/8/8/4K3 w - - 0 1", []string{"c6"}, ""},
		{"the square is not empty", "4k3/8/2n5/2pP4/8/8/8/4K3 w - - 0 1", []string{"c6"}, ""},
		{"the horizontal pin", "8/8/8/K2pP2r/8/8/8/4k3 w - - 0 1", []string{"d6"}, ""},
		{"capturing the checking pawn", "4k3/8/8/1pP5/K7/8/8/8 w - - 0 1", []string{"b6"}, "c5b6"},
		{"double check: only the king moves", "r3k3/8/8/1pP5/K7/8/8/8 w - - 0 1", []string{"b6"}, ""},
		{"a view without a king", "8/8/8/1pP5/8/8/8/8 w - - 0 1", []string{"b6"}, "c5b6"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := mustFEN(t, c.fen)
			var eps Bitboard
			for _, s := range c.eps {
				eps |= sq(s).Bit()
			}
			q := p
			q.EnPassant = NoSquare
			base := q.LegalMoves(nil)
			got := p.LegalMovesEP(nil, eps)
			if len(got) < len(base) || !sameMoves(got[:len(base)], base) {
				t.Fatalf("LegalMovesEP does not start with the legal moves without e.p.: %v", got)
			}
			var ep []Move
			for _, m := range got[len(base):] {
				if m.Kind != EnPassant {
					t.Errorf("%v after the legal moves is not an e.p. capture", m)
				}
				ep = append(ep, m)
			}
			if ucis(ep) != c.want {
				t.Errorf("e.p. captures %q, want %q", ucis(ep), c.want)
			}
			// Each square alone, as LegalMoves with that e.p. square, agrees.
			for _, s := range c.eps {
				r := p
				r.EnPassant = sq(s)
				one := p.LegalMovesEP(nil, sq(s).Bit())
				if !sameMoves(one, r.LegalMoves(nil)) {
					t.Errorf("%s alone: %v, LegalMoves %v", s, one, r.LegalMoves(nil))
				}
			}
		})
	}
}

func TestCastlingRook(t *testing.T) {
	sq := func(s string) Square { x, _ := ParseSquare(s); return x }
	cases := []struct{ from, to, rook, rookTo string }{
		{"e1", "g1", "h1", "f1"},
		{"e1", "c1", "a1", "d1"},
		{"e8", "g8", "h8", "f8"},
		{"e8", "c8", "a8", "d8"},
		{"d1", "b1", "a1", "c1"}, // Train Wreck queen castling (rules.md TW-D5)
		{"d1", "f1", "h1", "e1"},
		{"d8", "b8", "a8", "c8"},
		{"d8", "f8", "h8", "e8"},
	}
	for _, c := range cases {
		m := Move{From: sq(c.from), To: sq(c.to), Kind: Castle}
		if m.CastlingRook() != sq(c.rook) || m.RookTo() != sq(c.rookTo) {
			t.Errorf("%v: rook %v to %v, want %s to %s", m, m.CastlingRook(), m.RookTo(), c.rook, c.rookTo)
		}
	}
	plays := []struct {
		name, fen, uci, placement string
		castling                  CastlingRights
	}{
		{"king, long", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1", "r3k2r/8/8/8/8/8/8/2KR3R", BlackShort | BlackLong},
		{"king, short, Black", "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8g8", "r4rk1/8/8/8/8/8/8/R3K2R", WhiteShort | WhiteLong},
		{"queen, long", "4k3/8/8/8/8/8/8/R2QK2R w KQ - 0 1", "d1b1", "4k3/8/8/8/8/8/8/1QR1K2R", WhiteShort},
		{"queen, short, the king gone", "4k3/8/8/8/8/8/8/3Q3R w K - 0 1", "d1f1", "4k3/8/8/8/8/8/8/4RQ2", 0},
	}
	for _, c := range plays {
		p := mustFEN(t, c.fen)
		m, _ := ParseUCI(c.uci)
		m.Kind = Castle
		p.Play(m)
		if p.Placement() != c.placement || p.Castling != c.castling {
			t.Errorf("%s: %s with castling %04b, want %s with %04b", c.name, p.Placement(), p.Castling, c.placement, c.castling)
		}
	}
}

// Korolev (rules.md KO-D1 b): a man may "capture" a man of its own colour other than the
// king, with its capture geometry, if its own king is safe afterwards.
func TestSelfCapture(t *testing.T) {
	cases := []struct {
		name, fen string
		pseudo    bool
		extra     string // the moves SelfCapture adds
	}{
		{"pieces and the king", "4k3/8/8/8/8/8/3PP3/3QK3 w - - 0 1", false, "d1d2 d1e2 e1d1 e1d2 e1e2"},
		{"a pawn, promoting", "1N6/2P5/8/8/8/8/8/4K2k w - - 0 1", false, "c7b8b c7b8n c7b8q c7b8r"},
		{"pawn pushes take nothing", "4k3/8/8/8/8/4N3/4P3/4K3 w - - 0 1", false, "e1e2"},
		// The KO-D1 example: Kxh2 onto an attacked square is illegal; White is in check and
		// no self-capture escapes it.
		{"KO-D1: Kxh2 illegal", "7k/8/8/3QR3/3P4/4P3/r6P/q6K w - - 0 1", false, ""},
		{"KO-D1 without king safety", "7k/8/8/3QR3/3P4/4P3/r6P/q6K w - - 0 1", true, "d4e5 d5d4 d5e5 e3d4 e5d5 e5e3 h1h2"},
		{"Black", "4k3/4p3/8/8/8/8/8/4K3 b - - 0 1", false, "e8e7"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := mustFEN(t, c.fen)
			plain := p.Generate(nil, MoveRules{Color: p.Turn, Pseudo: c.pseudo})
			self := p.Generate(nil, MoveRules{Color: p.Turn, Pseudo: c.pseudo, SelfCapture: true})
			var extra []Move
			for _, m := range self {
				if _, ok := FindMove(plain, m); !ok {
					extra = append(extra, m)
				}
			}
			if len(self) != len(plain)+len(extra) {
				t.Errorf("SelfCapture lost moves: %v, without it %v", self, plain)
			}
			if ucis(extra) != c.extra {
				t.Errorf("self-captures %q, want %q", ucis(extra), c.extra)
			}
			for _, m := range extra {
				if pc := p.At(m.To); pc.Color() != p.Turn || pc.Role() == King || pc == NoPiece {
					t.Errorf("%v takes %v", m, pc)
				}
			}
		})
	}
}

// Kriegspiel's "Impossible" (rules.md KR-D2): an attempt that no position consistent with the
// player's own men makes legal. The examples of KR-D2 and their counterparts.
func TestOwnMenOnly(t *testing.T) {
	cases := []struct {
		why, fen, uci string
		possible      bool
	}{
		{"a bishop moving like a knight", "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", "c1e2", false},
		{"a bishop on its diagonal", "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", "c1e3", true},
		{"a path blocked by his own man", "4k3/8/8/8/8/8/3P4/2B1K3 w - - 0 1", "c1e3", false},
		{"a path blocked by an enemy man he cannot see", "4k3/8/8/8/8/4p3/8/2B1K3 w - - 0 1", "c1f4", true},
		{"onto his own man", "4k3/8/8/8/8/8/3P4/2B1K3 w - - 0 1", "c1d2", false},
		{"moving an enemy man", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "e8e7", false},
		{"castling after the king has moved", "4k3/8/8/8/8/8/8/R3K2R w - - 0 1", "e1g1", false},
		{"castling with the right", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1", true},
		{"castling through an attacked square", "4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1", "e1g1", true},
		{"castling out of check", "4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1", "e1c1", true},
		{"castling over his own man", "4k3/8/8/8/8/8/8/R3KB1R w KQ - 0 1", "e1g1", false},
		{"a pawn's diagonal, always", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "e2d3", true},
		{"a pawn's diagonal onto his own man", "4k3/8/8/8/8/3N4/4P3/4K3 w - - 0 1", "e2d3", false},
		{"a pawn's diagonal promoting", "4k3/3P4/8/8/8/8/8/4K3 w - - 0 1", "d7c8q", true},
		{"a pawn's double step", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "e2e4", true},
		{"a pawn's double step blocked by an enemy man", "4k3/8/8/8/8/4p3/4P3/4K3 w - - 0 1", "e2e4", true},
		{"a pawn's triple step", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "e2e5", false},
		{"a pawn's push through his own man", "4k3/8/8/8/8/4N3/4P3/4K3 w - - 0 1", "e2e4", false},
		{"a pinned knight", "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", "e2c3", true},
		{"the king onto an attacked square", "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1", "e1e2", true},
		{"the king two squares", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "e1e3", false},
		{"Black's knight", "4k1n1/8/8/8/8/8/8/4K3 b - - 0 1", "g8f6", true},
	}
	for _, c := range cases {
		p := mustFEN(t, c.fen)
		m, err := ParseUCI(c.uci)
		if err != nil {
			t.Fatal(err)
		}
		_, got := FindMove(p.Generate(nil, MoveRules{Color: p.Turn, OwnMenOnly: true}), m)
		if got != c.possible {
			t.Errorf("%s (%s %s): possible %v, want %v", c.why, c.fen, c.uci, got, c.possible)
		}
	}
}

// Every legal move is possible (KR-D2: "Impossible" never answers a legal attempt), and the
// possible moves depend on the mover's own men alone: on every position of the perft suite
// and the positions two plies below them.
func TestOwnMenOnlyHoldsEveryLegalMove(t *testing.T) {
	walkSuite(t, 2, func(id string, p *Position) {
		possible := p.Generate(nil, MoveRules{Color: p.Turn, OwnMenOnly: true})
		for _, m := range p.LegalMoves(nil) {
			if _, ok := FindMove(possible, m); !ok {
				t.Fatalf("%s %s: legal %v is not possible", id, p.FEN(), m)
			}
		}
		own := Position{Board: p.Only(p.Turn), Turn: p.Turn, Castling: p.Castling, EnPassant: NoSquare}
		if alone := own.Generate(nil, MoveRules{Color: p.Turn, OwnMenOnly: true}); ucis(alone) != ucis(possible) {
			t.Fatalf("%s %s: the enemy men change the possible moves", id, p.FEN())
		}
	})
}

// SelfCapture adds moves and takes none away, on every position of the perft suite and two
// plies below, with and without king safety; what it adds lands on the mover's own men.
func TestSelfCaptureOnlyAdds(t *testing.T) {
	walkSuite(t, 2, func(id string, p *Position) {
		for _, pseudo := range []bool{false, true} {
			plain := p.Generate(nil, MoveRules{Color: p.Turn, Pseudo: pseudo})
			self := p.Generate(nil, MoveRules{Color: p.Turn, Pseudo: pseudo, SelfCapture: true})
			for _, m := range plain {
				if _, ok := FindMove(self, m); !ok {
					t.Fatalf("%s %s: %v lost with SelfCapture", id, p.FEN(), m)
				}
			}
			for _, m := range self {
				if _, ok := FindMove(plain, m); ok {
					continue
				}
				if pc := p.At(m.To); pc == NoPiece || pc.Color() != p.Turn || pc.Role() == King {
					t.Fatalf("%s %s: SelfCapture adds %v, which does not take an own man", id, p.FEN(), m)
				}
			}
		}
	})
}

func TestChecks(t *testing.T) {
	cases := []struct {
		fen, uci    string
		check, mate bool
	}{
		{StartFEN, "e2e4", false, false},
		{"rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", "d8h4", true, true},
		{"4k3/8/8/8/8/8/8/R6K w - - 0 1", "a1a8", true, false},
		{"6k1/5ppp/8/8/8/8/8/R6K w - - 0 1", "a1a8", true, true},
		{"4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", false, false},
		{"5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", true, false}, // the rook checks from f1
	}
	for _, c := range cases {
		p := mustFEN(t, c.fen)
		m, err := FindUCI(p.LegalMoves(nil), c.uci)
		if err != nil {
			t.Fatalf("%s %s: %v", c.fen, c.uci, err)
		}
		if check, mate := p.Checks(m); check != c.check || mate != c.mate {
			t.Errorf("%s %s: check %v mate %v, want %v %v", c.fen, c.uci, check, mate, c.check, c.mate)
		}
		if p.GivesCheck(m) != c.check {
			t.Errorf("%s %s: GivesCheck disagrees", c.fen, c.uci)
		}
	}
}

// PassedOver: each double step leaves the square it passed over, unless its pawn moved again
// in the run; other moves leave none.
func TestPassedOver(t *testing.T) {
	sq := func(s string) Square { x, _ := ParseSquare(s); return x }
	mv := func(from, to string, k MoveKind) Move { return Move{From: sq(from), To: sq(to), Kind: k} }
	for _, c := range []struct {
		run  []Move
		want Bitboard
	}{
		{nil, 0},
		{[]Move{mv("e2", "e4", DoublePush)}, sq("e3").Bit()},
		{[]Move{mv("e2", "e4", DoublePush), mv("e4", "e5", Normal)}, 0},
		{[]Move{mv("d7", "d5", DoublePush), mv("g8", "f6", Normal), mv("a7", "a5", DoublePush)}, sq("d6").Bit() | sq("a6").Bit()},
		{[]Move{mv("e2", "e3", Normal)}, 0},
	} {
		if got := PassedOver(c.run); got != c.want {
			t.Errorf("PassedOver(%v) = %x, want %x", c.run, uint64(got), uint64(c.want))
		}
	}
}
