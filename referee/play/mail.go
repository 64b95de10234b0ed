package play

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/refereed/refereed/archive"
	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/lang"
	"github.com/refereed/refereed/parser"
	"github.com/refereed/refereed/referee/outbox"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/templates"
	"github.com/refereed/refereed/variant"
)

// TurnLabel is " (T5)" for a game that names its turns (variant.TurnNamer), else "", in
// English (TurnLabelIn: in another language).
func TurnLabel(g variant.Game, s chess.Color) string { return TurnLabelIn(g, s, lang.EN) }

// turnName reads the turn names the games give in words: "move 12", "series 3", "turn 2";
// seriesMove and cycle the longer ones, "series 3, move 2 of 3" and "cycle 4, A-move".
var (
	turnName   = regexp.MustCompile(`^(move|series|turn) (\d+)$`)
	seriesMove = regexp.MustCompile(`^series (\d+), move (\d+) of (\d+)$`)
	cycle      = regexp.MustCompile(`^cycle (\d+), ([ABC])-move$`)
)

// TurnLabelIn is TurnLabel in language t: a turn named in words is said in t ("Zug 12").
func TurnLabelIn(g variant.Game, s chess.Color, t lang.Tag) string {
	n, ok := g.(variant.TurnNamer)
	if !ok {
		return ""
	}
	name := n.TurnName(s)
	if name == "" {
		return ""
	}
	if t != lang.EN && t != "" {
		if m := turnName.FindStringSubmatch(name); m != nil {
			name = templates.SayIn(t, "", "turn-name/"+m[1], templates.Args{"N": m[2]})
		} else if m := seriesMove.FindStringSubmatch(name); m != nil {
			name = templates.SayIn(t, "", "turn-name/series-move", templates.Args{"N": m[1], "K": m[2], "Of": m[3]})
		} else if m := cycle.FindStringSubmatch(name); m != nil {
			name = templates.SayIn(t, "", "turn-name/cycle", templates.Args{"N": m[1], "Step": m[2]})
		}
	}
	return " (" + name + ")"
}

// Prefs is how a player asked to be shown moves and boards, in all his games (SET).
type Prefs struct {
	Numeric bool // moves in ICCF numeric notation where the game writes it
	Unicode bool // boards with figurines
	// Lang is the language of his mail, Pieces the letters of the moves he reads and writes
	// ("" in what PrefsOf reads: not set; With fills them).
	Lang, Pieces lang.Tag
}

// PrefsOf is what address asked for; the defaults when nothing is kept of it. Its language
// is "" when he set none: With(the default) says which.
func PrefsOf(tx *store.Tx, address string) Prefs {
	rec, err := tx.PlayerRecord(address)
	if err != nil {
		return Prefs{}
	}
	return Prefs{Numeric: rec.Notation == "numeric", Unicode: rec.Board == "unicode", Lang: lang.Tag(rec.Language), Pieces: lang.Tag(rec.Pieces)}
}

// SayerTo says the referee's sentences to address (in mail outside any one game) in his
// language: his own, else def.
func SayerTo(tx *store.Tx, address string, def lang.Tag) func(kind string, args templates.Args) string {
	t := PrefsOf(tx, address).With(def).Lang
	return func(kind string, args templates.Args) string { return templates.SayIn(t, "", kind, args) }
}

// With is p with def as the language where he set none (English when def is ""), and the
// language's letters where he chose none.
func (p Prefs) With(def lang.Tag) Prefs {
	if !p.Lang.Known() {
		p.Lang = def
	}
	if !p.Lang.Known() {
		p.Lang = lang.EN
	}
	if !p.Pieces.Known() {
		p.Pieces = p.Lang
	}
	return p
}

// Diagram draws what show asks for, for player s: his own view, or once the game is over the
// whole truth. Every board is drawn from s's side, as he asked (prefs). Under his view come
// the game so far as he may know it and the FEN of the position he sees, where he sees one
// (issue 25); under the whole truth, the final position's FEN (the whole game is in the
// mail's text).
func Diagram(va *variant.Variant, g variant.Game, s chess.Color, show variant.Show, prefs Prefs) string {
	switch show {
	case variant.ShowView:
		v := g.View(variant.ViewerOf(s))
		return v.Drawn(prefs.Unicode, prefs.Lang) + ScoreBlock(va, g, variant.ViewerOf(s), v.FEN, prefs)
	case variant.ShowReveal:
		v := g.View(variant.AsReferee)
		v.Bottom = s
		if out := g.Outcome(); out.Over() {
			// The mail says how the game ended; the board need not say it again.
			v.Lines = slices.DeleteFunc(slices.Clone(v.Lines), func(l variant.Line) bool { return l.String() == out.OverLine() })
		}
		return v.Drawn(prefs.Unicode, prefs.Lang) + fenLine(v.FEN, prefs.Lang)
	}
	return ""
}

