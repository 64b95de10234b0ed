package transactional_test

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

// Every kind of mail of a Transactional game.
func TestGoldenTransactional(t *testing.T) {
	refereetest.GameGolden(t, "tx", "transactional", variant.Options{}, []refereetest.Step{
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
