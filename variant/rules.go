package variant

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/refereed/refereed/chess"
)

// The rules code every variant shares, written once: the start of Resolve, the end-of-game
// judge, and the game-over notice. A variant calls them with its own terms (its move set,
// its count of quiet moves) and states only where it differs.

// ResolvePreamble is the start every variant's Resolve shares: the common commands of
// rules.md 0.4 (resign, draw), then a refusal once the game is over. When done is true the
// caller returns cmd and err at once (cmd is a common command, or err the refusal).
func (c *Common) ResolvePreamble(by Side, text string) (cmd Command, done bool, err error) {
	if cmd, ok := ResolveCommon(by, text); ok {
		return cmd, true, nil
	}
	if c.outcome.Over() {
		return Command{}, true, Refuse("common/over", map[string]any{"Result": c.outcome.Result})
	}
	return Command{}, false, nil
}

// ReadMove reads one move as a player wrote it (rules.md 0.3a; a leading MOVE is allowed) and
// finds it among the candidates the variant offers him in p, where p.Turn is the mover. It
// is for moves made in sight of the whole board: a capture sign on a move that captures
// nothing is refused as a probable mistake (0.3b), and a check mark that does not match
// what the move does in p gets a warning. Its errors are rejections.
func ReadMove(p *chess.Position, text string, candidates []chess.Move) (chess.Move, []chess.Warning, error) {
	n, err := readNotation(text)
	if err != nil {
		return chess.NullMove, nil, err
	}
	return resolveRead(p, n, candidates)
}

// ReadLegalMove is ReadMove among the orthodox legal moves of p, of which it generates only
// those the text may name (chess.Position.Candidates): the same move, warnings and
// rejections.
func ReadLegalMove(p *chess.Position, text string) (chess.Move, []chess.Warning, error) {
	n, err := readNotation(text)
	if err != nil {
		return chess.NullMove, nil, err
	}
	var buf [32]chess.Move
	return resolveRead(p, n, p.Candidates(buf[:0], n))
}

// readNotation parses a move as written, after a leading MOVE.
func readNotation(text string) (chess.Notation, error) {
	t := strings.TrimSpace(text)
	if len(t) > 5 && strings.EqualFold(t[:5], "move ") {
		t = strings.TrimSpace(t[5:])
	}
	n, err := chess.ParseNotation(t)
	if err != nil {
		return n, Reject("%v", err)
	}
	return n, nil
}

// resolveRead is ReadMove once the text is parsed.
func resolveRead(p *chess.Position, n chess.Notation, candidates []chess.Move) (chess.Move, []chess.Warning, error) {
	m, warns, err := chess.Resolve(p, n, candidates)
	if err != nil {
		return m, warns, Reject("%v", err)
	}
	for _, w := range warns {
		if w.Code == chess.WarnCaptureMark {
			return chess.NullMove, warns, Refuse("common/capture-mark", map[string]any{"Warning": w.Text})
		}
	}
	check, mate := p.Checks(m)
	if w := chess.CheckMarkWarning(n, check, mate); w != nil {
		warns = append(warns, *w)
	}
	return m, warns, nil
}

// Awaiting is ToAct for a game that waits for one side at a time: s, or nobody once the game
// is over.
func (c *Common) Awaiting(s Side) []Side {
	if c.outcome.Over() {
		return nil
	}
	return []Side{s}
}

// BoardView is the view of a game that hides nothing: the whole position p, from v's side,
// over the game's status lines (status is called only while the game goes on), or once it is
// over the line that says how it ended.
func (c *Common) BoardView(v Viewer, p *chess.Position, status func() []Line) View {
	var lines []Line
	if c.outcome.Over() {
		lines = []Line{c.outcome.Line()}
	} else {
		lines = status()
	}
	return View{Bottom: Bottom(v), Panels: []Panel{{Board: p.Board}}, Lines: lines, FEN: p.FEN()}
}

// NameTurn is TurnName for a game that waits for one side at a time, mover: the name of the
// turn, written from format and a, to mover; "" to the other side and once the game is over.
func (c *Common) NameTurn(s, mover Side, format string, a ...any) string {
	if c.outcome.Over() || s != mover {
		return ""
	}
	return fmt.Sprintf(format, a...)
}

// Ending is how a game ends: what Common.End records.
type Ending struct {
	Result      string // "1-0", "0-1", "1/2-1/2"
	Termination string
	Reason      string
}

// Limit is a draw by count, such as the 50-move rule or repetition: the game is drawn when
// the count reaches At. At 0 means the variant has no such rule.
type Limit struct {
	At          int
	Termination string // "fifty-move rule"
	Reason      string // "100 moves without a capture or a pawn move"
}

