// Package orthodox is orthodox chess under FIDE rules (rules.md 0.2), for correspondence
// games by mail and for verifying and replaying PGN archives. It is the baseline the other
// games state their differences from; what it adds to the chess core is what a game adds:
// whose turn it is, the log, and the game's end.
//
// End of game (variant.Judge): checkmate and stalemate; dead positions by material (FIDE
// 5.2.2) end the game at once; so do the 75-move rule and fivefold repetition (FIDE 9.6).
// Threefold repetition and the 50-move rule are claims: a record that ends 1/2-1/2 in such a
// position is terminated by them; by mail a player claims with DRAW OFFER, which the referee
// grants at once when the claim holds (DECISION, not in rules.md: correspondence rules let the
// claimant skip the opponent's consent).
//
// Notation (variant.ReadMove): full information, so a capture sign on a move that captures
// nothing is refused as a probable mistake (rules.md 0.3b); wrong or missing check marks are
// accepted with a warning (0.3a).
package orthodox

import (
	"fmt"
	"strings"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/record"
	"github.com/refereed/refereed/variant"
)

// Key is the registry key.
const Key = "orthodox"

func init() {
	variant.Register(&variant.Variant{Open: true, Conditionals: true, InProgress: variant.Spectator{Position: true, Moves: true, Turn: true},
		Key:     Key,
		Name:    "Orthodox chess",
		Aliases: []string{"standard", "chess", "normal", "from position", "orthodox chess"},
		Commands: []variant.CommandRow{{Help: "help/orthodox/1"},
			{Word: "MOVE", Help: "help/orthodox/2"}},
		New:           func(o variant.Options) (variant.Game, error) { return New(o) },
		Steps:         Steps,
		WriteMovetext: func(g variant.Game) string { return g.(*Game).Movetext() },
	})
}

// Game is an orthodox game.
type Game struct {
	variant.Common
	start  chess.Position
	pos    chess.Position
	hashes []uint64     // Hash of every position reached, the start included
	moves  []chess.Move // the moves played
	// found is the move Resolve last found, as the command it made of it, at the ply it
	// was found (len(moves): pos changes only with moves). Submit of that command at that
	// ply plays it without looking for it among the legal moves again: replaying a record
	// resolves and then submits each move.
	found struct {
		text string
		ply  int
		move chess.Move
	}
}

// New starts a game from the initial position or from o.FEN.
func New(o variant.Options) (*Game, error) {
	pos, err := variant.StartPosition(o)
	if err != nil {
		return nil, err
	}
	g := &Game{Common: variant.NewCommon(), start: pos, pos: pos}
	g.hashes = append(g.hashes, pos.Hash())
	g.judge()
	return g, nil
}

func (g *Game) Key() string              { return Key }
func (g *Game) Position() chess.Position { return g.pos }

// ToAct is the side to move, or nobody once the game is over.
func (g *Game) ToAct() []variant.Side { return g.Awaiting(g.pos.Turn) }

var _ variant.TurnNamer = (*Game)(nil)

// TurnName is "move 12" for the side to move: the move number a record gives the move.
func (g *Game) TurnName(s variant.Side) string {
	return g.NameTurn(s, g.pos.Turn, "move %d", g.pos.Fullmove)
}

// Resolve reads a move ("Nf3", "MOVE g1f3") or a common command.
func (g *Game) Resolve(by variant.Side, text string) (variant.Command, []chess.Warning, error) {
	if cmd, done, err := g.ResolvePreamble(by, text); done {
		return cmd, nil, err
	}
	if by != g.pos.Turn {
		return variant.Command{}, nil, variant.Refuse("common/wait-for-your-move", map[string]any{"Turn": g.pos.Turn})
	}
	m, warns, err := variant.ReadLegalMove(&g.pos, text)
	if err != nil {
		return variant.Command{}, nil, err
	}
	cmd := variant.Command{By: by, Text: variant.MoveCommand(m)}
	g.found.text, g.found.ply, g.found.move = cmd.Text, len(g.moves), m
	return cmd, warns, nil
}

