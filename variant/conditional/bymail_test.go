package conditional_test

import (
	"strings"
	"testing"

	"github.com/refereed/refereed/referee/refereetest"
	"github.com/refereed/refereed/variant"
)

// newGame starts a Conditional game and empties the outbox.
func newGame(h *refereetest.Harness) uint64 {
	h.T.Helper()
	id := h.NewGame("conditional", variant.Options{})
	h.Outbox()
	return id
}

// Conditional by mail: "A: e4" with "C: ..." in one mail; the opponent's mail says nothing of
// the C-move until it resolves; then both get its full text with the played branch starred.
func TestConditionalByMail(t *testing.T) {
	ann, bob := refereetest.White, refereetest.Black
	worlds := map[string]string{}
	for _, c := range []string{"C: !d4", "C: Nf6?d3/Nc3"} {
		h := refereetest.New(t)
		id := newGame(h)
		h.Deliver(h.Reply(id, W, "A: e4\n"+c))
		m := h.Outbox()
		refereetest.Says(t, "Ann's reply", refereetest.BodyTo(t, m, ann), "White's A-move: e4", "Your C-move", "Stated C-move (secret)")
		refereetest.Says(t, "Bob's mail", refereetest.BodyTo(t, m, bob), "Subject: [refereed #1] Conditional: your move (cycle 1, B-move)")
		worlds[c] = refereetest.BodyTo(t, m, bob)
		h.Deliver(h.Reply(id, B, "B: e5"))
		m = h.Outbox()
		if c == "C: !d4" {
			for _, who := range []string{ann, bob} {
				refereetest.Says(t, "after the C-move", refereetest.BodyTo(t, m, who), "Black's B-move: e5", "White's C-move: !d4, played d4.", "Next: Black's A-move.")
			}
		}
	}
	if worlds["C: !d4"] != worlds["C: Nf6?d3/Nc3"] {
		t.Errorf("Bob's mail depends on Ann's C-move:\n%s\n--\n%s", worlds["C: !d4"], worlds["C: Nf6?d3/Nc3"])
	}
	if strings.Contains(worlds["C: !d4"], "d4") {
		t.Errorf("Bob's mail names the C-move:\n%s", worlds["C: !d4"])
	}
}

// rules.md §6.4: the A-move and its C-move come in the same message and are checked together.
// A mail whose C-move line is refused is refused whole: its A-move on the line before is not
// made, Bob hears nothing, and both lines come back to Ann (issue 33). The same two lines
// with a good C-move are played as one command.
func TestConditionalRefusedCLine(t *testing.T) {
	ann := refereetest.White
	for _, c := range []struct{ body, refused string }{
		{"A: e4\nC: zz?d4", "Line 1 (A: e4 C: zz?d4) was refused: \"zz?d4\": the then-move and the\nelse-move are separated by /. Nothing in your mail was done."},
		{"e4\nC: a9?d4/d3", `condition "a9"`},
		{"A: e4\nC: Xe5?d4/d3\nRESIGN", `"X" is not E or a piece letter`},
	} {
		h := refereetest.New(t)
		id := newGame(h)
		h.Deliver(h.Reply(id, W, c.body))
		m := h.Outbox()
		if len(m) != 1 {
			t.Fatalf("%q: %d mails, want Ann's refusal alone", c.body, len(m))
		}
		reply := refereetest.BodyTo(t, m, ann)
		refereetest.Says(t, "the refusal", reply, "was refused", c.refused, "> "+strings.Split(c.body, "\n")[0], "> "+strings.Split(c.body, "\n")[1])
		if n := len(h.Log(id)); n != 0 {
			t.Fatalf("%q: %d commands logged, want none: the A-move was made", c.body, n)
		}
	}
	h := refereetest.New(t)
	id := newGame(h)
	h.Deliver(h.Reply(id, W, "e4\nC: !d4\nHISTORY"))
	m := h.Outbox()
	refereetest.Says(t, "Ann's reply", refereetest.BodyTo(t, m, ann), "White's A-move: e4", "Your C-move !d4 is stated", "Stated C-move (secret)")
	if n := len(h.Log(id)); n != 1 {
		t.Fatalf("%d commands logged, want the A-move with its C-move as one", n)
	}
}

// A Conditional player who states his C-move in the mail of his A-move was never told that he
// had stated none, and HISTORY does not say so either (issue 25).
func TestHistoryConditionalSameMail(t *testing.T) {
	h := refereetest.New(t)
	id := newGame(h)
	h.Deliver(h.Reply(id, W, "A: e4\nC: !d4"))
	first := refereetest.BodyTo(t, h.Outbox(), refereetest.White)
	h.Deliver(h.Reply(id, W, "HISTORY"))
	got := refereetest.BodyTo(t, h.Outbox(), refereetest.White)
	if strings.Contains(first, "not stated") || strings.Contains(got, "not stated") {
		t.Errorf("told he stated no C-move:\n%s\n---\n%s", first, got)
	}
	if !strings.Contains(got, "Your C-move") {
		t.Errorf("HISTORY lacks the C-move:\n%s", got)
	}
}
