package transactional_test

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

// Every kind of mail of a Transactional game.
func TestGoldenTransactional(t *testing.T) {
	golden(t, "tx", "transactional", variant.Options{}, []refereetest.Step{
		{Name: "move-pending", Side: W, Body: "T1: e4"},
		{Name: "move-and-batch", Side: B, Body: "T2: d5\nT2: Nf6"},
		{Name: "commit-with-warning", Side: W, Body: "T9: Bb5 (C)"},
		{Name: "refused-line", Side: B, Body: "Bd7\nNxe4\nc6"},
		{Name: "help-board-history", Side: B, Body: "HELP\nBOARD\nHISTORY"},
		{Name: "ep-question", Side: W, Body: "EP? d5"},
		{Name: "forged-from", Raw: func(h *refereetest.Harness, id uint64) []byte {
			return refereetest.Mail("mallory@evil.example", h.ReplyAddress(id, B), "x", "<m@evil.example>", "resign")
		}},
		{Name: "draw-offer", Side: B, Body: "DRAW OFFER"},
		{Name: "draw-decline", Side: W, Body: "DRAW DECLINE\nBxd7+"},
		{Name: "resign", Side: B, Body: "RESIGN"},
	})
}
