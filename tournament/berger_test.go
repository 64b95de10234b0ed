package tournament

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// published reads testdata/berger.txt: the FIDE Handbook's tables, keyed by the even size.
func published(t *testing.T) map[int][][]Pairing {
	t.Helper()
	f, err := os.Open("testdata/berger.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	head := regexp.MustCompile(`^(\d+) or (\d+) players:$`)
	round := regexp.MustCompile(`^Rd (\d+): (.*)\.$`)
	out := map[int][][]Pairing{}
	size := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if m := head.FindStringSubmatch(line); m != nil {
			size, _ = strconv.Atoi(m[2])
			continue
		}
		m := round.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		var games []Pairing
		for _, g := range strings.Split(m[2], ", ") {
			var w, b int
			if _, err := fmt.Sscanf(g, "%d-%d", &w, &b); err != nil {
				t.Fatalf("%q: %v", line, err)
			}
			games = append(games, Pairing{White: w - 1, Black: b - 1})
		}
		out[size] = append(out[size], games)
	}
	return out
}

func TestBergerAgainstPublishedTables(t *testing.T) {
	tables := published(t)
	if len(tables) != 7 {
		t.Fatalf("read %d tables, want 7 (4 to 16 players)", len(tables))
	}
	for n := 3; n <= 16; n++ {
		even := n + n%2
		want := tables[even]
		got, err := Berger(n)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("%d players: %d rounds, want %d", n, len(got), len(want))
		}
		for r, round := range got {
			var games []Pairing
			bye := -1
			for _, p := range want[r] {
				switch {
				case n != even && p.White == even-1:
					bye = p.Black
				case n != even && p.Black == even-1:
					bye = p.White
				default:
					games = append(games, p)
				}
			}
			if fmt.Sprint(round.Games) != fmt.Sprint(games) || round.Bye != bye || round.Number != r+1 {
				t.Errorf("%d players, round %d: got %v bye %d, want %v bye %d", n, r+1, round.Games, round.Bye, games, bye)
			}
		}
	}
}

// TestScheduleProperties checks every size, those past the stored tables included: each pair
// meets once per cycle, each plays once a round (or sits out once, with an odd number),
// colours are balanced.
func TestScheduleProperties(t *testing.T) {
	for n := MinPlayers; n <= MaxPlayers; n++ {
		for _, double := range []bool{false, true} {
			rounds, err := Schedule(n, double)
			if err != nil {
				t.Fatal(err)
			}
			cycles := 1
			if double {
				cycles = 2
			}
			m := n + n%2
			if len(rounds) != cycles*(m-1) {
				t.Fatalf("n=%d double=%v: %d rounds", n, double, len(rounds))
			}
			met := map[Pairing]int{}
			whites := make([]int, n)
			colours := make([][]byte, n)
			byes := make([]int, n)
			for i, r := range rounds {
				if r.Number != i+1 {
					t.Fatalf("n=%d: round %d numbered %d", n, i+1, r.Number)
				}
				seen := map[int]bool{}
				for _, p := range r.Games {
					if seen[p.White] || seen[p.Black] || p.White == p.Black {
						t.Fatalf("n=%d round %d: a player twice: %v", n, r.Number, r.Games)
					}
					seen[p.White], seen[p.Black] = true, true
					met[p]++
					whites[p.White]++
					colours[p.White] = append(colours[p.White], 'W')
					colours[p.Black] = append(colours[p.Black], 'B')
				}
				if r.Bye >= 0 {
					byes[r.Bye]++
					seen[r.Bye] = true
				}
				if len(seen) != n {
					t.Fatalf("n=%d round %d: %d players placed", n, r.Number, len(seen))
				}
			}
			for a := range n {
				if n%2 == 1 && byes[a] != cycles {
					t.Errorf("n=%d double=%v: player %d sits out %d times", n, double, a+1, byes[a])
				}
				for b := range n {
					if a == b {
						continue
					}
					if double && (met[Pairing{a, b}] != 1 || met[Pairing{b, a}] != 1) {
						t.Errorf("n=%d double: %d-%d met %d and %d times", n, a+1, b+1, met[Pairing{a, b}], met[Pairing{b, a}])
					}
					if !double && met[Pairing{a, b}]+met[Pairing{b, a}] != 1 {
						t.Errorf("n=%d: %d and %d met %d times", n, a+1, b+1, met[Pairing{a, b}]+met[Pairing{b, a}])
					}
				}
				games := len(colours[a])
				if double && 2*whites[a] != games {
					t.Errorf("n=%d double: player %d has %d whites in %d games", n, a+1, whites[a], games)
				}
				if !double && (2*whites[a] < games-1 || 2*whites[a] > games+1) {
					t.Errorf("n=%d: player %d has %d whites in %d games", n, a+1, whites[a], games)
				}
				if strings.Contains(string(colours[a]), "WWW") || strings.Contains(string(colours[a]), "BBB") {
					t.Errorf("n=%d double=%v: player %d plays %s", n, double, a+1, colours[a])
				}
			}
		}
	}
}

func TestBergerSizes(t *testing.T) {
	for _, n := range []int{0, 2, 21} {
		if _, err := Berger(n); err == nil {
			t.Errorf("Berger(%d): no error", n)
		}
	}
}
