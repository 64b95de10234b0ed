package progressive_test

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

// Every kind of mail of a Progressive game: series, a series ended by a check, a refused
// series, the end.
func TestGoldenProgressive(t *testing.T) {
	refereetest.GameGolden(t, "progressive", "progressive", variant.Options{}, []refereetest.Step{
		{Name: "series", Side: W, Body: "SERIES 1: e4"},
		{Name: "series", Side: B, Body: "e5, Nc6"},
		{Name: "check-ends-series", Side: W, Body: "3: Bc4, Bxf7+"},
		{Name: "refused-series", Side: B, Body: "Nf6, d6, Be7, O-O"},
		{Name: "series", Side: B, Body: "Kxf7, d6, Nf6, Be6"},
		{Name: "resign", Side: W, Body: "RESIGN"},
	})
}

// Italian Progressive Chess: a check only with a series' last move (IT-D1), the refusal of an
// early one, a check ending a series, a resignation.
func TestGoldenItalian(t *testing.T) {
	refereetest.GameGolden(t, "italian", "progressive-italian", variant.Options{}, []refereetest.Step{
		{Name: "series", Side: W, Body: "e4"},
		{Name: "series", Side: B, Body: "e5 d5"},
		{Name: "early-check", Side: W, Body: "Bb5+ Nf3 d3"},
		{Name: "check-last", Side: W, Body: "Nf3 Nc3 Bb5+"},
		{Name: "resign", Side: B, Body: "RESIGN"},
	})
}
