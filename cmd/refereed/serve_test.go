package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/refereed/refereed/store"
)

// The daemon compacts its store while it runs, once no mail waits (issue 38: a start waited
// for it); it leaves alone a file that is mostly live data.
func TestCompactWhenIdle(t *testing.T) {
	compactFirstAfter, compactEvery = 10*time.Millisecond, 10*time.Millisecond
	defer func() { compactFirstAfter, compactEvery = 5*time.Minute, time.Hour }()
	path := filepath.Join(t.TempDir(), "refereed.db")
	db, err := store.Open(path, store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	db.Now = func() time.Time { return now }
	rnd := rand.New(rand.NewSource(1))
	for batch := 0; batch < 10; batch++ {
		db.Update(func(tx *store.Tx) error {
			for i := 0; i < 100; i++ {
				raw := make([]byte, 20000)
				rnd.Read(raw)
				id, _ := tx.Enqueue(store.OutMail{MessageID: fmt.Sprint(batch, i), Raw: raw})
				tx.Done(store.OutMail{ID: id, MessageID: fmt.Sprint(batch, i), Raw: raw, Sent: now})
			}
			return nil
		})
	}
	size := func() int64 { fi, _ := os.Stat(path); return fi.Size() }
	big := size()
	if big <= compactAbove {
		t.Fatalf("the store holds %d bytes: not enough to be compacted", big)
	}
	run := func(d time.Duration) {
		ctx, cancel := context.WithTimeout(context.Background(), d)
		defer cancel()
		compactWhenIdle(ctx, db, path, slog.New(slog.NewTextHandler(io.Discard, nil)))
	}
	run(200 * time.Millisecond) // mostly live data: left alone
	if size() != big {
		t.Fatalf("a store of live data was compacted: %d -> %d", big, size())
	}
	now = now.Add(store.SentRawRetention + time.Hour)
	if _, err := db.Prune(); err != nil {
		t.Fatal(err)
	}
	db.Update(func(tx *store.Tx) error {
		_, err := tx.PutInbound(store.InboundMail{Key: store.InboxKey{Mailbox: "INBOX", UIDValidity: 1, UID: 1}, Raw: []byte("From: a@b\r\n\r\ne4\r\n")})
		return err
	})
	run(200 * time.Millisecond) // mail waits: not now
	if size() != big {
		t.Fatalf("compacted while mail waited: %d -> %d", big, size())
	}
	db.Update(func(tx *store.Tx) error {
		return tx.MarkProcessed(store.InboxKey{Mailbox: "INBOX", UIDValidity: 1, UID: 1})
	})
	deadline := time.Now().Add(10 * time.Second)
	for size() == big && time.Now().Before(deadline) {
		run(200 * time.Millisecond)
	}
	if size() >= big/2 {
		t.Fatalf("not compacted once idle: %d -> %d bytes", big, size())
	}
	db.View(func(tx *store.Tx) error {
		if sent, _ := tx.SentMails(); len(sent) != 1000 {
			t.Errorf("%d sent mails after compaction", len(sent))
		}
		return nil
	})
}

// A daemon restarted more often than compactFirstAfter still looks whether its store wants
// compacting: at the moment an earlier run noted, or compactSoonest after the start when that
// moment passed while it was stopped (a reviewer's daemon restarted every few minutes never
// compacted).
func TestCompactLookSurvivesRestarts(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "refereed.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if got := firstCompactLook(db); got != compactFirstAfter {
		t.Errorf("the first start looks after %v, want %v", got, compactFirstAfter)
	}
	// Restarted two minutes later: three minutes to go.
	db.SetMeta("compact_look_at", time.Now().Add(3*time.Minute).UTC().Format(time.RFC3339))
	if got := firstCompactLook(db); got < 2*time.Minute || got > 3*time.Minute {
		t.Errorf("a restart before the moment looks after %v, want about 3m", got)
	}
	// Restarted after the moment passed: soon, but not before what waited is answered.
	db.SetMeta("compact_look_at", time.Now().Add(-time.Minute).UTC().Format(time.RFC3339))
	if got := firstCompactLook(db); got != compactSoonest {
		t.Errorf("a restart past the moment looks after %v, want %v", got, compactSoonest)
	}
}
