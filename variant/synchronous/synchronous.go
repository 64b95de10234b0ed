// Package synchronous is synchronous chess: both players choose a move for the same
// position, sealed until both have chosen, and the referee plays the two together. It holds
// two games that share that turn and differ in everything else:
//
//   - "synchronous", Joachim Parrow's PSC (rules.md §7, rules 1-11, PS-D1 to PS-D9;
//     fixtures §6). A man attacks the squares it can move to, the men it can capture and its
//     own square (a pawn its pushes, and its diagonals only onto an enemy man); a player may
//     move only to a square he controls (attacked by more of his men than of the
//     opponent's); a man attacked by two enemy men is frozen and cannot move. So the two
//     moves never meet. A player wins by freezing the enemy king or by checkmate (no legal
//     move while attacked). Draws: both kings lost at once, stalemate of either side, 50
//     turns without a capture or pawn move, king against king. Option "fog": each player sees
//     only the squares his men attack. CONTROL shows who controls each square.
//   - "korolev", Vitaly Korolev's Synchronous Chess (rules.md §8, KO-D1 to KO-D6; fixtures
//     §7). The orthodox moves, plus "captures" of one's own men other than the king
//     (anticipating an enemy capture there) and the capture of an attacked enemy king. The
//     moves are resolved after the fact: men landing on one vacant square are both removed
//     (a king meeting a pawn survives), a capture of a man that moved away captures nothing,
//     mutual captures exchange places, men pass through each other; a self-capture met by
//     the enemy's capture of the same man keeps the self-capturer and removes the enemy
//     man. Capturing the king wins, before checkmate; stalemate, 50 turns and dead positions
//     draw. Option "king-must-move": a player in check may move only his king (or take the
//     enemy king).
//
// By mail: "MOVE e2e4" or "e4" (SAN or coordinates), judged on the position before the turn.
// It is checked at once and refused privately if illegal; once accepted it is final. The
// opponent learns only that a move was chosen. When both are in, both players get both moves
// and what happened (captures, collisions and the like), and the new board with the frozen
// men and attacked kings. With fog each gets his own move, the men he lost, and what his men
// see.
//
// Records: a numbered turn holds the two simultaneous moves, White's first, both written on
// the position before the turn: "1. e4 e5 2. Nf3 d5 3. exd5 Nc6". SAN is disambiguated among
// the moves the game offers that player; a Korolev self-capture is written as a capture
// ("Qxd5" onto one's own man). A turn left half chosen when the game ended is not in the
// record (the log keeps it). The FEN of a game is the position after the last resolved turn,
// its halfmove field counting quiet turns and its move number the turn to come.
//
// Decisions this package adds (rules.md leaves them open):
//   - The en passant square of each side is kept apart: both may double-step in one turn.
//     A double step that was captured or collided leaves no e.p. square.
//   - A game set up from a FEN needs one king of each colour and no pawn on the first or
//     last rank; kings may stand attacked. The FEN's e.p. field is ignored.
//   - Check marks in moves are ignored (the moves are judged on a position where the
//     opponent's move is unknown); a capture sign on a move to an empty square is refused
//     (rules.md 0.3b), except Korolev's captures onto one's own man, which are captures.
//   - Under fog (PS-D9 as clarified), nothing a player is told depends on what he cannot
//     see: CONTROL is refused and not in HELP; a man he lost is reported by square and kind,
//     never by what took it; his move is read and written among the moves his men's
//     patterns allow (frozen or not, whatever the control: "Nbd2" when the knight on f1
//     could go there too, and "Nd2" is then ambiguous), on the board as he sees it; and a
//     move those patterns allow but the hidden counts forbid is "not possible now", with no
//     reason. The record of a fog game writes the moves as their players were told them.
//   - Korolev: two men of the same side never arrive on one square; a king meeting any man
//     but the other king on a vacant square survives (the vchess reading; KO-D1 makes it
//     arise only with a pawn), two kings meeting are both removed (a draw).
package synchronous

import (
	"fmt"
	"slices"
	"strings"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/variant"
)

// Keys of the two games.
const (
	Key        = "synchronous"
	KeyKorolev = "korolev"
)

// The games' options.
const (
	OptionFog          = "fog"
	OptionKingMustMove = "king-must-move"
)

