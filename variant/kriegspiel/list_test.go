package kriegspiel

import (
	"reflect"
	"strings"
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/variant"
	"github.com/refereed/refereed/variant/varianttest"
)

// The attempt-list parser (KR-D9, PK-D6): what people write between attempts, and what it
// refuses.
func TestParseList(t *testing.T) {
	for _, c := range []struct {
		in     string
		items  string // the items' texts, space-separated ("any" for Any?)
		nostop bool
		err    string
	}{
		{in: "e4", items: "e4"},
		{in: "MOVE e2-e4", items: "e2-e4"},
		{in: "try exf5; else e5; else Nf3", items: "exf5 e5 Nf3"},
		{in: "exf5, e5 or Nf3", items: "exf5 e5 Nf3"},
		{in: "Any?, exf5", items: "any exf5"},
		{in: "ANY?", items: "any"},
		{in: `"Any?"`, items: "any"},
		{in: "NOSTOP e4, d4, Nf3", items: "e4 d4 Nf3", nostop: true},
		{in: "SERIES 3: e4, d4, Nf3", items: "e4 d4 Nf3"},
		{in: "3: e4 d4", items: "e4 d4"},
		{in: "e8 (Q)", items: "e8(Q)"},
		{in: "e7-e8 =N", items: "e7-e8=N"},
		{in: "exd6 e.p.", items: "exd6e.p."},
		{in: "Nf3 +", items: "Nf3+"},
		{in: "12. e4", items: "e4"},
		{in: "12.e4 3...Nf6", items: "e4 Nf6"},
		{in: "000, 00", err: "no attempt"},                // numbers, as in "SERIES 3:"
		{in: "000!!!!!!!!!!!!", items: "000!!!!!!!!!!!!"}, // kept as written: O-O-O and its marks would not fit
		{in: "0-0-0 +, 00+", items: "0-0-0+ 00+"},
		{in: "", err: "no attempt"},
		{in: "try; else", err: "no attempt"},
		{in: "hello", err: "send a move like e2e4"},
		{in: "e4 NOSTOP", err: "NOSTOP comes before"},
		{in: "(Q)", err: "belongs to a move"},
		{in: "Any? (Q)", err: "belongs to a move"},
		{in: strings.Repeat("e4 ", MaxAttempts+1), err: "more than 200 attempts"},
	} {
		l, err := parseList(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: %v, want an error with %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		var got []string
		for _, it := range l.items {
			got = append(got, it.text)
		}
		if strings.Join(got, " ") != c.items || l.nostop != c.nostop {
			t.Errorf("%q: %q nostop %v, want %q nostop %v", c.in, got, l.nostop, c.items, c.nostop)
		}
	}
}

// FuzzAttemptList: any line is read into a list or refused, never a panic; a list read is
// bounded, its canonical form reads back to the same list, and every attempt in it is a
// move's notation. Given to both games, the line is played or refused, and a refusal changes
// nothing.
func FuzzAttemptList(f *testing.F) {
	for _, s := range []string{"e4", "try exf5; else e5; else Nf3", "Any?, exf5, e5", "NOSTOP e4, d4, Nf3", "SERIES 3: e4, d4",
		"e8 (Q)", "exd6 e.p.", "12.e4", "O-O; O-O-O", "Ng1-f3 or Nb1-c3", "e7e8q, e7e8=N", "any? nostop", "Bf1-g3, Nf3", "(Q)", ";;,,", "\u00a0e4"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		l, err := parseList(text)
		if err != nil {
			return
		}
		if len(l.items) == 0 || len(l.items) > MaxAttempts {
			t.Fatalf("%q: %d items", text, len(l.items))
		}
		again, err := parseList(l.String())
		if err != nil || !reflect.DeepEqual(again, l) {
			t.Fatalf("%q: the canonical %q reads back as %+v (%v), not %+v", text, l.String(), again, err, l)
		}
		for _, it := range l.items {
			if it.any {
				continue
			}
			if n, err := chess.ParseNotation(it.text); err != nil || n != it.n || strings.ContainsAny(it.text, " \t,;") {
				t.Fatalf("%q: item %q: %v", text, it.text, err)
			}
		}
		for _, rules := range []*Rules{Kriegspiel, Progressive} {
			g, _ := New(variant.Options{}, rules)
			for _, m := range []string{"e4", "d5"} {
				varianttest.Send(t, g, g.pos.Turn, m)
			}
			before := varianttest.Snapshot(g)
			cmd, _, err := g.Resolve(g.pos.Turn, text)
			if err == nil {
				_, err = g.Submit(cmd)
			}
			switch {
			case err != nil && !variant.IsRejection(err):
				t.Fatalf("%q: %v", text, err)
			case err != nil && varianttest.Snapshot(g) != before:
				t.Fatalf("%q: refused (%v) but the game changed", text, err)
			}
		}
	})
}
