package store

import (
	"errors"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/refereed/refereed/store/storetest"
)

// On PostgreSQL the reads that once returned no error (counts, the inbox's keys) say when the
// database fails them, as every other method does: in a transaction the database aborted, each
// returns the database's error to its caller, never a zero that looks like an empty store (the
// store no longer keeps such an error aside to fail the transaction with later).
func TestPGReadErrors(t *testing.T) {
	db := open(t, storetest.Postgres(t))
	defer db.Close()
	k := InboxKey{Mailbox: "INBOX", UIDValidity: 1, UID: 1}
	reads := map[string]func(tx *Tx) error{
		"GameCount":       func(tx *Tx) error { _, err := tx.GameCount(); return err },
		"TournamentCount": func(tx *Tx) error { _, err := tx.TournamentCount(); return err },
		"LatestGameIDs":   func(tx *Tx) error { _, err := tx.LatestGameIDs(0, 10); return err },
		"EventCount":      func(tx *Tx) error { _, err := tx.EventCount(1); return err },
		"Stored":          func(tx *Tx) error { _, err := tx.Stored(k); return err },
		"Processed":       func(tx *Tx) error { _, err := tx.Processed(k); return err },
		"Known":           func(tx *Tx) error { _, _, err := tx.Known(k); return err },
		"HighestProcessedUID": func(tx *Tx) error {
			_, err := tx.HighestProcessedUID("INBOX", 1)
			return err
		},
		"OutboxCount": func(tx *Tx) error { _, err := tx.OutboxCount(); return err },
		"RatedPage":   func(tx *Tx) error { _, _, err := tx.RatedPage("orthodox", 0, 10); return err },
	}
	for name, read := range reads {
		// Each read alone answers.
		if err := db.View(read); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		// In an aborted transaction it fails, with the database's error.
		var got error
		err := db.View(func(tx *Tx) error {
			if _, err := tx.ops.(*pgTx).tx.Exec(t.Context(), `SELECT 1/0`); err == nil {
				t.Fatal("1/0 did not fail")
			}
			got = read(tx)
			return nil
		})
		var pe *pgconn.PgError
		if !errors.As(got, &pe) || pe.Code != "25P02" { // in_failed_sql_transaction
			t.Errorf("%s in an aborted transaction: %v, want the database's error 25P02", name, got)
		}
		if err == nil { // (its commit rolls it back)
			t.Errorf("%s: an aborted transaction committed", name)
		}
	}
}
