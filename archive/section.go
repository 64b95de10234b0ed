package archive

import (
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/tournament"
)

// WithdrawnReason is the Reason of a game ended by a player's withdrawal from its tournament:
// the standings score such a game by the tournament's rule, not by its stored result.
const WithdrawnReason = "withdrawal from the tournament"

// Section is tournament t as package tournament counts it: each game's result as it stands.
func Section(tx store.Games, t *store.Tournament) (tournament.Section, error) {
	s := tournament.Section{Players: t.Players, Double: t.Double, Rule: t.WithdrawRule}
	for _, w := range t.Withdrawn {
		s.Withdrawn = append(s.Withdrawn, w.Player)
	}
	if len(t.Replacements) > 0 {
		s.For = make([]string, len(t.Players))
		for _, rp := range t.Replacements {
			if rp.Seat >= 0 && rp.Seat < len(s.For) {
				s.For[rp.Seat] = join(s.For[rp.Seat], rp.Old)
			}
		}
	}
	for _, rd := range t.Rounds {
		for _, tg := range rd.Games {
			sg, err := tx.Game(tg.Game)
			if err != nil {
				return s, err
			}
			res := tournament.Pending
			if sg.Over() && sg.Reason != WithdrawnReason {
				res = sg.Result
			}
			s.Games = append(s.Games, tournament.Game{Round: rd.Number, White: tg.White, Black: tg.Black, Result: res})
		}
	}
	return s, nil
}

// join adds b to the list a ("dee, eve").
func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + ", " + b
}
