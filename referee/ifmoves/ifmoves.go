// Package ifmoves is a player's IF moves (issue 25), as correspondence servers offer them: a
// player who has just moved states what he will answer to his opponent's next moves, "IF Nf6
// e5 d6 exd6", and when the opponent's move matches, his reply is played at once. Several IF
// lines are alternatives; IF LIST shows them, IF CLEAR drops them. (Not Conditional Chess,
// variant/conditional, a game of its own.)
//
// The sequences are events of the game's log of their own kind (store.EventIf), written
// through the game aggregate (package play); what stands is a replay of them and of the
// moves after them.
package ifmoves

import (
	"errors"
	"fmt"
	"github.com/refereed/refereed/lang"
	"slices"
	"strings"

	"github.com/refereed/refereed/archive"
	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/record"
	"github.com/refereed/refereed/referee/play"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/templates"
	"github.com/refereed/refereed/variant"
)

// Only in the games that offer them (variant.Variant.Conditionals: orthodox chess), where
// both players see the whole board and move one move at a time: in a game that hides moves
// the opponent's move cannot be matched without the referee telling what it was, and in
// Progressive, Train Wreck or the simultaneous games a turn is not one move to answer with
// one move.
//
// Decisions (rules.md does not settle them):
//   - A sequence is stated after one's move, while the opponent is to move, and checked
//     whole on the position: every move of it must be legal after the ones before it, and
//     none but the last may end the game. A reply that fires is therefore legal.
//   - Alternatives may share their first moves, but two that answer the same moves with
//     different replies are refused: the later one names the earlier. At most
//     MaxSequences sequences, of at most MaxMoves moves each.
//   - A move of the opponent that a sequence does not begin with drops it, and the player is
//     told how many were dropped; one that matches moves it on, and its reply is played at
//     once, logged as the player's move from the source store.SourceIf, at the time of the
//     opponent's move (so it costs no time on the clock). The opponent's mail says that the
//     reply was stated in advance.
//   - An accepted takeback drops every sequence of both players: the position they were
//     stated on is gone.
//   - Sequences are the stating player's secret: events of their own kind in the game's log
//     (store.EventIf), which are not commands of the game, are never told to the
//     opponent, and are left out of exports and of the end-of-game reveal. The opponent's
//     mails are the same whether or not a sequence was stated, unless it fires.
//   - Draw offers, takeback requests and other commands neither match nor drop a sequence;
//     only moves do.

// MaxSequences is the most sequences a player may have standing in a game, and MaxMoves the
// most moves (his and his opponent's) one may have.
const (
	MaxSequences = 10
	MaxMoves     = 20
)

// sequence is one conditional sequence standing: the moves still to come, in canonical form
// ("move e7e5"), the first of them next's.
type sequence struct {
	next  chess.Color
	moves []string
}

// Standing is how many sequences each player has standing after events.
func Standing(events []store.Event) [2]int {
	seqs := sequences(events)
	return [2]int{len(seqs[0]), len(seqs[1])}
}

// sequences replays the IF sequences of both players from a game's log: what
// stands after events.
func sequences(events []store.Event) [2][]sequence {
	var seqs [2][]sequence
	for _, e := range events {
		side := chess.Color(e.Side & 1)
		switch {
		case e.Kind == store.EventIf && e.Text == "if clear":
			seqs[side] = nil
		case e.Kind == store.EventIf:
			moves := strings.Split(strings.TrimPrefix(e.Text, "if "), ";")
			// A sequence that goes on from one of his replaces it.
			seqs[side] = slices.DeleteFunc(seqs[side], func(q sequence) bool { return extends(moves, q.moves) })
			seqs[side] = append(seqs[side], sequence{next: side.Other(), moves: moves})
		case e.Kind == store.EventTakeback && e.Undo > 0:
			seqs = [2][]sequence{}
		case e.IsCommand() && strings.HasPrefix(e.Text, "move "):
			for s := range seqs {
				kept := seqs[s][:0]
				for _, q := range seqs[s] {
					if q.next == side && q.moves[0] == e.Text && len(q.moves) > 1 {
						kept = append(kept, sequence{next: side.Other(), moves: q.moves[1:]})
					}
				}
				seqs[s] = kept
			}
		}
	}
	return seqs
}

