// Package trainwreck is Peter Aronson's Train Wreck Chess and its Three-Move variant,
// rules.md §9 (rules 1-11) and decisions TW-D1 to TW-D10; fixtures §8.
//
// How it differs from orthodox chess:
//   - A turn has two parts: the player moves one of his own men (part 1), then one of his
//     opponent's men other than the king (part 2). White's first turn has both parts too
//     (TW-D1). In Three-Move Train Wreck part 1 is two moves of his own men, except in
//     White's first turn (rule 11, TW-D10).
//   - "Forward" is away from the man's owner's first row, whoever moves it. Except to capture
//     or castle a man moves only forward: a king one step and a queen any distance in the
//     three forward directions, a rook straight forward, a bishop along the forward
//     diagonals, a knight in its four forward leaps; pawns as usual. Captures keep the whole
//     orthodox geometry, backwards and sideways, but a man takes only men of the other colour
//     from its own, whoever moves it (rules 3, 4, 6).
//   - Queens castle too (TW-D5), like kings but without conditions about attacked squares:
//     d1-b1 with the rook a1-c1, d1-f1 with h1-e1. A king castles as in orthodox chess and
//     only by his owner (TW-D4). Any move of the king, queen or rook, by either player, ends
//     its castling.
//   - The player who moves a pawn to its far rank chooses what it becomes, in its owner's
//     colour (TW-D6). There is no en passant (rule 8).
//   - There is no check (TW-D3): kings may stand, step or be left on attacked squares. With
//     the game option king-attacked-note the referee tells a player whose king is attacked
//     after a turn; it is off by default.
//   - The game is won by taking the enemy king, in part 1 at once (part 2 is not played); a
//     player whose part 2 takes his own king with an opposing man loses (TW-D2). A player
//     who cannot move his own men at the start of his turn loses (TW-D7); so does a player
//     who after part 1 has none of his opponent's men but the king to move (TW-D8), or who in
//     Three-Move has no move of his own men for his second move (TW-D10).
//   - No draw but by agreement (TW-D9): no stalemate draw, no dead position, no move count,
//     no repetition.
//
// By mail a turn is one line: "TURN e2-e4 / b8-c6" ("TURN" and a turn number are optional;
// without the "/" the moves are taken in order, own moves first). SAN is read for the colour
// each part moves, so it need only be unambiguous among that colour's moves. The whole turn
// is checked on a copy first: it is applied whole, or refused naming its part and the reason.
// Both players are told both parts, captures, castlings and promotions with the piece chosen,
// under the board.
//
// Records: "1. e2e4/b8c6 d7d5/e4e5 2. ...": each turn's parts separated by "/", part 1's
// moves by ","; spaces around "/" and "-" inside moves are allowed, SAN is read as by mail,
// coordinates carry the promotion letter (e2e1n). A turn cut short by the end of the game
// holds what was played.
//
// Decisions this package adds (rules.md leaves them open):
//   - A turn that ends the game before it is complete (its part 1 takes the king, or leaves
//     no move for what comes next) is sent without what would follow; a mail that adds moves
//     after that point is refused, as Progressive refuses moves after a series' end.
//   - In a game set up from a FEN, each queen on its home square (d1, d8) and each rook in a
//     corner of its own first rank is taken as unmoved, for queen castling: a FEN cannot say
//     otherwise. The kings' castling follows the FEN's castling field. The FEN's side to move
//     starts a whole turn; White's first turn (one own move in Three-Move) is White's turn 1.
//     A FEN need not keep the kings out of attack (there is no check).
//   - Three-Move: the two own moves may be made by the same man.
//   - "O-O" and "O-O-O" castle whichever man can castle that way: a king and a queen never
//     can at once (the queen's castling needs the king gone from e1, or stands on d1 where
//     the king would pass). "QO-O-O" and "KO-O" name the man.
//   - Check marks in moves are ignored (there is no check); a capture sign on a move that
//     takes nothing is refused (rules.md 0.3b).
//   - A turn number written in a mail ("TURN 5: ...") that is not the turn's is only a
//     warning, as in Progressive; the player's turn is played.
//   - A record's ply count is the number of men moved. The FEN's halfmove field stays 0:
//     the game counts no moves (TW-D9).
//   - The turn that ends the game passes the move all the same: the final position's FEN
//     names the other player to move (issue 33), as orthodox chess's does after a mate.
//   - The courtesy note (TW-D3) goes to each player whose king is attacked after a turn,
//     and under his board while it stays attacked.
package trainwreck