// ScoreBlock is what ends a view: the game so far as viewer may know it (variant.ScoreOf),
// numbered and wrapped (in ICCF numeric notation when he asked for it, else in his piece
// letters), then the FEN of the position he sees (fen: his view's, "" when his view is not a
// whole position). Empty when there is neither.
func ScoreBlock(v *variant.Variant, g variant.Game, viewer variant.Viewer, fen string, prefs Prefs) string {
	var sb strings.Builder
	if words, moves := variant.ScoreOf(v, g, viewer, prefs.Numeric); strings.TrimSpace(moves) != "" {
		if !prefs.Numeric {
			moves = lang.WriteMoves(prefs.Pieces, moves)
		}
		sb.WriteString("\n" + sayIn(prefs.Lang, words, nil) + "\n" + templates.Wrap(strings.Join(strings.Fields(moves), " ")) + "\n")
	}
	sb.WriteString(fenLine(fen, prefs.Lang))
	return sb.String()
}

// fenLine says the FEN of a position after its label, on one line however long (issue 33:
// it went to a line of its own; templates.FENLine lets it pass Width); "" for no position.
func fenLine(fen string, t lang.Tag) string {
	if fen == "" {
		return ""
	}
	return "\n" + strings.TrimRight(sayIn(t, "fen", templates.Args{"FEN": fen}), " ") + "\n"
}

// LogLines writes a game's log, one accepted command a line with its time and who did it.
func LogLines(events []store.Event, layout string) []string {
	out := make([]string, 0, len(events))
	for _, e := range events {
		out = append(out, fmt.Sprintf("%s %s: %s", e.At.UTC().Format(layout), archive.EventBy(e), e.Text))
	}
	return out
}

// Reveal is what both players are sent when a game ends (rules.md 0.4b): the whole record in
// the game's notation and every command the referee accepted, hidden ones included, so that
// nothing is secret any more and any dispute can be checked. The final position goes under it.
// prefs: the reader's; the record is in ICCF numeric notation where the game can (a player
// who chose it), else in his piece letters, and the words in his language.
func Reveal(tx *store.Tx, l *archive.Game, prefs Prefs) ([]string, error) {
	sg, v, g := l.Stored, l.Variant, l.Live
	var paras []string
	record := strings.TrimSpace(v.WriteMovetext(g))
	ns, ok := g.(variant.NumericScorer)
	switch {
	case ok && prefs.Numeric && record != "":
		if n := strings.Fields(ns.NumericScore(variant.AsReferee)); len(n) > 0 {
			record = templates.Wrap(strings.Join(n, " "))
		}
	case record != "":
		record = lang.WriteMoves(prefs.Pieces, record)
	}
	if record != "" {
		paras = append(paras, sayIn(prefs.Lang, "whole-game", nil)+"\n"+record)
	}
	events, err := tx.Events(sg.ID)
	if err != nil {
		return nil, err
	}
	events = archive.Revealed(events)
	if len(events) > 0 {
		paras = append(paras, sayIn(prefs.Lang, "whole-log", templates.Args{"Hidden": !v.Open})+"\n"+strings.Join(LogLines(events, "2006-01-02 15:04"), "\n"))
	}
	return append(paras, sayIn(prefs.Lang, "final-position", nil)), nil
}