func init() {
	variant.Register(&variant.Variant{Key: Key, Name: "Synchronous Chess (PSC)",
		// The number of the turn (both learn when a turn resolves); who is to act would tell
		// whether one player has sealed his move.
		InProgress: variant.Spectator{Number: true},
		Aliases:    []string{"psc", "parrow synchronous", "synchronous chess"},
		Commands: []variant.CommandRow{
			{Word: "MOVE", Help: "help/synchronous/1"},
			// Under fog CONTROL is not offered (PS-D9).
			{Word: "CONTROL", Query: true, Help: "help/synchronous/2",
				Offered: func(g variant.Game) bool { return !g.(*Game).fog }},
		},
		New:   func(o variant.Options) (variant.Game, error) { return New(o, PSC) },
		Steps: Steps, WriteMovetext: func(g variant.Game) string { return g.(*Game).Movetext() },
		Options: map[string]variant.Option{OptionFog: {Type: variant.Bool, Doc: "fog of war: each player sees only the squares his men attack; off by default"}}})
	variant.Register(&variant.Variant{Key: KeyKorolev, Name: "Korolev Synchronous Chess",
		InProgress: variant.Spectator{Number: true},
		Aliases:    []string{"korolev synchronous", "korolev synchronous chess"},
		Commands: []variant.CommandRow{
			{Word: "MOVE", Help: "help/synchronous/3"},
			{Help: "help/synchronous/4"},
		},
		New:   func(o variant.Options) (variant.Game, error) { return New(o, Korolev) },
		Steps: Steps, WriteMovetext: func(g variant.Game) string { return g.(*Game).Movetext() },
		Options: map[string]variant.Option{OptionKingMustMove: {Type: variant.Bool, Doc: "a player in check may move only his king (or take the enemy king); off by default"}}})
}

// Rules are what tells the two games apart, a value each (PSC, Korolev): how each side's moves
// are found, why a move is refused, how a turn's two moves resolve, how the game ends, what a
// view says of each side's men, and the game's own option (PSC's fog, Korolev's
// king-must-move).
type Rules struct {
	Key     string
	Option  string
	option  func(g *Game) *bool
	refresh func(g *Game)
	movesAt func(g *Game, p *chess.Position, ep [2]chess.Square, c chess.Color) []chess.Move
	why     func(g *Game, by chess.Color, n chess.Notation, err error) error
	resolve func(p *chess.Position, moves [2]chess.Move) result
	judge   func(g *Game) *variant.Ending
	status  func(g *Game, c chess.Color) []variant.Line
}

// The two games.
var (
	PSC = &Rules{Key: Key, Option: OptionFog,
		option: func(g *Game) *bool { return &g.fog },
		refresh: func(g *Game) {
			g.att = pscAttacks(&g.pos, g.ep)
			for _, c := range []chess.Color{chess.White, chess.Black} {
				g.moves[c] = pscMoves(g.moves[c], &g.pos, g.ep, &g.att, c)
			}
		},
		movesAt: func(g *Game, p *chess.Position, ep [2]chess.Square, c chess.Color) []chess.Move {
			a := pscAttacks(p, ep)
			return pscMoves(nil, p, ep, &a, c)
		},
		why:     (*Game).pscWhy,
		resolve: pscResolve,
		judge:   (*Game).pscJudge,
		status:  (*Game).pscStatus,
	}
	Korolev = &Rules{Key: KeyKorolev, Option: OptionKingMustMove,
		option: func(g *Game) *bool { return &g.kingMustMove },
		refresh: func(g *Game) {
			for _, c := range []chess.Color{chess.White, chess.Black} {
				g.moves[c] = koMoves(g.moves[c], &g.pos, g.ep, c, g.kingMustMove)
			}
		},
		movesAt: func(g *Game, p *chess.Position, ep [2]chess.Square, c chess.Color) []chess.Move {
			return koMoves(nil, p, ep, c, g.kingMustMove)
		},
		why:     (*Game).koWhy,
		resolve: koResolve,
		judge:   (*Game).koJudge,
		status:  (*Game).koStatus,
	}
)

// Game is a game of PSC or of Korolev's Synchronous Chess.
type Game struct {
	variant.Common
	rules        *Rules
	fog          bool // PSC's fog of war (PS-D9)
	kingMustMove bool // Korolev's option (KO-D1, alternative)
	start        chess.Position
	startEP      [2]chess.Square
	// pos is the position before the turn: Fullmove is the turn's number, Halfmove the
	// quiet turns so far, Turn always White (unused), EnPassant none (see ep).
	pos chess.Position
	ep  [2]chess.Square // ep[c]: the square c's pawn passed in a double step last turn
	// The current turn: each side's move once chosen.
	chosen [2]chess.Move
	has    [2]bool
	turns  []played
	// Caches for pos: PSC attack counts and each side's moves.
	att   counts
	moves [2][]chess.Move
}

