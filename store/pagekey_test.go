package store

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// tamperID rewrites the id inside the record of the row keyed key in table (games or
// tournaments) to id, as a hand-edited or merged database may have it.
func tamperID(t *testing.T, db *DB, table string, key, id uint64) {
	t.Helper()
	if db.pg != nil {
		if _, err := db.pg.pool.Exec(context.Background(), `UPDATE `+table+` SET doc = jsonb_set(doc, '{id}', to_jsonb($2::BIGINT)) WHERE id = $1`, int64(key), int64(id)); err != nil {
			t.Fatal(err)
		}
		return
	}
	bucket := map[string][]byte{"games": bGames, "tournaments": bTournaments}[table]
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucket)
		var doc map[string]any
		if err := json.Unmarshal(b.Get(u64(key)), &doc); err != nil {
			return err
		}
		doc["id"] = id
		raw, _ := json.Marshal(doc)
		return b.Put(u64(key), raw)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Every loop over the games and tournaments pages by the rows' keys: a row whose record names
// another id (here the last of a page names the first) neither makes the loop spin nor
// hides a row; each comes once, under its key.
func TestPagesGoByKey(t *testing.T) { each(t, testPagesGoByKey) }

func testPagesGoByKey(t *testing.T, db *DB, _ string) {
	const games, tournaments = 300, 70
	err := db.Update(func(tx *Tx) error {
		for i := 0; i < games; i++ {
			g := &Game{Variant: "orthodox", Players: [2]Player{{Address: "a@x", Token: fmt.Sprint("ta", i)}, {Address: "b@x", Token: fmt.Sprint("tb", i)}}}
			if err := tx.CreateGame(g); err != nil {
				return err
			}
		}
		for i := 0; i < tournaments; i++ {
			if err := tx.CreateTournament(&Tournament{Name: fmt.Sprint("t", i), Variant: "orthodox"}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	tamperID(t, db, "games", 256, 1) // the last of the first page of EachGame on PostgreSQL
	tamperID(t, db, "games", 100, 7)
	tamperID(t, db, "tournaments", 64, 1)
	err = db.View(func(tx *Tx) error {
		seen := map[uint64]int{}
		n := 0
		err := tx.EachGame(func(g *Game) error {
			seen[g.ID]++
			if n++; n > games {
				return fmt.Errorf("EachGame gave %d games of %d: it spins", n, games)
			}
			return nil
		})
		if err != nil {
			return err
		}
		if len(seen) != games {
			t.Errorf("EachGame gave %d distinct games of %d", len(seen), games)
		}
		for id, k := range seen {
			if k != 1 || id < 1 || id > games {
				t.Errorf("game %d given %d times", id, k)
			}
		}
		if g, err := tx.Game(256); err != nil || g.ID != 256 {
			t.Errorf("Game(256): %v, %v", g, err)
		}
		seen = map[uint64]int{}
		n = 0
		err = tx.EachTournament(func(tr *Tournament) error {
			seen[tr.ID]++
			if n++; n > tournaments {
				return fmt.Errorf("EachTournament gave %d of %d: it spins", n, tournaments)
			}
			return nil
		})
		if err != nil {
			return err
		}
		if len(seen) != tournaments {
			t.Errorf("EachTournament gave %d distinct tournaments of %d", len(seen), tournaments)
		}
		if tr, err := tx.Tournament(64); err != nil || tr.ID != 64 {
			t.Errorf("Tournament(64): %v, %v", tr, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
