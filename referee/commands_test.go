package referee

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/refereed/refereed/lang"
	"github.com/refereed/refereed/templates"

	"github.com/refereed/refereed/referee/command"
	"github.com/refereed/refereed/variant"
	"github.com/refereed/refereed/variant/synchronous"
)

// helpGames are a game of each registered variant (PSC also under fog), by name.
func helpGames(t *testing.T) map[string]variant.Game {
	t.Helper()
	games := map[string]variant.Game{}
	for _, k := range variant.Keys() {
		g, err := variant.MustLookup(k).New(variant.Options{})
		if err != nil {
			t.Fatal(err)
		}
		games[k] = g
	}
	g, err := variant.MustLookup(synchronous.Key).New(variant.Options{Flags: map[string]string{synchronous.OptionFog: "true"}})
	if err != nil {
		t.Fatal(err)
	}
	games[synchronous.Key+"-fog"] = g
	return games
}

// TestHelpGolden pins every HELP list (each game's, in a tournament or not, and the
// organizer's) to testdata/help: the table writes them as the lists did before it.
func TestHelpGolden(t *testing.T) {
	check := func(name, got string) {
		t.Helper()
		want, err := os.ReadFile(filepath.Join("testdata", "help", name+".txt"))
		if os.IsNotExist(err) && strings.HasPrefix(name, "test-") {
			return // a test's own variant
		}
		if *update {
			if err := os.WriteFile(filepath.Join("testdata", "help", name+".txt"), []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if got != string(want) {
			t.Errorf("%s: HELP is\n%s\nwant\n%s", name, got, want)
		}
	}
	for name, g := range helpGames(t) {
		v := variant.MustLookup(g.Key())
		check(name, commandTable.PlayerHelp(v, g, false, lang.EN))
		if !strings.HasSuffix(name, "-fog") {
			check(name+"-tournament", commandTable.PlayerHelp(v, g, true, lang.EN))
		}
	}
	check("organizer", commandTable.OrganizerHelp())
}

// TestEveryCommandHasHelp: each row of the table has a HELP line that names its word, but
// the HELP command itself, which is the list (a player's under its heading).
func TestEveryCommandHasHelp(t *testing.T) {
	for _, c := range commandTable.Rows() {
		if c.Lists && c.Who == command.Player {
			if c.Help != "" {
				t.Errorf("a player's HELP is the list's heading, not a line of it")
			}
			continue
		}
		if c.Help == "" || !templates.HasWords("", c.Help) {
			t.Errorf("%s (%s) has no HELP line", c.Word, c.Who)
		}
		for _, l := range lang.All() { // the command words are English in every language
			if h := templates.SayIn(l, "", c.Help, nil); !strings.HasPrefix(h, c.Word) {
				t.Errorf("%s (%s): its HELP line in %s does not begin with its word: %q", c.Word, c.Who, l, h)
			}
		}
		if c.Who != command.Player && c.Who != command.Organizer && c.Who != command.Anyone {
			t.Errorf("%s: one sender a row", c.Word)
		}
	}
	for _, k := range variant.Keys() {
		for _, c := range variant.MustLookup(k).Commands {
			if c.Help == "" || !templates.HasWords("", c.Help) {
				t.Errorf("%s: a command of the game (%q) has no HELP line", k, c.Word)
			}
			for _, l := range lang.All() {
				if h := templates.SayIn(l, "", c.Help, nil); c.Word != "" && !strings.HasPrefix(h, c.Word) {
					t.Errorf("%s: %s's HELP line in %s does not begin with its word: %q", k, c.Word, l, h)
				}
			}
		}
	}
}

// entryWord matches an entry of a HELP list that begins with a command word ("BOARD   ...",
// "ANY?   ...", "PAUSE, RESUME  ..."): upper-case words, not a move or prose.
var entryWord = regexp.MustCompile(`^([A-Z][A-Z?]+)(?:, ([A-Z]+))?(?:\s|$)`)

// TestHelpListsWhatDispatchTakes: every word a HELP list names is a command dispatch takes
// from that sender in that game (the table's, or the game's own), and every command the
// table or the game offers there is in its HELP.
func TestHelpListsWhatDispatchTakes(t *testing.T) {
	for name, g := range helpGames(t) {
		v := variant.MustLookup(g.Key())
		for _, tour := range []bool{false, true} {
			help := commandTable.PlayerHelp(v, g, tour, lang.EN)
			listed := map[string]bool{}
			for _, line := range strings.Split(variant.HelpOf(v, g, lang.EN)+"\n"+rawLines(command.Player, v, tour), "\n") {
				if m := entryWord.FindStringSubmatch(line); m != nil {
					listed[m[1]] = true
				}
			}
			for w := range listed {
				if c, _ := commandTable.Find(command.Player, w); c == nil && !gameWord(v, g, w) {
					// Commands that take words after them are found with an example line.
					if !takesArgs(w) {
						t.Errorf("%s: HELP lists %s, which dispatch does not take", name, w)
					}
				}
			}
			for _, c := range commandTable.Rows() {
				if c.Who != command.Player || c.Lists {
					continue
				}
				if in := c.In == nil || c.In(v, tour); in != strings.Contains(help, c.Word) {
					t.Errorf("%s (tournament %v): %s offered %v, listed %v", name, tour, c.Word, in, !in)
				}
			}
			for _, c := range v.Commands {
				if c.Word != "" && (c.Offered == nil || c.Offered(g)) && !strings.Contains(help, c.Word) {
					t.Errorf("%s: the game's %s is not in its HELP", name, c.Word)
				}
			}
		}
	}
	var organizer []string
	for _, c := range commandTable.Rows() {
		if c.Who == command.Organizer {
			organizer = append(organizer, c.Words()...)
		}
	}
	help := commandTable.OrganizerHelp()
	for _, w := range organizer {
		if w == "?" {
			continue // HELP's other word
		}
		if !strings.Contains(help, w) {
			t.Errorf("organizer's %s is not in his HELP", w)
		}
		if c, _ := commandTable.Find(command.Organizer, w+" x"); c == nil {
			t.Errorf("organizer's %s is not taken by dispatch", w)
		}
	}
	for _, line := range strings.Split(rawLines(command.Organizer, nil, false), "\n") {
		if m := entryWord.FindStringSubmatch(line); m != nil {
			for _, w := range m[1:] {
				if c, _ := commandTable.Find(command.Organizer, w+" x"); w != "" && c == nil {
					t.Errorf("organizer's HELP lists %s, which dispatch does not take", w)
				}
			}
		}
	}
}

// rawLines is who's rows' HELP lines offered in a game of v, before the layout.
func rawLines(who command.Who, v *variant.Variant, tour bool) string {
	var lines []string
	for _, c := range commandTable.Rows() {
		if c.Who == who && c.Help != "" && (c.In == nil || c.In(v, tour)) {
			lines = append(lines, templates.Say("", c.Help, nil))
		}
	}
	return strings.Join(lines, "\n")
}

// gameWord reports whether w is a command word of g's own.
func gameWord(v *variant.Variant, g variant.Game, w string) bool {
	for _, c := range v.Commands {
		if c.Word == w && (c.Offered == nil || c.Offered(g)) {
			return true
		}
	}
	return false
}

// takesArgs reports whether the table takes w with words after it (TAKEBACK ACCEPT, IF
// LIST, SET NOTATION numeric).
func takesArgs(w string) bool {
	for _, line := range []string{w + " ACCEPT", w + " LIST", w + " NOTATION numeric", w + " 2027-01-02 2027-01-10"} {
		if c, _ := commandTable.Find(command.Player, line); c != nil {
			return true
		}
	}
	return false
}

// TestQueriesFromTable: the hourly limit counts exactly the table's queries and the game's.
func TestQueriesFromTable(t *testing.T) {
	tx := variant.MustLookup("transactional")
	for line, want := range map[string]bool{"help": true, "?": true, "BOARD": true, "history": true, "PGN": true,
		"RATINGS": true, "STANDINGS": true, "VIEW": true, "view committed": true, "SET": false, "LEAVE 2027-01-02": false,
		"TAKEBACK": false, "e4": false, "EP? e4": false, "RESIGN": false} {
		if got := commandTable.IsQuery(tx, line); got != want {
			t.Errorf("IsQuery(%q) = %v, want %v", line, got, want)
		}
	}
	if !commandTable.IsQuery(variant.MustLookup(synchronous.Key), "CONTROL") || commandTable.IsQuery(variant.MustLookup(synchronous.KeyKorolev), "CONTROL") {
		t.Errorf("CONTROL is PSC's query, not Korolev's")
	}
}
