package templates

import (
	"fmt"
	"strings"
	"testing"
)

// A game's HELP text, as the variants write it (columns, continuation lines, lines longer
// than a mail's, a long term, prose), is laid out in columns of at most Width.
func TestColumns(t *testing.T) {
	help := "T5: Nc6 (C)      a move, then commit; (R) rolls back instead; the T-number\n" +
		"                 is optional, and so is the mark (then the transaction stays open)\n" +
		"EP? e4          may the pawn on e4 be taken en passant this turn?\n" +
		"SERIES 5: Kd2, Kd3, Kxd4, Kxd5, e6+   your whole series, one mail; the\n" +
		"                 numbered prefix is optional.\n" +
		"Send your move on a line of its own, in SAN (Nf3, exd5, O-O, e8=Q) or in\n" +
		"coordinates (g1f3, e7e8q). MOVE before it is allowed.\n" +
		"BOARD            your current view"
	want := "T5: Nc6 (C)  a move, then commit; (R) rolls back instead; the T-number\n" +
		"             is optional, and so is the mark (then the transaction stays\n" +
		"             open)\n" +
		"EP? e4       may the pawn on e4 be taken en passant this turn?\n" +
		"SERIES 5: Kd2, Kd3, Kxd4, Kxd5, e6+\n" +
		"             your whole series, one mail; the numbered prefix is\n" +
		"             optional.\n" +
		"Send your move on a line of its own, in SAN (Nf3, exd5, O-O, e8=Q) or in\n" +
		"coordinates (g1f3, e7e8q). MOVE before it is allowed.\n" +
		"BOARD        your current view"
	got := Columns(help)
	for _, l := range strings.Split(got, "\n") {
		if len(l) > Width {
			t.Errorf("line longer than %d: %q", Width, l)
		}
	}
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if Wrap(got) != got {
		t.Errorf("Wrap changed a laid-out table:\n%s", Wrap(got))
	}
	if !isTable(got) || isTable("- a list item\n  continued") {
		t.Error("isTable")
	}
}

// Wrap keeps lines that fit, and continues a long list item under its text.
func TestWrap(t *testing.T) {
	item := "- Kept for a later turn: Nf6 (1 line(s) waiting). It is played when your turn comes, unless your opponent commits first."
	got := Wrap("keep  these   spaces\n" + item)
	want := "keep  these   spaces\n" +
		"- Kept for a later turn: Nf6 (1 line(s) waiting). It is played when your\n" +
		"  turn comes, unless your opponent commits first."
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	long := strings.Repeat("x", 100)
	for _, l := range strings.Split(Wrap("  "+long), "\n") {
		if len(l) > Width || !strings.HasPrefix(l, "  x") {
			t.Errorf("long word: %q", l)
		}
	}
}

// Players are told rules in words: a rule's ID in parentheses is dropped from what they read.
func TestRenderDropsRuleIDs(t *testing.T) {
	raw, err := Render(Mail{From: "r <r@x>", To: "a@x", MessageID: "m@x",
		Paragraphs: []string{"you wrote T5, but this is transaction T3 (TX-D15).", "Neither side can mate (rules.md 0.4c)."},
		Diagram:    "Game over: 1/2-1/2 (neither side can mate (rules.md 0.4c)).\n"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"transaction T3.", "Neither side can mate.", "(neither side can mate)."} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("lacks %q:\n%s", want, raw)
		}
	}
	if strings.Contains(string(raw), "TX-D15") || strings.Contains(string(raw), "rules.md") {
		t.Errorf("a rule ID is left:\n%s", raw)
	}
}

// Issue 33: the game so far never breaks between a move number and its move, and a FEN line
// is whole after its label, even past Width.
func TestWrapKeepsNumbersAndFEN(t *testing.T) {
	var sb strings.Builder
	for i := 1; i <= 30; i++ {
		fmt.Fprintf(&sb, "%d. Nf3 Nf6 ", i)
	}
	sb.WriteString("31... Ng8")
	for _, l := range strings.Split(Wrap(sb.String()), "\n") {
		if len(l) > Width || moveNumber(l[strings.LastIndexByte(l, ' ')+1:]) {
			t.Errorf("a line ends with a move number, or is too long: %q", l)
		}
	}
	fen := "FEN: r1bq1rk1/pp1nbppp/2p1pn2/3p2B1/2PP4/2NBPN2/PP3PPP/R2QK2R w KQ - 4 100"
	if !FENLine(fen) || FENLine("FEN: hello there") || FENLine("see the FEN: below") {
		t.Error("FENLine")
	}
	if got := Wrap("Position:\n" + fen); got != "Position:\n"+fen {
		t.Errorf("the FEN is broken:\n%s", got)
	}
	raw, err := Render(Mail{From: "r <r@x>", To: "a@x", MessageID: "m@x", Diagram: fen + "\n"})
	if err != nil || !strings.Contains(strings.ReplaceAll(string(raw), "=\r\n", ""), fen) {
		t.Errorf("a FEN line past Width: %v\n%s", err, raw)
	}
}

// Issue 33: a mail without a footer has no empty signature block ("--" and nothing).
func TestNoEmptySignature(t *testing.T) {
	raw, err := Render(Mail{From: "r <r@x>", To: "a@x", MessageID: "m@x", Paragraphs: []string{"Refused."}})
	if err != nil {
		t.Fatal(err)
	}
	if s := string(raw); strings.Contains(s, "\r\n--\r\n") || strings.Contains(s, "<hr>") {
		t.Errorf("an empty signature block:\n%s", s)
	}
	raw, _ = Render(Mail{From: "r <r@x>", To: "a@x", MessageID: "m@x", Paragraphs: []string{"Refused."}, Footer: "The referee."})
	if s := string(raw); !strings.Contains(s, "\r\n--\r\nThe referee.") {
		t.Errorf("the signature block is missing:\n%s", s)
	}
}
