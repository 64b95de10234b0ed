// Package progressive is Progressive Chess under two rule sets: the traditional (Scottish)
// game, rules.md §2 and decisions PR-D1 to PR-D7, and Italian Progressive Chess (AISE), §3 and
// IT-D1 to IT-D4.
//
// How it differs from orthodox chess: turn n is a series of n moves by one player (White odd
// n, Black even n). A series is sent whole and checked as one unit: applied whole, or refused
// naming its first bad move.
//   - Scottish: a check ends the series (PR-D1); the next series still has its full length.
//   - Italian: a check may only be the last move of a full series; an earlier one is refused
//     (IT-D1), or with the game option strict-forfeit loses the game. A player in check whose
//     every escape gives check is mated ("Italian mate", IT-D2).
//   - Both: the first move of a series must escape a check; en passant only on a series'
//     first move, against pawns that double-stepped in the opponent's previous series and
//     have not moved since (PR-D4); no legal move, at the start or in mid-series, is stalemate
//     (PR-D7) unless in check at the start (mate); 10 series without a capture or a pawn move
//     draw (PR-D6, IT-D3); dead positions draw (rules.md 0.4c), also one reached inside a
//     series, which then ends there: a series with moves after that point is refused (PR-D5).
//     No repetition rule.
//
// Decisions this package adds (also in the issue note):
//   - A series that runs out of legal moves in mid-series (PR-D7) is sent as the moves that
//     were possible; the referee accepts it short and declares the draw.
//   - The option "series" (a number) starts a composed position at that series, so that a
//     FEN can stand in the middle of a game; without it a FEN's side to move plays series 1
//     (White) or 2 (Black).
//   - Check marks (rules.md 0.3a) are compared move by move with the board, with a warning;
//     "#" means that the opponent cannot start his series (checkmate or Italian mate).
//   - A series ended by a dead position may also end with a check (a bishop's capture that
//     leaves king and bishop against king): the dead position decides, a draw.
package progressive

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/record"
	"github.com/refereed/refereed/variant"
)

// Keys of the two rule sets.
const (
	KeyScottish = "progressive"
	KeyItalian  = "progressive-italian"
)

// ends are the end conditions of both rule sets (PR-D6, PR-D7, IT-D3, rules.md 0.4c): no
// repetition rule.
var ends = variant.EndRules{
	Stalemate: "%s has no move to start the series",
	Dead:      "neither side has the men to mate",
	Quiet:     variant.Limit{At: 10, Termination: "ten-series rule", Reason: "10 series without a capture or a pawn move"},
}

// Rules are what tells the two rule sets apart, a value each (Scottish, Italian): the game
// is one, played under one of them.
type Rules struct {
	Key string
	// CheckLast: a check only with the last move of a full series (IT-D2). A check before it
	// is refused (IT-D1), or forfeits the game under the option strict-forfeit; a player in
	// check whose every escape gives check before his series' last move is mated (Italian
	// mate); every diagram says so (Note).
	CheckLast bool
	Note      string
}

// The two rule sets.
var (
	Scottish = &Rules{Key: KeyScottish}
	Italian  = &Rules{Key: KeyItalian, CheckLast: true, Note: "Italian rules: a check only with the last move of a full series."}
)

func init() {
	variant.Register(&variant.Variant{Open: true, Key: KeyScottish, Name: "Progressive Chess", InProgress: variant.Spectator{Position: true, Moves: true, Turn: true},
		Aliases:  []string{"progressive chess", "scottish progressive", "scotch progressive", "scottish progressive chess"},
		Commands: []variant.CommandRow{{Word: "SERIES", Help: "help/progressive/series"}},
		New:      func(o variant.Options) (variant.Game, error) { return New(o, Scottish) },
		Options:  map[string]variant.Option{"series": {Type: variant.Number, Doc: "the number of the first series (with --fen: White plays odd series, Black even)"}},
		Steps:    Steps, WriteMovetext: func(g variant.Game) string { return g.(*Game).Movetext() }})
	variant.Register(&variant.Variant{Open: true, Key: KeyItalian, Name: "Italian Progressive Chess", InProgress: variant.Spectator{Position: true, Moves: true, Turn: true},
		Aliases:  []string{"italian progressive", "italian progressive chess"},
		Commands: []variant.CommandRow{{Word: "SERIES", Help: "help/progressive/series"}, {Help: "help/progressive/italian-note"}},
		New:      func(o variant.Options) (variant.Game, error) { return New(o, Italian) },
		Options: map[string]variant.Option{
			"series":         {Type: variant.Number, Doc: "the number of the first series (with --fen: White plays odd series, Black even)"},
			"strict-forfeit": {Type: variant.Bool, Doc: "a check before the last move of a series forfeits the game, instead of being refused"},
		},
		Steps: Steps, WriteMovetext: func(g variant.Game) string { return g.(*Game).Movetext() }})
}

