package kriegspiel

import (
	"strings"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/record"
	"github.com/refereed/refereed/variant"
)

// MaxAttempts is the most attempts one line may list: far more than a series ever needs
// (the longest in practice stay under 40 moves), and a bound on the work one line costs.
const MaxAttempts = 200

// list is a line of attempts as a player wrote it (KR-D9, PK-D6): the attempts in order,
// "Any?" among them, and whether NOSTOP was written.
type list struct {
	items  []item
	nostop bool
}

// item is one attempt of a list, or "Any?".
type item struct {
	any  bool
	text string         // the attempt as written, without spaces ("Nf3", "e7e8(Q)")
	n    chess.Notation // the attempt, read
}

// fillers are the words people put between attempts: "try exf5; else e5; else Nf3",
// "MOVE e2e4", "SERIES 3: e4, d4, Nf3".
var fillers = map[string]bool{"try": true, "tries": true, "else": true, "or": true, "then": true, "move": true,
	"moves": true, "attempt": true, "attempts": true, "series": true, "and": true}

// parseList reads a line of attempts: moves (SAN or coordinates, rules.md 0.3a), "Any?", and
// "NOSTOP" before the first attempt, separated by commas, semicolons or spaces, with the filler
// words people write. It reads the notation only; which men the moves name is for the game.
func parseList(text string) (list, error) {
	var l list
	words := strings.FieldsFunc(text, func(r rune) bool {
		return r == ',' || r == ';' || r == ' ' || r == '\t' || r == '\r' || r == '\n' || r == '"' || r == '\u00a0'
	})
	for _, w := range words {
		low := strings.ToLower(strings.Trim(w, "'`:"))
		switch {
		case low == "" || fillers[low] || isNumber(low):
			continue
		case low == "any?" || low == "any" || low == "any?:":
			l.items = append(l.items, item{any: true, text: "any"})
			continue
		case low == "nostop" || low == "no-stop":
			if len(l.items) > 0 {
				return l, variant.Refuse("kriegspiel/nostop-first", nil)
			}
			l.nostop = true
			continue
		}
		if num, rest, ok := numberPrefix(w); ok && num != "" {
			w = rest // "12.e4", "3...Nf6"
		}
		if glue(w) {
			// "e8 (Q)", "e8 =Q", "exd6 e.p.", "Nf3 +": the end of the attempt before.
			if len(l.items) == 0 || l.items[len(l.items)-1].any {
				return l, variant.Refuse("kriegspiel/glue-alone", map[string]any{"Text": clip(w)})
			}
			last := &l.items[len(l.items)-1]
			n, err := chess.ParseNotation(last.text + w)
			if err != nil {
				return l, variant.Reject("%v", err)
			}
			last.text += w
			last.n = n
			continue
		}
		n, err := chess.ParseNotation(w)
		if err != nil {
			return l, variant.Refuse("kriegspiel/not-an-attempt", map[string]any{"Why": err, "Progressive": false})
		}
		if n.Castle != 0 && isNumber(w) {
			w = castleText(n) // "12.000": "000" alone would read back as a number
		}
		if len(l.items) == MaxAttempts {
			return l, variant.Refuse("kriegspiel/too-many-attempts", map[string]any{"Max": MaxAttempts})
		}
		l.items = append(l.items, item{text: w, n: n})
	}
	if len(l.items) == 0 {
		// NOSTOP alone says how to read attempts, and none follow it (issue 33).
		return l, variant.Refuse("kriegspiel/no-attempt", map[string]any{"NoStop": l.nostop, "Progressive": false})
	}
	return l, nil
}

// String is the canonical command of the list: "try [nostop] <item> ...", which parseList
// reads back to the same list.
func (l list) String() string {
	var sb strings.Builder
	sb.WriteString("try")
	if l.nostop {
		sb.WriteString(" nostop")
	}
	for _, it := range l.items {
		sb.WriteByte(' ')
		sb.WriteString(it.text)
	}
	return sb.String()
}

