// Package tournament is the arithmetic of a round-robin section, as correspondence chess runs
// it: pairings from the Berger tables, colours balanced, a double round (each pair plays both
// colours), withdrawals, standings with their tiebreaks and the crosstable a player reads.
//
// Everything here is a pure function of a Section: the players in table order, the games with
// their results as the store holds them, and who withdrew. Nothing here reads the store, the
// clock or the mail; the referee builds a Section inside its transaction and asks.
package tournament

import "fmt"

// MinPlayers and MaxPlayers bound a section: the published Berger tables go to 20 players.
const (
	MinPlayers = 3
	MaxPlayers = 20
)

// Pairing is one game of a round: indices into the section's players, White first.
type Pairing struct {
	White, Black int
}

// Round is one round of a schedule: its games and, with an odd number of players, the player
// who sits out (Bye is -1 when nobody does).
type Round struct {
	Number int // from 1
	Games  []Pairing
	Bye    int
}

// Berger returns the rounds of a single round robin for n players (MinPlayers..MaxPlayers),
// as the FIDE Handbook's Berger tables give them: with n even, player n keeps the first board
// and alternates colours; the others turn round the table, n/2 places a round. With n odd,
// the table for n+1 is used and player n+1 is the bye. Players are 0-based here: the tables'
// player 1 is index 0.
func Berger(n int) ([]Round, error) {
	if n < MinPlayers || n > MaxPlayers {
		return nil, fmt.Errorf("a section has %d to %d players, not %d", MinPlayers, MaxPlayers, n)
	}
	m := n
	if m%2 == 1 {
		m++
	}
	last := m - 1 // the fixed player, 0-based
	rounds := make([]Round, 0, m-1)
	for r := 0; r < m-1; r++ {
		// a is the player who meets the fixed one; the others meet a+k against a-k.
		a := (r * m / 2) % (m - 1)
		round := Round{Number: r + 1, Bye: -1}
		first := Pairing{White: a, Black: last}
		if r%2 == 1 {
			first = Pairing{White: last, Black: a}
		}
		pairs := []Pairing{first}
		for k := 1; k < m/2; k++ {
			pairs = append(pairs, Pairing{White: (a + k) % (m - 1), Black: (a - k + m - 1) % (m - 1)})
		}
		for _, p := range pairs {
			switch {
			case m != n && p.White == last:
				round.Bye = p.Black
			case m != n && p.Black == last:
				round.Bye = p.White
			default:
				round.Games = append(round.Games, p)
			}
		}
		rounds = append(rounds, round)
	}
	return rounds, nil
}

// Schedule returns every round of a section of n players. A double round robin plays the
// Berger table twice, the second time with colours reversed; as the Handbook recommends, the
// last two rounds of the first cycle are swapped, so nobody gets the same colour three rounds
// running at the turn.
func Schedule(n int, double bool) ([]Round, error) {
	single, err := Berger(n)
	if err != nil {
		return nil, err
	}
	if !double {
		return single, nil
	}
	first := append([]Round(nil), single...)
	k := len(first)
	first[k-2], first[k-1] = first[k-1], first[k-2]
	var out []Round
	for i, r := range first {
		r.Number = i + 1
		out = append(out, r)
	}
	for i, r := range single {
		rev := Round{Number: k + i + 1, Bye: r.Bye}
		for _, p := range r.Games {
			rev.Games = append(rev.Games, Pairing{White: p.Black, Black: p.White})
		}
		out = append(out, rev)
	}
	return out, nil
}