// Game is a Progressive game.
type Game struct {
	variant.Common
	rules         *Rules
	strictForfeit bool
	start         chess.Position
	startSeries   int
	pos           chess.Position
	series        int            // the number of the series to play now (= its length)
	epSquares     chess.Bitboard // squares passed over by the previous series' double steps
	quiet         int            // series since the last capture or pawn move
	played        [][]string     // SAN of each series played, for records and notices
}

// New starts a game under rules (Scottish or Italian).
func New(o variant.Options, rules *Rules) (*Game, error) {
	pos, err := variant.StartPosition(o)
	if err != nil {
		return nil, err
	}
	g := &Game{Common: variant.NewCommon(), rules: rules, pos: pos, start: pos, series: 1 + int(pos.Turn)}
	if s := o.Flags["series"]; s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("option series=%q: want a positive number, odd for White, even for Black", s)
		}
		if (n%2 == 1) != (pos.Turn == chess.White) {
			return nil, fmt.Errorf("option series=%d: series %d belongs to %s, but the position has %s to move", n, n, sideOf(n), pos.Turn)
		}
		g.series = n
	}
	g.startSeries = g.series
	if g.strictForfeit, err = o.Bool("strict-forfeit"); err != nil {
		return nil, err
	}
	g.pos.EnPassant = chess.NoSquare
	if pos.EnPassant != chess.NoSquare {
		g.epSquares = pos.EnPassant.Bit()
	}
	g.judgeStart()
	return g, nil
}

func sideOf(n int) chess.Color {
	if n%2 == 1 {
		return chess.White
	}
	return chess.Black
}

func (g *Game) Key() string { return g.rules.Key }

func (g *Game) Position() chess.Position { return g.pos }

// ToAct is the player of the current series.
func (g *Game) ToAct() []variant.Side { return g.Awaiting(g.pos.Turn) }

var _ variant.TurnNamer = (*Game)(nil)

// TurnName is "series 7" for the player of the series to play.
func (g *Game) TurnName(s variant.Side) string {
	return g.NameTurn(s, g.pos.Turn, "series %d", g.series)
}

// moves lists the moves available as move k (1-based) of the current series in p: legal
// moves, en passant only on the first move (PR-D4), and under Italian rules no check before
// the last move (IT-D2).
func (g *Game) moves(p *chess.Position, k int) []chess.Move {
	return g.movesFor(p, k, g.series, g.epSquares)
}

// movesFor is moves for move k of series n, with e.p. against the squares in epSquares.
func (g *Game) movesFor(p *chess.Position, k, n int, epSquares chess.Bitboard) []chess.Move {
	if k != 1 {
		epSquares = 0
	}
	legal := p.LegalMovesEP(nil, epSquares)
	if !g.rules.CheckLast || k == n || n == 1 {
		return legal
	}
	out := legal[:0:0]
	for _, m := range legal {
		if !p.GivesCheck(m) {
			out = append(out, m)
		}
	}
	return out
}

// judgeStart ends the game if the series to play cannot start (mate, stalemate, dead
// position, the 10-series rule).
func (g *Game) judgeStart() {
	if g.Outcome().Over() {
		return
	}
	p := &g.pos
	noMove := len(g.moves(p, 1)) == 0
	g.Judge(&ends, variant.Standing{Mover: p.Turn, NoMove: noMove, InCheck: noMove && p.InCheck(),
		Dead: p.InsufficientMaterial(), Quiet: g.quiet,
		Mate: func() string {
			// IT-D2: in check, with legal escapes that all give check before the last move.
			if g.rules.CheckLast && len(g.moves(&chess.Position{Board: p.Board, Turn: p.Turn, Castling: p.Castling, EnPassant: chess.NoSquare}, g.series)) > 0 {
				return fmt.Sprintf("Italian mate: %s's every escape gives check", p.Turn)
			}
			return ""
		}})
}

