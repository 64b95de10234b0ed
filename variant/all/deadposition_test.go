package all

import (
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/variant"
	"github.com/refereed/refereed/variant/varianttest"
)

// rules.md 0.4c (changed 2026-11-25): a dead position is one no sequence of moves can mate,
// by material: king against king, king and one minor piece against a lone king, and only
// bishops, all on squares of one colour. King and knight against king and knight (Nc7#) or
// king and bishop against king and bishop on squares of different colours (Bd5#) can mate,
// and such games go on to the mate in every game that applies the rule. Korolev's game keeps
// only the first two (KO-D5).
func TestDeadPositions(t *testing.T) {
	for _, c := range []struct {
		fen           string
		dead, korDead bool
	}{
		{"8/8/8/4k3/8/8/8/4K3 w - - 0 1", true, true},
		{"8/8/8/4k3/8/8/3N4/4K3 w - - 0 1", true, true},
		{"8/8/8/4k3/8/8/3b4/4K3 w - - 0 1", true, true},
		{"8/8/8/4k3/2b5/3B4/8/4K3 w - - 0 1", true, false},   // bishops on one colour
		{"8/1b6/8/4k3/2b5/3B4/8/4K3 w - - 0 1", true, false}, // three, one colour
		{"8/8/8/4kb2/8/8/3B4/4K3 w - - 0 1", false, false},   // bishops on both colours
		{"kn6/8/1K2N3/8/8/8/8/8 w - - 0 1", false, false},    // 1. Nc7#
		{"kb6/8/1K6/8/2B5/8/8/8 w - - 0 1", false, false},    // 1. Bd5#
		{"8/8/8/4k3/8/8/2NN4/4K3 w - - 0 1", false, false},   // two knights
		{"8/8/8/4k3/8/8/2NB4/4K3 w - - 0 1", false, false},   // knight and bishop
		{"8/8/8/4k3/8/8/3P4/4K3 w - - 0 1", false, false},    // a pawn
	} {
		p, err := chess.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.InsufficientMaterial(); got != c.dead {
			t.Errorf("%s: dead %v, want %v", c.fen, got, c.dead)
		}
		if got := p.KingsAndOneMinorAtMost(); got != c.korDead {
			t.Errorf("%s: dead in Korolev's game %v, want %v", c.fen, got, c.korDead)
		}
		for _, key := range []string{"progressive", "progressive-italian", "kriegspiel", "progressive-kriegspiel", "conditional", "korolev"} {
			g, err := variant.MustLookup(key).New(variant.Options{FEN: c.fen})
			if err != nil {
				t.Fatalf("%s %s: %v", key, c.fen, err)
			}
			want := c.dead
			if key == "korolev" {
				want = c.korDead
			}
			if got := g.Outcome().Over() && g.Outcome().Termination == "insufficient material"; got != want {
				t.Errorf("%s %s: drawn as dead %v (%+v), want %v", key, c.fen, got, g.Outcome(), want)
			}
		}
	}
	// The mates the old rule took away, played.
	for _, c := range []struct{ fen, mate string }{
		{"kn6/8/1K2N3/8/8/8/8/8 w - - 0 1", "e6c7"},
		{"kb6/8/1K6/8/2B5/8/8/8 w - - 0 1", "c4d5"},
	} {
		for _, key := range []string{"progressive", "progressive-italian", "kriegspiel", "progressive-kriegspiel", "conditional"} {
			g, _ := variant.MustLookup(key).New(variant.Options{FEN: c.fen})
			text := c.mate
			if key == "conditional" {
				text = "A: " + c.mate
			}
			varianttest.Send(t, g, chess.White, text)
			if out := g.Outcome(); out.Result != "1-0" || out.Termination != "checkmate" {
				t.Errorf("%s %s %s: %+v, want White's mate", key, c.fen, c.mate, out)
			}
		}
	}
}
