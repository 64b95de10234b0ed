package conditional

import (
	"fmt"
	"strings"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/record"
	"github.com/refereed/refereed/variant"
)

// Submit applies a canonical command: "A e2e4 [; C ...]", "C ...", "B e7e5". The whole
// command is checked before anything changes, so a refused command leaves the game exactly as
// it was.
func (g *Game) Submit(cmd variant.Command) ([]variant.Notice, error) {
	g.notes = g.notes[:0]
	if notices, done, err := g.SubmitPreamble(cmd); done {
		if err == nil && g.Outcome().Over() {
			g.discard()
		}
		return notices, err
	}
	by := cmd.By
	var a, b string
	var c *cmove
	parts := strings.Split(cmd.Text, " ; ")
	for i, part := range parts {
		f := strings.Fields(part)
		switch {
		case len(f) == 2 && f[0] == "A" && i == 0:
			a = f[1]
		case len(f) == 2 && f[0] == "B" && len(parts) == 1:
			b = f[1]
		case len(f) >= 4 && f[0] == "C" && c == nil && (i == 0 || a != ""):
			var err error
			if c, err = decodeC(by, f); err != nil {
				return nil, err
			}
		default:
			return nil, variant.Refuse("conditional/malformed", map[string]any{"Text": cmd.Text})
		}
	}
	var m chess.Move
	var err error
	switch {
	case a != "":
		if g.state != 'A' || by != g.x {
			return nil, variant.Refuse("conditional/not-your-step", map[string]any{"Step": "A", "Next": g.next()})
		}
		m, err = chess.FindUCI(g.aMoves(), a)
	case b != "":
		if g.state != 'B' || by == g.x {
			return nil, variant.Refuse("conditional/not-your-step", map[string]any{"Step": "B", "Next": g.next()})
		}
		m, err = chess.FindUCI(g.legalFor(by), b)
	default:
		if g.state != 'B' || by != g.x {
			return nil, variant.Refuse("conditional/c-move-when", map[string]any{"Next": g.next()})
		}
	}
	if err != nil {
		return nil, variant.Reject("%v", err)
	}
	// Nothing has changed so far, and nothing below can fail.
	var notices []variant.Notice
	switch {
	case a != "":
		notices = g.playA(by, m, c)
	case b != "":
		notices = g.playB(by, m)
	default:
		notices = g.stateC(c)
	}
	g.Accept(cmd)
	if g.Outcome().Over() {
		g.discard()
		if !g.Quiet() {
			notices = append(notices, g.OverNotice())
		}
	}
	if g.Quiet() {
		return nil, nil
	}
	return notices, nil
}

// play makes m for by on the referee's board and returns its SAN.
func (g *Game) play(by chess.Color, m chess.Move) string {
	g.pos.Turn = by
	san := g.pos.SAN(m)
	g.pos.Play(m)
	return san
}

// cHowTo says how a C-move is sent.
const cHowTo = "C: condition?then/else, or C: !move"

// playA makes X's A-move and states his C-move, if the command has one; the end conditions
// are judged at once, before the B-mover is asked for anything (CO-D4, CO-D9).
func (g *Game) playA(by chess.Color, m chess.Move, c *cmove) []variant.Notice {
	san := g.play(by, m)
	g.plies = append(g.plies, plyRecord{'A', by, san})
	g.state, g.pending = 'B', c
	y := by.Other()
	g.reached('B', y)
	g.judge('B', y, true)
	if g.Quiet() {
		return nil
	}
	notices := []variant.Notice{{To: variant.ToBoth, Kind: "a-move", Words: "conditional/a-move", Args: args{"By": by, "Move": san}, Show: variant.ShowView}}
	if g.Outcome().Over() {
		return notices
	}
	if c != nil {
		notices = append(notices, g.cNotice(c, false))
	} else {
		notices = append(notices, variant.Notice{To: variant.To(by), Kind: "c-move-none", Words: "conditional/c-move-none",
			Args: args{"HowTo": cHowTo, "Opponent": y}})
	}
	return append(notices, variant.Notice{To: variant.To(y), Kind: "your-turn", Words: "conditional/send-b", Args: args{}})
}

// args are the fields of a sentence in templates/words/conditional.tmpl.
type args = map[string]any

// stateC states (or replaces) X's C-move between his A-move and the opponent's B-move.
func (g *Game) stateC(c *cmove) []variant.Notice {
	replaced := g.pending != nil
	g.pending = c
	if g.Quiet() {
		return nil
	}
	return []variant.Notice{g.cNotice(c, replaced)}
}

