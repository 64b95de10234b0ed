// Package conditional is Conditional Chess (João Pedro Neto, 1996): rules.md §6, decisions
// CO-D1 to CO-D9.
//
// How it differs from orthodox chess: play runs in cycles A(X), B(Y), C(X) (CO-D1). X makes an
// A-move, which may give check only if it mates (CO-D3), and states a secret conditional
// C-move "condition?then/else" (or "!move"). Y makes a B-move. Then X's C-move is executed
// on the position after the B-move: the condition picks a branch, which is played if it is
// legal and skipped otherwise (CO-D5); then Y makes the next A-move. A B-move that checks X
// without mating skips X's C-move unless the chosen branch escapes the check, and then X makes
// the next A-move (CO-D2). Each branch is bound, when stated, to the from-square of the man it
// moves (CO-D6). The C-move is known only to its author until it resolves (CO-D8).
//
// The end conditions (mate, stalemate, dead position, the 50-move rule, repetition) are
// judged after every executed ply, A, B or C (CO-D4, CO-D9): a B-mover without a legal move
// is mated or stalemated right after the A-move, and a game that ends on an A- or B-ply
// plays nothing more; its pending C-move is discarded, and the record names it in a comment,
// which both players receive when the game ends (rules.md 0.4b). The same holds when a game
// ends by resignation, agreement or forfeit while a C-move is pending.
//
// Decisions this package adds (also in the issue note):
//   - The A-move and the C-move may come on one line ("A: e4 C: !d4") or on two lines of a
//     mail. An A-move without a C-move is accepted (rules.md §6.4 asks for both in one
//     message; issue 10 relaxes it): its author is told that none is stated and how to send
//     one. A C-move may come on its own, and replaces the stated one, until the opponent's
//     B-move is accepted. If none was stated by then, the C step is skipped ("no C-move").
//   - A branch that none of the author's men could ever play (no man of that kind reaches the
//     square on an empty board) is accepted with a warning; chosen, it is skipped. The sample
//     game has such branches (fixtures.md §2.2).
//   - Binding (CO-D6) reads "resolved using the author's own men and piece geometry alone" so:
//     a man of the named kind whose way to the destination is crossed by one of its author's
//     own men (on the position after the A-move) is not a candidate, since his men do not
//     move before the C-move; the opponent's men never block, since the B-move may move them.
//     A man of the author's on the destination does not block (the B-move may take it there,
//     and the branch retakes). When every candidate is blocked, geometry alone binds: one
//     candidate is bound, two are ambiguous.
//   - The sample game's two misprints are read as it means them: "Kg8?/*Rd1*/Nf3", a slash
//     right after the question mark (CO-D7's first slash would leave the then-branch empty),
//     and "Td1/Kxd1/e4", a slash printed for the question mark.
//   - Repetition (CO-D9) counts the start position and the position after each executed ply,
//     with the side to move, castling and e.p. rights, and the step that comes next. A skipped
//     C-move is no ply: the state it leaves is not counted (nothing moved).
//   - The C-move author without a legal move after the B-move is not stalemated (CO-D5): his
//     C-move is skipped and the end conditions are judged before the next A-move.
//   - Check marks (rules.md 0.3a) are checked on A- and B-moves, with a warning. They are not
//     checked in C-moves: a C-move is stated before the B-move, so its author cannot know
//     whether it will check; the mark there is as cosmetic as the x (0.3b).
//   - A command is checked whole before anything changes: an A-move whose C-part is refused
//     is not made, whether the two stand on one line or on two lines of the mail (Join: the
//     referee reads them as one command, issue 33).
//   - In records, "..." is a placeholder (a column left empty) and "-" is a C step with no
//     C-move; a starred branch that the rules do not play is a warning, not a failure, and
//     names the ply of the C-move. "!move" says nothing of whether it was played (the
//     sample game prints played ones without stars), so only "!*move*" is checked. A C-move
//     with a condition that stars neither branch, where the rules play one, is a warning too
//     (issue 33: the opposite case was warned, this one not). Plies
//     are counted three to a cycle, as the record writes them, in replay too.
package conditional

