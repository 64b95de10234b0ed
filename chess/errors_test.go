package chess

import (
	"errors"
	"fmt"
	"testing"
)

// Every error ParseNotation and Resolve give a player is a chess.Error: its kind and values
// say it in another language; its text is the English one.
func TestErrorsHaveKinds(t *testing.T) {
	p, err := ParseFEN("4k3/1P6/8/8/8/8/8/R3K1NR w K - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	cands := p.LegalMoves(nil)
	for _, text := range []string{"zz9", "Qxz9", "e4e5e6e7e8e9", "b8=X", "Xe4", "Nf3", "Bd4", "O-O-O", "b8", "a5b6", "Nb1", "9999", "52540"} {
		n, err := ParseNotation(text)
		if err == nil {
			_, _, err = Resolve(&p, n, cands)
		}
		if err == nil {
			continue
		}
		var ce *Error
		var we *WordsError
		if !errors.As(err, &ce) && !errors.As(err, &we) {
			t.Errorf("%q: %v is no chess.Error", text, err)
			continue
		}
		if ce != nil && fmt.Sprint(err) != ce.Text {
			t.Errorf("%q: text %q", text, ce.Text)
		}
	}
}