// played is a resolved turn: the position before it and the two moves.
type played struct {
	pre   chess.Position
	ep    [2]chess.Square
	moves [2]chess.Move
}

// New starts a game under rules (PSC or Korolev).
func New(o variant.Options, rules *Rules) (*Game, error) {
	pos := chess.Start()
	if o.FEN != "" {
		var err error
		if pos, err = chess.ParseFEN(o.FEN); err != nil {
			return nil, err
		}
		for _, c := range []chess.Color{chess.White, chess.Black} {
			if n := pos.ByPiece(c, chess.King).Count(); n != 1 {
				return nil, fmt.Errorf("synchronous: %v has %d kings, want 1", c, n)
			}
		}
		if pos.ByRole(chess.Pawn)&(chess.Rank1|chess.Rank8) != 0 {
			return nil, fmt.Errorf("synchronous: a pawn stands on the first or last rank")
		}
	}
	pos.Turn, pos.EnPassant, pos.Halfmove = chess.White, chess.NoSquare, 0
	if pos.Fullmove < 1 {
		pos.Fullmove = 1
	}
	g := &Game{Common: variant.NewCommon(), rules: rules, start: pos, pos: pos, ep: [2]chess.Square{chess.NoSquare, chess.NoSquare}}
	g.startEP = g.ep
	var err error
	if *rules.option(g), err = o.Bool(rules.Option); err != nil {
		return nil, err
	}
	g.refresh()
	g.judge()
	return g, nil
}

func (g *Game) Key() string { return g.rules.Key }

// Position is the position before the current turn.
func (g *Game) Position() chess.Position { return g.pos }

// ToAct is every player who has not chosen his move for the turn.
func (g *Game) ToAct() []variant.Side {
	if g.Outcome().Over() {
		return nil
	}
	var out []variant.Side
	for _, c := range []chess.Color{chess.White, chess.Black} {
		if !g.has[c] {
			out = append(out, c)
		}
	}
	return out
}

var _ variant.TurnNamer = (*Game)(nil)

// TurnName is "turn 5" for a player who has yet to choose his move for turn 5.
func (g *Game) TurnName(s variant.Side) string {
	if g.Outcome().Over() || g.has[s] {
		return ""
	}
	return fmt.Sprintf("turn %d", g.pos.Fullmove)
}

// refresh recomputes the caches of pos.
func (g *Game) refresh() {
	for _, c := range []chess.Color{chess.White, chess.Black} {
		g.moves[c] = g.moves[c][:0]
	}
	g.rules.refresh(g)
}

// movesAt is the moves c may choose in p (not the game's own position: the record writer's).
func (g *Game) movesAt(p *chess.Position, ep [2]chess.Square, c chess.Color) []chess.Move {
	return g.rules.movesAt(g, p, ep, c)
}

// Resolve reads a move ("MOVE e4", "Nf3", "g1-f3"), CONTROL, or a common command.
func (g *Game) Resolve(by variant.Side, text string) (variant.Command, []chess.Warning, error) {
	if cmd, done, err := g.ResolvePreamble(by, text); done {
		return cmd, nil, err
	}
	t := strings.TrimSpace(text)
	if strings.EqualFold(t, "control") {
		if g.fog {
			return variant.Command{}, nil, variant.Refuse("synchronous/control-secret", map[string]any{"Board": true})
		}
		return variant.Command{By: by, Text: "control"}, nil, nil
	}
	if g.has[by] {
		return variant.Command{}, nil, variant.Refuse("synchronous/chosen-already", map[string]any{"N": g.pos.Fullmove, "Move": g.write(&g.pos, g.ep, by, g.chosen[by], g.moves[by])})
	}
	return g.readMove(by, t)
}