// SubjectFor says in a few words what the mail to s is about.
func SubjectFor(g variant.Game, s chess.Color, out *Outcome) string {
	say := func(kind string, args templates.Args) string { return out.Say(s, kind, args) }
	if res := g.Outcome(); res.Over() {
		return say("subject/game-over", templates.Args{"Result": res.Result})
	}
	sender := out.Sender != nil && *out.Sender == s
	queries := []string{"help", "board", "history", variant.KindView, variant.KindAnswer, "standings", "rating", "pgn", "settings"}
	if sender && out.Refused > 0 {
		// Lines before the refused one may have been done: a player who reads the subject
		// alone must not think his move was refused.
		done := slices.ContainsFunc(out.Kinds[s], func(k string) bool { return !slices.Contains(queries, k) })
		return say("subject/line-refused", templates.Args{"N": out.Refused, "Done": done})
	}
	if sender && out.NoCommand {
		return say("subject/no-command", nil)
	}
	onlyAsked := len(out.Kinds[s]) > 0 && !slices.ContainsFunc(out.Kinds[s], func(k string) bool { return !slices.Contains(queries, k) })
	if sender && onlyAsked {
		return say("subject/answers", templates.Args{"YourMove": slices.Contains(g.ToAct(), s), "Turn": TurnLabelIn(g, s, out.Lang[s])})
	}
	for _, k := range []string{"draw-withdrawn", "takeback-withdrawn", "takeback-declined"} {
		if slices.Contains(out.Kinds[s], k) && !slices.Contains(out.Kinds[s], "move") {
			return say("subject/"+k, templates.Args{"Turn": TurnLabelIn(g, s, out.Lang[s]), "YourMove": slices.Contains(g.ToAct(), s)})
		}
	}
	if slices.Contains(out.Kinds[s], "leave-told") && !sender {
		return say("subject/leave-news", nil)
	}
	if slices.Contains(out.Kinds[s], "takeback-offer") {
		if sender {
			return say("subject/takeback-sent", nil)
		}
		return say("subject/takeback-offered", templates.Args{"Turn": TurnLabelIn(g, s, out.Lang[s])})
	}
	offered := slices.Contains(out.Kinds[s], "draw-offer")
	// A simultaneous turn: the move sealed, or the opponent's sealed.
	switch {
	case offered:
	case sender && slices.Contains(out.Kinds[s], "chosen") && !slices.Contains(out.Kinds[s], "move"):
		return say("subject/move-sealed", nil)
	case !sender && slices.Contains(out.Kinds[s], "opponent-chosen") && slices.Contains(g.ToAct(), s):
		return say("subject/opponent-chosen", templates.Args{"Turn": TurnLabelIn(g, s, out.Lang[s])})
	}
	if slices.Contains(g.ToAct(), s) {
		return say("subject/your-move", templates.Args{"Offered": offered && !sender, "Turn": TurnLabelIn(g, s, out.Lang[s])})
	}
	switch {
	case offered && sender:
		return say("subject/offer-sent", nil)
	case offered:
		return say("subject/draw-offered", nil)
	case slices.Contains(out.Kinds[s], "draw-declined"):
		return say("subject/draw-declined", nil)
	case !sender:
		return say("subject/news", nil)
	}
	return say("subject/accepted", nil)
}

// Outcome collects what one inbound mail (or one deadline) does for each player.
type Outcome struct {
	Sender    *chess.Color // the player whose mail it is; nil for the referee's own doing
	Paras     [2][]string
	Show      [2]variant.Show
	Kinds     [2][]string
	said      [2][]variant.Notice // the notices add put in paras, each with the text it put there
	Quoted    []string
	Refused   int  // the line that was refused, 0 if none
	NoCommand bool // the sender's mail held no command
	// Numeric is, for each player, whether he asked for moves in ICCF numeric notation: a
	// notice that offers them (an arg "Numeric") says them so to him (arg "InNumeric").
	Numeric [2]bool
	// Unicode is, for each player, whether he asked for boards with figurines.
	Unicode [2]bool
	// Lang is each player's language, Pieces his piece letters (Prefs.With: set, or the
	// English default of the zero value).
	Lang, Pieces [2]lang.Tag
}

// SetPrefs takes each player's settings into o: prefs[s] is his (Prefs.With'ed).
func (o *Outcome) SetPrefs(prefs [2]Prefs) {
	for s, p := range prefs {
		o.Numeric[s], o.Unicode[s], o.Lang[s], o.Pieces[s] = p.Numeric, p.Unicode, p.Lang, p.Pieces
	}
}

// Say is the sentence kind in s's language.
func (o *Outcome) Say(s chess.Color, kind string, args templates.Args) string {
	return sayIn(o.Lang[s], kind, args)
}

// Tell adds the sentence kind, in s's language, to his mail.
func (o *Outcome) Tell(s chess.Color, kind string, args templates.Args) {
	o.Paras[s] = append(o.Paras[s], o.Say(s, kind, args))
}

// moveArgs are the notice fields that hold moves in SAN: a player who reads other letters
// reads them in his.
var moveArgs = []string{"Move", "Moves", "Series", "Attempt", "Shown"}

// drop leaves out of s's mail what add put there for the notices of kind: a later notice
// made them untrue (variant.Notice.Supersedes).
func (o *Outcome) drop(s chess.Color, kind string) {
	kept := o.said[s][:0]
	for _, n := range o.said[s] {
		if n.Kind != kind {
			kept = append(kept, n)
			continue
		}
		if i := slices.Index(o.Paras[s], n.Text); i >= 0 && n.Text != "" { // said.Text: the words it was given
			o.Paras[s] = slices.Delete(o.Paras[s], i, i+1)
		}
		if i := slices.Index(o.Kinds[s], n.Kind); i >= 0 {
			o.Kinds[s] = slices.Delete(o.Kinds[s], i, i+1)
		}
	}
	o.said[s] = kept
}

