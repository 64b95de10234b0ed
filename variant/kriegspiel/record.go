package kriegspiel

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/record"
	"github.com/refereed/refereed/variant"
)

// Movetext writes the umpire's whole log (the package doc describes the notation): the true
// game in PGN movetext (Kriegspiel) or in series (Progressive Kriegspiel), each turn's
// failed attempts and "Any?" in a comment before its move.
func (g *Game) Movetext() string { return g.rules.movetext(g) }

// umpireLog is movetext being written: its tokens, and the answers of the turn not yet
// written, for the comment before its move.
type umpireLog struct {
	toks, pending []string
}

func (w *umpireLog) add(s string) { w.toks = append(w.toks, s) }

// answer keeps e for the comment when it is a "No" or the answer to "Any?" (a failed attempt
// in long algebraic, read on p); it reports whether it was.
func (w *umpireLog) answer(p *chess.Position, e event) bool {
	switch e.kind {
	case evNo:
		w.pending = append(w.pending, longAlgebraic(p, e.move)+": No")
	case evAny:
		w.pending = append(w.pending, "Any?: "+e.answer.String())
	default:
		return false
	}
	return true
}

// comment writes the answers kept, if any, as one comment.
func (w *umpireLog) comment() {
	if len(w.pending) > 0 {
		w.add("{" + strings.Join(w.pending, "; ") + "}")
		w.pending = w.pending[:0]
	}
}

func (w *umpireLog) String() string { return strings.Join(w.toks, " ") }

// krMovetext writes Kriegspiel's log in PGN movetext: "1. e4 d5 2. {Any?: Try; e4-f5: No} e5".
func krMovetext(g *Game) string {
	var w umpireLog
	p := g.start
	for _, e := range g.events {
		if w.answer(&p, e) {
			continue
		}
		switch {
		case p.Turn == chess.White:
			w.add(strconv.Itoa(p.Fullmove) + ".")
		case len(w.toks) == 0 || len(w.pending) > 0:
			w.add(strconv.Itoa(p.Fullmove) + "...")
		}
		w.comment()
		w.add(g.san(&p, e))
		p.Play(e.move)
	}
	if len(w.pending) > 0 {
		// Attempts of a turn that has no move (yet): the game goes on, or ended during it.
		if p.Turn == chess.White {
			w.add(strconv.Itoa(p.Fullmove) + ".")
		} else {
			w.add(strconv.Itoa(p.Fullmove) + "...")
		}
		w.comment()
	}
	return w.String()
}

// pkMovetext writes Progressive Kriegspiel's log in series: "1 d4 2 {c7-b6: No} d5, Nc6".
func pkMovetext(g *Game) string {
	var w umpireLog
	p := g.start
	open := false // the current series has a move written
	for _, e := range g.events {
		if w.answer(&p, e) {
			continue
		}
		if e.k == 1 {
			w.add(strconv.Itoa(e.n))
		} else {
			w.toks[len(w.toks)-1] += ","
		}
		w.comment()
		w.add(g.san(&p, e))
		p.Play(e.move)
		p.Turn, p.EnPassant, open = e.by, chess.NoSquare, true
		if e.checks.n > 0 || e.k == e.n {
			p.Turn, open = e.by.Other(), false
		}
	}
	if len(w.pending) > 0 {
		// Attempts of a series that has no move (yet): the game goes on, or ended during it.
		if !open {
			w.add(strconv.Itoa(g.series))
		}
		w.comment()
	}
	return w.String()
}

// san writes the move of e, legal in p, in SAN with the check or mate mark its announcement
// gave.
func (g *Game) san(p *chess.Position, e event) string {
	s := strings.TrimRight(p.SAN(e.move), "+#")
	switch {
	case e.end == endMate:
		s += "#"
	case e.checks.n > 0:
		s += "+"
	}
	return s
}

// Steps reads a record: the true game, with the umpire's comments where the record has them.
// Kriegspiel records are PGN movetext ("1. e4 d5 2. exd5"), Progressive Kriegspiel records
// numbered series ("1 e4 2 d5, Nc6"). A comment whose every item is "<attempt>: No" or
// "Any?: <answer>" gives attempts of the player whose move comes next (Kriegspiel) or of the
// series it stands in; other comments, NAGs and variations are skipped.
func Steps(start variant.Game, toks []record.Token, buf []variant.Step) ([]variant.Step, error) {
	g := start.(*Game)
	return g.rules.steps(g, toks, buf)
}

