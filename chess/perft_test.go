package chess

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

type perftCase struct {
	id     string
	fen    string
	depths map[int]uint64
}

// loadPerft reads testdata/perft.txt: "id; fen; depth=nodes ...", # comments.
func loadPerft(t testing.TB) []perftCase {
	f, err := os.Open("testdata/perft.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []perftCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		parts := strings.Split(line, ";")
		if len(parts) != 3 {
			t.Fatalf("bad perft line %q", line)
		}
		c := perftCase{id: strings.TrimSpace(parts[0]), fen: strings.TrimSpace(parts[1]), depths: map[int]uint64{}}
		for _, dn := range strings.Fields(parts[2]) {
			d, n, _ := strings.Cut(dn, "=")
			di, err1 := strconv.Atoi(d)
			ni, err2 := strconv.ParseUint(n, 10, 64)
			if err1 != nil || err2 != nil {
				t.Fatalf("bad depth %q in %q", dn, line)
			}
			c.depths[di] = ni
		}
		out = append(out, c)
	}
	return out
}

func TestPerft(t *testing.T) {
	for _, c := range loadPerft(t) {
		t.Run(c.id, func(t *testing.T) {
			t.Parallel()
			p, err := ParseFEN(c.fen)
			if err != nil {
				t.Fatal(err)
			}
			for d, want := range c.depths {
				if testing.Short() && want > 100000 {
					continue
				}
				if got := p.Perft(d); got != want {
					t.Errorf("perft(%d) = %d, want %d", d, got, want)
				}
			}
		})
	}
}

// walkSuite calls f on every position of the perft suite and on the positions up to depth
// plies below them.
func walkSuite(t *testing.T, depth int, f func(id string, p *Position)) {
	for _, c := range loadPerft(t) {
		p, err := ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		var walk func(p *Position, d int)
		walk = func(p *Position, d int) {
			f(c.id, p)
			if d == 0 {
				return
			}
			for _, m := range p.LegalMoves(nil) {
				q := *p
				q.Play(m)
				walk(&q, d-1)
			}
		}
		walk(&p, depth)
	}
}

// TestGenerateAgreesWithLegalMoves checks the general generator (orthodox rules) against the
// fast path on every position of the perft suite to depth 2.
func TestGenerateAgreesWithLegalMoves(t *testing.T) {
	walkSuite(t, 2, func(id string, p *Position) {
		fast := p.LegalMoves(nil)
		slow := p.Generate(nil, MoveRules{Color: p.Turn})
		if !sameMoves(fast, slow) {
			t.Fatalf("%s %s: LegalMoves %v, Generate %v", id, p.FEN(), fast, slow)
		}
	})
}

func sameMoves(a, b []Move) bool {
	if len(a) != len(b) {
		return false
	}
	set := map[Move]int{}
	for _, m := range a {
		set[m]++
	}
	for _, m := range b {
		set[m]--
	}
	for _, n := range set {
		if n != 0 {
			return false
		}
	}
	return true
}
