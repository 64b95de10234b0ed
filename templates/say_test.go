package templates

import (
	"regexp"
	"testing"
)

// Sentences render with their fields; a missing sentence or field is named, not sent blank.
func TestSay(t *testing.T) {
	if got := Say("", "line-refused", Args{"N": 2, "Line": "Nf9", "Why": "no such square", "First": false, "Hint": true}); got != "Line 2 (Nf9) was refused: no such square. The lines before it were done; nothing from it on was. HELP lists the commands." {
		t.Errorf("line-refused: %q", got)
	}
	if got := Say("", "draw-offer", Args{"Me": false, "Sender": "White"}); got != "White offers a draw. Reply DRAW ACCEPT to agree, or DRAW DECLINE." {
		t.Errorf("draw-offer: %q", got)
	}
	if got := Say("", "no-such-sentence", nil); got != "[no-such-sentence]" {
		t.Errorf("missing sentence: %q", got)
	}
	if got := Say("", "line-note", Args{"N": 1}); got != "[line-note]" {
		t.Errorf("missing field: %q", got)
	}
	if !HasWords("", "reminder") || HasWords("", "nothing") {
		t.Error("HasWords")
	}
}

// No sentence cites a rule by its ID: players are told rules in words.
func TestWordsCiteNoRuleIDs(t *testing.T) {
	id := regexp.MustCompile(`\b[A-Z]{2}-D\d+|rules\.md|[TCESW]:L\d+`)
	for _, tm := range words().Templates() {
		if tm.Tree == nil {
			continue
		}
		if src := tm.Tree.Root.String(); id.MatchString(src) {
			t.Errorf("sentence %q cites a rule: %s", tm.Name(), id.FindString(src))
		}
	}
}
