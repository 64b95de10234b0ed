package referee

import (
	"fmt"
	"slices"
	"strings"

	"github.com/refereed/refereed/archive"
	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/parser"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/templates"
	"github.com/refereed/refereed/variant"
)

// turnLabel is " (T5)" for a game that names its turns (variant.TurnNamer), else "".
func turnLabel(g variant.Game, s chess.Color) string {
	if n, ok := g.(variant.TurnNamer); ok {
		if name := n.TurnName(s); name != "" {
			return " (" + name + ")"
		}
	}
	return ""
}

// diagram draws what show asks for, for player s: his own view, or once the game is over the
// whole truth. Every board is drawn from s's side.
func diagram(g variant.Game, s chess.Color, show variant.Show) string {
	switch show {
	case variant.ShowView:
		return g.View(variant.ViewerOf(s)).Diagram()
	case variant.ShowReveal:
		v := g.View(variant.AsReferee)
		v.Bottom = s
		if out := g.Outcome(); out.Over() {
			// The mail says how the game ended; the board need not say it again.
			v.Lines = slices.DeleteFunc(slices.Clone(v.Lines), func(l string) bool { return l == out.OverLine() })
		}
		return v.Diagram()
	}
	return ""
}

// logLines writes a game's log, one accepted command a line with its time and who did it.
func logLines(events []store.Event, layout string) []string {
	out := make([]string, 0, len(events))
	for _, e := range events {
		out = append(out, fmt.Sprintf("%s %s: %s", e.At.UTC().Format(layout), archive.EventBy(e), e.Text))
	}
	return out
}

// reveal is what both players are sent when a game ends (rules.md 0.4b): the whole record in
// the game's notation and every command the referee accepted, hidden ones included, so that
// nothing is secret any more and any dispute can be checked. The final position goes under it.
func reveal(tx *store.Tx, l *archive.Game) ([]string, error) {
	sg, v, g := l.Stored, l.Variant, l.Live
	var paras []string
	if record := strings.TrimSpace(v.WriteMovetext(g)); record != "" {
		paras = append(paras, say("whole-game", nil)+"\n"+record)
	}
	events, err := tx.Events(sg.ID)
	if err != nil {
		return nil, err
	}
	if len(events) > 0 {
		paras = append(paras, say("whole-log", templates.Args{"Hidden": !v.Open})+"\n"+strings.Join(logLines(events, "2006-01-02 15:04"), "\n"))
	}
	return append(paras, say("final-position", nil)), nil
}

// commonHelp lists the commands every game has (rules.md 0.4), in the layout of a game's
// own Help.
const commonHelp = "BOARD            your current view\n" +
	"HISTORY          everything you have been told in this game\n" +
	"RESIGN           resign the game\n" +
	"DRAW OFFER       offer a draw; it stands until answered, or DRAW WITHDRAW\n" +
	"DRAW ACCEPT      accept your opponent's offer; DRAW DECLINE declines it\n" +
	"LEAVE d1 d2      leave: the clocks of all your games stop from day d1 to d2\n" +
	"                 (LEAVE 2027-01-02 2027-01-10), within your yearly allowance"

// takebackHelp is what a game with takebacks adds to commonHelp.
const takebackHelp = "TAKEBACK         ask to take back your last turn, before your opponent\n" +
	"                 replies; TAKEBACK ACCEPT, DECLINE or WITHDRAW answer it"

// tournamentHelp is what a game of a tournament adds to commonHelp.
const tournamentHelp = "STANDINGS        the tournament's crosstable"

// helpText is the answer to HELP; a game of a tournament has STANDINGS too.
func helpText(v *variant.Variant, g variant.Game, inTournament bool) string {
	if out := g.Outcome(); out.Over() {
		return say("help-over", templates.Args{"Result": out.Result, "Reason": out.Reason})
	}
	help := variant.HelpOf(v, g) + "\n" + commonHelp
	if v.Open {
		help += "\n" + takebackHelp
	}
	if inTournament {
		help += "\n" + tournamentHelp
	}
	return say("help", nil) + "\n" + templates.Columns(help)
}

