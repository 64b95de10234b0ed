// Package transactional is Transactional Chess (Peter Aronson, 2001): rules.md §1, decisions
// TX-D1 to TX-D16.
//
// How it differs from orthodox chess:
//   - Each player's moves stay pending in an open transaction (at most five moves) until he
//     commits them; a rollback silently returns his men to their committed squares.
//   - Every move locks its from- and to-squares (castling: four squares) until its player
//     commits or rolls back; a player may not end a move on a square the opponent has locked.
//   - A player moves in his transactional view: his current men and the opponent's committed
//     men. Nothing of the opponent's pending moves, locks, lock encounters or rollbacks ever
//     reaches him before the game ends.
//   - Commits are mandatory after a capture, a promotion, an apparent check (TX-D4), or when the
//     player started the turn in check (TX-D5); the referee commits automatically when the
//     player did not write (C) (TX-D6).
//   - A commit that leaves the committer's king attacked by the opponent's pending men loses
//     ("mated by commit", TX-D10). No dead-position rule. The 50-move rule counts committed
//     moves only (TX-D14): one per turn, reset by a commit that holds a capture or a pawn move;
//     pending and rolled-back moves never reset it, so its draw tells nobody anything hidden.
//
// Decisions this package adds where rules.md is silent (each also in the issue note):
//   - TX-D16 in practice: a rollback is illegal only when the player's committed view shows
//     check, which is exactly when he started the turn in check and must commit anyway (the
//     opponent cannot commit during his turn). So "(R)" then is refused before the move is made,
//     with a message saying that the move must be committed; nothing changes.
//   - TX-D14: a game started from a FEN starts the count at the FEN's halfmove clock (the
//     position is all committed). A commit resets the count when any move of its transaction
//     was a pawn move or a capture, as its announcement shows (Pe2-Pe4, Nb1-Nxc7).
//   - A move that completes a fifth pending move without (C) or (R) is refused before anything
//     changes (TX-D6), also when written as the last line of a batch.
//   - Batches (TX-D12): a line for a later turn is resolved at once against the player's own
//     view with his earlier lines played (if the opponent commits first, the batch stops anyway,
//     so that view is the one it will meet) and stored as coordinates; locks are tested when it
//     is played. The batch stops at the first line that fails or when the opponent commits, and
//     what is left goes back to the player. The opponent learns nothing of a batch's content;
//     he only gets his next prompt sooner, which is the speed of the mail, not hidden state.
//   - Notation (rules.md 0.3a): "(C)" and "(R)" after a move are commit and rollback, "(Q)",
//     "(N)", "(B)" and "(T)" a promotion, with or without a space before them ("d1(Q)+(C)",
//     "a8 (N)"); "e8(R)+" is refused with a hint to write e8=R. Check marks are compared with
//     the mover's transactional view (an apparent check, TX-D4; "#" when the opponent has no
//     legal move in that view), with a warning: the warning depends on nothing hidden.
package transactional

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/variant"
)

// Key is the registry key.
const Key = "transactional"

// MaxPending is the largest open transaction (rules.md §1.1 rule 1).
const MaxPending = 5

func init() {
	variant.Register(&variant.Variant{
		// The committed position both see; whose transaction it is would tell a move pending.
		InProgress: variant.Spectator{Public: true},
		Key:        Key,
		Name:       "Transactional Chess",
		Aliases:    []string{"transactional chess"},
		Commands: []variant.CommandRow{
			{Help: "help/transactional/1"},
			{Word: "EP?", Help: "help/transactional/2"},
			{Word: "VIEW", Query: true, Help: "help/transactional/3"},
		},
		New:           func(o variant.Options) (variant.Game, error) { return New(o) },
		Steps:         Steps,
		WriteMovetext: func(g variant.Game) string { return g.(*Game).Movetext() },
	})
}

// pending is one move of an open transaction.
type pending struct {
	move chess.Move
	san  string // as it reads in the mover's transactional view, for his own records
}

// player is one side's state.
type player struct {
	committed       chess.Board // this side's men as last committed
	current         chess.Board // this side's men with the pending moves made
	rights          chess.CastlingRights
	committedRights chess.CastlingRights
	tx              int // the open transaction's number: White 1, 3, 5 ...; Black 2, 4, 6 ...
	pending         []pending
	locks           chess.Bitboard
	origin          [64]chess.Square // for a square holding a man moved this transaction: its committed square
	moved           [64]uint8        // by committed square: moves of that man this transaction
	double          [64]bool         // by committed square: the man's first move was a pawn's double step
	captured        bool             // a capture this transaction (TX-D7: only as its last move)
	irreversible    bool             // a pawn move or a capture this transaction (TX-D14)
	captureTo       chess.Square     // where the capturing man landed
	victimSq        chess.Square     // where the victim stood (differs from captureTo for e.p.)
	victim          chess.Piece
	promoted        [64]chess.Role // by committed square: promoted to
	inCheck         bool           // started the current turn in check, committed view (TX-D5)
	epSquares       chess.Bitboard // squares passed over by this side's pawns, capturable e.p. next turn
}

// turnRecord is one turn for records and the end-of-game reveal.
type turnRecord struct {
	by   chess.Color
	tx   int
	san  string
	disp string // "C", "R" or ""
	auto bool   // the commit was mandatory and not written
	// committed is, for a commit, the moves it made actual as its announcement told the
	// opponent (TX-D8): "Nb1-Nxc7, Ng1-Nf3"; numeric the same in ICCF numeric notation
	// ("2133, 7163"), from-square to square.
	committed, numeric string
	move               chess.Move
}

