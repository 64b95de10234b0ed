package kriegspiel_test

import (
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/referee/refereetest"
	"github.com/refereed/refereed/variant"
	_ "github.com/refereed/refereed/variant/all" // the games the referee knows, as in production
)

const (
	W = chess.White
	B = chess.Black
)

// Kriegspiel: attempts answered No or Impossible, a capture announced by square, Any?,
// pawn tries, the end revealing the game.
func TestGoldenKriegspiel(t *testing.T) {
	refereetest.GameGolden(t, "kriegspiel", "kriegspiel", variant.Options{}, []refereetest.Step{
		{Name: "move", Side: W, Body: "e2e4"},
		{Name: "move", Side: B, Body: "d7d5"},
		{Name: "any-capture", Side: W, Body: "Any?\ne4d5"},
		{Name: "no-then-move", Side: B, Body: "d8d4, d8d5"},
		{Name: "impossible", Side: W, Body: "e1e3"},
		{Name: "move", Side: W, Body: "b1c3"},
		{Name: "board-history", Side: B, Body: "BOARD\nHISTORY"},
		{Name: "resign", Side: B, Body: "RESIGN"},
	})
}

// Progressive Kriegspiel: series of attempts, a series stopped by a check, the end.
func TestGoldenProgressiveKriegspiel(t *testing.T) {
	refereetest.GameGolden(t, "pk", "progressive-kriegspiel", variant.Options{}, []refereetest.Step{
		{Name: "series", Side: W, Body: "e2e4"},
		{Name: "series", Side: B, Body: "e7e5, d8h4"},
		{Name: "series-check", Side: W, Body: "d1h5, h5f7, f7e8"},
		{Name: "board-history", Side: B, Body: "BOARD\nHISTORY"},
		{Name: "resign", Side: B, Body: "RESIGN"},
	})
}