import (
	"fmt"
	"strings"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/variant"
)

// Key is the registry key.
const Key = "conditional"

func init() {
	variant.Register(&variant.Variant{Key: Key, Name: "Conditional Chess",
		// The position is the played one; the move list drops any comment (a stated C-move).
		InProgress: variant.Spectator{Position: true, Moves: true, Turn: true},
		Options:    map[string]variant.Option{"a-check-loses": {Type: variant.Bool, Doc: "an A-mover who cannot avoid a non-mating check loses, instead of a draw"}},
		Aliases:    []string{"conditional chess"},
		Commands:   []variant.CommandRow{{Help: "help/conditional/1"}},
		New:        func(o variant.Options) (variant.Game, error) { return New(o) },
		Steps:      Steps, WriteMovetext: func(g variant.Game) string { return g.(*Game).Movetext() }})
}

// condition is what a C-move asks of the position after the B-move.
type condition struct {
	kind byte // '!' always, 'e' square empty, 'E' an enemy man, 'R' an enemy man of role
	role chess.Role
	sq   chess.Square
}

// branch is one move of a C-move, bound to its man's from-square (CO-D6).
type branch struct {
	text  string
	from  chess.Square // NoSquare: no man of the author can ever play it
	to    chess.Square
	promo chess.Role
}

// cmove is a stated C-move.
type cmove struct {
	author    chess.Color
	text      string // as stated, without stars
	cond      condition
	then, els branch
	expect    string // records only: the branch the record stars ("then", "else" or "")
}

// plyRecord is one step of the game for records and notices.
type plyRecord struct {
	kind byte // 'A', 'B', 'C'
	by   chess.Color
	text string // SAN, or the C-move text with the played branch starred, or "-"
}

// Game is a Conditional Chess game.
type Game struct {
	variant.Common
	pos         chess.Position
	state       byte        // 'A' or 'B'
	x           chess.Color // the A-mover of the current cycle
	pending     *cmove
	discarded   *cmove // a C-move the end of the game left unplayed, revealed (CO-D9)
	aCheckLoses bool
	hashes      map[uint64]int
	plies       []plyRecord
	notes       []string // records: starred branches the rules did not play
}

// New starts a game; option "a-check-loses" makes an A-mover who cannot avoid a non-mating
// check lose instead of drawing (C:L27).
func New(o variant.Options) (*Game, error) {
	pos, err := variant.StartPosition(o)
	if err != nil {
		return nil, err
	}
	g := &Game{Common: variant.NewCommon(), pos: pos, state: 'A', x: pos.Turn, hashes: map[uint64]int{}}
	if g.aCheckLoses, err = o.Bool("a-check-loses"); err != nil {
		return nil, err
	}
	g.reached('A', g.x)
	g.judge('A', g.x, true)
	return g, nil
}

func (g *Game) Key() string              { return Key }
func (g *Game) Position() chess.Position { return g.pos }

// ToAct is the player whose A- or B-move the game waits for.
func (g *Game) ToAct() []variant.Side { return g.Awaiting(g.mover()) }

// mover is the player of the step the game waits for: X's A-move, or Y's B-move.
func (g *Game) mover() chess.Color {
	if g.state == 'A' {
		return g.x
	}
	return g.x.Other()
}

var _ variant.TurnNamer = (*Game)(nil)

// TurnName is "cycle 4, A-move" for the player whose A- or B-move the game waits for. Cycles
// are numbered as records number them, three plies to a cycle (A, B, C, a skipped C-move
// included), so the name depends on nothing but the executed plies, which both players see.
func (g *Game) TurnName(s variant.Side) string {
	return g.NameTurn(s, g.mover(), "cycle %d, %c-move", len(g.plies)/3+1, g.state)
}

