// Package command is the referee's command table: every command the referee accepts is one
// row of it (its word and aliases, the shape of its arguments, who may send it, whether it
// only asks, its HELP line and its handler), and each game's own commands
// (variant.Variant.Commands) are rows the table takes in beside the referee's. Dispatch, the
// hourly limit of queries and every HELP list read the table; nothing else lists command
// words. A new command is a new row.
//
// The table is generic in the environment its handlers run in (the referee), so that this
// package knows the rows' shape and the referee the handlers.
package command

import (
	"fmt"
	"github.com/refereed/refereed/lang"
	"strings"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/referee/play"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/templates"
	"github.com/refereed/refereed/variant"
)

// Who says who may send a command.
type Who uint8

// Who may send a command: a player of the game from his reply address, a tournament's
// organizer from his, anyone at the referee's bare address.
const (
	Player Who = 1 << iota
	Organizer
	Anyone
)

func (w Who) String() string {
	switch w {
	case Player:
		return "player"
	case Organizer:
		return "organizer"
	case Anyone:
		return "anyone"
	}
	return fmt.Sprintf("who(%d)", uint8(w))
}

// Call is one command line being run, with what its handler acts on.
type Call struct {
	Word string   // the word it was sent with, in upper case (an alias as written)
	Args []string // the words after it
	Line string   // the whole line
	// A player's command: his game (the aggregate), his side, and the mail it came in (its
	// inbox key: the source of what it logs).
	Game   *play.Game
	Side   chess.Color
	Source string
	// An organizer's command: his tournament, in the transaction Tx, and who sent it.
	Tx         *store.Tx
	Tournament *store.Tournament
	By         string
	// A command at the bare address (Tx and By too): the invitation whose address the mail
	// came to, when it did (0: the bare address itself).
	Invitation uint64
}

// Result is what a command did.
type Result struct {
	Notices  []variant.Notice // a player's command: what each player is told
	Warnings []chess.Warning  // notes on how the line was written
	Paras    []string         // an organizer's or the bare address's command: the answer's paragraphs
	Subject  string           // the bare address's: what the answer's subject says
	// Prefs: the sender's settings changed; what comes after in his mail is said as he now
	// asks.
	Prefs bool
	// Reloaded is the game as it is after a command that changed it other than by playing
	// (an accepted takeback): what the rest of the mail plays on.
	Reloaded *play.Game
}

// Command is one row of the table.
type Command[E any] struct {
	Word    string   // in upper case: "BOARD"
	Aliases []string // other words for it, in upper case: "?" for HELP
	// Args is the shape of its arguments, as HELP and the docs write them ("" for none).
	Args string
	// Bare: the line is the word alone (case and spaces aside); a line that says more is not
	// this command (the game reads it).
	Bare bool
	// Match, when set, says whether a line that begins with the word is this command
	// (TAKEBACK ACCEPT is, TAKEBACK PLEASE is not: the game reads it).
	Match func(line string) bool
	Who   Who
	Query bool // it only asks: counted against a player's hourly limit of queries
	// Help is the sentence of its lines in HELP (templates/words/help.tmpl:
	// "help/<who>/<WORD>"), in the layout of templates.Columns. The HELP command's own
	// is "": it is the list itself, under its heading.
	Help string
	// In, when set, says whether a player's HELP in a game of v lists it (a takeback only in
	// games that hide nothing); nil: every game's does. Dispatch takes the command in every
	// game, and its handler says why it cannot be done in this one.
	In func(v *variant.Variant, inTournament bool) bool
	// OneAMail, when set, says that a mail holds the command once: a second is refused with
	// the words of this template kind ("leave-one-a-mail").
	OneAMail string
	// Lists: the command is HELP, answered with this table's list for whoever asks.
	Lists bool
	// Handle runs the command; nil for a command the game reads itself (RESIGN, DRAW: the
	// game resolves the line and the aggregate submits it).
	Handle func(env E, c *Call) (Result, error)
}

// Words is the row's word and aliases.
func (c *Command[E]) Words() []string { return append([]string{c.Word}, c.Aliases...) }

// Table is the referee's commands, each sender's in the order of his HELP.
type Table[E any] struct {
	rows  []*Command[E]
	words map[Who]map[string]*Command[E]
}

// New makes the table of rows; it panics on a word given twice to one sender (a programming
// error).
func New[E any](rows ...*Command[E]) *Table[E] {
	t := &Table[E]{rows: rows, words: map[Who]map[string]*Command[E]{}}
	for _, c := range rows {
		for _, who := range []Who{Player, Organizer, Anyone} {
			if c.Who&who == 0 {
				continue
			}
			if t.words[who] == nil {
				t.words[who] = map[string]*Command[E]{}
			}
			for _, w := range c.Words() {
				if w != strings.ToUpper(w) || strings.ContainsAny(w, " \t") {
					panic("command: word " + w + " is not one word in upper case")
				}
				if _, dup := t.words[who][w]; dup {
					panic("command: " + w + " twice for " + who.String())
				}
				t.words[who][w] = c
			}
		}
	}
	return t
}

