package kriegspiel_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/referee/refereetest"
	"github.com/refereed/refereed/templates/mailcheck"
	"github.com/refereed/refereed/variant"
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
		{"kriegspiel", chess.White, []step{
			{chess.White, "e4", "e4"},
			{chess.Black, "d5", "f5"},
			{chess.White, "Nc3", "Nc3"},
			{chess.Black, "axb6\nBc8-c6\ndxe4", "hxg6\nRa8-a6\nfxe4"}, // a No, an impossible attempt, a capture on e4
			{chess.White, "Nxe4", "Nxe4"},
			{chess.Black, "Any?\nNf6", "Any?\nNf6"},
			{chess.White, "Nxf6", "Nxf6"}, // check by a knight in both
			{chess.Black, "exf6", "gxf6"},
			{chess.White, "d4", "d4"},
			{chess.White, "PGN\nHISTORY\nBOARD", "PGN\nHISTORY\nBOARD"},
		}},
		{"progressive-kriegspiel", chess.Black, []step{
			{chess.White, "e4", "d4"},
			{chess.Black, "NOSTOP a6, h6", "NOSTOP a6, h6"},
			{chess.White, "Bf1-f3\nNf3, Nc3, a3", "Bc1-c3\nNf3, Nc3, a3"},
			{chess.Black, "Nf6", "Nf6"},
			{chess.Black, "PGN\nHISTORY\nBOARD", "PGN\nHISTORY\nBOARD"},
		}},
	} {
		t.Run(c.key, func(t *testing.T) {
			a, b := refereetest.New(t), refereetest.New(t)
			ida, idb := a.NewGame(c.key, variant.Options{}), b.NewGame(c.key, variant.Options{})
			a.Outbox()
			b.Outbox()
			observer := map[chess.Color]string{chess.White: refereetest.White, chess.Black: refereetest.Black}[c.observer]
			hidden := map[chess.Color]string{chess.White: refereetest.White, chess.Black: refereetest.Black}[c.observer.Other()]
			hiddenDiffered := false
			for i, s := range c.steps {
				a.Deliver(a.Reply(ida, s.side, s.worldA))
				b.Deliver(b.Reply(idb, s.side, s.worldB))
				ma, mb := a.Outbox(), b.Outbox()
				var toA, toB [][]byte
				for _, m := range ma {
					mailcheck.Check(t, m)
					if m.To[0] == observer {
						toA = append(toA, m.Raw)
					}
				}
				if refereetest.BodyTo(t, ma, hidden) != refereetest.BodyTo(t, mb, hidden) {
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
