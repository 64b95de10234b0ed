package command

import (
	"github.com/refereed/refereed/lang"
	"strings"
	"testing"

	"github.com/refereed/refereed/variant"
	_ "github.com/refereed/refereed/variant/transactional"
)

type env struct{}

func rows() []*Command[env] {
	return []*Command[env]{
		{Word: "HELP", Aliases: []string{"?"}, Bare: true, Who: Player, Query: true, Lists: true},
		{Word: "BOARD", Bare: true, Who: Player, Query: true, Help: "BOARD  your view"},
		{Word: "LEAVE", Who: Player, Help: "LEAVE d1 d2  leave"},
		{Word: "TAKEBACK", Who: Player, Match: func(line string) bool { return len(line) < 20 }, Help: "TAKEBACK  ask"},
		{Word: "LEAVE", Who: Organizer, Help: "LEAVE p d1 d2  leave for a player"},
	}
}

// Find takes a line by its first word, in any case, for its sender: a bare command only
// alone, a matched one only as its Match says; the rest is the game's.
func TestFind(t *testing.T) {
	tb := New(rows()...)
	for _, c := range []struct {
		who  Who
		line string
		want string
		args int
	}{
		{Player, "help", "HELP", 0},
		{Player, "?", "HELP", 0},
		{Player, "  board ", "BOARD", 0},
		{Player, "BOARD please", "", 0},
		{Player, "leave 2027-01-02 2027-01-03", "LEAVE", 2},
		{Organizer, "LEAVE a@x 2027-01-02", "LEAVE", 2},
		{Organizer, "BOARD", "", 0},
		{Player, "takeback accept", "TAKEBACK", 1},
		{Player, "takeback, as I wrote to you yesterday", "", 0},
		{Player, "e4", "", 0},
		{Player, "", "", 0},
	} {
		cmd, call := tb.Find(c.who, c.line)
		got := ""
		if cmd != nil {
			got = cmd.Word
			if len(call.Args) != c.args || call.Line != c.line {
				t.Errorf("%v %q: call %+v", c.who, c.line, call)
			}
		}
		if got != c.want {
			t.Errorf("%v %q: %q, want %q", c.who, c.line, got, c.want)
		}
	}
}

// A query is one of the table's by its first word, or one of the game's.
func TestIsQuery(t *testing.T) {
	tb := New(rows()...)
	v := variant.MustLookup("transactional")
	for line, want := range map[string]bool{"HELP": true, "board me": true, "LEAVE 2027-01-01": false, "VIEW committed": true, "EP? e4": false, "e4": false} {
		if got := tb.IsQuery(v, line); got != want {
			t.Errorf("%q: %v, want %v", line, got, want)
		}
	}
}

// A word given twice to one sender, or not one upper-case word, is a programming error.
func TestNewRefuses(t *testing.T) {
	for name, rs := range map[string][]*Command[env]{
		"twice":      {{Word: "BOARD", Who: Player}, {Word: "BOARD", Who: Player}},
		"alias":      {{Word: "HELP", Aliases: []string{"BOARD"}, Who: Player}, {Word: "BOARD", Who: Player}},
		"lower case": {{Word: "board", Who: Player}},
		"two words":  {{Word: "DRAW OFFER", Who: Player}},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			New(rs...)
		}()
	}
}

// HELP lists the rows of the sender in order, the game's first for a player.
func TestHelpLists(t *testing.T) {
	tb := New(rows()...)
	if got := tb.OrganizerHelp(); !strings.HasPrefix(got, "Commands of the organizer") || !strings.Contains(got, "LEAVE p d1 d2") || strings.Contains(got, "BOARD") {
		t.Errorf("organizer's HELP:\n%s", got)
	}
	v := variant.MustLookup("transactional")
	g, err := v.New(variant.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := tb.PlayerHelp(v, g, false, lang.EN)
	for _, w := range []string{"VIEW", "BOARD", "LEAVE", "TAKEBACK"} {
		if !strings.Contains(h, w) {
			t.Errorf("a player's HELP lacks %s:\n%s", w, h)
		}
	}
}
