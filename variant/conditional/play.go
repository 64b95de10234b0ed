package conditional

import (
	"fmt"
	"strings"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/record"
	"github.com/refereed/refereed/variant"
)

// Submit applies a canonical command: "A e2e4 [; C ...]", "C ...", "B e7e5".
func (g *Game) Submit(cmd variant.Command) ([]variant.Notice, error) {
	if notices, done, err := g.SubmitPreamble(cmd); done {
		return notices, err
	}
	var notices []variant.Notice
	for _, part := range strings.Split(cmd.Text, " ; ") {
		f := strings.Fields(part)
		if len(f) < 2 {
			return nil, variant.Reject("malformed command %q", cmd.Text)
		}
		var ns []variant.Notice
		var err error
		switch f[0] {
		case "A":
			ns, err = g.submitA(cmd.By, f[1])
		case "C":
			ns, err = g.submitC(cmd.By, f)
		case "B":
			ns, err = g.submitB(cmd.By, f[1])
		default:
			err = variant.Reject("unknown command %q", cmd.Text)
		}
		if err != nil {
			return nil, err // A is checked before C is: an error leaves the game as it was
		}
		notices = append(notices, ns...)
	}
	g.Accept(cmd)
	if g.Quiet() {
		return nil, nil
	}
	return notices, nil
}

func (g *Game) find(by chess.Color, uci string, moves []chess.Move) (chess.Move, error) {
	want, err := chess.ParseUCI(uci)
	if err != nil {
		return chess.NullMove, variant.Reject("%v", err)
	}
	for _, m := range moves {
		if m.SameSquares(want) {
			return m, nil
		}
	}
	return chess.NullMove, variant.Reject("%s is not a legal move now", uci)
}

// play makes m for by on the referee's board and returns its SAN.
func (g *Game) play(by chess.Color, m chess.Move) string {
	g.pos.Turn = by
	san := g.pos.SAN(m)
	g.pos.Play(m)
	return san
}

func (g *Game) submitA(by chess.Color, uci string) ([]variant.Notice, error) {
	if g.state != 'A' || by != g.x {
		return nil, variant.Reject("it is not your A-move now (%s)", g.next())
	}
	m, err := g.find(by, uci, g.aMoves())
	if err != nil {
		return nil, err
	}
	san := g.play(by, m)
	g.plies = append(g.plies, plyRecord{'A', by, san})
	g.state, g.pending = 'B', nil
	notices := []variant.Notice{{To: variant.ToBoth, Kind: "a-move", Text: fmt.Sprintf("%s's A-move: %s", by, san), Show: variant.ShowView}}
	if g.pos.Turn = by.Other(); g.pos.InCheck() {
		// Only a mating A-move may check (CO-D3).
		g.End(variant.WinFor(by), "checkmate", fmt.Sprintf("%s checkmated %s with an A-move", by, by.Other()))
		return append(notices, g.endNotice()), nil
	}
	notices = append(notices, variant.Notice{To: variant.To(by.Other()), Kind: "your-turn", Text: "Your B-move."})
	return notices, nil
}