// Parse reads an IF line: "list", "clear", or the moves of a sequence; ok is false for a line
// that is not an IF line.
func Parse(line string) (verb string, moves []string, ok bool) {
	f := strings.Fields(line)
	if len(f) == 0 || !strings.EqualFold(f[0], "IF") {
		return "", nil, false
	}
	if len(f) == 2 && (strings.EqualFold(f[1], "LIST") || strings.EqualFold(f[1], "CLEAR")) {
		return strings.ToLower(f[1]), nil, true
	}
	for _, w := range f[1:] {
		var words *chess.WordsError
		if _, err := chess.ParseNotation(w); errors.As(err, &words) && strings.ContainsAny(w, "abcdefghijklmnopqrstuvwxyz") && strings.ToUpper(w) != w {
			return "", nil, false // a sentence that begins with "if": not a command
		}
		// Move numbers may be written ("IF 12... Nf6 13. e5"), a number against its move too.
		if kindOf(w) == record.Number {
			continue
		}
		if _, rest, ok := record.NumberAndSymbol(w); ok {
			w = rest
		}
		moves = append(moves, strings.TrimRight(w, ","))
	}
	return "state", moves, true
}

// kindOf classifies one word of an IF line as movetext does.
func kindOf(w string) record.TokenKind {
	toks, err := record.Tokenize(w, nil)
	if err != nil || len(toks) != 1 {
		return record.Symbol
	}
	return toks[0].Kind
}

// Run runs an IF line of side's in the game a, sent in the mail source (verb and words as
// Parse read them).
func Run(a *play.Game, side chess.Color, verb string, words []string, source string, t lang.Tag) ([]variant.Notice, error) {
	say := func(kind string, args templates.Args) string { return templates.SayIn(t, "", kind, args) }
	tx, sg, v, g := a.Tx(), a.Stored(), a.Variant(), a.Live()
	if !v.Conditionals {
		return nil, variant.Refuse("if-none-here", templates.Args{"Variant": v.Name})
	}
	if out := g.Outcome(); out.Over() {
		return nil, variant.Reject("the game is over (%s); there is nothing more to send", out.Result)
	}
	events, err := tx.Events(sg.ID)
	if err != nil {
		return nil, err
	}
	mine := sequences(events)[side]
	pos := g.Position()
	tell := func(text string) []variant.Notice {
		return []variant.Notice{{To: variant.To(side), Kind: variant.KindAnswer, Text: text}}
	}
	switch verb {
	case "list":
		if len(mine) == 0 {
			return tell(say("if-list-none", nil)), nil
		}
		lines := make([]string, len(mine))
		for i, q := range mine {
			lines[i] = "- IF " + writeSequence(pos, q.moves)
		}
		return tell(say("if-list", nil) + "\n" + strings.Join(lines, "\n")), nil
	case "clear":
		if len(mine) == 0 {
			return tell(say("if-list-none", nil)), nil
		}
		if err := a.Record(store.Event{Side: int(side), Kind: store.EventIf, Text: "if clear"}, source); err != nil {
			return nil, err
		}
		return tell(say("if-cleared", templates.Args{"N": len(mine)})), nil
	}
	if !archive.WaitsFor(g, side.Other()) {
		return nil, variant.Refuse("if-not-now", nil)
	}
	if len(words) < 2 || len(words)%2 != 0 {
		return nil, variant.Refuse("if-form", nil)
	}
	if len(words) > MaxMoves {
		return nil, variant.Refuse("if-too-long", templates.Args{"Max": MaxMoves})
	}
	if len(mine) >= MaxSequences {
		return nil, variant.Refuse("if-too-many", templates.Args{"Max": MaxSequences})
	}
	// The whole sequence is played on a copy of the game: each move legal after the ones
	// before it, none but the last ending the game.
	copyOf, fail, err := variant.Replay(v, variant.Options{FEN: sg.FEN, Flags: sg.Flags}, g.Log())
	if err == nil && fail != nil {
		err = fail
	}
	if err != nil {
		return nil, fmt.Errorf("ifmoves: %w", err)
	}
	moves := make([]string, len(words))
	for i, w := range words {
		by := side.Other()
		if i%2 == 1 {
			by = side
		}
		args := templates.Args{"K": i + 1, "Move": clip(w), "His": i%2 == 0}
		if copyOf.Outcome().Over() {
			args["Move"] = clip(words[i-1])
			args["K"] = i
			return nil, variant.Refuse("if-game-ends", args)
		}
		cmd, _, err := copyOf.Resolve(by, w)
		if err == nil && !strings.HasPrefix(cmd.Text, "move ") {
			err = variant.Refuse("if-not-a-move", nil)
		}
		if err == nil {
			_, err = copyOf.Submit(cmd)
		}
		if err != nil {
			if !variant.IsRejection(err) {
				return nil, err
			}
			args["Why"] = err.Error()
			return nil, variant.Refuse("if-move", args)
		}
		moves[i] = cmd.Text
	}
	for _, q := range mine {
		if extends(q.moves, moves) { // the same, or the beginning of one stated
			return nil, variant.Refuse("if-same", templates.Args{"Other": writeSequence(pos, q.moves), "Equal": len(q.moves) == len(moves)})
		}
		if extends(moves, q.moves) {
			continue // it goes on from q, and replaces it
		}
		// The same moves of the opponent's answered otherwise: which reply would be played?
		for i := 1; i < min(len(q.moves), len(moves)); i += 2 {
			if !slices.Equal(q.moves[:i], moves[:i]) {
				break
			}
			if q.moves[i] != moves[i] {
				return nil, variant.Refuse("if-conflict", templates.Args{"Other": writeSequence(pos, q.moves)})
			}
		}
	}
	if err := a.Record(store.Event{Side: int(side), Kind: store.EventIf, Text: "if " + strings.Join(moves, ";")}, source); err != nil {
		return nil, err
	}
	return tell(stated(pos, moves, mine)), nil
}