// queued is a batch line waiting for a later turn (TX-D12), already resolved to coordinates.
type queued struct {
	uci, disp string
	text      string // as written, to hand back if the batch stops
}

// Game is a Transactional Chess game.
type Game struct {
	variant.Common
	queue   [2][]queued
	pl      [2]player
	turn    chess.Color
	quiet50 int // turns since the last commit with a capture or pawn move (TX-D14)
	turns   []turnRecord
	start   chess.Position
}

// New starts a game from the initial position (a FEN, if given, must have untouched
// castling rights the way the position allows; it is for tests and composed problems).
func New(o variant.Options) (*Game, error) {
	pos, err := variant.StartPosition(o)
	if err != nil {
		return nil, err
	}
	g := &Game{Common: variant.NewCommon(), turn: pos.Turn, start: pos, quiet50: pos.Halfmove}
	for _, c := range []chess.Color{chess.White, chess.Black} {
		p := &g.pl[c]
		p.committed = pos.Only(c)
		p.current = p.committed
		mask := chess.WhiteShort | chess.WhiteLong
		if c == chess.Black {
			mask = chess.BlackShort | chess.BlackLong
		}
		p.rights = pos.Castling & mask
		p.committedRights = p.rights
		p.tx = 1 + int(c)
		p.resetOrigins()
	}
	g.beginTurn()
	return g, nil
}

func (p *player) resetOrigins() {
	for i := range p.origin {
		p.origin[i] = chess.NoSquare
		p.moved[i] = 0
		p.double[i] = false
		p.promoted[i] = chess.NoRole
	}
	p.pending = p.pending[:0]
	p.locks = 0
	p.captured, p.irreversible = false, false
	p.captureTo, p.victimSq, p.victim = chess.NoSquare, chess.NoSquare, chess.NoPiece
}

func (g *Game) Key() string { return Key }

// ToAct is the player whose turn it is.
func (g *Game) ToAct() []variant.Side { return g.Awaiting(g.turn) }

var _ variant.TurnNamer = (*Game)(nil)

// TurnName is "T5", the transaction the player whose turn it is plays in (rules.md §1.1 rule
// 6). It is his own number, moved on only by his own commits and rollbacks; the opponent's
// would tell of rollbacks, so it is never named to him.
func (g *Game) TurnName(s variant.Side) string {
	return g.NameTurn(s, g.turn, "T%d", g.pl[s].tx)
}

// Position is the referee's potential view: both players' current men.
func (g *Game) Position() chess.Position {
	b := chess.Merge(chess.White, &g.pl[chess.White].current, &g.pl[chess.Black].current)
	return chess.Position{Board: b, Turn: g.turn, Castling: g.pl[0].rights | g.pl[1].rights,
		EnPassant: chess.NoSquare, Halfmove: g.quiet50, Fullmove: len(g.turns)/2 + 1}
}

// tview is side c's transactional view: c's current men and the opponent's committed men,
// with c to move and c's own castling rights.
func (g *Game) tview(c chess.Color) chess.Position {
	b := chess.Merge(c, &g.pl[c].current, &g.pl[c.Other()].committed)
	return chess.Position{Board: b, Turn: c, Castling: g.pl[c].rights, EnPassant: chess.NoSquare, Fullmove: 1}
}

// cview is side c's committed view: both sides' committed men.
func (g *Game) cview(c chess.Color) chess.Position {
	b := chess.Merge(c, &g.pl[c].committed, &g.pl[c.Other()].committed)
	return chess.Position{Board: b, Turn: c, Castling: g.pl[c].committedRights, EnPassant: chess.NoSquare, Fullmove: 1}
}

// legal lists c's legal moves in his transactional view, e.p. captures of the opponent's
// eligible pawns included (TX-D2, TX-D9). Locks are not applied here.
func (g *Game) legal(c chess.Color) (chess.Position, []chess.Move) {
	pos := g.tview(c)
	return pos, pos.LegalMovesEP(nil, g.pl[c.Other()].epSquares)
}

// destinations are the squares the lock rule tests for m (TX-D3; e.p. also the victim's
// square, which is locked when the victim has moved, TX-D13).
func destinations(m chess.Move) chess.Bitboard {
	if m.Kind == chess.Castle {
		return m.To.Bit() | m.RookTo().Bit()
	}
	return m.To.Bit() | m.CaptureSquare().Bit()
}

// lockSquares are the squares m locks for its mover (TX-D3).
func lockSquares(m chess.Move) chess.Bitboard {
	b := m.From.Bit() | m.To.Bit()
	if m.Kind == chess.Castle {
		b |= m.CastlingRook().Bit() | m.RookTo().Bit()
	}
	return b
}

// lockBlocked reports whether every legal move of c ends on an opponent-locked square.
func (g *Game) lockBlocked(c chess.Color, moves []chess.Move) bool {
	for _, m := range moves {
		if destinations(m)&g.pl[c.Other()].locks == 0 {
			return false
		}
	}
	return len(moves) > 0
}

// ends are TX-D11 and TX-D14: no dead-position rule (rules.md 0.4c), no repetition rule.
var ends = variant.EndRules{
	Quiet: variant.Limit{At: 100, Termination: "fifty-move rule", Reason: "100 turns without a committed capture or pawn move"},
}

