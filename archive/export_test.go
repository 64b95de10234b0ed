package archive

import (
	"strings"
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/variant"
	_ "github.com/refereed/refereed/variant/all"
)

// TestPlayerPGNStart: a player's PGN names the start position where he may know the whole
// of it, and only there (issue 33); the referee's export always does.
func TestPlayerPGNStart(t *testing.T) {
	const fen = "1n2k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K3 w - - 0 1"
	for _, c := range []struct {
		key   string
		flags map[string]string
		moves []string // played before the PGN is written
		want  bool     // White's PGN carries the FEN
	}{
		{key: "orthodox", want: true},
		{key: "progressive", want: true},
		{key: "korolev", want: true},
		{key: "synchronous", want: true},
		{key: "synchronous", flags: map[string]string{"fog": "true"}, want: false},
		{key: "kriegspiel", want: false},
		{key: "progressive-kriegspiel", want: false},
		{key: "kriegspiel", moves: []string{"resign"}, want: true}, // over: nothing is secret
	} {
		v := variant.MustLookup(c.key)
		g, err := v.New(variant.Options{FEN: fen, Flags: c.flags})
		if err != nil {
			t.Fatalf("%s: %v", c.key, err)
		}
		for _, m := range c.moves {
			cmd, _, err := g.Resolve(chess.White, m)
			if err == nil {
				_, err = g.Submit(cmd)
			}
			if err != nil {
				t.Fatalf("%s: %s: %v", c.key, m, err)
			}
		}
		l := &Game{Stored: &store.Game{ID: 1, Variant: c.key, FEN: fen, Flags: c.flags}, Variant: v, Live: g}
		for _, s := range []chess.Color{chess.White, chess.Black} {
			pgn, err := PlayerPGN(l, s, false)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(string(pgn), `[FEN "`+fen+`"]`); got != c.want {
				t.Errorf("%s %v %v: FEN in %v's PGN: %v, want %v\n%s", c.key, c.flags, c.moves, s, got, c.want, pgn)
			}
		}
	}
}