// movetextSteps reads Kriegspiel movetext: "1. e4 d5 2. {Any?: Try; e4-f5: No} e5".
func movetextSteps(g *Game, toks []record.Token, buf []variant.Step) ([]variant.Step, error) {
	steps := buf
	count := record.Counter{No: g.pos.Fullmove, Black: g.pos.Turn == chess.Black}
	lastMove := -1
	place := func(text string) variant.Step {
		side, after := chess.White, ""
		if count.Black {
			side, after = chess.Black, "..."
		}
		return variant.Step{By: side, Text: text, Where: "move ", Num: count.No, After: after, Warnings: count.Warnings()}
	}
	for _, t := range toks {
		switch t.Kind {
		case record.Number, record.Symbol:
			num, text := record.MoveText(t)
			if num != "" {
				count.Number(num)
			}
			if text == "" {
				continue
			}
			steps = append(steps, place(text))
			lastMove = len(steps) - 1
			count.Next()
		case record.Paren:
			if lastMove < 0 || lastMove != len(steps)-1 {
				return nil, fmt.Errorf("%s before any move", t.Text)
			}
			steps[lastMove].Text += t.Text
		case record.Comment:
			for _, it := range umpireItems(t.Text) {
				steps = append(steps, place(it))
			}
		case record.Comma:
			return nil, record.At(t.Offset, "unexpected comma (is this a Progressive Kriegspiel record? add [Variant \"Progressive Kriegspiel\"])")
		case record.Result:
			return steps, nil
		}
	}
	return steps, nil
}

// seriesSteps reads Progressive Kriegspiel movetext: "1 e4 2 {c7-c5: No} d5, Nc6".
func seriesSteps(g *Game, toks []record.Token, buf []variant.Step) ([]variant.Step, error) {
	steps := buf
	no := g.series
	lastMove := -1
	var warn []string
	place := func(text string) variant.Step {
		w := warn
		warn = nil
		return variant.Step{By: chess.Color(1 - no%2), Text: text, Where: "series ", Num: no, Warnings: w}
	}
	// A series number names the series whose moves follow; one that is not the next series
	// is a warning, and the count goes on (a record's numbers are labels).
	numbered := false
	setNumber := func(t string) {
		if lastMove >= 0 || numbered {
			if lastMove >= 0 {
				no++
			}
			if w := record.NumberFits(strings.TrimRight(t, "."), no, false); w != "" {
				warn = append(warn, w)
			}
			lastMove = -1
			numbered = true
			return
		}
		numbered = true
		if n, err := strconv.Atoi(strings.TrimRight(t, ".")); err == nil && n > 0 {
			no = n
		} else {
			warn = append(warn, record.NumberFits(t, no, false))
		}
	}
	for _, t := range toks {
		switch t.Kind {
		case record.Number, record.Symbol:
			num, text := record.MoveText(t)
			if num != "" {
				setNumber(num)
			}
			if text == "" {
				continue
			}
			steps = append(steps, place(text))
			lastMove = len(steps) - 1
		case record.Paren:
			if lastMove < 0 || lastMove != len(steps)-1 {
				return nil, fmt.Errorf("%s before any move", t.Text)
			}
			steps[lastMove].Text += t.Text
		case record.Comment:
			for _, it := range umpireItems(t.Text) {
				steps = append(steps, place(it))
			}
		case record.Result:
			return steps, nil
		}
	}
	return steps, nil
}

// umpireItems reads a comment of the umpire's log: "Any?: Try; e4-f5: No". It returns nil
// unless every item is "<attempt or Any?>: <No, Try or Nonsense>"; whether the answer fits
// is for the replay to check ("e4-f5: Try" is a wrong record, not a comment).
func umpireItems(text string) []string {
	var out []string
	for _, part := range strings.Split(text, ";") {
		what, answer, ok := cutAnswer(strings.TrimSpace(part))
		switch {
		case !ok:
			return nil
		case isAny(what):
			out = append(out, "Any?: "+answer)
		default:
			if _, err := chess.ParseNotation(what); err != nil {
				return nil
			}
			out = append(out, what+": "+answer)
		}
	}
	return out
}