// subjectFor says in a few words what the mail to s is about.
func subjectFor(g variant.Game, s chess.Color, out *outcome) string {
	if res := g.Outcome(); res.Over() {
		return say("subject/game-over", templates.Args{"Result": res.Result})
	}
	sender := out.sender != nil && *out.sender == s
	if sender && out.refused > 0 {
		return say("subject/line-refused", templates.Args{"N": out.refused})
	}
	if sender && out.noCommand {
		return say("subject/no-command", nil)
	}
	queries := []string{"help", "board", "history", variant.KindView, variant.KindAnswer, "standings"}
	onlyAsked := len(out.kinds[s]) > 0 && !slices.ContainsFunc(out.kinds[s], func(k string) bool { return !slices.Contains(queries, k) })
	if sender && onlyAsked {
		return say("subject/answers", templates.Args{"YourMove": slices.Contains(g.ToAct(), s), "Turn": turnLabel(g, s)})
	}
	for _, k := range []string{"draw-withdrawn", "takeback-withdrawn", "takeback-declined"} {
		if slices.Contains(out.kinds[s], k) && !slices.Contains(out.kinds[s], "move") {
			return say("subject/"+k, templates.Args{"Turn": turnLabel(g, s), "YourMove": slices.Contains(g.ToAct(), s)})
		}
	}
	if slices.Contains(out.kinds[s], "leave-told") && !sender {
		return say("subject/leave-news", nil)
	}
	if slices.Contains(out.kinds[s], "takeback-offer") {
		if sender {
			return say("subject/takeback-sent", nil)
		}
		return say("subject/takeback-offered", templates.Args{"Turn": turnLabel(g, s)})
	}
	offered := slices.Contains(out.kinds[s], "draw-offer")
	// A simultaneous turn: the move sealed, or the opponent's sealed.
	switch {
	case offered:
	case sender && slices.Contains(out.kinds[s], "chosen") && !slices.Contains(out.kinds[s], "move"):
		return say("subject/move-sealed", nil)
	case !sender && slices.Contains(out.kinds[s], "opponent-chosen") && slices.Contains(g.ToAct(), s):
		return say("subject/opponent-chosen", templates.Args{"Turn": turnLabel(g, s)})
	}
	if slices.Contains(g.ToAct(), s) {
		return say("subject/your-move", templates.Args{"Offered": offered && !sender, "Turn": turnLabel(g, s)})
	}
	switch {
	case offered && sender:
		return say("subject/offer-sent", nil)
	case offered:
		return say("subject/draw-offered", nil)
	case slices.Contains(out.kinds[s], "draw-declined"):
		return say("subject/draw-declined", nil)
	case !sender:
		return say("subject/news", nil)
	}
	return say("subject/accepted", nil)
}

// outcome collects what one inbound mail (or one deadline) does for each player.
type outcome struct {
	sender    *chess.Color // the player whose mail it is; nil for the referee's own doing
	paras     [2][]string
	show      [2]variant.Show
	kinds     [2][]string
	said      [2][]variant.Notice // the notices add put in paras, each with the text it put there
	quoted    []string
	refused   int  // the line that was refused, 0 if none
	noCommand bool // the sender's mail held no command
}

// drop leaves out of s's mail what add put there for the notices of kind: a later notice
// made them untrue (variant.Notice.Supersedes).
func (o *outcome) drop(s chess.Color, kind string) {
	kept := o.said[s][:0]
	for _, n := range o.said[s] {
		if n.Kind != kind {
			kept = append(kept, n)
			continue
		}
		if i := slices.Index(o.paras[s], n.Text); i >= 0 && n.Text != "" { // said.Text: the words it was given
			o.paras[s] = slices.Delete(o.paras[s], i, i+1)
		}
		if i := slices.Index(o.kinds[s], n.Kind); i >= 0 {
			o.kinds[s] = slices.Delete(o.kinds[s], i, i+1)
		}
	}
	o.said[s] = kept
}

func (o *outcome) add(n variant.Notice) {
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
		text := templates.NoticeText(n.Kind, n.Words, n.Text, n.Args)
		if o.sender != nil {
			// The draw commands are the referee's words: each player is told what is his to
			// do, and the offerer is not asked to accept his own offer.
			if n.Kind == "draw-offer" || n.Kind == "draw-declined" {
				text = say(n.Kind, templates.Args{"Me": s == *o.sender, "Sender": *o.sender})
			}
		}
		if text != "" && !(isAnswer(n.Kind) && slices.Contains(o.paras[s], text)) {
			o.paras[s] = append(o.paras[s], text) // an answer asked for twice is given once
		}
		o.kinds[s] = append(o.kinds[s], n.Kind)
		said := n
		said.Text = text
		o.said[s] = append(o.said[s], said)
		if n.Show > o.show[s] {
			o.show[s] = n.Show
		}
	}
}

// send renders what out holds into a mail for each player concerned: the sender always gets
// one, his opponent only when there is something for him, and both when the game ended with
// it (endedNow), with the whole game revealed. msg is the sender's mail, nil for the
// referee's own doing (a deadline).
func (r *Referee) send(tx *store.Tx, l *archive.Game, out *outcome, msg *parser.Message, endedNow bool, kind string) error {
	sg, v, g := l.Stored, l.Variant, l.Live
	var revealed []string
	if endedNow {
		var err error
		if revealed, err = reveal(tx, l); err != nil {
			return err
		}
	}
	for _, s := range []chess.Color{chess.White, chess.Black} {
		sender := out.sender != nil && *out.sender == s
		if len(out.paras[s]) == 0 && !sender && !endedNow {
			continue // nothing for the opponent: he is not written to at all
		}
		l := letter{Side: s, What: subjectFor(g, s, out), Paras: out.paras[s], Kind: kind}
		if len(l.Paras) == 0 {
			l.Paras = []string{say("done", nil)}
		}
		show := out.show[s]
		if endedNow {
			l.Paras = append(slices.Clone(l.Paras), revealed...)
			show = variant.ShowReveal
		}
		l.Diagram = diagram(g, s, show)
		if sender {
			l.Quoted, l.Answers, l.Kind = out.quoted, msg, "reply"
		}
		if err := r.enqueue(tx, sg, v, l); err != nil {
			return err
		}
	}
	return nil
}

// isAnswer reports whether a notice kind only answers a question (HELP, BOARD, a game's own
// queries ...).
func isAnswer(kind string) bool {
	return slices.Contains([]string{"help", "board", "history", variant.KindView, variant.KindAnswer, "standings"}, kind)
}
