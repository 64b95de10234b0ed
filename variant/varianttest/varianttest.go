// Package varianttest has the helpers every variant's rules tests use: send a player's line
// through Resolve and Submit, check that a line is refused without changing anything, and
// read what a player was told.
package varianttest

import (
	"strings"
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/variant"
)

// Send resolves and submits text for by, failing the test on any error.
func Send(t testing.TB, g variant.Game, by chess.Color, text string) []variant.Notice {
	t.Helper()
	cmd, _, err := g.Resolve(by, text)
	if err != nil {
		t.Fatalf("%v %q: %v", by, text, err)
	}
	ns, err := g.Submit(cmd)
	if err != nil {
		t.Fatalf("%v %q (%s): %v", by, text, cmd.Text, err)
	}
	return ns
}

// Refuse checks that text from by is rejected with a reason containing want, and that the
// game did not change.
func Refuse(t testing.TB, g variant.Game, by chess.Color, text, want string) {
	t.Helper()
	before, logLen := g.Position(), len(g.Log())
	_, _, err := g.Resolve(by, text)
	if err == nil {
		t.Fatalf("%v %q accepted, want a rejection with %q", by, text, want)
	}
	if !variant.IsRejection(err) || !strings.Contains(err.Error(), want) {
		t.Fatalf("%v %q: %v, want a rejection with %q", by, text, err, want)
	}
	after := g.Position()
	if before.FEN() != after.FEN() || len(g.Log()) != logLen {
		t.Fatalf("%v %q: a rejection changed the game", by, text)
	}
}

// TextsTo joins the texts of the notices s may read, "kind: text" when withKind.
func TextsTo(ns []variant.Notice, s chess.Color, withKind bool) string {
	var out []string
	for _, n := range ns {
		if !n.To.Has(s) || n.Text == "" {
			continue
		}
		if withKind {
			out = append(out, n.Kind+": "+n.Text)
		} else {
			out = append(out, n.Text)
		}
	}
	return strings.Join(out, "\n")
}
