package clock

import (
	"strings"
	"testing"
	"time"
)

func TestParseTimeControl(t *testing.T) {
	for _, c := range []struct {
		in, want, err string
		allow         [3]int // Allowance(0), (1), (10)
	}{
		{in: "30d+3d", want: "30d+3d", allow: [3]int{30, 33, 60}},
		{in: "30d + 3", want: "30d+3d", allow: [3]int{30, 33, 60}},
		{in: "30+0", want: "30d", allow: [3]int{30, 30, 30}},
		{in: "50d/10", want: "50d/10", allow: [3]int{50, 50, 100}},
		{in: "30D", want: "30d", allow: [3]int{30, 30, 30}},
		{in: "0d+3d", err: "at least 1 day"},
		{in: "50d/0", err: "number of moves"},
		{in: "30d+3h", err: "write days"},
		{in: "-3d", err: "write days"},
		{in: "99999d", err: "write days"},
		{in: "", err: "write days"},
	} {
		tc, err := ParseTimeControl(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || tc.String() != c.want {
			t.Errorf("%q: %v %v, want %s", c.in, tc, err, c.want)
			continue
		}
		if got := [3]int{tc.Allowance(0), tc.Allowance(1), tc.Allowance(10)}; got != c.allow {
			t.Errorf("%q: allowances %v, want %v", c.in, got, c.allow)
		}
	}
}

var t0 = time.Date(2027, 1, 1, 12, 0, 0, 0, time.UTC)

func at(days, hours int) time.Time {
	return t0.Add(time.Duration(days)*Day + time.Duration(hours)*time.Hour)
}

func TestRunningAndAfter(t *testing.T) {
	stops := []Stop{{at(2, 0), at(4, 0)}, {at(3, 0), at(5, 0)}, {at(10, 0), at(11, 0)}} // overlapping: 2..5, 10..11
	for _, c := range []struct {
		from, to time.Time
		want     time.Duration
	}{
		{at(0, 0), at(1, 0), Day},
		{at(0, 0), at(6, 0), 3 * Day},
		{at(3, 0), at(4, 0), 0},
		{at(4, 0), at(12, 0), 6 * Day},
		{at(5, 0), at(3, 0), 0},
	} {
		if got := Running(c.from, c.to, stops); got != c.want {
			t.Errorf("Running(%v, %v) = %v, want %v", c.from, c.to, got, c.want)
		}
		if c.want > 0 && c.from.Before(at(2, 0)) {
			if got := After(c.from, c.want, stops); !got.Equal(c.to) {
				t.Errorf("After(%v, %v) = %v, want %v", c.from, c.want, got, c.to)
			}
		}
	}
	if got := After(at(0, 0), 4*Day, stops); !got.Equal(at(7, 0)) {
		t.Errorf("After across a stop = %v, want day 7", got)
	}
	if got := After(at(3, 0), Day, stops); !got.Equal(at(6, 0)) {
		t.Errorf("After from inside a stop = %v, want day 6", got)
	}
}

// TestClockWholeDays: ICCF's whole days. A move within 24 hours costs nothing; after 2 days
// and 23 hours it costs 2; the flag falls a day after the last day left.
func TestClockWholeDays(t *testing.T) {
	tc, _ := ParseTimeControl("10d+1d")
	c := NewClock(tc, nil)
	c.Start(0, at(0, 0))
	if c.Left(0, at(0, 23)) != 10 || c.Charged(at(0, 23)) != 0 {
		t.Fatalf("after 23 hours: %d left", c.Left(0, at(0, 23)))
	}
	c.Stop(0, at(2, 23))
	c.Moved(0)
	if c.Used[0] != 2 || c.Left(0, at(3, 0)) != 9 { // 10 + 1 increment - 2
		t.Fatalf("after one move of 2d23h: used %d, left %d", c.Used[0], c.Left(0, at(3, 0)))
	}
	c.Start(1, at(2, 23))
	if !c.Flag().Equal(at(13, 23)) { // 10 days left: the 11th day's end
		t.Errorf("flag at %v, want %v", c.Flag(), at(13, 23))
	}
	if c.Left(1, at(12, 23)) != 0 || c.Left(1, at(13, 23)) != -1 {
		t.Errorf("left at the flag: %d, %d", c.Left(1, at(12, 23)), c.Left(1, at(13, 23)))
	}
	c.Extra[1] = 5
	if !c.Flag().Equal(at(18, 23)) {
		t.Errorf("flag with 5 days more at %v", c.Flag())
	}
}

// TestClockPerMoves: 50d/10: the 11th move brings 50 days more, and what was left is kept.
func TestClockPerMoves(t *testing.T) {
	tc, _ := ParseTimeControl("5d/2")
	c := NewClock(tc, nil)
	day := 0
	for i := 0; i < 2; i++ {
		c.Start(0, at(day, 0))
		day += 2
		c.Stop(0, at(day, 1))
		c.Moved(0)
	}
	if got := c.Left(0, at(day, 1)); got != 6 { // 10 - 4
		t.Fatalf("after the control: %d left, want 6", got)
	}
}

// TestClockStops: a leave in the middle of a move is not charged, and moves the flag.
func TestClockStops(t *testing.T) {
	tc, _ := ParseTimeControl("3d")
	c := NewClock(tc, []Stop{{at(1, 0), at(8, 0)}})
	c.Start(0, at(0, 0))
	if c.Left(0, at(7, 0)) != 2 {
		t.Errorf("during leave: %d left, want 2", c.Left(0, at(7, 0)))
	}
	if !c.Flag().Equal(at(11, 0)) {
		t.Errorf("flag at %v, want day 11", c.Flag())
	}
}

// FuzzTimeControl: any text is a time control or an error; one read writes back to itself,
// and its allowances never fall.
func FuzzTimeControl(f *testing.F) {
	for _, s := range []string{"30d+3d", "50d/10", "30d", "30 + 3", "0d", "9999999999999999999d", "5d/0", "+", "/", "d+d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tc, err := ParseTimeControl(s)
		if err != nil {
			return
		}
		again, err := ParseTimeControl(tc.String())
		if err != nil || again != tc {
			t.Fatalf("%q reads as %v, which writes %q and reads back as %v (%v)", s, tc, tc.String(), again, err)
		}
		if tc.Base < 1 || tc.Allowance(1) < tc.Allowance(0) || tc.Allowance(400) < tc.Allowance(399) {
			t.Fatalf("%q: %+v", s, tc)
		}
	})
}
