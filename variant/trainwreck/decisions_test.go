package trainwreck

import (
	"strings"
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/variant"
	"github.com/refereed/refereed/variant/varianttest"
)

const (
	W = chess.White
	B = chess.Black
)

func newGame(t *testing.T, three bool, fen string, flags map[string]string) *Game {
	t.Helper()
	g, err := New(variant.Options{FEN: fen, Flags: flags}, three)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// sendLine sends a line from the player whose turn it is, or from the one it names
// ("white: DRAW ACCEPT").
func sendLine(t *testing.T, g *Game, line string) []variant.Notice {
	t.Helper()
	by, text := who(g, line)
	return varianttest.Send(t, g, by, text)
}

func who(g *Game, line string) (chess.Color, string) {
	if rest, ok := strings.CutPrefix(line, "white: "); ok {
		return W, rest
	}
	if rest, ok := strings.CutPrefix(line, "black: "); ok {
		return B, rest
	}
	return g.pos.Turn, line
}

func placement(g *Game) string { return g.pos.Placement() }

// Every decision of rules.md §9.2 (and the rules it settles), one row or more each, named
// by its ID. A row sends its lines, each from the player whose turn it is, then checks the
// board, the outcome, what both players were told, and a line that must be refused.
func TestDecisions(t *testing.T) {
	on := map[string]string{OptionNote: "true"}
	cases := []struct {
		id, what string
		three    bool
		fen      string
		flags    map[string]string
		sends    []string
		board    string // placement after the sends; "" skips
		result   string // "" means the game goes on
		term     string
		told     string // in what both players were told by the last send
		refuse   string // then refused (from the player whose turn it is) ...
		want     string // ... with a reason holding this
		check    func(t *testing.T, g *Game, told map[chess.Color]string)
	}{
		{id: "TW-D1", what: "White's first turn has a part 2 too", refuse: "e2-e4", want: "part 2 is missing"},
		{id: "TW-D1", what: "and is played whole", sends: []string{"e2-e4 / b8-c6"},
			board: "r1bqkbnr/pppppppp/2n5/8/4P3/8/PPPP1PPP/RNBQKBNR", told: "White played turn 1: e2-e4 / Nb8-c6.\n- part 1: White's pawn e2-e4.\n- part 2: Black's knight b8-c6.",
			check: func(t *testing.T, g *Game, _ map[chess.Color]string) {
				if g.pos.Turn != B || g.pos.Fullmove != 1 || g.TurnName(B) != "turn 1" || g.TurnName(W) != "" {
					t.Errorf("after White's turn 1: %v to play %q", g.pos.Turn, g.TurnName(B))
				}
			}},

		{id: "TW-D2", what: "part 1 takes the king: the mover wins at once, without part 2", fen: "4k3/8/8/8/8/8/4Q3/4K3 w - - 0 1",
			sends: []string{"Qxe8"}, board: "4Q3/8/8/8/8/8/8/4K3", result: "1-0", term: "king capture", told: "White took Black's king."},
		{id: "TW-D2", what: "nothing may follow part 1's king capture", fen: "4k3/8/8/8/8/8/4Q3/4K3 w - - 0 1",
			refuse: "Qxe8 / Ke7", want: "part 1 (Qxe8) takes Black's king and wins, so the turn ends there"},
		{id: "TW-D2", what: "part 2 that takes the mover's own king loses", fen: "4k3/8/8/8/8/5n2/8/4K2R w - - 0 1",
			sends: []string{"Rh2 / Nf3xe1"}, board: "4k3/8/8/8/8/8/7R/4n3", result: "0-1", term: "king capture",
			told: "White's own king was taken by the black man he moved in part 2"},

		{id: "TW-D3", what: "no check: a king steps onto an attacked square and stays there, unannounced", fen: "4k3/p7/8/8/8/8/3r4/4K3 w - - 0 1",
			sends: []string{"Ke2 / a6"}, board: "4k3/8/p7/8/8/8/3rK3/8",
			check: func(t *testing.T, g *Game, told map[chess.Color]string) {
				for _, s := range []chess.Color{W, B} {
					if strings.Contains(told[s], "check") || strings.Contains(told[s], "attacked") {
						t.Errorf("%v is told of a check: %q", s, told[s])
					}
					if v := g.View(variant.ViewerOf(s)).Diagram(); strings.Contains(v, "check") || strings.Contains(v, "attacked") {
						t.Errorf("%v's view speaks of a check:\n%s", s, v)
					}
				}
				sendLine(t, g, "Rxe2")
				if o := g.Outcome(); o.Result != "0-1" || o.Termination != "king capture" {
					t.Errorf("the attacked king was not taken: %+v", o)
				}
			}},
		{id: "TW-D3", what: "the courtesy note, as a game option: to each player whose king is attacked", fen: "r3k3/8/8/8/8/8/8/4K2R w - - 0 1", flags: on,
			sends: []string{"Rh1-h8 / Ra8-a1"}, board: "4k2R/8/8/8/8/8/8/r3K3",
			check: func(t *testing.T, g *Game, told map[chess.Color]string) {
				if !strings.Contains(told[W], "Your king on e1 is attacked by Black's rook on a1. There is no check in this game") ||
					!strings.Contains(told[B], "Your king on e8 is attacked by White's rook on h8.") || strings.Contains(told[W], "on e8") {
					t.Errorf("the courtesy notes: %q / %q", told[W], told[B])
				}
				if l := g.View(variant.AsBlack).Lines; len(l) != 2 || l[1].String() != "Your king is attacked by White's rook on h8." {
					t.Errorf("Black's view: %q", l)
				}
			}},
		{id: "TW-D3", what: "no courtesy note by default", fen: "r3k3/8/8/8/8/8/8/4K2R w - - 0 1",
			sends: []string{"Rh1-h8 / Ra8-a1"},
			check: func(t *testing.T, g *Game, told map[chess.Color]string) {
				if strings.Contains(told[W]+told[B], "attacked") || len(g.View(variant.AsBlack).Lines) != 1 {
					t.Errorf("a courtesy note without the option: %q / %q", told[W], told[B])
				}
			}},

		{id: "TW-D4", what: "a king castles as in orthodox chess", fen: "4k3/p7/8/8/8/8/8/4K2R w K - 0 1",
			sends: []string{"O-O / a6"}, board: "4k3/8/p7/8/8/8/8/5RK1", told: "- part 1: White's king castled with the rook on h1: e1-g1, rook to f1."},
		{id: "TW-D4", what: "not through an attacked square", fen: "4k3/p7/8/8/2b5/8/8/4K2R w K - 0 1",
			refuse: "O-O / a6", want: "part 1 (O-O): castling kingside is not possible now"},
		{id: "TW-D4", what: "not out of an attacked square", fen: "4k3/p7/8/8/1b6/8/8/4K2R w K - 0 1",
			refuse: "e1-g1 / a6", want: "part 1 (e1-g1)"},
		{id: "TW-D4", what: "a king is castled only by his owner", fen: "4k3/p7/8/8/8/8/8/4K2R b K - 0 1",
			refuse: "a6 / O-O", want: "part 2 (O-O): a king is castled only by his owner"},
		{id: "TW-D4", what: "... also in coordinates", fen: "4k3/p7/8/8/8/8/8/4K2R b K - 0 1",
			refuse: "a6 / e1-g1", want: "part 2 (e1-g1): part 2 moves one of White's men other than his king"},
		{id: "TW-D4", what: "a rook moved by the opponent loses its castling", fen: "4k3/p7/8/8/8/8/8/4K2R b K - 0 1",
			sends: []string{"a6 / Rh1-h3"},
			check: func(t *testing.T, g *Game, _ map[chess.Color]string) {
				if g.pos.Castling != 0 {
					t.Errorf("castling rights %v after the rook moved", g.pos.Castling)
				}
			}},

		{id: "TW-D5", what: "a queen castles queenside, through attacked squares", fen: "r2qk2r/8/8/8/5b2/8/8/R2QK2R w - - 0 1",
			sends: []string{"QO-O-O / Qd7"}, board: "r3k2r/3q4/8/8/5b2/8/8/1QR1K2R",
			told: "White played turn 1: QO-O-O / Qd8-d7.\n- part 1: White's queen castled with the rook on a1: d1-b1, rook to c1."},
		{id: "TW-D5", what: "kingside once the king has left e1; Qd1-f1 names it", fen: "3qk3/8/8/8/8/8/4K3/R2Q3R w - - 0 1",
			sends: []string{"Qd1-f1 / Qd7"}, board: "4k3/3q4/8/8/8/8/4K3/R3RQ2"},
		{id: "TW-D5", what: "O-O-O is the queen's when she alone can castle that way", fen: "3qk3/8/8/8/8/8/4K3/R2Q3R w - - 0 1",
			sends: []string{"O-O-O / Qd7"}, board: "4k3/3q4/8/8/8/8/4K3/1QR4R"},
		{id: "TW-D5", what: "not kingside with the king on e1", fen: "r2qk2r/8/8/8/8/8/8/R2QK2R w - - 0 1",
			refuse: "QO-O / Qd7", want: "part 1 (QO-O): White's queen cannot castle kingside now"},
		{id: "TW-D5", what: "a queen that has moved (here back to d1 by a capture) castles no more", fen: "4k3/p7/8/8/8/8/3Q3P/R2nK3 w - - 0 1",
			sends: []string{"Qxd1 / a6", "a5 / h3"}, refuse: "QO-O-O / a4", want: "White's queen cannot castle queenside now"},
		{id: "TW-D5", what: "an opponent's queen castles in part 2", fen: "r2qk3/p7/8/8/8/8/8/4K3 w - - 0 1",
			sends: []string{"Ke2 / QO-O-O"}, board: "1qr1k3/p7/8/8/8/8/4K3/8", told: "- part 2: Black's queen castled with the rook on a8: d8-b8, rook to c8."},
		{id: "TW-D5", what: "... written O-O-O", fen: "r2qk3/p7/8/8/8/8/8/4K3 w - - 0 1",
			sends: []string{"Ke2 / O-O-O"}, board: "1qr1k3/p7/8/8/8/8/4K3/8"},
		{id: "TW-D5", what: "a queen's castling ends its rook's castling with the king", fen: "r3k2r/8/8/8/8/8/8/R2QK2R w KQkq - 0 1",
			sends: []string{"QO-O-O / Ra8-a7"}, board: "4k2r/r7/8/8/8/8/8/1QR1K2R",
			check: func(t *testing.T, g *Game, _ map[chess.Color]string) {
				if f := strings.Fields(g.pos.FEN())[2]; f != "Kk" {
					t.Errorf("castling rights %s, want Kk", f)
				}
			}},

		{id: "TW-D6", what: "the mover chooses the piece of the opponent's pawn, in the owner's colour", fen: "4k3/8/8/8/8/8/4p3/K7 w - - 0 1",
			sends: []string{"Kb2 / e2-e1=N"}, board: "4k3/8/8/8/8/8/1K6/4n3", told: "- part 2: Black's pawn e2-e1; it became a knight, White's choice."},
		{id: "TW-D6", what: "a promotion names its piece", fen: "4k3/8/8/8/8/8/4p3/K7 w - - 0 1",
			refuse: "Kb2 / e2-e1", want: "part 2 (e2-e1): say which piece the pawn becomes, like e1=Q"},
		{id: "TW-D6", what: "never a king", fen: "4k3/8/8/8/8/8/4p3/K7 w - - 0 1",
			refuse: "Kb2 / e1=K", want: "not a piece to promote to"},
		{id: "TW-D6", what: "both parts promote, each pawn on its owner's far rank", fen: "4k3/1P6/8/8/8/8/p7/4K3 w - - 0 1",
			sends: []string{"b8=R / a1=B"}, board: "1R2k3/8/8/8/8/8/8/b3K3", told: "White played turn 1: b7-b8=R / a2-a1=B."},

		{id: "TW-D7", what: "a player who cannot move his own men at the start of his turn loses", fen: "8/8/2K5/8/p7/8/P7/7k w - - 0 1",
			sends: []string{"Kc7 / a3"}, board: "8/2K5/8/8/8/p7/P7/7k", result: "1-0", term: "stalemate",
			told: "Black cannot move any of his own men: stalemate, which Black loses."},
		{id: "TW-D7", what: "... also at the start of a game set up so", fen: "8/8/2K5/8/8/p7/P7/7k b - - 0 1",
			result: "1-0", term: "stalemate", refuse: "a2", want: "the game is over"},

		{id: "TW-D8", what: "after part 1 no opposing man but the king can move: the mover loses", fen: "4k3/4p3/4P3/8/8/8/8/4K2R w K - 0 1",
			sends: []string{"O-O"}, result: "0-1", term: "stalemate", told: "After White's part 1 none of Black's men but the king could move: stalemate, which White loses."},
		{id: "TW-D8", what: "... and a part 2 sent with it is refused, saying so", fen: "4k3/4p3/4P3/8/8/8/8/4K2R w K - 0 1",
			refuse: "Rh2 / Ke7", want: "after part 1 (Rh2) none of Black's men but the king can move, so there is no part 2"},

		{id: "TW-D9", what: "no draw by material, move count or position: only by agreement", fen: "4kn2/8/8/8/8/8/8/4KB2 w - - 150 80",
			sends: []string{"Be2 / Ne6", "black: DRAW OFFER", "white: DRAW ACCEPT"}, result: "1/2-1/2", term: "draw"},
		{id: "TW-D9", what: "the game goes on where orthodox chess would be drawn", fen: "4kn2/8/8/8/8/8/8/4KB2 w - - 150 80",
			sends: []string{"Be2 / Ne6", "Nd4 / Bf3", "Kd2 / Nb3"}},

		{id: "TW-D10", what: "Three-Move: White's first turn has one own move", three: true,
			refuse: "e2-e4, d2-d4 / b8-c6", want: "turn 1 is a move of your own man, a /, and a move of your opponent's man (White's first turn has one own move), like e2-e4 / b8-c6: you sent 2 move(s) of your own men"},
		{id: "TW-D10", what: "after it two own moves", three: true, sends: []string{"e2-e4 / b8-c6"},
			refuse: "d7-d5 / e4-e5", want: "two moves of your own men"},
		{id: "TW-D10", what: "two own moves, then one of the opponent's men", three: true, sends: []string{"e4 / Nc6", "d5, e5 / exd5"},
			board: "r1bqkbnr/ppp2ppp/2n5/3Pp3/8/8/PPPP1PPP/RNBQKBNR", told: "Black played turn 1: d7-d5, e7-e5 / e4xd5.\n- part 1, move 1: Black's pawn d7-d5.\n- part 1, move 2: Black's pawn e7-e5.\n- part 2: White's pawn e4-d5, taking Black's pawn.",
			check: func(t *testing.T, g *Game, _ map[chess.Color]string) {
				if g.TurnName(W) != "turn 2" || !strings.Contains(g.View(variant.AsWhite).Lines[0].String(), "two moves of his own men") {
					t.Errorf("turn 2: %q %q", g.TurnName(W), g.View(variant.AsWhite).Lines)
				}
			}},
		{id: "TW-D10", what: "the king taken by the first own move ends the game before the second", three: true, fen: "4k3/8/8/8/8/8/4Q3/4K3 w - - 0 5",
			sends: []string{"Qxe8"}, result: "1-0", term: "king capture"},
		{id: "TW-D10", what: "... and nothing may follow it", three: true, fen: "4k3/8/8/8/8/8/4Q3/4K3 w - - 0 5",
			refuse: "Qxe8, Ke2", want: "part 1, move 1 (Qxe8) takes Black's king and wins"},
		{id: "TW-D10", what: "no move of his own men for the second move: stalemate, which he loses", three: true, fen: "K7/4p3/8/4P3/8/8/8/7k w - - 0 3",
			sends: []string{"e6"}, result: "0-1", term: "stalemate"},
		{id: "TW-D10", what: "... and nothing may follow it", three: true, fen: "K7/4p3/8/4P3/8/8/8/7k w - - 0 3",
			refuse: "e6, Kb7 / e7xd6", want: "part 1, move 1 (e6) leaves none of your men a move for your second move"},
		{id: "TW-D10", what: "part 2 follows TW-D8", three: true, fen: "4k3/4p3/4P3/8/8/8/8/4K2R w K - 0 3",
			sends: []string{"Rh2, Rh3"}, result: "0-1", term: "stalemate"},
	}
	for _, c := range cases {
		t.Run(c.id+" "+c.what, func(t *testing.T) {
			g := newGame(t, c.three, c.fen, c.flags)
			told := map[chess.Color]string{}
			for _, l := range c.sends {
				ns := sendLine(t, g, l)
				told[W], told[B] = varianttest.TextsTo(ns, W, false), varianttest.TextsTo(ns, B, false)
			}
			if c.board != "" && placement(g) != c.board {
				t.Errorf("board %s, want %s", placement(g), c.board)
			}
			o := g.Outcome()
			if c.result == "" && o.Over() {
				t.Errorf("the game ended: %+v", o)
			}
			if c.result != "" && (o.Result != c.result || o.Termination != c.term) {
				t.Errorf("outcome %+v, want %s by %s", o, c.result, c.term)
			}
			if c.told != "" && (!strings.Contains(told[W], c.told) || told[W] != told[B] && c.flags == nil) {
				t.Errorf("told White %q and Black %q, want both told %q", told[W], told[B], c.told)
			}
			if c.refuse != "" {
				by, text := who(g, c.refuse)
				varianttest.Refuse(t, g, by, text, c.want)
			}
			if c.check != nil {
				c.check(t, g, told)
			}
		})
	}
}

// Issue 33: a turn that ends the game passes the move all the same: the FEN after White takes
// the king says Black to move (it said White), after Black's turn the next number.
func TestFENAfterKingCapture(t *testing.T) {
	for _, c := range []struct{ fen, send, want string }{
		{"4k3/8/8/8/8/8/4Q3/4K3 w - - 0 1", "Qxe8", "4Q3/8/8/8/8/8/8/4K3 b - - 0 1"},
		{"4k3/4q3/8/8/8/8/8/4K3 b - - 0 1", "Qxe1", "4k3/8/8/8/8/8/8/4q3 w - - 0 2"},
	} {
		g := newGame(t, false, c.fen, nil)
		sendLine(t, g, c.send)
		if p := g.Position(); !g.Outcome().Over() || p.FEN() != c.want {
			t.Errorf("%s %s: %s, over %v; want %s", c.fen, c.send, p.FEN(), g.Outcome().Over(), c.want)
		}
	}
}
