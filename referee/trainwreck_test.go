package referee

import (
	"strings"
	"testing"

	"github.com/refereed/refereed/variant"
)

// trainWreck starts a Train Wreck game (key) from fen with flags and empties the outbox.
func (h *harness) trainWreck(key, fen string, flags map[string]string) uint64 {
	h.t.Helper()
	id, err := h.ref.NewGame(key, ann, bob, variant.Options{FEN: fen, Flags: flags})
	if err != nil {
		h.t.Fatal(err)
	}
	h.outbox()
	return id
}

// mustSay is mustContain on texts as a reader takes them: a mail's lines are wrapped, so
// words are compared apart from the spaces and line breaks between them.
func mustSay(t *testing.T, what, got string, wants ...string) {
	t.Helper()
	flat := strings.Join(strings.Fields(got), " ")
	for _, w := range wants {
		if !strings.Contains(flat, strings.Join(strings.Fields(w), " ")) {
			t.Errorf("%s lacks %q:\n%s", what, w, got)
		}
	}
}

// Train Wreck by mail (rules.md §9.3, 9.4): a turn is one line, both parts; both players are
// told both parts under the board and the next player is asked for his turn by name; a
// refused turn names its part and why, and changes nothing.
func TestTrainWreckByMail(t *testing.T) {
	h := newHarness(t)
	id := h.trainWreck("trainwreck", "", nil)
	h.deliver(h.reply(id, W, "TURN e2-e4 / b8-c6"))
	mails := h.outbox()
	for _, m := range mails {
		checkMail(t, m)
	}
	toAnn, toBob := bodyTo(t, mails, ann), bodyTo(t, mails, bob)
	for who, body := range map[string]string{"White": toAnn, "Black": toBob} {
		mustSay(t, who+"'s mail", body, "White played turn 1: e2-e4 / Nb8-c6.", "- part 1: White's pawn e2-e4.", "- part 2: Black's knight b8-c6.",
			"Black to play turn 1: one move of his own men, then one of White's men (not the king).")
	}
	mustSay(t, "Black's mail", toBob, "Subject: [refereed #1] Train Wreck: your move (turn 1)", "8 | r n b k q b . r | 8")
	if strings.Contains(toAnn, "your move") {
		t.Errorf("White is asked to move:\n%s", toAnn)
	}

	// A turn with a bad part 2 is refused whole, naming the part; White hears nothing.
	h.deliver(h.reply(id, B, "d7-d5 / e4-e6\nresign"))
	mails = h.outbox()
	if len(mails) != 1 {
		t.Fatalf("%d mails for a refused turn, want Black's answer only", len(mails))
	}
	mustSay(t, "the refusal", bodyTo(t, mails, bob), "Line 1 (d7-d5 / e4-e6) was refused: part 2 (e4-e6): the man on e4 cannot move to e6.", "> resign")
	if o := h.outcome(id); o.Over() {
		t.Fatalf("the line after the refused turn was read: %+v", o)
	}

	// SAN, read for the colour each part moves.
	h.deliver(h.reply(id, B, "d5 / Nf3"))
	mails = h.outbox()
	mustSay(t, "White's mail", bodyTo(t, mails, ann), "Black played turn 1: d7-d5 / Ng1-f3.", "- part 2: White's knight g1-f3.", "your move (turn 2)")
}

// The end of a game by mail: promotions with the piece the mover chose, a king taken in part
// 1, the result and the whole record to both.
func TestTrainWreckEndsByMail(t *testing.T) {
	h := newHarness(t)
	id := h.trainWreck("trainwreck", "3k4/1P6/8/8/8/8/4p3/K7 w - - 0 1", nil)
	h.deliver(h.reply(id, W, "b8=Q / e2-e1=R"))
	mails := h.outbox()
	for _, m := range mails {
		checkMail(t, m)
	}
	for _, body := range []string{bodyTo(t, mails, ann), bodyTo(t, mails, bob)} {
		mustSay(t, "the promotions", body, "White played turn 1: b7-b8=Q / e2-e1=R.",
			"- part 1: White's pawn b7-b8; it became a queen, White's choice.", "- part 2: Black's pawn e2-e1; it became a rook, White's choice.")
	}
	h.deliver(h.reply(id, B, "Rxa1"))
	mails = h.outbox()
	if len(mails) != 2 {
		t.Fatalf("%d mails at the end, want one to each player", len(mails))
	}
	for _, m := range mails {
		checkMail(t, m)
	}
	for who, body := range map[string]string{"White": bodyTo(t, mails, ann), "Black": bodyTo(t, mails, bob)} {
		mustSay(t, who+"'s last mail", body, "game over: 0-1", "Black played turn 1: Re1xa1.", "- part 1: Black's rook e1-a1, taking White's king.",
			"Black took White's king.", "The whole game:\n1. b7-b8=Q / e2-e1=R 1... Re1xa1", "The final position:")
	}
	if o := h.outcome(id); o.Result != "0-1" || o.Termination != "king capture" {
		t.Errorf("outcome %+v", o)
	}
}

// Three-Move Train Wreck by mail, with the courtesy note on: two own moves after White's first
// turn, and the note to the player whose king is attacked, only to him.
func TestThreeMoveTrainWreckByMail(t *testing.T) {
	h := newHarness(t)
	id := h.trainWreck("trainwreck-three", "", map[string]string{"king-attacked-note": "true"})
	h.deliver(h.reply(id, W, "e2-e4, d2-d4 / b8-c6"))
	mustSay(t, "the refusal", bodyTo(t, h.outbox(), ann), "turn 1 is a move of your own man, a /, and a move of your opponent's man (White's first turn has one own move), like e2-e4 / b8-c6: you sent 2 move(s) of your own men")
	h.deliver(h.reply(id, W, "e4 / Na6"))
	h.outbox()
	h.deliver(h.reply(id, B, "e7-e5, Bc8-b7?? / Bf1-b5"))
	mustSay(t, "the refusal", bodyTo(t, h.outbox(), bob), "part 1, move 2 (Bc8-b7??)")
	h.deliver(h.reply(id, B, "e7-e5, d7-d6 / Bf1-b5"))
	mails := h.outbox()
	toAnn, toBob := bodyTo(t, mails, ann), bodyTo(t, mails, bob)
	mustSay(t, "White's mail", toAnn, "Black played turn 1: e7-e5, d7-d6 / Bf1-b5.", "- part 1, move 2: Black's pawn d7-d6.", "your move (turn 2)",
		"two moves of his own men")
	mustSay(t, "Black's mail", toBob, "Your king on e8 is attacked by White's bishop on b5.", "courtesy note")
	if strings.Contains(toAnn, "is attacked") {
		t.Errorf("White is told of Black's attacked king:\n%s", toAnn)
	}
}
