package all_test

import (
	"math/rand"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/variant"
)

// Line writers for the synchronous games (PSC and Korolev): a move drawn from the
// geometry of chess for the player (often refused in PSC for want of control, or as a
// second move in the same turn), written in coordinates or as MOVE, with CONTROL, a
// self-capture try or junk now and then.
func init() {
	lines["synchronous"] = synchronousLines
	lines["korolev"] = synchronousLines
}

func synchronousLines(g variant.Game, by chess.Color, rng *rand.Rand) string {
	switch rng.Intn(12) {
	case 0:
		return junk[rng.Intn(len(junk))]
	case 1:
		return "CONTROL"
	}
	p := g.Position()
	rules := chess.MoveRules{Color: by, Pseudo: rng.Intn(3) == 0, SelfCapture: rng.Intn(4) == 0}
	ms := p.Generate(nil, rules)
	if len(ms) == 0 {
		return "BOARD"
	}
	m := ms[rng.Intn(len(ms))]
	if rng.Intn(2) == 0 {
		return "MOVE " + m.UCI()
	}
	return m.UCI()
}
