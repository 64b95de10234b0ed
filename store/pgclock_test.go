package store

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/refereed/refereed/store/storetest"
)

// On PostgreSQL a transaction's Now is the database's clock (its now()), unless a test pinned
// DB.Now: an instance whose machine clock is wrong, leading after a takeover, times the games
// as the others did.
func TestPGNowIsTheDatabases(t *testing.T) {
	db := open(t, storetest.Postgres(t))
	defer db.Close()
	if db.Now != nil {
		t.Fatal("a database's DB.Now is set: its transactions would read the machine's clock")
	}
	check := func(tx *Tx) error {
		var dbNow time.Time
		if err := tx.ops.(*pgTx).tx.QueryRow(context.Background(), `SELECT now()`).Scan(&dbNow); err != nil {
			return err
		}
		if !tx.Now.Equal(dbNow) || tx.Now.Location() != time.UTC {
			t.Errorf("Tx.Now %v, the database's now() %v", tx.Now, dbNow)
		}
		return nil
	}
	if err := db.Update(check); err != nil {
		t.Fatal(err)
	}
	if err := db.View(check); err != nil {
		t.Fatal(err)
	}
	// The leader's writes (fenced) read it with the fence.
	if ok, err := db.NewLease("a", time.Minute).Acquire(); !ok || err != nil {
		t.Fatal(ok, err)
	}
	if err := db.Update(func(tx *Tx) error {
		if err := check(tx); err != nil {
			return err
		}
		g := &Game{Variant: "orthodox", Players: [2]Player{{Address: "a@x", Token: "ta"}, {Address: "b@x", Token: "tb"}}}
		if err := tx.CreateGame(g); err != nil {
			return err
		}
		if _, err := tx.AppendEvent(g.ID, Event{Text: "e4"}); err != nil {
			return err
		}
		evs, err := tx.Events(g.ID)
		if err == nil && (len(evs) != 1 || !evs[0].At.Equal(tx.Now)) {
			t.Errorf("the event's time %v, the transaction's %v", evs, tx.Now)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	// A skewed clock pinned on DB.Now is a test's: it is what the transactions read.
	skewed := time.Now().Add(5 * time.Hour).Truncate(time.Microsecond)
	db.Now = func() time.Time { return skewed }
	if err := db.Update(func(tx *Tx) error {
		if !tx.Now.Equal(skewed) {
			t.Errorf("pinned: Tx.Now %v, want %v", tx.Now, skewed)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// The Message-IDs seen are forgotten with the processed keys (ProcessedRetention), the old
// only.
func TestPGSeenMessageIDsForgotten(t *testing.T) {
	db := open(t, storetest.Postgres(t))
	defer db.Close()
	old := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	now := old
	db.Now = func() time.Time { return now }
	seen := func(id string) bool {
		var was bool
		if err := db.Update(func(tx *Tx) (err error) { was, err = tx.SeenMessageID(1, 0, id); return err }); err != nil {
			t.Fatal(err)
		}
		return was
	}
	seen("<old@x>")
	now = old.Add(ProcessedRetention)
	seen("<young@x>")
	now = old.Add(ProcessedRetention + 24*time.Hour)
	if _, err := db.ForgetProcessed(); err != nil {
		t.Fatal(err)
	}
	if seen("<old@x>") {
		t.Error("a Message-ID seen past the retention is still remembered")
	}
	if !seen("<young@x>") {
		t.Error("a Message-ID seen within the retention was forgotten")
	}
}

// No row is updated by every mail's transaction: two transactions that queue a mail each at
// once neither wait for each other nor lose a serialization race (the outbox's ids come from
// a sequence).
func TestPGOutboxNoSharedRow(t *testing.T) {
	db := open(t, storetest.Postgres(t))
	defer db.Close()
	if err := db.Update(func(tx *Tx) error { _, err := tx.Enqueue(OutMail{MessageID: "first"}); return err }); err != nil {
		t.Fatal(err)
	}
	before := Retries.Load()
	queued, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	var wg sync.WaitGroup
	var err1 error
	wg.Add(1)
	go func() {
		defer wg.Done()
		err1 = db.Update(func(tx *Tx) error {
			if _, err := tx.Enqueue(OutMail{MessageID: "a"}); err != nil {
				return err
			}
			once.Do(func() { close(queued) })
			<-release
			return nil
		})
	}()
	<-queued
	done := make(chan error, 1)
	go func() {
		done <- db.Update(func(tx *Tx) error { _, err := tx.Enqueue(OutMail{MessageID: "b"}); return err })
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Error(err)
		}
	case <-time.After(20 * time.Second):
		t.Error("a mail's transaction waited 20 s for another's: they share a row")
	}
	close(release)
	wg.Wait()
	if err1 != nil {
		t.Fatal(err1)
	}
	if n := Retries.Load() - before; n != 0 {
		t.Errorf("%d transaction(s) run again: the two conflicted", n)
	}
	var out []OutMail
	db.View(func(tx *Tx) (err error) { out, err = tx.Outbox(); return err })
	if len(out) != 3 || out[0].ID != 1 || out[1].ID == out[2].ID {
		t.Errorf("the outbox: %+v", out)
	}
	var n int
	db.pg.pool.QueryRow(context.Background(), `SELECT count(*) FROM counters WHERE name = 'outbox'`).Scan(&n)
	if n != 0 {
		t.Error("the outbox's ids are still counted in counters")
	}
}
