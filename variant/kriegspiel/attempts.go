package kriegspiel

import (
	"errors"
	"maps"
	"strings"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/variant"
)

// Resolve reads a line: an attempt ("e2e4", "Nf3", "MOVE e4"), "Any?", a list of attempts
// ("try exf5; else e5; else Nf3", "NOSTOP e4, d4, Nf3"), or a common command. A single
// attempt that could be legal becomes "move <uci>", "Any?" becomes "any"; anything else is
// "try <items>", which Submit tries in order (and logs each answer as "move" or "any").
func (g *Game) Resolve(by variant.Side, text string) (variant.Command, []chess.Warning, error) {
	if cmd, done, err := g.ResolvePreamble(by, text); done {
		return cmd, nil, err
	}
	l, err := parseList(text)
	var rej *variant.Rejection
	if errors.As(err, &rej) && !g.rules.any && (rej.Words == "kriegspiel/no-attempt" || rej.Words == "kriegspiel/not-an-attempt") {
		// No Any? to offer (PK-D1, PK-D2): the sentence says so.
		args := maps.Clone(rej.Args)
		args["Progressive"] = true
		if rej.Words == "kriegspiel/no-attempt" {
			err = variant.Refuse("kriegspiel/no-attempt", args)
		} else {
			err = variant.Refuse("kriegspiel/not-an-attempt", args)
		}
	}
	if err != nil {
		return variant.Command{}, nil, err
	}
	if by != g.pos.Turn {
		return variant.Command{}, nil, g.rules.outOfTurn(g)
	}
	if l.nostop && !g.rules.nostop {
		return variant.Command{}, nil, variant.Refuse("kriegspiel/nostop-progressive", nil)
	}
	for i, it := range l.items {
		switch {
		case it.any && !g.rules.any:
			return variant.Command{}, nil, variant.Refuse("kriegspiel/no-any", map[string]any{"Explain": true})
		case it.any && i > 0:
			return variant.Command{}, nil, variant.Refuse("kriegspiel/any-first", nil)
		}
	}
	// Every attempt of a Kriegspiel list is judged from the same men (the list ends when
	// one is played); in a series only the first one is, the men move under the others.
	var warns []chess.Warning
	var single chess.Move
	possible := false
	for i, it := range l.items {
		if it.any || (g.rules.series && i > 0) {
			continue
		}
		m, ok, w, err := g.resolveAttempt(by, it)
		if err != nil {
			return variant.Command{}, warns, variant.Refuse("common/move-why", map[string]any{"Move": it.text, "Why": err})
		}
		warns = append(warns, w...)
		single, possible = m, ok
	}
	if len(l.items) == 1 && !l.nostop {
		if l.items[0].any {
			return variant.Command{By: by, Text: cmdAny}, warns, nil
		}
		if possible {
			return variant.Command{By: by, Text: variant.MoveCommand(single)}, warns, nil
		}
	}
	return variant.Command{By: by, Text: l.String()}, warns, nil
}

// resolveAttempt reads one attempt against by's own men: the move, and whether it could be
// legal (false: "Impossible", KR-D2). An error is a line to refuse: the attempt names no
// move of his men unambiguously (two knights could go there, a promotion without its piece).
func (g *Game) resolveAttempt(by chess.Color, it item) (chess.Move, bool, []chess.Warning, error) {
	own := g.ownPosition(by)
	cands := g.possible(by)
	if it.n.Role == chess.Pawn && it.n.FromFile < 0 {
		// "e6" is a push: without the pawn's file no diagonal step is meant, though each is
		// possible here (an enemy man may stand there).
		pushes := cands[:0]
		for _, m := range cands {
			if m.From.File() == m.To.File() || own.At(m.From).Role() != chess.Pawn {
				pushes = append(pushes, m)
			}
		}
		cands = pushes
	}
	m, warns, err := chess.Resolve(&own, it.n, cands)
	if err != nil {
		if matching(&own, it.n, cands) == 0 {
			return chess.NullMove, false, nil, nil
		}
		return chess.NullMove, false, nil, err
	}
	// The capture sign and check marks mean nothing in a game where the mover cannot see
	// (rules.md 0.3b): only the rook written T is worth a note.
	kept := warns[:0]
	for _, w := range warns {
		if w.Code == chess.WarnRookT {
			kept = append(kept, w)
		}
	}
	return m, true, kept, nil
}

// matching counts the candidates n could mean, whatever its promotion piece.
func matching(own *chess.Position, n chess.Notation, cands []chess.Move) int {
	count := 0
	for _, m := range cands {
		switch {
		case n.Castle != 0:
			if m.Kind == chess.Castle && (m.To < m.From) == (n.Castle == chess.CastleLong) {
				count++
			}
		case m.To != n.To,
			n.Role != chess.NoRole && own.At(m.From).Role() != n.Role,
			n.FromFile >= 0 && m.From.File() != int(n.FromFile),
			n.FromRank >= 0 && m.From.Rank() != int(n.FromRank):
		default:
			count++
		}
	}
	return count
}