// legalFor lists c's orthodox legal moves.
func (g *Game) legalFor(c chess.Color) []chess.Move {
	p := g.pos
	p.Turn = c
	if p.EnPassant != chess.NoSquare && c == g.pos.Turn.Other() {
		p.EnPassant = chess.NoSquare
	}
	return p.LegalMoves(nil)
}

// checks reports whether m, played by c, attacks the other king, and whether it mates.
func (g *Game) checks(c chess.Color, m chess.Move) (check, mate bool) {
	p := g.pos
	p.Turn = c
	return p.Checks(m)
}

// aMoves are X's legal A-moves: no check unless it mates (CO-D3).
func (g *Game) aMoves() []chess.Move {
	var out []chess.Move
	for _, m := range g.legalFor(g.x) {
		if check, mate := g.checks(g.x, m); !check || mate {
			out = append(out, m)
		}
	}
	return out
}

// ends are the orthodox draws, judged after every ply (CO-D4, CO-D9).
var ends = variant.EndRules{
	Dead:   "neither side has the men to mate",
	Quiet:  variant.Limit{At: 100, Termination: "fifty-move rule", Reason: "100 moves in a row, by either side, without a capture or a pawn move"},
	Repeat: variant.Limit{At: 3, Termination: "threefold repetition", Reason: "the same position, with the same step to come, for the third time"},
}

// judge ends the game when the step that comes next cannot be made or an orthodox draw has
// come (CO-D4, CO-D9). It runs after every executed ply, A, B or C, and after a skipped
// C-move; next is the step that comes next, mover the player who makes it, and executed
// says that a ply was just played (its position counts toward repetition).
func (g *Game) judge(next byte, mover chess.Color, executed bool) {
	if g.Outcome().Over() {
		return
	}
	p := g.pos
	p.Turn = mover
	noMove, inCheck := len(g.legalFor(mover)) == 0, p.InCheck()
	s := variant.Standing{Mover: mover, InCheck: inCheck, Dead: p.InsufficientMaterial(), Quiet: p.Halfmove,
		// The author of a C-move without a legal move is not stalemated: his C-move is
		// skipped (CO-D5).
		NoMove: noMove && (inCheck || next != 'C'),
		Mate: func() string {
			return fmt.Sprintf("%s checkmated %s with %s", mover.Other(), mover, map[byte]string{'B': "an A-move", 'C': "a B-move", 'A': "a C-move"}[next])
		},
		Special: func() (variant.Ending, bool) { // CO-D3
			if next != 'A' || len(g.aMoves()) > 0 {
				return variant.Ending{}, false
			}
			if g.aCheckLoses {
				return variant.Ending{Result: variant.WinFor(mover.Other()), Termination: "forced check", Reason: mover.String() + " can only give a check that does not mate with his A-move, and loses"}, true
			}
			return variant.Ending{Result: variant.Draw, Termination: "forced check", Reason: mover.String() + " can only give a check that does not mate with his A-move"}, true
		}}
	if executed {
		s.Repeats = g.hashes[g.stateHash(next, mover)]
	}
	g.Judge(&ends, s)
}

// stateHash is a position plus its state (CO-D9): the placement, the side to move, castling
// and e.p. rights, and which step of the cycle comes next.
func (g *Game) stateHash(next byte, mover chess.Color) uint64 {
	p := g.pos
	if p.Turn != mover {
		p.EnPassant = chess.NoSquare // the e.p. right is the opponent's of the pawn's owner only
	}
	p.Turn = mover
	return p.Hash() ^ uint64(next)<<56
}

// reached counts the position after an executed ply, with the step that comes next.
func (g *Game) reached(next byte, mover chess.Color) { g.hashes[g.stateHash(next, mover)]++ }