import (
	"errors"
	"fmt"
	"strings"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/record"
	"github.com/refereed/refereed/variant"
)

// Keys of the two games.
const (
	Key      = "trainwreck"
	KeyThree = "trainwreck-three"
)

// OptionNote is the game option that turns the courtesy note of TW-D3 on.
const OptionNote = "king-attacked-note"

var options = map[string]variant.Option{
	OptionNote: {Type: variant.Bool, Doc: "tell a player when his king is attacked after a turn (a courtesy: there is no check in the game); off by default"},
}

func init() {
	variant.Register(&variant.Variant{Open: true, Key: Key, Name: "Train Wreck Chess", InProgress: variant.Spectator{Position: true, Moves: true, Turn: true},
		Aliases:  []string{"train wreck", "train wreck chess", "trainwreck chess"},
		Commands: []variant.CommandRow{{Help: "help/trainwreck/two"}},
		New:      func(o variant.Options) (variant.Game, error) { return New(o, false) },
		Steps:    Steps, WriteMovetext: func(g variant.Game) string { return g.(*Game).Movetext() },
		Options: options})
	variant.Register(&variant.Variant{Open: true, Key: KeyThree, Name: "Three-Move Train Wreck", InProgress: variant.Spectator{Position: true, Moves: true, Turn: true},
		Aliases:  []string{"three-move train wreck", "three-move train wreck chess", "three-move trainwreck", "three-move trainwreck chess"},
		Commands: []variant.CommandRow{{Help: "help/trainwreck/three"}},
		New:      func(o variant.Options) (variant.Game, error) { return New(o, true) },
		Steps:    Steps, WriteMovetext: func(g variant.Game) string { return g.(*Game).Movetext() },
		Options: options})
}

// Game is a Train Wreck game.
type Game struct {
	variant.Common
	three   bool
	note    bool // TW-D3's courtesy note
	start   chess.Position
	pos     chess.Position // Turn is the player whose turn it is; Fullmove the turn's number
	unmoved chess.Bitboard // queens and rooks that never moved: their castling (TW-D5)
	played  []turn
	men     int // men moved so far: the record's plies
}

// turn is a turn played: its moves in order, the first own of them the player's own men's.
type turn struct {
	by    chess.Color
	no    int
	own   int
	moves []chess.Move
}

// New starts a game of Train Wreck (three: Three-Move Train Wreck).
func New(o variant.Options, three bool) (*Game, error) {
	pos := chess.Start()
	if o.FEN != "" {
		var err error
		if pos, err = chess.ParseFEN(o.FEN); err != nil {
			return nil, err
		}
		for _, c := range []chess.Color{chess.White, chess.Black} {
			if n := pos.ByPiece(c, chess.King).Count(); n != 1 {
				return nil, fmt.Errorf("trainwreck: %v has %d kings, want 1", c, n)
			}
		}
		if pos.ByRole(chess.Pawn)&(chess.Rank1|chess.Rank8) != 0 {
			return nil, fmt.Errorf("trainwreck: a pawn stands on the first or last rank")
		}
		pos.EnPassant, pos.Halfmove = chess.NoSquare, 0
	}
	g := &Game{Common: variant.NewCommon(), three: three, start: pos, pos: pos, unmoved: homeMen(&pos)}
	var err error
	if g.note, err = o.Bool(OptionNote); err != nil {
		return nil, err
	}
	g.judgeStart()
	return g, nil
}

func (g *Game) Key() string {
	if g.three {
		return KeyThree
	}
	return Key
}

func (g *Game) Position() chess.Position { return g.pos }

// ToAct is the player whose turn it is.
func (g *Game) ToAct() []variant.Side { return g.Awaiting(g.pos.Turn) }

var _ variant.TurnNamer = (*Game)(nil)

