// Package kriegspiel is Kriegspiel with the orthodox umpire rules, rules.md §4 (KR-D1 to
// KR-D9), and Progressive (Scotch) Kriegspiel, §5 (PK-D1 to PK-D7): two registered games,
// "kriegspiel" and "progressive-kriegspiel". The referee is the umpire: he keeps the true
// game, answers every attempt, and tells both players the same announcements.
//
// How the games differ from orthodox chess:
//   - Each player sees only his own men (his view is his men and the announcements so far);
//     the umpire's board is shown to nobody before the game ends (rules.md 0.4b).
//   - A move is an attempt. One that could be legal in some position holding the player's own
//     men is answered in public: "No" when it is illegal on the umpire's board (counted,
//     KR-D1), "<Colour> has played" when it is legal, and then it is made. One that could
//     not be legal whatever the opponent's men are is answered "Impossible" to him alone, not
//     announced and not counted (KR-D2): a bishop moving like a knight, a path blocked by his
//     own man, castling without the right. A pawn may always try its diagonals.
//   - A capture is announced by the square of the man captured, en passant as such, with the
//     pawn's square (KR-D5); checks by direction, one per checking man: on the rank, on the
//     file, on the long or short diagonal through the king's square (a pawn's check too), by
//     a knight (KR-D6). A promotion's piece is not announced (KR-D7).
//   - Kriegspiel: "Any?" asks whether the player has a pawn capture: "Try", "No", or
//     "Nonsense" when he has no pawn (KR-D3); once a turn, by the player to move. After
//     "Try" his next announced attempt must be a pawn capture; another is refused privately
//     (KR-D4). A line may hold a list of attempts, tried in order until one is played; the
//     rest is not tried, and the rest of the mail is not read (KR-D9).
//   - Kriegspiel ends as orthodox chess by mate and stalemate, and the umpire declares the
//     draws the players cannot claim blind: 50 moves each without a capture or a pawn move,
//     the same position three times on his board, a dead position (no mate possible by
//     material: king against king, king and one minor piece against a lone king, only
//     bishops on squares of one colour; rules.md 0.4c) (KR-D8).
//   - Progressive Kriegspiel: series of 1, 2, 3 ... moves as in Progressive Chess (rules.md
//     §2); a check ends the series. After every successful move both players are told whether
//     the player who moves next has a pawn capture, e.p. included: "pawn tries: yes" or "no"
//     (PK-D1). No "Any?" (PK-D2). Failed attempts do not use up moves (PK-D3); each success
//     is "move k of n". Running out of moves in mid-series is stalemate, a draw (PK-D4). En
//     passant only with the first move of a series, against the opponent's double steps of
//     his last series (PK-D5). A list of attempts stops at the first "No", capture, check or
//     "pawn tries: yes"; NOSTOP goes on past all but a "No" (PK-D6). Draws are Progressive
//     Chess's: stalemate, dead positions at once, 10 series without a capture or a pawn move;
//     no 50-move rule and no repetition (PK-D7).
//
// Records. `replay` and `verify` read the true game: Kriegspiel in orthodox PGN movetext,
// Progressive Kriegspiel in the Progressive series notation ("1 e4 2 d5, Nc6"), SAN or
// coordinates. The export (WriteMovetext) is the umpire's whole log in the same movetext:
// every "No" attempt and every "Any?" is a PGN comment just before the move of the turn it
// belongs to, "{Any?: Try; e4-f5: No}", failed attempts in long algebraic, so that any PGN
// reader still sees the true game and `replay` reads the comments back, checking each answer:
//
//	[Variant "Kriegspiel"]
//	1. e4 d5 2. {Any?: Try; e4-f5: No} e5 2... {Any?: No} c5
//	[Variant "Progressive Kriegspiel"]
//	1 d4 2 {c7-b6: No} d5, Nc6 3 Bf4, {Bf4-b8: No} Bxc7, Bxd8
//
// A comment is read as the umpire's only when every item in it is "<attempt>: No" or
// "Any?: Try|No|Nonsense"; any other comment is a comment. "Impossible" attempts are not in
// the log (nothing was announced), so they are not in the record either.
//
// Decisions this package takes where rules.md is silent:
//   - An "Impossible" attempt is an answer, not a refusal: reading the mail goes on, so a list
//     of alternatives written one per line, or on one line, goes on to the next attempt. It is
//     not logged (nothing changed, nothing was announced), so neither HISTORY nor the record
//     holds it; a record that gives one as an answered attempt is wrong.
//   - An attempt is read against the player's own men alone: a pawn move written without its
//     file ("e6") is a push, not one of the diagonal steps that are possible too; an attempt
//     two of his men could make ("Nd2" with knights on b1 and f3) is refused as ambiguous,
//     whatever the umpire's board says; x, + and # are ignored, without a warning (he cannot
//     know). A record's true moves are read against the umpire's legal moves, as SAN is
//     written.
//   - In a Kriegspiel list, "Any?" may come only first (KR-D9); in one line or over several
//     lines, a non-pawn-capture attempt after "Try" is refused and stops the reading (KR-D4).
//   - NOSTOP is a word of the line it stands on ("NOSTOP e4, d4, Nf3"); the referee cannot
//     tell where one mail ends and a stored state would outlive it. A line of attempts written
//     one per line stops as PK-D6 says, without NOSTOP.
//   - A successful Kriegspiel attempt always stops the reading of the mail (the attempts after
//     it are discarded, KR-D9): common commands go before the attempts.
//   - The mover is told which attempt each answer is for ("You tried Ng1-f3. White: No."); his
//     opponent reads the announcement alone, in the same words.
//   - In Progressive Kriegspiel a FEN start gives the side to move series 1 (White) or 2
//     (Black), and an e.p. square in the FEN is eligible for the first series.
//   - Checkmate is judged before a dead position (Judge's order), in both games. The dead
//     position of KR-D8 is rules.md 0.4c's (chess.InsufficientMaterial).
//   - A list stops with a private note naming what was not tried; a list's attempt that is
//     refused once something was announced (ambiguous after a move of the series, not a pawn
//     capture after Try) ends the list the same way instead of refusing the line. A line
//     holds at most MaxAttempts attempts.
package kriegspiel

