package all_test

import (
	"fmt"
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/variant"
	"github.com/refereed/refereed/variant/varianttest"
)

// randomMoves plays up to n random legal moves of by on a copy of the referee's position
// and returns them in coordinates: lines that are often legal, sometimes not (the position a
// player sees may differ from the referee's).
func randomMoves(g variant.Game, by chess.Color, n int, rng *rand.Rand) []string {
	p := g.Position()
	var out []string
	for k := 0; k < n; k++ {
		p.Turn = by
		moves := p.LegalMoves(nil)
		if len(moves) == 0 {
			break
		}
		m := moves[rng.Intn(len(moves))]
		out = append(out, m.UCI())
		p.Play(m)
	}
	return out
}

// junk is what players also write: other games' commands, typos, common commands.
var junk = []string{"", "Zz9", "e9e4", "e4e4", "Kxe8", "O-O-O", "COMMIT", "ROLLBACK", "A:", "C: !Qh8", "B: a1a1",
	"SERIES 3: e4, e5", "DRAW OFFER", "DRAW DECLINE", "DRAW ACCEPT", "BOARD", "T9: e4 (C)", "C: e5?d4/d3"}

// turnNumber reads the number of a turn name ("series 7" -> 7).
func turnNumber(g variant.Game, by chess.Color) int {
	tn, ok := g.(variant.TurnNamer)
	if !ok {
		return 1
	}
	f := strings.Fields(strings.ReplaceAll(tn.TurnName(by), ",", ""))
	if len(f) < 2 {
		return 1
	}
	n, _ := strconv.Atoi(f[1])
	return n
}

// lines writes likely lines for each registered game.
var lines = map[string]varianttest.Lines{
	"orthodox": func(g variant.Game, by chess.Color, rng *rand.Rand) string {
		if rng.Intn(6) == 0 {
			return junk[rng.Intn(len(junk))]
		}
		return strings.Join(randomMoves(g, by, 1, rng), "")
	},
	"transactional": func(g variant.Game, by chess.Color, rng *rand.Rand) string {
		if rng.Intn(6) == 0 {
			return junk[rng.Intn(len(junk))]
		}
		m := strings.Join(randomMoves(g, by, 1, rng), "")
		return m + []string{"", " (C)", " (C)", " (R)"}[rng.Intn(4)]
	},
	"progressive": seriesLines, "progressive-italian": seriesLines,
	"conditional": func(g variant.Game, by chess.Color, rng *rand.Rand) string {
		if rng.Intn(6) == 0 {
			return junk[rng.Intn(len(junk))]
		}
		tn, _ := g.(variant.TurnNamer)
		step := ""
		if tn != nil {
			step = tn.TurnName(by)
		}
		ms := randomMoves(g, by, 2, rng)
		switch {
		case len(ms) == 0:
			return "BOARD"
		case strings.Contains(step, "B-move"):
			return "B: " + ms[0]
		case len(ms) > 1 && rng.Intn(4) > 0:
			return "A: " + ms[0] + " C: !" + ms[1]
		}
		return "A: " + ms[0]
	},
}

func seriesLines(g variant.Game, by chess.Color, rng *rand.Rand) string {
	if rng.Intn(6) == 0 {
		return junk[rng.Intn(len(junk))]
	}
	n := turnNumber(g, by)
	if rng.Intn(4) == 0 {
		n += rng.Intn(3) - 1 // a series of the wrong length, now and then
	}
	ms := randomMoves(g, by, max(n, 1), rng)
	return fmt.Sprintf("SERIES %d: %s", turnNumber(g, by), strings.Join(ms, ", "))
}

// Every game keeps the Submit contract, seen only through its public interface: a refused
// command leaves the game exactly as it was (views, turn, outcome, log), and the live game
// equals its replay. A game without a line writer of its own here is walked with the plain
// one (a legal move of the mover's, or junk), so that a new game needs no line here to be held
// to the contract; its own notation deserves its own writer.
func TestEveryGameKeepsTheSubmitContract(t *testing.T) {
	for _, key := range variant.Keys() {
		if strings.HasPrefix(key, "test-") {
			continue
		}
		t.Run(key, func(t *testing.T) {
			w, ok := lines[key]
			if !ok {
				t.Logf("%s has no line writer of its own: the plain one walks it", key)
				w = lines["orthodox"]
			}
			v := variant.MustLookup(key)
			accepted := 0
			for seed := int64(1); seed <= 30; seed++ {
				accepted += varianttest.Walk(t, v, variant.Options{}, 200, seed, w)
			}
			if accepted < 100 {
				t.Errorf("only %d lines accepted in 30 games: the walk tests little", accepted)
			}
		})
	}
}