// Submit applies a canonical command.
func (g *Game) Submit(cmd variant.Command) ([]variant.Notice, error) {
	if cmd.Text == variant.CmdDrawAgreed || cmd.Text == variant.CmdDrawOffer {
		if reason := g.claimableDraw(); reason != "" && !g.Outcome().Over() {
			g.Accept(cmd)
			g.End(variant.Draw, reason, "draw by "+reason)
			return []variant.Notice{g.OverNotice()}, nil
		}
	}
	if notices, done, err := g.SubmitPreamble(cmd); done {
		return notices, err
	}
	uci, ok := strings.CutPrefix(cmd.Text, "move ")
	if !ok {
		return nil, variant.Refuse("common/unknown-command", map[string]any{"Text": cmd.Text})
	}
	if cmd.By != g.pos.Turn {
		return nil, variant.Refuse("common/not-your-move", map[string]any{"Turn": g.pos.Turn})
	}
	m, err := g.found.move, error(nil)
	if cmd.Text != g.found.text || len(g.moves) != g.found.ply {
		m, err = g.pos.FindLegalUCI(uci)
	}
	if err != nil {
		return nil, variant.Refuse("common/move-why", map[string]any{"Move": uci, "Why": err})
	}
	before := g.pos
	g.pos.Play(m)
	g.moves = append(g.moves, m)
	g.hashes = append(g.hashes, g.pos.Hash())
	g.Accept(cmd)
	g.judge()
	if g.Quiet() {
		return nil, nil
	}
	// Whose move comes next is said once, under the board ("Black to play move 1."), and
	// for the player to move in his mail's subject: no "your move" notice repeats it.
	notices := []variant.Notice{{To: variant.ToBoth, Kind: "move", Words: "orthodox/move", Args: map[string]any{"By": before.Turn, "Move": numbered(&before, m), "Numeric": numberedNumeric(&before, m)}, Show: variant.ShowView}}
	if g.Outcome().Over() {
		notices = append(notices, g.OverNotice())
	}
	return notices, nil
}

// Reserve makes room for n more moves (variant.Reserver).
func (g *Game) Reserve(n int) {
	g.Common.Reserve(n)
	if cap(g.moves)-len(g.moves) < n {
		g.moves = append(make([]chess.Move, 0, len(g.moves)+n), g.moves...)
		g.hashes = append(make([]uint64, 0, len(g.hashes)+n), g.hashes...)
	}
}

// ends are FIDE's end conditions that need no claim (FIDE 5.2.2, 9.6).
var ends = variant.EndRules{
	Stalemate: "%s is stalemated",
	Dead:      "neither side can mate (dead position)",
	Quiet:     variant.Limit{At: 150, Termination: "seventy-five-move rule", Reason: "75 moves by each side without a capture or pawn move"},
	Repeat:    variant.Limit{At: 5, Termination: "fivefold repetition", Reason: "the same position five times"},
}

// judge ends the game when the position decides it.
func (g *Game) judge() {
	p := &g.pos
	noMove := !p.HasLegalMove()
	g.Judge(&ends, variant.Standing{Mover: p.Turn, NoMove: noMove, InCheck: noMove && p.InCheck(),
		Dead: p.InsufficientMaterial(), Quiet: p.Halfmove, Repeats: g.repetitions()})
}

// repetitions counts how often the current position has occurred.
func (g *Game) repetitions() int {
	h := g.hashes[len(g.hashes)-1]
	n := 0
	// Only positions since the last capture or pawn move can repeat.
	from := len(g.hashes) - 1 - g.pos.Halfmove
	if from < 0 {
		from = 0
	}
	for _, x := range g.hashes[from:] {
		if x == h {
			n++
		}
	}
	return n
}

// claimableDraw names a draw the side to move may claim now, or "".
func (g *Game) claimableDraw() string {
	switch {
	case g.repetitions() >= 3:
		return "threefold repetition"
	case g.pos.Halfmove >= 100:
		return "fifty-move rule"
	}
	return ""
}

// View is the whole board: orthodox chess hides nothing.
func (g *Game) View(v variant.Viewer) variant.View {
	return g.BoardView(v, &g.pos, func() []variant.Line {
		args := map[string]any{"Side": g.pos.Turn, "N": g.pos.Fullmove}
		if g.pos.InCheck() {
			return []variant.Line{variant.Says("view/to-play-check", args)}
		}
		return []variant.Line{variant.Says("view/to-play", args)}
	})
}

