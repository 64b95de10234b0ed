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
//     rest is not tried, nor are his moves later in the mail (KR-D9).
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
//   - A successful Kriegspiel attempt always stops the reading of his moves (the attempts
//     after it are discarded, KR-D9, and quoted back). The referee's commands after it in the
//     mail (RESIGN, DRAW OFFER, a query) are not attempts, and are still read.
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
//
// The two games are one Game under two Rules values, Kriegspiel and Progressive: each says
// what a turn is, how it starts and ends, where a list of attempts stops, whether "Any?" may
// be asked, and how the turn is named, shown and written in a record.
package kriegspiel

import (
	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/record"
	"github.com/refereed/refereed/variant"
)

// Keys of the two games.
const (
	Key            = "kriegspiel"
	KeyProgressive = "progressive-kriegspiel"
)

// Rules are what tells the two games apart, a value each (Kriegspiel, Progressive): what a
// turn is and how it starts, goes on and is judged, where a list of attempts stops, whether
// "Any?" may be asked, and how the turn is named, shown and written in a record.
type Rules struct {
	Key  string
	ends *variant.EndRules // how the game ends (KR-D8; PK-D4, PK-D7)
	// any: "Any?" may be asked (KR-D3). Progressive Kriegspiel has none; the pawn tries are
	// announced after every move instead (PK-D1, PK-D2).
	any bool
	// nostop: a list may say NOSTOP, going on past captures and pawn tries (PK-D6).
	nostop bool
	// series: a turn is a series of moves, each success "move k of n" (PK-D3), so the men
	// move between a list's attempts; else a turn is one move, and a list's attempts are all
	// read from the same men (KR-D9).
	series bool

	// begin sets up the first turn on the start position, and judges it.
	begin func(g *Game)
	// played goes on after the move of ev (irreversible: a capture or a pawn move): the
	// turn passes or the series goes on, and the position is judged.
	played func(g *Game, ev *event, irreversible bool)
	// stop says why a list stops after r, or "" when it goes on (KR-D9, PK-D6).
	stop func(r result, nostop bool) string
	// outOfTurn is the refusal of a line sent out of turn.
	outOfTurn func(g *Game) error
	// turnName is the turn as its player knows it; toPlay the status line of a game going
	// on; turnOf the number of the turn (move or series) an announcement belongs to.
	turnName func(g *Game, s variant.Side) string
	toPlay   func(g *Game) variant.Line
	turnOf   func(e event) int
	// movetext writes the record and steps reads one (the package doc's notations).
	movetext func(g *Game) string
	steps    func(g *Game, toks []record.Token, buf []variant.Step) ([]variant.Step, error)
}

// The two games.
var (
	Kriegspiel = &Rules{Key: Key, ends: &krEnds, any: true,
		begin:  (*Game).krBegin,
		played: (*Game).krPlayed,
		stop:   krStop,
		outOfTurn: func(g *Game) error {
			return variant.Refuse("common/wait-for-your-move", map[string]any{"Turn": g.pos.Turn})
		},
		turnName: func(g *Game, s variant.Side) string {
			return g.NameTurn(s, g.pos.Turn, "move %d", g.pos.Fullmove)
		},
		toPlay: func(g *Game) variant.Line {
			return variant.Says("view/to-play", map[string]any{"Side": g.pos.Turn, "N": g.pos.Fullmove})
		},
		turnOf:   func(e event) int { return e.fullmove },
		movetext: krMovetext,
		steps:    movetextSteps,
	}
	Progressive = &Rules{Key: KeyProgressive, ends: &pkEnds, nostop: true, series: true,
		begin:  (*Game).pkBegin,
		played: (*Game).pkPlayed,
		stop:   pkStop,
		outOfTurn: func(g *Game) error {
			return variant.Refuse("kriegspiel/not-your-series", map[string]any{"N": g.series, "Turn": g.pos.Turn})
		},
		turnName: (*Game).pkTurnName,
		toPlay: func(g *Game) variant.Line {
			return variant.Says("view/to-play-series", map[string]any{"Side": g.pos.Turn, "N": g.series, "Move": g.done + 1})
		},
		turnOf:   func(e event) int { return e.n },
		movetext: pkMovetext,
		steps:    seriesSteps,
	}
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

// repeats reports whether the rules draw a repeated position, so that the umpire keeps every
// position's hash (KR-D8; not PK-D7).
func (r *Rules) repeats() bool { return r.ends.Repeat.At > 0 }

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
		New:           func(o variant.Options) (variant.Game, error) { return New(o, Kriegspiel) },
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
		New:           func(o variant.Options) (variant.Game, error) { return New(o, Progressive) },
		Steps:         Steps,
		WriteMovetext: func(g variant.Game) string { return g.(*Game).Movetext() },
	})
}

// Game is a game of Kriegspiel or Progressive Kriegspiel.
type Game struct {
	variant.Common
	rules *Rules
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

// New starts a game under rules (Kriegspiel or Progressive).
func New(o variant.Options, rules *Rules) (*Game, error) {
	pos, err := variant.StartPosition(o)
	if err != nil {
		return nil, err
	}
	g := &Game{Common: variant.NewCommon(), rules: rules, start: pos, pos: pos}
	rules.begin(g)
	return g, nil
}

func (g *Game) Key() string { return g.rules.Key }

// Position is the umpire's board.
func (g *Game) Position() chess.Position { return g.pos }

// ToAct is the player to move, or nobody once the game is over.
func (g *Game) ToAct() []variant.Side { return g.Awaiting(g.pos.Turn) }

var _ variant.TurnNamer = (*Game)(nil)

// TurnName is "move 12" (Kriegspiel) or "series 5, move 2 of 5" for the player to move:
// what he knows himself.
func (g *Game) TurnName(s variant.Side) string { return g.rules.turnName(g, s) }

// Reserve makes room for n more commands (variant.Reserver).
func (g *Game) Reserve(n int) {
	g.Common.Reserve(n)
	if cap(g.events)-len(g.events) < n {
		g.events = append(make([]event, 0, len(g.events)+n), g.events...)
	}
	if g.rules.repeats() && cap(g.hashes)-len(g.hashes) < n {
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

// krBegin starts a Kriegspiel game: the first move's legal moves, judged.
func (g *Game) krBegin() {
	g.hashes = append(g.hashes, g.pos.Hash())
	g.legal = g.pos.LegalMoves(make([]chess.Move, 0, 64))
	g.judge()
}

// krPlayed passes the turn after a Kriegspiel move and judges the position.
func (g *Game) krPlayed(ev *event, irreversible bool) {
	p := &g.pos
	g.asked, g.mustPawn = false, false
	g.hashes = append(g.hashes, p.Hash())
	g.legal = p.LegalMoves(g.legal[:0])
	g.judge()
}

// judge ends a Kriegspiel game when the position decides it (KR-D8).
func (g *Game) judge() {
	p := &g.pos
	noMove := len(g.legal) == 0
	g.Judge(g.rules.ends, variant.Standing{Mover: p.Turn, NoMove: noMove, InCheck: noMove && p.InCheck(),
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

// krStop stops a Kriegspiel list at the move played (KR-D9).
func krStop(r result, nostop bool) string {
	if r.played {
		return "played"
	}
	return ""
}
