package orthodox_test

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

// Every kind of mail of an orthodox game.
func TestGoldenOrthodox(t *testing.T) {
	refereetest.GameGolden(t, "orthodox", "orthodox", variant.Options{}, []refereetest.Step{
		{Name: "move", Side: W, Body: "e4"},
		{Name: "out-of-turn", Side: W, Body: "d4"},
		{Name: "move-with-note", Side: B, Body: "e5+"},
		{Name: "two-moves", Side: W, Body: "Qh5\nNc6"},
		{Name: "moves", Side: B, Body: "Nc6"},
		{Name: "move", Side: W, Body: "Bc4"},
		{Name: "move", Side: B, Body: "Nf6??"},
		{Name: "mate", Side: W, Body: "Qxf7#"},
	})
}
