package archive

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/record"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/variant"
)

// Live says what Export writes of a game still going.
type Live bool

const (
	// LiveTags: a game in progress by its tags only, with result "*", as in a tournament's
	// record: what anyone may read.
	LiveTags Live = false
	// LiveHidden: a game in progress with its movetext, moves still hidden from its players
	// included (pending transactions, Kriegspiel's true moves): the organizer's full dump,
	// marked so by an Annotator tag; never for the players.
	LiveHidden Live = true
)

// Export writes game id as PGN: variant tags, the movetext in the variant's notation, and,
// once the game is over, its whole log with times in a comment (nothing is secret then,
// rules.md 0.4b). A game still going is written as live says. A game of a tournament has the
// tournament as its Event and its Round, as in ExportTournament.
func Export(tx *store.Tx, id uint64, w io.Writer, live Live) error {
	return export(tx, id, w, nil, live)
}

// ExportTournament writes every game of tournament id as one PGN, round by round, each with
// the tournament as its Event and its Round. A finished game carries its whole log; a game
// still going is given by its tags only, with result "*": the organizer may play elsewhere,
// and a tournament's record is no place for hidden moves.
func ExportTournament(tx *store.Tx, id uint64, w io.Writer) (games int, err error) {
	t, err := tx.Tournament(id)
	if err != nil {
		return 0, err
	}
	for _, rd := range t.Rounds {
		for _, tg := range rd.Games {
			if err := export(tx, tg.Game, w, &exportIn{t: t, round: rd.Number}, LiveTags); err != nil {
				return games, err
			}
			games++
		}
	}
	return games, nil
}

// exportIn is the tournament and round a game is exported with.
type exportIn struct {
	t     *store.Tournament
	round int
}

func export(tx *store.Tx, id uint64, w io.Writer, in *exportIn, live Live) error {
	l, err := Load(tx, id)
	if err != nil {
		return err
	}
	sg, v, g := l.Stored, l.Variant, l.Live
	if in == nil && sg.Tournament != 0 {
		// A tournament's game names its tournament and round wherever it is exported from.
		t, err := tx.Tournament(sg.Tournament)
		if err != nil {
			return err
		}
		in = &exportIn{t: t, round: sg.Round}
	}
	event := fmt.Sprintf("refereed game #%d", sg.ID)
	if in != nil {
		event = in.t.Name
	}
	tags := []record.Tag{
		{Name: "Event", Value: event},
		{Name: "Site", Value: "refereed"},
		{Name: "Date", Value: sg.Created.UTC().Format("2006.01.02")},
		{Name: "White", Value: sg.Players[0].Address},
		{Name: "Black", Value: sg.Players[1].Address},
		{Name: "Variant", Value: v.Name},
		{Name: "Rated", Value: map[bool]string{true: "yes", false: "no"}[sg.Rated]}, // for refereed rate
	}
	out := g.Outcome()
	// The start position of a game in progress written by its tags only is shown where both
	// players may know it: such a record is for anyone.
	start := startTags(l, variant.AsReferee)
	if live == LiveTags && !out.Over() && !sg.Over() && (startTags(l, variant.AsWhite) == nil || startTags(l, variant.AsBlack) == nil) {
		start = nil
	}
	tags = append(tags, start...)
	if in != nil {
		tags = append(tags, record.Tag{Name: "Round", Value: fmt.Sprint(in.round)})
	}
	if out.Over() && (sg.Reason == WithdrawnReason || out.Termination == "adjudication") {
		tags = append(tags, record.Tag{Name: "Annotator", Value: "refereed: " + sg.Reason})
	}
	if live == LiveTags && !out.Over() {
		if !sg.Over() {
			return record.Write(w, tags, "", "*")
		}
		// Ended by a withdrawal from the tournament before withdrawals were logged in the
		// game: over, so nothing is secret any more.
		out.Result, out.Termination = sg.Result, "abandoned"
		tags = append(tags, record.Tag{Name: "Annotator", Value: "refereed: " + sg.Reason})
	}
	events, err := tx.Events(id)
	if err != nil {
		return err
	}
	if out.Over() {
		tags = append(tags, record.Tag{Name: "Termination", Value: out.Termination})
		tags = append(tags, EndTags(events)...)
	} else {
		tags = append(tags, record.Tag{Name: "Annotator", Value: "refereed: game in progress; this record shows moves still hidden from the players"})
	}
	movetext, err := WithReplacements(sg, v, events, v.WriteMovetext(g), func(a string) string { return a })
	if err != nil {
		return err
	}
	if out.Over() {
		events = Revealed(events)
		var sb strings.Builder
		sb.WriteString("{refereed log:")
		for _, e := range events {
			who := EventBy(e)
			fmt.Fprintf(&sb, "\n%s %s: %s", e.At.UTC().Format("2006-01-02T15:04:05Z"), who, strings.ReplaceAll(e.Text, "}", ")"))
		}
		sb.WriteString("}\n")
		movetext = sb.String() + movetext
	}
	return record.Write(w, tags, movetext, out.Result)
}