// Resolve reads "A: e4", "A: e4 C: Bg5?Nf6/c4", "C: !d4", "B: Nf6", or a bare move (an A- or
// B-move as the state requires).
func (g *Game) Resolve(by variant.Side, text string) (variant.Command, []chess.Warning, error) {
	if cmd, done, err := g.ResolvePreamble(by, text); done {
		return cmd, nil, err
	}
	aPart, cPart, bPart := splitLine(text)
	var warns []chess.Warning
	switch {
	case bPart != "" || (aPart == "" && cPart == "" && g.state == 'B' && by != g.x):
		if bPart == "" {
			bPart = strings.TrimSpace(text)
		}
		if g.state != 'B' || by == g.x {
			return variant.Command{}, nil, variant.Refuse("conditional/not-your-step", map[string]any{"Step": "B", "Next": g.next()})
		}
		m, w, err := g.resolveOrthodox(by, bPart, g.legalFor(by))
		if err != nil {
			return variant.Command{}, w, err
		}
		return variant.Command{By: by, Text: "B " + m.UCI()}, w, nil
	case aPart != "" || (cPart == "" && g.state == 'A'):
		if aPart == "" {
			aPart = strings.TrimSpace(text)
		}
		if g.state != 'A' || by != g.x {
			return variant.Command{}, nil, variant.Refuse("conditional/not-your-step", map[string]any{"Step": "A", "Next": g.next()})
		}
		m, w, err := g.resolveOrthodox(by, aPart, g.legalFor(by))
		if err != nil {
			return variant.Command{}, w, err
		}
		if check, mate := g.checks(by, m); check && !mate {
			return variant.Command{}, w, variant.Refuse("conditional/a-move-check", map[string]any{"Move": aPart})
		}
		warns = append(warns, w...)
		canon := "A " + m.UCI()
		if cPart != "" {
			// The C-move is bound on the position after the A-move.
			after := *g
			after.pos.Turn = by
			after.pos.Play(m)
			c, w, err := after.resolveC(by, cPart)
			warns = append(warns, w...)
			if err != nil {
				return variant.Command{}, warns, err
			}
			canon += " ; " + c
		}
		return variant.Command{By: by, Text: canon}, warns, nil
	default:
		if by != g.x || g.state != 'B' {
			return variant.Command{}, nil, variant.Refuse("conditional/c-move-when", map[string]any{"Next": g.next()})
		}
		if cPart == "" { // a bare line where a C-move may come: it is read as one
			cPart = strings.TrimSpace(text)
		}
		c, w, err := g.resolveC(by, cPart)
		return variant.Command{By: by, Text: c}, w, err
	}
}

// Join makes an A-move and the C-move on the next line of the same mail one command
// ("A: e4" and "C: !d4" are read as "A: e4 C: !d4"): both are required in the same message
// and checked together (rules.md §6.4), so a refused C-move leaves the A-move unmade.
func (g *Game) Join(by variant.Side, line, next string) (string, bool) {
	a, c, b := splitLine(line)
	a2, c2, b2 := splitLine(next)
	if c != "" || b != "" || c2 == "" || a2 != "" || b2 != "" {
		return "", false
	}
	if a == "" { // a bare move: an A-move when the game waits for his
		if _, common, _ := g.ResolvePreamble(by, line); common || g.state != 'A' || by != g.x {
			return "", false
		}
		a = strings.TrimSpace(line)
	}
	return "A: " + a + " C: " + c2, true
}

// splitLine finds the "A:", "B:" and "C:" parts of a line.
func splitLine(text string) (a, c, b string) {
	t := strings.TrimSpace(text)
	parts := map[byte]string{}
	for t != "" {
		if len(t) >= 2 && (t[1] == ':') && strings.ContainsRune("ABCabc", rune(t[0])) {
			key := t[0] &^ 0x20
			rest := strings.TrimSpace(t[2:])
			next := len(rest)
			for _, k := range []string{" A:", " B:", " C:", " a:", " b:", " c:", "/C:", ";C:"} {
				if i := strings.Index(rest, k); i >= 0 && i < next {
					next = i
				}
			}
			parts[key] = strings.Trim(strings.TrimSpace(rest[:next]), "/;")
			t = strings.TrimLeft(rest[next:], " /;")
			continue
		}
		if len(t) > 0 && (t[0] == '!' || strings.ContainsRune(t, '?')) && parts['C'] == "" && len(parts) == 0 {
			parts['C'] = t
		}
		break
	}
	return parts['A'], parts['C'], parts['B']
}