// Resolve reads a series: "SERIES 5: Kd2, Kd3, Kxd4, Kxd5, e6+", "5 Kd2 Kd3 ...", or the
// moves alone. It checks the whole series and returns it in coordinates.
func (g *Game) Resolve(by variant.Side, text string) (variant.Command, []chess.Warning, error) {
	if cmd, done, err := g.ResolvePreamble(by, text); done {
		return cmd, nil, err
	}
	if by != g.pos.Turn {
		return variant.Command{}, nil, variant.Refuse("progressive/not-your-series", map[string]any{"N": g.series, "Turn": g.pos.Turn, "Wait": true})
	}
	words, warns, err := g.splitSeries(text)
	if err != nil {
		return variant.Command{}, warns, err
	}
	seq, _, more, err := g.check(words)
	warns = append(warns, more...)
	if err != nil && g.rules.CheckLast && g.strictForfeit {
		// strict-forfeit: an early check is not refused but played up to that move, and
		// Submit forfeits the game (the literal AISE rule).
		if k, early := g.earlyCheck(words); k > 0 {
			seq, err = early, nil
		}
	}
	if err != nil {
		return variant.Command{}, warns, err
	}
	uci := make([]string, len(seq))
	for i, m := range seq {
		uci[i] = m.UCI()
	}
	return variant.Command{By: by, Text: "series " + strings.Join(uci, " ")}, warns, nil
}

// Join reads a series written one move a line (as Progressive Kriegspiel takes it): while
// the moves so far are fewer than the series needs, and the next line holds moves too, the
// two are one series (variant.Joiner; the referee asks again with the line after).
func (g *Game) Join(by variant.Side, line, next string) (string, bool) {
	var rej *variant.Rejection
	if _, _, err := g.Resolve(by, line); !errors.As(err, &rej) || rej.Words != "progressive/series-short" {
		return "", false
	}
	if _, common, _ := g.ResolvePreamble(by, next); common {
		return "", false
	}
	if _, _, err := g.splitSeries(next); err != nil {
		return "", false
	}
	return line + ", " + next, true
}

// splitSeries takes the moves out of a series line.
func (g *Game) splitSeries(text string) ([]string, []chess.Warning, error) {
	t := strings.TrimSpace(text)
	var warns []chess.Warning
	if len(t) >= 6 && strings.EqualFold(t[:6], "series") {
		t = strings.TrimSpace(t[6:])
	}
	// A leading series number: "5:", "5.", "5"; not a move in numeric notation ("5755 4745").
	if i := strings.IndexFunc(t, func(r rune) bool { return r < '0' || r > '9' }); i > 0 && !(t[i] == ' ' && record.IsNumericMove(t[:i])) {
		n, _ := strconv.Atoi(t[:i])
		rest := strings.TrimLeft(t[i:], ":. ")
		if i == len(t) || t[i] == ':' || t[i] == '.' || t[i] == ' ' {
			if n != g.series {
				warns = append(warns, chess.Warning{Text: fmt.Sprintf("you wrote series %d, but this is series %d", n, g.series)})
			}
			t = rest
		}
	}
	words := strings.FieldsFunc(t, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == ';' })
	if len(words) == 0 {
		return nil, warns, variant.Refuse("progressive/no-moves", map[string]any{"N": g.series})
	}
	return words, warns, nil
}