import (
	"errors"
	"fmt"
	"maps"
	"strings"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/variant"
)

// Keys of the two games.
const (
	Key            = "kriegspiel"
	KeyProgressive = "progressive-kriegspiel"
)

// krEnds are Kriegspiel's end conditions (KR-D8): the umpire declares every draw.
var krEnds = variant.EndRules{
	Stalemate: "%s is stalemated",
	Dead:      "neither side has the men to mate",
	Quiet:     variant.Limit{At: 100, Termination: "fifty-move rule", Reason: "50 moves by each side without a capture or a pawn move"},
	Repeat:    variant.Limit{At: 3, Termination: "threefold repetition", Reason: "the same position on the umpire's board three times"},
}

// pkEnds are Progressive Kriegspiel's (PK-D4, PK-D7): Progressive Chess's draws.
var pkEnds = variant.EndRules{
	Stalemate: "%s has no move to start the series",
	Dead:      "neither side has the men to mate",
	Quiet:     variant.Limit{At: 10, Termination: "ten-series rule", Reason: "10 series without a capture or a pawn move"},
}

func init() {
	variant.Register(&variant.Variant{Key: Key, Name: "Kriegspiel",
		// The move number is announced to both ("Played"), and every announcement.
		InProgress: variant.Spectator{Turn: true, Public: true},
		Aliases:    []string{"kriegspiel chess", "kriegsspiel", "wild 16"},
		Commands: []variant.CommandRow{
			{Help: "help/kriegspiel/1"},
			{Word: "ANY?", Help: "help/kriegspiel/2"},
			{Help: "help/kriegspiel/3"},
		},
		New:           func(o variant.Options) (variant.Game, error) { return New(o, false) },
		Steps:         Steps,
		WriteMovetext: func(g variant.Game) string { return g.(*Game).Movetext() },
	})
	variant.Register(&variant.Variant{Key: KeyProgressive, Name: "Progressive Kriegspiel",
		// The announcements, and with them whose series it is and which of its moves (the
		// public view's first line): both players know it, each move played is announced to
		// both. No Turn: the page says it once, in the announcements' words.
		InProgress: variant.Spectator{Public: true},
		Aliases:    []string{"scotch kriegspiel", "progressive scotch kriegspiel", "scottish kriegspiel", "progressive kriegspiel chess"},
		Commands: []variant.CommandRow{
			{Help: "help/kriegspiel/4"},
			{Help: "help/kriegspiel/5"},
			{Word: "NOSTOP", Help: "help/kriegspiel/6"},
		},
		New:           func(o variant.Options) (variant.Game, error) { return New(o, true) },
		Steps:         Steps,
		WriteMovetext: func(g variant.Game) string { return g.(*Game).Movetext() },
	})
}

