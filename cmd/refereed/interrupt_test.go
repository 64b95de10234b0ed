package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/store/storetest"
)

// runStopped runs a command and stops it (as Ctrl-C or SIGTERM would) after stopAfter; it
// returns what the command returned and how long it took from the stop.
func runStopped(t *testing.T, stopAfter time.Duration, args ...string) (code int, out, errs string, took time.Duration) {
	t.Helper()
	var o, e syncBuffer
	m := &Main{Stdin: strings.NewReader(""), Stdout: &o, Stderr: &e}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() { done <- m.Run(ctx, args) }()
	time.Sleep(stopAfter)
	cancel()
	stopped := time.Now()
	select {
	case code = <-done:
	case <-time.After(30 * time.Second):
		t.Fatalf("%v: still running 30 s after the stop", args)
	}
	return code, o.String(), e.String(), time.Since(stopped)
}

// lockedStore is a fresh PostgreSQL store with one game, its table locked until the test
// ends.
func lockedStore(t *testing.T, table string) string {
	t.Helper()
	url := storetest.Postgres(t)
	if code, _, errs := run(t, "new", "--store", url, "--white", "ann@localhost", "--black", "bob@localhost"); code != exitOK {
		t.Fatal(errs)
	}
	storetest.Lock(t, url, table)
	return url
}

// A command waiting on the database (a table locked by a DBA's maintenance, here) stops when
// told to, and says it was interrupted: list, a page of it, export --all (issue 38: they
// waited for the lock and then printed everything, exit 0).
func TestCommandsStopWhileTheDatabaseWaits(t *testing.T) {
	url := lockedStore(t, "games")
	for _, args := range [][]string{
		{"list", "--store", url},
		{"list", "--store", url, "--page", "1"},
		{"export", "--all", "--store", url},
	} {
		code, out, errs, took := runStopped(t, 300*time.Millisecond, args...)
		if code == exitOK || !strings.Contains(errs, "interrupted before the end") || took > 5*time.Second {
			t.Errorf("%v stopped while waiting on a lock: exit %d after %v\n%s%s", args, code, took, out, errs)
		}
	}
	// Any other command on the store stops too, and says why.
	code, out, errs, took := runStopped(t, 300*time.Millisecond, "show", "--store", url, "1")
	if code == exitOK || !strings.Contains(errs, "interrupted") || took > 5*time.Second {
		t.Errorf("show stopped while waiting on a lock: exit %d after %v\n%s%s", code, took, out, errs)
	}
}

// A daemon told to stop while it starts, its store waiting on the database, stops within
// seconds and says so (issue 38: it waited for the lock, started, then stopped).
func TestServeStopsWhileStarting(t *testing.T) {
	url := lockedStore(t, "settings")
	code, out, errs, took := runStopped(t, time.Second, "serve", "--store", url, "--data", t.TempDir(), "--imap", "127.0.0.1:0", "--smtp", "127.0.0.1:0", "--address", "referee@localhost", "--log", "info")
	if code != exitOK || !strings.Contains(errs, "stopping while starting") || strings.Contains(out, "refereed is running") || took > 5*time.Second {
		t.Errorf("serve stopped while its store waited: exit %d after %v\n%s%s", code, took, out, errs)
	}
}

// A daemon started while a DBA holds the database read-only stands by and says why, and leads
// once it is writable (issue 38: it exited, writing its settings at start).
func TestServeStartsOnAReadOnlyDatabase(t *testing.T) {
	url, name := storetest.Database(t)
	if code, _, errs := run(t, "new", "--store", url, "--white", "ann@localhost", "--black", "bob@localhost"); code != exitOK {
		t.Fatal(errs)
	}
	storetest.Exec(t, "ALTER DATABASE "+name+" SET default_transaction_read_only = on")
	var out, errb syncBuffer
	m := &Main{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() {
		done <- m.Run(ctx, []string{"serve", "--store", url, "--data", t.TempDir(), "--imap", "127.0.0.1:0", "--smtp", "127.0.0.1:0", "--log", "info", "--address", "umpire@localhost"})
	}()
	defer func() {
		cancel()
		if code := <-done; code != exitOK {
			t.Errorf("serve: exit %d\n%s", code, errb.String())
		}
	}()
	waitFor := func(what string) {
		t.Helper()
		for deadline := time.Now().Add(30 * time.Second); !strings.Contains(errb.String(), what); {
			if time.Now().After(deadline) {
				t.Fatalf("no %q in the log after 30 s:\n%s%s", what, out.String(), errb.String())
			}
			select {
			case code := <-done:
				done <- code
				t.Fatalf("serve ended (exit %d) on a read-only database:\n%s%s", code, out.String(), errb.String())
			case <-time.After(50 * time.Millisecond):
			}
		}
	}
	waitFor("standing by: the database is read-only")
	if strings.Contains(errb.String(), "msg=leading") {
		t.Fatalf("led a read-only database:\n%s", errb.String())
	}
	storetest.Exec(t, "ALTER DATABASE "+name+" RESET default_transaction_read_only")
	waitFor("msg=leading")
	// The settings it could not write at its start are written once it leads: commands on
	// this store name the referee by them.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		db, err := store.OpenURL(url, store.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		address := db.Meta("address")
		db.Close()
		if address == "umpire@localhost" {
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("the referee's address in the settings is %q once leading, want umpire@localhost", address)
		}
	}
}

// A leading daemon told to stop while its delivery waits on the database (the outbox locked)
// gives that statement up after a grace and ends within seconds (issue 38: it ended only
// when the lock was released).
func TestServeStopsWhileAStatementWaits(t *testing.T) {
	url := storetest.Postgres(t)
	var out, errb syncBuffer
	m := &Main{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan int, 1)
	go func() {
		done <- m.Run(ctx, []string{"serve", "--store", url, "--data", t.TempDir(), "--imap", "127.0.0.1:0", "--smtp", "127.0.0.1:0", "--log", "info"})
	}()
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(errb.String(), "msg=leading"); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("not leading after 30 s:\n%s%s", out.String(), errb.String())
		}
	}
	release := storetest.Lock(t, url, "outbox")
	defer release()
	time.Sleep(3 * time.Second) // delivery looks at the outbox every 2 s (deliveryPoll): it waits now
	cancel()
	stopped := time.Now()
	select {
	case code := <-done:
		if took := time.Since(stopped); code != exitOK || took > shutdownGrace+5*time.Second || !strings.Contains(errb.String(), "giving up its statements") {
			t.Errorf("serve stopped while delivery waited on a lock: exit %d after %v\n%s", code, took, errb.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("serve still running 30 s after the stop, the outbox locked:\n%s", errb.String())
	}
}
