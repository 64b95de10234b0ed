package trainwreck_test

import (
	"strings"
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/referee/refereetest"
	"github.com/refereed/refereed/templates/mailcheck"
	"github.com/refereed/refereed/variant"
)

// trainWreck starts a Train Wreck game (key) from fen with flags and empties the outbox.
func trainWreck(h *refereetest.Harness, key, fen string, flags map[string]string) uint64 {
	h.T.Helper()
	id := h.NewGame(key, variant.Options{FEN: fen, Flags: flags})
	h.Outbox()
	return id
}

// Train Wreck by mail (rules.md §9.3, 9.4): a turn is one line, both parts; both players are
// told both parts under the board and the next player is asked for his turn by name; a
// refused turn names its part and why, and changes nothing.
func TestTrainWreckByMail(t *testing.T) {
	h := refereetest.New(t)
	id := trainWreck(h, "trainwreck", "", nil)
	h.Deliver(h.Reply(id, chess.White, "TURN e2-e4 / b8-c6"))
	mails := h.Outbox()
	for _, m := range mails {
		mailcheck.Check(t, m)
	}
	toAnn, toBob := refereetest.BodyTo(t, mails, refereetest.White), refereetest.BodyTo(t, mails, refereetest.Black)
	for who, body := range map[string]string{"White": toAnn, "Black": toBob} {
		refereetest.Says(t, who+"'s mail", body, "White played turn 1: e2-e4 / Nb8-c6.", "- part 1: White's pawn e2-e4.", "- part 2: Black's knight b8-c6.",
			"Black to play turn 1: one move of his own men, then one of White's men (not the king).")
	}
	refereetest.Says(t, "Black's mail", toBob, "Subject: [refereed #1] Train Wreck: your move (turn 1)", "8 | r n b k q b . r | 8")
	if strings.Contains(toAnn, "your move") {
		t.Errorf("White is asked to move:\n%s", toAnn)
	}

	// A turn with a bad part 2 is refused whole, naming the part; White hears nothing.
	h.Deliver(h.Reply(id, chess.Black, "d7-d5 / e4-e6\nresign"))
	mails = h.Outbox()
	if len(mails) != 1 {
		t.Fatalf("%d mails for a refused turn, want Black's answer only", len(mails))
	}
	refereetest.Says(t, "the refusal", refereetest.BodyTo(t, mails, refereetest.Black), "Line 1 (d7-d5 / e4-e6) was refused: part 2 (e4-e6): the man on e4 cannot move to e6.", "> resign")
	if o := h.Outcome(id); o.Over() {
		t.Fatalf("the line after the refused turn was read: %+v", o)
	}

	// SAN, read for the colour each part moves.
	h.Deliver(h.Reply(id, chess.Black, "d5 / Nf3"))
	mails = h.Outbox()
	refereetest.Says(t, "White's mail", refereetest.BodyTo(t, mails, refereetest.White), "Black played turn 1: d7-d5 / Ng1-f3.", "- part 2: White's knight g1-f3.", "your move (turn 2)")
}

// The end of a game by mail: promotions with the piece the mover chose, a king taken in part
// 1, the result and the whole record to both.
func TestTrainWreckEndsByMail(t *testing.T) {
	h := refereetest.New(t)
	id := trainWreck(h, "trainwreck", "3k4/1P6/8/8/8/8/4p3/K7 w - - 0 1", nil)
	h.Deliver(h.Reply(id, chess.White, "b8=Q / e2-e1=R"))
	mails := h.Outbox()
	for _, m := range mails {
		mailcheck.Check(t, m)
	}
	for _, body := range []string{refereetest.BodyTo(t, mails, refereetest.White), refereetest.BodyTo(t, mails, refereetest.Black)} {
		refereetest.Says(t, "the promotions", body, "White played turn 1: b7-b8=Q / e2-e1=R.",
			"- part 1: White's pawn b7-b8; it became a queen, White's choice.", "- part 2: Black's pawn e2-e1; it became a rook, White's choice.")
	}
	h.Deliver(h.Reply(id, chess.Black, "Rxa1"))
	mails = h.Outbox()
	if len(mails) != 2 {
		t.Fatalf("%d mails at the end, want one to each player", len(mails))
	}
	for _, m := range mails {
		mailcheck.Check(t, m)
	}
	for who, body := range map[string]string{"White": refereetest.BodyTo(t, mails, refereetest.White), "Black": refereetest.BodyTo(t, mails, refereetest.Black)} {
		refereetest.Says(t, who+"'s last mail", body, "game over: 0-1", "Black played turn 1: Re1xa1.", "- part 1: Black's rook e1-a1, taking White's king.",
			"Black took White's king.", "The whole game:\n1. b7-b8=Q / e2-e1=R 1... Re1xa1", "The final position:")
	}
	if o := h.Outcome(id); o.Result != "0-1" || o.Termination != "king capture" {
		t.Errorf("outcome %+v", o)
	}
}

// Three-Move Train Wreck by mail, with the courtesy note on: two own moves after White's first
// turn, and the note to the player whose king is attacked, only to him.
func TestThreeMoveTrainWreckByMail(t *testing.T) {
	h := refereetest.New(t)
	id := trainWreck(h, "trainwreck-three", "", map[string]string{"king-attacked-note": "true"})
	h.Deliver(h.Reply(id, chess.White, "e2-e4, d2-d4 / b8-c6"))
	refereetest.Says(t, "the refusal", refereetest.BodyTo(t, h.Outbox(), refereetest.White), "turn 1 is a move of your own man, a /, and a move of your opponent's man (White's first turn has one own move), like e2-e4 / b8-c6: you sent 2 move(s) of your own men")
	h.Deliver(h.Reply(id, chess.White, "e4 / Na6"))
	h.Outbox()
	h.Deliver(h.Reply(id, chess.Black, "e7-e5, Bc8-b7?? / Bf1-b5"))
	refereetest.Says(t, "the refusal", refereetest.BodyTo(t, h.Outbox(), refereetest.Black), "part 1, move 2 (Bc8-b7??)")
	h.Deliver(h.Reply(id, chess.Black, "e7-e5, d7-d6 / Bf1-b5"))
	mails := h.Outbox()
	toAnn, toBob := refereetest.BodyTo(t, mails, refereetest.White), refereetest.BodyTo(t, mails, refereetest.Black)
	refereetest.Says(t, "White's mail", toAnn, "Black played turn 1: e7-e5, d7-d6 / Bf1-b5.", "- part 1, move 2: Black's pawn d7-d6.", "your move (turn 2)",
		"two moves of his own men")
	refereetest.Says(t, "Black's mail", toBob, "Your king on e8 is attacked by White's bishop on b5.", "courtesy note")
	if strings.Contains(toAnn, "is attacked") {
		t.Errorf("White is told of Black's attacked king:\n%s", toAnn)
	}
}
