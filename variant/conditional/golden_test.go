package conditional_test

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

// Every kind of mail of a Conditional game: an A-move with its C-move, a B-move that
// resolves it, an A-move without a C-move, a C-move stated on its own, the end with a pending
// C-move revealed.
func TestGoldenConditional(t *testing.T) {
	refereetest.GameGolden(t, "conditional", "conditional", variant.Options{}, []refereetest.Step{
		{Name: "a-and-c", Side: W, Body: "A: e4\nC: !d4"},
		{Name: "b-move", Side: B, Body: "B: e5"},
		{Name: "a-alone", Side: B, Body: "A: Nc6"},
		{Name: "c-alone", Side: B, Body: "C: Ng1?Nf6/d6"},
		{Name: "b-move", Side: W, Body: "B: Nf3"},
		{Name: "a-and-c", Side: W, Body: "A: Nc3 C: !Bb5"},
		{Name: "resign", Side: B, Body: "RESIGN"},
	})
}
