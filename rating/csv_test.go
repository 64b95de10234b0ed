package rating

import (
	"bytes"
	"strings"
	"testing"
)

func TestCSVRoundTrip(t *testing.T) {
	list := []Standing{
		{Key{"ann@x", "progressive"}, Rating{1612.345, 87.5, 0.0599871}, 12},
		{Key{"bob, jr", "progressive"}, Rating{1400, 350, 0.06}, 0},
	}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, list); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(buf.String(), "player,variant,rating,rd,volatility,games\n") {
		t.Fatalf("header: %q", buf.String())
	}
	got, err := ReadCSV(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if r := got[Key{"ann@x", "progressive"}]; r != (Rating{1612.35, 87.5, 0.059987}) {
		t.Fatalf("ann: %v", r)
	}
	if r := got[Key{"bob, jr", "progressive"}]; r != (Rating{1400, 350, 0.06}) {
		t.Fatalf("bob: %v", r)
	}
}

func TestCSVErrors(t *testing.T) {
	for in, want := range map[string]string{
		"":                        "empty",
		"player,variant,rating\n": `no column "rd"`,
		"player,variant,rating,rd,volatility\nann,x,1500,0,0.06\n":            `line 2: rd "0"`,
		"player,variant,rating,rd,volatility\nann,x,abc,50,0.06\n":            `line 2: rating "abc"`,
		"player,variant,rating,rd,volatility\nann,x,1500,50\n":                "line 2: no volatility",
		"player,variant,rating,rd,volatility\nann,x,1,50,.1\nann,x,2,50,.1\n": "line 3: ann has a rating in x already",
		"player,variant,rating,rd,volatility\n,x,1500,50,0.06\n":              "needs a player",
		"player,variant,rating,rd,volatility\n\"ann,x,1500,50,0.06\n":         "line 2",
	} {
		_, err := ReadCSV(strings.NewReader(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
	// Columns in another order, spaces, an empty line, a column more: read.
	got, err := ReadCSV(strings.NewReader("Variant, Player, RD, Rating, Volatility, club\n\nx, ann, 60, 1720.5, 0.05, c\n"))
	if err != nil || got[Key{"ann", "x"}] != (Rating{1720.5, 60, 0.05}) {
		t.Fatalf("%v %v", got, err)
	}
}

// FuzzReadCSV: any input gives a list or an error, never a panic, and every rating read is
// one the system can rate with.
func FuzzReadCSV(f *testing.F) {
	f.Add("player,variant,rating,rd,volatility\nann,x,1500,350,0.06\n")
	f.Add("player,variant,rating,rd,volatility,games\n\"a\"\"b\",y,1e3,1,1,3\n")
	f.Add("\ufeffplayer;variant\n")
	f.Fuzz(func(t *testing.T, in string) {
		got, err := ReadCSV(strings.NewReader(in))
		if err != nil {
			return
		}
		for k, r := range got {
			if k.Player == "" || k.Game == "" || !(r.RD >= 1 && r.RD <= InitialRD) || !(r.Vol > 0 && r.Vol <= 1) || r.Rating != r.Rating {
				t.Fatalf("%v: %v", k, r)
			}
			after := Config{}.Update(r, []Result{{New(), 1}})
			if after.Rating != after.Rating || after.RD != after.RD || after.Vol != after.Vol {
				t.Fatalf("%v rates to %v", r, after)
			}
		}
	})
}
