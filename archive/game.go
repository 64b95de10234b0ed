// Package archive is the read side of refereed: a game or a tournament's section loaded for
// reading, exports in PGN, and the verification of archives. It reads the store and never
// writes it, and it sends no mail: the referee (which plays) and the web archive (which shows)
// both read through it, and the read-only commands of cmd/refereed are wiring over it.
//
// A game is rebuilt from its log whenever it is needed (design.md: state is a replay of the
// log): its commands as they stand (less what takebacks took back), when the game began to
// wait for each player, and its clock, worked out on the way.
package archive

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/clock"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/variant"
)

// ErrNoGame is returned by Load for an unknown game.
var ErrNoGame = errors.New("no such game")

// Game is a game rebuilt from its log for reading: its stored record, its variant, the live
// game the log replays to, when it began to wait for each player and, for a game with a time
// control, its clock.
type Game struct {
	Stored  *store.Game
	Variant *variant.Variant
	Live    variant.Game
	Events  uint64       // log length
	Since   [2]time.Time // when the game began to wait for each side; zero if it does not
	// Stops are the spans in which the game's clocks stand still (leave, pauses); Extended
	// the days the organizer gave each side, each with its time.
	Stops    []clock.Stop
	Extended []store.Event
	Clock    *clock.Clock // nil: no time control, the simple deadline (rules.md 0.4a)
	// Takeback is the side whose takeback offer stands, -1 for none; TurnFrom is, for each
	// side, the index in the game's log of the first command of his last turn.
	Takeback int
	TurnFrom [2]int
	// Asked is, for each side, 1 + the number of commands logged before his last takeback
	// request (0: none): one request a turn.
	Asked    [2]int
	Commands int // commands logged, taken back or not
}

// TakebackOffer is the text of the log event of a takeback request.
const TakebackOffer = "takeback offer"

// WaitsFor reports whether g waits for s alone. While a simultaneous game waits for both
// players no clock runs; once one has chosen, the game waits for the other alone and his clock
// runs from that moment (rules.md 0.4a).
func WaitsFor(g variant.Game, s chess.Color) bool {
	act := g.ToAct()
	return len(act) == 1 && act[0] == s && !g.Outcome().Over()
}

// storedGame is game id as the store keeps it, and its variant.
func storedGame(tx *store.Tx, id uint64) (*store.Game, *variant.Variant, error) {
	sg, err := tx.Game(id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, fmt.Errorf("game %d: %w", id, ErrNoGame)
	}
	if err != nil {
		return nil, nil, err
	}
	v, err := variant.Lookup(sg.Variant)
	if err != nil {
		return nil, nil, fmt.Errorf("archive: game %d: %w", id, err)
	}
	return sg, v, nil
}

// Load replays game id from its log once, noting when each wait began: the time of the
// logged command after which the game began to wait for the player, or the game's creation.
// Only the game's own turn changes count: a private query or a C-move statement does not
// restart a clock, so the timing of a reminder tells a player nothing he may not know. A
// game with a time control has its clock worked out on the way: a side's clock runs while
// the game waits for him alone, and each turn he completes is one move of his.
func Load(tx *store.Tx, id uint64) (*Game, error) {
	sg, v, err := storedGame(tx, id)
	if err != nil {
		return nil, err
	}
	all, err := tx.Events(id)
	if err != nil {
		return nil, err
	}
	return LoadEvents(tx, sg, v, all)
}

// LoadEvents is Load of game sg, a game of v, from the events all: its whole log, or the
// part of it logged up to some moment (a player's HISTORY tells what he was told then).
func LoadEvents(tx *store.Tx, sg *store.Game, v *variant.Variant, all []store.Event) (*Game, error) {
	id := sg.ID
	var err error
	l := &Game{Stored: sg, Variant: v, Events: uint64(len(all)), Takeback: -1}
	events := store.Effective(all)
	commands := 0
	for _, e := range all {
		switch {
		case e.Kind == store.EventExtend:
			l.Extended = append(l.Extended, e)
		case e.Kind == store.EventTakeback && e.Text == TakebackOffer:
			l.Takeback = e.Side
			l.Asked[e.Side&1] = commands + 1
		case e.Kind == store.EventTakeback || e.IsCommand():
			l.Takeback = -1 // answered, withdrawn, or lapsed with the game going on
		}
		if e.IsCommand() {
			commands++
		}
	}
	l.Commands = commands
	if l.Stops, err = StopsOf(tx, sg); err != nil {
		return nil, err
	}
	if tc, ok := TimeControlOf(sg); ok {
		l.Clock = clock.NewClock(tc, l.Stops)
		for _, e := range l.Extended {
			l.Clock.Extra[e.Side] += e.Days
		}
	}
	log := make([]variant.Command, len(events))
	for i, e := range events {
		log[i] = variant.Command{By: chess.Color(e.Side), Text: e.Text}
	}
	var was, acting [2]bool
	g, fail, err := variant.ReplayWith(v, variant.Options{FEN: sg.FEN, Flags: sg.Flags}, log, variant.Watch{
		Each: func(i int, g variant.Game, _ []variant.Notice) error {
			at := sg.Created
			if i >= 0 {
				at = events[i].At
			}
			act := g.ToAct()
			var now [2]bool
			for s := range was { // the clock that stops is charged before the other starts
				now[s] = WaitsFor(g, chess.Color(s))
				if !now[s] {
					if was[s] && l.Clock != nil {
						l.Clock.Stop(s, at)
					}
					l.Since[s] = time.Time{}
				}
				in := slices.Contains(act, chess.Color(s))
				if acting[s] && !in && !g.Outcome().Over() && l.Clock != nil {
					l.Clock.Moved(s)
				}
				acting[s] = in
			}
			for s := range was {
				if now[s] && !was[s] {
					l.TurnFrom[s] = i + 1
					l.Since[s] = at
					if l.Clock != nil {
						l.Clock.Start(s, at)
					}
				}
				was[s] = now[s]
			}
			return nil
		}})
	if err != nil {
		return nil, fmt.Errorf("archive: game %d: start: %w", id, err)
	}
	if fail != nil {
		return nil, fmt.Errorf("archive: game %d: log does not replay: %w", id, fail)
	}
	l.Live = g
	return l, nil
}