// EndDate and EndTime are the tags that say when a finished game ended, in UTC: the moment of
// the last command of its log ("2026.11.27" and "23:20:57.125"). The service rates a game at
// that moment, and refereed rate orders the games by it, so that rating the exports gives the
// service's ratings. A game ended outside its log (by a withdrawal, before withdrawals were
// logged) has none.
const (
	EndDateLayout = "2006.01.02"
	EndTimeLayout = "15:04:05.000"
)

// EndTags are the EndDate and EndTime tags of a finished game whose log is events.
func EndTags(events []store.Event) []record.Tag {
	var end time.Time
	for _, e := range events {
		if e.At.After(end) {
			end = e.At
		}
	}
	if end.IsZero() {
		return nil
	}
	end = end.UTC()
	return []record.Tag{{Name: "EndDate", Value: end.Format(EndDateLayout)}, {Name: "EndTime", Value: end.Format(EndTimeLayout)}}
}

// EndOf reads the EndDate and EndTime tags (EndTags) back: zero when they are missing or
// unreadable.
func EndOf(date, clock string) time.Time {
	t, err := time.Parse(EndDateLayout+" "+EndTimeLayout, strings.TrimSpace(date)+" "+strings.TrimSpace(clock))
	if err != nil {
		return time.Time{}
	}
	return t
}

// Revealed is a finished game's log as it is revealed and exported: all but the players'
// IF sequences (store.EventIf), which are not part of the game and stay
// their authors' secrets.
func Revealed(events []store.Event) []store.Event {
	out := make([]store.Event, 0, len(events))
	for _, e := range events {
		if e.Kind != store.EventIf {
			out = append(out, e)
		}
	}
	return out
}

// EventBy names who an event of a game's log is from: a player, or the organizer (an
// extension, an adjudication; a withdrawal is the withdrawn player's).
func EventBy(e store.Event) string {
	if e.Kind == store.EventExtend || e.Kind == store.EventReplace || strings.HasPrefix(e.Text, variant.CmdAdjudicate+" ") {
		return "organizer"
	}
	return chess.Color(e.Side & 1).String()
}

// startTags are the SetUp and FEN tags of a game that did not start from the usual
// position, as viewer may know them: the whole start position once the game is over (nothing
// is secret then, rules.md 0.4b) or where the game shows him a whole position at its start;
// none where it shows him only part of it (Kriegspiel and PSC under fog show a player his own
// men only), since any FEN would either give away the opponent's men or be false.
func startTags(l *Game, viewer variant.Viewer) []record.Tag {
	sg := l.Stored
	if sg.FEN == "" {
		return nil
	}
	known := viewer == variant.AsReferee || l.Live.Outcome().Over()
	if !known {
		start, err := l.Variant.New(variant.Options{FEN: sg.FEN, Flags: sg.Flags})
		known = err == nil && start.View(viewer).FEN != ""
	}
	if !known {
		return nil
	}
	return []record.Tag{{Name: "SetUp", Value: "1"}, {Name: "FEN", Value: sg.FEN}}
}