// beginTurn starts g.turn's turn: TX-D5's check in the committed view, and TX-D11's end test
// in his transactional view, where a move that ends on a locked square is no move.
func (g *Game) beginTurn() {
	c := g.turn
	cv := g.cview(c)
	g.pl[c].inCheck = cv.InCheck()
	if g.Outcome().Over() {
		return
	}
	_, moves := g.legal(c)
	g.Judge(&ends, variant.Standing{Mover: c, NoMove: len(moves) == 0, InCheck: g.pl[c].inCheck, Quiet: g.quiet50,
		Special: func() (variant.Ending, bool) {
			if !g.lockBlocked(c, moves) {
				return variant.Ending{}, false
			}
			// Worded as any stalemate: the opponent is told the result, never why (TX-D11).
			return variant.Ending{Result: variant.Draw, Termination: "stalemate",
				Reason: c.String() + " has no legal move"}, true
		}})
}

// Disposition written after a move.
const (
	dispNone     = ""
	dispCommit   = "C"
	dispRollback = "R"
)

// parsed is a move command as written.
type parsed struct {
	tx   int    // the T-number written, 0 if none
	move string // the move text
	disp string
}

// Split reads a batch written on one line, "T5: Ne5 / T5: Nc6 (C) / ..." (TX-D12), as its
// lines; a line without a slash, or with an empty entry, is one line (Resolve says what is
// wrong with it).
func (g *Game) Split(line string) []string {
	if !strings.Contains(line, "/") {
		return []string{line}
	}
	parts := strings.Split(line, "/")
	for i, p := range parts {
		if parts[i] = strings.TrimSpace(p); parts[i] == "" {
			return []string{line}
		}
	}
	return parts
}

// parseLine reads "T5: Nc6 (C)", "Nc6(C)", "Nc6 COMMIT", "MOVE Nc6 rollback", "Nc6".
func parseLine(text string) (parsed, error) {
	var p parsed
	s := strings.TrimSpace(text)
	if len(s) > 5 && strings.EqualFold(s[:5], "move ") {
		s = strings.TrimSpace(s[5:])
	}
	if len(s) > 1 && (s[0] == 'T' || s[0] == 't') && s[1] >= '0' && s[1] <= '9' {
		i := 1
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i < len(s) && (s[i] == ':' || s[i] == '.') {
			n, err := strconv.Atoi(s[1:i])
			if err != nil || n > 100000 {
				return p, variant.Refuse("transactional/bad-number", args{"Text": s[:i]})
			}
			p.tx = n
			s = strings.TrimSpace(s[i+1:])
		}
	}
	upper := strings.ToUpper(s)
	for _, suf := range []struct{ text, disp string }{
		{"(C)", dispCommit}, {"(R)", dispRollback}, {"COMMIT", dispCommit}, {"ROLLBACK", dispRollback},
	} {
		if strings.HasSuffix(upper, suf.text) {
			p.disp = suf.disp
			s = strings.TrimSpace(s[:len(s)-len(suf.text)])
			break
		}
	}
	if s == "" {
		return p, variant.Refuse("transactional/no-move", nil)
	}
	// A promotion piece set apart from its move: "d1 (Q)+" is d1(Q)+ (rules.md 0.3a).
	s = strings.ReplaceAll(s, " (", "(")
	if i := strings.LastIndexByte(s, '('); i >= 0 && len(s)-i == 3 && s[i+2] == ')' && !strings.ContainsRune("QBNTqbnt", rune(s[i+1])) {
		return p, variant.Refuse("transactional/bad-paren", args{"Text": s[i:]})
	}
	if strings.Contains(strings.ToUpper(s), "(R)") {
		return p, variant.Refuse("transactional/rook-promotion", args{"Text": s})
	}
	p.move = s
	return p, nil
}

// Resolve reads a player's command: a move with optional T-number and disposition, "EP? e4",
// "VIEW COMMITTED", "VIEW TRANSACTIONAL", or a common command.
func (g *Game) Resolve(by variant.Side, text string) (variant.Command, []chess.Warning, error) {
	t := strings.Join(strings.Fields(strings.ToLower(text)), " ")
	switch {
	case t == "view committed" || t == "view transactional" || t == "view" || t == "board":
		return variant.Command{By: by, Text: "view"}, nil, nil
	case strings.HasPrefix(t, "ep?") || strings.HasPrefix(t, "ep "):
		sq, err := chess.ParseSquare(strings.TrimSpace(strings.TrimLeft(t[2:], "? ")))
		if err != nil {
			return variant.Command{}, nil, variant.Refuse("transactional/ep-square", nil)
		}
		return variant.Command{By: by, Text: "ep " + sq.String()}, nil, nil
	}
	if cmd, done, err := g.ResolvePreamble(by, text); done {
		return cmd, nil, err
	}
	if by != g.turn {
		return g.resolveQueued(by, text) // a line for a later turn (TX-D12)
	}
	p, err := parseLine(text)
	if err != nil {
		return variant.Command{}, nil, err
	}
	var warns []chess.Warning
	if p.tx != 0 && p.tx != g.pl[by].tx {
		warns = append(warns, chess.Warning{Text: fmt.Sprintf("you wrote T%d, but this is transaction T%d; the referee numbers the transactions", p.tx, g.pl[by].tx)})
	}
	m, mwarns, err := g.resolveMove(by, p.move)
	if err != nil {
		return variant.Command{}, warns, err
	}
	warns = append(warns, mwarns...)
	tv := g.tview(by)
	if err := g.checkDisposition(by, g.mandatory(&tv, by, m), p.disp); err != nil {
		return variant.Command{}, warns, err
	}
	return variant.Command{By: by, Text: strings.TrimSpace("move " + m.UCI() + " " + p.disp)}, warns, nil
}