// Canonical commands. "move <uci>" is an announced attempt and "any" the question: what the
// log holds. Records add the umpire's answer for replay to check ("move e4f5 no", "move
// e2e4 played", "any try"). "try ..." is a list, never logged: each answer is.
const (
	cmdAny       = "any"
	expectNo     = "no"
	expectPlayed = "played"
)

// Submit applies a canonical command.
func (g *Game) Submit(cmd variant.Command) ([]variant.Notice, error) {
	if notices, done, err := g.SubmitPreamble(cmd); done {
		return notices, err
	}
	by := cmd.By
	// Parsed without allocating: a replay reads many of these.
	verb, rest, _ := strings.Cut(cmd.Text, " ")
	switch verb {
	case cmdAny:
		if strings.Contains(rest, " ") {
			break
		}
		ns, _, err := g.ask(by, rest)
		return ns, err
	case "move":
		uci, expect, _ := strings.Cut(rest, " ")
		if uci == "" || strings.Contains(expect, " ") {
			break
		}
		return g.submitMove(by, uci, expect)
	case "try":
		l, err := parseList(cmd.Text)
		if err != nil {
			return nil, err
		}
		return g.submitList(by, l)
	}
	return nil, variant.Refuse("common/unknown-command", map[string]any{"Text": cmd.Text})
}

// submitMove answers one attempt written in coordinates: the log's form. A line of one
// attempt stops the reading of the mail as a list would (KR-D9, PK-D6).
func (g *Game) submitMove(by chess.Color, uci, expect string) ([]variant.Notice, error) {
	if by != g.pos.Turn {
		return nil, variant.Refuse("common/not-your-move", map[string]any{"Turn": g.pos.Turn})
	}
	want, err := chess.ParseUCI(uci)
	if err != nil {
		return nil, variant.Reject("%v", err)
	}
	m, ok := chess.FindMove(g.possible(by), want)
	if !ok {
		if expect != "" {
			return nil, variant.Refuse("kriegspiel/record-impossible", map[string]any{"Move": uci, "By": by})
		}
		return g.impossible(by, uci), nil
	}
	ns, r, err := g.attempt(by, m, expect)
	if err != nil {
		return nil, err
	}
	if why := g.stopWhy(r, false); why != "" && !g.Quiet() {
		ns = append(ns, variant.Notice{To: variant.To(by), Kind: "kriegspiel/stop", Stop: true})
	}
	return ns, nil
}

// impossible is the private answer to an attempt no position of the opponent's men makes
// legal (KR-D2): nothing changes, nothing is announced.
func (g *Game) impossible(by chess.Color, shown string) []variant.Notice {
	if g.Quiet() {
		return nil
	}
	return []variant.Notice{{To: variant.To(by), Kind: "kriegspiel/impossible", Args: map[string]any{"Move": shown}}}
}

// result is what one announced answer was, for deciding where a list stops.
type result struct {
	played, capture, check, tries, turnOver bool
}

// stopWhy says why a list stops after r, or "" when it goes on: at the end of the game, or
// where the game's rules say (KR-D9, PK-D6).
func (g *Game) stopWhy(r result, nostop bool) string {
	if g.Outcome().Over() {
		return "over"
	}
	return g.rules.stop(r, nostop)
}

// anyAnswer is the umpire's answer to by's "Any?" now (KR-D3).
func (g *Game) anyAnswer(by chess.Color) anyAnswer {
	switch {
	case g.pos.ByPiece(by, chess.Pawn) == 0:
		return anyNonsense
	case g.hasPawnCapture(g.legal):
		return anyTry
	}
	return anyNo
}

// ask answers "Any?" (KR-D3): "Try" when the player to move has a legal pawn capture, "No"
// when he has none, "Nonsense" when he has no pawn. Everyone hears the answer.
func (g *Game) ask(by chess.Color, expect string) ([]variant.Notice, result, error) {
	switch {
	case !g.rules.any:
		return nil, result{}, variant.Refuse("kriegspiel/no-any", map[string]any{"Explain": false})
	case by != g.pos.Turn:
		return nil, result{}, variant.Refuse("kriegspiel/any-not-your-move", nil)
	case g.asked:
		return nil, result{}, variant.Refuse("kriegspiel/any-asked", nil)
	}
	answer := g.anyAnswer(by)
	if expect != "" && expect != answer.word() {
		return nil, result{}, variant.Refuse("kriegspiel/record-any", map[string]any{"Record": expect, "Answer": answer})
	}
	g.asked = true
	g.mustPawn = answer == anyTry
	g.events = append(g.events, event{by: by, kind: evAny, answer: answer, fullmove: g.pos.Fullmove})
	g.Accept(variant.Command{By: by, Text: cmdAny})
	if g.Quiet() {
		return nil, result{played: false}, nil
	}
	return []variant.Notice{{To: variant.ToBoth, Kind: "kriegspiel/any", Args: map[string]any{"By": by, "Answer": answer.String()}, Show: variant.ShowView}}, result{}, nil
}

