package all_test

import (
	"math/rand"
	"strings"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/variant"
)

// The line writers of Kriegspiel and Progressive Kriegspiel: attempts that are legal, that
// get a "No", that are impossible from the player's own men, "Any?", lists of attempts (with
// NOSTOP now and then), and junk.
func init() {
	lines["kriegspiel"] = kriegspielLines
	lines["progressive-kriegspiel"] = kriegspielLines
}

func kriegspielLines(g variant.Game, by chess.Color, rng *rand.Rand) string {
	attempt := func() string {
		p := g.Position()
		switch rng.Intn(4) {
		case 0: // any move his own men could make: often a No
			own := p.Generate(nil, chess.MoveRules{Color: by, OwnMenOnly: true})
			if len(own) > 0 {
				return own[rng.Intn(len(own))].UCI()
			}
		case 1: // a man of his to any square: often impossible
			men := p.ByColor(by).Squares()
			if len(men) > 0 {
				return chess.Move{From: men[rng.Intn(len(men))], To: chess.Square(rng.Intn(64))}.UCI()
			}
		}
		if ms := randomMoves(g, by, 1, rng); len(ms) > 0 {
			return ms[0]
		}
		return "e2e4"
	}
	switch rng.Intn(10) {
	case 0:
		return junk[rng.Intn(len(junk))]
	case 1:
		return "Any?"
	case 2, 3:
		items := []string{attempt(), attempt(), attempt()}[:1+rng.Intn(3)]
		prefix := []string{"", "try ", "NOSTOP ", "Any? "}[rng.Intn(4)]
		return prefix + strings.Join(items, []string{"; ", ", ", " else "}[rng.Intn(3)])
	}
	return attempt()
}
