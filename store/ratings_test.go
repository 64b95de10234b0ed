package store

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/refereed/refereed/store/storetest"
	bolt "go.etcd.io/bbolt"
)

// A player's ratings ride in his record on both backends, and EachRatedPlayer lists exactly
// the players who have one.
func TestRatedPlayers(t *testing.T) { each(t, testRatedPlayers) }

func testRatedPlayers(t *testing.T, db *DB, _ string) {
	at := time.Date(2027, 1, 2, 3, 4, 5, 0, time.UTC)
	err := db.Update(func(tx *Tx) error {
		for _, rec := range []*PlayerRecord{
			{Address: "ann@x", Ratings: []PlayerRating{{Variant: "orthodox", Rating: 1612.5, RD: 80, Vol: 0.06, Games: 3, Last: at,
				History: []RatingPoint{{At: at, Game: 7, Rating: 1612.5, RD: 80}}}}},
			{Address: "bob@x", Leaves: []Leave{{From: "2027-01-01", To: "2027-01-02"}}},
			{Address: "cy@x", Ratings: []PlayerRating{{Variant: "progressive", Rating: 1400, RD: 300, Vol: 0.06, Games: 1, Last: at}}},
		} {
			if err := tx.PutPlayerRecord(rec); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	err = db.View(func(tx *Tx) error {
		rec, err := tx.PlayerRecord("ann@x")
		if err != nil {
			return err
		}
		r := rec.Rating("orthodox")
		if r == nil || r.Rating != 1612.5 || r.Games != 3 || !r.Last.Equal(at) || len(r.History) != 1 || r.History[0].Game != 7 || rec.Rating("progressive") != nil {
			t.Errorf("ann's record: %+v", rec)
		}
		return tx.EachRatedPlayer(func(rec *PlayerRecord) error {
			got = append(got, rec.Address)
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0] != "ann@x" || got[1] != "cy@x" {
		t.Fatalf("rated players: %v", got)
	}
}

// A file of schema 6 has no index of the rated players and no count of the games by status
// and variant: opening it builds them from the players' records and the games' index.
func TestRatedIndexBuiltOnOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.db")
	db := open(t, path)
	if err := db.Update(func(tx *Tx) error {
		if err := tx.CreateGame(&Game{Variant: "orthodox", Players: [2]Player{{Address: "ann@x", Token: "ta"}, {Address: "bob@x", Token: "tb"}}}); err != nil {
			return err
		}
		if err := tx.PutPlayerRecord(&PlayerRecord{Address: "bob@x"}); err != nil {
			return err
		}
		return tx.PutPlayerRecord(&PlayerRecord{Address: "ann@x", Ratings: []PlayerRating{{Variant: "orthodox", Rating: 1500, RD: 200, Vol: 0.06, Games: 1}}})
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	raw, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := raw.Update(func(tx *bolt.Tx) error {
		for _, b := range [][]byte{bRated, bRatingOrder} {
			if err := tx.DeleteBucket(b); err != nil {
				return err
			}
		}
		if err := deletePrefix(tx.Bucket(bMeta), keyStateCount); err != nil {
			return err
		}
		return tx.Bucket(bMeta).Put(keySchema, u64(6))
	}); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	db = open(t, path)
	defer db.Close()
	var got []string
	var page []RatedEntry
	if err := db.View(func(tx *Tx) (err error) {
		page, _, err = tx.RatedPage("orthodox", 0, 10)
		if err != nil {
			return err
		}
		if ids, n, err := tx.GameIDPage(Active, "orthodox", 0, 10); err != nil || n != 1 || len(ids) != 1 {
			t.Errorf("the games counted again: %v of %d, %v", ids, n, err)
		}
		return tx.EachRatedPlayer(func(rec *PlayerRecord) error { got = append(got, rec.Address); return nil })
	}); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0] != "ann@x" || len(page) != 1 || page[0].Address != "ann@x" || page[0].Rating != 1500 {
		t.Errorf("rated players after the migration: %v, the list %v", got, page)
	}
}

// A rating list is read a page at a time, best first, and a rating that changes moves in it.
func TestRatedPages(t *testing.T) { each(t, testRatedPages) }

func testRatedPages(t *testing.T, db *DB, _ string) {
	put := func(addr string, ratings ...PlayerRating) {
		t.Helper()
		if err := db.Update(func(tx *Tx) error { return tx.PutPlayerRecord(&PlayerRecord{Address: addr, Ratings: ratings}) }); err != nil {
			t.Fatal(err)
		}
	}
	orth := func(r float64) PlayerRating { return PlayerRating{Variant: "orthodox", Rating: r, RD: 100} }
	put("a@x", orth(1500), PlayerRating{Variant: "progressive", Rating: 1700})
	put("b@x", orth(1650.5))
	put("c@x", orth(1500))
	put("d@x", orth(-20))
	put("e@x", orth(2400))
	put("f@x") // not rated
	page := func(variant string, skip, limit int) ([]string, int) {
		t.Helper()
		var lines []RatedEntry
		var n int
		if err := db.View(func(tx *Tx) (err error) { lines, n, err = tx.RatedPage(variant, skip, limit); return err }); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, l := range lines {
			if l.Variant != variant || l.History != nil {
				t.Errorf("a line of %s: %+v", variant, l)
			}
			out = append(out, l.Address)
		}
		return out, n
	}
	if got, n := page("orthodox", 0, 10); n != 5 || !slices.Equal(got, []string{"e@x", "b@x", "a@x", "c@x", "d@x"}) {
		t.Errorf("orthodox: %v of %d", got, n)
	}
	if got, n := page("orthodox", 1, 2); n != 5 || !slices.Equal(got, []string{"b@x", "a@x"}) {
		t.Errorf("orthodox, second and third: %v of %d", got, n)
	}
	if err := db.View(func(tx *Tx) error {
		lines, _, err := tx.RatedPage("orthodox", 1, 1)
		if err == nil && (len(lines) != 1 || lines[0].Rating != 1650.5 || lines[0].RD != 100) {
			t.Errorf("b's line: %+v", lines)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if got, n := page("progressive", 0, 10); n != 1 || !slices.Equal(got, []string{"a@x"}) {
		t.Errorf("progressive: %v of %d", got, n)
	}
	if got, n := page("kriegspiel", 0, 10); n != 0 || len(got) != 0 {
		t.Errorf("kriegspiel: %v of %d", got, n)
	}
	put("e@x", orth(1400)) // e loses ground; a loses his progressive rating (a record rewritten)
	put("a@x", orth(1500))
	if got, _ := page("orthodox", 0, 10); !slices.Equal(got, []string{"b@x", "a@x", "c@x", "e@x", "d@x"}) {
		t.Errorf("orthodox after the changes: %v", got)
	}
	if got, n := page("progressive", 0, 10); n != 0 || len(got) != 0 {
		t.Errorf("progressive after a's record lost it: %v of %d", got, n)
	}
	var variants []string
	if err := db.View(func(tx *Tx) (err error) { variants, err = tx.RatedVariants(); return err }); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(variants, []string{"orthodox"}) {
		t.Errorf("rated variants: %v", variants)
	}
}

// A database of schema 4 (the ratings only inside the players' records) gets its ratings rows
// and counts from migration 5.
func TestRatingsRowsMigrated(t *testing.T) {
	loc := storetest.Postgres(t)
	db := open(t, loc)
	if err := db.Update(func(tx *Tx) error {
		if err := tx.PutPlayerRecord(&PlayerRecord{Address: "bob@x"}); err != nil {
			return err
		}
		if err := tx.PutPlayerRecord(&PlayerRecord{Address: "cy@x", Ratings: []PlayerRating{{Variant: "orthodox", Rating: 1600}, {Variant: "progressive", Rating: 1400}}}); err != nil {
			return err
		}
		return tx.PutPlayerRecord(&PlayerRecord{Address: "ann@x", Ratings: []PlayerRating{{Variant: "orthodox", Rating: 1500, RD: 200, Vol: 0.06, Games: 1,
			History: []RatingPoint{{Game: 1, Rating: 1500}}}}})
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.pg.pool.Exec(db.pg.ctx, `DROP TABLE ratings; DELETE FROM counters WHERE name LIKE 'rated/%'; DELETE FROM schema_migrations WHERE version = 5`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	db = open(t, loc)
	defer db.Close()
	if err := db.View(func(tx *Tx) error {
		page, n, err := tx.RatedPage("orthodox", 0, 10)
		if err != nil {
			return err
		}
		if n != 2 || len(page) != 2 || page[0].Address != "cy@x" || page[1].Address != "ann@x" || page[1].RD != 200 || page[1].History != nil {
			t.Errorf("orthodox after the migration: %+v of %d", page, n)
		}
		variants, err := tx.RatedVariants()
		if !slices.Equal(variants, []string{"orthodox", "progressive"}) {
			t.Errorf("rated variants after the migration: %v", variants)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
}
