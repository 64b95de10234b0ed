// Package mailcheck holds a mail to a player to what every such mail must be, for the tests of
// the referee and of any game (referee/refereetest): the rules of design.md's "Mail people can
// read" that a test can see.
package mailcheck

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/parser"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/templates"
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
	// (A mail of no game is tagged "[refereed]" in its subject: the service's name.)
	if w := missingWords.FindString(p.Body + strings.Replace(p.Subject, "[refereed]", "", 1)); w != "" {
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
		if n := len([]rune(strings.TrimRight(line, "\r"))); n > 72 && !strings.HasPrefix(line, "> ") && !templates.FENLine(strings.TrimRight(line, "\r")) {
			t.Errorf("%s: a line of %d columns: %q", name, n, line)
		}
	}
}

// Golden compares the mails of a scripted game with their golden files,
// Dir/<Game>-NN-<name>-<white|black>.eml (Black names the black player's address); with
// Update it writes them instead. Done then fails for a golden file no step produced (with
// Update, removes it): a mail that is no longer sent fails as a changed one does.
type Golden struct {
	Dir, Game, Black string
	// Names, when set, names each recipient's files by his address instead (mails to more
	// than two people: challenges).
	Names    map[string]string
	Update   bool
	produced map[string]bool
}

// Check compares the mails of step n, named name, each passing Check too.
func (g *Golden) Check(t testing.TB, n int, name string, mails []store.OutMail) {
	t.Helper()
	if g.produced == nil {
		g.produced = map[string]bool{}
	}
	for _, m := range mails {
		who := "white"
		if m.To[0] == g.Black {
			who = "black"
		}
		if g.Names != nil {
			who = g.Names[m.To[0]]
		}
		file := filepath.Join(g.Dir, fmt.Sprintf("%s-%02d-%s-%s.eml", g.Game, n, name, who))
		if g.produced[file] {
			t.Errorf("%s: two mails to the same player in one step", file)
		}
		g.produced[file] = true
		Check(t, m)
		if g.Update {
			if err := os.WriteFile(file, m.Raw, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(file)
		if err != nil {
			t.Errorf("%s: %v (the test's update option writes it)", file, err)
			continue
		}
		if !bytes.Equal(m.Raw, want) {
			t.Errorf("%s differs; got:\n%s", file, m.Raw)
		}
	}
}

// Done fails for each golden file of the game that no step produced.
func (g *Golden) Done(t testing.TB) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(g.Dir, g.Game+"-*.eml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		switch {
		case g.produced[f]:
		case g.Update:
			if err := os.Remove(f); err != nil {
				t.Fatal(err)
			}
		default:
			t.Errorf("%s: this mail was not sent", f)
		}
	}
}
