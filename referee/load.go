package referee

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/tournament"
	"github.com/refereed/refereed/variant"
)

// A game is rebuilt from its log whenever it is needed (design.md: state is a replay of the
// log): its commands as they stand (less what takebacks took back), when the game began to
// wait for each player, and its clock, worked out on the way.

// ErrNoGame is returned by Load for an unknown game.
var ErrNoGame = errors.New("no such game")

// Load replays game id from its log.
func Load(tx *store.Tx, id uint64) (*store.Game, *variant.Variant, variant.Game, error) {
	l, err := load(tx, id)
	if err != nil {
		return nil, nil, nil, err
	}
	return l.sg, l.v, l.g, nil
}

// loaded is a game rebuilt from its log, with when it began to wait for each player and,
// for a game with a time control, its clock.
type loaded struct {
	sg     *store.Game
	v      *variant.Variant
	g      variant.Game
	events uint64       // log length
	since  [2]time.Time // when the game began to wait for each side; zero if it does not
	// stops are the spans in which the game's clocks stand still (leave, pauses); extended
	// the days the organizer gave each side, each with its time.
	stops    []tournament.Stop
	extended []store.Event
	clock    *tournament.Clock // nil: no time control, the simple deadline (rules.md 0.4a)
	// takeback is the side whose takeback offer stands, -1 for none; turnFrom is, for each
	// side, the index in the game's log of the first command of his last turn.
	takeback int
	turnFrom [2]int
	// asked is, for each side, 1 + the number of commands logged before his last takeback
	// request (0: none): one request a turn.
	asked    [2]int
	commands int // commands logged, taken back or not
}

// waitsFor reports whether g waits for s alone. While a simultaneous game waits for both
// players no clock runs; once one has chosen, the game waits for the other alone and his clock
// runs from that moment (rules.md 0.4a).
func waitsFor(g variant.Game, s chess.Color) bool {
	act := g.ToAct()
	return len(act) == 1 && act[0] == s && !g.Outcome().Over()
}

// load replays game id from its log once, noting when each wait began: the time of the
// logged command after which the game began to wait for the player, or the game's creation.
// Only the game's own turn changes count: a private query or a C-move statement does not
// restart a clock, so the timing of a reminder tells a player nothing he may not know. A
// game with a time control has its clock worked out on the way: a side's clock runs while
// the game waits for him alone, and each turn he completes is one move of his.
func load(tx *store.Tx, id uint64) (*loaded, error) {
	sg, err := tx.Game(id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("game %d: %w", id, ErrNoGame)
	}
	if err != nil {
		return nil, err
	}
	v, err := variant.Lookup(sg.Variant)
	if err != nil {
		return nil, fmt.Errorf("referee: game %d: %w", id, err)
	}
	all, err := tx.Events(id)
	if err != nil {
		return nil, err
	}
	l := &loaded{sg: sg, v: v, events: uint64(len(all)), takeback: -1}
	events := store.Effective(all)
	commands := 0
	for _, e := range all {
		switch {
		case e.Kind == store.EventExtend:
			l.extended = append(l.extended, e)
		case e.Kind == store.EventTakeback && e.Text == takebackOffer:
			l.takeback = e.Side
			l.asked[e.Side&1] = commands + 1
		case e.Kind == store.EventTakeback || e.IsCommand():
			l.takeback = -1 // answered, withdrawn, or lapsed with the game going on
		}
		if e.IsCommand() {
			commands++
		}
	}
	l.commands = commands
	if l.stops, err = stopsOf(tx, sg); err != nil {
		return nil, err
	}
	if tc, ok := timeControlOf(sg); ok {
		l.clock = tournament.NewClock(tc, l.stops)
		for _, e := range l.extended {
			l.clock.Extra[e.Side] += e.Days
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
				now[s] = waitsFor(g, chess.Color(s))
				if !now[s] {
					if was[s] && l.clock != nil {
						l.clock.Stop(s, at)
					}
					l.since[s] = time.Time{}
				}
				in := slices.Contains(act, chess.Color(s))
				if acting[s] && !in && !g.Outcome().Over() && l.clock != nil {
					l.clock.Moved(s)
				}
				acting[s] = in
			}
			for s := range was {
				if now[s] && !was[s] {
					l.turnFrom[s] = i + 1
					l.since[s] = at
					if l.clock != nil {
						l.clock.Start(s, at)
					}
				}
				was[s] = now[s]
			}
			return nil
		}})
	if err != nil {
		return nil, fmt.Errorf("referee: game %d: start: %w", id, err)
	}
	if fail != nil {
		return nil, fmt.Errorf("referee: game %d: log does not replay: %w", id, fail)
	}
	l.g = g
	return l, nil
}