// next names the step the game waits for, as a noun phrase: "Black's A-move".
func (g *Game) next() string {
	return fmt.Sprintf("%s's %c-move", g.mover(), g.state)
}

// resolveOrthodox reads an A- or B-move among moves, in sight of the whole board. A refusal
// names the part of the line it is about, unless it already does.
func (g *Game) resolveOrthodox(by chess.Color, text string, moves []chess.Move) (chess.Move, []chess.Warning, error) {
	p := g.pos
	p.Turn = by
	m, warns, err := variant.ReadMove(&p, text, moves)
	if err != nil && !strings.Contains(err.Error(), strings.TrimSpace(text)) {
		err = variant.Refuse("common/move-why", map[string]any{"Move": strings.TrimSpace(text), "Why": err})
	}
	return m, warns, err
}

// parseC reads a C-move's text: "Bg5?Nf6/c4", "!d4", with stars marking a record's played
// branch and the sample game's misprints ("Kg8?/*Rd1*/Nf3", "Td1/Kxd1/e4").
func parseC(text string) (cond condition, then, els, expect string, err error) {
	t := strings.ReplaceAll(strings.TrimSpace(text), " ", "")
	if strings.HasPrefix(t, "!") {
		// "!d4" says nothing of whether it was played: the record's stars, if any, do.
		m := strings.Trim(t[1:], "*")
		if len(m) < len(t)-1 {
			expect = "then"
		}
		return condition{kind: '!'}, m, m, expect, nil
	}
	q := strings.IndexByte(t, '?')
	if q < 0 {
		// "Td1/Kxd1/e4": a slash printed for the question mark.
		if strings.Count(t, "/") == 2 {
			q = strings.IndexByte(t, '/')
		} else {
			return cond, "", "", "", variant.Refuse("conditional/c-form", map[string]any{"Text": text})
		}
	}
	cs, rest := t[:q], strings.TrimPrefix(t[q+1:], "/")
	slash := strings.IndexByte(rest, '/')
	if slash < 0 {
		return cond, "", "", "", variant.Refuse("conditional/c-slash", map[string]any{"Text": text})
	}
	then, els = rest[:slash], rest[slash+1:]
	if strings.HasPrefix(then, "*") {
		expect = "then"
	} else if strings.HasPrefix(els, "*") {
		expect = "else"
	}
	then, els = strings.Trim(then, "*"), strings.Trim(els, "*")
	if then == "" || els == "" {
		return cond, "", "", "", variant.Refuse("conditional/c-branches", map[string]any{"Text": text})
	}
	switch {
	case len(cs) == 2:
		sq, err := chess.ParseSquare(cs)
		if err != nil {
			return cond, "", "", "", variant.Refuse("conditional/c-condition", map[string]any{"Text": text, "Cond": cs, "Square": ""})
		}
		cond = condition{kind: 'e', sq: sq}
	case len(cs) == 3:
		sq, err := chess.ParseSquare(cs[1:])
		if err != nil {
			return cond, "", "", "", variant.Refuse("conditional/c-condition", map[string]any{"Text": text, "Cond": cs, "Square": cs[1:]})
		}
		switch r := cs[0]; r {
		case 'E':
			cond = condition{kind: 'E', sq: sq}
		case 'K', 'Q', 'R', 'B', 'N', 'P', 'T':
			role := map[byte]chess.Role{'K': chess.King, 'Q': chess.Queen, 'R': chess.Rook, 'T': chess.Rook, 'B': chess.Bishop, 'N': chess.Knight, 'P': chess.Pawn}[r]
			cond = condition{kind: 'R', role: role, sq: sq}
		default:
			return cond, "", "", "", variant.Refuse("conditional/c-condition-letter", map[string]any{"Text": text, "Cond": cs, "Letter": string(r)})
		}
	default:
		return cond, "", "", "", variant.Refuse("conditional/c-condition-form", map[string]any{"Text": text, "Cond": cs})
	}
	return cond, then, els, expect, nil
}

