package transactional

import (
	"fmt"
	"github.com/refereed/refereed/templates"
	"math/rand"
	"strings"
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/variant"
	"github.com/refereed/refereed/variant/varianttest"
)

// candidates are by's legal moves in his view that no lock in any of the given games blocks.
func candidates(by chess.Color, games ...*Game) []chess.Move {
	_, moves := games[0].legal(by)
	var out []chess.Move
	for _, m := range moves {
		ok := true
		for _, g := range games {
			if destinations(m)&g.pl[by.Other()].locks != 0 {
				ok = false
			}
		}
		if ok {
			out = append(out, m)
		}
	}
	return out
}

// disposition picks a disposition allowed for m.
func disposition(rng *rand.Rand, g *Game, by chess.Color, m chess.Move, allowRollback bool) string {
	if tv := g.tview(by); g.mandatory(&tv, by, m) != "" {
		return []string{"", "C"}[rng.Intn(2)]
	}
	if len(g.pl[by].pending)+1 >= MaxPending {
		if allowRollback && rng.Intn(2) == 0 {
			return "R"
		}
		return "C"
	}
	choices := []string{"", "", "C"}
	if allowRollback {
		choices = append(choices, "R")
	}
	return choices[rng.Intn(len(choices))]
}

func submit(tb testing.TB, g *Game, by chess.Color, text string) []variant.Notice {
	tb.Helper()
	ns, err := g.Submit(variant.Command{By: by, Text: text})
	if err != nil {
		tb.Fatalf("%v %s: %v", by, text, err)
	}
	return ns
}

// mailTo renders what one player receives from a batch of notices: the turn his subject
// names, the texts and, where a notice asks for it, the player's view at that moment, as a
// template would.
func mailTo(g *Game, ns []variant.Notice, s chess.Color) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "[subject] (%s)\n", g.TurnName(s))
	for _, n := range ns {
		if !n.To.Has(s) {
			continue
		}
		fmt.Fprintf(&sb, "[%s] %s\n", n.Kind, templates.NoticeText(n.Kind, n.Words, n.Text, n.Args))
		switch n.Show {
		case variant.ShowView:
			sb.WriteString(g.View(variant.ViewerOf(s)).Diagram())
		case variant.ShowReveal:
			sb.WriteString(g.View(variant.AsReferee).Diagram())
		}
	}
	return sb.String()
}

// TestNoninterference: over many seeded random games, two worlds differ only in what the
// observer may not know — the hidden player's uncommitted moves, his rollbacks, his failed
// attempts and his private queries — and everything the observer receives, and his view,
// must be byte-identical (design.md: Noninterference). The hidden player's cycle is: one to
// three "junk" turns that differ between the worlds (in world a they pile up and the last
// rolls back; in world b each rolls back at once), then one real move,
// the same in both worlds, committed. The observer plays random moves that no lock of either
// world blocks. The comparison stops when either game ends (the end reveals everything).
func TestNoninterference(t *testing.T) {
	seeds := 150
	if testing.Short() {
		seeds = 30
	}
	steps := 0
	for seed := 1; seed <= seeds; seed++ {
		for _, observer := range []chess.Color{chess.White, chess.Black} {
			steps += noninterference(t, int64(seed), observer)
		}
	}
	if steps < seeds*20 {
		t.Errorf("only %d compared steps: the generator is too weak to test anything", steps)
	}
}

func noninterference(t *testing.T, seed int64, observer chess.Color) int {
	rng := rand.New(rand.NewSource(seed))
	a, b := newGame(t, ""), newGame(t, "")
	hidden := observer.Other()
	junkLeft := 1 + rng.Intn(3)
	compared := 0
	for turn := 0; turn < 160; turn++ {
		if a.Outcome().Over() || b.Outcome().Over() {
			return compared
		}
		if a.turn != b.turn {
			t.Fatalf("seed %d: the worlds disagree on whose turn it is", seed)
		}
		var na, nb []variant.Notice
		if a.turn == observer {
			moves := candidates(observer, a, b)
			if len(a.pl[hidden].pending)+len(b.pl[hidden].pending) > 0 {
				// A check now would force the hidden player to commit his junk, which would
				// rightly show: the observer avoids it while junk is pending.
				var quiet []chess.Move
				for _, m := range moves {
					pos := a.tview(observer)
					pos.Play(m)
					if pos.AttackersTo(pos.King(hidden), observer, pos.Occupied()) == 0 {
						quiet = append(quiet, m)
					}
				}
				moves = quiet
			}
			if len(moves) == 0 {
				return compared
			}
			m := moves[rng.Intn(len(moves))]
			text := strings.TrimSpace("move " + m.UCI() + " " + disposition(rng, a, observer, m, !a.pl[observer].inCheck))
			na, nb = submit(t, a, observer, text), submit(t, b, observer, text)
		} else {
			if a.pl[hidden].inCheck {
				junkLeft = 0 // he must commit this turn: no junk
			}
			if junkLeft > 0 {
				na = junk(t, rng, a, hidden, junkLeft == 1)
				// World b: a failed attempt and a private query first, then other junk.
				if moves := candidates(hidden, b); len(moves) > 0 {
					b.Resolve(hidden, "Ke5") // usually illegal: refused, nothing changes
					if locked := b.pl[observer].locks; locked != 0 {
						b.Resolve(hidden, "Q"+locked.First().String())
					}
				}
				submit(t, b, hidden, "view")
				nb = junk(t, rng, b, hidden, true) // world b rolls back every junk turn
				b.Resolve(hidden, "Ke5")
				junkLeft--
			} else {
				moves := candidates(hidden, a, b)
				if len(moves) == 0 {
					return compared
				}
				m := moves[rng.Intn(len(moves))]
				text := "move " + m.UCI() + " C"
				na, nb = submit(t, a, hidden, text), submit(t, b, hidden, text)
				junkLeft = 1 + rng.Intn(3)
			}
		}
		if a.Outcome().Over() || b.Outcome().Over() {
			return compared
		}
		ma, mb := mailTo(a, na, observer), mailTo(b, nb, observer)
		if ma != mb {
			t.Fatalf("seed %d, observer %v, turn %d: the observer's mail differs\n--- world a\n%s\n--- world b\n%s", seed, observer, turn, ma, mb)
		}
		va, vb := varianttest.Seen(a, variant.ViewerOf(observer)), varianttest.Seen(b, variant.ViewerOf(observer))
		if va != vb {
			t.Fatalf("seed %d, observer %v, turn %d: the observer's view differs\n%s\n%s", seed, observer, turn, va, vb)
		}
		compared++
	}
	return compared
}

