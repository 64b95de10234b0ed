package conditional_test

import (
	"flag"
	"path/filepath"
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/referee/refereetest"
	"github.com/refereed/refereed/variant"
	_ "github.com/refereed/refereed/variant/all" // the games the referee knows, as in production
)

var update = flag.Bool("update", false, "rewrite the golden mails in testdata/golden")

const (
	W = chess.White
	B = chess.Black
)

// golden plays steps in a game of variant key and compares every mail with
// testdata/golden/<game>-<NN>-<name>-<recipient>.eml; every golden file of the game must be
// produced (with -update, the files are written, and those no longer sent removed). The
// players' Message-IDs take the form the files were first written with, in package referee.
func golden(t *testing.T, game, key string, opts variant.Options, steps []refereetest.Step) {
	t.Helper()
	refereetest.Script{Dir: filepath.Join("testdata", "golden"), Game: game, Key: key, Options: opts, Steps: steps, Update: *update,
		Setup: func(h *refereetest.Harness) { h.MessageID = refereetest.SenderMessageID }}.Run(t)
}

// Every kind of mail of a Conditional game: an A-move with its C-move, a B-move that
// resolves it, an A-move without a C-move, a C-move stated on its own, the end with a pending
// C-move revealed.
func TestGoldenConditional(t *testing.T) {
	golden(t, "conditional", "conditional", variant.Options{}, []refereetest.Step{
		{Name: "a-and-c", Side: W, Body: "A: e4\nC: !d4"},
		{Name: "b-move", Side: B, Body: "B: e5"},
		{Name: "a-alone", Side: B, Body: "A: Nc6"},
		{Name: "c-alone", Side: B, Body: "C: Ng1?Nf6/d6"},
		{Name: "b-move", Side: W, Body: "B: Nf3"},
		{Name: "a-and-c", Side: W, Body: "A: Nc3 C: !Bb5"},
		{Name: "resign", Side: B, Body: "RESIGN"},
	})
}