// TurnName is "turn 12" for the player whose turn it is: the number a record gives it.
func (g *Game) TurnName(s variant.Side) string {
	return g.NameTurn(s, g.pos.Turn, "turn %d", g.pos.Fullmove)
}

var _ variant.PlyCounter = (*Game)(nil)

// Plies counts the men moved: a record's plies.
func (g *Game) Plies() int { return g.men }

// ownCount is the number of own moves in the current turn's part 1: one, or in Three-Move
// two but in White's first turn (rule 11).
func (g *Game) ownCount() int {
	if g.three && !(g.pos.Turn == chess.White && g.pos.Fullmove == 1) {
		return 2
	}
	return 1
}

// judgeStart ends the game when the player whose turn it is cannot move his own men
// (TW-D7): stalemate, which he loses.
func (g *Game) judgeStart() {
	if g.Outcome().Over() {
		return
	}
	c := g.pos.Turn
	if !hasOwnMove(&g.pos, c, g.unmoved) {
		g.End(variant.WinFor(c.Other()), "stalemate", fmt.Sprintf("%s cannot move any of his own men: stalemate, which %s loses", c, c))
	}
}

// Resolve reads a turn ("TURN e2-e4 / b8-c6", "e4 / Nc6", "e2e4, d2d4 / b8c6") or a common
// command. It checks the whole turn and returns it in coordinates.
func (g *Game) Resolve(by variant.Side, text string) (variant.Command, []chess.Warning, error) {
	if cmd, done, err := g.ResolvePreamble(by, text); done {
		return cmd, nil, err
	}
	if by != g.pos.Turn {
		return variant.Command{}, nil, variant.Refuse("trainwreck/not-your-turn", map[string]any{"Turn": g.pos.Turn, "N": g.pos.Fullmove, "Wait": true})
	}
	own, other, warns, err := g.split(text)
	if err != nil {
		return variant.Command{}, warns, err
	}
	t, more, err := g.check(own, other)
	warns = append(warns, more...)
	if err != nil {
		return variant.Command{}, warns, err
	}
	return variant.Command{By: by, Text: t.command()}, warns, nil
}

// command is the canonical text of a turn: "turn e2e4/b8c6", "turn e2e4,d2d4/b8c6", or a
// turn cut short by the end of the game, "turn d1h5".
func (t *checked) command() string {
	var sb strings.Builder
	sb.WriteString("turn ")
	writeTurn(&sb, t.moves, t.own)
	return sb.String()
}

// writeTurn writes a turn's moves in coordinates: own moves joined by ",", then "/" and the
// move of the opponent's man, if there was one.
func writeTurn(sb *strings.Builder, moves []chess.Move, own int) {
	for i, m := range moves {
		switch {
		case i == own:
			sb.WriteByte('/')
		case i > 0:
			sb.WriteByte(',')
		}
		sb.WriteString(m.UCI())
	}
}