// resolveMove finds the move in by's transactional view and applies the lock rule.
func (g *Game) resolveMove(by chess.Color, text string) (chess.Move, []chess.Warning, error) {
	n, err := chess.ParseNotation(text)
	if err != nil {
		return chess.NullMove, nil, variant.Reject("%v", err)
	}
	pos, moves := g.legal(by)
	m, warns, err := chess.Resolve(&pos, n, moves)
	if err != nil {
		return chess.NullMove, warns, variant.Refuse("transactional/illegal-in-view", args{"Later": false, "Why": err})
	}
	var kept []chess.Warning
	for _, w := range warns {
		switch w.Code {
		case chess.WarnCaptureMark: // DECISION 0.3b: x is checked against the mover's view
			return chess.NullMove, warns, variant.Refuse("transactional/illegal-in-view", args{"Later": false, "Why": w.Text})
		case chess.WarnMissingSymbol:
		default:
			kept = append(kept, w)
		}
	}
	if w := markWarning(pos, n, m); w != nil {
		kept = append(kept, *w)
	}
	if destinations(m)&g.pl[by.Other()].locks != 0 {
		if m.Kind == chess.Castle {
			return chess.NullMove, kept, variant.Refuse("transactional/castling-locked", nil)
		}
		return chess.NullMove, kept, variant.Refuse("transactional/locked", args{"Square": m.To, "Try": true})
	}
	return m, kept, nil
}

// markWarning compares the check mark written in n with what m does in the mover's
// transactional view pos (rules.md 0.3a, TX-D4): check is an apparent check, and mate means
// that the opponent has no legal move in that view. It depends on nothing the mover may not
// know.
func markWarning(pos chess.Position, n chess.Notation, m chess.Move) *chess.Warning {
	check, mate := pos.Checks(m)
	return chess.CheckMarkWarning(n, check, mate)
}

// mandatory says why m must be committed, or "" (rules.md §1.1 rule 9, TX-D4, TX-D5); pos
// is by's transactional view.
func (g *Game) mandatory(pos *chess.Position, by chess.Color, m chess.Move) string {
	switch {
	case pos.IsCapture(m):
		return "it captures"
	case m.Promotion != chess.NoRole:
		return "it promotes"
	case g.pl[by].inCheck:
		return "you started the turn in check"
	}
	if pos.GivesCheck(m) {
		return "it gives check"
	}
	return ""
}

// checkDisposition refuses, before anything changes, what the rules do not allow (TX-D6):
// why is what makes the move's commit mandatory, or "".
func (g *Game) checkDisposition(by chess.Color, why, disp string) error {
	if why != "" && disp == dispRollback {
		return variant.Refuse("transactional/must-commit", args{"Why": why})
	}
	if why == "" && disp == dispNone && len(g.pl[by].pending)+1 >= MaxPending {
		return variant.Refuse("transactional/fifth-move", nil)
	}
	return nil
}

// Submit applies a canonical command. The questions (view, ep) are answered also once the
// game is over.
func (g *Game) Submit(cmd variant.Command) ([]variant.Notice, error) {
	by := cmd.By
	fields := strings.Fields(cmd.Text)
	switch {
	case len(fields) > 0 && fields[0] == "view":
		g.Accept(cmd)
		return []variant.Notice{{To: variant.To(by), Kind: variant.KindView, Words: "transactional/views", Args: args{}, Show: variant.ShowView}}, nil
	case len(fields) > 0 && fields[0] == "ep":
		return g.submitEPQuestion(cmd, fields)
	}
	if notices, done, err := g.SubmitPreamble(cmd); done {
		return notices, err
	}
	if len(fields) == 0 {
		return nil, variant.Refuse("transactional/empty-command", nil)
	}
	switch fields[0] {
	case "queue":
		return g.submitQueue(cmd, fields)
	case "move":
	default:
		return nil, variant.Refuse("common/unknown-command", args{"Text": cmd.Text})
	}
	if by != g.turn {
		return nil, variant.Refuse("transactional/not-your-turn", nil)
	}
	if len(fields) < 2 || len(fields) > 3 {
		return nil, variant.Refuse("transactional/malformed", args{"What": "move", "Text": cmd.Text})
	}
	disp := ""
	if len(fields) == 3 {
		disp = fields[2]
	}
	notices, committed, err := g.doMove(by, fields[1], disp)
	if err != nil {
		return nil, err
	}
	g.Accept(cmd)
	return append(notices, g.runQueues(committed)...), nil
}