// check plays words as the current series on a copy and returns the moves, their SAN, and
// why the series is refused, naming the first bad move.
func (g *Game) check(words []string) (seq []chess.Move, san []string, warns []chess.Warning, err error) {
	p := g.pos
	n := g.series
	for k := 1; k <= len(words); k++ {
		w := words[k-1]
		if k > n {
			return nil, nil, warns, variant.Refuse("progressive/move-too-many", map[string]any{"K": k, "Move": w, "N": n})
		}
		not, perr := chess.ParseNotation(w)
		if perr != nil {
			return nil, nil, warns, variant.Refuse("progressive/move-why", map[string]any{"K": k, "Move": w, "Why": perr})
		}
		available := g.moves(&p, k)
		m, mw, rerr := chess.Resolve(&p, not, available)
		if rerr != nil {
			// Say why a legal move is not available: the Italian check rule.
			if all := p.LegalMoves(nil); g.rules.CheckLast && len(all) > len(available) {
				if lm, _, e2 := chess.Resolve(&p, not, all); e2 == nil && p.GivesCheck(lm) {
					return nil, nil, warns, variant.Refuse("progressive/italian-early-check", map[string]any{"K": k, "Move": w})
				}
			}
			if k == 1 && p.InCheck() {
				// A move the man can make that leaves the king in check is named as such,
				// not as a move the man cannot make.
				if _, _, e2 := chess.Resolve(&p, not, p.Generate(nil, chess.MoveRules{Color: p.Turn, Pseudo: true})); e2 == nil {
					return nil, nil, warns, variant.Refuse("progressive/still-in-check", map[string]any{"Move": w})
				}
				return nil, nil, warns, variant.Refuse("progressive/in-check", map[string]any{"Move": w, "Why": rerr})
			}
			return nil, nil, warns, variant.Refuse("progressive/move-why", map[string]any{"K": k, "Move": w, "Why": rerr})
		}
		for _, x := range mw {
			if x.Code == chess.WarnCaptureMark { // rules.md 0.3b: full information
				return nil, nil, warns, variant.Refuse("progressive/move-why", map[string]any{"K": k, "Move": w, "Why": x.Text})
			}
			if x.Code != chess.WarnMissingSymbol {
				warns = append(warns, chess.Warning{Code: x.Code, Text: fmt.Sprintf("move %d (%s): %s", k, w, x.Text)})
			}
		}
		s := p.SAN(m)
		p.Play(m)
		p.Turn = g.pos.Turn // the series goes on
		p.EnPassant = chess.NoSquare
		check := p.KingAttacked(p.Turn.Other())
		seq = append(seq, m)
		if x := chess.CheckMarkWarning(not, check, check && g.mated(p, n, seq)); x != nil { // rules.md 0.3a
			warns = append(warns, chess.Warning{Code: x.Code, Text: fmt.Sprintf("move %d (%s): %s", k, w, x.Text)})
		}
		san = append(san, s)
		if p.InsufficientMaterial() {
			// A dead position ends the game at once, and the series with it (PR-D5, 0.4c).
			if k < len(words) {
				return nil, nil, warns, variant.Refuse("progressive/dead-then-more", map[string]any{"K": k, "Move": w})
			}
			return seq, san, warns, nil
		}
		if check && k < len(words) {
			return nil, nil, warns, variant.Refuse("progressive/check-then-more", map[string]any{"K": k, "Move": w})
		}
		if check {
			return seq, san, warns, nil
		}
	}
	if len(words) < n {
		// Short: allowed only if no move remains (PR-D7).
		if len(g.moves(&p, len(words)+1)) > 0 {
			return nil, nil, warns, variant.Refuse("progressive/series-short", map[string]any{"N": n, "Sent": len(words)})
		}
	}
	return seq, san, warns, nil
}

// mated reports whether the opponent, in check in p after the series seq (series n), has no
// move to start series n+1: checkmate, or under Italian rules Italian mate.
func (g *Game) mated(p chess.Position, n int, seq []chess.Move) bool {
	p.Turn = p.Turn.Other()
	return len(g.movesFor(&p, 1, n+1, chess.PassedOver(seq))) == 0
}