// split takes the moves out of a turn line: the own moves, and the move of an opponent's man
// ("" when none was written).
func (g *Game) split(text string) (own []string, other string, warns []chess.Warning, err error) {
	t := strings.TrimSpace(text)
	if len(t) >= 4 && strings.EqualFold(t[:4], "turn") && (len(t) == 4 || t[4] == ' ' || t[4] == ':' || t[4] == '\t') {
		t = strings.TrimSpace(t[4:])
	}
	// A turn number: "12:", "12.", "12 ".
	// (Not a move in ICCF numeric notation: "5254 / 2836".)
	if i := strings.IndexFunc(t, func(r rune) bool { return r < '0' || r > '9' }); i > 0 && (t[i] == ':' || t[i] == '.' || t[i] == ' ') && !(t[i] == ' ' && record.IsNumericMove(t[:i])) {
		var n int
		fmt.Sscanf(t[:i], "%d", &n)
		if n != g.pos.Fullmove {
			warns = append(warns, chess.Warning{Text: fmt.Sprintf("you wrote turn %d, but this is turn %d", n, g.pos.Fullmove)})
		}
		t = strings.TrimSpace(strings.TrimLeft(t[i:], ":."))
	}
	fields := func(s string) []string {
		return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == ';' })
	}
	for _, w := range fields(strings.ReplaceAll(t, "/", " ")) {
		var words *chess.WordsError
		if _, err := chess.ParseNotation(w); errors.As(err, &words) {
			return nil, "", warns, variant.Reject("%v", err) // a sentence, not a turn
		}
	}
	n := g.ownCount()
	before, after, slash := strings.Cut(t, "/")
	if !slash {
		words := fields(t)
		if len(words) == 0 {
			return nil, "", warns, variant.Refuse("trainwreck/no-moves", map[string]any{"Own": n})
		}
		if len(words) > n+1 {
			return nil, "", warns, variant.Refuse("trainwreck/too-many-moves", map[string]any{"Sent": len(words), "Own": n})
		}
		if len(words) == n+1 {
			return words[:n], words[n], warns, nil
		}
		return words, "", warns, nil
	}
	if strings.Contains(after, "/") {
		return nil, "", warns, variant.Refuse("trainwreck/slashes", map[string]any{"Own": n})
	}
	own = fields(before)
	if len(own) == 0 {
		return nil, "", warns, variant.Refuse("trainwreck/nothing-before-slash", map[string]any{"Own": n})
	}
	rest := fields(after)
	switch len(rest) {
	case 0:
		return nil, "", warns, variant.Refuse("trainwreck/nothing-after-slash", map[string]any{"Side": g.pos.Turn.Other(), "Own": n})
	case 1:
	default:
		return nil, "", warns, variant.Refuse("trainwreck/part-2-one-move", map[string]any{"Sent": len(rest)})
	}
	return own, rest[0], warns, nil
}

// shapeError refuses a turn with the wrong number of own moves.
func (g *Game) shapeError(sent int) error {
	n := g.ownCount()
	return variant.Refuse("trainwreck/turn-shape", map[string]any{"N": g.pos.Fullmove, "Own": n, "First": g.three && n == 1, "Sent": sent})
}

// checked is a turn played on a copy: what it does, and how it ends the game if it does.
type checked struct {
	moves   []chess.Move
	own     int // how many of moves are the player's own men's
	notes   []Note
	pos     chess.Position
	unmoved chess.Bitboard
	end     *variant.Ending
}

// Note is one move of a turn as the players are told it (the fields of the sentence
// "trainwreck/turn"): which part, whose man, where, and what it took, became or castled with.
type Note struct {
	Part     string // "part 1", "part 1, move 2", "part 2"
	Man      string // "Black's knight"
	From, To string
	Took     string // "White's bishop", or ""
	Became   string // the piece a pawn became, or ""
	Chooser  string // who chose it: the player whose turn it is (TW-D6)
	Castled  bool   // a castling: the rook went from Rook to RookTo
	Rook     string
	RookTo   string
}

// partName names move k (0-based) of a turn with n own moves.
func partName(k, n int) string {
	switch {
	case k == n:
		return "part 2"
	case n == 1:
		return "part 1"
	}
	return fmt.Sprintf("part 1, move %d", k+1)
}

