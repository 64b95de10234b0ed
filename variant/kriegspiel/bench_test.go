package kriegspiel

import (
	"math/rand"
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/variant"
)

// randomGame plays a game of random attempts as a blind player makes them: about two in
// three are a No or impossible, "Any?" now and then, until the game ends or plies moves are
// made. It returns the game; its log is what the referee stores.
func randomGame(tb testing.TB, rules *Rules, seed int64, plies int) *Game {
	tb.Helper()
	rng := rand.New(rand.NewSource(seed))
	g, _ := New(variant.Options{}, rules)
	g.SetQuiet(true)
	for g.plies < plies && !g.Outcome().Over() {
		by := g.pos.Turn
		var text string
		switch r := rng.Intn(10); {
		case r == 0 && rules.any:
			text = "Any?"
		case r < 7:
			own := g.pos.Generate(nil, chess.MoveRules{Color: by, OwnMenOnly: true})
			text = own[rng.Intn(len(own))].UCI()
		default:
			text = g.legal[rng.Intn(len(g.legal))].UCI()
		}
		send(g, by, text) // refusals (a second Any?, a move after Try) are part of the walk
	}
	g.SetQuiet(false)
	return g
}

// A whole game's replay from its log stays under a millisecond: a 160-ply Kriegspiel game
// with its failed attempts and Any?s, and a Progressive Kriegspiel game of as many moves.
func BenchmarkReplay(b *testing.B) {
	for _, rules := range []*Rules{Kriegspiel, Progressive} {
		key := rules.Key
		g := randomGame(b, rules, 7, 160)
		log := g.Log()
		v := variant.MustLookup(key)
		b.Run(key, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				r, fail, err := variant.Replay(v, variant.Options{}, log)
				if err != nil || fail != nil || r.(*Game).plies != g.plies {
					b.Fatal(err, fail)
				}
			}
			b.ReportMetric(float64(g.plies), "plies")
			b.ReportMetric(float64(len(log)), "commands")
		})
	}
}

// The benchmark's games are what they claim: long, with many failed attempts, and their
// replay equals the game.
func TestBenchmarkGames(t *testing.T) {
	for _, rules := range []*Rules{Kriegspiel, Progressive} {
		g := randomGame(t, rules, 7, 160)
		nos := 0
		for _, e := range g.events {
			if e.kind == evNo {
				nos++
			}
		}
		if g.plies < 60 || nos < g.plies/3 {
			t.Errorf("%s: %d plies, %d Nos", rules.Key, g.plies, nos)
		}
		t.Logf("%s: %d plies, %d Nos, %d commands, %v", rules.Key, g.plies, nos, len(g.Log()), g.Outcome())
	}
}
