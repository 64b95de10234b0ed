package progressive

import (
	"github.com/refereed/refereed/templates"
	"os"
	"strings"
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/record"
	"github.com/refereed/refereed/variant"
	"github.com/refereed/refereed/variant/varianttest"
)

const (
	W = chess.White
	B = chess.Black
)

func newGame(t *testing.T, italian bool, fen string, flags map[string]string) *Game {
	t.Helper()
	rules := Scottish
	if italian {
		rules = Italian
	}
	g, err := New(variant.Options{FEN: fen, Flags: flags}, rules)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func play(t *testing.T, g *Game, by chess.Color, text string) []variant.Notice {
	t.Helper()
	return varianttest.Send(t, g, by, text)
}

func refuse(t *testing.T, g *Game, by chess.Color, text, want string) {
	t.Helper()
	varianttest.Refuse(t, g, by, text, want)
}

// Fixtures §4.1, the opening line E:L926-929, both branches in both games, as data.
func TestFixtures(t *testing.T) { varianttest.RunScripts(t, "testdata/fixtures.txt") }

// Fixtures §4.1, second branch: after Bb4+ the next series starts in check, and only the
// four moves that escape it may begin it.
func TestFixture4_1InCheck(t *testing.T) {
	for _, italian := range []bool{false, true} {
		g := newGame(t, italian, "", nil)
		play(t, g, W, "1 d4")
		play(t, g, B, "2 d5, Nc6")
		play(t, g, W, "3 Bf4, Bxc7, Bxd8")
		play(t, g, B, "4 Kxd8, e5, a5, Bb4+")
		if g.series != 5 || !g.pos.InCheck() {
			t.Fatalf("next series %d, in check %v", g.series, g.pos.InCheck())
		}
		if first := g.moves(&g.pos, 1); len(first) != 4 {
			t.Errorf("italian=%v: %d first moves in check, want 4 (all escaping)", italian, len(first))
		}
	}
}

// The record in ../shared/examples/records replays, and the game writes it back the same.
func TestRecord(t *testing.T) {
	f, err := os.Open("../../../shared/examples/records/progressive-opening-line.pgn")
	if err != nil {
		if os.Getenv("CI") != "" { // CI lays shared/ beside the clone: missing, it is a failure
			t.Fatal(err)
		}
		t.Skip(err)
	}
	defer f.Close()
	rec, _ := record.NewReader(f).Next()
	r, err := variant.ReplayRecord(rec)
	if err != nil || r.Failure != nil {
		t.Fatalf("%v %v", err, r.Failure)
	}
	if got := r.Game.(*Game).Movetext(); got != "1 d4 2 d5, Nc6 3 Bf4, Bxc7, Bxd8 4 Kxd8, e5, a5, Bb4+" {
		t.Errorf("movetext %q", got)
	}
	r, err = variant.ReplayRecord(&record.Record{Tags: []record.Tag{{Name: "Variant", Value: "Italian Progressive"}}, Movetext: "1 d4 2 d5, Nc6 3. Bf4, Bxc7, Bxd8 4. Kxd8, e5, a5, Bb4 *"})
	if err != nil || r.Failure != nil || r.Variant.Key != KeyItalian {
		t.Fatalf("italian record: %v %v", err, r.Failure)
	}
	r, _ = variant.ReplayRecord(&record.Record{Tags: []record.Tag{{Name: "Variant", Value: "Progressive"}}, Movetext: "1 e4 2 e5, Qh4 3 Bc4, Bxf7+, Ke2 *"})
	if r.Failure == nil || r.Failure.Where != "series 3" || !strings.Contains(r.Failure.Err.Error(), "move 2 (Bxf7+) gives check, which ends the series") {
		t.Errorf("a move after a check: %+v", r.Failure)
	}
}

// PR-D1: a check ends the series; the next series has its full length; a check the opponent
// cannot meet is mate.
func TestPRD1CheckEndsSeries(t *testing.T) {
	g := newGame(t, false, "", nil)
	play(t, g, W, "e4")
	play(t, g, B, "f6, g5")
	play(t, g, W, "Qh5#")
	if out := g.Outcome(); out.Result != "1-0" || out.Termination != "checkmate" {
		t.Errorf("outcome %+v", out)
	}
	h := newGame(t, false, "", nil)
	play(t, h, W, "e4")
	play(t, h, B, "e5, Nc6")
	play(t, h, W, "Bc4, Bxf7+")
	if h.series != 4 || h.pos.Turn != B {
		t.Errorf("after a short series: series %d for %v, want 4 for Black", h.series, h.pos.Turn)
	}
	refuse(t, h, B, "Kf8, a6, a5, a4", "move 1 (Kf8)") // f8 is attacked: the check must be escaped
}

// PR-D2: a piece promoted in a series may move again in it.
func TestPRD2PromotedPieceMovesAgain(t *testing.T) {
	g := newGame(t, false, "k7/2P4p/8/8/8/8/8/4K3 w - - 0 1", map[string]string{"series": "3"})
	play(t, g, W, "c8(N), Nb6+")
	if !strings.Contains(g.Movetext(), "c8=N, Nb6+") {
		t.Errorf("movetext %q", g.Movetext())
	}
}

// PR-D3: castling is one move, its conditions tested when it is played.
func TestPRD3Castling(t *testing.T) {
	g := newGame(t, false, "r3k3/8/8/8/8/8/8/4K2R w K - 0 1", map[string]string{"series": "3"})
	play(t, g, W, "O-O, Kh1, Rg1")
	h := newGame(t, false, "r3k3/8/8/8/8/8/8/4K2R w K - 0 1", map[string]string{"series": "3"})
	refuse(t, h, W, "Kf1, Ke1, O-O", "castling kingside is not possible")
}

// PR-D4: e.p. on the first move of a series only, against a pawn that double-stepped in the
// opponent's previous series and has not moved since; only one such capture.
func TestPRD4EnPassant(t *testing.T) {
	g := newGame(t, false, "4k3/4p3/8/3P4/8/8/8/4K3 b - - 0 1", nil)
	play(t, g, B, "e5, Kd7")
	if g.epSquares != chess.SquareAt(4, 5).Bit() {
		t.Fatalf("eligible squares %v", g.epSquares.Squares())
	}
	play(t, g, W, "dxe6+")
	h := newGame(t, false, "4k3/4p3/8/3P4/8/8/8/4K3 b - - 0 1", nil)
	play(t, h, B, "e5, Kd7")
	refuse(t, h, W, "Kd2, dxe6, Ke3", "move 2 (dxe6)")
	k := newGame(t, false, "4k3/4p3/8/3P4/8/8/8/4K3 b - - 0 1", nil)
	play(t, k, B, "e5, e4")
	if k.epSquares != 0 {
		t.Errorf("a pawn that moved again is still eligible: %v", k.epSquares.Squares())
	}
}

// PR-D5: a series has exactly n moves, or ends with its first check, or when no move is
// left; it is checked whole and refused naming the first bad move.
func TestPRD5SeriesChecked(t *testing.T) {
	g := newGame(t, false, "", nil)
	refuse(t, g, W, "e4, e5", "series 1 has only 1 moves")
	play(t, g, W, "SERIES 1: e4")
	refuse(t, g, B, "e5", "series 2 has 2 moves; you sent 1")
	refuse(t, g, B, "e5, Ke6, Kd5", "move 2 (Ke6)")
	refuse(t, g, B, "e5, Nxe4", "move 2 (Nxe4)")
	cmd, warns, err := g.Resolve(B, "3: e5, Nc6")
	if err != nil || len(warns) != 1 || !strings.Contains(warns[0].Text, "this is series 2") || cmd.Text != "series e7e5 b8c6" {
		t.Errorf("%v %v %v", cmd, warns, err)
	}
}

// PR-D6 and IT-D3: 10 series without a capture or a pawn move draw under both rule sets
// (no "unless a win can be demonstrated"); dead positions draw.
func TestPRD6TenSeriesAndDeadPositions(t *testing.T) {
	for _, italian := range []bool{false, true} {
		tenQuietSeries(t, italian)
	}
	d := newGame(t, false, "4k3/8/8/8/8/8/8/4KB2 w - - 0 1", nil)
	if out := d.Outcome(); out.Termination != "insufficient material" {
		t.Errorf("K+B v K: %+v", out)
	}
}

func tenQuietSeries(t *testing.T, italian bool) {
	g := newGame(t, italian, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", nil)
	rookOnA1, kingOnE8 := true, true
	for i := 0; i < 10 && !g.Outcome().Over(); i++ {
		var moves []string
		for k := 0; k < g.series; k++ {
			if g.pos.Turn == W {
				moves = append(moves, map[bool]string{true: "Ra2", false: "Ra1"}[rookOnA1])
				rookOnA1 = !rookOnA1
			} else {
				moves = append(moves, map[bool]string{true: "Kd8", false: "Ke8"}[kingOnE8])
				kingOnE8 = !kingOnE8
			}
		}
		play(t, g, g.pos.Turn, strings.Join(moves, ", "))
	}
	if out := g.Outcome(); out.Termination != "ten-series rule" || g.series != 11 {
		t.Errorf("italian=%v after 10 quiet series: %+v (series %d)", italian, out, g.series)
	}
}

// PR-D7: running out of moves in mid-series is stalemate, a draw.
func TestPRD7MidSeriesStalemate(t *testing.T) {
	// Black's king in the corner, boxed by its own pawn; White's series of 3 ends when
	// nothing is left... here Black has two moves, then none.
	g := newGame(t, false, "7k/7p/5K2/8/8/8/8/8 b - - 0 1", map[string]string{"series": "4"})
	play(t, g, B, "h6, h5, h4, h3") // legal: 4 pawn pushes
	h := newGame(t, false, "7k/7p/5K2/8/8/8/8/8 b - - 0 1", map[string]string{"series": "6"})
	refuse(t, h, B, "h6, h5", "series 6 has 6 moves")
	play(t, h, B, "h6, h5, h4, h3, h2, h1=R")
	k := newGame(t, false, "7k/5K2/6P1/8/8/8/8/8 b - - 0 1", map[string]string{"series": "2"})
	if out := k.Outcome(); out.Termination != "stalemate" {
		t.Errorf("no move to start: %+v", out)
	}
	m := newGame(t, false, "7k/5K2/p5P1/8/P7/8/8/8 b - - 0 1", map[string]string{"series": "2"})
	play(t, m, B, "a5") // then no black move is left: the short series is accepted
	if out := m.Outcome(); out.Result != "1/2-1/2" || out.Termination != "stalemate" {
		t.Errorf("after a series that ran out of moves: %+v", out)
	}
}

// IT-D1: under Italian rules a check before the last move of a full series is refused; the
// same series is legal under Scottish rules. strict-forfeit loses instead.
func TestITD1EarlyCheck(t *testing.T) {
	sc := newGame(t, false, "", nil)
	it := newGame(t, true, "", nil)
	for _, g := range []*Game{sc, it} {
		play(t, g, W, "e4")
		play(t, g, B, "e5, Nc6")
	}
	play(t, sc, W, "Bc4, Bxf7+") // Scottish: the check ends the series early
	refuse(t, it, W, "Bc4, Bxf7+", "move 2 (Bxf7+) gives check before the last move of the series, which Italian rules forbid")
	refuse(t, it, W, "Bc4, Bxf7+, Bb3", "move 2 (Bxf7+) gives check before the last move")
	play(t, it, W, "Nf3, Bc4, Bxf7+") // the check as the last move of the full series
	if it.pos.At(chess.SquareAt(5, 6)).Role() != chess.Bishop || !it.pos.InCheck() {
		t.Fatal("the full series with its check last was not played")
	}
	sf := newGame(t, true, "", map[string]string{"strict-forfeit": "true"})
	play(t, sf, W, "e4")
	play(t, sf, B, "e5, Nc6")
	cmd := variant.Command{By: W, Text: "series f1c4 c4f7"}
	if _, err := sf.Submit(cmd); err != nil {
		t.Fatal(err)
	}
	if out := sf.Outcome(); out.Result != "0-1" || out.Termination != "forfeit" {
		t.Errorf("strict-forfeit: %+v", out)
	}
	// The same when the series opens with an e.p. capture (PR-D4): the early check is
	// accepted, to forfeit, not refused.
	ep := newGame(t, true, "4k3/3p4/8/4P3/8/8/8/R3K3 b - - 0 1", map[string]string{"strict-forfeit": "true"})
	play(t, ep, B, "d5, Kf7")
	if cmd, _, err := ep.Resolve(W, "exd6, Ra7+, Kd2"); err != nil || cmd.Text != "series e5d6 a1a7" {
		t.Errorf("strict-forfeit after an e.p. first move: %q, %v", cmd.Text, err)
	}
}

// IT-D2: Italian mate: in check at the start of a series longer than one, with every escape
// giving check, the player is mated; under Scottish rules the same position is no mate.
func TestITD2ItalianMate(t *testing.T) {
	fen := "6k1/8/8/8/8/5p2/R5q1/7K w - - 0 1"
	sc := newGame(t, false, fen, map[string]string{"series": "3"})
	if sc.Outcome().Over() {
		t.Fatalf("Scottish: %+v", sc.Outcome())
	}
	play(t, sc, W, "Rxg2+")
	it := newGame(t, true, fen, map[string]string{"series": "3"})
	if out := it.Outcome(); out.Result != "0-1" || !strings.Contains(out.Reason, "Italian mate") {
		t.Errorf("Italian: %+v", out)
	}
	// Series 1 has no restriction (IT-D2).
	one := newGame(t, true, "6k1/8/8/8/8/5p2/R5q1/7K w - - 0 1", nil)
	if one.Outcome().Over() {
		t.Errorf("series 1 is unrestricted: %+v", one.Outcome())
	}
}

// IT-D3: the 10-series rule as PR-D6; IT-D4: check marks are the referee's to compute.
func TestITD4CheckMarks(t *testing.T) {
	g := newGame(t, true, "", nil)
	play(t, g, W, "e4")
	play(t, g, B, "e5, Qh4")
	cmd, warns, err := g.Resolve(W, "Nf3, Nxh4, Nf5")
	if err != nil || cmd.Text != "series g1f3 f3h4 h4f5" {
		t.Fatalf("%v %v", cmd, err)
	}
	_ = warns
	h := newGame(t, true, "", nil)
	play(t, h, W, "e4")
	play(t, h, B, "e5, Nc6")
	if cmd, _, err := h.Resolve(W, "Nf3, Bc4, Bxf7"); err != nil || cmd.Text != "series g1f3 f1c4 c4f7" {
		t.Errorf("a last-move check written without + (E:L1108): %v %v", cmd, err)
	}
}

// By mail: both players get the series, the position and what comes next.
func TestNotices(t *testing.T) {
	g := newGame(t, false, "", nil)
	ns := play(t, g, W, "e4")
	if len(ns) != 1 || ns[0].To != variant.ToBoth || templates.NoticeText(ns[0].Kind, ns[0].Words, ns[0].Text, ns[0].Args) != "White played series 1: e4" || ns[0].Show != variant.ShowView {
		t.Errorf("notices %+v", ns)
	}
	v := g.View(variant.AsBlack).Diagram()
	if !strings.Contains(v, "Next: series 2, 2 moves, for Black.") || strings.Contains(v, "en passant") {
		t.Errorf("after 1 e4 (no black pawn beside it):\n%s", v)
	}
	// A double step beside an enemy pawn: its capture e.p. is named.
	g = newGame(t, false, "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", nil)
	play(t, g, W, "e4")
	if v := g.View(variant.AsBlack).Diagram(); !strings.Contains(v, "Capturable en passant with the first move: the pawn on e4.") {
		t.Errorf("after 1 e4 beside d4:\n%s", v)
	}
	// Rule 6: not once the square it passed is taken (here by White's own bishop, later in
	// the series that made the double step).
	g = newGame(t, false, "7k/8/8/8/4p3/8/3P4/5B1K w - - 0 1", map[string]string{"series": "3"})
	play(t, g, W, "d4, Bd3, Kg2")
	if v := g.View(variant.AsBlack).Diagram(); strings.Contains(v, "en passant") {
		t.Errorf("d3 taken, and d4 named capturable e.p.:\n%s", v)
	}
}

// PR-D5 (as clarified) and rules.md 0.4c: a dead position reached inside a series ends the
// series and the game at once, drawn; a series with moves after that point is refused whole.
func TestPRD5DeadPositionEndsSeries(t *testing.T) {
	const fen = "4k3/8/8/8/8/8/3r4/4K1N1 w - - 0 1"
	for _, italian := range []bool{false, true} {
		g := newGame(t, italian, fen, map[string]string{"series": "3"})
		refuse(t, g, W, "Kxd2, Ke3, Kf4", "move 1 (Kxd2) leaves neither side the men to mate: the game is drawn there, so nothing may follow it")
		refuse(t, g, W, "Kf1, Ne2", "series 3 has 3 moves; you sent 2")
		ns := play(t, g, W, "Kxd2")
		if out := g.Outcome(); out.Result != "1/2-1/2" || out.Termination != "insufficient material" {
			t.Errorf("italian %v: %+v", italian, out)
		}
		if got := varianttest.TextsTo(ns, B, false); !strings.Contains(got, "White played series 3: Kxd2") || strings.Contains(got, "stalemate") {
			t.Errorf("italian %v: notices\n%s", italian, got)
		}
		key := map[bool]string{false: "Progressive", true: "Italian Progressive"}[italian]
		for _, c := range []struct {
			movetext string
			fails    bool
		}{{"3 Kxd2 1/2-1/2", false}, {"3 Kxd2, Ke3, Kf4 *", true}} {
			rec := &record.Record{Tags: []record.Tag{{Name: "Variant", Value: key}, {Name: "FEN", Value: fen}}, Movetext: c.movetext}
			r, err := variant.ReplayRecord(rec)
			if err != nil || (r.Failure != nil) != c.fails || !c.fails && r.Game.Outcome().Termination != "insufficient material" {
				t.Errorf("%s %q: %v %+v", key, c.movetext, err, r)
			}
		}
	}
}

// A mail asking a player for his series names it in its subject: "your move (series 7)". The
// name is the series to play, for its player only, and none once the game is over.
func TestTurnName(t *testing.T) {
	cases := []struct {
		name    string
		italian bool
		fen     string
		flags   map[string]string
		series  []string
		white   string // TurnName(White)
		black   string
	}{
		{"start", false, "", nil, nil, "series 1", ""},
		{"black's first", false, "", nil, []string{"e4"}, "", "series 2"},
		{"white's second", false, "", nil, []string{"e4", "e5, Nc6"}, "series 3", ""},
		{"a check ends the series early", false, "", nil, []string{"e4", "e5, Nc6", "Bc4, Bxf7+"}, "", "series 4"},
		{"italian", true, "", nil, []string{"d4", "d5, Nc6", "Bf4, e3, Bd3"}, "", "series 4"},
		{"a FEN with black to move", false, "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1", nil, nil, "", "series 2"},
		{"option series", false, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", map[string]string{"series": "7"}, nil, "series 7", ""},
		{"over", false, "", nil, []string{"e4", "e5, Qh4", "Bc4, Bxf7+", "resign"}, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := newGame(t, c.italian, c.fen, c.flags)
			for _, s := range c.series {
				play(t, g, g.pos.Turn, s)
			}
			if w, b := g.TurnName(W), g.TurnName(B); w != c.white || b != c.black {
				t.Errorf("TurnName: White %q, Black %q; want %q, %q", w, b, c.white, c.black)
			}
		})
	}
}

// A first move that the man can make but that leaves the king in check is refused for that,
// not as a move the man cannot make (rule 4).
func TestFirstMoveMustEscapeCheckWording(t *testing.T) {
	g := newGame(t, false, "4k3/8/8/8/8/8/3q4/4K1N1 w - - 0 1", nil)
	cmd, _, err := g.Resolve(W, "Nf3")
	if err == nil || !strings.Contains(err.Error(), "does not get your king out of check") {
		t.Errorf("Nf3 while in check: %v (%v)", err, cmd)
	}
}