func (g *Game) submitC(by chess.Color, f []string) ([]variant.Notice, error) {
	if g.state != 'B' || by != g.x {
		return nil, variant.Reject("a C-move is stated with your A-move, or after it until your opponent's B-move (%s)", g.next())
	}
	c, err := decodeC(by, f)
	if err != nil {
		return nil, variant.Reject("%v", err)
	}
	replaced := g.pending != nil
	g.pending = c
	what := "stated"
	if replaced {
		what = "replaces the one you stated before"
	}
	// Private to its author (CO-D8): how it was read.
	return []variant.Notice{{To: variant.To(by), Kind: "c-move", Text: fmt.Sprintf("Your C-move %s %s: %s", c.text, what, describe(c))}}, nil
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

func (g *Game) submitB(by chess.Color, uci string) ([]variant.Notice, error) {
	if g.state != 'B' || by == g.x {
		return nil, variant.Reject("it is not your B-move now (%s)", g.next())
	}
	m, err := g.find(by, uci, g.legalFor(by))
	if err != nil {
		return nil, err
	}
	x := g.x
	san := g.play(by, m)
	g.plies = append(g.plies, plyRecord{'B', by, san})
	notices := []variant.Notice{{To: variant.ToBoth, Kind: "b-move", Text: fmt.Sprintf("%s's B-move: %s", by, san)}}
	g.pos.Turn = x
	bCheck := g.pos.InCheck()
	if bCheck && len(g.legalFor(x)) == 0 {
		g.End(variant.WinFor(by), "checkmate", fmt.Sprintf("%s checkmated %s with a B-move", by, x))
		g.plies = append(g.plies, plyRecord{'C', x, "-"})
		return append(notices, g.endNotice()), nil
	}
	text, executed := g.executeC(x, bCheck)
	notices = append(notices, variant.Notice{To: variant.ToBoth, Kind: "c-move", Text: text})
	// CO-D2: a B-move check whose C-move did not escape gives X the next A-move.
	if executed || !bCheck {
		g.x = x.Other()
	}
	g.state, g.pending = 'A', nil
	if !g.Outcome().Over() {
		g.record()
		g.judgeA()
	}
	if g.Outcome().Over() {
		return append(notices, g.endNotice()), nil
	}
	notices[len(notices)-1].Show = variant.ShowView
	next := fmt.Sprintf("Next: %s's A-move.", g.x)
	p := g.pos
	p.Turn = g.x
	if p.InCheck() {
		next += fmt.Sprintf(" %s is in check.", g.x)
	}
	notices = append(notices, variant.Notice{To: variant.ToBoth, Kind: "next", Text: next})
	notices = append(notices, variant.Notice{To: variant.To(g.x), Kind: "your-turn", Text: "Your A-move, with your C-move."})
	return notices, nil
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
		for _, m := range g.legalFor(x) {
			if m.From == chosen.from && m.To == chosen.to && (m.Promotion == chosen.promo || chosen.promo == chess.NoRole && m.Promotion == chess.Queen) {
				played = g.play(x, m)
				break
			}
		}
	}
	if c.expect != "" && (played == "" || c.expect != which) {
		g.notes = append(g.notes, fmt.Sprintf("the record marks the %s-branch of %s as played, but the rules %s", c.expect, c.text,
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
	msg := fmt.Sprintf("%s's C-move: %s, played %s.", x, text, played)
	g.pos.Turn = x.Other()
	if g.pos.InCheck() && len(g.legalFor(x.Other())) == 0 {
		g.End(variant.WinFor(x), "checkmate", fmt.Sprintf("%s checkmated %s with a C-move", x, x.Other()))
	}
	return msg, true
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

func (g *Game) endNotice() variant.Notice {
	out := g.Outcome()
	return variant.Notice{To: variant.ToBoth, Kind: "game-over", Text: out.Reason + ". Result " + out.Result + ".", Show: variant.ShowReveal}
}

// TakeNotes returns and clears the notes on a record's marks (record replay shows them).
func (g *Game) TakeNotes() []string {
	n := g.notes
	g.notes = nil
	return n
}

// View is the whole board; the author alone also sees his stated C-move (CO-D8).
func (g *Game) View(v variant.Viewer) variant.View {
	bottom := variant.Bottom(v)
	var lines []string
	if out := g.Outcome(); out.Over() {
		lines = append(lines, out.OverLine())
	} else {
		lines = append(lines, "Next: "+g.next()+".")
		if g.pending != nil && (v == variant.AsReferee || variant.Side(v) == g.pending.author) {
			lines = append(lines, "Stated C-move (secret): "+g.pending.text+".")
		}
	}
	p := g.pos
	p.Turn = g.x
	if g.state == 'B' {
		p.Turn = g.x.Other()
	}
	return variant.View{Bottom: bottom, Panels: []variant.Panel{{Board: p.Board}}, Lines: lines, FEN: p.FEN()}
}

// Movetext writes the plies in the sample game's notation: one cycle per number, A B C, with
// the played branch of each C-move starred and "-" for no C-move.
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
		case record.Result:
			break
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
