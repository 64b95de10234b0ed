package all

import (
	"strings"
	"testing"

	"github.com/refereed/refereed/record"
	"github.com/refereed/refereed/variant"
)

// Issue 21: a move number that does not fit the count is a warning in every game's record,
// never read silently and never a refusal: the count goes on, and the game is valid.
func TestWrongMoveNumbersWarn(t *testing.T) {
	for _, c := range []struct{ variant, movetext, warn string }{
		{"Orthodox", "1. e4 e5 3. Nf3 *", "the move number 3. does not fit: 2. is due here"},
		{"Orthodox", "0. e4 *", "the move number 0. does not fit: 1. is due here"},
		{"Orthodox", "1. e4 1. e5 *", "the move number 1. does not fit: 1... is due here"},
		{"Orthodox", "1. e4 e5 2... Nf3 *", "the move number 2... does not fit: 2. is due here"},
		{"Kriegspiel", "1. e4 e5 3. Nf3 *", "the move number 3. does not fit: 2. is due here"},
		{"Synchronous", "1. e4 e5 3. Nf3 Nc6 *", "the move number 3. does not fit: 2. is due here"},
		{"Korolev", "1. e4 e5 2... Nf3 Nc6 *", "the move number 2... does not fit: 2. is due here"},
		{"Train Wreck", "1. e2e4/b8c6 d7d5/g1f3 3. d2d4/c6d4 *", "the move number 3. does not fit: 2. is due here"},
		{"Progressive", "1 e4 3 e5, d5 *", "the move number 3 does not fit: 2 is due here"},
		{"Progressive Kriegspiel", "1 e4 3 e5, d5 *", "the move number 3 does not fit: 2 is due here"},
	} {
		pgn := "[Variant \"" + c.variant + "\"]\n\n" + c.movetext + "\n"
		rec, err := record.NewReader(strings.NewReader(pgn)).Next()
		if err != nil {
			t.Fatal(err)
		}
		r, err := variant.ReplayRecord(rec)
		if err != nil {
			t.Fatalf("%s %q: %v", c.variant, c.movetext, err)
		}
		if r.Failure != nil {
			t.Errorf("%s %q: invalid (%v), want valid with a warning", c.variant, c.movetext, r.Failure.Err)
			continue
		}
		if !strings.Contains(strings.Join(r.Warnings, "\n"), c.warn) {
			t.Errorf("%s %q: warnings %q, want %q", c.variant, c.movetext, r.Warnings, c.warn)
		}
	}
}