// check plays a turn on a copy of the game: own are the moves of the player's own men,
// other the move of an opponent's man ("" for none). It returns the turn, or a refusal that
// names the part and says why; nothing in the game changes.
func (g *Game) check(own []string, other string) (*checked, []chess.Warning, error) {
	by := g.pos.Turn
	n := g.ownCount()
	t := &checked{pos: g.pos, unmoved: g.unmoved, own: len(own)}
	p := &t.pos
	var warns []chess.Warning
	if len(own) > n {
		return nil, nil, g.shapeError(len(own))
	}
	var buf [128]chess.Move
	// step reads and plays move k, written w, of the men of colour c.
	step := func(k int, w string, c chess.Color, cands []chess.Move) (chess.Piece, error) {
		part := partName(k, n)
		m, mw, err := readMove(p, w, c, c == by, cands, t.unmoved)
		if err != nil {
			return chess.NoPiece, variant.Refuse("trainwreck/part-why", map[string]any{"Part": part, "Move": w, "Why": err})
		}
		for _, x := range mw {
			warns = append(warns, chess.Warning{Code: x.Code, Text: fmt.Sprintf("%s (%s): %s", part, w, x.Text)})
		}
		t.notes = append(t.notes, note(p, m, part, by))
		t.moves = append(t.moves, m)
		return play(p, &t.unmoved, m), nil
	}
	// cut refuses moves written after the point where the game ended, by taking the king or
	// by stalemate.
	cut := func(k int, w string, king bool) error {
		if k+1 < len(own) || other != "" {
			return variant.Refuse("trainwreck/turn-ends", map[string]any{"Part": partName(k, n), "Move": w, "King": king, "Other": by.Other()})
		}
		return nil
	}
	for k, w := range own {
		taken, err := step(k, w, by, ownMoves(buf[:0], p, by, t.unmoved))
		if err != nil {
			return nil, nil, err
		}
		if taken.Role() == chess.King {
			// TW-D2: the enemy king taken in part 1 wins at once.
			t.end = &variant.Ending{Result: variant.WinFor(by), Termination: "king capture", Reason: fmt.Sprintf("%s took %s's king", by, by.Other())}
			return t, warns, cut(k, w, true)
		}
		if k+1 < n && !hasOwnMove(p, by, t.unmoved) {
			// TW-D10: no move of his own men for his second move.
			t.end = &variant.Ending{Result: variant.WinFor(by.Other()), Termination: "stalemate",
				Reason: fmt.Sprintf("%s cannot move any of his own men for his second move: stalemate, which %s loses", by, by)}
			return t, warns, cut(k, w, false)
		}
	}
	if len(own) < n {
		return nil, nil, g.shapeError(len(own))
	}
	cands := otherMoves(buf[:0], p, by.Other(), t.unmoved)
	if len(cands) == 0 {
		// TW-D8: none of the opponent's men but the king can move.
		t.end = &variant.Ending{Result: variant.WinFor(by.Other()), Termination: "stalemate",
			Reason: fmt.Sprintf("after %s's part 1 none of %s's men but the king could move: stalemate, which %s loses", by, by.Other(), by)}
		if other != "" {
			return nil, nil, variant.Refuse("trainwreck/no-part-2", map[string]any{"Moves": own, "Other": by.Other()})
		}
		return t, warns, nil
	}
	if other == "" {
		return nil, nil, variant.Refuse("trainwreck/part-2-missing", map[string]any{"Other": by.Other(), "Last": own[len(own)-1]})
	}
	taken, err := step(n, other, by.Other(), cands)
	if err != nil {
		return nil, nil, err
	}
	if taken.Role() == chess.King {
		// TW-D2: his own king taken by an opposing man he moved.
		t.end = &variant.Ending{Result: variant.WinFor(by.Other()), Termination: "king capture",
			Reason: fmt.Sprintf("%s's own king was taken by the %s man he moved in part 2", by, strings.ToLower(by.Other().String()))}
	}
	return t, warns, nil
}

// note describes move m, about to be made in p in by's turn, for the players.
func note(p *chess.Position, m chess.Move, part string, by chess.Color) Note {
	pc := p.At(m.From)
	n := Note{Part: part, Man: manOf(pc), From: m.From.String(), To: m.To.String()}
	if m.Kind == chess.Castle {
		n.Castled, n.Rook, n.RookTo = true, m.CastlingRook().String(), m.RookTo().String()
		return n
	}
	if v := p.At(m.To); v != chess.NoPiece {
		n.Took = manOf(v)
	}
	if m.Promotion != chess.NoRole {
		n.Became, n.Chooser = m.Promotion.String(), by.String()
	}
	return n
}

