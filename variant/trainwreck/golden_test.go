package trainwreck_test

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

// Train Wreck: a turn of two moves (one's own man, then an enemy man), the refusal of a move
// of the enemy king, a takeback asked and accepted, the end.
func TestGoldenTrainWreck(t *testing.T) {
	refereetest.GameGolden(t, "trainwreck", "trainwreck", variant.Options{}, []refereetest.Step{
		{Name: "turn", Side: W, Body: "e2-e4 / b8-c6"},
		{Name: "king-refused", Side: B, Body: "d7-d5 / e1-e2"},
		{Name: "turn", Side: B, Body: "d7-d5 / g1-f3"},
		{Name: "takeback", Side: B, Body: "TAKEBACK"},
		{Name: "takeback-accept", Side: W, Body: "TAKEBACK ACCEPT"},
		{Name: "resign", Side: B, Body: "RESIGN"},
	})
}

// Three-Move Train Wreck: White's first turn of one own move, then two own moves and one of
// the enemy's.
func TestGoldenTrainWreckThree(t *testing.T) {
	refereetest.GameGolden(t, "trainwreck3", "trainwreck-three", variant.Options{}, []refereetest.Step{
		{Name: "first-turn", Side: W, Body: "e4 / Nc6"},
		{Name: "turn", Side: B, Body: "d5, e5 / Nf3"},
		{Name: "refused", Side: W, Body: "d4 / Ke7"},
		{Name: "resign", Side: W, Body: "RESIGN"},
	})
}
