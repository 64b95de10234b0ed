package ifmoves

import (
	"strings"
	"testing"
)

// FuzzLine: any line is an IF line or not, never a panic; an IF line's moves are
// its words less move numbers, never more than it has.
func FuzzLine(f *testing.F) {
	for _, s := range []string{"IF Nc6 Bb5", "if list", "IF CLEAR", "IF 2... Nc6 3. Bb5 a6 4.Ba4", "IF", "iffy", "IF 5254 5755", "IF ((", "IF {x}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		verb, moves, ok := Parse(line)
		if !ok {
			return
		}
		if n := len(strings.Fields(line)) - 1; len(moves) > n || (verb != "state" && len(moves) != 0) {
			t.Fatalf("%q: %s with %d moves from %d words", line, verb, len(moves), n)
		}
	})
}
