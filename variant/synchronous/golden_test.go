package synchronous_test

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

// PSC: a sealed move, the opponent told only that one was chosen, the turn with both moves,
// CONTROL, a move refused for the control rules, a draw agreed.
func TestGoldenSynchronous(t *testing.T) {
	refereetest.GameGolden(t, "psc", "synchronous", variant.Options{}, []refereetest.Step{
		{Name: "sealed", Side: W, Body: "e4"},
		{Name: "turn", Side: B, Body: "e5"},
		{Name: "control-refused", Side: W, Body: "CONTROL\nQh5\nNf3"},
		{Name: "turn", Side: B, Body: "Nc6"},
		{Name: "draw-offer", Side: W, Body: "DRAW OFFER"},
		{Name: "draw-accept", Side: B, Body: "DRAW ACCEPT"},
	})
}

// PSC with fog of war (PS-D9): each sees what his men see; a man lost is told by square and
// kind; a move the hidden counts forbid is "not possible now"; HELP without CONTROL.
func TestGoldenSynchronousFog(t *testing.T) {
	refereetest.GameGolden(t, "pscfog", "synchronous", variant.Options{FEN: "4r2b/8/8/4N3/8/7k/8/K7 w - - 0 1", Flags: map[string]string{"fog": "true"}}, []refereetest.Step{
		{Name: "sealed", Side: W, Body: "Ka2"},
		{Name: "capture", Side: B, Body: "Bxe5"},
		{Name: "not-possible", Side: W, Body: "Kb2"},
		{Name: "help", Side: W, Body: "HELP"},
		{Name: "sealed", Side: W, Body: "Kb1"},
		{Name: "history", Side: B, Body: "HISTORY"},
		{Name: "resign", Side: B, Body: "RESIGN"},
	})
}

// Korolev's game: a self-capture, a collision, an illusory capture, the king captured.
func TestGoldenKorolev(t *testing.T) {
	refereetest.GameGolden(t, "korolev", "korolev", variant.Options{}, []refereetest.Step{
		{Name: "sealed", Side: W, Body: "e4"},
		{Name: "turn", Side: B, Body: "d5"},
		{Name: "sealed", Side: W, Body: "exd5"},
		{Name: "exchange", Side: B, Body: "Qxd5"},
		{Name: "sealed", Side: W, Body: "Qh5"},
		{Name: "turn", Side: B, Body: "Qxg2"},
		{Name: "resign", Side: W, Body: "RESIGN"},
	})
}