// The noninterference harness on the hidden games: what the observer may not know (a
// rolled-back move, an uncommitted one, the C-move stated) changes nothing he sees.
func TestHiddenMovesDoNotShow(t *testing.T) {
	W, B := chess.White, chess.Black
	s := func(by chess.Color, text string) varianttest.Step { return varianttest.Step{By: by, Text: text} }
	tx := variant.MustLookup("transactional")
	// TX-D14: a rolled-back pawn move and a rolled-back knight move look the same to Black.
	varianttest.Noninterference(t, tx, variant.Options{}, B,
		[]varianttest.Step{s(W, "Nc3"), s(B, "BOARD"), s(W, "ROLLBACK"), s(B, "Nc6 (C)")},
		[]varianttest.Step{s(W, "e3"), s(B, "BOARD"), s(W, "ROLLBACK"), s(B, "Nc6 (C)")})
	// An uncommitted move stays unseen.
	varianttest.Noninterference(t, tx, variant.Options{}, B,
		[]varianttest.Step{s(W, "e4"), s(B, "BOARD")},
		[]varianttest.Step{s(W, "d4"), s(B, "BOARD")})
	// CO-D8: the stated C-move is White's secret until it is played.
	co := variant.MustLookup("conditional")
	varianttest.Noninterference(t, co, variant.Options{}, B,
		[]varianttest.Step{s(W, "A: e4 C: !d4"), s(B, "BOARD"), s(W, "C: Pe5?d3/Nf3"), s(B, "BOARD")},
		[]varianttest.Step{s(W, "A: e4 C: !Nc3"), s(B, "BOARD"), s(W, "C: !f4"), s(B, "BOARD")})
}

// What export writes in the [Variant] tag (the game's name) is read back by replay, for
// every game (the PSC export once named a variant replay did not know).
func TestEveryNameIsAKey(t *testing.T) {
	for _, key := range variant.Keys() {
		v := variant.MustLookup(key)
		if got, err := variant.Lookup(v.Name); err != nil || got != v {
			t.Errorf("%s: its name %q reads as %v (%v)", key, v.Name, got, err)
		}
	}
}

// A draw offer stands until it is answered or withdrawn: the offerer may withdraw it, and
// then there is nothing to accept.
func TestDrawOfferWithdrawn(t *testing.T) {
	for _, key := range []string{"orthodox", "transactional", "progressive"} {
		g, _ := variant.MustLookup(key).New(variant.Options{})
		play := func(by chess.Color, text string) error {
			cmd, _, err := g.Resolve(by, text)
			if err == nil {
				_, err = g.Submit(cmd)
			}
			return err
		}
		if err := play(chess.White, "DRAW OFFER"); err != nil {
			t.Fatalf("%s: offer: %v", key, err)
		}
		if err := play(chess.Black, "DRAW WITHDRAW"); err == nil {
			t.Errorf("%s: Black withdrew White's offer", key)
		}
		if err := play(chess.White, "withdraw draw"); err != nil {
			t.Fatalf("%s: withdraw: %v", key, err)
		}
		if err := play(chess.Black, "DRAW ACCEPT"); err == nil || g.Outcome().Over() {
			t.Errorf("%s: a withdrawn offer was accepted", key)
		}
		if err := play(chess.White, "DRAW WITHDRAW"); err == nil {
			t.Errorf("%s: a second withdrawal was accepted", key)
		}
		// One offer a turn: offering and withdrawing cannot flood the opponent.
		if err := play(chess.White, "DRAW OFFER"); err == nil || !strings.Contains(err.Error(), "one offer a turn") {
			t.Errorf("%s: a second offer in the same turn: %v", key, err)
		}
		// Black may still offer (and White accept) in the same turn.
		if err := play(chess.Black, "DRAW OFFER"); err != nil {
			t.Errorf("%s: Black's offer: %v", key, err)
		}
		if err := play(chess.White, "DRAW ACCEPT"); err != nil || !g.Outcome().Over() {
			t.Errorf("%s: White accepts Black's offer: %v", key, err)
		}
	}
}
