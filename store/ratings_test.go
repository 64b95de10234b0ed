package store

import (
	"path/filepath"
	"testing"
	"time"

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

// A file of schema 6 has no index of the rated players: opening it builds one from the
// players' records.
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
		if err := tx.DeleteBucket(bRated); err != nil {
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
	if err := db.View(func(tx *Tx) error {
		return tx.EachRatedPlayer(func(rec *PlayerRecord) error { got = append(got, rec.Address); return nil })
	}); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0] != "ann@x" {
		t.Errorf("rated players after the migration: %v", got)
	}
}
