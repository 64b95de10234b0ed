package tournament

import (
	"fmt"
	"strings"
)

// Width is the most columns a crosstable line takes, so that it survives any mail reader.
const Width = 72

// Crosstable writes the standings as a table of at most Width columns: one row per player in
// standing order, one column per opponent in the same order (headed by the last digit of the
// row number), then points, Sonneborn-Berger and wins. A cell reads from the row player's
// side: 1 won, 0 lost, = drawn, + won by forfeit, - lost by forfeit, x not played (annulled
// after a withdrawal), . still going, * himself. A double round robin has two lines per
// player, one per cycle, the second named "cycle 2". A place shared after every tiebreak is written as the span of rows
// it covers ("2-4") on each of them, once any game has a result; a player who withdrew has
// "(w)" after his name, one who took over a seat "(for dee)". Names are abbreviated to fit.
func (s Section) Crosstable() string {
	st := s.Standings()
	n := len(st)
	pos := make(map[int]int, n) // player -> row
	for i, x := range st {
		pos[x.Player] = i
	}
	cycles := 1
	if s.Double {
		cycles = 2
	}
	// cells[cycle][row][col]
	cells := make([][][]byte, cycles)
	for c := range cells {
		cells[c] = make([][]byte, n)
		for r := range cells[c] {
			cells[c][r] = []byte(strings.Repeat(" ", n))
			cells[c][r][r] = '*'
		}
	}
	rounds := 0
	for _, g := range s.Games {
		rounds = max(rounds, g.Round)
	}
	for _, g := range s.Scored() {
		c := 0
		if s.Double && g.Round > rounds/2 { // the second cycle
			c = 1
		}
		w, b := pos[g.White], pos[g.Black]
		cw, cb := cell(g.Result)
		cells[c][w][b], cells[c][b][w] = cw, cb
	}
	const totals = " %5s %7s %3s"
	fixed := 5 + 1 + 1 + 2*n + len(fmt.Sprintf(totals, "", "", ""))
	nameW := min(20, Width-fixed)
	var b strings.Builder
	var head strings.Builder
	for i := range n {
		fmt.Fprintf(&head, "%d ", (i+1)%10)
	}
	line := func(s string) { b.WriteString(strings.TrimRight(s, " ") + "\n") }
	line(fmt.Sprintf("%5s %-*s %s"+totals, "#", nameW, "Player", head.String(), "Pts", "SB", "W"))
	for r, x := range st {
		place := Place(st, r)
		name := localPart(s.Players[x.Player])
		if p := x.Player; p < len(s.For) && s.For[p] != "" {
			var was []string
			for _, a := range strings.Split(s.For[p], ", ") {
				was = append(was, localPart(a))
			}
			name += " (for " + strings.Join(was, ", ") + ")"
		}
		if x.Out {
			name = abbreviate(name, nameW-4) + " (w)"
		}
		for c := range cycles {
			var row strings.Builder
			for _, ch := range cells[c][r] {
				row.WriteByte(ch)
				row.WriteByte(' ')
			}
			if c == 0 {
				line(fmt.Sprintf("%5s %-*s %s"+totals, place, nameW, abbreviate(name, nameW), row.String(), x.Points(), x.SB(), fmt.Sprint(x.Wins)))
			} else {
				line(fmt.Sprintf("%5s %-*s %s", "", nameW, abbreviate("cycle 2", nameW), row.String()))
			}
		}
	}
	return b.String()
}

// cell is how a result is written in White's row and in Black's.
func cell(result string) (w, b byte) {
	switch result {
	case WhiteWins:
		return '1', '0'
	case BlackWins:
		return '0', '1'
	case Drawn:
		return '=', '='
	case WhiteByForfeit:
		return '+', '-'
	case BlackByForfeit:
		return '-', '+'
	case NotPlayed:
		return 'x', 'x'
	}
	return '.', '.'
}

// localPart is an address's part before @ (a name as it is).
func localPart(name string) string {
	if at := strings.IndexByte(name, '@'); at > 0 {
		return name[:at]
	}
	return name
}

// abbreviate cuts a name (an address: its part before @) to at most w characters, marking a
// cut with a final ".".
func abbreviate(name string, w int) string {
	name = localPart(name)
	r := []rune(name)
	if len(r) <= w {
		return name
	}
	if w < 2 {
		return string(r[:max(w, 0)])
	}
	return string(r[:w-1]) + "."
}
