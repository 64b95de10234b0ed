package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	bolt "go.etcd.io/bbolt"
)

func TestTournaments(t *testing.T) { each(t, testTournaments) }

func testTournaments(t *testing.T, db *DB, _ string) {
	err := db.Update(func(tx *Tx) error {
		tr := &Tournament{Name: "Progressive Open", Variant: "progressive", Players: []string{"a@x", "b@x", "c@x"}, WithdrawRule: "half"}
		if err := tx.CreateTournament(tr); err != nil {
			return err
		}
		g := &Game{Variant: "progressive", Tournament: tr.ID, Round: 1, Players: [2]Player{{Address: "b@x", Token: "tb"}, {Address: "c@x", Token: "tc"}}}
		if err := tx.CreateGame(g); err != nil {
			return err
		}
		tr.Rounds = []TournamentRound{{Number: 1, Games: []TournamentGame{{White: 1, Black: 2, Game: g.ID}}, Bye: 0}}
		return tx.PutTournament(tr)
	})
	if err != nil {
		t.Fatal(err)
	}
	err = db.View(func(tx *Tx) error {
		all, err := tx.LatestTournaments(0, 10)
		if err != nil || len(all) != 1 {
			t.Fatalf("tournaments: %v %v", all, err)
		}
		tr := all[0]
		if tr.ID != 1 || tr.Name != "Progressive Open" || tr.Rounds[0].Games[0].Game != 1 || tr.Rounds[0].Bye != 0 || tr.WithdrawRule != "half" {
			t.Errorf("tournament read back as %+v", tr)
		}
		g, err := tx.Game(tr.Rounds[0].Games[0].Game)
		if err != nil || g.Tournament != tr.ID || g.Round != 1 {
			t.Errorf("game %+v %v", g, err)
		}
		if _, err := tx.Tournament(2); !errors.Is(err, ErrNotFound) {
			t.Errorf("tournament 2: %v", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The tournaments are read a page at a time, newest first, or one at a time; the count needs
// no reading. EachTournament lets its function query the transaction (PostgreSQL has no rows
// open meanwhile).
func TestTournamentPages(t *testing.T) { each(t, testTournamentPages) }

func testTournamentPages(t *testing.T, db *DB, _ string) {
	if err := db.Update(func(tx *Tx) error {
		for i := 1; i <= 70; i++ {
			if err := tx.CreateTournament(&Tournament{Name: fmt.Sprintf("T%d", i), Variant: "orthodox"}); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	names := func(ts []Tournament) (out []string) {
		for _, tr := range ts {
			out = append(out, tr.Name)
		}
		return out
	}
	err := db.View(func(tx *Tx) error {
		if n, err := tx.TournamentCount(); n != 70 || err != nil {
			t.Errorf("count %d (%v), want 70", n, err)
		}
		page, err := tx.LatestTournaments(0, 3)
		if got := names(page); err != nil || !slices.Equal(got, []string{"T70", "T69", "T68"}) {
			t.Errorf("first page %v %v", got, err)
		}
		page, err = tx.LatestTournaments(68, 5)
		if got := names(page); err != nil || !slices.Equal(got, []string{"T2", "T1"}) {
			t.Errorf("last page %v %v", got, err)
		}
		page, err = tx.LatestTournaments(33, 2)
		if got := names(page); err != nil || !slices.Equal(got, []string{"T37", "T36"}) {
			t.Errorf("a page in the middle %v %v", got, err)
		}
		if page, err := tx.LatestTournaments(70, 5); err != nil || len(page) != 0 {
			t.Errorf("a page past the last %v %v", names(page), err)
		}
		var seen []string
		err = tx.EachTournament(func(tr *Tournament) error {
			if _, err := tx.Tournament(tr.ID); err != nil {
				return err
			}
			seen = append(seen, tr.Name)
			return nil
		})
		if err != nil || len(seen) != 70 || seen[0] != "T1" || seen[69] != "T70" {
			t.Errorf("each: %d tournaments, %v", len(seen), err)
		}
		stop := errors.New("stop")
		n := 0
		if err := tx.EachTournament(func(*Tournament) error { n++; return stop }); !errors.Is(err, stop) || n != 1 {
			t.Errorf("each stops at the first error: %d calls, %v", n, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A file written before tournaments existed has no bucket for them: read-only it lists none;
// opened for writing it gets the bucket, with no migration and the schema unchanged.
func TestTournamentsBucketInOlderFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.db")
	db := open(t, path)
	if err := db.Update(func(tx *Tx) error {
		return tx.CreateGame(&Game{Variant: "orthodox", Players: [2]Player{{Address: "a@x", Token: "ta"}, {Address: "b@x", Token: "tb"}}})
	}); err != nil {
		t.Fatal(err)
	}
	if err := db.bolt.Update(func(tx *bolt.Tx) error { return tx.DeleteBucket(bTournaments) }); err != nil {
		t.Fatal(err)
	}
	db.Close()

	ro, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	_ = ro.View(func(tx *Tx) error {
		if all, err := tx.LatestTournaments(0, 10); err != nil || len(all) != 0 {
			t.Errorf("read-only, no bucket: %v %v", all, err)
		}
		if n, err := tx.TournamentCount(); n != 0 || err != nil {
			t.Errorf("read-only, no bucket: %d tournaments (%v)", n, err)
		}
		if _, err := tx.Tournament(1); !errors.Is(err, ErrNotFound) {
			t.Errorf("read-only, no bucket: %v", err)
		}
		return nil
	})
	ro.Close()

	db = open(t, path)
	defer db.Close()
	_ = db.bolt.View(func(tx *bolt.Tx) error {
		if v := binary.BigEndian.Uint64(tx.Bucket(bMeta).Get(keySchema)); v != SchemaVersion {
			t.Errorf("schema %d after reopening, want %d", v, SchemaVersion)
		}
		return nil
	})
	if err := db.Update(func(tx *Tx) error {
		return tx.CreateTournament(&Tournament{Name: "t", Variant: "orthodox", Players: []string{"a@x", "b@x", "c@x"}})
	}); err != nil {
		t.Fatalf("after reopening: %v", err)
	}
}