// numbered writes m, about to be played in p, as "12. Nf3" or "12... Nf6".
func numbered(p *chess.Position, m chess.Move) string {
	dots := "."
	if p.Turn == chess.Black {
		dots = "..."
	}
	return fmt.Sprintf("%d%s %s", p.Fullmove, dots, p.SAN(m))
}

var _ variant.NumericScorer = (*Game)(nil)

// NumericScore writes the moves played in ICCF numeric notation with move numbers: "1. 5254
// 5755 2. 7163".
func (g *Game) NumericScore(variant.Viewer) string {
	var sb strings.Builder
	p := g.start
	for i, m := range g.moves {
		if i > 0 {
			sb.WriteByte(' ')
		}
		if p.Turn == chess.White {
			fmt.Fprintf(&sb, "%d. ", p.Fullmove)
		} else if i == 0 {
			fmt.Fprintf(&sb, "%d... ", p.Fullmove)
		}
		sb.WriteString(chess.Numeric(m))
		p.Play(m)
	}
	return sb.String()
}

// numberedNumeric is numbered in ICCF numeric notation, "12... 5755", for a player who
// asked for it: the referee sets InNumeric in the notice's words for him (play.Outcome).
func numberedNumeric(p *chess.Position, m chess.Move) string {
	dots := "."
	if p.Turn == chess.Black {
		dots = "..."
	}
	return fmt.Sprintf("%d%s %s", p.Fullmove, dots, chess.Numeric(m))
}

// Movetext writes the moves played in SAN with move numbers (no result).
func (g *Game) Movetext() string {
	var sb strings.Builder
	p := g.start
	for i, san := range g.sans() {
		if p.Turn == chess.White {
			fmt.Fprintf(&sb, "%d. ", p.Fullmove)
		} else if i == 0 {
			fmt.Fprintf(&sb, "%d... ", p.Fullmove)
		}
		sb.WriteString(san)
		sb.WriteByte(' ')
		p.Play(g.moves[i])
	}
	return strings.TrimSpace(sb.String())
}

// sans lists the moves played in SAN, with check marks.
func (g *Game) sans() []string {
	out := make([]string, 0, len(g.moves))
	p := g.start
	for _, m := range g.moves {
		out = append(out, p.SAN(m))
		p.Play(m)
	}
	return out
}

// Steps reads orthodox PGN movetext: move numbers (also glued, "12.e4"), SAN or coordinate
// moves, comments, NAGs and variations skipped, promotion pieces in parentheses.
func Steps(start variant.Game, toks []record.Token, buf []variant.Step) ([]variant.Step, error) {
	p := start.Position()
	return alternatingSteps(toks, p.Turn, p.Fullmove, buf)
}

// alternatingSteps reads movetext of alternating single moves starting with first at move
// number no (the FEN's). When the record's own move numbers start elsewhere, the first number
// token wins; a later number that does not fit the count is a warning on the next move.
func alternatingSteps(toks []record.Token, first chess.Color, no int, buf []variant.Step) ([]variant.Step, error) {
	steps := buf
	count := record.Counter{No: no, Black: first == chess.Black}
	for _, t := range toks {
		switch t.Kind {
		case record.Number:
			count.Number(t.Text)
		case record.Symbol:
			text := t.Text
			if num, rest, ok := record.NumberAndSymbol(text); ok {
				count.Number(num)
				text = rest
			}
			side, after := chess.White, ""
			if count.Black {
				side, after = chess.Black, "..."
			}
			steps = append(steps, variant.Step{By: side, Text: text, Where: "move ", Num: count.No, After: after, Warnings: count.Warnings()})
			count.Next()
		case record.Paren:
			if len(steps) == 0 {
				return nil, fmt.Errorf("%s before any move", t.Text)
			}
			steps[len(steps)-1].Text += t.Text
		case record.Result:
			return steps, nil
		case record.Comma:
			return nil, record.At(t.Offset, "unexpected comma (is this a Progressive record? add [Variant \"Progressive\"])")
		}
	}
	return steps, nil
}
