package referee

import (
	"bytes"
	"testing"

	"github.com/refereed/refereed/chess"
)

// TestMailNoninterference: two games differ only in what White may not know — Black's pending
// moves against his rollbacks, his refused attempts, his private queries — and every mail
// White receives is byte-identical (design.md: Noninterference, at the mail level). Batches
// are left out on purpose: a batch line is played at once, so the opponent's next prompt
// comes sooner; that is the speed of the mail, not the state of the game (TX-D12).
func TestMailNoninterference(t *testing.T) {
	type step struct {
		side   chess.Color
		worldA []string // mails (bodies) sent in world a
		worldB []string
	}
	steps := []step{
		{W, []string{"e4"}, []string{"e4"}},
		{B, []string{"Nc6"}, []string{"Qxe4\nZz9", "VIEW\nHISTORY", "Nf6 (R)"}},
		{W, []string{"d4"}, []string{"d4"}},
		{B, []string{"Nb4"}, []string{"h6"}},
		{W, []string{"Nc3"}, []string{"Nc3"}},
		{B, []string{"Nc6 (R)"}, []string{"h5 (R)\nBOARD"}},
		{W, []string{"Nf3"}, []string{"Nf3"}},
		{B, []string{"e5 (C)"}, []string{"EP? e4", "e5 (C)"}}, // both commit the same men
	}
	a, b := newHarness(t), newHarness(t)
	blackDiffered := false
	ida, idb := a.newGame("transactional"), b.newGame("transactional")
	for i, s := range steps {
		for _, body := range s.worldA {
			a.deliver(a.reply(ida, s.side, body))
		}
		for _, body := range s.worldB {
			b.deliver(b.reply(idb, s.side, body))
		}
		ma, mb := a.outbox(), b.outbox()
		if bodyTo(t, ma[len(ma)-1:], bob) != bodyTo(t, mb[len(mb)-1:], bob) {
			blackDiffered = true
		}
		var toA, toB [][]byte
		for _, m := range ma {
			if m.To[0] == ann {
				toA = append(toA, m.Raw)
			}
		}
		for _, m := range mb {
			if m.To[0] == ann {
				toB = append(toB, m.Raw)
			}
		}
		if len(toA) != len(toB) {
			t.Fatalf("step %d: White got %d mails in world a, %d in world b", i, len(toA), len(toB))
		}
		for j := range toA {
			if !bytes.Equal(toA[j], toB[j]) {
				t.Fatalf("step %d: White's mail differs\n--- a\n%s\n--- b\n%s", i, toA[j], toB[j])
			}
		}
	}
	if !blackDiffered {
		t.Fatal("Black's own mails were the same in both worlds: the test varied nothing")
	}
}