// stated is what a player is told when he states the sequence moves from pos, mine being his
// sequences standing before: it, and how many stand now.
func stated(pos chess.Position, moves []string, mine []sequence) string {
	replaced := 0
	for _, q := range mine {
		if extends(moves, q.moves) {
			replaced++
		}
	}
	return say("if-stated", templates.Args{"Line": writeSequence(pos, moves), "N": len(mine) + 1 - replaced, "Replaced": replaced})
}

// extends reports whether the sequence long begins with the whole of short (or is it).
func extends(long, short []string) bool {
	return len(long) >= len(short) && slices.Equal(long[:len(short)], short)
}

// Fire plays the replies of the sequences that the moves just logged in game a
// matched, one after the other (the opponent's sequences may answer a reply in turn), and
// puts into out what each player is told: the mover that the reply was stated in advance,
// the stating player that his sequence answered, or that his sequences that did not begin
// with the move were dropped.
func Fire(a *play.Game, out *play.Outcome) error {
	if !a.Variant().Conditionals {
		return nil
	}
	for range MaxMoves + 2 { // each round plays one reply; a sequence is that long at most
		tx, g := a.Tx(), a.Live()
		if g.Outcome().Over() {
			return nil
		}
		events, err := tx.Events(a.Stored().ID)
		if err != nil {
			return err
		}
		i := len(events) - 1
		for i >= 0 && !events[i].IsCommand() {
			i--
		}
		if i < 0 || !strings.HasPrefix(events[i].Text, "move ") {
			return nil
		}
		for _, n := range DroppedNews(events[:i+1]) {
			out.Add(n)
		}
		s := chess.Color(events[i].Side & 1).Other()
		var reply string
		for _, q := range sequences(events)[s] {
			if q.next == s {
				reply = q.moves[0]
				break
			}
		}
		if reply == "" || !archive.WaitsFor(g, s) {
			return nil
		}
		pos := g.Position()
		if _, err := pos.FindLegalUCI(strings.TrimPrefix(reply, "move ")); err != nil {
			return fmt.Errorf("referee: game %d: a conditional reply checked when stated is not legal: %w", a.Stored().ID, err)
		}
		notices, err := a.Submit(variant.Command{By: s, Text: reply}, store.SourceIf)
		if err != nil {
			return fmt.Errorf("referee: game %d: conditional reply %s: %w", a.Stored().ID, reply, err)
		}
		for _, n := range FiredNews(store.Event{Side: int(s), Text: reply, Source: store.SourceIf}, pos) {
			out.Add(n)
		}
		for _, n := range notices {
			out.Add(n)
		}
	}
	return nil
}

