package main

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/store/storetest"
)

// A DBA sets the shared database read-only: the leader stops leading and says why, and leads
// again once the database is writable.
func TestLeaderStandsByWhileReadOnly(t *testing.T) {
	loc, name := storetest.Database(t)
	db, err := store.OpenURL(loc, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var logs syncBuffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	started, stopped := make(chan struct{}, 4), make(chan struct{}, 4)
	lead := func(ctx context.Context) {
		started <- struct{}{}
		<-ctx.Done()
		stopped <- struct{}{}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		(&Main{}).leadership(ctx, db, &serveOptions{leaseTTL: 3 * time.Second}, log, lead)
	}()
	defer func() { cancel(); <-done }()
	wait := func(ch chan struct{}, what string) {
		t.Helper()
		select {
		case <-ch:
		case <-time.After(30 * time.Second):
			t.Fatalf("%s: not after 30 s; log:\n%s", what, logs.String())
		}
	}
	wait(started, "leading")
	storetest.Exec(t, "ALTER DATABASE "+name+" SET default_transaction_read_only = on")
	wait(stopped, "standing by in a read-only database")
	if !strings.Contains(logs.String(), "read-only") {
		t.Errorf("the log does not say why it stands by:\n%s", logs.String())
	}
	storetest.Exec(t, "ALTER DATABASE "+name+" RESET default_transaction_read_only")
	wait(started, "leading again once writable")
}

// A leader's loop whose step fails (a full disk, a database gone away) tries again within
// seconds, with backoff, not at the next period: here the period is an hour, and the step
// that fails three times runs a fourth time without being woken.
func TestLoopRetriesAfterFailure(t *testing.T) {
	l := loop{every: time.Hour, retryFirst: time.Millisecond, retryMax: 4 * time.Millisecond}
	calls := 0
	done := make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go l.run(ctx, nil, func() error {
		calls++
		if calls <= 3 {
			return errors.New("injected: no space left on device")
		}
		close(done)
		cancel()
		return nil
	})
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the failed step was not tried again (it waits for the next period)")
	}
	for failures, want := range map[int]time.Duration{1: time.Second, 2: 2 * time.Second, 3: 4 * time.Second, 4: 8 * time.Second, 9: 8 * time.Second} {
		if got := leaderLoop.retryAfter(failures); got != want {
			t.Errorf("after %d failures the daemon waits %v, want %v", failures, got, want)
		}
	}
}

// A daemon stopped while it asks for the lease hands back what it was granted: the next
// instance leads at once, not when the lease runs out (t-11 on PostgreSQL waited 6 s).
func TestStopWhileAcquiringReleases(t *testing.T) {
	loc, _ := storetest.Database(t)
	db, err := store.OpenURL(loc, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the stop comes as it asks
	led := false
	(&Main{}).leadership(ctx, db, &serveOptions{leaseTTL: time.Minute}, slog.New(slog.DiscardHandler), func(context.Context) { led = true })
	holder, _, live, err := db.Leader()
	if err != nil {
		t.Fatal(err)
	}
	if live || led {
		t.Errorf("after a stop while acquiring: the lease of %q is live (%v), led %v", holder, live, led)
	}
}
