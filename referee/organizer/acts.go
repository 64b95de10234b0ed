package organizer

import (
	"fmt"
	"slices"
	"strings"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/referee/clocks"
	"github.com/refereed/refereed/referee/outbox"
	"github.com/refereed/refereed/referee/play"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/templates"
	"github.com/refereed/refereed/variant"
)

// What the organizer's commands do to games and players (commands.go reads them): an
// adjudication, an extension, a replacement.

// adjudicate ends game sg with result, logged as the game's command (so that replay ends it
// the same way), and tells both players, with the organizer's reason.
func (d *Desk) adjudicate(tx *store.Tx, sg *store.Game, result, reason string) error {
	a, err := d.open(tx, sg.ID)
	if err != nil {
		return err
	}
	notices, err := a.Submit(variant.Command{By: chess.White, Text: variant.Adjudication(result)}, "organizer")
	if err != nil {
		return err
	}
	if _, err := a.Settle(reason); err != nil {
		return err
	}
	var out play.Outcome
	out.SetPrefs(d.Prefs(tx, sg))
	for _, n := range notices {
		out.Add(n)
	}
	if reason != "" {
		for _, s := range []chess.Color{chess.White, chess.Black} {
			out.Tell(s, "adjudication-reason", templates.Args{"Reason": reason})
		}
	}
	return play.Finish(d.Out, a, &out, nil, true, "update", d.GameOver)
}

// extend gives sides (none: the one the game waits for, or both) n more days in sg: on their
// clocks, or, with the simple deadline, for the action they are on. Both players are told.
func (d *Desk) extend(tx *store.Tx, sg *store.Game, n int, sides []chess.Color) error {
	a, err := d.open(tx, sg.ID)
	if err != nil {
		return err
	}
	l := a.Read()
	if len(sides) == 0 {
		sides = l.Live.ToAct()
		if len(sides) == 0 {
			sides = []chess.Color{chess.White, chess.Black}
		}
	}
	for _, s := range sides {
		if err := a.Record(store.Event{Side: int(s), Kind: store.EventExtend, Days: n, Text: fmt.Sprintf("extend %s %d", strings.ToLower(s.String()), n)}, "organizer"); err != nil {
			return err
		}
	}
	var names []string
	for _, s := range sides {
		names = append(names, s.String())
	}
	prefs := d.Prefs(tx, l.Stored)
	for _, s := range []chess.Color{chess.White, chess.Black} {
		say := func(kind string, args templates.Args) string { return templates.SayIn(prefs[s].Lang, "", kind, args) }
		text := say("extended", templates.Args{"Sides": strings.Join(names, " and "), "Days": n, "Clock": l.Clock != nil})
		if err := d.mail(tx, l.Stored, l.Variant, outbox.Letter{Side: s, Kind: "update", What: say("subject/extended", nil), Paras: []string{text}, Diagram: play.Diagram(l.Variant, l.Live, s, variant.ShowView, prefs[s]), Lang: prefs[s].Lang}); err != nil {
			return err
		}
	}
	return nil
}

// replace puts address neu in old's place in t: in the table, and in each of old's games
// still going, with a reply token of his own (old's stops working). The new player is sent
// each game as it stands, his opponents are told, and so is the old player. Finished games
// keep the address that played them. It returns the games taken over.
func (d *Desk) replace(tx *store.Tx, t *store.Tournament, old, neu string) (int, error) {
	old, err := d.CheckAddress(old)
	if err != nil {
		return 0, variant.Reject("%v", err)
	}
	if neu, err = d.CheckAddress(neu); err != nil {
		return 0, variant.Reject("%v", err)
	}
	i := slices.Index(t.Players, old)
	switch {
	case i < 0:
		return 0, variant.Refuse("organizer-not-player", templates.Args{"Player": old, "Name": t.Name})
	case slices.Contains(t.Players, neu):
		return 0, variant.Refuse("organizer-already-player", templates.Args{"Player": neu, "Name": t.Name})
	case slices.ContainsFunc(t.Withdrawn, func(w store.Withdrawal) bool { return w.Player == i }):
		return 0, variant.Refuse("organizer-withdrawn-already", templates.Args{"Player": old})
	}
	t.Players[i] = neu
	t.Replacements = append(t.Replacements, store.Replacement{Seat: i, Old: old, New: neu, At: tx.Now})
	if err := tx.PutTournament(t); err != nil {
		return 0, err
	}
	n := 0
	for _, rd := range t.Rounds {
		for _, tg := range rd.Games {
			if tg.White != i && tg.Black != i {
				continue
			}
			a, err := d.open(tx, tg.Game)
			if err != nil {
				return 0, err
			}
			l, sg := a.Read(), a.Stored()
			if sg.Over() {
				continue
			}
			side := chess.White
			if tg.Black == i {
				side = chess.Black
			}
			tok, err := d.Out.NewToken()
			if err != nil {
				return 0, err
			}
			// The old token stays, retired: his mail to the game is answered with who took
			// over and when, not dropped unseen.
			retired := store.GameRef{Game: sg.ID, Side: int(side), Replaced: &store.Replacement{Old: old, New: neu, At: tx.Now}}
			if err := tx.PutTokenRef(sg.Players[side].Token, retired); err != nil {
				return 0, err
			}
			if err := tx.PutTokenRef(tok, store.GameRef{Game: sg.ID, Side: int(side)}); err != nil {
				return 0, err
			}
			if err := a.Replace(side, old, neu, tok); err != nil {
				return 0, err
			}
			args := templates.Args{"Old": old, "New": neu, "Side": side, "Name": t.Name, "Variant": l.Variant.Name, "Opponent": sg.Players[side.Other()].Address}
			prefs := d.Prefs(tx, sg)
			sayTo := func(s chess.Color, kind string) string { return templates.SayIn(prefs[s].Lang, "", kind, args) }
			if err := d.mail(tx, sg, l.Variant, outbox.Letter{Side: side, Kind: "opening", What: sayTo(side, "subject/taken-over"), Lang: prefs[side].Lang,
				Paras: []string{sayTo(side, "replacement-welcome"), d.PlayerHelp(l.Variant, l.Live, prefs[side].Lang)}, Diagram: play.Diagram(l.Variant, l.Live, side, variant.ShowView, prefs[side])}); err != nil {
				return 0, err
			}
			if err := d.mail(tx, sg, l.Variant, outbox.Letter{Side: side.Other(), Kind: "update", What: sayTo(side.Other(), "subject/new-opponent"), Lang: prefs[side.Other()].Lang,
				Paras: []string{sayTo(side.Other(), "replacement-told")}}); err != nil {
				return 0, err
			}
			n++
		}
	}
	if err := clocks.MarkDue(tx, clocks.TournamentGames(t)...); err != nil { // the new player's leave counts now
		return 0, err
	}
	if err := d.note(tx, t, old, d.sayTo(tx, old, "replaced-you", templates.Args{"Name": t.Name, "New": neu})); err != nil {
		return 0, err
	}
	return n, nil
}
