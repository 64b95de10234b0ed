package transactional

import (
	"fmt"
	"strings"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/record"
	"github.com/refereed/refereed/variant"
)

// Steps reads Transactional records as the literature prints them (rules.md §1.5, T:L72-80):
//
//  1. T1: Nc3      T2: a5
//  4. T1: Nxc7+(C) T2: Qxc7(C)
//  6. T5: Ne5      T4: Nb4 (R)
//
// Each turn is one move, White and Black alternating; the "T<n>:" label is optional and is
// checked against the referee's numbering with a warning (TX-D15); "(C)" and "(R)" may stand
// with or without a space; "..." for a missing White column is allowed. A promotion may be
// written "(Q)", "(N)", "(B)" or "(T)" (rook), with or without a space before it
// ("d1(Q)+(C)", "a8 (N)"): "(R)" is always a rollback here (rules.md 0.3a).
func Steps(start variant.Game, toks []record.Token, buf []variant.Step) ([]variant.Step, error) {
	steps := buf
	side := start.Position().Turn
	no := 1
	label := ""
	for _, t := range toks {
		switch t.Kind {
		case record.Number:
			fmt.Sscanf(t.Text, "%d", &no)
		case record.Symbol:
			text := t.Text
			if num, rest, ok := record.NumberAndSymbol(text); ok {
				fmt.Sscanf(num, "%d", &no)
				text = rest
			}
			if strings.Trim(text, ".") == "" || text == "…" {
				continue
			}
			if isLabel(text) {
				label = text
				continue
			}
			if j := strings.IndexByte(text, ':'); j > 1 && isLabel(text[:j+1]) {
				label, text = text[:j+1], text[j+1:] // "T1:Nc3"
			}
			after := ""
			if side == chess.Black {
				after = "..."
			}
			full := text
			if label != "" {
				full = label + " " + text
			}
			steps = append(steps, variant.Step{By: side, Text: full, Where: "move ", Num: no, After: after})
			label = ""
			side = side.Other()
		case record.Paren:
			if len(steps) == 0 {
				return nil, fmt.Errorf("%s before any move", t.Text)
			}
			st := &steps[len(steps)-1]
			word := strings.TrimRight(t.Text, "+#!?")
			marks := t.Text[len(word):]
			switch strings.ToUpper(word) {
			case "(C)", "(R)":
				// Marks written after the disposition belong to the move.
				st.Text += marks + " " + word
			default:
				// A promotion piece set apart from its move: "a8 (N)", "d1 (Q)+".
				st.Text += t.Text
			}
		case record.Result:
			return steps, nil
		case record.Comma:
			return nil, record.At(t.Offset, "unexpected comma: a Transactional turn is one move")
		}
	}
	return steps, nil
}

// isLabel reports whether s is a transaction label like "T12:".
func isLabel(s string) bool {
	if len(s) < 3 || (s[0] != 'T' && s[0] != 't') || s[len(s)-1] != ':' {
		return false
	}
	for _, c := range s[1 : len(s)-1] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