// doMove validates and makes one turn's move for by; on error nothing changed. It does not
// log: Submit logs the command, and batch lines are replayed from their "queue" commands.
func (g *Game) doMove(by chess.Color, uci, disp string) (notices []variant.Notice, committed bool, err error) {
	pos, moves := g.legal(by)
	m, err := chess.FindUCI(moves, uci)
	switch {
	case errors.Is(err, chess.ErrNoMove):
		return nil, false, variant.Refuse("transactional/illegal-in-view", args{"Later": false, "Why": ""})
	case err != nil:
		return nil, false, variant.Reject("%v", err)
	}
	if destinations(m)&g.pl[by.Other()].locks != 0 {
		return nil, false, variant.Refuse("transactional/locked", args{"Square": m.To, "Try": false})
	}
	why := g.mandatory(&pos, by, m)
	if err := g.checkDisposition(by, why, disp); err != nil {
		return nil, false, err
	}
	auto := why != "" && disp == dispNone
	if why != "" {
		disp = dispCommit
	}
	san := pos.SAN(m)
	g.play(by, pos, m, san)
	committed = disp == dispCommit
	g.turns = append(g.turns, turnRecord{by: by, tx: g.pl[by].tx, san: san, disp: disp, auto: auto, move: m})

	say := func(to variant.Audience, kind, words string, a args, show variant.Show) {
		if !g.Quiet() {
			notices = append(notices, variant.Notice{To: to, Kind: kind, Words: "transactional/" + words, Args: a, Show: show})
		}
	}
	me, opp := variant.To(by), variant.To(by.Other())
	// tell answers the mover. A batch line played in the mail that brought his turn makes its
	// "Your turn" untrue: the mail leaves that out.
	tell := func(kind, words string, a args) {
		if !g.Quiet() {
			notices = append(notices, variant.Notice{To: me, Kind: kind, Words: "transactional/" + words, Args: a, Show: variant.ShowView, Supersedes: "your-turn"})
		}
	}
	// TX-D14: one more turn, unless a commit makes a capture or a pawn move actual.
	g.quiet50++
	if disp == dispCommit && g.pl[by].irreversible {
		g.quiet50 = 0
	}
	switch disp {
	case dispCommit:
		tx := g.pl[by].tx
		numeric := g.pl[by].committedNumeric()
		announcement, captured := g.commit(by)
		told, _, _ := strings.Cut(strings.TrimPrefix(announcement, by.String()+" has committed: "), ";")
		g.turns[len(g.turns)-1].committed = strings.TrimSpace(told)
		g.turns[len(g.turns)-1].numeric = numeric
		mandatory := ""
		if auto {
			mandatory = why
		}
		tell("commit", "accepted-commit", args{"T": tx, "Move": san, "Why": mandatory})
		say(opp, "commit", "commit-news", args{"Announcement": announcement, "Lost": captured}, variant.ShowNothing)
		g.judgeCommit(by)
	case dispRollback:
		tx := g.pl[by].tx
		g.rollback(by)
		tell("rollback", "accepted-rollback", args{"T": tx, "Move": san})
	default:
		p := &g.pl[by]
		tell("move", "accepted-pending", args{"T": p.tx, "Move": san, "Locks": squares(p.locks)})
	}
	if !g.Outcome().Over() {
		g.turn = by.Other()
		g.beginTurn()
	}
	if g.Outcome().Over() {
		if !g.Quiet() {
			notices = append(notices, g.OverNotice())
		}
		g.queue = [2][]queued{}
		return notices, committed, nil
	}
	// The turn prompt says only whose turn it is: never what the mover did (rules.md §1.4).
	p := &g.pl[g.turn]
	say(opp, "your-turn", "your-turn", args{"T": p.tx, "InCheck": p.inCheck}, variant.ShowView)
	return notices, committed, nil
}

// play makes m for by in his current men, capturing from the opponent, and updates locks,
// origins and castling rights; pos is by's transactional view.
func (g *Game) play(by chess.Color, pos chess.Position, m chess.Move, san string) {
	p, o := &g.pl[by], &g.pl[by.Other()]
	if pos.IsCapture(m) {
		victim := m.CaptureSquare()
		// TX-D7: the victim has not moved in its owner's transaction, so committed and current
		// agree on it; it is gone from both, and no rollback brings it back.
		p.victim = o.committed.Remove(victim)
		o.current.Remove(victim)
		p.captureTo, p.victimSq = m.To, victim
		o.rights &^= chess.CastlingRightsOf(victim)
		o.committedRights &^= chess.CastlingRightsOf(victim)
		p.captured = true
	}
	if pos.IsCapture(m) || pos.At(m.From).Role() == chess.Pawn {
		p.irreversible = true
	}
	// Follow each man to its committed square (for the TX-D8 announcement).
	follow := func(from, to chess.Square) chess.Square {
		orig := p.origin[from]
		if orig == chess.NoSquare {
			orig = from
		}
		p.origin[from] = chess.NoSquare
		p.origin[to] = orig
		p.moved[orig]++
		return orig
	}
	orig := follow(m.From, m.To)
	if m.Kind == chess.DoublePush && p.moved[orig] == 1 {
		p.double[orig] = true
	}
	if m.Promotion != chess.NoRole {
		p.promoted[orig] = m.Promotion
	}
	if m.Kind == chess.Castle {
		follow(m.CastlingRook(), m.RookTo())
	}
	pos.Play(m)
	p.current = pos.Only(by)
	p.rights &^= chess.CastlingRightsOf(m.From) | chess.CastlingRightsOf(m.To)
	p.locks |= lockSquares(m)
	p.pending = append(p.pending, pending{move: m, san: san})
	// The opponent's e.p. eligibility lasts for by's next turn only (TX-D9).
	o.epSquares = 0
}

// committedNumeric is what a commit of p's would make actual, each man from the square he
// stood on to the square he stands on, in ICCF numeric notation and in the announcement's
// order (by from-square): "5254, 6125".
func (p *player) committedNumeric() string {
	var texts []string
	for from := chess.Square(0); from < 64; from++ {
		for to := chess.Square(0); to < 64; to++ {
			if p.origin[to] == from && (from != to || p.promoted[from] != chess.NoRole) {
				texts = append(texts, chess.Numeric(chess.Move{From: from, To: to, Promotion: p.promoted[from]}))
			}
		}
	}
	return strings.Join(texts, ", ")
}