// PlayerPGN is game l as player s may know it, in PGN (issue 25: PGN by mail): the tags of
// Export that both players know, and the game so far as variant.ScoreOf gives it to him (in
// numeric notation when numeric): the record in the games that hide nothing, once the game
// is over in every game; in the others what he may know, kept in a comment, since it is not
// the game's movetext.
func PlayerPGN(l *Game, s chess.Color, numeric bool) ([]byte, error) {
	sg, v, g := l.Stored, l.Variant, l.Live
	tags := []record.Tag{
		{Name: "Event", Value: fmt.Sprintf("refereed game #%d", sg.ID)},
		{Name: "Site", Value: "refereed"},
		{Name: "Date", Value: sg.Created.UTC().Format("2006.01.02")},
		{Name: "White", Value: sg.Players[0].Address},
		{Name: "Black", Value: sg.Players[1].Address},
		{Name: "Variant", Value: v.Name},
	}
	tags = append(tags, startTags(l, variant.ViewerOf(s))...)
	result := "*"
	if out := g.Outcome(); out.Over() {
		result = out.Result
	}
	words, moves := variant.ScoreOf(v, g, variant.ViewerOf(s), numeric)
	if words != "score" && moves != "" {
		moves = "{" + strings.ReplaceAll(moves, "}", ")") + "}"
	}
	var buf strings.Builder
	if err := record.Write(&buf, tags, moves, result); err != nil {
		return nil, fmt.Errorf("archive: pgn of game %d: %w", sg.ID, err)
	}
	return []byte(buf.String()), nil
}

// WithReplacements puts into movetext, the record of game sg (a game of v, whose log is
// events), a comment at each move where the organizer gave a side to another player
// (store.Game.Former): who played the side up to there, and who from there on, each named by
// name (an address in an export, a name on the web). A record that no longer starts with the
// moves played before a replacement (a takeback went behind it) has the comment first.
func WithReplacements(sg *store.Game, v *variant.Variant, events []store.Event, movetext string, name func(string) string) (string, error) {
	if len(sg.Former) == 0 {
		return movetext, nil
	}
	commands := store.Effective(events)
	type insert struct {
		at   int
		text string
	}
	var ins []insert
	for i, f := range sg.Former {
		next := sg.Successor(i)
		side := chess.Color(f.Side & 1)
		text := fmt.Sprintf("{%s played %s up to here; %s plays %s from move %d on (replaced by the organizer on %s)}",
			name(f.Address), side, name(next), side, f.Move, f.At.UTC().Format("2006-01-02"))
		at := 0
		if n := min(f.Commands, len(commands)); n > 0 {
			log := make([]variant.Command, n)
			for j, e := range commands[:n] {
				log[j] = variant.Command{By: chess.Color(e.Side), Text: e.Text}
			}
			g, fail, err := variant.Replay(v, variant.Options{FEN: sg.FEN, Flags: sg.Flags}, log)
			if err != nil {
				return "", fmt.Errorf("archive: game %d: %w", sg.ID, err)
			}
			if fail == nil && f.Commands <= len(commands) {
				if before := strings.TrimSpace(v.WriteMovetext(g)); strings.HasPrefix(movetext, before) {
					at = len(before)
				}
			}
		}
		ins = append(ins, insert{at, text})
	}
	// From the last place to the first, so that each place still stands; at one place, in
	// order.
	slices.SortStableFunc(ins, func(a, b insert) int { return a.at - b.at })
	for i := len(ins) - 1; i >= 0; i-- {
		in := ins[i]
		head, tail := strings.TrimRight(movetext[:in.at], " "), strings.TrimLeft(movetext[in.at:], " ")
		movetext = strings.TrimSpace(head + " " + in.text + " " + tail)
	}
	return movetext, nil
}
