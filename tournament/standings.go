package tournament

import (
	"fmt"
	"sort"
)

// Results a game of a section may hold. A result from the board ("1-0", "0-1", "1/2-1/2") is
// what the game's log ended in; the forfeits ("+/-", "-/+") and NotPlayed are what a
// withdrawal makes of a game; "" is a game still going.
const (
	WhiteWins       = "1-0"
	BlackWins       = "0-1"
	Drawn           = "1/2-1/2"
	WhiteByForfeit  = "+/-"
	BlackByForfeit  = "-/+"
	NotPlayed       = "x"
	Pending         = ""
	WithdrawHalf    = "half"
	WithdrawForfeit = "forfeit"
)

// Game is one game of a section, as the store holds it.
type Game struct {
	Round        int // from 1
	White, Black int // indices into Section.Players
	Result       string
}

// Section is a round robin as far as it has gone: the players in table order, every game
// scheduled, the players who withdrew (in the order they did) and what a withdrawal does to
// their games (WithdrawForfeit: his unfinished games are lost by forfeit; WithdrawHalf: the
// same, unless he finished fewer than half of his games, in which case none of them counts).
type Section struct {
	Players   []string
	Double    bool
	Games     []Game
	Withdrawn []int
	Rule      string
	// For, when set, names per seat the players the seat's present one replaced ("dee"):
	// a seat's row holds all its games, its present player's and those finished before he
	// took over, and is shown "hal (for dee)".
	For []string
}

// Name is how seat p is shown: its player, and whom he replaced.
func (s Section) Name(p int) string {
	if p < len(s.For) && s.For[p] != "" {
		return s.Players[p] + " (for " + s.For[p] + ")"
	}
	return s.Players[p]
}

// Place is how standing i of st is placed: "3", or the span of a place nothing separates
// ("2-4") once any game has a result.
func Place(st []Standing, i int) string {
	scored := false
	for _, x := range st {
		scored = scored || x.Games > 0
	}
	x := st[i]
	if !scored || !(i > 0 && st[i-1].Rank == x.Rank || i+1 < len(st) && st[i+1].Rank == x.Rank) {
		return fmt.Sprint(i + 1)
	}
	last := i + 1
	for last < len(st) && st[last].Rank == x.Rank {
		last++
	}
	return fmt.Sprintf("%d-%d", x.Rank, last)
}

// Standing is one player's line of the standings. Points and the tiebreaks are counted in
// halves (Points2: 3 is 1½ points) and quarters (SB4), so that ties are exact.
type Standing struct {
	Player  int // index into Section.Players
	Rank    int // from 1; players no tiebreak separates share a rank
	Points2 int // points ×2
	SB4     int // Sonneborn-Berger ×4
	Wins    int // games won, forfeits included
	Games   int // games scored (finished or forfeited)
	Out     bool
}

// Points is the player's score as it is written: "2", "1.5".
func (s Standing) Points() string { return half(s.Points2) }

// SB is the Sonneborn-Berger score as it is written: "3.25".
func (s Standing) SB() string {
	if s.SB4%4 == 0 {
		return fmt.Sprint(s.SB4 / 4)
	}
	return fmt.Sprintf("%d.%02d", s.SB4/4, s.SB4%4*25)
}

func half(n int) string {
	if n%2 == 0 {
		return fmt.Sprint(n / 2)
	}
	return fmt.Sprintf("%d.5", n/2)
}

// score is what a result gives White and Black, in halves, and whether it counts at all.
func score(result string) (w, b int, counts bool) {
	switch result {
	case WhiteWins, WhiteByForfeit:
		return 2, 0, true
	case BlackWins, BlackByForfeit:
		return 0, 2, true
	case Drawn:
		return 1, 1, true
	}
	return 0, 0, false
}

// played reports whether a result came from the board.
func played(result string) bool {
	return result == WhiteWins || result == BlackWins || result == Drawn
}

// Scored returns the section's games with the withdrawals applied: what each game counts as
// in the standings.
func (s Section) Scored() []Game {
	out := append([]Game(nil), s.Games...)
	for _, p := range s.Withdrawn {
		total, done := 0, 0
		for _, g := range out {
			if g.White == p || g.Black == p {
				total++
				if played(g.Result) {
					done++
				}
			}
		}
		annul := s.Rule == WithdrawHalf && 2*done < total
		for i, g := range out {
			if g.White != p && g.Black != p {
				continue
			}
			switch {
			case annul:
				out[i].Result = NotPlayed
			case g.Result == Pending && g.White == p:
				out[i].Result = BlackByForfeit
			case g.Result == Pending:
				out[i].Result = WhiteByForfeit
			}
		}
	}
	return out
}

// Standings orders the players: by points, then Sonneborn-Berger (the points of each opponent
// beaten, and half those of each drawn), then the number of games won, then the points scored
// in the games among the players still tied (direct encounter). Players equal on all four
// share a rank, and keep their table order. A player who withdrew comes after all who did
// not, whatever his score.
func (s Section) Standings() []Standing {
	n := len(s.Players)
	games := s.Scored()
	st := make([]Standing, n)
	for i := range st {
		st[i].Player = i
	}
	for _, p := range s.Withdrawn {
		if p >= 0 && p < n {
			st[p].Out = true
		}
	}
	for _, g := range games {
		w, b, ok := score(g.Result)
		if !ok {
			continue
		}
		st[g.White].Points2 += w
		st[g.Black].Points2 += b
		st[g.White].Games++
		st[g.Black].Games++
		if w == 2 {
			st[g.White].Wins++
		}
		if b == 2 {
			st[g.Black].Wins++
		}
	}
	for _, g := range games {
		w, b, ok := score(g.Result)
		if !ok {
			continue
		}
		st[g.White].SB4 += w * st[g.Black].Points2
		st[g.Black].SB4 += b * st[g.White].Points2
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	key := func(i int) [4]int {
		in := 1
		if st[i].Out {
			in = 0
		}
		return [4]int{in, st[i].Points2, st[i].SB4, st[i].Wins}
	}
	sort.SliceStable(order, func(a, b int) bool {
		ka, kb := key(order[a]), key(order[b])
		for k := range ka {
			if ka[k] != kb[k] {
				return ka[k] > kb[k]
			}
		}
		return false
	})
	// Direct encounter, within each run of players equal on the rest.
	de := make([]int, n)
	for lo := 0; lo < n; {
		hi := lo + 1
		for hi < n && key(order[hi]) == key(order[lo]) {
			hi++
		}
		if hi-lo > 1 {
			group := map[int]bool{}
			for _, p := range order[lo:hi] {
				group[p] = true
			}
			for _, g := range games {
				if w, b, ok := score(g.Result); ok && group[g.White] && group[g.Black] {
					de[g.White] += w
					de[g.Black] += b
				}
			}
			run := order[lo:hi]
			sort.SliceStable(run, func(a, b int) bool { return de[run[a]] > de[run[b]] })
		}
		lo = hi
	}
	out := make([]Standing, n)
	for pos, p := range order {
		out[pos] = st[p]
		out[pos].Rank = pos + 1
		if pos > 0 {
			q := order[pos-1]
			if key(p) == key(q) && de[p] == de[q] {
				out[pos].Rank = out[pos-1].Rank
			}
		}
	}
	return out
}

// Over reports whether every game of the section has a result in the standings.
func (s Section) Over() bool {
	for _, g := range s.Scored() {
		if g.Result == Pending {
			return false
		}
	}
	return true
}
