// Package toy_test proves the seam a new game plugs into (issue 22): a game that lives only
// in this test package, registered from its test, runs through the referee's contract and
// golden tests with no line for it anywhere else. Toy Chess is orthodox chess under another
// name, with its own HELP and what a spectator may see of it.
package toy_test

import (
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/record"
	"github.com/refereed/refereed/referee/refereetest"
	"github.com/refereed/refereed/variant"
	_ "github.com/refereed/refereed/variant/all" // the words of the shared sentences
	"github.com/refereed/refereed/variant/orthodox"
)

// toy is a game of orthodox chess that names itself toy.
type toy struct{ variant.Game }

func (toy) Key() string { return "toy" }

func init() {
	variant.Register(&variant.Variant{Key: "toy", Name: "Toy Chess",
		Commands:   []variant.CommandRow{{Help: "e4               your move, in SAN or coordinates"}},
		InProgress: variant.Spectator{Position: true, Moves: true},
		New: func(o variant.Options) (variant.Game, error) {
			g, err := orthodox.New(o)
			return toy{g}, err
		},
		Steps: func(start variant.Game, toks []record.Token, buf []variant.Step) ([]variant.Step, error) {
			return orthodox.Steps(start, toks, buf)
		},
		WriteMovetext: func(g variant.Game) string { return variant.MustLookup(orthodox.Key).WriteMovetext(g.(toy).Game) },
	})
}

func TestContract(t *testing.T) { refereetest.Contract(t, "toy", variant.Options{}) }

func TestGolden(t *testing.T) {
	refereetest.Golden(t, "testdata", "toy", "toy", variant.Options{}, []refereetest.Step{
		{Name: "move", Side: chess.White, Body: "e4"},
		{Name: "refused", Side: chess.Black, Body: "e4"},
		{Name: "move", Side: chess.Black, Body: "e5"},
		{Name: "resign", Side: chess.White, Body: "RESIGN"},
	})
}