func (o *Outcome) Add(n variant.Notice) {
	if n.Kind == "reveal" {
		return // the referee reveals the whole game itself when it ends (see reveal)
	}
	for _, s := range []chess.Color{chess.White, chess.Black} {
		if !n.To.Has(s) {
			continue
		}
		if n.Supersedes != "" {
			o.drop(s, n.Supersedes)
		}
		args := n.Args
		if _, ok := args["Numeric"]; ok && o.Numeric[s] {
			args = maps.Clone(args)
			args["InNumeric"] = true
		} else if p := o.Pieces[s]; p.Known() && p != lang.EN {
			for _, k := range moveArgs {
				if m, ok := args[k].(string); ok {
					args = maps.Clone(args)
					args[k] = lang.WriteMoves(p, m)
				}
			}
		}
		text := templates.NoticeTextIn(o.Lang[s], n.Kind, n.Words, n.Text, args)
		if o.Sender != nil {
			// The draw commands are the referee's words: each player is told what is his to
			// do, and the offerer is not asked to accept his own offer.
			if n.Kind == "draw-offer" || n.Kind == "draw-declined" {
				text = o.Say(s, n.Kind, templates.Args{"Me": s == *o.Sender, "Sender": *o.Sender})
			}
		}
		if text != "" && !(IsAnswer(n.Kind) && slices.Contains(o.Paras[s], text)) {
			o.Paras[s] = append(o.Paras[s], text) // an answer asked for twice is given once
		}
		o.Kinds[s] = append(o.Kinds[s], n.Kind)
		said := n
		said.Text = text
		o.said[s] = append(o.said[s], said)
		if n.Show > o.Show[s] {
			o.Show[s] = n.Show
		}
	}
}

// Send renders what out holds into a mail for each player concerned: the sender always gets
// one, his opponent only when there is something for him, and both when the game ended with
// it (endedNow), with the whole game revealed. msg is the sender's mail, nil for the
// referee's own doing (a deadline).
func Send(w *outbox.Writer, tx *store.Tx, l *archive.Game, out *Outcome, msg *parser.Message, endedNow bool, kind string) error {
	sg, v, g, l0 := l.Stored, l.Variant, l.Live, l
	queued := false
	for _, s := range []chess.Color{chess.White, chess.Black} {
		sender := out.Sender != nil && *out.Sender == s
		if len(out.Paras[s]) == 0 && !sender && !endedNow {
			continue // nothing for the opponent: he is not written to at all
		}
		l := outbox.Letter{Side: s, What: SubjectFor(g, s, out), Paras: out.Paras[s], Kind: kind, Lang: out.Lang[s]}
		if len(l.Paras) == 0 {
			l.Paras = []string{out.Say(s, "done", nil)}
		}
		show := out.Show[s]
		prefs := Prefs{Numeric: out.Numeric[s], Unicode: out.Unicode[s], Lang: out.Lang[s], Pieces: out.Pieces[s]}
		if endedNow {
			revealed, err := Reveal(tx, l0, prefs)
			if err != nil {
				return err
			}
			l.Paras = append(slices.Clone(l.Paras), revealed...)
			show = variant.ShowReveal
		}
		l.Diagram = Diagram(v, g, s, show, prefs)
		if slices.Contains(out.Kinds[s], "pgn") {
			pgn, err := archive.PlayerPGN(l0, s, false) // PGN is read by programs: SAN, whatever he reads
			if err != nil {
				return err
			}
			l.Attachments = []templates.Attachment{{Name: fmt.Sprintf("game-%d.pgn", sg.ID), ContentType: "application/x-chess-pgn", Data: pgn}}
		}
		if sender {
			l.Quoted, l.Answers, l.Kind = out.Quoted, msg, "reply"
		}
		if err := queue(w, tx, sg, v.Name, l); err != nil {
			return err
		}
		queued = true
	}
	if !queued {
		return nil
	}
	return tx.PutGame(sg) // the mails counted and remembered, once for both
}

// IsAnswer reports whether a notice kind only answers a question (HELP, BOARD, a game's own
// queries ...).
func IsAnswer(kind string) bool {
	return slices.Contains([]string{"help", "board", "history", variant.KindView, variant.KindAnswer, "standings", "rating", "pgn", "settings"}, kind)
}

// sayIn is one of the referee's own sentences in language t (English for "").
func sayIn(t lang.Tag, kind string, args templates.Args) string {
	if t == "" {
		t = lang.EN
	}
	return templates.SayIn(t, "", kind, args)
}
