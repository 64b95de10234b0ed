package trainwreck

import (
	"regexp"
	"strings"
	"testing"

	"github.com/refereed/refereed/templates"
	"github.com/refereed/refereed/variant"
	"github.com/refereed/refereed/variant/varianttest"
)

// SAN is read for the colour each part moves (rules.md 9.4): "Nf6" is White's knight in part
// 1 and Black's in part 2, though both could go there; it is refused only when ambiguous
// among the men of the colour moved.
func TestSANForTheColourMoved(t *testing.T) {
	const fen = "r3k1nr/8/8/8/6N1/8/8/4K3 w - - 0 1"
	g := newGame(t, false, fen, nil)
	cmd, _, err := g.Resolve(W, "Nf6 / Nf6")
	if err != nil || cmd.Text != "turn g4f6/g8f6" {
		t.Errorf("Nf6 / Nf6: %q %v", cmd.Text, err)
	}
	g = newGame(t, false, "4k1nr/3n4/8/8/6N1/8/8/4K3 w - - 0 1", nil)
	refuse(t, g, W, "Ne5 / Nf6", "part 2 (Nf6): ambiguous: Nd7-f6 or Ng8-f6; name the man's square")
	varianttest.Send(t, g, W, "Ne5 / Ng8-f6")
	// A capture sign on a move that takes nothing is a probable mistake; a missing one is
	// not; check marks mean nothing here.
	g = newGame(t, false, fen, nil)
	refuse(t, g, W, "Nxf6 / Nf6", "part 1 (Nxf6): f6 is empty")
	if _, warns, err := g.Resolve(W, "Ng4xh6?? / Ng8-f6+"); err == nil {
		t.Errorf("Ng4xh6: %v", warns)
	}
	if _, warns, err := g.Resolve(W, "Nf6+ / Ng8-h6#"); err != nil || len(warns) != 0 {
		t.Errorf("check marks: %v %v", warns, err)
	}
}

var ruleID = regexp.MustCompile(`\b[A-Z]{2}-D\d+\b|rules\.md|\b0\.[34][a-c]?\b`)

// Everything a player reads from the game, in games that meet every sentence it has (turns
// with captures, castlings of both men, promotions, the courtesy note, every ending, a
// refusal of each kind): rendered in full from templates/words, and without a rule ID.
func TestWordsForPlayers(t *testing.T) {
	on := map[string]string{OptionNote: "on"}
	games := []struct {
		three bool
		fen   string
		flags map[string]string
		lines []string
	}{
		{false, "", on, []string{"e2-e4", "e2-e4 / e2-e3", "e4 / d7-d5", "dxe4 / Bf1-b5", "Bxe8"}},
		{false, "r2qk2r/p7/8/8/5b2/8/8/R2QK2R w KQkq - 0 1", nil, []string{"QO-O-O / QO-O-O", "O-O / Qb1-b3", "Qxg8"}},
		{false, "4k3/1P6/8/8/8/8/p7/4K3 w - - 0 1", nil, []string{"b8 / a1", "b8=K / a1=Q", "b8=N / a1=Q", "Qxe1"}},
		{false, "4k3/4p3/4P3/8/8/8/8/4K2R w K - 0 1", nil, []string{"Rh2 / Ke7", "O-O"}},
		{false, "8/8/2K5/8/p7/8/P7/7k w - - 0 1", nil, []string{"Kc7 / a3"}},
		{false, "4k3/8/8/8/8/5n2/8/4K2R w - - 0 1", nil, []string{"Rh2 / Nf3xe1"}},
		{true, "K7/4p3/8/4P3/8/8/8/7k w - - 0 3", nil, []string{"e6, Kb7 / e7xd6", "e6"}},
		{true, "", nil, []string{"e4, d4 / Nc6", "e4 / Nc6", "d5 / e5", "d5, e5 / exd5", "black: resign"}},
	}
	for _, c := range games {
		g := newGame(t, c.three, c.fen, c.flags)
		var told []string
		look := func() {
			for _, v := range []variant.Viewer{variant.AsWhite, variant.AsBlack} {
				told = append(told, g.View(v).Diagram())
			}
			told = append(told, g.Outcome().Reason)
		}
		look()
		for _, l := range c.lines {
			by, text := who(g, l)
			cmd, warns, err := g.Resolve(by, text)
			for _, w := range warns {
				told = append(told, w.Text)
			}
			if err == nil {
				var ns []variant.Notice
				ns, err = g.Submit(cmd)
				for _, n := range ns {
					if n.Words != "" && !templates.HasWords("", n.Words) {
						t.Errorf("no sentence %q in templates/words", n.Words)
					}
					told = append(told, templates.NoticeText(n.Kind, n.Words, n.Text, n.Args))
				}
			}
			if err != nil {
				told = append(told, err.Error())
			}
			look()
		}
		if !g.Outcome().Over() {
			t.Errorf("%q: the game did not end, so its end was not read", c.lines)
		}
		for _, s := range told {
			if id := ruleID.FindString(s); id != "" {
				t.Errorf("a rule ID (%s) in %q", id, s)
			}
			if strings.Contains(s, "[trainwreck") || strings.Contains(s, "[move]") || strings.Contains(s, "<no value>") {
				t.Errorf("a sentence without its words: %q", s)
			}
		}
	}
}