// bind resolves a branch's move for its author by piece geometry alone (CO-D6).
func (g *Game) bind(author chess.Color, text string) (branch, *chess.Warning, error) {
	b := branch{text: text, from: chess.NoSquare, to: chess.NoSquare}
	n, err := chess.ParseNotation(text)
	if err != nil {
		return b, nil, err
	}
	if n.Castle != 0 {
		home := chess.E1
		if author == chess.Black {
			home = chess.E8
		}
		b.from, b.to = home, home+2
		if n.Castle == chess.CastleLong {
			b.to = home - 2
		}
		return b, nil, nil
	}
	b.to, b.promo = n.To, n.Promotion
	var cands []chess.Square
	for men := g.pos.ByColor(author); men != 0; men &= men - 1 {
		from := men.First()
		pc := g.pos.At(from)
		if n.Role != chess.NoRole && pc.Role() != n.Role {
			continue
		}
		if n.FromFile >= 0 && from.File() != int(n.FromFile) || n.FromRank >= 0 && from.Rank() != int(n.FromRank) {
			continue
		}
		// SAN: a pawn move without its file ("d5") is a push on the pawn's own file.
		if pc.Role() == chess.Pawn && n.FromFile < 0 && from.File() != n.To.File() {
			continue
		}
		if reaches(pc, from, n.To) {
			cands = append(cands, from)
		}
	}
	// The author's own men stand in the way (they do not move before the C-move; the B-move
	// can only take one away), the opponent's do not. Only when each candidate is blocked is
	// the branch bound by geometry alone.
	var free []chess.Square
	for _, from := range cands {
		if unblocked(g.pos.ByColor(author), g.pos.At(from), from, n.To) {
			free = append(free, from)
		}
	}
	if len(free) > 0 {
		cands = free
	}
	switch len(cands) {
	case 0:
		return b, &chess.Warning{Text: fmt.Sprintf("no man of yours can ever play %s; if this branch is chosen, the C-move is skipped", text)}, nil
	case 1:
		b.from = cands[0]
		return b, nil, nil
	}
	var names []string
	for _, c := range cands {
		names = append(names, c.String()+"-"+n.To.String())
	}
	return b, nil, variant.Refuse("conditional/c-ambiguous", map[string]any{"Move": text, "Moves": names})
}

// reaches reports whether a man on from could move to to on an empty board: castling, which
// coordinates write as the king's two-square move (e1-g1), included.
func reaches(pc chess.Piece, from, to chess.Square) bool {
	if pc.Role() == chess.King {
		home := chess.E1
		if pc.Color() == chess.Black {
			home = chess.E8
		}
		if from == home && (to == home+2 || to == home-2) {
			return true
		}
	}
	if pc.Role() != chess.Pawn {
		return chess.Attacks(pc, from, 0).Has(to)
	}
	dir := 1
	if pc.Color() == chess.Black {
		dir = -1
	}
	df, dr := to.File()-from.File(), (to.Rank()-from.Rank())*dir
	start := 1
	if pc.Color() == chess.Black {
		start = 6
	}
	return (df == 0 && dr == 1) || (df == 0 && dr == 2 && from.Rank() == start) || ((df == 1 || df == -1) && dr == 1)
}