// Rows is every row, in order.
func (t *Table[E]) Rows() []*Command[E] { return t.rows }

// Find is the command line is, sent by who, with the call it makes; nil when it is none of
// the table's (a player's line is then the game's: a move, or a command of its own).
func (t *Table[E]) Find(who Who, line string) (*Command[E], *Call) {
	f := strings.Fields(line)
	if len(f) == 0 {
		return nil, nil
	}
	word := strings.ToUpper(f[0])
	c := t.words[who][word]
	if c == nil || (c.Bare && len(f) > 1) || (c.Match != nil && !c.Match(line)) {
		return nil, nil
	}
	return c, &Call{Word: word, Args: f[1:], Line: line}
}

// IsQuery reports whether line, a player's in a game of v, only asks: its first word is a
// query's of the table's or of the game's.
func (t *Table[E]) IsQuery(v *variant.Variant, line string) bool {
	f := strings.Fields(line)
	if len(f) == 0 {
		return false
	}
	word := strings.ToUpper(f[0])
	if c := t.words[Player][word]; c != nil {
		return c.Query
	}
	return v.IsQuery(word)
}

// lines is the HELP lines of who's rows that keep, joined, in language l.
func (t *Table[E]) lines(who Who, keep func(*Command[E]) bool, l lang.Tag) string {
	var b strings.Builder
	for _, c := range t.rows {
		if c.Who&who == 0 || c.Help == "" || !keep(c) {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(templates.SayIn(l, "", c.Help, nil))
	}
	return b.String()
}

// PlayerHelp is the answer to a player's HELP in g, a game of v: the game's commands, then
// the referee's that his HELP lists in such a game; in a game that is over, that nothing
// more can be played.
func (t *Table[E]) PlayerHelp(v *variant.Variant, g variant.Game, inTournament bool, l lang.Tag) string {
	if out := g.Outcome(); out.Over() {
		return templates.SayIn(l, "", "help-over", templates.Args{"Result": out.Result, "Reason": out.Reason})
	}
	own := t.lines(Player, func(c *Command[E]) bool { return c.In == nil || c.In(v, inTournament) }, l)
	help := templates.SayIn(l, "", "help", nil) + "\n" + templates.Columns(variant.HelpOf(v, g, l)+"\n"+own)
	if local := localHelp(l); local != "" {
		help += "\n" + local
	}
	return help
}

// AnyoneHelp is the answer to HELP at the referee's bare address.
func (t *Table[E]) AnyoneHelp(l lang.Tag) string {
	own := t.lines(Anyone, func(*Command[E]) bool { return true }, l)
	return templates.SayIn(l, "", "bare-help", nil) + "\n" + templates.Columns(own)
}

// OrganizerHelp is the answer to an organizer's HELP.
func (t *Table[E]) OrganizerHelp() string {
	own := t.lines(Organizer, func(*Command[E]) bool { return true }, lang.EN)
	return templates.Columns(templates.Say("", "organizer-help", nil) + "\n" + own)
}

// LocalWords are language l's own words for a few commands (templates' "command-words": the
// German AUFGEBEN for RESIGN), each to its English word; none for English.
func LocalWords(l lang.Tag) map[string]string {
	out := map[string]string{}
	for _, pair := range strings.Fields(templates.SayIn(l, "", "command-words", nil)) {
		if en, own, ok := strings.Cut(pair, "="); ok {
			out[strings.ToUpper(own)] = en
		}
	}
	return out
}

// Translate is line with its first word, if it is one of l's own command words (LocalWords),
// as the English word: what the table and the games read.
func Translate(l lang.Tag, line string) string {
	f := strings.Fields(line)
	if len(f) == 0 || l == lang.EN || !l.Known() {
		return line
	}
	en, ok := LocalWords(l)[strings.ToUpper(f[0])]
	if !ok {
		return line
	}
	i := strings.Index(line, f[0])
	return line[:i] + en + line[i+len(f[0]):]
}

// localHelp is HELP's last line in language l: its own command words, "AUFGEBEN (RESIGN)";
// "" for a language that has none.
func localHelp(l lang.Tag) string {
	var own []string
	said := map[string]bool{}
	for _, pair := range strings.Fields(templates.SayIn(l, "", "command-words", nil)) {
		if en, w, ok := strings.Cut(pair, "="); ok && !said[en] { // the first of each: the others are spellings
			said[en] = true
			own = append(own, w+" ("+en+")")
		}
	}
	if len(own) == 0 {
		return ""
	}
	return templates.SayIn(l, "", "help-local-words", templates.Args{"Words": strings.Join(own, ", ")})
}