// rest lists the items of l from i on, for telling a player what was not tried.
func (l list) rest(i int) string {
	var out []string
	for _, it := range l.items[min(i, len(l.items)):] {
		if it.any {
			out = append(out, "Any?")
		} else {
			out = append(out, it.text)
		}
	}
	return strings.Join(out, ", ")
}

// castleText writes a castling attempt as O-O or O-O-O, with its marks as read.
func castleText(n chess.Notation) string {
	s := "O-O"
	if n.Castle == chess.CastleLong {
		s = "O-O-O"
	}
	return s + [...]string{"", "+", "#"}[n.Check] + n.Annotate
}

// glue reports whether w only ends the move written before it.
func glue(w string) bool {
	switch strings.ToLower(w) {
	case "e.p.", "ep", "e.p":
		return true
	}
	if w[0] == '(' || w[0] == '=' {
		return true
	}
	return strings.Trim(w, "+#!?") == ""
}

// isNumber reports whether w is a move or series number: "3", "3:", "12.", "12...".
func isNumber(w string) bool {
	d := 0
	for d < len(w) && w[d] >= '0' && w[d] <= '9' {
		d++
	}
	return d > 0 && strings.Trim(w[d:], ".:") == "" && !record.IsNumericMove(w) // 5254 is e2-e4
}

// numberPrefix splits "12.e4" into "12." and "e4".
func numberPrefix(w string) (num, rest string, ok bool) {
	d := 0
	for d < len(w) && w[d] >= '0' && w[d] <= '9' {
		d++
	}
	e := d
	for e < len(w) && (w[e] == '.' || w[e] == ':') {
		e++
	}
	if d == 0 || e == d || e == len(w) {
		return "", w, false
	}
	return w[:e], w[e:], true
}

func clip(s string) string {
	if r := []rune(s); len(r) > 20 {
		return string(r[:20]) + "..."
	}
	return s
}

// submitList tries the attempts of a list in order (KR-D9, PK-D6). An "Impossible" attempt
// is answered privately and the list goes on. It stops where stopWhy says, telling the
// player what was not tried, and the reading of his mail stops with it. A refusal before
// anything was announced refuses the line; after, it ends the list with a private note.
func (g *Game) submitList(by chess.Color, l list) ([]variant.Notice, error) {
	if by != g.pos.Turn {
		return nil, variant.Refuse("common/not-your-move", map[string]any{"Turn": g.pos.Turn})
	}
	var notices []variant.Notice
	announced := false
	fail := func(i int, err error) ([]variant.Notice, error) {
		if !announced {
			return nil, err
		}
		if !g.Quiet() {
			notices = append(notices, variant.Notice{To: variant.To(by), Kind: "kriegspiel/list-stopped",
				Args: map[string]any{"Item": itemText(l.items[i]), "Why": err.Error(), "Rest": l.rest(i + 1)}, Stop: true})
		}
		return notices, nil
	}
	for i, it := range l.items {
		var ns []variant.Notice
		var r result
		var err error
		if it.any {
			if i > 0 || !g.rules.any {
				return fail(i, variant.Refuse("kriegspiel/any-first", nil))
			}
			ns, r, err = g.ask(by, "")
		} else {
			m, possible, _, rerr := g.resolveAttempt(by, it)
			switch {
			case rerr != nil:
				return fail(i, variant.Refuse("common/move-why", map[string]any{"Move": it.text, "Why": rerr}))
			case !possible:
				notices = append(notices, g.impossible(by, it.text)...)
				continue
			}
			ns, r, err = g.attempt(by, m, "")
		}
		if err != nil {
			return fail(i, err)
		}
		announced = true
		notices = append(notices, ns...)
		if it.any {
			continue
		}
		if why := g.stopWhy(r, l.nostop); why != "" {
			if !g.Quiet() {
				notices = append(notices, variant.Notice{To: variant.To(by), Kind: "kriegspiel/stop",
					Args: map[string]any{"Why": why, "Rest": l.rest(i + 1)}, Stop: true})
			}
			return notices, nil
		}
	}
	return notices, nil
}

func itemText(it item) string {
	if it.any {
		return "Any?"
	}
	return it.text
}
