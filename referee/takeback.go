package referee

import (
	"strings"

	"github.com/refereed/refereed/archive"
	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/referee/ifmoves"
	"github.com/refereed/refereed/referee/play"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/templates"
	"github.com/refereed/refereed/variant"
)

// Takebacks (issue: tournaments, item 6), as correspondence servers have them: a player who
// has just moved may ask to take his turn back; the offer stands across mails until his
// opponent accepts or declines it, he withdraws it, or anything more is played. Accepted, his
// last turn comes out of the game (an event of the game's log says how many commands, so
// that replay takes out the same) and it is his turn again, on his own clock. Only the games
// that hide nothing have them (variant.Variant.Open): in the others the taken-back move
// would be shown, or its absence felt.

// The takeback events' texts, as the game's log keeps them.
const (
	takebackOffer    = "takeback offer"
	takebackAccept   = "takeback accept"
	takebackDecline  = "takeback decline"
	takebackWithdraw = "takeback withdraw"
)

// takebackVerb reads a takeback command: "TAKEBACK" (or "TAKEBACK OFFER", "UNDO"), "TAKEBACK
// ACCEPT", "TAKEBACK DECLINE", "TAKEBACK WITHDRAW"; "" for any other line.
func takebackVerb(line string) string {
	f := strings.Fields(strings.ToLower(line))
	if len(f) == 0 || len(f) > 2 || (f[0] != "takeback" && f[0] != "undo") {
		return ""
	}
	if len(f) == 1 {
		return takebackOffer
	}
	switch f[1] {
	case "offer", "?":
		return takebackOffer
	case "accept", "yes":
		return takebackAccept
	case "decline", "no":
		return takebackDecline
	case "withdraw":
		return takebackWithdraw
	}
	return ""
}

// takeback runs a takeback command of side in game sg, sent in the mail source (its inbox
// key). It logs it and returns the notices; an accepted takeback changes the game, which the
// caller loads again (changed).
func (r *Referee) takeback(a *play.Game, side chess.Color, verb, source string) (notices []variant.Notice, changed bool, err error) {
	tx, sg := a.Tx(), a.Stored()
	l, err := archive.Load(tx, sg.ID)
	if err != nil {
		return nil, false, err
	}
	events, err := tx.Events(sg.ID)
	if err != nil {
		return nil, false, err
	}
	notices, event, err := takebackStep(l, events, side, verb)
	if err != nil {
		return nil, false, err
	}
	if err := a.Record(event, source); err != nil {
		return nil, false, err
	}
	return notices, event.Undo > 0, nil
}

// takebackStep is what a takeback command of side does to the game l as it stands (events
// its log, for the conditional sequences standing): the
// notices it causes and the event that logs it, or a rejection. It changes nothing: HISTORY
// calls it again on the game as it stood to tell what was said.
func takebackStep(l *archive.Game, events []store.Event, side chess.Color, verb string) (notices []variant.Notice, event store.Event, err error) {
	g, other := l.Live, side.Other()
	if !l.Variant.Open {
		return nil, event, variant.Refuse("takeback-none", templates.Args{"Variant": l.Variant.Name})
	}
	if out := g.Outcome(); out.Over() {
		return nil, event, variant.Reject("the game is over (%s); there is nothing more to send", out.Result)
	}
	event = store.Event{Side: int(side), Kind: store.EventTakeback, Text: verb}
	args := templates.Args{"By": side, "Other": other}
	switch verb {
	case takebackOffer:
		switch {
		case l.Takeback == int(side):
			return nil, event, variant.Refuse("takeback-already", nil)
		case l.Asked[side] == l.Commands+1:
			return nil, event, variant.Refuse("takeback-once", nil) // one request a turn: no ping-pong
		case !archive.WaitsFor(g, other) || l.TurnFrom[side] >= len(g.Log()) || !onlyBy(g.Log()[l.TurnFrom[side]:], side):
			return nil, event, variant.Refuse("takeback-not-now", nil)
		}
		args["Turn"] = turnText(l, side)
		notices = []variant.Notice{
			{To: variant.To(side), Kind: "takeback-offer", Words: "takeback-offered", Args: templates.Args{"Me": true, "By": side, "Other": other, "Turn": args["Turn"]}},
			{To: variant.To(other), Kind: "takeback-offer", Words: "takeback-offered", Args: templates.Args{"Me": false, "By": side, "Other": other, "Turn": args["Turn"]}},
		}
	case takebackAccept, takebackDecline:
		if l.Takeback != int(other) {
			return nil, event, variant.Refuse("takeback-no-offer", templates.Args{"Accept": verb == takebackAccept})
		}
		if verb == takebackAccept {
			event.Undo = len(g.Log()) - l.TurnFrom[other]
			args["Turn"] = turnText(l, other)
		}
		key := map[string]string{takebackAccept: "takeback-accepted", takebackDecline: "takeback-declined"}[verb]
		notices = []variant.Notice{{To: variant.ToBoth, Kind: key, Words: key, Args: args, Show: variant.ShowView}}
		if verb == takebackAccept {
			// The IF sequences go with the moves they were stated on: each player who had
			// some is told, and only he.
			for s, n := range ifmoves.Standing(events) {
				if n > 0 {
					notices = append(notices, variant.Notice{To: variant.To(chess.Color(s)), Kind: variant.KindAnswer,
						Words: "if-taken-back", Args: templates.Args{"N": n}})
				}
			}
		}
	case takebackWithdraw:
		if l.Takeback != int(side) {
			return nil, event, variant.Refuse("takeback-none-to-withdraw", nil)
		}
		notices = []variant.Notice{{To: variant.ToBoth, Kind: "takeback-withdrawn", Words: "takeback-withdrawn", Args: args, Supersedes: "takeback-offer"}}
	}
	return notices, event, nil
}

// onlyBy reports whether every command of log is side's.
func onlyBy(log []variant.Command, side chess.Color) bool {
	for _, c := range log {
		if c.By != side {
			return false
		}
	}
	return true
}

// turnText is side's last turn as the game's record writes it: what the record says after
// the turn that it does not say before it ("2. d5 Qd6"), or the commands themselves.
func turnText(l *archive.Game, side chess.Color) string {
	log := l.Live.Log()
	before, fail, err := variant.ReplayWith(l.Variant, variant.Options{FEN: l.Stored.FEN, Flags: l.Stored.Flags}, log[:l.TurnFrom[side]], variant.Watch{})
	if err == nil && fail == nil {
		all, head := strings.TrimSpace(l.Variant.WriteMovetext(l.Live)), strings.TrimSpace(l.Variant.WriteMovetext(before))
		if rest, ok := strings.CutPrefix(all, head); ok && strings.TrimSpace(rest) != "" {
			return strings.TrimSpace(rest)
		}
	}
	var texts []string
	for _, c := range log[l.TurnFrom[side]:] {
		texts = append(texts, c.Text)
	}
	return strings.Join(texts, ", ")
}