// Submit applies a canonical command.
func (g *Game) Submit(cmd variant.Command) ([]variant.Notice, error) {
	if notices, done, err := g.SubmitPreamble(cmd); done {
		return notices, err
	}
	rest, ok := strings.CutPrefix(cmd.Text, "turn ")
	if !ok {
		return nil, variant.Refuse("common/unknown-command", map[string]any{"Text": cmd.Text})
	}
	if cmd.By != g.pos.Turn {
		return nil, variant.Refuse("trainwreck/not-your-turn", map[string]any{"Turn": g.pos.Turn, "N": g.pos.Fullmove, "Wait": false})
	}
	before, other, _ := strings.Cut(rest, "/")
	t, _, err := g.check(strings.Split(before, ","), other)
	if err != nil {
		return nil, err
	}
	by, no := g.pos.Turn, g.pos.Fullmove
	lineBefore := g.pos
	g.pos, g.unmoved = t.pos, t.unmoved
	g.played = append(g.played, turn{by: by, no: no, own: t.own, moves: t.moves})
	g.men += len(t.moves)
	g.Accept(cmd)
	// The turn passes even when it ended the game: the position's FEN says who would move
	// next (issue 33: after a king capture it said the capturer).
	g.pos.Turn = by.Other()
	if by == chess.Black {
		g.pos.Fullmove++
	}
	if t.end != nil {
		g.End(t.end.Result, t.end.Termination, t.end.Reason)
	} else {
		g.judgeStart()
	}
	if g.Quiet() {
		return nil, nil
	}
	notices := []variant.Notice{{To: variant.ToBoth, Kind: "move", Words: "trainwreck/turn", Show: variant.ShowView,
		Args: map[string]any{"By": by, "N": no, "Line": readable(&lineBefore, t.moves, t.own), "Numeric": numericTurn(t.moves, t.own), "Notes": t.notes}}}
	if g.Outcome().Over() {
		return append(notices, g.OverNotice()), nil
	}
	if g.note {
		for _, s := range []chess.Color{chess.White, chess.Black} {
			if att := g.attackers(s); att != "" {
				notices = append(notices, variant.Notice{To: variant.To(s), Kind: "king-attacked", Words: "trainwreck/king-attacked",
					Args: map[string]any{"Square": g.pos.King(s).String(), "By": att}})
			}
		}
	}
	return notices, nil
}

// readable writes a turn's moves, from p, as the players read them: "Ng1-f3 / Nb8-c6".
func readable(p *chess.Position, moves []chess.Move, own int) string {
	q := *p
	var unmoved chess.Bitboard
	var sb strings.Builder
	for i, m := range moves {
		switch {
		case i == own:
			sb.WriteString(" / ")
		case i > 0:
			sb.WriteString(", ")
		}
		sb.WriteString(longMove(&q, m))
		play(&q, &unmoved, m)
	}
	return sb.String()
}

// attackers names the men that attack s's king (orthodox capture geometry), "" if none: the
// courtesy note of TW-D3.
func (g *Game) attackers(s chess.Color) string {
	var names []string
	for _, m := range g.attackerArgs(s) {
		names = append(names, fmt.Sprintf("%s's %s on %s", m["Side"], m["Role"], m["Square"]))
	}
	return strings.Join(names, " and ")
}

// attackerArgs are the men that attack s's king, as the words of a view name them.
func (g *Game) attackerArgs(s chess.Color) []map[string]any {
	k := g.pos.King(s)
	if k == chess.NoSquare {
		return nil
	}
	var men []map[string]any
	for _, sq := range g.pos.AttackersTo(k, s.Other(), g.pos.Occupied()).Squares() {
		pc := g.pos.At(sq)
		men = append(men, map[string]any{"Side": pc.Color(), "Role": pc.Role().String(), "Square": sq.String()})
	}
	return men
}

// View is the whole board (full information) and what comes next.
func (g *Game) View(v variant.Viewer) variant.View {
	return g.BoardView(v, &g.pos, func() []variant.Line {
		c := g.pos.Turn
		lines := []variant.Line{variant.Says("view/trainwreck-turn", map[string]any{"Side": c, "Other": c.Other(), "N": g.pos.Fullmove, "Two": g.ownCount() == 2})}
		if g.note && v != variant.AsReferee {
			if men := g.attackerArgs(variant.Side(v)); len(men) > 0 {
				lines = append(lines, variant.Says("view/tw-attacked", map[string]any{"Men": men}))
			}
		}
		return lines
	})
}

// Movetext writes the game's record as the players read its turns in their mails: "1. e2-e4
// / Nb8-c6 1... d7-d5 / e4-e5 2. ..." (long algebraic, each man's letter and both squares; Steps
// reads it, and the bare coordinates of earlier records: "1. e2e4/b8c6").
func (g *Game) Movetext() string {
	q := g.start
	var unmoved chess.Bitboard
	return g.turns(func(t turn) string {
		s := readable(&q, t.moves, t.own)
		for _, m := range t.moves {
			play(&q, &unmoved, m)
		}
		return s
	})
}

