package synchronous_test

import (
	"strings"
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/referee/refereetest"
	"github.com/refereed/refereed/templates/mailcheck"
	"github.com/refereed/refereed/variant"
)

// newGame starts a game of key and empties the outbox.
func newGame(h *refereetest.Harness, key string) uint64 {
	h.T.Helper()
	id := h.NewGame(key, variant.Options{})
	h.Outbox()
	return id
}

// Synchronous chess by mail (rules.md §7.3, §8.3, PS-D8): a chosen move is sealed and
// final, its maker is told so, the opponent is told only that a move was chosen; when both
// are in, both players get both moves, what happened, and the new board.
func TestSynchronousByMail(t *testing.T) {
	h := refereetest.New(t)
	id := newGame(h, "synchronous")
	h.Deliver(h.Reply(id, chess.White, "MOVE e4"))
	mails := h.Outbox()
	for _, m := range mails {
		mailcheck.Check(t, m)
	}
	toAnn, toBob := refereetest.BodyTo(t, mails, refereetest.White), refereetest.BodyTo(t, mails, refereetest.Black)
	refereetest.Says(t, "White's answer", toAnn, "Subject: [refereed #1] Synchronous (PSC): move sealed; opponent to choose",
		"Your move for turn 1, e4, is sealed.")
	refereetest.Says(t, "Black's news", toBob, "Subject: [refereed #1] Synchronous (PSC): your move (turn 1); opponent waits",
		"Your opponent has chosen his move for turn 1.")
	if strings.Contains(toBob, "e4") {
		t.Errorf("Black is told White's sealed move:\n%s", toBob)
	}

	// A second move for the same turn is refused: a chosen move is final.
	h.Deliver(h.Reply(id, chess.White, "d4"))
	refereetest.Says(t, "the refusal", refereetest.BodyTo(t, h.Outbox(), refereetest.White), "you have already chosen your move for turn 1 (e4), and a chosen move is final")

	h.Deliver(h.Reply(id, chess.Black, "e5"))
	mails = h.Outbox()
	for _, m := range mails {
		mailcheck.Check(t, m)
	}
	for who, body := range map[string]string{"White": refereetest.BodyTo(t, mails, refereetest.White), "Black": refereetest.BodyTo(t, mails, refereetest.Black)} {
		refereetest.Says(t, who+"'s mail", body, "your move (turn 2)", "Turn 1: White played e4, Black played e5.", "Turn 2: both players choose their moves.")
	}

	// CONTROL answers with the control map, privately.
	h.Deliver(h.Reply(id, chess.Black, "CONTROL"))
	mails = h.Outbox()
	if len(mails) != 1 {
		t.Fatalf("%d mails for CONTROL, want 1", len(mails))
	}
	refereetest.Says(t, "the control map", refereetest.BodyTo(t, mails, refereetest.Black), "Control of the squares before turn 2.")
}

// Noninterference (PS-D8, KO-D6): before the turn is played, what Black is sent is the
// same, word for word, whatever White chose.
func TestSynchronousSealedMoveDoesNotShow(t *testing.T) {
	for _, key := range []string{"synchronous", "korolev"} {
		var seen []string
		for _, white := range []string{"e4", "Nf3", "d2-d4"} {
			h := refereetest.New(t)
			id := newGame(h, key)
			h.Deliver(h.Reply(id, chess.White, white))
			bob1 := refereetest.BodyTo(t, h.Outbox(), refereetest.Black)
			h.Deliver(h.Reply(id, chess.Black, "BOARD\nHISTORY"))
			seen = append(seen, bob1+"\n"+refereetest.BodyTo(t, h.Outbox(), refereetest.Black))
		}
		for i := 1; i < len(seen); i++ {
			if seen[i] != seen[0] {
				t.Errorf("%s: Black can tell White's sealed moves apart:\n%s\n---\n%s", key, seen[0], seen[i])
			}
		}
	}
}
