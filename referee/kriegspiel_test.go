package referee

import (
	"bytes"
	"strings"
	"testing"

	"github.com/refereed/refereed/chess"
)

// Kriegspiel noninterference at the mail level: two games in which one player's opponent
// plays different moves with the same public announcements (other moves, the same No,
// capture and check pattern; other impossible attempts) send that player byte-identical
// mail, while the opponent's own mails differ.
func TestKriegspielMailNoninterference(t *testing.T) {
	type step struct {
		side           chess.Color
		worldA, worldB string // one mail's body in each world
	}
	for _, c := range []struct {
		key      string
		observer chess.Color
		steps    []step
	}{
		{"kriegspiel", W, []step{
			{W, "e4", "e4"},
			{B, "d5", "f5"},
			{W, "Nc3", "Nc3"},
			{B, "axb6\nBc8-c6\ndxe4", "hxg6\nRa8-a6\nfxe4"}, // a No, an impossible attempt, a capture on e4
			{W, "Nxe4", "Nxe4"},
			{B, "Any?\nNf6", "Any?\nNf6"},
			{W, "Nxf6", "Nxf6"}, // check by a knight in both
			{B, "exf6", "gxf6"},
			{W, "d4", "d4"},
			{W, "PGN\nHISTORY\nBOARD", "PGN\nHISTORY\nBOARD"},
		}},
		{"progressive-kriegspiel", B, []step{
			{W, "e4", "d4"},
			{B, "NOSTOP a6, h6", "NOSTOP a6, h6"},
			{W, "Bf1-f3\nNf3, Nc3, a3", "Bc1-c3\nNf3, Nc3, a3"},
			{B, "Nf6", "Nf6"},
			{B, "PGN\nHISTORY\nBOARD", "PGN\nHISTORY\nBOARD"},
		}},
	} {
		t.Run(c.key, func(t *testing.T) {
			a, b := newHarness(t), newHarness(t)
			ida, idb := a.newGame(c.key), b.newGame(c.key)
			a.outbox()
			b.outbox()
			observer := map[chess.Color]string{W: ann, B: bob}[c.observer]
			hidden := map[chess.Color]string{W: ann, B: bob}[c.observer.Other()]
			hiddenDiffered := false
			for i, s := range c.steps {
				a.deliver(a.reply(ida, s.side, s.worldA))
				b.deliver(b.reply(idb, s.side, s.worldB))
				ma, mb := a.outbox(), b.outbox()
				var toA, toB [][]byte
				for _, m := range ma {
					checkMail(t, m)
					if m.To[0] == observer {
						toA = append(toA, m.Raw)
					}
				}
				if bodyTo(t, ma, hidden) != bodyTo(t, mb, hidden) {
					hiddenDiffered = true
				}
				for _, m := range mb {
					if m.To[0] == observer {
						toB = append(toB, m.Raw)
					}
				}
				if len(toA) != len(toB) {
					t.Fatalf("step %d: the observer got %d mails in world a, %d in world b", i, len(toA), len(toB))
				}
				for j := range toA {
					if !bytes.Equal(toA[j], toB[j]) {
						t.Fatalf("step %d: the observer's mail differs\n--- a\n%s\n--- b\n%s", i, toA[j], toB[j])
					}
				}
				if i == len(c.steps)-1 && len(toA) > 0 && !strings.Contains(string(toA[0]), "Announced so far:") {
					t.Errorf("the observer's mail shows no announcements:\n%s", toA[0])
				}
			}
			if !hiddenDiffered {
				t.Fatal("the hidden player's mails were the same in both worlds: the test varied nothing")
			}
		})
	}
}
