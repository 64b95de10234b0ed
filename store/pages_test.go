package store

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

// A rating list read from a point, forward from its start or back from its end a page at a
// time, each page from where its neighbour ended, is the list its pages by number give, ties
// (lines of one rating, in the order of their addresses) cut anywhere between two pages; and a
// page read back from where a page began is the page before it.
func TestRatedFrom(t *testing.T) { each(t, testRatedFrom) }

func testRatedFrom(t *testing.T, db *DB, _ string) {
	ratings := []float64{1500, 1620.25, 1500, -3, 1700, 1500, 1500, 1620.25, 2400.125, 1500, 1400, 1500, 1620.25, 0, 1500}
	if err := db.Update(func(tx *Tx) error {
		for i, r := range ratings {
			rec := &PlayerRecord{Address: fmt.Sprintf("p%02d@x", (i*7)%len(ratings)), Ratings: []PlayerRating{{Variant: "orthodox", Rating: r, RD: 80}}}
			if i%3 == 0 { // lists before and after orthodox's in the index
				rec.Ratings = append(rec.Ratings, PlayerRating{Variant: "kriegspiel", Rating: r + 1}, PlayerRating{Variant: "progressive", Rating: -r})
			}
			if err := tx.PutPlayerRecord(rec); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	var want []string
	read := func(at RatedAt, back bool, limit int) (s RatedSlice) {
		t.Helper()
		if err := db.View(func(tx *Tx) (err error) { s, err = tx.RatedFrom("orthodox", at, back, limit); return err }); err != nil {
			t.Fatal(err)
		}
		return s
	}
	names := func(s RatedSlice) (out []string) {
		for _, l := range s.Lines {
			if l.Variant != "orthodox" {
				t.Errorf("a line of %s in orthodox's list", l.Variant)
			}
			out = append(out, l.Address)
		}
		return out
	}
	if err := db.View(func(tx *Tx) error {
		lines, _, err := tx.RatedPage("orthodox", 0, 100)
		for _, l := range lines {
			want = append(want, l.Address)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if len(want) != len(ratings) {
		t.Fatalf("the list by number: %v", want)
	}
	for _, limit := range []int{1, 2, 3, 4, 5, 7, 14, 15, 100} {
		// Forward from the start.
		var got []string
		var prev *RatedSlice
		for at, n := RatedStart, 0; ; n++ {
			s := read(at, false, limit)
			if s.Start != at {
				t.Errorf("limit %d: a page from %v starts at %v", limit, at, s.Start)
			}
			got = append(got, names(s)...)
			if want := min(limit, len(ratings)-len(got)+len(s.Lines)); len(s.Lines) != want {
				t.Errorf("limit %d, page %d: %d lines, want %d", limit, n+1, len(s.Lines), want)
			}
			if prev != nil { // the page before, read back from where this one began
				// (a point has several names: before a rating's first line is after the line above)
				b := read(s.Start, true, limit)
				if !slices.Equal(names(b), names(*prev)) || b.More != (n > 1) {
					t.Errorf("limit %d: back from %v: %v (more %v), want %v", limit, s.Start, names(b), b.More, names(*prev))
				}
				if again := read(b.Start, false, limit); !slices.Equal(names(again), names(b)) {
					t.Errorf("limit %d: forward from %v, where a page read back began: %v, want %v", limit, b.Start, names(again), names(b))
				}
			}
			if !s.More {
				break
			}
			prev, at = &s, s.End
		}
		if !slices.Equal(got, want) {
			t.Errorf("limit %d, forward: %v, want %v", limit, got, want)
		}
		// Back from the end.
		got = nil
		for at := RatedEnd; ; {
			s := read(at, true, limit)
			if s.End != at {
				t.Errorf("limit %d: a page back from %v ends at %v", limit, at, s.End)
			}
			got = append(names(s), got...)
			if !s.More {
				break
			}
			// The page after, read forward from where this one ended... is the one read before.
			at = s.Start
		}
		if !slices.Equal(got, want) {
			t.Errorf("limit %d, back: %v, want %v", limit, got, want)
		}
	}
	// The point before each place, found by skipping: a page read from it begins there, and
	// the place is the point's rank.
	for place := 0; place <= len(want); place++ {
		var at RatedAt
		var rank int
		if err := db.View(func(tx *Tx) (err error) {
			if at, err = tx.RatedPlace("orthodox", place); err == nil {
				rank, err = tx.RatedRank("orthodox", at)
			}
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if rank != place {
			t.Errorf("the rank of %v: %d, want %d", at, rank, place)
		}
		if got := names(read(at, false, 3)); !slices.Equal(got, want[place:min(place+3, len(want))]) {
			t.Errorf("from place %d (%v): %v, want %v", place, at, got, want[place:min(place+3, len(want))])
		}
	}
	// Every point there could be (each rating, ties from none to past its group), both ways,
	// against the list: forward, the lines after the point; back, those before it.
	rating := map[string]float64{}
	for i, r := range ratings {
		rating[fmt.Sprintf("p%02d@x", (i*7)%len(ratings))] = r
	}
	for _, r := range []float64{2400.125, 1700, 1620.25, 1500, 1400, 0, -3, 1550} {
		above, group := 0, 0
		for _, a := range want {
			if rating[a] > r {
				above++
			} else if rating[a] == r {
				group++
			}
		}
		for ties := 0; ties <= group+9; ties++ {
			p := above + min(ties, group)
			for _, limit := range []int{1, 3, 7} {
				if got, w := read(RatedAt{Rating: r, Ties: ties}, false, limit), want[p:min(p+limit, len(want))]; !slices.Equal(names(got), w) || got.More != (p+limit < len(want)) {
					t.Errorf("forward from %v~%d, %d: %v (more %v), want %v", r, ties, limit, names(got), got.More, w)
				}
				if got, w := read(RatedAt{Rating: r, Ties: ties}, true, limit), want[max(p-limit, 0):p]; !slices.Equal(names(got), w) || got.More != (p-limit > 0) {
					t.Errorf("back from %v~%d, %d: %v (more %v), want %v", r, ties, limit, names(got), got.More, w)
				}
			}
		}
	}
	// Past the end, a point forged or left behind by a list that changed: what lies beyond it,
	// no more.
	for _, c := range []struct {
		at   RatedAt
		back bool
		want []string
	}{
		{RatedEnd, false, nil},
		{RatedStart, true, nil},
		{RatedAt{Rating: 1500, Ties: 1000}, false, want[len(want)-3:]}, // ties 1000 of 7: past them all
		{RatedAt{Rating: 1500, Ties: 1000}, true, want[len(want)-10 : len(want)-3]},
		{RatedAt{Rating: 1500, Ties: 8}, true, want[len(want)-10 : len(want)-3]}, // (a few past the 7 ties)
		{RatedAt{Rating: 1500, Ties: 10}, true, want[len(want)-10 : len(want)-3]},
		{RatedAt{Rating: 1500, Ties: 14}, true, want[len(want)-10 : len(want)-3]},
		{RatedAt{Rating: 1500, Ties: 15}, true, want[len(want)-10 : len(want)-3]},
		{RatedAt{Rating: 1500, Ties: 2}, true, want[:7]},
		{RatedAt{Rating: 1501}, false, want[5:12]},
		{RatedAt{Rating: math.MaxFloat64}, false, want[:7]},
	} {
		if got := names(read(c.at, c.back, 7)); !slices.Equal(got, c.want) {
			t.Errorf("from %v (back %v): %v, want %v", c.at, c.back, got, c.want)
		}
	}
}

// The games of a status and variant read from a game's id, older or newer, a page at a time,
// are the list its pages by number give.
func TestGameIDsFrom(t *testing.T) { each(t, testGameIDsFrom) }

func testGameIDsFrom(t *testing.T, db *DB, _ string) {
	variants := []string{"orthodox", "kriegspiel", "orthodox", "kriegspiel", "progressive", "orthodox", "kriegspiel", "orthodox", "orthodox", "kriegspiel"}
	if err := db.Update(func(tx *Tx) error {
		for i, v := range variants {
			g := &Game{Variant: v, Players: [2]Player{{Address: "w@x", Token: fmt.Sprint("tw", i)}, {Address: "b@x", Token: fmt.Sprint("tb", i)}}}
			if err := tx.CreateGame(g); err != nil {
				return err
			}
			if i%3 == 1 {
				g.Status = Over
				if err := tx.PutGame(g); err != nil {
					return err
				}
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for _, st := range []Status{"", Active, Over} {
		for _, v := range []string{"", "orthodox", "kriegspiel", "progressive", "synchronous"} {
			var want []uint64
			db.View(func(tx *Tx) (err error) { want, _, err = tx.GameIDPage(st, v, 0, 100); return err })
			from := func(id uint64, back bool, limit int) (ids []uint64, more bool) {
				t.Helper()
				if err := db.View(func(tx *Tx) (err error) { ids, more, err = tx.GameIDsFrom(st, v, id, back, limit); return err }); err != nil {
					t.Fatal(err)
				}
				return ids, more
			}
			for _, limit := range []int{1, 2, 3, 100} {
				var got []uint64
				for id := uint64(0); ; {
					ids, more := from(id, false, limit)
					got = append(got, ids...)
					if len(ids) > 0 && id != 0 { // back from this page's first: the page before
						if b, bmore := from(ids[0], true, limit); !slices.Equal(b, got[max(len(got)-len(ids)-limit, 0):len(got)-len(ids)]) || bmore != (len(got)-len(ids) > limit) {
							t.Errorf("%q %q limit %d: back from %d: %v (more %v), got so far %v", st, v, limit, ids[0], b, bmore, got)
						}
					}
					if more != (len(got) < len(want)) {
						t.Errorf("%q %q limit %d: more %v after %v of %v", st, v, limit, more, got, want)
					}
					if !more {
						break
					}
					id = ids[len(ids)-1]
				}
				if !slices.Equal(got, want) {
					t.Errorf("%q %q limit %d forward: %v, want %v", st, v, limit, got, want)
				}
				got = nil
				for id := uint64(0); ; {
					ids, more := from(id, true, limit)
					got = append(slices.Clone(ids), got...)
					if !more {
						break
					}
					id = ids[0]
				}
				if !slices.Equal(got, want) {
					t.Errorf("%q %q limit %d back: %v, want %v", st, v, limit, got, want)
				}
			}
		}
	}
}

// A rating list's version moves when its order changes (a line comes, goes or is rated anew),
// not when a line changes but its rating, nor when another game's list changes.
func TestRatedVersion(t *testing.T) { each(t, testRatedVersion) }

func testRatedVersion(t *testing.T, db *DB, _ string) {
	version := func() (v uint64) {
		t.Helper()
		if err := db.View(func(tx *Tx) (err error) { v, err = tx.RatedVersion("orthodox"); return err }); err != nil {
			t.Fatal(err)
		}
		return v
	}
	put := func(addr string, ratings ...PlayerRating) {
		t.Helper()
		if err := db.Update(func(tx *Tx) error { return tx.PutPlayerRecord(&PlayerRecord{Address: addr, Ratings: ratings}) }); err != nil {
			t.Fatal(err)
		}
	}
	orth := func(r, rd float64) PlayerRating { return PlayerRating{Variant: "orthodox", Rating: r, RD: rd} }
	last := version()
	for _, c := range []struct {
		what  string
		do    func()
		moves bool
	}{
		{"a line comes", func() { put("a@x", orth(1500, 200)) }, true},
		{"another comes", func() { put("b@x", orth(1600, 200)) }, true},
		{"a line's RD changes", func() { put("a@x", orth(1500, 150)) }, false},
		{"another game's list changes", func() { put("a@x", orth(1500, 150), PlayerRating{Variant: "kriegspiel", Rating: 1400}) }, false},
		{"a rating changes", func() { put("a@x", orth(1510, 150), PlayerRating{Variant: "kriegspiel", Rating: 1400}) }, true},
		{"a line goes", func() { put("b@x") }, true},
		{"an unrated player", func() { put("c@x") }, false},
	} {
		c.do()
		if v := version(); (v != last) != c.moves {
			t.Errorf("%s: the version %d after %d, moved: %v", c.what, v, last, c.moves)
		}
		last = version()
	}
}
