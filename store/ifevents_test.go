package store

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/jackc/pgx/v5"
	bolt "go.etcd.io/bbolt"

	"github.com/refereed/refereed/store/storetest"
)

// oldIfLog is a game's log as a store of before issue 35 kept it: a player's IF sequence of
// kind "conditional", and the reply it played from the source "conditional".
var oldIfLog = []Event{
	{Side: 0, Text: "move e2e4", Source: "k1"},
	{Side: 0, Kind: eventIfBefore, Text: "if move e7e5;move g1f3", Source: "k1"},
	{Side: 1, Text: "move e7e5", Source: "k2"},
	{Side: 0, Text: "move g1f3", Source: eventIfBefore},
	{Side: 1, Kind: EventExtend, Days: 2, Text: "extend black 2", Source: "organizer"},
}

// checkIfLog checks that the store's log of game id is oldIfLog with IF's new names.
func checkIfLog(t *testing.T, db *DB, id uint64) {
	t.Helper()
	db.View(func(tx *Tx) error {
		events, err := tx.Events(id)
		if err != nil || len(events) != len(oldIfLog) {
			t.Fatalf("events after the migration: %v %v", events, err)
		}
		for i, e := range events {
			want := oldIfLog[i]
			if want.Kind == eventIfBefore {
				want.Kind = EventIf
			}
			if want.Source == eventIfBefore {
				want.Source = SourceIf
			}
			if e.Kind != want.Kind || e.Source != want.Source || e.Text != want.Text || e.Side != want.Side || e.Days != want.Days {
				t.Errorf("event %d: %+v, want %+v", i, e, want)
			}
		}
		return nil
	})
}

// A bbolt file of schema 7 logs a player's IF moves as "conditional": opened, they are EventIf
// and SourceIf, and nothing else in the log changed.
func TestIfEventsRenamedBolt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "if.db")
	db := open(t, path)
	var id uint64
	db.Update(func(tx *Tx) error {
		g := &Game{Variant: "orthodox", Players: [2]Player{{Address: "a@x", Token: "ta"}, {Address: "b@x", Token: "tb"}}}
		if err := tx.CreateGame(g); err != nil {
			t.Fatal(err)
		}
		id = g.ID
		for _, e := range oldIfLog {
			if _, err := tx.AppendEvent(id, e); err != nil {
				t.Fatal(err)
			}
		}
		return nil
	})
	db.bolt.Update(func(tx *bolt.Tx) error { return tx.Bucket(bMeta).Put(keySchema, u64(7)) })
	db.Close()
	db = open(t, path)
	defer db.Close()
	checkIfLog(t, db, id)
}

// A PostgreSQL store migrated up to 7 logs a player's IF moves as "conditional": migration 8
// renames them.
func TestIfEventsRenamedPostgres(t *testing.T) {
	loc := storetest.Postgres(t)
	db := open(t, loc)
	var id uint64
	err := db.Update(func(tx *Tx) error {
		g := &Game{Variant: "orthodox", Players: [2]Player{{Address: "a@x", Token: "ta"}, {Address: "b@x", Token: "tb"}}}
		if err := tx.CreateGame(g); err != nil {
			return err
		}
		id = g.ID
		for _, e := range oldIfLog {
			if _, err := tx.AppendEvent(id, e); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	// As a store of before migration 8 holds it.
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, loc)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`DELETE FROM schema_migrations WHERE version >= 8`, `DROP TABLE challenges`} { // (migration 9 made it)
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	var n int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM events WHERE kind = 'conditional' OR source = 'conditional'`).Scan(&n); err != nil || n != 2 {
		t.Fatalf("the old names in the store before it is opened: %d %v", n, err)
	}
	conn.Close(ctx)
	db = open(t, loc)
	defer db.Close()
	checkIfLog(t, db, id)
}
