package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/refereed/refereed/referee"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/store/storetest"
)

// A data directory's store copied into PostgreSQL and back: every game, tournament and mail
// comes along, the exports are the same at each step, the commands work on the database
// (--store), new ids carry on after the copied ones, and a store is never copied into one
// that holds games.
func TestMigrateBothWays(t *testing.T) {
	url := storetest.Postgres(t)
	dir := t.TempDir()
	data := []string{"--data", dir}
	run(t, append([]string{"new", "--variant", "transactional", "--white", "ann@example.com", "--black", "bob@example.com"}, data...)...)
	run(t, append([]string{"new", "--white", "carl@example.com", "--black", "dana@example.com"}, data...)...)
	playByMail(t, dir, 2, "f3", "e5", "g4", "Qh4#")
	if code, out, errs := run(t, append([]string{"tournament", "new", "--name", "Spring", "--variant", "progressive", "--players", "a@x.org,b@x.org,c@x.org"}, data...)...); code != exitOK {
		t.Fatalf("tournament new: %d %s %s", code, out, errs)
	}
	// The deadline check has looked at every game, as a running daemon does: each is filed
	// at the moment of its reminder, none due now.
	if db, err := store.Open(filepath.Join(dir, "refereed.db"), store.Options{NoSync: true}); err != nil {
		t.Fatal(err)
	} else {
		if _, err := (&referee.Referee{DB: db, Address: "referee@localhost"}).CheckDeadlines(); err != nil {
			t.Fatal(err)
		}
		db.Close()
	}
	_, before, _ := run(t, append([]string{"export", "--all", "--include-hidden"}, data...)...)
	_, list, _ := run(t, append([]string{"list"}, data...)...)

	code, out, errs := run(t, "migrate", "--from", dir, "--to", url)
	if code != exitOK || !strings.Contains(out, "copied "+filepath.Join(dir, "refereed.db")) || !strings.Contains(out, "5 games (4 events), 1 tournaments") ||
		!strings.Contains(out, "checked: the 5 games export the same from both") {
		t.Fatalf("migrate to PostgreSQL: %d\n%s%s", code, out, errs)
	}
	onPG := []string{"--store", url}
	// The built-in mail server's passwords come along (the data directory's mail-secret into
	// the database's settings, and back below): no player, nor the referee, gets a new one. No
	// daemon ran on this store: mailpass names the referee it will run as.
	if !strings.Contains(out, "the players' mail passwords stay the same") {
		t.Errorf("migrate does not say the mail passwords came along:\n%s", out)
	}
	passwords := func(where ...string) string {
		t.Helper()
		code, out, errs := run(t, append([]string{"mailpass", "ann@localhost"}, where...)...)
		code2, out2, errs2 := run(t, append([]string{"mailpass"}, where...)...)
		if code != exitOK || code2 != exitOK || !strings.Contains(out2, "referee@localhost logs in with password") {
			t.Fatalf("mailpass %v: %d %d %s%s%s", where, code, code2, out2, errs, errs2)
		}
		return out + out2
	}
	mailPasswords := passwords(data...)
	if got := passwords(onPG...); got != mailPasswords {
		t.Errorf("mail passwords after migrate to PostgreSQL:\n%swant\n%s", got, mailPasswords)
	}
	// Each game is due when it was (issue 38): none of the games still going is due now on the
	// copy, as none was on the original; the order of their moments is the same.
	dues := func(path string) string {
		db, err := store.OpenURL(path, store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		var now, all []uint64
		if err := db.View(func(tx *store.Tx) (err error) {
			if now, err = tx.DueGames(tx.Now, 100); err == nil {
				all, err = tx.DueGames(tx.Now.AddDate(1, 0, 0), 100)
			}
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("now %v, within a year %v", now, all)
	}
	if got, want := dues(url), dues(filepath.Join(dir, "refereed.db")); got != want || !strings.Contains(want, "now [],") {
		t.Errorf("due games on PostgreSQL after migrate: %s; want %s", got, want)
	}
	if _, got, _ := run(t, append([]string{"export", "--all", "--include-hidden"}, onPG...)...); got != before {
		t.Errorf("export --all from PostgreSQL differs:\n%s\nwant\n%s", got, before)
	}
	if _, got, _ := run(t, append([]string{"list"}, onPG...)...); got[:strings.LastIndex(got, "data in")] != list[:strings.LastIndex(list, "data in")] {
		t.Errorf("list from PostgreSQL differs:\n%s\nwant\n%s", got, list)
	}
	if code, _, errs := run(t, append([]string{"show", "2"}, onPG...)...); code != exitOK {
		t.Errorf("show on PostgreSQL: %s", errs)
	}
	if code, _, errs := run(t, "migrate", "--from", dir, "--to", url); code != exitInvalid || !strings.Contains(errs, "is not empty") {
		t.Errorf("migrate into a store with games: %d %s", code, errs)
	}
	code, out, _ = run(t, append([]string{"new", "--white", "eve@example.com", "--black", "fay@example.com"}, onPG...)...)
	if code != exitOK || !strings.Contains(out, "game #6 created") {
		t.Fatalf("new on PostgreSQL after the copy: %d %s", code, out)
	}
	_, before, _ = run(t, append([]string{"export", "--all", "--include-hidden"}, onPG...)...)
	back := filepath.Join(t.TempDir(), "back")
	if code, out, errs := run(t, "migrate", "--from", url, "--to", back); code != exitOK || !strings.Contains(out, "checked: the 6 games export the same") {
		t.Fatalf("migrate back: %d\n%s%s", code, out, errs)
	}
	if got := passwords("--data", back); got != mailPasswords {
		t.Errorf("mail passwords after migrate back:\n%swant\n%s", got, mailPasswords)
	}
	if _, got, _ := run(t, "export", "--all", "--include-hidden", "--data", back); got != before {
		t.Errorf("export --all after the round trip differs:\n%s\nwant\n%s", got, before)
	}
	if code, out, _ := run(t, "new", "--data", back, "--white", "gil@example.com", "--black", "hal@example.com"); code != exitOK || !strings.Contains(out, "game #7 created") {
		t.Errorf("new after the round trip: %d %s", code, out)
	}
	if code, _, errs := run(t, "compact", "--store", url); code != exitUsage || !strings.Contains(errs, "autovacuum") {
		t.Errorf("compact on PostgreSQL: %d %s", code, errs)
	}
	// A store an instance leads is not copied from: what it writes meanwhile would be lost.
	db, err := store.OpenURL(url, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if ok, err := db.NewLease("vm/1/leader", time.Minute).Acquire(); !ok || err != nil {
		t.Fatalf("lease: %v %v", ok, err)
	}
	if code, _, errs := run(t, "migrate", "--from", url, "--to", filepath.Join(t.TempDir(), "again")); code != exitUsage || !strings.Contains(errs, "the instance vm/1/leader leads it") {
		t.Errorf("migrate from a led store: %d %s", code, errs)
	}
	// A mistyped URL is refused, never taken for a data directory.
	for _, args := range [][]string{
		{"new", "--store", "postgress://x", "--white", "a@x.org", "--black", "b@x.org"},
		{"list", "--store", "mysql://x"},
		{"web", "--store", "host=x dbname=y"},
	} {
		if code, _, errs := run(t, append(args, "--data", dir)...); code != exitUsage || !strings.Contains(errs, "want a PostgreSQL URL") {
			t.Errorf("%v: %d %s", args, code, errs)
		}
	}
	if code, _, errs := run(t, "migrate", "--from", dir, "--to", "postgress://x/y"); code != exitUsage || !strings.Contains(errs, "want a data directory, a store file or a PostgreSQL URL") {
		t.Errorf("migrate to a mistyped URL: %d %s", code, errs)
	}
}