// turns writes the turns played, numbered as the record numbers them, each as write says.
func (g *Game) turns(write func(t turn) string) string {
	var sb strings.Builder
	for i, t := range g.played {
		if i > 0 {
			sb.WriteByte(' ')
		}
		// Every turn numbered, Black's with "...": a turn runs to its one move after the
		// "/", so the next number is where the reader sees the next player's turn begin.
		if t.by == chess.White {
			fmt.Fprintf(&sb, "%d. ", t.no)
		} else {
			fmt.Fprintf(&sb, "%d... ", t.no)
		}
		sb.WriteString(write(t))
	}
	return sb.String()
}

var _ variant.NumericScorer = (*Game)(nil)

// numericTurn writes a turn's moves in ICCF numeric notation, "5254 / 2836", for the players
// who asked for it (the referee sets InNumeric in the notice's words for them).
func numericTurn(moves []chess.Move, own int) string {
	var sb strings.Builder
	for j, m := range moves {
		switch {
		case j == own:
			sb.WriteString(" / ")
		case j > 0:
			sb.WriteString(", ")
		}
		sb.WriteString(chess.Numeric(m))
	}
	return sb.String()
}

// NumericScore writes the turns played in ICCF numeric notation: "1. 5254 / 2836 1... 4745
// / 5455".
func (g *Game) NumericScore(variant.Viewer) string {
	return g.turns(func(t turn) string { return numericTurn(t.moves, t.own) })
}

// Steps reads a Train Wreck record: turns numbered like PGN moves ("12." before White's,
// "12..." before Black's when it comes first), each turn its own moves separated by ",",
// a "/", and the move of the opponent's man; "e2e4/b8c6", "e2-e4 / b8-c6" and
// "e4,d4/Nc6" alike. A turn without a "/" (cut short by the end of the game) ends with its
// own moves, or at the next number or the result.
func Steps(start variant.Game, toks []record.Token, buf []variant.Step) ([]variant.Step, error) {
	p := start.Position()
	count := record.Counter{No: p.Fullmove, Black: p.Turn == chess.Black}
	three := start.Key() == KeyThree
	// ownMax is how many own moves the turn being read has: a move beyond them without a "/"
	// starts the next turn, and the one read is cut short.
	ownMax := func() int {
		if three && !(!count.Black && count.No == 1) {
			return 2
		}
		return 1
	}
	steps := buf
	var own []string
	slash, open := false, false
	flush := func(other string) {
		if !open {
			return
		}
		text := strings.Join(own, ", ")
		if slash {
			text += " / " + other
		}
		side, after := chess.White, ""
		if count.Black {
			side, after = chess.Black, "..."
		}
		steps = append(steps, variant.Step{By: side, Text: text, Where: "turn ", Num: count.No, After: after, Warnings: count.Warnings()})
		count.Next()
		own, slash, open = nil, false, false
	}
	number := func(text string) {
		flush("")
		count.Number(text)
	}
	for _, t := range toks {
		switch t.Kind {
		case record.Number, record.Symbol:
			num, text := record.MoveText(t)
			if num != "" {
				number(num)
			}
			if text == "" {
				continue
			}
			for text != "" {
				word, more, isSlash := strings.Cut(text, "/")
				if word != "" {
					switch {
					case slash:
						flush(word)
					case len(own) == ownMax():
						flush("")
						fallthrough
					default:
						own = append(own, word)
						open = true
					}
				}
				if isSlash {
					if !open || slash {
						return nil, fmt.Errorf("turn %d: a / without the moves of part 1 before it", count.No)
					}
					slash = true
				}
				text = more
			}
		case record.Paren:
			switch {
			case open && len(own) > 0:
				own[len(own)-1] += t.Text
			case len(steps) > 0:
				steps[len(steps)-1].Text += t.Text
			default:
				return nil, fmt.Errorf("%s before any move", t.Text)
			}
		case record.Result:
			flush("")
			return steps, nil
		}
	}
	flush("")
	return steps, nil
}