// Submit applies a canonical command.
func (g *Game) Submit(cmd variant.Command) ([]variant.Notice, error) {
	if notices, done, err := g.SubmitPreamble(cmd); done {
		return notices, err
	}
	rest, ok := strings.CutPrefix(cmd.Text, "series ")
	if !ok {
		return nil, variant.Refuse("common/unknown-command", map[string]any{"Text": cmd.Text})
	}
	if cmd.By != g.pos.Turn {
		return nil, variant.Refuse("progressive/not-your-series", map[string]any{"N": g.series, "Turn": g.pos.Turn, "Wait": false})
	}
	words := strings.Fields(rest)
	if g.rules.CheckLast && g.strictForfeit {
		if k, _ := g.earlyCheck(words); k > 0 {
			// strict-forfeit: the literal AISE rule (E:L1066-1067) instead of IT-D1.
			g.Accept(cmd)
			by := cmd.By
			g.End(variant.WinFor(by.Other()), "forfeit", fmt.Sprintf("%s gave check with move %d of series %d, before its last move (strict-forfeit)", by, k, g.series))
			return []variant.Notice{g.OverNotice()}, nil
		}
	}
	seq, san, _, err := g.check(words)
	if err != nil {
		return nil, err
	}
	by, n := cmd.By, g.series
	quiet := true
	for _, m := range seq {
		if g.pos.IsCapture(m) || g.pos.At(m.From).Role() == chess.Pawn {
			quiet = false
		}
		g.pos.Play(m)
		g.pos.Turn = by
		g.pos.EnPassant = chess.NoSquare
	}
	eps := chess.PassedOver(seq)
	g.Accept(cmd)
	g.played = append(g.played, san)
	g.epSquares = eps
	if quiet {
		g.quiet++
	} else {
		g.quiet = 0
	}
	dead := g.pos.InsufficientMaterial()
	ranOut := len(seq) < n && !g.pos.KingAttacked(by.Other()) && !dead // short without a check: no move was left (PR-D7)
	g.pos.Turn = by.Other()
	g.series = n + 1
	g.pos.Fullmove = (g.series + 1) / 2 // a FEN's move number: White's series 2k-1 and Black's 2k
	switch {
	case dead:
		g.End(variant.Draw, "insufficient material", ends.Dead)
	case ranOut:
		g.End(variant.Draw, "stalemate", fmt.Sprintf("%s had no move left in series %d", by, n))
	}
	g.judgeStart()
	if g.Quiet() {
		return nil, nil
	}
	notices := []variant.Notice{{To: variant.ToBoth, Kind: "series", Words: "progressive/series",
		Args: map[string]any{"By": by, "N": n, "Moves": strings.Join(san, ", "), "Numeric": numericMoves(seq), "RanOut": ranOut}, Show: variant.ShowView}}
	if g.Outcome().Over() {
		notices = append(notices, g.OverNotice())
	}
	return notices, nil
}

// earlyCheck returns the 1-based index of a check before the last move of the full series,
// or 0 (for strict-forfeit).
func (g *Game) earlyCheck(words []string) (int, []chess.Move) {
	p := g.pos
	var seq []chess.Move
	for k, w := range words {
		not, err := chess.ParseNotation(w)
		if err != nil {
			return 0, nil
		}
		eps := chess.Bitboard(0)
		if k == 0 {
			eps = g.epSquares // e.p. with the first move only (PR-D4), as movesFor
		}
		m, _, err := chess.Resolve(&p, not, p.LegalMovesEP(nil, eps))
		if err != nil {
			return 0, nil
		}
		seq = append(seq, m)
		p.Play(m)
		p.Turn = g.pos.Turn
		p.EnPassant = chess.NoSquare
		if p.KingAttacked(p.Turn.Other()) && k+1 < g.series {
			return k + 1, seq
		}
	}
	return 0, nil
}

// View is the whole board (full information) and what comes next.
func (g *Game) View(v variant.Viewer) variant.View {
	return g.BoardView(v, &g.pos, func() []variant.Line {
		lines := []variant.Line{variant.Says("view/progressive-next", map[string]any{"N": g.series, "Side": g.pos.Turn, "Check": g.pos.InCheck()})}
		if g.epSquares != 0 {
			var pawns []string
			for _, sq := range g.epSquares.Squares() {
				pawn := sq + 8
				if g.pos.Turn == chess.White {
					pawn = sq - 8
				}
				// Rule 6: not once the square it passed is taken, or the pawn moved on.
				if g.pos.At(sq) == chess.NoPiece && g.pos.At(pawn) == chess.MakePiece(g.pos.Turn.Other(), chess.Pawn) && g.canTakeEP(pawn) {
					pawns = append(pawns, pawn.String())
				}
			}
			if len(pawns) > 0 {
				lines = append(lines, variant.Says("view/progressive-ep", map[string]any{"Pawns": strings.Join(pawns, ", ")}))
			}
		}
		if g.rules.Note != "" {
			lines = append(lines, variant.Says("help/progressive/italian-note", nil))
		}
		return lines
	})
}

