package e2e

import (
	"strings"
	"testing"
	"time"
)

// The games added in this round, each played a few moves by mail through the binary and the
// mail server: the answers arrive, say what happened, and the hidden games hide.
func TestNewGamesByMail(t *testing.T) {
	e := newEnv(t)
	e.start()
	cases := []struct {
		variant  string
		white    string // White's first mail
		black    string // Black's answer
		annSees  []string
		bobSees  []string
		bobNever []string // what Black must not be told
	}{
		{"kriegspiel", "e4", "Any?\ne5", []string{"Black asks", "Played"}, []string{"White: Played", "Your men"}, []string{"e2-e4", "e4"}},
		{"trainwreck", "e2-e4 / b8-c6", "d7-d5 / e4-e5", []string{"Black played turn 1"}, []string{"Black played turn 1", "White to play turn 2"}, nil},
		{"synchronous", "e4", "d5", []string{"Turn 1: White played e4, Black played d5."}, []string{"Turn 1: White played e4, Black played d5."}, []string{"e4"}},
	}
	for i, c := range cases {
		ann, bob := e.addr(c.variant+"a"), e.addr(c.variant+"b")
		if e.real {
			ann, bob = e.addr([]string{"ann", "carl", "w0"}[i]), e.addr([]string{"bob", "dana", "b0"}[i])
		}
		mustContain(t, "new "+c.variant, e.admin("new", "--variant", c.variant, "--white", ann, "--black", bob), "created")
		e.reply(ann, 1, c.white)
		msgs := e.waitMail(bob, 2, 30*time.Second)
		news := msgs[len(msgs)-1].Body
		for _, never := range c.bobNever {
			if strings.Contains(news, never) {
				t.Errorf("%s: Black is told %q:\n%s", c.variant, never, news)
			}
		}
		e.reply(bob, len(msgs), c.black)
		bobLast := e.waitMail(bob, len(msgs)+1, 30*time.Second)
		mustContain(t, c.variant+": Black's answer", bobLast[len(bobLast)-1].Body, c.bobSees...)
		annLast := e.waitMail(ann, 3, 30*time.Second)
		mustContain(t, c.variant+": White's news", annLast[len(annLast)-1].Body, c.annSees...)
	}
}
