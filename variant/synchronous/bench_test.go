package synchronous

import (
	"math/rand"
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/variant"
)

// randomLog plays up to turns turns of random moves and returns the log.
func randomLog(korolev bool, turns int) []variant.Command {
	rng := rand.New(rand.NewSource(1))
	rules := PSC
	if korolev {
		rules = Korolev
	}
	g, _ := New(variant.Options{}, rules)
	g.SetQuiet(true)
	for i := 0; i < turns && !g.Outcome().Over(); i++ {
		for _, c := range []chess.Color{chess.White, chess.Black} {
			ms := g.moves[c]
			if g.Outcome().Over() || len(ms) == 0 {
				break
			}
			g.Submit(variant.Command{By: c, Text: "move " + ms[rng.Intn(len(ms))].UCI()})
		}
	}
	return g.Log()
}

// A whole game's replay from its log (up to 100 turns): the issue asks for a millisecond.
func BenchmarkReplay100Turns(b *testing.B) {
	for _, key := range []string{Key, KeyKorolev} {
		b.Run(key, func(b *testing.B) {
			v := variant.MustLookup(key)
			log := randomLog(key == KeyKorolev, 100)
			b.ReportMetric(float64(len(log))/2, "turns")
			for i := 0; i < b.N; i++ {
				if _, fail, err := variant.Replay(v, variant.Options{}, log); err != nil || fail != nil {
					b.Fatal(err, fail)
				}
			}
		})
	}
}
