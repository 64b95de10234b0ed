package orthodox_test

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

// Every kind of mail of an orthodox game.
func TestGoldenOrthodox(t *testing.T) {
	golden(t, "orthodox", "orthodox", variant.Options{}, []refereetest.Step{
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