// readMove reads by's move for the turn, written in SAN or coordinates, among his moves.
// Under fog it is read among the moves his men's patterns allow, which depend only on what he
// sees, and one of those that the hidden counts forbid is "not possible now" (PS-D9).
func (g *Game) readMove(by chess.Color, t string) (variant.Command, []chess.Warning, error) {
	if len(t) > 5 && strings.EqualFold(t[:5], "move ") {
		t = strings.TrimSpace(t[5:])
	}
	n, err := chess.ParseNotation(t)
	if err != nil {
		return variant.Command{}, nil, variant.Reject("%v", err)
	}
	on, cands := &g.pos, g.moves[by]
	if g.fog {
		// Read on what he sees, so that no wording can name an unseen man.
		seen := g.visible(by)
		on = &seen
		if n.Castle == 0 {
			cands = g.pattern(&g.pos, g.ep, by)
		}
	}
	m, warns, err := chess.Resolve(on, n, cands)
	if err != nil {
		if g.fog {
			return variant.Command{}, warns, variant.Reject("%v", err)
		}
		return variant.Command{}, warns, g.why(by, n, err)
	}
	for _, w := range warns {
		if w.Code == chess.WarnCaptureMark {
			return variant.Command{}, warns, variant.Refuse("common/capture-mark", map[string]any{"Warning": w.Text})
		}
	}
	if g.fog && !slices.Contains(g.moves[by], m) {
		return variant.Command{}, warns, variant.Refuse("synchronous/not-possible-now", map[string]any{"Move": g.write(&g.pos, g.ep, by, m, nil)})
	}
	return variant.Command{By: by, Text: "move " + m.UCI()}, warns, nil
}

// pattern is every move c's men could make in p by their patterns alone (PS-D9): the
// geometry of chess on the board, frozen or not, whatever the control of the square. It
// depends only on what c's men see: a man's reach is what he sees.
func (g *Game) pattern(p *chess.Position, ep [2]chess.Square, c chess.Color) []chess.Move {
	q := *p
	q.EnPassant = ep[c.Other()]
	return q.Generate(nil, chess.MoveRules{Color: c, Pseudo: true, NoCastling: true})
}

// visible is the position as c sees it under fog: his men, and the enemy's where his men
// see.
func (g *Game) visible(c chess.Color) chess.Position {
	q := g.pos
	hidden := g.pos.ByColor(c.Other()) &^ g.att.seen(&g.pos, c)
	for ; hidden != 0; hidden &= hidden - 1 {
		q.Remove(hidden.First())
	}
	return q
}

// write writes c's move m in p in SAN: under fog disambiguated against every man of that
// kind whose pattern reaches the square (PS-D9: the writing must not tell which of them the
// hidden counts hold back), else among legal, his legal moves in p.
func (g *Game) write(p *chess.Position, ep [2]chess.Square, c chess.Color, m chess.Move, legal []chess.Move) string {
	if g.fog {
		return p.SANAmong(m, g.pattern(p, ep, c))
	}
	return p.SANAmong(m, legal)
}

// why refuses a move not among by's moves (err is the core's refusal), as the game's rules
// say.
func (g *Game) why(by chess.Color, n chess.Notation, err error) error {
	return g.rules.why(g, by, n, err)
}

// koWhy is Korolev's: a player in check is told so; else the core's refusal stands.
func (g *Game) koWhy(by chess.Color, _ chess.Notation, err error) error {
	if g.pos.KingAttacked(by) {
		return variant.Refuse("synchronous/korolev-in-check", map[string]any{"Why": err, "KingMustMove": g.kingMustMove})
	}
	return variant.Reject("%v", err)
}

// pscWhy is PSC's: a move with the geometry of chess that the control rules forbid is
// refused with the rule it breaks.
func (g *Game) pscWhy(by chess.Color, n chess.Notation, err error) error {
	q := g.pos
	q.EnPassant = g.ep[by.Other()]
	m, _, gerr := chess.Resolve(&q, n, q.Generate(nil, chess.MoveRules{Color: by, Pseudo: true}))
	switch {
	case gerr != nil: // the resolver's refusal stands
	case g.att.frozen(by, m.From):
		return variant.Refuse("synchronous/frozen", map[string]any{"Man": strings.ToLower(q.At(m.From).Role().String()), "Square": m.From})
	case m.Kind == chess.Castle:
		return variant.Refuse("synchronous/castling-frozen", nil)
	case m.Kind == chess.EnPassant && !g.att.frozen(by.Other(), m.CaptureSquare()):
		return variant.Refuse("synchronous/ep-not-frozen", map[string]any{"Square": m.CaptureSquare()})
	case !g.att.controls(by, m.To):
		return variant.Refuse("synchronous/not-controlled", map[string]any{"Square": m.To, "Mine": g.att[by][m.To], "Theirs": g.att[by.Other()][m.To]})
	}
	return variant.Reject("%v", err)
}