// commit makes by's pending moves actual and returns the TX-D8 announcement for the
// opponent and the opponent's men it captured ("the knight on c7"), if any.
func (g *Game) commit(by chess.Color) (announcement, captured string) {
	p := &g.pl[by]
	type entry struct {
		from chess.Square
		text string
	}
	var entries []entry
	var capturedSquares []string
	if p.captured {
		ep := ""
		if p.victimSq != p.captureTo {
			ep = " (en passant)"
		}
		capturedSquares = append(capturedSquares, fmt.Sprintf("your %s on %v%s", p.victim.Role(), p.victimSq, ep))
	}
	for to := chess.Square(0); to < 64; to++ {
		orig := p.origin[to]
		if orig == chess.NoSquare || orig == to && p.promoted[orig] == chess.NoRole {
			continue
		}
		man := p.committed.At(orig)
		x := ""
		if p.captured && to == p.captureTo {
			x = "x"
		}
		text := fmt.Sprintf("%s%v-%s%s%v", man.Role().Letter(), orig, man.Role().Letter(), x, to)
		if r := p.promoted[orig]; r != chess.NoRole {
			text += "=" + r.Letter()
		}
		entries = append(entries, entry{orig, text})
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].from < entries[j].from })
	texts := make([]string, len(entries))
	for i, e := range entries {
		texts[i] = e.text
	}
	// e.p. eligibility (TX-D9): pawns whose only move this transaction was a double step.
	p.epSquares = 0
	for to := chess.Square(0); to < 64; to++ {
		if orig := p.origin[to]; orig != chess.NoSquare && p.double[orig] && p.moved[orig] == 1 {
			p.epSquares |= chess.SquareAt(to.File(), (orig.Rank()+to.Rank())/2).Bit()
		}
	}
	p.committed = p.current
	p.committedRights = p.rights
	p.tx += 2
	p.resetOrigins()
	announcement = by.String() + " has committed: " + strings.Join(texts, ", ")
	if cv := g.cview(by.Other()); cv.InCheck() {
		announcement += "; check"
	}
	// The pawns now capturable e.p. are not listed here: a commit ends the committer's turn,
	// so the opponent's turn prompt comes with it, and his view under it lists them
	// ("Capturable en passant this turn"); saying it here too said it twice in one mail.
	return announcement, strings.Join(capturedSquares, ", ")
}

// rollback discards by's pending moves.
func (g *Game) rollback(by chess.Color) {
	p := &g.pl[by]
	p.current = p.committed
	p.rights = p.committedRights
	p.tx += 2
	p.resetOrigins()
}

// judgeCommit is TX-D10, run after every commit by c.
func (g *Game) judgeCommit(c chess.Color) {
	if pot := g.Position(); !pot.KingAttacked(c) {
		return
	}
	o := c.Other()
	ov := g.tview(o)
	if !ov.InCheck() {
		g.End(variant.WinFor(o), "mated by commit", fmt.Sprintf("%s's commit left the %s king attacked by %s's pending men", c, strings.ToLower(c.String()), o))
		return
	}
	// (b) both in check: the committer loses only if the opponent could take his king with a
	// move legal in his transactional view.
	ck := ov.King(c)
	for _, m := range ov.Generate(nil, chess.MoveRules{Color: o, NoCastling: true}) {
		if m.To == ck && destinations(m)&g.pl[c].locks == 0 {
			g.End(variant.WinFor(o), "mated by commit", fmt.Sprintf("%s committed into check while %s could take the king", c, o))
			return
		}
	}
}

// submitEPQuestion answers "EP? e4": may the asker take that pawn e.p. this turn (T:L67).
func (g *Game) submitEPQuestion(cmd variant.Command, fields []string) ([]variant.Notice, error) {
	if len(fields) != 2 {
		return nil, variant.Refuse("transactional/ep-one-square", nil)
	}
	sq, err := chess.ParseSquare(fields[1])
	if err != nil {
		return nil, variant.Reject("%v", err)
	}
	by := cmd.By
	pass := sq - 8
	if by == chess.White {
		pass = sq + 8
	}
	yes := pass.Valid() && g.pl[by.Other()].epSquares.Has(pass) && g.turn == by
	g.Accept(cmd)
	return []variant.Notice{{To: variant.To(by), Kind: variant.KindAnswer, Words: "transactional/ep-answer", Args: args{"Square": sq, "Yes": yes}}}, nil
}

func squares(b chess.Bitboard) string {
	if b == 0 {
		return "none"
	}
	var s []string
	for _, sq := range b.Squares() {
		s = append(s, sq.String())
	}
	return strings.Join(s, " ")
}

// View is what v may know. A player: the transactional view with his own locks marked, his
// committed view, his transaction number and pending moves. The referee: the potential view.
func (g *Game) View(v variant.Viewer) variant.View {
	if v == variant.AsReferee {
		pot := g.Position()
		lines := []variant.Line{variant.Text(fmt.Sprintf("White: transaction T%d, %d pending. Black: transaction T%d, %d pending.",
			g.pl[0].tx, len(g.pl[0].pending), g.pl[1].tx, len(g.pl[1].pending)))}
		if out := g.Outcome(); out.Over() {
			lines = append(lines, out.Line())
		}
		return variant.View{Bottom: chess.White, Panels: []variant.Panel{{Title: "Potential view (both players' current men)",
			Board: pot.Board, Marked: g.pl[0].locks | g.pl[1].locks, MarkLegend: "locked squares"}}, Lines: lines, FEN: pot.FEN()}
	}
	c := chess.Color(v)
	p := &g.pl[c]
	tv, cv := g.tview(c), g.cview(c)
	var pend []string
	for _, m := range p.pending {
		pend = append(pend, m.san)
	}
	// Whose turn it is goes without saying on the player's own turn: the mail that brings
	// the view says so, once.
	var lines []variant.Line
	if out := g.Outcome(); out.Over() {
		lines = append(lines, out.Line())
	} else {
		lines = append(lines, variant.Says("view/transaction", map[string]any{"T": p.tx, "N": len(p.pending), "Max": MaxPending, "Moves": strings.Join(pend, ", ")}))
		if g.turn != c {
			lines = append(lines, variant.Says("view/opponents-turn", nil))
		}
	}
	if eps := g.pl[c.Other()].epSquares; eps != 0 && g.turn == c {
		lines = append(lines, variant.Says("view/transactional-ep", map[string]any{"Pawns": epPawns(eps, c.Other())}))
	}
	// With nothing pending the two views are one board: it is drawn once.
	if len(p.pending) == 0 && p.locks == 0 && tv.Board == cv.Board {
		return variant.View{Bottom: c, Panels: []variant.Panel{{Title: "view/tx-one-view", Board: cv.Board}}, Lines: lines}
	}
	return variant.View{Bottom: c, Panels: []variant.Panel{
		{Title: "view/tx-transactional", Board: tv.Board, Marked: p.locks, MarkLegend: "view/tx-locked"},
		{Title: "view/tx-committed", Board: cv.Board},
	}, Lines: lines}
}

