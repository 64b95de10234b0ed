package rating

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The worked example of Glickman's "Example of the Glicko-2 system": a player of 1500, RD
// 200, volatility 0.06 beats a 1400 (RD 30) and loses to a 1550 (RD 100) and a 1700 (RD
// 300) in one period, τ = 0.5. The paper rounds its steps to four places (μ' = -0.2069);
// carried through exactly, the rating is 1464.0507 and the volatility 0.059996, within a
// hundredth of a point and 1e-5 of what it prints.
func TestPaperExample(t *testing.T) {
	got := Config{Tau: 0.5}.Update(Rating{1500, 200, 0.06}, []Result{
		{Rating{1400, 30, 0.06}, 1},
		{Rating{1550, 100, 0.06}, 0},
		{Rating{1700, 300, 0.06}, 0},
	})
	if math.Abs(got.Rating-1464.06) > 0.01 || math.Abs(got.RD-151.52) > 0.005 || math.Abs(got.Vol-0.05999) > 0.00001 {
		t.Fatalf("got %.2f / %.2f / %.5f, want 1464.06 / 151.52 / 0.05999", got.Rating, got.RD, got.Vol)
	}
}

// The same example through a List: one period holding the three games.
func TestPaperExampleList(t *testing.T) {
	l := NewList(Config{})
	me := Key{"me", "g"}
	l.Set(me, Rating{1500, 200, 0.06})
	l.Set(Key{"a", "g"}, Rating{1400, 30, 0.06})
	l.Set(Key{"b", "g"}, Rating{1550, 100, 0.06})
	l.Set(Key{"c", "g"}, Rating{1700, 300, 0.06})
	l.Add(me, Key{"a", "g"}, 1)
	l.Add(Key{"b", "g"}, me, 1)
	l.Add(me, Key{"c", "g"}, 0)
	l.Close(1)
	for _, s := range l.Standings() {
		if s.Player == "me" {
			if math.Abs(s.Rating.Rating-1464.06) > 0.01 || math.Abs(s.RD-151.52) > 0.005 || s.Games != 3 {
				t.Fatalf("got %+v", s)
			}
			return
		}
	}
	t.Fatal("me is not in the list")
}

func near(a, b, eps float64) bool { return math.Abs(a-b) <= eps }

// What one side wins the other loses, by the same amount, when both stand alike.
func TestSymmetry(t *testing.T) {
	c := Config{}
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 200; i++ {
		a := Rating{1000 + r.Float64()*1500, 30 + r.Float64()*320, 0.04 + r.Float64()*0.04}
		b := Rating{1000 + r.Float64()*1500, 30 + r.Float64()*320, 0.04 + r.Float64()*0.04}
		for _, s := range []float64{0, 0.5, 1} {
			w1, b1 := c.Game(a, b, s)
			b2, w2 := c.Game(b, a, 1-s)
			if !near(w1.Rating, w2.Rating, 1e-9) || !near(b1.Rating, b2.Rating, 1e-9) || !near(w1.RD, w2.RD, 1e-9) || !near(w1.Vol, w2.Vol, 1e-12) {
				t.Fatalf("colours matter: %v %v %v: %v %v vs %v %v", a, b, s, w1, b1, w2, b2)
			}
		}
		// Between equals, the winner gains what the loser loses.
		w, l := c.Game(a, a, 1)
		if !near(w.Rating-a.Rating, a.Rating-l.Rating, 1e-6) || w.Rating <= a.Rating {
			t.Fatalf("%v: winner %v, loser %v", a, w, l)
		}
	}
}

// A draw between equals changes nothing but the RD (which shrinks) and, a hair, the volatility.
func TestDrawBetweenEquals(t *testing.T) {
	c := Config{}
	for _, a := range []Rating{New(), {1500, 200, 0.06}, {2100, 60, 0.05}, {1234.5, 349, 0.09}} {
		w, b := c.Game(a, a, 0.5)
		if w != b {
			t.Fatalf("%v: %v and %v differ", a, w, b)
		}
		if !near(w.Rating, a.Rating, 1e-9) {
			t.Errorf("%v: rating moved to %v", a, w.Rating)
		}
		if w.RD >= a.RD {
			t.Errorf("%v: RD %v did not shrink", a, w.RD)
		}
		if !near(w.Vol, a.Vol, 1e-4) {
			t.Errorf("%v: volatility %v", a, w.Vol)
		}
	}
}

