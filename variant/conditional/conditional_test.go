package conditional

import (
	"fmt"
	"math/rand"
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

func newGame(t testing.TB, fen string, flags map[string]string) *Game {
	t.Helper()
	g, err := New(variant.Options{FEN: fen, Flags: flags})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func send(t testing.TB, g *Game, by chess.Color, text string) []variant.Notice {
	t.Helper()
	return varianttest.Send(t, g, by, text)
}

func refuse(t *testing.T, g *Game, by chess.Color, text, want string) {
	t.Helper()
	varianttest.Refuse(t, g, by, text, want)
}

func texts(ns []variant.Notice, s chess.Color) string { return varianttest.TextsTo(ns, s, false) }

func replayFile(t *testing.T, name string) *variant.Replayed {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rec, err := record.NewReader(f).Next()
	if err != nil {
		t.Fatal(err)
	}
	r, err := variant.ReplayRecord(rec)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Fixtures §2.1-2.2: the sample game as printed fails at ply 7 (White's own pawn stands on
// d4); corrected (1. e4 e5 2. d4 exd4, 10. Qxa8) it replays to ply 30 with ply 27 skipped, and
// fails at ply 31 (no white man can capture on b2).
func TestFixture2SampleGame(t *testing.T) {
	r := replayFile(t, "sample-printed.pgn")
	if r.Failure == nil || r.Failure.Where != "ply 7" || !strings.Contains(r.Failure.Err.Error(), "Qxd4: no queen can move to d4") {
		t.Fatalf("printed record: %+v", r.Failure)
	}
	r = replayFile(t, "sample-corrected.pgn")
	if r.Failure == nil || r.Failure.Where != "ply 31" || !strings.Contains(r.Failure.Err.Error(), "Bxb2: no bishop can move to b2") {
		t.Fatalf("corrected record: %+v", r.Failure)
	}
	pos := r.Game.Position()
	if got := pos.Placement(); got != "Qnbr2k1/p3qppp/2B5/8/8/2N1P3/PbP3PP/4K1NR" {
		t.Errorf("after ply 30: %s", got)
	}
	joined := strings.Join(r.Warnings, "\n")
	if !strings.Contains(joined, "ply 27 (Kg8?Rd1/Nf3): the record marks the then-branch as played, but the rules skip the C-move") {
		t.Errorf("ply 27 not reported:\n%s", joined)
	}
	mt := r.Game.(*Game).Movetext()
	for _, want := range []string{"1. e4 e5 !d4", "Bg5?*Nf6*/c4", "Bb4?Qxb4/*Bb5*", "Ef6?Bxf6/*d5*", "Bf6?*Qb4*/Be5", "!Qe7", "Qb2?Qxb2/Qxc3 8. Bxa1", "c3?Bxb2/*e3*", "Kg8?Rd1/Nf3", "Nd5?cxd5/*Bb2*"} {
		if !strings.Contains(mt, want) {
			t.Errorf("movetext lacks %q:\n%s", want, mt)
		}
	}
}

// Fixtures §3: the condition forms of the original page.
func TestFixture3Conditions(t *testing.T) {
	cases := []struct{ text, cond, then, els string }{
		{"a8?Nf3/e4", "a8?", "Nf3", "e4"}, {"Bg5?Nf6/c4", "Bg5?", "Nf6", "c4"}, {"Pe2?Nf6/e5", "Pe2?", "Nf6", "e5"},
		{"Eg7?Nf6/e5", "Eg7?", "Nf6", "e5"}, {"d2?Nh4/e6", "d2?", "Nh4", "e6"}, {"Nh5?gxh5/g5", "Nh5?", "gxh5", "g5"},
		{"Pb4?Na2/Ncd3", "Pb4?", "Na2", "Ncd3"}, {"Td1?Kxd1/e4", "Rd1?", "Kxd1", "e4"}, {"!Qe2", "!", "Qe2", "Qe2"},
		{"Kg8?/*Rd1*/Nf3", "Kg8?", "Rd1", "Nf3"}, {"Td1/Kxd1/e4", "Rd1?", "Kxd1", "e4"},
	}
	for _, c := range cases {
		cond, then, els, _, err := parseC(c.text)
		if err != nil || condText(cond) != c.cond || then != c.then || els != c.els {
			t.Errorf("%q: %s %q %q %v", c.text, condText(cond), then, els, err)
		}
	}
	for _, bad := range []string{"Zg5?a/b", "g9?Nf3/e4", "Bg5?Nf3", "Bg5?/e4", "e4"} {
		if _, _, _, _, err := parseC(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	// h5?Qe2/Qe2 is !Qe2; Ea1?Ra1/Rxa1 is !Ra1: the x is cosmetic.
	g := newGame(t, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", nil)
	send(t, g, W, "A: Kd1 C: Ea1?Ra8+/Rxa8+")
	send(t, g, B, "B: Kd7")
	if g.pos.At(chess.A8).Role() != chess.Rook {
		t.Errorf("the C-move Ra1-a8 was not played")
	}
}

// CO-D1 and §2.3: the A/B/C cycle, condition kinds, and an illegal branch skipped with the
// next actor moving twice.
func TestCOD1Cycle(t *testing.T) {
	g := newGame(t, "", nil)
	if act := g.ToAct(); act[0] != W || g.state != 'A' {
		t.Fatal("start state")
	}
	send(t, g, W, "A: e4")
	send(t, g, W, "C: !d4")
	if act := g.ToAct(); act[0] != B {
		t.Fatal("after A: Black's B-move")
	}
	refuse(t, g, W, "A: d4", "it is not your A-move")
	ns := send(t, g, B, "B: e5")
	if !strings.Contains(texts(ns, B), "White's C-move: !d4, played d4.") || g.ToAct()[0] != B || g.state != 'A' {
		t.Fatalf("after B: %s", texts(ns, B))
	}
	send(t, g, B, "A: Nc6 C: Qg5?Qxg5/Nf6")
	send(t, g, W, "B: Nf3")
	if g.pos.At(chess.SquareAt(5, 5)).Role() != chess.Knight {
		t.Error("else-branch Nf6 not played")
	}
	// An illegal branch: skipped, and the next actor (the B-mover) moves twice running.
	h := newGame(t, "", nil)
	send(t, h, W, "A: e4 C: !Bd4") // the light bishop can never reach a dark square
	ns = send(t, h, B, "B: e6")
	if !strings.Contains(texts(ns, W), "White's C-move !Bd4: skipped (illegal).") || h.ToAct()[0] != B {
		t.Errorf("an impossible branch: %s (next %v)", texts(ns, W), h.ToAct())
	}
}

// CO-D2: a B-move check skips the C-move unless it escapes, and gives the checked player the
// next A-move; a C-move that escapes is played and play goes on with the checker's A-move.
func TestCOD2BMoveCheck(t *testing.T) {
	setup := func(c string) (*Game, []variant.Notice) {
		g := newGame(t, "", nil)
		send(t, g, W, "A: f3 C: !a3")
		send(t, g, B, "B: e5")
		send(t, g, B, "A: a6 C: !h6")
		send(t, g, W, "B: d3")
		send(t, g, W, "A: b3 C: "+c)
		return g, send(t, g, B, "B: Qh4+") // check, not mate: Kd2 and g3 escape
	}
	g, ns := setup("!c3") // does not escape the check
	if !strings.Contains(texts(ns, W), "White's C-move !c3: skipped (check).") || g.ToAct()[0] != W || g.Outcome().Over() {
		t.Fatalf("skip on check: %s (next %v)", texts(ns, W), g.ToAct())
	}
	refuse(t, g, W, "A: Nc3", "") // still in check: the A-move must escape it
	k, ns := setup("Qh4?Kd2/Nc3") // the chosen branch escapes
	if !strings.Contains(texts(ns, W), "White's C-move: Qh4?*Kd2*/Nc3, played Kd2.") || k.ToAct()[0] != B {
		t.Fatalf("escaping C-move: %s (next %v)", texts(ns, W), k.ToAct())
	}
}

// CO-D3: an A-move may check only when it mates.
func TestCOD3AMoveCheck(t *testing.T) {
	g := newGame(t, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", nil)
	refuse(t, g, W, "A: Ra8+", "an A-move may give check only when it mates; Ra8+ gives check without mating")
	m := newGame(t, "6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1", nil)
	send(t, m, W, "A: Ra8#")
	if out := m.Outcome(); out.Result != "1-0" || !strings.Contains(out.Reason, "A-move") {
		t.Errorf("mating A-move: %+v", out)
	}
}

// CO-D5: the condition is judged on the position after the B-move; "enemy" is the author's
// opponent (Ef6? is false when f6 holds the author's own man).
func TestCOD5Conditions(t *testing.T) {
	g := newGame(t, "", nil)
	send(t, g, W, "A: e4")
	send(t, g, W, "C: Nf6?d4/Nc3") // true only if Black's B-move puts a knight on f6
	send(t, g, B, "B: Nf6")
	if g.pos.At(chess.SquareAt(3, 3)).Role() != chess.Pawn {
		t.Error("Nf6? was not judged after the B-move")
	}
	h := newGame(t, "", nil)
	send(t, h, W, "A: Nf3 C: Ef3?e4/d4") // f3 holds White's own knight: not an enemy
	send(t, h, B, "B: d5")
	if h.pos.At(chess.SquareAt(3, 3)).Role() != chess.Pawn {
		t.Error("Ef3? with the author's own man was judged true")
	}
}

// CO-D6: branches are bound to their man when stated; an ambiguous one is refused; the bound
// man must still stand on its square.
func TestCOD6Binding(t *testing.T) {
	g := newGame(t, "4k3/8/8/8/8/8/8/R3K2R w - - 0 1", nil)
	refuse(t, g, W, "A: Kf2 C: !Rd1", "Rd1 could be a1-d1 or h1-d1")
	send(t, g, W, "A: Kf2 C: !Ra1-d1")
	send(t, g, B, "B: Kd8")
	if g.pos.At(chess.D1).Role() != chess.Rook || g.pos.At(chess.A1) != chess.NoPiece {
		t.Error("the bound rook a1 did not play")
	}
	// The author's own men block (here his king, after the A-move, on the h1 rook's way); the
	// opponent's do not; one on the destination does not (the branch retakes there).
	for _, c := range []struct{ fen, text, want string }{
		{"4k3/8/8/8/8/8/8/R3K2R w - - 0 1", "A: Kf1 C: !Rd1", "a1"},
		{"4k3/8/8/8/8/8/8/R3Kb1R w - - 0 1", "A: Kd2 C: !Rf1", ""},
		{"4k3/8/8/8/8/8/8/R2NK2R w - - 0 1", "A: Kf2 C: !Rxd1", ""},
		{"4k3/8/8/8/8/8/8/R1N1KN1R w - - 0 1", "A: Kd2 C: !Rd1", ""}, // both blocked: geometry alone
		{"4k3/8/8/8/8/3P4/3P4/4K3 w - - 0 1", "A: Kf2 C: !d4", "d3"},
	} {
		h := newGame(t, c.fen, nil)
		if c.want == "" {
			refuse(t, h, W, c.text, "could be")
			continue
		}
		send(t, h, W, c.text)
		if got := h.pending.then.from; got.String() != c.want {
			t.Errorf("%s %s: bound to %v, want %s", c.fen, c.text, got, c.want)
		}
	}
	// The bound man captured by the B-move: the C-move is skipped.
	h := newGame(t, "3rk3/8/8/8/8/8/8/3NK3 w - - 0 1", nil)
	send(t, h, W, "A: Ke2 C: !Nc3")
	ns := send(t, h, B, "B: Rxd1")
	if !strings.Contains(texts(ns, W), "skipped") {
		t.Errorf("a captured bound man: %s", texts(ns, W))
	}
}

// CO-D7 (one condition, first slash) and §6.4: a C-move may be replaced until the B-move.
func TestCOD7Replace(t *testing.T) {
	g := newGame(t, "", nil)
	send(t, g, W, "A: e4 C: !d4")
	ns := send(t, g, W, "C: !d3")
	if !strings.Contains(texts(ns, W), "replaces the one you stated before") || len(texts(ns, B)) != 0 {
		t.Errorf("replace: %q / %q", texts(ns, W), texts(ns, B))
	}
	send(t, g, B, "B: e5")
	if g.pos.At(chess.SquareAt(3, 2)).Role() != chess.Pawn {
		t.Error("the replacement was not played")
	}
	refuse(t, g, W, "C: !a3", "a C-move is stated with your A-move")
}

// CO-D8: secrecy, as a property: whatever C-move the author states, the opponent's notices
// and view are byte-identical until it resolves.
func TestCOD8Secrecy(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for trial := 0; trial < 200; trial++ {
		a, b := newGame(t, "", nil), newGame(t, "", nil)
		// A few random full cycles, the same in both worlds.
		for i := 0; i < rng.Intn(6) && !a.Outcome().Over(); i++ {
			x := a.x
			am := a.aMoves()
			m := am[rng.Intn(len(am))]
			for _, g := range []*Game{a, b} {
				send(t, g, x, "A: "+m.UCI())
			}
			bm := a.legalFor(x.Other())
			if len(bm) == 0 {
				return
			}
			r := bm[rng.Intn(len(bm))]
			for _, g := range []*Game{a, b} {
				send(t, g, x.Other(), "B: "+r.UCI())
			}
			if a.Outcome().Over() {
				break
			}
		}
		if a.Outcome().Over() {
			continue
		}
		x := a.x
		am := a.aMoves()
		m := am[rng.Intn(len(am))]
		// Two different C-moves, stated with the same A-move.
		na := send(t, a, x, "A: "+m.UCI()+" C: !"+randomMove(rng, a, x, m))
		nb := send(t, b, x, "A: "+m.UCI()+" C: e4?"+randomMove(rng, b, x, m)+"/"+randomMove(rng, b, x, m))
		if texts(na, x.Other()) != texts(nb, x.Other()) || varianttest.Seen(a, variant.ViewerOf(x.Other())) != varianttest.Seen(b, variant.ViewerOf(x.Other())) {
			t.Fatalf("trial %d: the opponent learns something of the C-move:\n%s\n--\n%s", trial, texts(na, x.Other()), texts(nb, x.Other()))
		}
		if a.View(variant.ViewerOf(x)).Diagram() == b.View(variant.ViewerOf(x)).Diagram() {
			t.Fatalf("trial %d: the author does not see his own C-move", trial)
		}
	}
}

// randomMove names, in coordinates, some move of one of x's men after the A-move m.
func randomMove(rng *rand.Rand, g *Game, x chess.Color, m chess.Move) string {
	p := g.pos
	p.Turn = x
	p.Play(m)
	p.Turn = x
	moves := p.LegalMoves(nil)
	if len(moves) == 0 {
		return "a1a2"
	}
	mv := moves[rng.Intn(len(moves))]
	return fmt.Sprintf("%v-%v", mv.From, mv.To)
}

// CO-D9: orthodox draws on the executed moves: dead positions.
func TestCOD9Draws(t *testing.T) {
	g := newGame(t, "4k3/8/8/8/8/8/8/4KN2 w - - 0 1", nil)
	if out := g.Outcome(); out.Termination != "insufficient material" {
		t.Errorf("K+N v K: %+v", out)
	}
}

// The log replays to the same state (the C-move statements included).
func TestLogReplays(t *testing.T) {
	r := replayFile(t, "sample-corrected.pgn")
	g, fail, err := variant.Replay(variant.MustLookup(Key), variant.Options{}, r.Game.Log())
	if err != nil || fail != nil {
		t.Fatalf("%v %v", err, fail)
	}
	if a, b := g.View(variant.AsReferee).Diagram(), r.Game.View(variant.AsReferee).Diagram(); a != b {
		t.Error("replayed log differs")
	}
}

// CO-D3: an A-mover whose every legal move gives a non-mating check draws; with the option
// a-check-loses he loses (C:L27). White's king is boxed (b1 and b2 under the rook, a2 its own
// blocked pawn); f7+ is White's only move, and Kxf7 answers it.
func TestCOD3ForcedCheck(t *testing.T) {
	fen := "1r4k1/8/5P2/8/8/p7/P7/K7 w - - 0 1"
	if out := newGame(t, fen, nil).Outcome(); out.Result != "1/2-1/2" || out.Termination != "forced check" {
		t.Errorf("forced check: %+v", out)
	}
	if out := newGame(t, fen, map[string]string{"a-check-loses": "true"}).Outcome(); out.Result != "0-1" {
		t.Errorf("forced check, a-check-loses: %+v", out)
	}
}

// CO-D9: 100 executed plies without a capture or a pawn move draw.
func TestCOD9FiftyMoves(t *testing.T) {
	if out := newGame(t, "4k3/8/8/8/8/8/8/R3K3 w - - 100 80", nil).Outcome(); out.Termination != "fifty-move rule" {
		t.Errorf("%+v", out)
	}
}

// CO-D9: threefold repetition of position plus state (whose A-move it is) draws. Knights out
// and back bring the start position, White's A-move, back every four cycles.
func TestCOD9Repetition(t *testing.T) {
	g := newGame(t, "", nil)
	cycle := []struct {
		a        chess.Color
		aText, b string
	}{
		{W, "A: Nf3 C: !Ng1", "B: Nf6"},
		{B, "A: Ng8 C: !Nf6", "B: Nf3"},
		{W, "A: Ng1 C: !Nf3", "B: Ng8"},
		{B, "A: Nf6 C: !Ng8", "B: Ng1"},
	}
	for i := 0; i < 8; i++ {
		if g.Outcome().Over() {
			t.Fatalf("ended after %d cycles: %+v", i, g.Outcome())
		}
		c := cycle[i%4]
		send(t, g, c.a, c.aText)
		send(t, g, c.a.Other(), c.b)
	}
	if out := g.Outcome(); out.Termination != "threefold repetition" {
		t.Errorf("after the start position came back twice: %+v", out)
	}
}

// CO-D4: B-moves are orthodox, checks allowed; a B-move that leaves no legal reply mates
// and the pending C-move never runs.
func TestCOD4BMoveMate(t *testing.T) {
	g := newGame(t, "", nil)
	send(t, g, W, "A: f3 C: !a3")
	send(t, g, B, "B: e5")
	send(t, g, B, "A: a6 C: !h6")
	send(t, g, W, "B: g4")
	send(t, g, W, "A: b3 C: !c3")
	send(t, g, B, "B: Qh4#")
	if out := g.Outcome(); out.Result != "0-1" || out.Reason != "Black checkmated White with a B-move" {
		t.Errorf("%+v", out)
	}
	if g.pos.At(chess.SquareAt(2, 2)) != chess.NoPiece {
		t.Error("the C-move c3 ran after the mate")
	}
}

// replayText replays a Conditional record given as movetext, from fen.
func replayText(t *testing.T, fen, movetext string) *variant.Replayed {
	t.Helper()
	pgn := "[Variant \"Conditional\"]\n"
	if fen != "" {
		pgn += "[FEN \"" + fen + "\"]\n"
	}
	rec, err := record.NewReader(strings.NewReader(pgn + "\n" + movetext + "\n")).Next()
	if err != nil {
		t.Fatal(err)
	}
	r, err := variant.ReplayRecord(rec)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// CO-D4, CO-D9: the end conditions are judged after every executed ply, A, B or C; a game
// that has ended takes no further ply, and its pending C-move is discarded and revealed.
func TestCOD9EndAfterEveryPly(t *testing.T) {
	cases := []struct {
		id, fen, a, b  string // b: a B-move to send after the A-move, "" for none
		result, term   string
		reasonContains string
	}{
		// CO-D4: the B-mover has no legal move right after the A-move: stalemate at once.
		{"CO-D4", "7k/8/8/6Q1/8/8/8/K7 w - - 0 1", "A: Qg6 C: !Qg7", "", "1/2-1/2", "stalemate", "Black has no legal move"},
		// CO-D3/CO-D4: an A-move that mates ends the game before any B-move.
		{"CO-D4", "6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1", "A: Ra8# C: !Kd1", "", "1-0", "checkmate", "with an A-move"},
		// CO-D9: a dead position reached by the A-move.
		{"CO-D9", "4k3/8/8/8/8/8/3r4/4K1N1 w - - 0 1", "A: Kxd2 C: !Nf3", "", "1/2-1/2", "insufficient material", ""},
		// CO-D9: the 100th quiet ply is the A-move.
		{"CO-D9", "k7/8/8/8/8/8/Pr6/4K3 w - - 99 80", "A: Kf1 C: !Kg1", "", "1/2-1/2", "fifty-move rule", ""},
		// CO-D9: the 100th quiet ply is the B-move: the C-move is not played.
		{"CO-D9", "k7/8/8/8/8/8/Pr6/4K3 w - - 98 80", "A: Kf1 C: !Kg1", "B: Rb3", "1/2-1/2", "fifty-move rule", ""},
		// CO-D9: a dead position reached by the B-move.
		{"CO-D9", "4k3/8/8/8/1n6/8/3R4/7K w - - 0 1", "A: Rd3 C: !Kg2", "B: Nxd3", "1/2-1/2", "insufficient material", ""},
	}
	for _, c := range cases {
		t.Run(c.id+" "+c.a+" "+c.b, func(t *testing.T) {
			g := newGame(t, c.fen, nil)
			by := g.x
			ns := send(t, g, by, c.a)
			if c.b != "" {
				if g.Outcome().Over() {
					t.Fatalf("over after the A-move: %+v", g.Outcome())
				}
				ns = send(t, g, by.Other(), c.b)
			}
			out := g.Outcome()
			if out.Result != c.result || out.Termination != c.term || !strings.Contains(out.Reason, c.reasonContains) {
				t.Fatalf("outcome %+v", out)
			}
			if want := map[bool]int{false: 1, true: 2}[c.b != ""]; len(g.plies) != want {
				t.Errorf("plies after the end: %+v", g.plies)
			}
			// The pending C-move is not played. Both players are told how the game ended; the
			// record, which the referee reveals to both (rules.md 0.4b), says what it was.
			cText := strings.SplitN(c.a, "C: ", 2)[1]
			gameOverToBoth(t, ns)
			if g.pending != nil || !strings.Contains(g.Movetext(), "{"+by.String()+"'s C-move, stated but not played: "+cText+"}") {
				t.Errorf("movetext %q, pending %v", g.Movetext(), g.pending)
			}
			refuse(t, g, by.Other(), "B: Kg8", "the game is over")
			// The same game as a record: it replays to the same end, and a ply after the end
			// is refused.
			mt := strings.TrimPrefix(strings.SplitN(c.a, " C:", 2)[0], "A: ")
			if c.b != "" {
				mt += " " + strings.TrimPrefix(c.b, "B: ")
			}
			r := replayText(t, c.fen, "1. "+mt+" "+c.result)
			if r.Failure != nil || r.Game.Outcome().Termination != c.term {
				t.Errorf("record %q: %+v %+v", mt, r.Failure, r.Game.Outcome())
			}
			after := " Kb8 - *"
			if c.b != "" {
				after = " - 2. Kb1 Kb8 - *"
			}
			r = replayText(t, c.fen, "1. "+mt+after)
			if r.Failure == nil || !strings.Contains(r.Failure.Err.Error(), "the game was already over") {
				t.Errorf("a ply after the end: %+v", r.Failure)
			}
		})
	}
}

// CO-D9: repetition counts the position plus its state after every executed ply: the
// placement, the side to move and which step comes next. Here no C-move is stated, so each
// cycle is A, B and a skipped C; the position after White's A-move Nf3 (Black's B-move next)
// comes back every second cycle, and its third time ends the game at once, before the
// B-move. A skipped C-move is no ply: the start position, White's A-move next, which comes
// back after every second cycle's skip, is not counted again.
func TestCOD9RepetitionEveryPly(t *testing.T) {
	g := newGame(t, "", nil)
	cycles := []struct {
		a        chess.Color
		aText, b string
	}{
		{W, "A: Nf3", "B: Nf6"},
		{B, "A: Ng8", "B: Ng1"},
	}
	for i := 0; i < 4; i++ {
		c := cycles[i%2]
		send(t, g, c.a, c.aText)
		send(t, g, c.a.Other(), c.b)
		if g.Outcome().Over() {
			t.Fatalf("ended in cycle %d: %+v", i+1, g.Outcome())
		}
	}
	ns := send(t, g, W, "A: Nf3")
	if out := g.Outcome(); out.Termination != "threefold repetition" || len(g.plies) != 13 {
		t.Fatalf("after the third Nf3: %+v, %d plies", out, len(g.plies))
	}
	if got := texts(ns, B); !strings.Contains(got, "The same position, with the same step to come, for the third time.") {
		t.Errorf("Black's notice: %s", got)
	}
	// The same state needs the same step: the board after Black's A-move Ng8 equals the one
	// after White's A-move Nf3 with Black's knight home, but White moves next there.
	if g.stateHash('B', W) == g.stateHash('B', B) || g.stateHash('B', B) == g.stateHash('C', B) {
		t.Error("the side to move or the step does not count in the state")
	}
}

// gameOverToBoth checks that both players are told, once, that and how the game ended.
func gameOverToBoth(t *testing.T, ns []variant.Notice) {
	t.Helper()
	n := 0
	for _, x := range ns {
		if x.Kind == "game-over" {
			n++
			if x.To != variant.ToBoth || x.Show != variant.ShowReveal {
				t.Errorf("game-over notice %+v, want one to both over the whole truth", x)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d game-over notices in %+v, want 1", n, ns)
	}
}

// A refused command leaves the game exactly as it was, also when its A-part is good and its
// C-part is not: nothing is half done.
func TestRefusedCommandChangesNothing(t *testing.T) {
	g := newGame(t, "", nil)
	before := fmt.Sprintf("%v %c %v %v %d %d %s", g.pos.FEN(), g.state, g.x, g.pending, len(g.plies), len(g.hashes), g.Log())
	for _, bad := range []string{
		"A e2e4 ; C !d4 d2d4",        // malformed C-part
		"A e2e4 ; C !d4 zz9 d2d4",    // a branch that is no move
		"A e2e4 ; A d2d4",            // two A-moves
		"A e2e4 ; B e7e5",            // an A-move and a B-move
		"C !d4 d2d4 d2d4 ; A e2e4",   // the C-move before the A-move
		"A e2e5 ; C !d4 d2d4 d2d4",   // an illegal A-move
		"B e7e5",                     // not Black's B-move
		"A e2e4 ; C !d4 d2d4 d2d4 x", // the record mark is not one
	} {
		if _, err := g.Submit(variant.Command{By: W, Text: bad}); bad != "A e2e4 ; C !d4 d2d4 d2d4 x" && !variant.IsRejection(err) {
			t.Errorf("%q: %v, want a rejection", bad, err)
		}
		if bad == "A e2e4 ; C !d4 d2d4 d2d4 x" {
			continue
		}
		after := fmt.Sprintf("%v %c %v %v %d %d %s", g.pos.FEN(), g.state, g.x, g.pending, len(g.plies), len(g.hashes), g.Log())
		if after != before {
			t.Fatalf("%q changed the game:\n%s\n%s", bad, before, after)
		}
	}
}

// rules.md §6.4 and issue item 5: an A-move without a C-move is accepted; its author alone is
// told that none is stated and how to send one before the B-move; a C-move sent on its own
// then is taken until the B-move is in.
func TestAMoveWithoutCMove(t *testing.T) {
	g := newGame(t, "", nil)
	ns := send(t, g, W, "A: e4")
	if got := texts(ns, W); !strings.Contains(got, "You have not stated a C-move yet. Send one (C: condition?then/else, or C: !move) before Black's B-move is in") {
		t.Errorf("White's notices:\n%s", got)
	}
	if got := texts(ns, B); strings.Contains(got, "C-move") {
		t.Errorf("Black learns whether White stated a C-move:\n%s", got)
	}
	ns = send(t, g, W, "C: !d4")
	if got := texts(ns, W); !strings.Contains(got, "Your C-move !d4 is stated: always d4 (d2-d4).") || texts(ns, B) != "" {
		t.Errorf("a C-move on its own: %q / %q", got, texts(ns, B))
	}
	send(t, g, B, "B: e5")
	if g.pos.At(chess.SquareAt(3, 3)).Role() != chess.Pawn {
		t.Error("the C-move sent on its own was not played")
	}
	refuse(t, g, W, "C: !d3", "a C-move is stated with your A-move, or after it until your opponent's B-move is in")
	// Without any C-move the C step is skipped.
	h := newGame(t, "", nil)
	send(t, h, W, "A: e4")
	ns = send(t, h, B, "B: e5")
	if got := texts(ns, W); !strings.Contains(got, "White stated no C-move: skipped.") {
		t.Errorf("no C-move: %s", got)
	}
}

// Issue item 5: the next step reads as a noun phrase after "Next: ", once; the player to act
// is told what to send; rejections name the step without a rule number.
func TestNextStepWording(t *testing.T) {
	g := newGame(t, "", nil)
	send(t, g, W, "A: e4 C: !d4")
	ns := send(t, g, B, "B: e5")
	view := g.View(variant.AsBlack).Diagram()
	if !strings.Contains(view, "Next: Black's A-move.\n") || strings.Contains(view, "is next") {
		t.Errorf("view:\n%s", view)
	}
	for _, s := range []chess.Color{W, B} {
		if got := texts(ns, s); strings.Contains(got, "Next:") {
			t.Errorf("the notices repeat the view's Next line:\n%s", got)
		}
	}
	if got := texts(ns, B); !strings.Contains(got, "Send your A-move (A: and the move) with your C-move (C: condition?then/else, or C: !move).") {
		t.Errorf("Black's prompt:\n%s", got)
	}
	refuse(t, g, W, "A: d3", "it is not your A-move now (next: Black's A-move)")
}

// CO-D9 and rules.md 0.4b: a game drawn by agreement (or resigned) while a C-move is pending
// discards it, and the record, which the referee reveals to both, carries it.
func TestAgreedDrawRevealsPendingCMove(t *testing.T) {
	g := newGame(t, "", nil)
	send(t, g, W, "A: e4 C: Nf6?d3/Nc3")
	send(t, g, W, "draw offer")
	gameOverToBoth(t, send(t, g, B, "draw accept"))
	mt := g.Movetext()
	if mt != "1. e4 {White's C-move, stated but not played: Nf6?d3/Nc3}" {
		t.Errorf("movetext %q", mt)
	}
	r := replayText(t, "", mt+" 1/2-1/2")
	if r.Failure != nil || len(r.Warnings) != 0 || r.Game.Outcome().Reason != "draw agreed" {
		t.Errorf("record: %+v %q %+v", r.Failure, r.Warnings, r.Game.Outcome())
	}
}

// Issue item 2: refereed's own record of a game (the export's movetext) replays with no
// warning, counts the same plies, and reaches the same end; the log holds no stray word.
func TestExportRoundTrip(t *testing.T) {
	g := newGame(t, "", nil)
	for _, l := range []struct {
		by   chess.Color
		text string
	}{
		{W, "A: e4 C: !Bd3"}, {B, "B: e5"},
		{B, "A: Nc6 C: !Ra6"}, {W, "B: Nf3"}, // !Ra6 is skipped: a7 blocks it
		{W, "A: O-O C: E e5?Nxe5/Rfe1"}, {B, "B: Nf6"},
		{B, "A: Be7 C: !O-O"}, {W, "B: Re1"},
		{W, "A: Nxf7 C: !Qh5"}, {B, "B: Rxf7"},
		{B, "A: d6 C: !Be6"}, {W, "B: Qxf7+"}, // a B-move check: the C-move is skipped
		{B, "A: Kxf7"}, {W, "B: Bc4+"}, // no C-move stated
	} {
		send(t, g, l.by, l.text)
	}
	if g.pos.At(chess.SquareAt(0, 7)).Role() != chess.Rook {
		t.Fatal("!Ra6 was played: the round trip lacks a skipped !move")
	}
	for _, c := range g.Log() {
		if strings.HasSuffix(c.Text, " then") || strings.HasSuffix(c.Text, " else") {
			t.Errorf("log entry with a record mark: %s", c)
		}
	}
	mt := g.Movetext()
	var sb strings.Builder
	record.Write(&sb, []record.Tag{{Name: "Variant", Value: "Conditional"}}, mt, "*")
	rec, err := record.NewReader(strings.NewReader(sb.String())).Next()
	if err != nil {
		t.Fatal(err)
	}
	r, err := variant.ReplayRecord(rec)
	if err != nil || r.Failure != nil {
		t.Fatalf("%v %+v\n%s", err, r.Failure, mt)
	}
	if len(r.Warnings) != 0 {
		t.Errorf("warnings:\n%s\n%s", strings.Join(r.Warnings, "\n"), mt)
	}
	h := r.Game.(*Game)
	if r.Plies != len(g.plies) || h.Movetext() != mt || h.pos.FEN() != g.pos.FEN() {
		t.Errorf("replayed %d plies, want %d\n%s\n%s", r.Plies, len(g.plies), h.Movetext(), mt)
	}
}

// CO-D4, CO-D9 as a property: in random games, whenever the game is not over, the player it
// waits for has a move to send (it never hangs); the log replays to the same state; and the
// game's own record replays with no warning to the same end and ply count.
func TestRandomGamesNeverHangAndRoundTrip(t *testing.T) {
	seeds := 150
	if testing.Short() {
		seeds = 30
	}
	for seed := int64(1); seed <= int64(seeds); seed++ {
		rng := rand.New(rand.NewSource(seed))
		g := newGame(t, "", nil)
		for step := 0; step < 240 && !g.Outcome().Over(); step++ {
			if g.state == 'A' {
				am := g.aMoves()
				if len(am) == 0 {
					t.Fatalf("seed %d: %v's A-move is awaited, but he has none: %s", seed, g.x, g.pos.FEN())
				}
				m := am[rng.Intn(len(am))]
				line := "A: " + m.UCI()
				after := g.pos
				after.Turn = g.x
				after.Play(m)
				after.Turn = g.x
				// Mostly a C-move, unconditional or not; none when no man of his can move.
				if rng.Intn(4) > 0 && len(after.LegalMoves(nil)) > 0 {
					if rng.Intn(3) == 0 {
						line += " C: !" + randomMove(rng, g, g.x, m)
					} else {
						sq := chess.Square(rng.Intn(64))
						line += fmt.Sprintf(" C: E%v?%s/%s", sq, randomMove(rng, g, g.x, m), randomMove(rng, g, g.x, m))
					}
				}
				send(t, g, g.x, line)
				continue
			}
			y := g.x.Other()
			bm := g.legalFor(y)
			if len(bm) == 0 {
				t.Fatalf("seed %d: %v's B-move is awaited, but he has none: %s", seed, y, g.pos.FEN())
			}
			send(t, g, y, "B: "+bm[rng.Intn(len(bm))].UCI())
		}
		again, fail, err := variant.Replay(variant.MustLookup(Key), variant.Options{}, g.Log())
		if err != nil || fail != nil || again.View(variant.AsReferee).Diagram() != g.View(variant.AsReferee).Diagram() {
			t.Fatalf("seed %d: the log does not replay to the same state: %v %v", seed, err, fail)
		}
		r := replayText(t, "", g.Movetext()+" "+g.Outcome().Result)
		if r.Failure != nil || len(r.Warnings) != 0 || r.Plies != len(g.plies) || r.Game.Outcome() != g.Outcome() {
			t.Fatalf("seed %d: the record does not round-trip: %v %q %d/%d plies %+v\n%s", seed, r.Failure, r.Warnings, r.Plies, len(g.plies), r.Game.Outcome(), g.Movetext())
		}
	}
}

// CO-D6: castling written in coordinates, as the king's two-square move, binds to the king
// and is played as castling.
func TestCOD6CastlingInCoordinates(t *testing.T) {
	g := newGame(t, "r3k2r/8/8/8/8/8/8/4K3 b kq - 0 1", nil)
	ns := send(t, g, B, "A: a8-a7 C: !e8-g8")
	if got := texts(ns, B); !strings.Contains(got, "always e8-g8 (e8-g8)") {
		t.Errorf("binding: %s", got)
	}
	send(t, g, W, "B: Kd2")
	if g.pos.At(chess.SquareAt(6, 7)).Role() != chess.King || g.pos.At(chess.SquareAt(5, 7)).Role() != chess.Rook {
		t.Errorf("e8-g8 was not played as castling: %s", g.pos.FEN())
	}
}

// A mail asking a player to move names the cycle and the step in its subject: "your move
// (cycle 4, A-move)". Cycles are numbered as records number them, three plies to a cycle, and
// the name is the same whether or not a secret C-move is pending (CO-D8).
func TestTurnName(t *testing.T) {
	checked := []string{"A: f3 C: !a3", "B: e5", "A: a6 C: !h6", "B: d3", "A: b3 C: !c3", "B: Qh4+"}
	cases := []struct {
		name  string
		lines []string // sent in turn by whoever is to act, or "white: ..."
		white string   // TurnName(White)
		black string
	}{
		{"start", nil, "cycle 1, A-move", ""},
		{"B-move after an A-move and a C-move", []string{"A: e4 C: !d4"}, "", "cycle 1, B-move"},
		{"B-move after an A-move alone", []string{"A: e4"}, "", "cycle 1, B-move"},
		{"B-move after a C-move stated later", []string{"A: e4", "white: C: !d4"}, "", "cycle 1, B-move"},
		{"black's A-move", []string{"A: e4 C: !d4", "B: e5"}, "", "cycle 2, A-move"},
		{"black's A-move after a skipped C-move", []string{"A: e4 C: !Bd4", "B: e6"}, "", "cycle 2, A-move"},
		{"white's B-move", []string{"A: e4 C: !d4", "B: e5", "A: Nc6 C: !Nf6"}, "cycle 2, B-move", ""},
		{"a B-move check gives the checked player the A-move", checked, "cycle 4, A-move", ""},
		{"over", []string{"A: e4", "resign"}, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := newGame(t, "", nil)
			for _, l := range c.lines {
				if rest, ok := strings.CutPrefix(l, "white: "); ok {
					send(t, g, W, rest)
					continue
				}
				send(t, g, g.ToAct()[0], l)
			}
			if w, b := g.TurnName(W), g.TurnName(B); w != c.white || b != c.black {
				t.Errorf("TurnName: White %q, Black %q; want %q, %q", w, b, c.white, c.black)
			}
		})
	}
}

// CO-D9 (clarified 2026-11-25): a skipped C-move is no ply, and the state it leaves is not
// counted. Here each cycle's C-move is skipped; counting those states would make the
// placement after 3... Nf6 the third of its kind before the game goes on.
func TestCOD9SkippedCMoveIsNoPly(t *testing.T) {
	r := replayText(t, "", "1. Nf3 Nf6 !Qd3 2. Ng8 Ng1 !Qd6 3. Nf3 Nf6 !Qd3 4. Ng8 Ng1 !Qd6")
	if r.Failure != nil {
		t.Fatalf("the record does not replay: %v", r.Failure)
	}
	if out := r.Game.Outcome(); out.Over() {
		t.Fatalf("the game ended: %+v; skipped C-moves count as plies", out)
	}
	// The next executed ply does draw: the placement after 1. Nf3, with the same step to
	// come, for the third time (plies 1, 7 and 13; the skipped C-moves are not counted).
	r = replayText(t, "", "1. Nf3 Nf6 !Qd3 2. Ng8 Ng1 !Qd6 3. Nf3 Nf6 !Qd3 4. Ng8 Ng1 !Qd6 5. Nf3")
	if r.Failure != nil {
		t.Fatalf("the record does not replay: %v", r.Failure)
	}
	if out := r.Game.Outcome(); out.Termination != "threefold repetition" {
		t.Fatalf("outcome %+v, want a threefold repetition", out)
	}
}

// Issue 33 (11): a record that stars neither branch of a C-move the rules play is warned, as
// one that stars a branch the rules do not play is; "!d4" unstarred is not (the sample game
// prints played ones so), and neither is an unstarred C-move the rules skip.
func TestUnstarredPlayedCMove(t *testing.T) {
	for _, c := range []struct{ mt, want string }{
		{"1. e4 e5 e5?Nf3/d4 2. Nc6", "ply 3 (e5?Nf3/d4): the record stars neither branch, but the rules play the else-branch (d4)"},
		{"1. e4 e5 e5?Nf3/*d4* 2. Nc6", ""},
		{"1. e4 e5 !d4 2. Nc6", ""},
		{"1. e4 e5 Ee5?Qh5/Nf3 2. Nc6", "ply 3 (Ee5?Qh5/Nf3): the record stars neither branch, but the rules play the then-branch (Qh5)"},
	} {
		r := replayText(t, "", c.mt+" *")
		if r.Failure != nil {
			t.Fatalf("%s: %v", c.mt, r.Failure.Err)
		}
		got := strings.Join(r.Warnings, "\n")
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%s: warnings %q, want %q", c.mt, got, c.want)
		}
	}
}

// A bare line where only a C-move may come is refused naming that line (found by review: the
// refusal quoted "").
func TestBareLineAsCMove(t *testing.T) {
	g, err := variant.MustLookup(Key).New(variant.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cmd, _, err := g.Resolve(chess.White, "A: e4")
	if err == nil {
		_, err = g.Submit(cmd)
	}
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = g.Resolve(chess.White, "e4")
	if err == nil || !strings.Contains(err.Error(), `"e4"`) {
		t.Errorf("White's bare e4 after his A-move: %v", err)
	}
}
