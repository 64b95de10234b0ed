package kriegspiel

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/variant"
	"github.com/refereed/refereed/variant/varianttest"
)

// trial plays line for by on a copy of g (rebuilt from its log) and returns its public
// face as the rules define it, not as the game words it: the announcements it caused (what
// kind, by whom, Any?'s answer, the capture's square, the checks, the pawn tries, a mate or
// stalemate; never the move) and how the game then stands. ok is false when it is refused.
func trial(t testing.TB, g *Game, by chess.Color, line string) (face string, ok bool) {
	t.Helper()
	r, fail, err := variant.Replay(variant.MustLookup(g.Key()), variant.Options{FEN: g.start.FEN()}, g.Log())
	if err != nil || fail != nil {
		t.Fatalf("replay: %v %v", err, fail)
	}
	c := r.(*Game)
	c.SetQuiet(false)
	before := len(c.events)
	if _, err := send(c, by, line); err != nil {
		return "refused", false
	}
	for _, e := range c.events[before:] {
		face += fmt.Sprintf("%v %d %d %v %v %v %d %d %d %d/%d\n", e.by, e.kind, e.answer, e.captured, e.ep, e.checks, e.tries, e.end, e.fullmove, e.k, e.n)
	}
	return face + fmt.Sprintf("%+v", c.Outcome()), true
}

// lineFor writes a random line for by: a legal move, an attempt from his own men (often a
// No), an impossible one, Any?, or a short list.
func lineFor(g *Game, by chess.Color, rng *rand.Rand) string {
	one := func() string {
		switch rng.Intn(5) {
		case 0, 1:
			if len(g.legal) > 0 {
				return g.legal[rng.Intn(len(g.legal))].UCI()
			}
		case 2:
			own := g.pos.Generate(nil, chess.MoveRules{Color: by, OwnMenOnly: true})
			if len(own) > 0 {
				return own[rng.Intn(len(own))].UCI()
			}
		case 3:
			men := g.pos.ByColor(by).Squares()
			return chess.Move{From: men[rng.Intn(len(men))], To: chess.Square(rng.Intn(64))}.UCI()
		}
		return "Any?"
	}
	if rng.Intn(5) == 0 {
		return one() + ", " + one()
	}
	return one()
}

// twinScripts plays a random game in two worlds that look the same to observer: his own
// lines are the same in both (chosen among those that get the same answers in both), and
// each line of his opponent's in world a is matched in world b by another line with the same
// public face: a different move with the same announcement, a different No, a different
// impossible attempt. It stops where no such line is found.
func twinScripts(t testing.TB, rules *Rules, fen string, observer chess.Color, seed int64, steps int) (a, b []varianttest.Step, differ int) {
	rng := rand.New(rand.NewSource(seed))
	ga, _ := New(variant.Options{FEN: fen}, rules)
	gb, _ := New(variant.Options{FEN: fen}, rules)
	for len(a) < steps && !ga.Outcome().Over() {
		by := ga.pos.Turn
		var la, lb string
		found := false
		if by == observer {
			for try := 0; try < 30 && !found; try++ {
				l := lineFor(ga, by, rng)
				fa, oka := trial(t, ga, by, l)
				fb, okb := trial(t, gb, by, l)
				la, lb, found = l, l, oka && okb && fa == fb
			}
		} else {
			la = lineFor(ga, by, rng)
			fa, ok := trial(t, ga, by, la)
			if !ok {
				continue
			}
			for try := 0; try < 60 && !found; try++ {
				lb = lineFor(gb, by, rng)
				fb, okb := trial(t, gb, by, lb)
				found = okb && fb == fa
			}
			if !found {
				lb = la
				fb, okb := trial(t, gb, by, lb)
				found = okb && fb == fa
			}
		}
		if !found {
			break
		}
		if la != lb {
			differ++
		}
		varianttest.Send(t, ga, by, la)
		varianttest.Send(t, gb, by, lb)
		a = append(a, varianttest.Step{By: by, Text: la})
		b = append(b, varianttest.Step{By: by, Text: lb})
	}
	return a, b, differ
}

// Noninterference, as a property over random games: two opponent histories with the same
// public announcements (different moves, the same No, capture and check pattern; different
// impossible attempts) look the same to the observer after every step, in his notices, his
// view, whose turn it is and how the game stands (design.md, Noninterference).
func TestNoninterferenceRandomGames(t *testing.T) {
	for _, rules := range []*Rules{Kriegspiel, Progressive} {
		v := variant.MustLookup(rules.Key)
		steps, differ := 0, 0
		for seed := int64(1); seed <= 12; seed++ {
			observer := chess.Color(seed % 2)
			a, b, d := twinScripts(t, rules, "", observer, seed, 40)
			varianttest.Noninterference(t, v, variant.Options{}, observer, a, b)
			steps += len(a)
			differ += d
		}
		t.Logf("%s: %d steps, %d different", v.Key, steps, differ)
		if steps < 150 || differ < 40 {
			t.Errorf("%s: %d steps, %d of them different in the two worlds: the property is tested little", v.Key, steps, differ)
		}
	}
}

// The twins are told apart where the rules tell them apart: a capture and a No differ in
// public; two impossible attempts, or two moves with the same announcement, do not.
func TestTwinsFaces(t *testing.T) {
	g := newGame(t, Kriegspiel, "")
	for _, l := range []string{"e4", "d5"} {
		varianttest.Send(t, g, g.pos.Turn, l)
	}
	face := func(l string) string { f, _ := trial(t, g, chess.White, l); return f }
	if face("exd5") == face("exf5") {
		t.Error("a capture and a No have one face")
	}
	if face("Bf1-g3") != face("Ra1-a5") {
		t.Error("two impossible attempts have different faces")
	}
	if face("Nf3") != face("a3") || face("exf5") != face("axb3") {
		t.Error("two quiet moves, or two Nos, have different faces")
	}
}