// EndRules are a variant's end conditions for Common.Judge: which of the orthodox ones it
// has (rules.md 0.2, 0.4c), with its limits and words. Mate and stalemate every game has.
type EndRules struct {
	// Stalemate is the reason of a stalemate, %s standing for the stalemated side; "" is
	// "%s has no legal move".
	Stalemate string
	// Dead is the reason of a draw by a dead position; "" when the variant has none.
	Dead   string
	Quiet  Limit // moves (series, turns) without a capture or a pawn move
	Repeat Limit // occurrences of one position
}

// Standing is what the judge needs to know of a game before its next move. The variant
// computes it in its own terms: its own move set, its own test of a dead position, its own
// count of quiet moves.
type Standing struct {
	Mover   Side // who is to move next
	NoMove  bool // he has no move to make: checkmate when InCheck, else stalemate
	InCheck bool // read only with NoMove: a variant may leave it false when he can move
	Dead    bool // no sequence of moves can mate (counts only with EndRules.Dead)
	Quiet   int  // compared with EndRules.Quiet
	Repeats int  // compared with EndRules.Repeat
	// Mate, if set, words a checkmate otherwise than "White checkmated Black" (an Italian
	// mate, a mate "with an A-move"); "" keeps those words. It is called only when the game
	// ends so.
	Mate func() string
	// Special is the variant's own end test (every move ends on a locked square, a forced
	// check), tried after mate and stalemate and before the draws. It may be nil.
	Special func() (Ending, bool)
}

// Judge is the default end-of-game judge: it ends the game by the first condition s meets,
// in this order: checkmate, stalemate, s.Special, a dead position, r.Quiet, r.Repeat. It
// reports whether the game is over (a game already over is left as it was).
func (c *Common) Judge(r *EndRules, s Standing) bool {
	if c.outcome.Over() {
		return true
	}
	e, over := r.judge(s)
	if over {
		c.End(e.Result, e.Termination, e.Reason)
	}
	return over
}

func (r *EndRules) judge(s Standing) (Ending, bool) {
	switch {
	case s.NoMove && s.InCheck:
		reason := fmt.Sprintf("%s checkmated %s", s.Mover.Other(), s.Mover)
		if s.Mate != nil {
			if words := s.Mate(); words != "" {
				reason = words
			}
		}
		return Ending{WinFor(s.Mover.Other()), "checkmate", reason}, true
	case s.NoMove:
		format := r.Stalemate
		if format == "" {
			format = "%s has no legal move"
		}
		return Ending{Draw, "stalemate", fmt.Sprintf(format, s.Mover)}, true
	}
	if s.Special != nil {
		if e, over := s.Special(); over {
			return e, true
		}
	}
	switch {
	case r.Dead != "" && s.Dead:
		return Ending{Draw, "insufficient material", r.Dead}, true
	case r.Quiet.At > 0 && s.Quiet >= r.Quiet.At:
		return Ending{Draw, r.Quiet.Termination, r.Quiet.Reason}, true
	case r.Repeat.At > 0 && s.Repeats >= r.Repeat.At:
		return Ending{Draw, r.Repeat.Termination, r.Repeat.Reason}, true
	}
	return Ending{}, false
}

// Draw is the result of a drawn game.
const Draw = "1/2-1/2"

// OverNotice tells both players that the game is over and how it ended, in the words of its
// Outcome's reason. The result itself is said by the mail's subject, and what was hidden is
// revealed by the referee with the whole game (rules.md 0.4b).
func (c *Common) OverNotice() Notice {
	// The judge's own words (a mate, a stalemate) are said in each player's language; a
	// game's own words, as the game gives them.
	for _, side := range []Side{chess.White, chess.Black} {
		switch c.outcome.Reason {
		case fmt.Sprintf("%s checkmated %s", side, side.Other()):
			return gameOver("common/checkmated", map[string]any{"Winner": side, "Loser": side.Other()})
		case fmt.Sprintf("%s has no legal move", side):
			return gameOver("common/no-legal-move", map[string]any{"Side": side})
		}
	}
	return gameOver("common/game-over", map[string]any{"Reason": capitalized(c.outcome.Reason)})
}

// gameOver is the notice of a game's end, to both players, over the whole truth, in the
// sentence words of templates/words.
func gameOver(words string, args map[string]any) Notice {
	if args == nil {
		args = map[string]any{}
	}
	return Notice{To: ToBoth, Kind: "game-over", Words: words, Args: args, Show: ShowReveal}
}

func capitalized(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError || unicode.IsUpper(r) {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// MoveCommand is the canonical text of a move in a game's log: "move e2e4", "move e7e8q".
// Texts of moves without promotion are made once, so that replaying a log allocates none.
func MoveCommand(m chess.Move) string {
	if m.Promotion == chess.NoRole && m.From.Valid() && m.To.Valid() {
		return moveTexts[m.From][m.To]
	}
	return "move " + m.UCI()
}

var moveTexts = func() (t [64][64]string) {
	for f := chess.Square(0); f < 64; f++ {
		for to := chess.Square(0); to < 64; to++ {
			t[f][to] = "move " + chess.Move{From: f, To: to}.UCI()
		}
	}
	return t
}()
