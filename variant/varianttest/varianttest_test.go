package varianttest_test

import (
	"fmt"
	"math/rand"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/variant"
	"github.com/refereed/refereed/variant/orthodox"
	"github.com/refereed/refereed/variant/varianttest"
)

// leaky is orthodox chess with a bug: a refused move is still counted, and the count shows in
// every view (as Conditional once changed the game during an A-move it then refused).
type leaky struct {
	*orthodox.Game
	refused int
}

func (l *leaky) Submit(cmd variant.Command) ([]variant.Notice, error) {
	ns, err := l.Game.Submit(cmd)
	if err != nil {
		l.refused++
	}
	return ns, err
}

func (l *leaky) Resolve(by variant.Side, text string) (variant.Command, []chess.Warning, error) {
	if strings.HasPrefix(text, "raw ") { // passes anything to Submit, so Submit must refuse
		return variant.Command{By: by, Text: "move " + strings.TrimPrefix(text, "raw ")}, nil, nil
	}
	return l.Game.Resolve(by, text)
}

func (l *leaky) View(v variant.Viewer) variant.View {
	view := l.Game.View(v)
	view.Lines = append(view.Lines, variant.Text(fmt.Sprintf("refused so far: %d", l.refused)))
	return view
}

// recorder is a testing.TB whose Fatalf is recorded instead of failing the real test.
type recorder struct {
	testing.TB
	msg string
}

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(format string, a ...any) {
	r.msg = fmt.Sprintf(format, a...)
	runtime.Goexit()
}

// Walk catches a game that changes when it refuses a command.
func TestWalkCatchesARefusalThatChangesTheGame(t *testing.T) {
	v := &variant.Variant{Key: "leaky", New: func(o variant.Options) (variant.Game, error) {
		g, err := orthodox.New(o)
		return &leaky{Game: g}, err
	}}
	r := &recorder{TB: t}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		varianttest.Walk(r, v, variant.Options{}, 50, 1, func(g variant.Game, by chess.Color, rng *rand.Rand) string {
			return "raw a1a8"
		})
	}()
	wg.Wait()
	if !strings.Contains(r.msg, "was refused") || !strings.Contains(r.msg, "changed the game") {
		t.Fatalf("Walk did not catch it: %q", r.msg)
	}
}

// mute is orthodox chess with a refusal whose sentence is missing from the words.
type mute struct{ *orthodox.Game }

func (m mute) Resolve(by variant.Side, text string) (variant.Command, []chess.Warning, error) {
	return variant.Command{}, nil, variant.Refuse("orthodox/no-such-sentence", map[string]any{"Text": text})
}

// Walk catches a refusal in words that do not exist.
func TestWalkCatchesAMissingSentence(t *testing.T) {
	v := &variant.Variant{Key: "mute", New: func(o variant.Options) (variant.Game, error) {
		g, err := orthodox.New(o)
		return mute{g}, err
	}}
	r := &recorder{TB: t}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		varianttest.Walk(r, v, variant.Options{}, 5, 1, func(g variant.Game, by chess.Color, rng *rand.Rand) string { return "e4" })
	}()
	wg.Wait()
	if !strings.Contains(r.msg, "words that are missing") || !strings.Contains(r.msg, "orthodox/no-such-sentence") {
		t.Fatalf("Walk did not catch it: %q", r.msg)
	}
}
