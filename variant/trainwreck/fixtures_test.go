package trainwreck

import (
	"slices"
	"strings"
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/variant/varianttest"
)

// uci lists moves in coordinates, sorted.
func uci(ms []chess.Move) []string {
	out := make([]string, 0, len(ms))
	for _, m := range ms {
		out = append(out, m.UCI())
	}
	slices.Sort(out)
	return out
}

// ownOf and otherOf are the moves of the game's current position: part 1's, and part 2's
// after the moves in between.
func ownOf(g *Game) []chess.Move { return ownMoves(nil, &g.pos, g.pos.Turn, g.unmoved) }

func otherOf(g *Game) []chess.Move { return otherMoves(nil, &g.pos, g.pos.Turn.Other(), g.unmoved) }

// Fixtures §8 (seed 002): the constructed positions TW-1 to TW-5, replayed to what the
// fixtures give.
func TestFixtures8(t *testing.T) {
	t.Run("TW-1 initial: 20 own moves; after e2-e4, 20 moves of Black's men", func(t *testing.T) {
		g := newGame(t, false, "", nil)
		if n := len(ownOf(g)); n != 20 {
			t.Errorf("White's own moves: %d, want 20", n)
		}
		play(&g.pos, &g.unmoved, chess.Move{From: chess.SquareAt(4, 1), To: chess.SquareAt(4, 3), Kind: chess.DoublePush})
		others := uci(otherOf(g))
		if len(others) != 20 {
			t.Errorf("Black's men's moves for White: %d, want 20: %v", len(others), others)
		}
		for _, m := range others {
			if m[3] > m[1] {
				t.Errorf("%s: a black man moved away from rank 1", m)
			}
		}
	})
	t.Run("TW-2 a rook forward only, capturing sideways", func(t *testing.T) {
		g := newGame(t, false, "4k3/8/8/8/p2R3p/8/8/4K3", nil)
		var rook []string
		for _, m := range uci(ownOf(g)) {
			if strings.HasPrefix(m, "d4") {
				rook = append(rook, m)
			}
		}
		if want := []string{"d4a4", "d4d5", "d4d6", "d4d7", "d4d8", "d4h4"}; !slices.Equal(rook, want) {
			t.Errorf("Rd4: %v, want %v", rook, want)
		}
		refuse(t, g, W, "d4-c4 / a3", "part 1 (d4-c4): White's rook on d4 moves only forward (towards rank 8) except to capture")
		refuse(t, g, W, "Rd3 / a3", "moves only forward")
	})
	t.Run("TW-3 White moves Black's knight: forward for Black, taking only White's men", func(t *testing.T) {
		g := newGame(t, false, "4k3/8/8/3n4/8/4B3/2Q5/4K3", nil)
		if got, want := uci(otherOf(g)), []string{"d5b4", "d5c3", "d5e3", "d5f4"}; !slices.Equal(got, want) {
			t.Errorf("Black's men for White's part 2: %v, want %v", got, want)
		}
		sendLine(t, g, "Kd2 / Nd5xe3")
		if got := placement(g); got != "4k3/8/8/8/8/4n3/2QK4/8" {
			t.Errorf("after Nd5xe3: %s", got)
		}
	})
	t.Run("TW-4 queen castling queenside, not kingside", func(t *testing.T) {
		g := newGame(t, false, "r2qk2r/8/8/8/8/8/8/R2QK2R", nil)
		var castles []string
		for _, m := range ownOf(g) {
			if m.Kind == chess.Castle {
				castles = append(castles, m.UCI())
			}
		}
		if !slices.Equal(castles, []string{"d1b1"}) {
			t.Errorf("White's castlings %v, want only d1b1", castles)
		}
		sendLine(t, g, "Qd1-b1 / Qd8-d7")
		if got := placement(g); got != "r3k2r/3q4/8/8/8/8/8/1QR1K2R" {
			t.Errorf("after the queen's castling: %s", got)
		}
	})
	t.Run("TW-5 11 own moves, each a loss by stalemate", func(t *testing.T) {
		const fen = "4k3/4p3/4P3/8/8/8/8/4K2R w K -"
		own := uci(ownOf(newGame(t, false, fen, nil)))
		if want := []string{"e1d2", "e1e2", "e1f2", "e1g1", "h1h2", "h1h3", "h1h4", "h1h5", "h1h6", "h1h7", "h1h8"}; !slices.Equal(own, want) {
			t.Fatalf("own moves %v, want %v", own, want)
		}
		for _, m := range own {
			g := newGame(t, false, fen, nil)
			sendLine(t, g, m)
			if o := g.Outcome(); o.Result != "0-1" || o.Termination != "stalemate" {
				t.Errorf("%s: %+v, want White's loss by stalemate", m, o)
			}
		}
	})
}

func refuse(t *testing.T, g *Game, by chess.Color, text, want string) {
	t.Helper()
	varianttest.Refuse(t, g, by, text, want)
}
