package chess

import (
	"strings"
	"testing"
)

// A promotion written in numeric notation without its piece is told the numeric way.
func TestNumericPromotionUnsaid(t *testing.T) {
	p, err := ParseFEN("4k3/P7/8/8/8/8/8/K7 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = p.ParseMove("1718")
	if err == nil || !strings.Contains(err.Error(), "say which piece the pawn becomes, like 17181 for a queen") {
		t.Errorf("numeric promotion without its piece: %v", err)
	}
}