// unblocked reports whether none of own stands between from and to on pc's way there (a man
// that reaches to, as reaches says); to itself may hold one of own, which the B-move may take.
func unblocked(own chess.Bitboard, pc chess.Piece, from, to chess.Square) bool {
	switch pc.Role() {
	case chess.Pawn:
		if d := to.Rank() - from.Rank(); d == 2 || d == -2 {
			return !own.Has(chess.SquareAt(from.File(), (from.Rank()+to.Rank())/2))
		}
		return true
	case chess.Knight, chess.King:
		return true
	}
	return chess.Attacks(pc, from, own).Has(to)
}

// ResolveRecord is Resolve for a record (variant.RecordResolver): a C-move with a condition
// whose record stars neither branch is marked "none", so that one the rules play is noted
// (the mail a player states a C-move in has no stars, and its command no mark).
func (g *Game) ResolveRecord(by variant.Side, text string) (variant.Command, []chess.Warning, error) {
	cmd, warns, err := g.Resolve(by, text)
	if err != nil {
		return cmd, warns, err
	}
	head, c, ok := strings.Cut(cmd.Text, " ; ")
	if !ok {
		head, c = "", cmd.Text
	}
	if f := strings.Fields(c); len(f) == 4 && f[0] == "C" && !strings.HasPrefix(f[1], "!") {
		c += " none"
		if head != "" {
			c = head + " ; " + c
		}
		cmd.Text = c
	}
	return cmd, warns, nil
}

// resolveC reads a C-move for its author on the current position and returns the canonical
// command: "C <text> <then-from><then-to>[promo] <else-from><else-to>[promo] [expect]".
func (g *Game) resolveC(by chess.Color, text string) (string, []chess.Warning, error) {
	cond, then, els, expect, err := parseC(text)
	if err != nil {
		return "", nil, err
	}
	var warns []chess.Warning
	var bs [2]branch
	for i, t := range []string{then, els} {
		b, w, err := g.bind(by, t)
		if err != nil {
			return "", warns, variant.Refuse("conditional/c-move-why", map[string]any{"Why": err})
		}
		if w != nil && !(i == 1 && cond.kind == '!') {
			warns = append(warns, *w)
		}
		bs[i] = b
	}
	norm := condText(cond) + then + "/" + els
	if cond.kind == '!' {
		norm = "!" + then
	}
	out := fmt.Sprintf("C %s %s %s", norm, branchCode(bs[0]), branchCode(bs[1]))
	if expect != "" {
		out += " " + expect
	}
	return out, warns, nil
}

func condText(c condition) string {
	switch c.kind {
	case 'e':
		return c.sq.String() + "?"
	case 'E':
		return "E" + c.sq.String() + "?"
	case 'R':
		return c.role.Letter() + c.sq.String() + "?"
	}
	return "!"
}

func branchCode(b branch) string {
	if b.from == chess.NoSquare {
		return "-"
	}
	s := b.from.String() + b.to.String()
	if b.promo != chess.NoRole {
		s += strings.ToLower(b.promo.Letter())
	}
	return s
}

// decodeC rebuilds a stated C-move from its canonical command.
func decodeC(author chess.Color, f []string) (*cmove, error) {
	if len(f) < 4 {
		return nil, variant.Refuse("conditional/malformed-c", nil)
	}
	cond, then, els, _, err := parseC(f[1])
	if err != nil {
		return nil, err
	}
	c := &cmove{author: author, text: f[1], cond: cond, then: branch{text: then}, els: branch{text: els}}
	for i, code := range f[2:4] {
		b := &c.then
		if i == 1 {
			b = &c.els
		}
		b.from = chess.NoSquare
		if code != "-" {
			m, err := chess.ParseUCI(code)
			if err != nil {
				return nil, variant.Reject("%v", err)
			}
			b.from, b.to, b.promo = m.From, m.To, m.Promotion
		}
	}
	if len(f) > 4 {
		c.expect = f[4]
	}
	return c, nil
}