// PublicView is what both players know (rules.md §1, rule 5): the committed men of both
// sides, the same committed view for each. Transaction numbers are not public: a number also
// moves on a rollback, which the opponent may not learn.
func (g *Game) PublicView() variant.View {
	cv := g.cview(chess.White)
	return variant.View{Bottom: chess.White, Panels: []variant.Panel{{Title: "Committed position (what both players know)", Board: cv.Board}}}
}

var _ variant.PublicViewer = (*Game)(nil)

// Movetext writes the game in the literature's notation: "1. T1: Nc3 T2: a5", with (C) and
// (R), one line per move pair.
func (g *Game) Movetext() string {
	var sb strings.Builder
	for i, t := range g.turns {
		if i%2 == 0 {
			if i > 0 {
				sb.WriteByte('\n')
			}
			fmt.Fprintf(&sb, "%d.", i/2+1)
		}
		fmt.Fprintf(&sb, " T%d: %s", t.tx, t.san)
		if t.disp != "" {
			fmt.Fprintf(&sb, " (%s)", t.disp)
		}
	}
	return sb.String()
}

var _ variant.Scorer = (*Game)(nil)

// Score is the game so far as v may know it (rules.md §1.4): his own turns with their
// T-numbers, as the record writes them ("T3: Nf3 (C)"), and of his opponent's only the
// commits, each where it was announced with the moves it made actual ("Black committed
// Pa7-Pa3, Qd8-Qxc7"); never a move of the opponent's still pending or rolled back, nor when
// he made the moves he committed, nor his T-number (it counts his rollbacks). The referee's
// is the record.
func (g *Game) Score(v variant.Viewer) (words, moves string) {
	if v == variant.AsReferee || g.Outcome().Over() {
		return "score", g.Movetext()
	}
	s := chess.Color(v)
	var parts []string
	for _, t := range g.turns {
		switch {
		case t.by == s && t.disp != "":
			parts = append(parts, fmt.Sprintf("T%d: %s (%s)", t.tx, t.san, t.disp))
		case t.by == s:
			parts = append(parts, fmt.Sprintf("T%d: %s", t.tx, t.san))
		case t.disp == dispCommit:
			// Not his T-number: it counts his rollbacks, which are his secret.
			parts = append(parts, fmt.Sprintf("%s committed %s", t.by, t.committed))
		}
	}
	return "transactional/score", strings.Join(parts, "; ")
}

var _ variant.NumericScorer = (*Game)(nil)

// NumericScore is Score in ICCF numeric notation ("T1: 5254; White committed 5254, 6125");
// once the game is over, the record in its own notation.
func (g *Game) NumericScore(v variant.Viewer) string {
	if v == variant.AsReferee || g.Outcome().Over() {
		return g.Movetext()
	}
	s := chess.Color(v)
	var parts []string
	for _, t := range g.turns {
		switch {
		case t.by == s && t.disp != "":
			parts = append(parts, fmt.Sprintf("T%d: %s (%s)", t.tx, chess.Numeric(t.move), t.disp))
		case t.by == s:
			parts = append(parts, fmt.Sprintf("T%d: %s", t.tx, chess.Numeric(t.move)))
		case t.disp == dispCommit:
			parts = append(parts, fmt.Sprintf("%s committed %s", t.by, t.numeric))
		}
	}
	return strings.Join(parts, "; ")
}

// resolveQueued reads a line sent for a later turn (TX-D12). It is resolved against by's view
// as it will be if the opponent does not commit meanwhile (if he commits, the batch stops):
// by's view with his earlier queued lines played. Locks are tested when the line is played.
func (g *Game) resolveQueued(by chess.Color, text string) (variant.Command, []chess.Warning, error) {
	sim := g.simulateQueue(by)
	p, err := parseLine(text)
	if err != nil {
		return variant.Command{}, nil, err
	}
	n, err := chess.ParseNotation(p.move)
	if err != nil {
		return variant.Command{}, nil, variant.Reject("%v", err)
	}
	pos, moves := sim.legal(by)
	m, warns, err := chess.Resolve(&pos, n, moves)
	if err != nil {
		return variant.Command{}, warns, variant.Refuse("transactional/illegal-in-view", args{"Later": true, "Why": err})
	}
	// A move queued before it may leave the opponent in check in this simulation, where he
	// does not answer it; by the time this line is played he will have. Its check mark is
	// judged only when the check is this move's own (issue 25).
	if w := markWarning(pos, n, m); w != nil && !pos.KingAttacked(by.Other()) {
		warns = append(warns, *w)
	}
	if err := sim.checkDisposition(by, sim.mandatory(&pos, by, m), p.disp); err != nil {
		return variant.Command{}, warns, err
	}
	// Its T-number is checked as the transaction it will belong to (TX-D15).
	if p.tx != 0 && p.tx != sim.pl[by].tx {
		warns = append(warns, chess.Warning{Text: fmt.Sprintf("you wrote T%d, but this line will be played in transaction T%d; the referee numbers the transactions", p.tx, sim.pl[by].tx)})
	}
	if len(g.queue[by]) >= 2*MaxPending {
		return variant.Command{}, warns, variant.Refuse("transactional/queue-full", args{"Max": 2 * MaxPending})
	}
	return variant.Command{By: by, Text: strings.TrimSpace("queue " + m.UCI() + " " + p.disp)}, warns, nil
}