// cutAnswer splits "e4-f5: No" into the attempt and the umpire's answer, in lower case.
func cutAnswer(s string) (what, answer string, ok bool) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return "", "", false
	}
	answer = strings.ToLower(strings.TrimSpace(s[i+1:]))
	switch answer {
	case "no", "try", "nonsense":
		return strings.TrimSpace(s[:i]), answer, true
	}
	return "", "", false
}

func isAny(s string) bool {
	s = strings.ToLower(s)
	return s == "any?" || s == "any"
}

var _ variant.RecordResolver = (*Game)(nil)
var _ variant.PlyCounter = (*Game)(nil)

// ResolveRecord reads a record's step: a move of the true game, which must be legal ("Nf3",
// resolved as SAN is, against the legal moves), or an umpire's answer from a comment ("e4-f5:
// No", "Any?: Try"), which the replay checks.
func (g *Game) ResolveRecord(by variant.Side, text string) (variant.Command, []chess.Warning, error) {
	if cmd, done, err := g.ResolvePreamble(by, text); done {
		return cmd, nil, err
	}
	if by != g.pos.Turn {
		if g.done > 0 {
			// A series part made (only a series can be): the record moves on before it is
			// whole. Say so as Progressive does.
			return variant.Command{}, nil, variant.Refuse("progressive/series-short", map[string]any{"N": g.series, "Sent": g.done})
		}
		return variant.Command{}, nil, variant.Refuse("common/not-your-move", map[string]any{"Turn": g.pos.Turn})
	}
	if what, answer, ok := cutAnswer(text); ok {
		// The umpire's comments are annotations: one that does not fit the game is skipped
		// with a warning, as a wrong check mark is (a move that cannot be played is an error).
		if isAny(what) {
			if !g.rules.any || g.asked {
				return variant.Command{}, nil, &variant.Skip{Why: "no Any? can be asked here"}
			}
			if got := g.anyAnswer(by); got.word() != answer {
				return variant.Command{}, nil, &variant.Skip{Why: fmt.Sprintf("the record says Any?: %s, but the answer here is %s", answer, got)}
			}
			return variant.Command{By: by, Text: cmdAny + " " + answer}, nil, nil
		}
		if answer != "no" {
			return variant.Command{}, nil, &variant.Skip{Why: fmt.Sprintf("an attempt's answer is No, not %s", answer)}
		}
		n, err := chess.ParseNotation(what)
		if err != nil {
			return variant.Command{}, nil, &variant.Skip{Why: err.Error()}
		}
		m, possible, warns, err := g.resolveAttempt(by, item{text: what, n: n})
		switch {
		case err != nil:
			return variant.Command{}, warns, &variant.Skip{Why: err.Error()}
		case !possible:
			return variant.Command{}, warns, &variant.Skip{Why: fmt.Sprintf("%s is impossible: no man of %v's can make it", what, by)}
		}
		if _, legal := chess.FindMove(g.legal, m); legal {
			return variant.Command{}, warns, &variant.Skip{Why: fmt.Sprintf("the record says No, but %s is legal here", what)}
		}
		return variant.Command{By: by, Text: variant.MoveCommand(m) + " " + expectNo}, warns, nil
	}
	n, err := chess.ParseNotation(text)
	if err != nil {
		return variant.Command{}, nil, variant.Reject("%v", err)
	}
	m, warns, err := chess.Resolve(&g.pos, n, g.legal)
	if err != nil {
		if _, possible, _, e2 := g.resolveAttempt(by, item{text: text, n: n}); e2 == nil && possible {
			return variant.Command{}, nil, variant.Refuse("kriegspiel/record-umpire-no", map[string]any{"Why": err})
		}
		return variant.Command{}, nil, variant.Reject("%v", err)
	}
	kept := warns[:0]
	for _, w := range warns {
		if w.Code == chess.WarnRookT || w.Code == chess.WarnFileCapture {
			kept = append(kept, w)
		}
	}
	return variant.Command{By: by, Text: variant.MoveCommand(m) + " " + expectPlayed}, kept, nil
}