// Game is a game of Kriegspiel or Progressive Kriegspiel.
type Game struct {
	variant.Common
	prog  bool
	start chess.Position
	pos   chess.Position // the umpire's board; Turn is the player to move (PK: all his series)
	legal []chess.Move   // the mover's legal moves now (PK: e.p. only on a series' first move)
	buf   []chess.Move   // scratch for the moves judged from one's own men

	// Kriegspiel's turn.
	asked    bool     // "Any?" was asked this turn (KR-D3)
	mustPawn bool     // "Try" was answered and no pawn capture tried since (KR-D4)
	hashes   []uint64 // every position after a move, the start included (KR-D8)

	// Progressive Kriegspiel's series.
	series       int            // the current series' number, which is its length
	done         int            // moves made in it
	eps          chess.Bitboard // squares an e.p. capture may land on with its first move (PK-D5)
	seriesMoves  []chess.Move   // moves made in it, for the next series' e.p. squares
	irreversible bool           // a capture or a pawn move in it
	quietSeries  int            // series in a row without a capture or a pawn move (PK-D7)

	events []event // the umpire's log: every announced answer, in order
	plies  int     // successful moves
}

// New starts a game of Kriegspiel, or of Progressive Kriegspiel when prog.
func New(o variant.Options, prog bool) (*Game, error) {
	pos, err := variant.StartPosition(o)
	if err != nil {
		return nil, err
	}
	g := &Game{Common: variant.NewCommon(), prog: prog, start: pos, pos: pos}
	if prog {
		g.series = 1 + int(pos.Turn)
		if pos.EnPassant != chess.NoSquare {
			g.eps = pos.EnPassant.Bit()
		}
		g.pos.EnPassant = chess.NoSquare
		g.start = g.pos
		g.legal = g.pos.LegalMovesEP(make([]chess.Move, 0, 64), g.eps)
		g.judgeSeriesStart()
	} else {
		g.hashes = append(g.hashes, pos.Hash())
		g.legal = g.pos.LegalMoves(make([]chess.Move, 0, 64))
		g.judge()
	}
	return g, nil
}

func (g *Game) Key() string {
	if g.prog {
		return KeyProgressive
	}
	return Key
}

// Position is the umpire's board.
func (g *Game) Position() chess.Position { return g.pos }

// ToAct is the player to move, or nobody once the game is over.
func (g *Game) ToAct() []variant.Side { return g.Awaiting(g.pos.Turn) }

var _ variant.TurnNamer = (*Game)(nil)

// TurnName is "move 12" (Kriegspiel) or "series 5, move 2 of 5" for the player to move:
// what he knows himself.
func (g *Game) TurnName(s variant.Side) string {
	if g.prog && g.done == 0 {
		return g.NameTurn(s, g.pos.Turn, "series %d", g.series) // short: subjects give it
	}
	if g.prog {
		return g.NameTurn(s, g.pos.Turn, "series %d, move %d of %d", g.series, g.done+1, g.series)
	}
	return g.NameTurn(s, g.pos.Turn, "move %d", g.pos.Fullmove)
}

// Reserve makes room for n more commands (variant.Reserver).
func (g *Game) Reserve(n int) {
	g.Common.Reserve(n)
	if cap(g.events)-len(g.events) < n {
		g.events = append(make([]event, 0, len(g.events)+n), g.events...)
	}
	if !g.prog && cap(g.hashes)-len(g.hashes) < n {
		g.hashes = append(make([]uint64, 0, len(g.hashes)+n), g.hashes...)
	}
}