// Submit applies a canonical command.
func (g *Game) Submit(cmd variant.Command) ([]variant.Notice, error) {
	if notices, done, err := g.SubmitPreamble(cmd); done {
		return notices, err
	}
	by := cmd.By
	if cmd.Text == "control" {
		if g.fog {
			return nil, variant.Refuse("synchronous/control-secret", map[string]any{"Board": false})
		}
		if g.Quiet() {
			return nil, nil
		}
		return []variant.Notice{{To: variant.To(by), Kind: variant.KindView, Words: "synchronous/control",
			Args: map[string]any{"N": g.pos.Fullmove, "Map": g.controlMap(by)}}}, nil
	}
	uci, ok := strings.CutPrefix(cmd.Text, "move ")
	if !ok {
		return nil, variant.Refuse("common/unknown-command", map[string]any{"Text": cmd.Text})
	}
	if g.has[by] {
		return nil, variant.Refuse("synchronous/chosen-already", map[string]any{"N": g.pos.Fullmove, "Move": ""})
	}
	m, err := chess.FindUCI(g.moves[by], uci)
	if err != nil {
		return nil, variant.Refuse("synchronous/not-legal", map[string]any{"Move": uci, "By": by, "N": g.pos.Fullmove})
	}
	g.chosen[by], g.has[by] = m, true
	g.Accept(cmd)
	if !g.has[by.Other()] {
		if g.Quiet() {
			return nil, nil
		}
		return []variant.Notice{
			{To: variant.To(by), Kind: "chosen", Words: "synchronous/chosen",
				Args: map[string]any{"N": g.pos.Fullmove, "Move": g.write(&g.pos, g.ep, by, m, g.moves[by])}},
			{To: variant.To(by.Other()), Kind: "opponent-chosen", Words: "synchronous/opponent-chosen",
				Args: map[string]any{"N": g.pos.Fullmove}},
		}, nil
	}
	return g.play(), nil
}

// play resolves the turn: both chosen moves together.
func (g *Game) play() []variant.Notice {
	pre, preEP, no := g.pos, g.ep, g.pos.Fullmove
	moves := g.chosen
	var sans [2]string
	if !g.Quiet() {
		for _, c := range []chess.Color{chess.White, chess.Black} {
			sans[c] = g.write(&pre, preEP, c, moves[c], g.moves[c])
		}
	}
	r := g.rules.resolve(&pre, moves)
	g.turns = append(g.turns, played{pre: pre, ep: preEP, moves: moves})
	g.pos, g.ep = r.pos, r.ep
	g.pos.Turn, g.pos.EnPassant, g.pos.Fullmove = chess.White, chess.NoSquare, no+1
	if r.quiet {
		g.pos.Halfmove = pre.Halfmove + 1
	} else {
		g.pos.Halfmove = 0
	}
	g.has = [2]bool{}
	g.refresh()
	g.judge()
	if g.Quiet() {
		return nil
	}
	var notices []variant.Notice
	if g.fog && !g.Outcome().Over() {
		// Under fog a player learns which of his men were lost, by square and kind, never
		// what took them (PS-D9).
		for _, c := range []chess.Color{chess.White, chess.Black} {
			var lost []Loss
			for _, e := range r.events {
				if e.Lost == c.String() {
					lost = append(lost, Loss{Square: e.Square, Role: e.Role})
				}
			}
			notices = append(notices, variant.Notice{To: variant.To(c), Kind: "move", Words: "synchronous/turn-fog", Show: variant.ShowView,
				Args: map[string]any{"N": no, "Mine": sans[c], "Lost": lost}})
		}
	} else {
		notices = append(notices, variant.Notice{To: variant.ToBoth, Kind: "move", Words: "synchronous/turn", Show: variant.ShowView,
			Args: map[string]any{"N": no, "White": sans[chess.White], "Black": sans[chess.Black], "Events": r.events}})
	}
	if g.Outcome().Over() {
		notices = append(notices, g.OverNotice())
	}
	return notices
}

// result is a resolved turn: the new position, the e.p. squares, what happened, and
// whether the turn was quiet (no pawn moved, no man removed).
type result struct {
	pos    chess.Position
	ep     [2]chess.Square
	events []Event
	quiet  bool
}

// Event is one thing that happened in a turn, as the players are told it (the fields of
// the sentence "synchronous/event"): Kind is "capture", "self-capture", "collision",
// "collision-king", "illusory", "exchange" or "anticipated"; Square where; Man and Other
// the men concerned ("Black's knight"), Victim the man an anticipating self-capture took.
// Lost is the colour that lost a man and Role the kind of man ("knight"), for the fog's
// report ("" when none).
type Event struct {
	Kind   string
	Square string
	Man    string
	Other  string
	Victim string
	Lost   string
	Role   string
}