// writeSequence writes canonical moves ("move e7e5") played from p in numbered SAN:
// "1... e5 2. Nf3 Nc6".
func writeSequence(p chess.Position, moves []string) string {
	var sb strings.Builder
	for i, c := range moves {
		m, err := p.FindLegalUCI(strings.TrimPrefix(c, "move "))
		if err != nil {
			return strings.Join(moves, " ") // not reached: sequences are checked when stated
		}
		if i > 0 {
			sb.WriteByte(' ')
		}
		switch {
		case p.Turn == chess.White:
			fmt.Fprintf(&sb, "%d. ", p.Fullmove)
		case i == 0:
			fmt.Fprintf(&sb, "%d... ", p.Fullmove)
		}
		sb.WriteString(p.SAN(m))
		p.Play(m)
	}
	return sb.String()
}

// Told is what a player was told when he stated a sequence or dropped them (event e, the
// last of events), on the game g as it then stood: HISTORY tells it again.
func Told(g variant.Game, events []store.Event) []variant.Notice {
	e := events[len(events)-1]
	mine := sequences(events[:len(events)-1])[e.Side&1]
	to := variant.To(chess.Color(e.Side & 1))
	if e.Text == "if clear" {
		return []variant.Notice{{To: to, Kind: variant.KindAnswer, Words: "if-cleared", Args: templates.Args{"N": len(mine)}}}
	}
	moves := strings.Split(strings.TrimPrefix(e.Text, "if "), ";")
	return []variant.Notice{{To: to, Kind: variant.KindAnswer, Text: stated(g.Position(), moves, mine)}}
}

// FiredNews is what a reply a sequence played (the event e, from pos) told the players,
// before the move itself: the stating player that his sequence answered, the mover that the
// reply was stated in advance.
func FiredNews(e store.Event, pos chess.Position) []variant.Notice {
	if e.Source != store.SourceIf || !strings.HasPrefix(e.Text, "move ") {
		return nil
	}
	by := chess.Color(e.Side & 1)
	return []variant.Notice{
		{To: variant.To(by), Kind: "if-fired", Words: "if-fired", Args: templates.Args{"Move": writeSequence(pos, []string{e.Text})}},
		{To: variant.To(by.Other()), Kind: "if-fired", Words: "if-fired-news", Args: templates.Args{"By": by}},
	}
}

// DroppedNews is what the move that ends events told the other player, after the move:
// how many of his sequences it dropped, not beginning with it.
func DroppedNews(events []store.Event) []variant.Notice {
	e := events[len(events)-1]
	if !e.IsCommand() || !strings.HasPrefix(e.Text, "move ") {
		return nil
	}
	other := chess.Color(e.Side & 1).Other()
	before, after := sequences(events[:len(events)-1])[other], sequences(events)[other]
	if dropped := len(before) - len(after); dropped > 0 {
		return []variant.Notice{{To: variant.To(other), Kind: "if-dropped", Words: "if-dropped", Args: templates.Args{"N": dropped, "Left": len(after)}}}
	}
	return nil
}

// say is one of the referee's own sentences (templates/words/referee.tmpl).
func say(kind string, args templates.Args) string { return templates.Say("", kind, args) }

// clip is s cut to 40 characters.
func clip(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "..."
	}
	return s
}
