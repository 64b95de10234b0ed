package store

import (
	"testing"
	"time"
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