// Loss is what a player under fog is told of a man of his that was captured: where it stood
// and what it was (the sentence "synchronous/turn-fog").
type Loss struct {
	Square string
	Role   string
}

func manOf(pc chess.Piece) string { return pc.Color().String() + "'s " + pc.Role().String() }

// judge ends the game if the position before the next turn decides it.
func (g *Game) judge() {
	if g.Outcome().Over() {
		return
	}
	if e := g.rules.judge(g); e != nil {
		g.End(e.Result, e.Termination, e.Reason)
	}
}

// quietLimit is the 50-move rule in turns (PS-D7, KO-D5).
const quietLimit = 50

// View is the board (all of it, or with fog what the viewer's men see) and the turn.
func (g *Game) View(v variant.Viewer) variant.View {
	if g.Outcome().Over() || !g.fog || v == variant.AsReferee {
		view := g.BoardView(v, &g.pos, func() []variant.Line { return g.status(v) })
		return view
	}
	s := chess.Color(v)
	seen := g.att.seen(&g.pos, s)
	var b chess.Board
	for sq := chess.Square(0); sq < 64; sq++ {
		if seen.Has(sq) {
			if pc := g.pos.At(sq); pc != chess.NoPiece {
				b.Put(sq, pc)
			}
		}
	}
	return variant.View{Bottom: variant.Bottom(v),
		Panels: []variant.Panel{{Title: "view/what-your-men-see", Board: b, Marked: ^seen, MarkLegend: "view/out-of-sight"}},
		Lines:  []variant.Line{g.turnLine(v)}}
}

// turnLine says where the turn stands for v, revealing nothing of a sealed move but to its
// maker (and to the referee).
func (g *Game) turnLine(v variant.Viewer) variant.Line {
	no := g.pos.Fullmove
	if v == variant.AsReferee {
		var parts []string
		for _, c := range []chess.Color{chess.White, chess.Black} {
			if g.has[c] {
				parts = append(parts, fmt.Sprintf("%v has chosen %s (sealed)", c, g.write(&g.pos, g.ep, c, g.chosen[c], g.moves[c])))
			} else {
				parts = append(parts, fmt.Sprintf("%v has not chosen", c))
			}
		}
		return variant.Text(fmt.Sprintf("Turn %d: %s.", no, strings.Join(parts, "; ")))
	}
	s := chess.Color(v)
	switch {
	case g.has[s]:
		return variant.Says("view/sync-chosen", map[string]any{"N": no, "Move": g.write(&g.pos, g.ep, s, g.chosen[s], g.moves[s])})
	case g.has[s.Other()]:
		return variant.Says("view/sync-opponent-chosen", map[string]any{"N": no})
	}
	return variant.Says("view/sync-both-choose", map[string]any{"N": no})
}

// status is the view's lines: the turn, then frozen men and attacked kings (PSC) or checks
// (Korolev).
func (g *Game) status(v variant.Viewer) []variant.Line {
	lines := []variant.Line{g.turnLine(v)}
	for _, c := range []chess.Color{chess.White, chess.Black} {
		lines = append(lines, g.rules.status(g, c)...)
	}
	return lines
}

// koStatus is what a Korolev view says of c's men: that his king is in check.
func (g *Game) koStatus(c chess.Color) []variant.Line {
	if g.pos.KingAttacked(c) {
		return []variant.Line{variant.Says("view/ko-check", map[string]any{"Side": c, "Square": g.pos.King(c).String()})}
	}
	return nil
}

// pscStatus is what a PSC view says of c's men: the frozen ones, and how many attack his king.
func (g *Game) pscStatus(c chess.Color) []variant.Line {
	var lines []variant.Line
	k := g.pos.King(c)
	var frozen []string
	for b := g.pos.ByColor(c); b != 0; b &= b - 1 {
		sq := b.First()
		if g.att.frozen(c, sq) {
			frozen = append(frozen, strings.TrimSpace(g.pos.At(sq).Role().Letter())+sq.String())
		}
	}
	if len(frozen) > 0 {
		lines = append(lines, variant.Says("view/psc-frozen", map[string]any{"Side": c, "White": c == chess.White, "Men": strings.Join(frozen, " ")}))
	}
	if n := g.att[c.Other()][k]; k != chess.NoSquare && n > 0 {
		lines = append(lines, variant.Says("view/psc-attacked", map[string]any{"Side": c, "Square": k.String(), "N": int(n)}))
	}
	return lines
}