// Plies is the number of moves made (variant.PlyCounter): a record's failed attempts are
// steps, not plies.
func (g *Game) Plies() int { return g.plies }

// possible lists by's moves that could be legal in some position holding his men as they
// stand (KR-D2). The slice is reused by the next call.
func (g *Game) possible(by chess.Color) []chess.Move {
	g.buf = g.pos.Generate(g.buf[:0], chess.MoveRules{Color: by, OwnMenOnly: true})
	return g.buf
}

// ownPosition is by's men alone, with his castling rights: the position his attempts are
// read against.
func (g *Game) ownPosition(by chess.Color) chess.Position {
	return chess.Position{Board: g.pos.Board.Only(by), Turn: by, Castling: g.pos.Castling, EnPassant: chess.NoSquare, Fullmove: 1}
}

// isPawnCapture reports whether m, by a man of the umpire's board, is a pawn's diagonal step.
func (g *Game) isPawnCapture(m chess.Move) bool {
	return g.pos.At(m.From).Role() == chess.Pawn && m.From.File() != m.To.File()
}

// hasPawnCapture reports whether moves hold a pawn capture, e.p. included.
func (g *Game) hasPawnCapture(moves []chess.Move) bool {
	for _, m := range moves {
		if g.isPawnCapture(m) {
			return true
		}
	}
	return false
}

// judge ends a Kriegspiel game when the position decides it (KR-D8).
func (g *Game) judge() {
	p := &g.pos
	noMove := len(g.legal) == 0
	g.Judge(&krEnds, variant.Standing{Mover: p.Turn, NoMove: noMove, InCheck: noMove && p.InCheck(),
		Dead: p.InsufficientMaterial(), Quiet: p.Halfmove, Repeats: g.repetitions()})
}

// repetitions counts how often the umpire's position now has occurred.
func (g *Game) repetitions() int {
	h := g.hashes[len(g.hashes)-1]
	n := 0
	from := max(len(g.hashes)-1-g.pos.Halfmove, 0) // only since the last capture or pawn move
	for _, x := range g.hashes[from:] {
		if x == h {
			n++
		}
	}
	return n
}

