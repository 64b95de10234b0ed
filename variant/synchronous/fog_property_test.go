package synchronous

import (
	"math/rand"
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/variant"
)

// PS-D9 as a property: with fog, a player's view is the same for any two positions that
// agree on the squares his men see. Random positions are reached by random play; in each, an
// enemy man on a square the observer does not see is taken off or moved to another unseen
// empty square, and the observer's view must not change.
func TestFogShowsNothingUnseen(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	fog := variant.Options{Flags: map[string]string{OptionFog: "true"}}
	checked := 0
	for game := 0; game < 60; game++ {
		g, err := New(fog, PSC)
		if err != nil {
			t.Fatal(err)
		}
		for turn := 0; turn < 30 && !g.Outcome().Over(); turn++ {
			for _, observer := range []chess.Color{chess.White, chess.Black} {
				if checkUnseen(t, g.pos, observer, rng) {
					checked++
				}
			}
			// Both players choose a random legal move; the turn resolves.
			for _, c := range []chess.Color{chess.White, chess.Black} {
				ms := g.moves[c]
				if len(ms) == 0 {
					break
				}
				m := ms[rng.Intn(len(ms))]
				if _, err := g.Submit(variant.Command{By: c, Text: "move " + m.UCI()}); err != nil {
					t.Fatalf("%v %v: %v", c, m, err)
				}
			}
		}
	}
	if checked < 500 {
		t.Errorf("only %d positions checked", checked)
	}
}

// checkUnseen changes p where observer sees nothing and compares his fog view before and
// after; it reports whether there was anything to change.
func checkUnseen(t *testing.T, p chess.Position, observer chess.Color, rng *rand.Rand) bool {
	t.Helper()
	n := pscAttacks(&p, [2]chess.Square{chess.NoSquare, chess.NoSquare})
	seen := n.seen(&p, observer) | p.ByColor(observer)
	var hidden []chess.Square
	for b := p.ByColor(observer.Other()) &^ seen &^ p.ByRole(chess.King); b != 0; b &= b - 1 {
		hidden = append(hidden, b.First())
	}
	if len(hidden) == 0 {
		return false
	}
	q := p
	s := hidden[rng.Intn(len(hidden))]
	man := q.At(s)
	q.Remove(s)
	var empty []chess.Square
	for sq := chess.Square(0); sq < 64; sq++ {
		if !seen.Has(sq) && q.At(sq) == chess.NoPiece && sq != s && !(man.Role() == chess.Pawn && (sq.Rank() == 0 || sq.Rank() == 7)) {
			empty = append(empty, sq)
		}
	}
	if len(empty) > 0 && rng.Intn(2) == 0 {
		q.Put(empty[rng.Intn(len(empty))], man)
	}
	// The two positions must agree on what the observer sees: a man put where a pawn of his
	// could take it is seen there, and a square a pawn of his may push to is seen once it is
	// empty (a pawn reaches its diagonals only onto a man, its pushes only when free).
	nq := pscAttacks(&q, [2]chess.Square{chess.NoSquare, chess.NoSquare})
	if nq.seen(&q, observer)|q.ByColor(observer) != seen {
		return false
	}
	view := func(pos chess.Position) (string, bool) {
		g, err := New(variant.Options{FEN: pos.FEN(), Flags: map[string]string{OptionFog: "true"}}, PSC)
		if err != nil {
			t.Fatalf("%s: %v", pos.FEN(), err)
		}
		return g.View(variant.ViewerOf(observer)).Diagram(), g.Outcome().Over()
	}
	a, overA := view(p)
	b, overB := view(q)
	if overA || overB {
		return false // a game over shows everything
	}
	if a != b {
		t.Fatalf("%v sees a change where his men see nothing (%v moved or taken):\n%s\n%s\n---\n%s", observer, s, p.FEN(), a, b)
	}
	return true
}