// cNotice tells the author, and him alone (CO-D8), how his C-move was read.
func (g *Game) cNotice(c *cmove, replaced bool) variant.Notice {
	// It makes untrue a "you have not stated a C-move" of the same mail (A-move and C-move
	// on two lines).
	return variant.Notice{To: variant.To(c.author), Kind: "c-move", Words: "conditional/c-move-stated",
		Args: args{"CMove": c.text, "Replaced": replaced, "Reading": describe(c)}, Supersedes: "c-move-none"}
}

func describe(c *cmove) string {
	b := func(x branch) string {
		if x.from == chess.NoSquare {
			return x.text + " (no man of yours can play it: it would be skipped)"
		}
		return fmt.Sprintf("%s (%v-%v)", x.text, x.from, x.to)
	}
	if c.cond.kind == '!' {
		return "always " + b(c.then)
	}
	var q string
	switch c.cond.kind {
	case 'e':
		q = c.cond.sq.String() + " is empty"
	case 'E':
		q = "an enemy man stands on " + c.cond.sq.String()
	case 'R':
		q = "an enemy " + c.cond.role.String() + " stands on " + c.cond.sq.String()
	}
	return fmt.Sprintf("if %s, %s; else %s", q, b(c.then), b(c.els))
}

// playB makes Y's B-move, judges the end conditions, then executes or skips X's C-move and
// judges them again (CO-D2, CO-D4, CO-D5, CO-D9).
func (g *Game) playB(by chess.Color, m chess.Move) []variant.Notice {
	x := g.x
	san := g.play(by, m)
	g.plies = append(g.plies, plyRecord{'B', by, san})
	g.reached('C', x)
	g.judge('C', x, true)
	var notices []variant.Notice
	if !g.Quiet() {
		notices = append(notices, variant.Notice{To: variant.ToBoth, Kind: "b-move", Words: "conditional/b-move", Args: args{"By": by, "Move": san}})
	}
	if g.Outcome().Over() {
		return notices // the pending C-move is discarded and revealed (Submit)
	}
	g.pos.Turn = x
	bCheck := g.pos.InCheck()
	text, executed := g.executeC(x, bCheck)
	// CO-D2: a B-move check whose C-move did not escape gives X the next A-move.
	if executed || !bCheck {
		g.x = x.Other()
	}
	g.state, g.pending = 'A', nil
	if executed {
		g.reached('A', g.x)
	}
	g.judge('A', g.x, executed)
	if g.Quiet() {
		return nil
	}
	notices = append(notices, variant.Notice{To: variant.ToBoth, Kind: "c-move", Words: "conditional/c-move-result", Args: args{"Text": text}, Show: variant.ShowView})
	if g.Outcome().Over() {
		return notices
	}
	return append(notices, variant.Notice{To: variant.To(g.x), Kind: "your-turn", Words: "conditional/send-a", Args: args{"HowTo": cHowTo}})
}

// executeC plays or skips X's C-move on the position after the B-move (CO-D5) and returns
// the announcement and whether it was played.
func (g *Game) executeC(x chess.Color, bCheck bool) (string, bool) {
	c := g.pending
	if c == nil {
		g.plies = append(g.plies, plyRecord{'C', x, "-"})
		return fmt.Sprintf("%s stated no C-move: skipped.", x), false
	}
	chosen, which := c.els, "else"
	if g.holds(c) {
		chosen, which = c.then, "then"
	}
	played := ""
	if chosen.from != chess.NoSquare && g.pos.At(chosen.from).Color() == x && g.pos.At(chosen.from) != chess.NoPiece {
		legal := g.legalFor(x)
		want := chess.Move{From: chosen.from, To: chosen.to, Promotion: chosen.promo}
		m, ok := chess.FindMove(legal, want)
		if !ok && want.Promotion == chess.NoRole {
			want.Promotion = chess.Queen // a promotion that does not say its piece makes a queen
			m, ok = chess.FindMove(legal, want)
		}
		if ok {
			played = g.play(x, m)
		}
	}
	if c.expect == "none" {
		if played != "" {
			g.notes = append(g.notes, fmt.Sprintf("ply %d (%s): the record stars neither branch, but the rules play the %s-branch (%s)", len(g.plies)+1, c.text, which, chosen.text))
		}
	} else if c.expect != "" && (played == "" || c.expect != which) {
		g.notes = append(g.notes, fmt.Sprintf("ply %d (%s): the record marks the %s-branch as played, but the rules %s", len(g.plies)+1, c.text, c.expect,
			map[bool]string{true: "play the " + which + "-branch", false: "skip the C-move"}[played != ""]))
	}
	if played == "" {
		why := "illegal"
		if bCheck {
			why = "check"
		}
		g.plies = append(g.plies, plyRecord{'C', x, c.text})
		return fmt.Sprintf("%s's C-move %s: skipped (%s).", x, c.text, why), false
	}
	text := starred(c, which)
	g.plies = append(g.plies, plyRecord{'C', x, text})
	return fmt.Sprintf("%s's C-move: %s, played %s.", x, text, played), true
}