// attempt answers an attempt m of by's that could be legal (KR-D2): "No" when the umpire's
// board makes it illegal, else it is played. Either way everyone hears it (KR-D1). expect is
// a record's answer to check ("" from a player).
func (g *Game) attempt(by chess.Color, m chess.Move, expect string) ([]variant.Notice, result, error) {
	if g.mustPawn && !g.isPawnCapture(m) {
		return nil, result{}, variant.Refuse("kriegspiel/must-try", nil)
	}
	real, legal := chess.FindMove(g.legal, m)
	switch {
	case expect == expectNo && legal:
		return nil, result{}, variant.Refuse("kriegspiel/record-no", map[string]any{"Move": m.UCI()})
	case expect == expectPlayed && !legal:
		return nil, result{}, variant.Refuse("kriegspiel/record-played", map[string]any{"Move": m.UCI()})
	case expect != "" && expect != expectNo && expect != expectPlayed:
		return nil, result{}, variant.Refuse("kriegspiel/record-answer", map[string]any{"Answer": expect})
	}
	shown := ""
	if !g.Quiet() {
		shown = longAlgebraic(&g.pos, m)
	}
	g.mustPawn = false
	if !legal {
		g.events = append(g.events, event{by: by, kind: evNo, move: m, fullmove: g.pos.Fullmove, k: g.done + 1, n: g.series})
		g.Accept(variant.Command{By: by, Text: variant.MoveCommand(m)})
		if g.Quiet() {
			return nil, result{}, nil
		}
		args := func(mine bool) map[string]any {
			a := map[string]any{"By": by, "Move": ""}
			if mine {
				a["Move"] = shown
			}
			return a
		}
		return []variant.Notice{
			{To: variant.To(by), Kind: "kriegspiel/no", Args: args(true), Show: variant.ShowView},
			{To: variant.To(by.Other()), Kind: "kriegspiel/no", Args: args(false), Show: variant.ShowView},
		}, result{}, nil
	}
	ev := g.play(by, real)
	g.Accept(variant.Command{By: by, Text: variant.MoveCommand(m)})
	r := result{played: true, capture: ev.captured != chess.NoSquare, check: ev.checks.n > 0, tries: ev.tries == triesYes,
		turnOver: g.pos.Turn != by}
	if g.Quiet() {
		return nil, r, nil
	}
	ns := []variant.Notice{
		{To: variant.To(by), Kind: "kriegspiel/played", Args: g.playedArgs(ev, shown), Show: variant.ShowView},
		{To: variant.To(by.Other()), Kind: "kriegspiel/played", Args: g.playedArgs(ev, ""), Show: variant.ShowView},
	}
	if g.Outcome().Over() {
		ns = append(ns, g.OverNotice())
	}
	return ns, r, nil
}

// play makes the legal move m of by's on the umpire's board, goes on as the game's rules say
// (the turn passes, or the series goes on), and returns the move's announcement.
func (g *Game) play(by chess.Color, m chess.Move) event {
	p := &g.pos
	pawn := p.At(m.From).Role() == chess.Pawn
	ev := event{by: by, kind: evPlayed, move: m, captured: chess.NoSquare, fullmove: p.Fullmove, k: g.done + 1, n: g.series}
	if p.Play(m) != chess.NoPiece {
		ev.captured = m.CaptureSquare()
		ev.ep = m.Kind == chess.EnPassant
	}
	ev.checks = checkDirections(&p.Board, by.Other())
	g.plies++
	g.rules.played(g, &ev, pawn || ev.captured != chess.NoSquare)
	switch g.Outcome().Termination {
	case "checkmate":
		ev.end = endMate
	case "stalemate":
		ev.end = endStalemate
	}
	g.events = append(g.events, ev)
	return ev
}

// playedArgs are the words of a move's announcement; shown, for the mover alone, is the
// attempt that was played.
func (g *Game) playedArgs(ev event, shown string) map[string]any {
	a := map[string]any{"By": ev.by, "Move": shown, "K": 0, "Of": 0, "Captured": "", "EP": ev.ep,
		"Checks": ev.checks.names(), "Mate": ev.end == endMate, "Stalemate": ev.end == endStalemate, "Tries": "", "Next": g.pos.Turn}
	a["K"], a["Of"] = g.moveOf(ev)
	if shown != "" {
		a["Numeric"] = chess.Numeric(ev.move) // the mover's own move, for him in numeric notation
	}
	if ev.captured != chess.NoSquare {
		a["Captured"] = ev.captured.String()
	}
	switch ev.tries {
	case triesYes:
		a["Tries"] = "yes"
	case triesNo:
		a["Tries"] = "no"
	}
	return a
}

// longAlgebraic writes m, a move of the man on its from-square in p, as the player's own
// men say it: "Ng1-f3", "e4-f5", "e7-e8=Q", "O-O".
func longAlgebraic(p *chess.Position, m chess.Move) string {
	if m.Kind == chess.Castle {
		if m.To < m.From {
			return "O-O-O"
		}
		return "O-O"
	}
	s := m.From.String() + "-" + m.To.String()
	if role := p.At(m.From).Role(); role != chess.Pawn && role != chess.NoRole {
		s = role.Letter() + s
	}
	if m.Promotion != chess.NoRole {
		s += "=" + m.Promotion.Letter()
	}
	return s
}
