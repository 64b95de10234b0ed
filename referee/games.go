package referee

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/referee/outbox"
	"github.com/refereed/refereed/referee/play"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/templates"
	"github.com/refereed/refereed/variant"
)

// New games: made by the operator (NewGame), a tournament or an accepted challenge, each
// with its opening mails.

// RatedFlag in opts.Flags set to "true" makes a game rated: its end updates both players'
// ratings (package rating). The game's record keeps it (store.Game.Rated), not its options.
const RatedFlag = "rated"

// NewGame creates a game between two addresses and queues the opening mails. It returns the
// game's ID. Errors say what was wrong with the request.
func (r *Referee) NewGame(variantKey, white, black string, opts variant.Options) (uint64, error) {
	v, err := variant.Lookup(variantKey)
	if err != nil {
		return 0, err
	}
	var addrs [2]string
	for i, a := range []string{white, black} {
		addr, err := r.CheckAddress(a)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", chess.Color(i), err)
		}
		addrs[i] = addr
	}
	if addrs[0] == addrs[1] {
		return 0, fmt.Errorf("the same address %s for both White and Black: a player cannot play himself", addrs[0])
	}
	if _, err := v.New(opts); err != nil {
		return 0, fmt.Errorf("cannot start %s: %w", v.Name, err)
	}
	var id uint64
	err = r.DB.Update(func(tx *store.Tx) error {
		sg, err := r.createGame(tx, v, addrs, opts, nil)
		if sg != nil {
			id = sg.ID
		}
		return err
	})
	if err != nil {
		return 0, err
	}
	return id, nil
}

// seat places a game in a tournament: which, and which round of how many.
type seat struct {
	t      *store.Tournament
	round  int
	rounds int
	// challenge, when set, is the challenge the game was made from (no tournament).
	challenge *store.Challenge
}

// createGame stores a new game between addrs (White, Black) in tx and queues its opening
// mails; a tournament's game (at not nil) says so in them.
func (r *Referee) createGame(tx *store.Tx, v *variant.Variant, addrs [2]string, opts variant.Options, at *seat) (*store.Game, error) {
	game, err := v.New(opts)
	if err != nil {
		return nil, fmt.Errorf("cannot start %s: %w", v.Name, err)
	}
	sg := &store.Game{Variant: v.Key, FEN: opts.FEN, Flags: opts.Flags}
	if _, ok := opts.Flags[RatedFlag]; ok {
		// Whether the game is rated is the game's record's, not one of its options.
		sg.Rated = opts.Flags[RatedFlag] == "true"
		sg.Flags = maps.Clone(opts.Flags)
		delete(sg.Flags, RatedFlag)
	}
	if at != nil && at.t != nil {
		sg.Tournament, sg.Round = at.t.ID, at.round
		sg.Rated = at.t.Rated
		if at.t.Language != "" {
			sg.Flags = maps.Clone(sg.Flags)
			if sg.Flags == nil {
				sg.Flags = map[string]string{}
			}
			sg.Flags[LanguageFlag] = at.t.Language
		}
	}
	for i := range sg.Players {
		tok, err := r.newToken()
		if err != nil {
			return nil, err
		}
		sg.Players[i] = store.Player{Address: addrs[i], Token: tok}
	}
	out := game.Outcome()
	if out.Over() {
		// A position that is already decided (a mate, a dead position): the game is
		// over before it begins, and says so everywhere.
		play.MarkOver(sg, out.Result, out.Reason)
	}
	if err := play.Create(tx, sg); err != nil {
		return nil, err
	}
	prefs := r.prefsOf(tx, sg)
	for _, side := range []chess.Color{chess.White, chess.Black} {
		t := prefs[side].Lang
		say := func(kind string, args templates.Args) string { return templates.SayIn(t, "", kind, args) }
		l := outbox.Letter{Side: side, Kind: "opening", Lang: t}
		other := sg.Players[side.Other()].Address
		if out.Over() {
			l.What = say("subject/game-over-at-start", templates.Args{"Result": out.Result})
			l.Paras = []string{
				say("opening-decided", templates.Args{"Variant": v.Name, "Side": side, "Opponent": other, "Reason": out.Reason, "Result": out.Result}),
				say("opening-nothing-to-play", nil),
			}
			l.Diagram = play.Diagram(v, game, side, variant.ShowReveal, prefs[side])
		} else {
			yours := slices.Contains(game.ToAct(), side)
			l.What = say("subject/new-game", templates.Args{"Side": side, "YourMove": yours, "Turn": play.TurnLabelIn(game, side, t)})
			l.Paras = []string{say("opening", templates.Args{"Variant": v.Name, "Side": side, "Opponent": other})}
			l.Diagram = play.Diagram(v, game, side, variant.ShowView, prefs[side])
			// Who moves first is said once: by the view's own status line when it has one
			// ("White to play move 1."), else here.
			says := strings.Contains(l.Diagram, " to play ")
			switch {
			case len(game.ToAct()) > 1:
				// Both move at once (the synchronous games): the view's turn line says so.
			case yours:
				if !says {
					l.Paras = append(l.Paras, say("you-move-first", nil))
				}
			case says:
				l.Paras = append(l.Paras, say("will-write", nil))
			default:
				l.Paras = append(l.Paras, say("other-moves-first", templates.Args{"First": side.Other()}))
			}
		}
		if sg.Rated && !out.Over() {
			l.Paras = append(l.Paras, say("rated-game", templates.Args{"Variant": v.Name}))
		}
		if at != nil && at.challenge != nil {
			ch := at.challenge
			kind := "challenge/you-accepted"
			if sg.Players[side].Address == ch.From {
				kind = "challenge/accepted-yours"
			}
			l.Paras = append([]string{say(kind, templates.Args{"ID": ch.ID, "From": ch.From, "By": ch.By})}, l.Paras...)
		}
		if at != nil && at.t != nil {
			l.Paras = append(l.Paras, say("tournament-game", templates.Args{"Name": at.t.Name, "Round": at.round, "Rounds": at.rounds, "Players": len(at.t.Players), "Double": at.t.Double}))
		}
		if err := r.enqueue(tx, sg, v, l); err != nil {
			return nil, err
		}
	}
	return sg, nil
}