// TestNoninterferenceFiftyMoves (TX-D14): two games that differ only in one rolled-back
// White move, a knight's (Nc3 (R)) or a pawn's (e3 (R)), give Black byte-identical mail and
// views all along, and end at the same turn, in the same words: counting the 50-move rule on
// the potential view told Black of the rolled-back pawn move when the draw did not come.
func TestNoninterferenceFiftyMoves(t *testing.T) {
	a, b := newGame(t, ""), newGame(t, "")
	na, nb := submit(t, a, chess.White, "move b1c3 R"), submit(t, b, chess.White, "move e2e3 R")
	shuffle := []struct {
		by   chess.Color
		text string
	}{
		{chess.Black, "move g8f6 C"}, {chess.White, "move g1f3 C"}, {chess.Black, "move f6g8 C"}, {chess.White, "move f3g1 C"},
	}
	for turn := 0; ; turn++ {
		if ma, mb := mailTo(a, na, chess.Black), mailTo(b, nb, chess.Black); a.Outcome().Over() || b.Outcome().Over() {
			if a.Outcome() != b.Outcome() {
				t.Fatalf("turn %d: the games end differently: %+v / %+v", turn, a.Outcome(), b.Outcome())
			}
			if ga, gb := varianttest.TextsTo(na, chess.Black, true), varianttest.TextsTo(nb, chess.Black, true); strings.Split(ga, "\n")[0] != strings.Split(gb, "\n")[0] {
				t.Errorf("turn %d: Black is told of the end differently:\n%s\n--\n%s", turn, ga, gb)
			}
			if out := a.Outcome(); out.Termination != "fifty-move rule" || turn != 99 { // 100 turns played
				t.Errorf("ended at turn %d: %+v, want the 50-move rule after 100 turns", turn, out)
			}
			return
		} else if ma != mb {
			t.Fatalf("turn %d: Black's mail differs\n--- Nc3 (R)\n%s\n--- e3 (R)\n%s", turn, ma, mb)
		}
		if va, vb := varianttest.Seen(a, variant.AsBlack), varianttest.Seen(b, variant.AsBlack); va != vb {
			t.Fatalf("turn %d: Black's view differs\n%s\n%s", turn, va, vb)
		}
		s := shuffle[turn%len(shuffle)]
		na, nb = submit(t, a, s.by, s.text), submit(t, b, s.by, s.text)
	}
}

// junk plays a random move for by that forces no commit, rolled back when last is set.
func junk(t *testing.T, rng *rand.Rand, g *Game, by chess.Color, last bool) []variant.Notice {
	var free []chess.Move
	tv := g.tview(by)
	for _, m := range candidates(by, g) {
		if g.mandatory(&tv, by, m) == "" {
			free = append(free, m)
		}
	}
	if len(free) == 0 {
		t.Skip("no junk move available") // practically never; keeps the generator honest
	}
	m := free[rng.Intn(len(free))]
	disp := ""
	if last || len(g.pl[by].pending)+1 >= MaxPending {
		disp = " R"
	}
	return submit(t, g, by, "move "+m.UCI()+disp)
}

// randomLog plays a random game of up to turns turns and returns its log.
func randomLog(tb testing.TB, seed int64, turns int) []variant.Command {
	rng := rand.New(rand.NewSource(seed))
	g, _ := New(variant.Options{})
	for i := 0; i < turns && !g.Outcome().Over(); i++ {
		by := g.turn
		moves := candidates(by, g)
		if len(moves) == 0 {
			break
		}
		m := moves[rng.Intn(len(moves))]
		submit(tb, g, by, strings.TrimSpace("move "+m.UCI()+" "+disposition(rng, g, by, m, !g.pl[by].inCheck)))
	}
	return g.Log()
}

// TestRandomLogsReplay: the state is a pure function of the log.
func TestRandomLogsReplay(t *testing.T) {
	v := variant.MustLookup(Key)
	for seed := int64(1); seed <= 40; seed++ {
		log := randomLog(t, seed, 300)
		g, fail, err := variant.Replay(v, variant.Options{}, log)
		if err != nil || fail != nil {
			t.Fatalf("seed %d: %v %v", seed, err, fail)
		}
		h, _, _ := variant.Replay(v, variant.Options{}, log)
		gp, hp := g.Position(), h.Position()
		if gp.FEN() != hp.FEN() || g.View(variant.AsWhite).Diagram() != h.View(variant.AsWhite).Diagram() {
			t.Fatalf("seed %d: two replays of one log differ", seed)
		}
	}
}
