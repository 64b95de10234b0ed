// Package mailcheck holds a mail to a player to what every such mail must be, for the tests of
// the referee and of any game (referee/refereetest): the rules of design.md's "Mail people can
// read" that a test can see.
package mailcheck

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/parser"
	"github.com/refereed/refereed/store"
)

var (
	ruleID       = regexp.MustCompile(`\b[A-Z]{2}-D\d+\b|rules\.md`)
	missingWords = regexp.MustCompile(`\[[a-z][a-z/-]{2,}\]`)
	mailNumber   = regexp.MustCompile(`^(refereed\.g\d+\.[wb]\.[a-z2-7]+\.)(\d+)@(.*)$`)
)

// Check holds a mail to a player to what every such mail must be: readable, Black's board
// from Black's side, no rule ID, no sentence missing its words, no invitation to play in a
// finished game, threaded under the game's opening mail, lines of at most 72 columns.
func Check(t testing.TB, m store.OutMail) {
	t.Helper()
	p, err := parser.Parse(m.Raw)
	if err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("mail %s (%s)", m.MessageID, p.Subject)
	if m.Side == int(chess.Black) && m.Game != 0 && strings.Contains(p.Body, "    a  b  c  d  e  f  g  h") {
		t.Errorf("%s: a board drawn from White's side for Black:\n%s", name, p.Body)
	}
	if id := ruleID.FindString(p.Body + p.Subject); id != "" {
		t.Errorf("%s: a rule ID (%s) in a player's mail:\n%s", name, id, p.Body)
	}
	if w := missingWords.FindString(p.Body + p.Subject); w != "" {
		t.Errorf("%s: a sentence without its words (%s):\n%s", name, w, p.Body)
	}
	if strings.Contains(p.Subject, "game over") && (strings.Contains(p.Body, "Reply to this mail") || strings.Contains(p.Body, "HELP lists")) {
		t.Errorf("%s: a finished game invites commands:\n%s", name, p.Body)
	}
	if sub := mailNumber.FindStringSubmatch(m.MessageID); sub != nil && sub[2] != "1" {
		root := sub[1] + "1@" + sub[3]
		if !slices.Contains(p.References, root) || len(p.InReplyTo) == 0 {
			t.Errorf("%s: not threaded under the game's opening mail %s", name, root)
		}
	}
	for _, line := range strings.Split(p.Body, "\n") {
		if n := len([]rune(strings.TrimRight(line, "\r"))); n > 72 && !strings.HasPrefix(line, "> ") {
			t.Errorf("%s: a line of %d columns: %q", name, n, line)
		}
	}
}