// simulateQueue returns a copy of the game with by's queued lines played, ignoring locks and
// the opponent.
func (g *Game) simulateQueue(by chess.Color) *Game {
	sim := &Game{pl: g.pl, turn: by}
	sim.pl[by].pending = append([]pending(nil), g.pl[by].pending...)
	sim.pl[by.Other()].locks = 0
	sim.SetQuiet(true)
	for _, q := range g.queue[by] {
		pos, moves := sim.legal(by)
		if m, err := chess.FindUCI(moves, q.uci); err == nil {
			if sim.mandatory(&pos, by, m) != "" && q.disp == dispNone {
				q.disp = dispCommit
			}
			sim.play(by, pos, m, pos.SAN(m))
			switch q.disp {
			case dispCommit:
				sim.commit(by)
			case dispRollback:
				sim.rollback(by)
			}
		}
		cv := sim.cview(by)
		sim.pl[by].inCheck = cv.InCheck()
	}
	return sim
}

// submitQueue adds a resolved batch line for a later turn.
func (g *Game) submitQueue(cmd variant.Command, fields []string) ([]variant.Notice, error) {
	if len(fields) < 2 || len(fields) > 3 {
		return nil, variant.Refuse("transactional/malformed", args{"What": "queue", "Text": cmd.Text})
	}
	q := queued{uci: fields[1]}
	if len(fields) == 3 {
		q.disp = fields[2]
	}
	sim := g.simulateQueue(cmd.By)
	pos, moves := sim.legal(cmd.By)
	m, err := chess.FindUCI(moves, q.uci)
	switch {
	case errors.Is(err, chess.ErrNoMove):
		return nil, variant.Refuse("transactional/illegal-in-view", args{"Later": true, "Why": ""})
	case err != nil:
		return nil, variant.Reject("%v", err)
	}
	q.text = strings.TrimSpace(pos.SAN(m) + " " + map[string]string{"C": "(C)", "R": "(R)"}[q.disp])
	g.queue[cmd.By] = append(g.queue[cmd.By], q)
	g.Accept(cmd)
	if g.Quiet() {
		return nil, nil
	}
	// One paragraph says the whole queue: it stands for the one an earlier line of the same
	// mail left (three lines out of turn made three paragraphs that each said it again).
	var lines []string
	for _, w := range g.queue[cmd.By] {
		lines = append(lines, w.text)
	}
	return []variant.Notice{{To: variant.To(cmd.By), Kind: "queued", Words: "transactional/queued", Supersedes: "queued",
		Args: args{"Lines": strings.Join(lines, ", "), "Waiting": len(lines)}}}, nil
}

// runQueues plays waiting batch lines while it is the turn of a player who has some, and
// stops a player's batch when his opponent committed in the turn just ended (TX-D12). A
// rollback does not stop it: that would tell him of the rollback.
func (g *Game) runQueues(lastCommitted bool) []variant.Notice {
	var notices []variant.Notice
	for !g.Outcome().Over() && len(g.queue[g.turn]) > 0 {
		p := g.turn
		if lastCommitted {
			notices = append(notices, g.bounce(p, "your opponent committed, so the board you see has changed"))
			break
		}
		q := g.queue[p][0]
		g.queue[p] = g.queue[p][1:]
		ns, committed, err := g.doMove(p, q.uci, q.disp)
		if err != nil {
			g.queue[p] = append([]queued{q}, g.queue[p]...)
			notices = append(notices, g.bounce(p, fmt.Sprintf("%s was refused: %v", q.text, err)))
			break
		}
		notices = append(notices, ns...)
		lastCommitted = committed
	}
	return notices
}

// bounce empties p's batch and hands the rest back to him.
func (g *Game) bounce(p chess.Color, why string) variant.Notice {
	var rest []string
	for _, q := range g.queue[p] {
		rest = append(rest, q.text)
	}
	g.queue[p] = nil
	return variant.Notice{To: variant.To(p), Kind: "batch-stopped", Words: "transactional/batch-stopped",
		Args: args{"Why": why, "Rest": strings.Join(rest, " / ")}}
}

// args are the fields of a sentence in templates/words/transactional.tmpl.
type args = map[string]any

// epPawns names the pawns of owner whose passed-over squares are in eps.
func epPawns(eps chess.Bitboard, owner chess.Color) string {
	var s []string
	for _, sq := range eps.Squares() {
		pawn := sq + 8
		if owner == chess.Black {
			pawn = sq - 8
		}
		s = append(s, "the pawn on "+pawn.String())
	}
	return strings.Join(s, ", ")
}
