package synchronous

import (
	"strings"
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/record"
	"github.com/refereed/refereed/variant"
	"github.com/refereed/refereed/variant/varianttest"
)

func sq(s string) chess.Square { q, _ := chess.ParseSquare(s); return q }

// over checks how the game stands.
func over(t *testing.T, g *Game, result, termination string) {
	t.Helper()
	if out := g.Outcome(); out.Result != result || (termination != "" && out.Termination != termination) {
		t.Errorf("outcome %+v, want %s (%s)", out, result, termination)
	}
}

// One test per decision of rules.md §7.2 (PSC), each named by it.
func TestPSCDecisions(t *testing.T) {
	t.Run("PS-D1 attack is geometric: a frozen man still attacks; castling is no attack", func(t *testing.T) {
		g := newGame(t, false, "4k3/8/8/8/2p1p3/3N4/8/4K3", nil)
		if !g.att.frozen(chess.White, sq("d3")) {
			t.Error("the knight on d3, attacked by two pawns, is not frozen")
		}
		if g.att[chess.White][sq("b4")] != 1 || g.att[chess.White][sq("d3")] != 1 {
			t.Errorf("the frozen knight does not attack b4 and its own square: %d %d", g.att[chess.White][sq("b4")], g.att[chess.White][sq("d3")])
		}
		h := newGame(t, false, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", nil)
		if n := h.att[chess.White][sq("g1")]; n != 1 {
			t.Errorf("g1 is attacked by %d white men, want 1 (the rook; the king's castling is no attack)", n)
		}
	})
	t.Run("PS-D2 legality on the pre-turn position; castling through an attacked square is allowed", func(t *testing.T) {
		g := newGame(t, false, "4k3/8/8/8/8/5r2/8/4K2R w K - 0 1", nil)
		varianttest.Send(t, g, chess.White, "O-O")
		varianttest.Send(t, g, chess.Black, "Kd7")
		if g.pos.At(sq("g1")) != chess.MakePiece(chess.White, chess.King) || g.pos.At(sq("f1")) != chess.MakePiece(chess.White, chess.Rook) {
			t.Errorf("castling through f1 (attacked, but controlled) was not played: %s", g.pos.Placement())
		}
		// Both moves of a turn are judged on the same position (fixtures §6 negative test).
		h := newGame(t, false, "", nil)
		varianttest.Send(t, h, chess.Black, "e5")
		varianttest.Send(t, h, chess.White, "e4")
	})
	t.Run("PS-D3 a move may leave the mover's own king attacked", func(t *testing.T) {
		g := newGame(t, false, "4k3/4r3/8/8/8/8/4B3/4K3", nil)
		varianttest.Send(t, g, chess.White, "Bd3")
	})
	t.Run("PS-D4 both moves are played at once; a capture removes the frozen man", func(t *testing.T) {
		g := newGame(t, false, "", nil)
		turn(t, g, "e4", "e5")
		turn(t, g, "Nf3", "d5")
		turn(t, g, "Nc3", "Nc6")
		ns := turn(t, g, "exd5", "Nf6")
		if g.pos.At(sq("d5")) != chess.MakePiece(chess.White, chess.Pawn) || g.pos.At(sq("f6")) != chess.MakePiece(chess.Black, chess.Knight) {
			t.Errorf("position %s", g.pos.Placement())
		}
		contains(t, varianttest.TextsTo(ns, chess.Black, false), "Turn 4: White played exd5, Black played Nf6.", "Black's pawn on d5 was captured by White's pawn.")
	})
	t.Run("PS-D5 en passant needs the passed pawn frozen and the square controlled", func(t *testing.T) {
		const fen = "4k3/3p4/5n2/4P3/8/8/2N5/3QK3"
		g := newGame(t, false, fen, nil)
		turn(t, g, "Nb4", "d5")
		ns := turn(t, g, "exd6", "Ke7")
		if g.pos.At(sq("d5")) != chess.NoPiece || g.pos.At(sq("d6")) != chess.MakePiece(chess.White, chess.Pawn) {
			t.Errorf("e.p. not played: %s", g.pos.Placement())
		}
		contains(t, varianttest.TextsTo(ns, chess.White, false), "Black's pawn on d5 was captured")
		h := newGame(t, false, fen, nil)
		turn(t, h, "Kf2", "d5")
		varianttest.Refuse(t, h, chess.White, "exd6", "the pawn on d5 is not frozen")
		// The pawn that could take e.p. does not attack the passed square when its own man
		// went there in the same turn (rule 4: never a man of its own colour): e3 counts the
		// knight alone for Black, and White's rook and pawn control it.
		k := newGame(t, false, "4q2k/8/8/8/3p2n1/2N5/4PP2/K3R3", nil)
		turn(t, k, "e4", "Ne3")
		varianttest.Send(t, k, chess.White, "Rxe3")
	})
	t.Run("PS-D6 results: frozen king, checkmate, both lost, stalemate; the initial position is judged", func(t *testing.T) {
		over(t, newGame(t, false, "R3k3/8/8/8/8/8/8/4R1K1", nil), "1-0", "frozen king")
		over(t, newGame(t, false, "k7/8/1Q6/8/8/8/8/R6K", nil), "1-0", "checkmate")
		over(t, newGame(t, false, "R3k3/8/3N4/8/8/3n4/8/r3K3", nil), "1/2-1/2", "both kings lost")
		over(t, newGame(t, false, "k7/8/1Q6/8/8/8/8/7K", nil), "1/2-1/2", "stalemate")
		over(t, newGame(t, false, "", nil), "*", "")
		// A king frozen in play: White's second rook joins the first against it.
		g := newGame(t, false, "4k3/7p/8/8/8/8/8/R3R1K1", nil)
		turn(t, g, "Ra8", "h6")
		over(t, g, "1-0", "frozen king")
	})
	t.Run("PS-D7 50 quiet turns draw; king against king is dead; nothing else is", func(t *testing.T) {
		g := newGame(t, false, "4k3/8/8/8/8/8/8/R3K3", nil)
		g.pos.Halfmove = quietLimit - 1
		turn(t, g, "Ra2", "Kd7")
		over(t, g, "1/2-1/2", "fifty-move rule")
		over(t, newGame(t, false, "4k3/8/8/8/8/8/8/4K3", nil), "1/2-1/2", "insufficient material")
		over(t, newGame(t, false, "4k3/8/8/8/8/8/8/3NK3", nil), "*", "")
	})
	t.Run("PS-D8 a move is checked at once, private and final", func(t *testing.T) {
		g := newGame(t, false, "", nil)
		varianttest.Refuse(t, g, chess.White, "e5", "")
		ns := varianttest.Send(t, g, chess.White, "e4")
		if text := varianttest.TextsTo(ns, chess.Black, false); strings.Contains(text, "e4") || !strings.Contains(text, "Your opponent has chosen") {
			t.Errorf("Black is told: %q", text)
		}
		varianttest.Refuse(t, g, chess.White, "d4", "a chosen move is final")
		s := func(by chess.Color, text string) varianttest.Step { return varianttest.Step{By: by, Text: text} }
		varianttest.Noninterference(t, variant.MustLookup(Key), variant.Options{}, chess.Black,
			[]varianttest.Step{s(chess.White, "e4"), s(chess.Black, "BOARD"), s(chess.Black, "CONTROL")},
			[]varianttest.Step{s(chess.White, "Nf3"), s(chess.Black, "BOARD"), s(chess.Black, "CONTROL")})
		// Whether the opponent chose first or second, the played turn reads the same.
		a, b := newGame(t, false, "", nil), newGame(t, false, "", nil)
		na := turn(t, a, "e4", "e5")
		varianttest.Send(t, b, chess.Black, "e5")
		nb := varianttest.Send(t, b, chess.White, "e4")
		for _, c := range []chess.Color{chess.White, chess.Black} {
			if x, y := varianttest.TextsTo(na, c, true), varianttest.TextsTo(nb, c, true); x != y {
				t.Errorf("%v is told %q or %q by the order of choosing", c, x, y)
			}
		}
	})
	t.Run("PS-D9 fog: each sees what his men attack; the opponent's move stays unseen", func(t *testing.T) {
		fog := variant.Options{Flags: map[string]string{OptionFog: "on"}}
		s := func(by chess.Color, text string) varianttest.Step { return varianttest.Step{By: by, Text: text} }
		varianttest.Noninterference(t, variant.MustLookup(Key), fog, chess.Black,
			[]varianttest.Step{s(chess.White, "h3"), s(chess.Black, "Nf6"), s(chess.Black, "BOARD")},
			[]varianttest.Step{s(chess.White, "h4"), s(chess.Black, "Nf6"), s(chess.Black, "BOARD")})
		g, _ := New(fog, PSC)
		varianttest.Refuse(t, g, chess.White, "CONTROL", "secret")
		v := g.View(variant.AsBlack)
		if v.FEN != "" || v.Panels[0].Board.At(sq("e2")) != chess.NoPiece || v.Panels[0].Board.At(sq("e7")) == chess.NoPiece {
			t.Errorf("Black's fogged view shows what his men do not see, or hides his own men:\n%s", v.Diagram())
		}
	})
}

// One test per decision of rules.md §8.2 (Korolev).
func TestKorolevDecisions(t *testing.T) {
	t.Run("KO-D1 self-capture with the king safe; a king capture even in check; king-must-move", func(t *testing.T) {
		g := newGame(t, true, "7k/8/8/3QR3/3P4/4P3/r6P/q6K", nil)
		varianttest.Refuse(t, g, chess.White, "Kxh2", "")
		h := newGame(t, true, "r3k3/1p6/2n5/1B6/8/8/8/4K3", nil)
		varianttest.Send(t, h, chess.Black, "bxc6")
		k := newGame(t, true, "4k2R/8/8/8/8/8/8/r3K3", nil)
		turn(t, k, "Rxe8", "Rxe1")
		over(t, k, "1/2-1/2", "both kings captured")
		const check = "4k3/8/8/8/8/8/1B6/r3K3"
		varianttest.Send(t, newGame(t, true, check, nil), chess.White, "Bxa1")
		varianttest.Refuse(t, newGame(t, true, check, map[string]string{OptionKingMustMove: "true"}), chess.White, "Bxa1", "only a king move")
		// In check, (a) or (c) only: a king's self-capture onto a safe square is refused (out
		// of check it stands), and when only such moves are left, it is mate.
		varianttest.Refuse(t, newGame(t, true, "7k/8/8/8/8/8/PP6/K6r", nil), chess.White, "Kxb2", "")
		over(t, newGame(t, true, "7k/8/8/8/8/8/PP6/K6r", nil), "0-1", "checkmate")
		varianttest.Send(t, newGame(t, true, "7k/8/8/8/8/8/PP6/K7", nil), chess.White, "Kxb2")
	})
	t.Run("KO-D2 resolution: collisions, illusory captures, exchanges, anticipation (fixtures KO-1 to KO-9)", func(t *testing.T) {
		TestFixturesKorolev(t)
	})
	t.Run("KO-D3 king capture before checkmate; checkmate; stalemate", func(t *testing.T) {
		g := newGame(t, true, "r3r1bb/ppqRkppp/8/2p1n3/7n/8/PPPPP1P1/RNBQNBK1", nil)
		turn(t, g, "Rxe7", "Qxd7")
		over(t, g, "1-0", "king capture")
		over(t, newGame(t, true, "k7/8/1Q6/8/8/8/8/R6K", nil), "1-0", "checkmate")
		over(t, newGame(t, true, "k7/8/1Q6/8/8/8/8/7K", nil), "1/2-1/2", "stalemate")
	})
	t.Run("KO-D4 en passant on the pre-turn position; the passed pawn moving away makes it illusory", func(t *testing.T) {
		const fen = "4k3/3p4/8/4P3/8/8/8/4K3"
		g := newGame(t, true, fen, nil)
		turn(t, g, "Kd2", "d5")
		turn(t, g, "exd6", "Ke7")
		if g.pos.At(sq("d5")) != chess.NoPiece || g.pos.At(sq("d6")) != chess.MakePiece(chess.White, chess.Pawn) {
			t.Errorf("e.p. not played: %s", g.pos.Placement())
		}
		h := newGame(t, true, fen, nil)
		turn(t, h, "Kd2", "d5")
		ns := turn(t, h, "exd6", "d4")
		if h.pos.At(sq("d4")) != chess.MakePiece(chess.Black, chess.Pawn) || h.pos.At(sq("d6")) != chess.MakePiece(chess.White, chess.Pawn) {
			t.Errorf("position %s", h.pos.Placement())
		}
		contains(t, varianttest.TextsTo(ns, chess.White, false), "Illusory capture on d6")
	})
	t.Run("KO-D5 50 turns (an illusory capture does not reset them); dead positions", func(t *testing.T) {
		g := newGame(t, true, "4k3/p7/8/3n4/8/1B6/P7/4K3", nil)
		g.pos.Halfmove = quietLimit - 1
		turn(t, g, "Bxd5", "Nf4")
		over(t, g, "1/2-1/2", "fifty-move rule")
		// A self-capture removes a man: the count starts again.
		h := newGame(t, true, "4k3/8/8/8/8/8/8/R2NK3", nil)
		h.pos.Halfmove = quietLimit - 1
		turn(t, h, "Rxd1", "Kf7")
		over(t, h, "*", "")
		over(t, newGame(t, true, "4k3/8/8/8/8/8/8/3NK3", nil), "1/2-1/2", "insufficient material")
	})
	t.Run("KO-D6 a move is checked at once, private and final", func(t *testing.T) {
		g := newGame(t, true, "", nil)
		varianttest.Refuse(t, g, chess.Black, "e4", "")
		varianttest.Send(t, g, chess.Black, "e5")
		varianttest.Refuse(t, g, chess.Black, "d5", "a chosen move is final")
		s := func(by chess.Color, text string) varianttest.Step { return varianttest.Step{By: by, Text: text} }
		varianttest.Noninterference(t, variant.MustLookup(KeyKorolev), variant.Options{}, chess.White,
			[]varianttest.Step{s(chess.Black, "e5"), s(chess.White, "BOARD")},
			[]varianttest.Step{s(chess.Black, "Nf6"), s(chess.White, "BOARD")})
	})
}

// Records: "1. e4 e5 2. Nf3 d5": each turn White's move then Black's, both on the position
// before the turn; the game writes its record back in SAN; a move chosen for a turn that
// was never played is in the record of a finished game.
func TestRecords(t *testing.T) {
	for _, c := range []struct{ tag, movetext, canonical, placement, result string }{
		{"Synchronous", "1. e4 e5 2. Nf3 d5 3. Nc3 Nc6 *", "1. e4 e5 2. Nf3 d5 3. Nc3 Nc6", "r1bqkbnr/ppp2ppp/2n5/3pp3/4P3/2N2N2/PPPP1PPP/R1BQKB1R", "*"},
		{"PSC", "1. e2e4 e7e5 2. g1f3 d7d5 *", "1. e4 e5 2. Nf3 d5", "rnbqkbnr/ppp2ppp/8/3pp3/4P3/5N2/PPPP1PPP/RNBQKB1R", "*"},
		{"Korolev Synchronous", "1. e4 d5 2. exd5 Qxd5 3. Nc3 Qxd2 1-0", "1. e4 d5 2. exd5 Qxd5 3. Nc3 Qxd2", "", "1-0"},
		{"Korolev", "1. e4 e5 2. Nf3 1-0", "1. e4 e5 2. Nf3", "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR", "1-0"},
	} {
		r, err := variant.ReplayRecord(&record.Record{Tags: []record.Tag{{Name: "Variant", Value: c.tag}}, Movetext: c.movetext})
		if err != nil {
			t.Fatalf("%s: %v", c.movetext, err)
		}
		if r.Failure != nil {
			t.Errorf("%s: %v", c.movetext, r.Failure)
			continue
		}
		g := r.Game.(*Game)
		if got := g.Movetext(); got != c.canonical {
			t.Errorf("%s: written back as %q, want %q", c.movetext, got, c.canonical)
		}
		if p := g.pos.Placement(); c.placement != "" && p != c.placement {
			t.Errorf("%s: position %s, want %s", c.movetext, p, c.placement)
		}
		if g.Outcome().Result != c.result {
			t.Errorf("%s: result %s", c.movetext, g.Outcome().Result)
		}
	}
}

// contains checks that text holds each of wants.
func contains(t *testing.T, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("%q lacks %q", text, w)
		}
	}
}

// Issue 33: the CONTROL map names its files above and below, from each player's side:
// White's run a to h, Black's h to a, each column under its letter.
func TestControlMapFiles(t *testing.T) {
	g := newGame(t, false, "", nil)
	for _, c := range []struct {
		side        chess.Color
		files, rank string
	}{
		{chess.White, "    a    b    c    d    e    f    g    h", "1  W10  W10  W10  W10  W10  W10  W10  W10  1"},
		{chess.Black, "    h    g    f    e    d    c    b    a", "8  B01  B01  B01  B01  B01  B01  B01  B01  8"},
	} {
		lines := strings.Split(g.controlMap(c.side), "\n")
		if len(lines) != 10 || lines[0] != c.files || lines[9] != c.files || lines[8] != c.rank {
			t.Errorf("%s's map:\n%s", c.side, strings.Join(lines, "\n"))
		}
	}
}
