package all

import (
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/variant"
)

// FuzzResolve feeds any text, as either player, to every registered game at its start and
// after a few moves: the text is read into a command or refused, never a panic, and a command
// Resolve accepted is applied by Submit or refused, never a panic either.
func FuzzResolve(f *testing.F) {
	for _, s := range []string{"e4", "T1: Nc3 (C)", "SERIES 3: Bf4, Bxc7, Bxd8", "A: e4 C: Bg5?*Nf6*/c4", "C: Td1/Kxd1/e4",
		"B: Nf6", "EP? e4", "VIEW", "draw offer", "resign", "5: Kd2 Kd3,Kxd4", "A: O-O C: !Qe2", "T99:", "(C)", "?/", "C: a8?Nf3/",
		"TURN e2-e4 / b8-c6", "e2-e4, d2-d4 / b8-c6", "Any?", "e4 NOSTOP", "CONTROL", "O-O / O-O-O", "QO-O-O",
		"cxd1(Q)+", "c:d8(Q)#", "a1(Q)+", "d1(Q)+(C)", "d1 (Q)+ (C)", "a8(N)", "a8(R)+", "T2: e8 (T)",
		"C: g7?a8(Q)/Kc2", "A: a8(Q)# C: !Kc2", "SERIES 2: b1(N), Nd2", "c8(N) Nxa7"} {
		f.Add(s, true)
	}
	openings := map[string][]string{
		"orthodox":               {"e4", "e5"},
		"transactional":          {"e4", "d5 (C)"},
		"progressive":            {"d4", "d5, Nc6"},
		"progressive-italian":    {"d4", "d5, Nc6"},
		"conditional":            {"A: e4 C: !d4", "B: e5"},
		"kriegspiel":             {"Any?\ne4", "e5"},
		"progressive-kriegspiel": {"e4", "e5, Nc6"},
		"trainwreck":             {"e2-e4 / b8-c6", "d7-d5 / e4-e5"},
		"trainwreck-three":       {"e2-e4 / b8-c6", "d7-d5, e7-e5 / e4xd5"},
		"synchronous":            {"e4", "e5"},
		"korolev":                {"d4", "d5"},
	}
	f.Fuzz(func(t *testing.T, text string, white bool) {
		by := chess.Black
		if white {
			by = chess.White
		}
		type game struct {
			key  string
			opts variant.Options
		}
		var games []game
		for _, key := range variant.Keys() {
			games = append(games, game{key, variant.Options{}})
		}
		// PSC under fog reads moves otherwise (PS-D9): on the board as its player sees it.
		games = append(games, game{"synchronous", variant.Options{Flags: map[string]string{"fog": "true"}}})
		for _, gm := range games {
			key, v := gm.key, variant.MustLookup(gm.key)
			for moves := 0; moves <= len(openings[key]); moves++ {
				g, err := v.New(gm.opts)
				if err != nil {
					t.Fatal(err)
				}
				for _, m := range openings[key][:moves] {
					if act := g.ToAct(); len(act) > 0 {
						if cmd, _, err := g.Resolve(act[0], m); err == nil {
							g.Submit(cmd)
						}
					}
				}
				cmd, _, err := g.Resolve(by, text)
				if err != nil {
					if !variant.IsRejection(err) {
						t.Fatalf("%s: %q: not a rejection: %v", key, text, err)
					}
					continue
				}
				if _, err := g.Submit(cmd); err != nil && !variant.IsRejection(err) {
					t.Fatalf("%s: %q -> %q: %v", key, text, cmd.Text, err)
				}
				g.View(variant.AsWhite)
				g.View(variant.AsBlack)
			}
		}
	})
}