// discard ends the life of a pending C-move when the game is over: it is not played, and the
// record reveals it in a comment (CO-D9, rules.md 0.4b; the referee sends the record).
func (g *Game) discard() {
	if g.pending != nil {
		g.pending, g.discarded = nil, g.pending
	}
}

// holds evaluates a condition for the C-move's author; "enemy" is his opponent (CO-D5).
func (g *Game) holds(c *cmove) bool {
	pc := g.pos.At(c.cond.sq)
	switch c.cond.kind {
	case '!':
		return true
	case 'e':
		return pc == chess.NoPiece
	case 'E':
		return pc != chess.NoPiece && pc.Color() != c.author
	case 'R':
		return pc != chess.NoPiece && pc.Color() != c.author && pc.Role() == c.cond.role
	}
	return false
}

// starred writes the C-move with its played branch between stars (C:L63).
func starred(c *cmove, which string) string {
	if c.cond.kind == '!' {
		return c.text
	}
	q := strings.IndexByte(c.text, '?')
	cond, rest := c.text[:q+1], c.text[q+1:]
	then, els, _ := strings.Cut(rest, "/")
	if which == "then" {
		return cond + "*" + then + "*/" + els
	}
	return cond + then + "/*" + els + "*"
}

// TakeNotes returns and clears the notes on a record's marks (record replay shows them);
// each names the ply it is about.
func (g *Game) TakeNotes() []string {
	n := g.notes
	g.notes = nil
	return n
}

// Plies is the number of plies so far, three to a cycle as the record writes them (A, B, C,
// a skipped C-move included).
func (g *Game) Plies() int { return len(g.plies) }

// View is the whole board; the author alone also sees his stated C-move (CO-D8).
func (g *Game) View(v variant.Viewer) variant.View {
	p := g.pos
	p.Turn = g.mover()
	return g.BoardView(v, &p, func() []variant.Line {
		lines := []variant.Line{variant.Says("view/conditional-next", map[string]any{"Side": g.mover(), "Part": string(g.state), "Check": p.InCheck(), "InCheck": p.Turn})}
		if g.pending != nil && (v == variant.AsReferee || variant.Side(v) == g.pending.author) {
			lines = append(lines, variant.Says("view/conditional-stated", map[string]any{"Move": g.pending.text}))
		}
		return lines
	})
}

// Movetext writes the plies in the sample game's notation: one cycle per number, A B C, with
// the played branch of each C-move starred and "-" for no C-move. A C-move that the end of
// the game left unplayed follows in a comment.
func (g *Game) Movetext() string {
	var sb strings.Builder
	for i, p := range g.plies {
		if i%3 == 0 {
			if i > 0 {
				sb.WriteByte(' ')
			}
			fmt.Fprintf(&sb, "%d.", i/3+1)
		}
		sb.WriteByte(' ')
		sb.WriteString(p.text)
	}
	if c := g.discarded; c != nil {
		fmt.Fprintf(&sb, " {%s's C-move, stated but not played: %s}", c.author, c.text)
	}
	return sb.String()
}

// Steps reads the sample game's notation: the plies in order, three to a cycle (A-move,
// B-move, C-move as executed or skipped); numbers and "..." placeholders are ignored. Each
// cycle's C-move is stated with its A-move.
func Steps(start variant.Game, toks []record.Token, buf []variant.Step) ([]variant.Step, error) {
	var plies []string
	for _, t := range toks {
		switch t.Kind {
		case record.Symbol:
			text := t.Text
			if _, rest, ok := record.NumberAndSymbol(text); ok {
				text = rest
			}
			if strings.Trim(text, ".…") == "" {
				continue
			}
			plies = append(plies, text)
		case record.Paren:
			if len(plies) > 0 {
				plies[len(plies)-1] += t.Text
			}
		}
	}
	steps := buf
	for i := 0; i < len(plies); i += 3 {
		a := "A: " + plies[i]
		if i+2 < len(plies) && plies[i+2] != "-" {
			a += " C: " + plies[i+2]
		}
		steps = append(steps, variant.Step{Auto: true, Text: a, Where: "ply ", Num: i + 1})
		if i+1 < len(plies) {
			steps = append(steps, variant.Step{Auto: true, Text: "B: " + plies[i+1], Where: "ply ", Num: i + 2})
		}
	}
	return steps, nil
}
