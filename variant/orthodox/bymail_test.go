package orthodox_test

import (
	"strings"
	"testing"

	"github.com/refereed/refereed/referee/refereetest"
	"github.com/refereed/refereed/variant"
)

// The players' addresses, as the tests moved from package referee name them.
const (
	ann = refereetest.White
	bob = refereetest.Black
)

// An orthodox game driven through Handle with raw messages, to mate.
func TestOrthodoxGameByMail(t *testing.T) {
	h := refereetest.New(t)
	id := h.NewGame("orthodox", variant.Options{})
	open := h.Outbox()
	refereetest.Says(t, "White's opening mail", refereetest.BodyTo(t, open, ann), "you play White against bob@example.net", "your move (move 1), new game", "White to play move 1.", "a  b  c")
	refereetest.Says(t, "Black's opening mail", refereetest.BodyTo(t, open, bob), "I will write when it is your turn.", "White to play move 1.")
	for _, who := range []string{ann, bob} {
		if body := refereetest.BodyTo(t, open, who); strings.Contains(body, "moves first") || strings.Contains(body, "You move first") {
			t.Errorf("the opening says twice who moves first:\n%s", body)
		}
	}

	h.Deliver(h.Reply(id, W, "f3"))
	m := h.Outbox()
	refereetest.Says(t, "Ann's reply", refereetest.BodyTo(t, m, ann), "White played 1. f3")
	bobs := refereetest.BodyTo(t, m, bob)
	refereetest.Says(t, "Bob's mail", bobs, "White played 1. f3", "Black to play move 1.", "Subject: [refereed #1] Orthodox: your move (move 1)")
	// Whose move it is is said once in the body, under the board; no "Your move." above it.
	if strings.Contains(bobs, "Your move") {
		t.Errorf("Bob's mail says it is his move twice:\n%s", bobs)
	}

	h.Deliver(h.Reply(id, B, "e5"))
	h.Deliver(h.Reply(id, W, "g4 \n\nSent from my iPhone"))
	h.Outbox()
	h.Deliver(h.Reply(id, B, "Qh4#"))
	m = h.Outbox()
	for _, who := range []string{ann, bob} {
		refereetest.Says(t, "game over mail", refereetest.BodyTo(t, m, who), "Black played 2... Qh4#", "Black checkmated White", "game over: 0-1")
	}
	if out := h.Outcome(id); out.Result != "0-1" {
		t.Errorf("outcome %+v", out)
	}
	// After the end, a move is refused with the game's result.
	h.Deliver(h.Reply(id, W, "d4"))
	late := refereetest.BodyTo(t, h.Outbox(), ann)
	refereetest.Says(t, "late move", late, "was refused: the game is over (0-1)", "is over: 0-1. You played White")
	for _, invite := range []string{"send again", "Reply to this mail", "HELP lists"} {
		if strings.Contains(late, invite) {
			t.Errorf("the answer to a move after the end invites more (%q):\n%s", invite, late)
		}
	}
}