// judgeSeriesStart ends a Progressive Kriegspiel game when the series to play cannot start
// (mate, stalemate, a dead position, the ten-series rule).
func (g *Game) judgeSeriesStart() {
	p := &g.pos
	noMove := len(g.legal) == 0
	g.Judge(&pkEnds, variant.Standing{Mover: p.Turn, NoMove: noMove, InCheck: noMove && p.InCheck(),
		Dead: p.InsufficientMaterial(), Quiet: g.quietSeries})
}

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
	if errors.As(err, &rej) && g.prog && (rej.Words == "kriegspiel/no-attempt" || rej.Words == "kriegspiel/not-an-attempt") {
		// Progressive Kriegspiel has no Any? to offer (PK-D1): the sentence says so.
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
		if g.prog {
			return variant.Command{}, nil, variant.Refuse("kriegspiel/not-your-series", map[string]any{"N": g.series, "Turn": g.pos.Turn})
		}
		return variant.Command{}, nil, variant.Refuse("common/wait-for-your-move", map[string]any{"Turn": g.pos.Turn})
	}
	if l.nostop && !g.prog {
		return variant.Command{}, nil, variant.Refuse("kriegspiel/nostop-progressive", nil)
	}
	for i, it := range l.items {
		switch {
		case it.any && g.prog:
			return variant.Command{}, nil, variant.Refuse("kriegspiel/no-any", map[string]any{"Explain": true})
		case it.any && i > 0:
			return variant.Command{}, nil, variant.Refuse("kriegspiel/any-first", nil)
		}
	}
	// Every attempt of a Kriegspiel list is judged from the same men (the list ends when
	// one is played); in Progressive Kriegspiel the first one is.
	var warns []chess.Warning
	var single chess.Move
	possible := false
	for i, it := range l.items {
		if it.any || (g.prog && i > 0) {
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

// stopWhy says why a list stops after r, or "" when it goes on: Kriegspiel at a move played
// (KR-D9); Progressive Kriegspiel at a "No", a check or the end of the series, and unless
// NOSTOP at a capture or "pawn tries: yes" (PK-D6).
func (g *Game) stopWhy(r result, nostop bool) string {
	switch {
	case g.Outcome().Over():
		return "over"
	case !g.prog && r.played:
		return "played"
	case !g.prog:
		return ""
	case !r.played:
		return "no"
	case r.check:
		return "check"
	case r.turnOver:
		return "series"
	case nostop:
		return ""
	case r.capture:
		return "capture"
	case r.tries:
		return "tries"
	}
	return ""
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
	case g.prog:
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

// play makes the legal move m of by's on the umpire's board and returns its announcement.
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
	if g.prog {
		p.Turn = by // the series goes on, unless it ends here
		p.EnPassant = chess.NoSquare
		g.done++
		g.seriesMoves = append(g.seriesMoves, m)
		g.irreversible = g.irreversible || pawn || ev.captured != chess.NoSquare
		if ev.checks.n > 0 || g.done == g.series {
			g.endSeries()
		} else {
			g.legal = p.LegalMoves(g.legal[:0])
			switch {
			case p.InsufficientMaterial():
				g.End(variant.Draw, "insufficient material", pkEnds.Dead)
			case len(g.legal) == 0: // PK-D4: no move left in mid-series
				g.End(variant.Draw, "stalemate", fmt.Sprintf("%s has no move left in series %d", by, g.series))
			}
		}
		if !g.Outcome().Over() {
			ev.tries = triesNo
			if g.hasPawnCapture(g.legal) {
				ev.tries = triesYes
			}
		}
	} else {
		g.asked, g.mustPawn = false, false
		g.hashes = append(g.hashes, p.Hash())
		g.legal = p.LegalMoves(g.legal[:0])
		g.judge()
	}
	switch g.Outcome().Termination {
	case "checkmate":
		ev.end = endMate
	case "stalemate":
		ev.end = endStalemate
	}
	g.events = append(g.events, ev)
	return ev
}

// endSeries hands the turn over after a series (PK-D5: its double steps may be taken e.p.
// with the first move of the next one) and judges the next series' start.
func (g *Game) endSeries() {
	p := &g.pos
	g.eps = seriesEP(g.seriesMoves)
	if g.irreversible {
		g.quietSeries = 0
	} else {
		g.quietSeries++
	}
	g.seriesMoves, g.irreversible = g.seriesMoves[:0], false
	p.Turn = p.Turn.Other()
	g.series++
	g.done = 0
	p.Fullmove = (g.series + 1) / 2 // a FEN's move number: White's series 2k-1 and Black's 2k
	g.legal = p.LegalMovesEP(g.legal[:0], g.eps)
	g.judgeSeriesStart()
}

// seriesEP is the e.p. eligibility a series leaves (rules.md §2 rule 6): the square passed
// over by each double step whose pawn did not move again in the series.
func seriesEP(seq []chess.Move) chess.Bitboard {
	eps := chess.Bitboard(0)
	for i, m := range seq {
		if m.Kind != chess.DoublePush {
			continue
		}
		again := false
		for _, later := range seq[i+1:] {
			again = again || later.From == m.To
		}
		if !again {
			eps |= chess.SquareAt(m.To.File(), (m.From.Rank()+m.To.Rank())/2).Bit()
		}
	}
	return eps
}

// playedArgs are the words of a move's announcement; shown, for the mover alone, is the
// attempt that was played.
func (g *Game) playedArgs(ev event, shown string) map[string]any {
	a := map[string]any{"By": ev.by, "Move": shown, "K": 0, "Of": 0, "Captured": "", "EP": ev.ep,
		"Checks": ev.checks.names(), "Mate": ev.end == endMate, "Stalemate": ev.end == endStalemate, "Tries": "", "Next": g.pos.Turn}
	if g.prog {
		a["K"], a["Of"] = ev.k, ev.n
	}
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