// Within a period the order of the games does not matter.
func TestOrderIndependence(t *testing.T) {
	c := Config{Tau: 0.7}
	r := rand.New(rand.NewPCG(3, 4))
	me := Rating{1620, 120, 0.06}
	var results []Result
	for i := 0; i < 12; i++ {
		results = append(results, Result{Rating{1300 + r.Float64()*600, 40 + r.Float64()*300, 0.06}, float64(r.IntN(3)) / 2})
	}
	want := c.Update(me, results)
	for i := 0; i < 20; i++ {
		r.Shuffle(len(results), func(i, j int) { results[i], results[j] = results[j], results[i] })
		got := c.Update(me, results)
		if !near(got.Rating, want.Rating, 1e-9) || !near(got.RD, want.RD, 1e-9) || !near(got.Vol, want.Vol, 1e-12) {
			t.Fatalf("shuffled: %v, want %v", got, want)
		}
	}
	// And through a List, the period's games added in either order.
	rate := func(order []int) []Standing {
		l := NewList(c)
		games := [][3]any{{"a", "b", 1.0}, {"b", "c", 0.5}, {"c", "a", 0.0}, {"a", "d", 0.5}, {"d", "b", 1.0}}
		for _, i := range order {
			g := games[i]
			l.Add(Key{g[0].(string), "x"}, Key{g[1].(string), "x"}, g[2].(float64))
		}
		l.Close(1)
		return l.Standings()
	}
	a, b := rate([]int{0, 1, 2, 3, 4}), rate([]int{4, 2, 0, 3, 1})
	for i := range a {
		if a[i].Key != b[i].Key || !near(a[i].Rating.Rating, b[i].Rating.Rating, 1e-9) || !near(a[i].RD, b[i].RD, 1e-9) {
			t.Fatalf("order matters: %+v vs %+v", a[i], b[i])
		}
	}
}

// A player who sits periods out grows uncertain, never beyond a newcomer.
func TestInactivity(t *testing.T) {
	c := Config{}
	r := Rating{1700, 50, 0.06}
	one := c.Update(r, nil)
	if want := math.Sqrt(50*50/scale/scale+0.06*0.06) * scale; !near(one.RD, want, 1e-9) || one.Rating != r.Rating {
		t.Fatalf("one idle period: %v, want RD %v", one, want)
	}
	if got := c.Idle(r, 3); !near(got.RD, c.Idle(c.Idle(c.Idle(r, 1), 1), 1).RD, 1e-9) {
		t.Fatalf("three idle periods at once: %v", got)
	}
	if got := c.Idle(r, 100000); got.RD != InitialRD {
		t.Fatalf("RD grew to %v", got.RD)
	}
	// Where each game is a period: back to 350 after three years.
	if got := c.Age(r, 1095); !near(got.RD, InitialRD, 1e-6) {
		t.Fatalf("after 1095 days: %v", got)
	}
	if got := c.Age(r, 365); got.RD < 150 || got.RD > 250 || got.Provisional() != true {
		t.Fatalf("after a year: %v", got)
	}
	if got := c.Age(r, 30); got.Provisional() {
		t.Fatalf("after a month: %v", got)
	}
	// The list grows an idle player's RD by the periods he sat out.
	l := NewList(c)
	a, b, x, y := Key{"a", "g"}, Key{"b", "g"}, Key{"x", "g"}, Key{"y", "g"}
	l.Add(a, b, 1)
	l.Close(1)
	before := map[string]Standing{}
	for _, s := range l.Standings() {
		before[s.Player] = s
	}
	l.Add(x, y, 0)
	l.Close(5)
	for _, s := range l.Standings() {
		if s.Player == "a" && !near(s.RD, c.Idle(before["a"].Rating, 4).RD, 1e-9) {
			t.Fatalf("a after 4 idle periods: %v, want %v", s.RD, c.Idle(before["a"].Rating, 4).RD)
		}
	}
}

// List.Game is Config.Game with each side aged by the days since his last game.
func TestListGame(t *testing.T) {
	c := Config{}
	l := NewList(c)
	a, b := Key{"a", "g"}, Key{"b", "g"}
	l.Game(a, b, 1, 0)
	ra, rb := c.Game(New(), New(), 1)
	l.Game(b, a, 0.5, 40)
	rb, ra = c.Game(c.Age(rb, 40), c.Age(ra, 40), 0.5)
	for _, s := range l.Standings() {
		want := ra
		if s.Player == "b" {
			want = rb
		}
		if s.Rating != want || s.Games != 2 {
			t.Fatalf("%s: %+v, want %v", s.Player, s, want)
		}
	}
}

func TestScore(t *testing.T) {
	for res, want := range map[string]float64{"1-0": 1, "0-1": 0, "1/2-1/2": 0.5} {
		if s, ok := Score(res); !ok || s != want {
			t.Errorf("%s: %v %v", res, s, ok)
		}
	}
	for _, res := range []string{"*", "+/-", "", "x"} {
		if _, ok := Score(res); ok {
			t.Errorf("%s rated", res)
		}
	}
}
