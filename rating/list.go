package rating

import (
	"cmp"
	"slices"
)

// Key names a rating: a player's, in one game (see the package doc for what a game key is).
type Key struct {
	Player string
	Game   string
}

// Standing is one rating of a list, with the rated games behind it.
type Standing struct {
	Key
	Rating
	Games int
}

// List rates many players through rating periods: Add puts a game into the current period,
// Close rates the period and opens the next; or, where each game is its own period, Game
// rates one game at once, the RD grown by the days since each player's last game. A player
// unknown to the list starts as New, or as Set says.
type List struct {
	Config
	entries map[Key]*entry
	period  int              // the current period's index
	pending map[Key][]Result // the current period's games, per player
}

type entry struct {
	Rating
	games int
	at    int     // the last period whose end rated him; the one before his first, if none
	day   float64 // the day of his last game (where each game is its period); -1: none
}

// NewList is an empty list; the first period is number 0.
func NewList(c Config) *List {
	return &List{Config: c, entries: map[Key]*entry{}, pending: map[Key][]Result{}}
}

// Set gives k the rating r before any period (an earlier list's).
func (l *List) Set(k Key, r Rating) {
	l.entries[k] = &entry{Rating: r, at: -1, day: -1}
}

func (l *List) get(k Key) *entry {
	e := l.entries[k]
	if e == nil {
		e = &entry{Rating: New(), at: l.period - 1, day: -1}
		l.entries[k] = e
	}
	return e
}

// now is e's rating at the start of the current period: his RD grown by the periods he sat out.
func (l *List) now(e *entry) Rating { return l.Idle(e.Rating, l.period-e.at-1) }

// Add puts a game between white and black (White's score) into the current period. Each
// side is rated against the other's rating at the start of the period.
func (l *List) Add(white, black Key, score float64) {
	w, b := l.now(l.get(white)), l.now(l.get(black))
	l.pending[white] = append(l.pending[white], Result{b, score})
	l.pending[black] = append(l.pending[black], Result{w, 1 - score})
}

// Close rates the current period and makes next (greater) the current one: the periods
// between them had no game.
func (l *List) Close(next int) {
	for k, results := range l.pending {
		e := l.entries[k]
		e.Rating = l.Update(l.now(e), results)
		e.games += len(results)
		e.at = l.period
	}
	clear(l.pending)
	l.period = max(next, l.period+1)
}

// Game rates one game as a period of its own, on day (days since any fixed day; the RD
// of each side grows first by the days since his last game).
func (l *List) Game(white, black Key, score float64, day float64) {
	we, be := l.get(white), l.get(black)
	age := func(e *entry) Rating {
		if e.day < 0 {
			return e.Rating
		}
		return l.Age(e.Rating, day-e.day)
	}
	w, b := l.Config.Game(age(we), age(be), score)
	we.Rating, be.Rating = w, b
	we.games++
	be.games++
	we.day, be.day = day, day
}

// Standings is the list as it stands after the last closed period (each RD grown by the
// periods its player sat out since his last game), by game key, then best rating first,
// then name. Players given by Set who never played are in it too.
func (l *List) Standings() []Standing {
	out := make([]Standing, 0, len(l.entries))
	for k, e := range l.entries {
		r := l.Idle(e.Rating, l.period-1-e.at)
		out = append(out, Standing{Key: k, Rating: r, Games: e.games})
	}
	slices.SortFunc(out, func(a, b Standing) int {
		return cmp.Or(cmp.Compare(a.Game, b.Game), cmp.Compare(b.Rating.Rating, a.Rating.Rating), cmp.Compare(a.Player, b.Player))
	})
	return out
}