// canTakeEP reports whether a pawn of the side to move stands beside the pawn on sq, on its
// rank: only then is "capturable en passant" news for anyone.
func (g *Game) canTakeEP(sq chess.Square) bool {
	for _, df := range []int{-1, 1} {
		f := sq.File() + df
		if f < 0 || f > 7 {
			continue
		}
		if p := g.pos.Board.At(chess.Square(sq.Rank()*8 + f)); p.Role() == chess.Pawn && p.Color() == g.pos.Turn {
			return true
		}
	}
	return false
}

// Movetext writes the literature's notation: "1 d4 2 d5, Nc6 3 Bf4, Bxc7, Bxd8".
func (g *Game) Movetext() string {
	var parts []string
	for i, s := range g.played {
		parts = append(parts, fmt.Sprintf("%d %s", g.startSeries+i, strings.Join(s, ", ")))
	}
	return strings.Join(parts, " ")
}

// numericMoves writes a series in ICCF numeric notation, for the players who asked for it
// (the referee sets InNumeric in the notice's words for them): "5755, 4745".
func numericMoves(seq []chess.Move) string {
	out := make([]string, len(seq))
	for i, m := range seq {
		out[i] = chess.Numeric(m)
	}
	return strings.Join(out, ", ")
}

var _ variant.NumericScorer = (*Game)(nil)

// NumericScore writes the series played in ICCF numeric notation: "1 5254 2 5755, 4745".
func (g *Game) NumericScore(variant.Viewer) string {
	var parts []string
	for _, c := range g.Log() {
		rest, ok := strings.CutPrefix(c.Text, "series ")
		if !ok || len(parts) == len(g.played) {
			continue
		}
		var moves []string
		for _, uci := range strings.Fields(rest) {
			if m, err := chess.ParseUCI(uci); err == nil {
				moves = append(moves, chess.Numeric(m))
			}
		}
		parts = append(parts, fmt.Sprintf("%d %s", g.startSeries+len(parts), strings.Join(moves, ", ")))
	}
	return strings.Join(parts, " ")
}

// Steps reads Progressive records: numbered series of comma-separated moves, "1 d4 2 d5,
// Nc6 3 Bf4, Bxc7, Bxd8", numbers with or without a dot, promotions as "=Q" or "(Q)".
func Steps(start variant.Game, toks []record.Token, buf []variant.Step) ([]variant.Step, error) {
	g := start.(*Game)
	steps := buf
	no := g.series
	var cur, warn []string
	flush := func() {
		if len(cur) > 0 {
			steps = append(steps, variant.Step{By: sideOf(no), Text: strings.Join(cur, ", "), Where: "series ", Num: no, Warnings: warn})
			no++
			cur, warn = nil, nil
		}
	}
	// The first series number may start the count elsewhere (a game set up from a position);
	// a later one that is not the next series is a warning, and the count goes on.
	numbered := false
	number := func(text string) {
		flush()
		if !numbered {
			numbered = true
			if n, err := strconv.Atoi(strings.TrimRight(text, ".")); err == nil && n >= 1 {
				no = n
				return
			}
		}
		if w := record.NumberFits(strings.TrimRight(text, "."), no, false); w != "" {
			warn = append(warn, w)
		}
	}
	for _, t := range toks {
		switch t.Kind {
		case record.Number:
			number(t.Text)
		case record.Symbol:
			text := t.Text
			if num, rest, ok := record.NumberAndSymbol(text); ok {
				number(num)
				text = rest
			}
			cur = append(cur, text)
		case record.Paren:
			if len(cur) == 0 {
				return nil, fmt.Errorf("%s before any move", t.Text)
			}
			cur[len(cur)-1] += t.Text
		case record.Result:
			flush()
			return steps, nil
		}
	}
	flush()
	return steps, nil
}
