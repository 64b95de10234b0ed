package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/refereed/refereed/referee"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/variant"
)

// playByMail sends each move as a reply mail from the right player through the referee.
func playByMail(t *testing.T, dir string, id uint64, moves ...string) {
	t.Helper()
	db, err := store.Open(filepath.Join(dir, "refereed.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r := &referee.Referee{DB: db, Address: "referee@localhost"}
	var g *store.Game
	db.View(func(tx *store.Tx) error { g, err = tx.Game(id); return err })
	for i, mv := range moves {
		p := g.Players[i%2]
		to := fmt.Sprintf("referee+g%d-%s-%s@localhost", id, []string{"w", "b"}[i%2], p.Token)
		raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nMessage-ID: <%d.%d@test>\r\nSubject: move\r\n\r\n%s\r\n", p.Address, to, id, i, mv)
		if err := r.Handle(store.InboxKey{Mailbox: "INBOX", UIDValidity: 1, UID: uint32(id*100) + uint32(i)}, []byte(raw)); err != nil {
			t.Fatal(err)
		}
	}
}

func TestAdminCommands(t *testing.T) {
	dir := t.TempDir()
	data := []string{"--data", dir}
	code, out, errs := run(t, append([]string{"new", "--variant", "transactional", "--white", "ann@example.com", "--black", "bob@example.com"}, data...)...)
	if code != exitOK || !strings.Contains(out, "game #1 created") {
		t.Fatalf("new: %d %s %s", code, out, errs)
	}
	if code, _, errs := run(t, append([]string{"new", "--variant", "nosuch", "--white", "a@x", "--black", "b@x"}, data...)...); code != exitInvalid || !strings.Contains(errs, `unknown variant "nosuch" (known: `+strings.Join(variant.Keys(), ", ")+")") {
		t.Errorf("unknown variant: %d %s", code, errs)
	}
	if code, _, errs := run(t, append([]string{"new", "--white", "a@x", "--black", "a@x"}, data...)...); code != exitInvalid || !strings.Contains(errs, "same address") {
		t.Errorf("same address: %d %s", code, errs)
	}
	run(t, append([]string{"new", "--white", "carl@example.com", "--black", "dana@example.com"}, data...)...)
	playByMail(t, dir, 2, "f3", "e5", "g4", "Qh4#")

	code, out, _ = run(t, append([]string{"list"}, data...)...)
	if code != exitOK || !strings.Contains(out, "#1      transactional          ann@example.com") || !strings.Contains(out, "over 0-1") {
		t.Errorf("list:\n%s", out)
	}
	if code, out, _ := run(t, append([]string{"list", "--page", "2"}, data...)...); code != exitOK || strings.Contains(out, "#1 ") || !strings.Contains(out, "2 game(s)") {
		t.Errorf("list --page 2 (100 a page: none of the 2 games on it):\n%s", out)
	}
	code, out, _ = run(t, append([]string{"show", "1", "--as", "black"}, data...)...)
	if code != exitOK || !strings.Contains(out, "Your view (nothing pending: both views are the same)") || !strings.Contains(out, "    h  g  f") || !strings.Contains(out, "Waiting for White since") || !strings.Contains(out, "deadline 3 days") {
		t.Errorf("show as black:\n%s", out)
	}
	if code, _, errs := run(t, append([]string{"show", "9"}, data...)...); code != exitInvalid || !strings.Contains(errs, "game 9: no such game") {
		t.Errorf("show missing game: %d %s", code, errs)
	}
	code, out, _ = run(t, append([]string{"export", "2"}, data...)...)
	if code != exitOK || !strings.Contains(out, `[Variant "Orthodox chess"]`) || !strings.Contains(out, "{refereed log:") || !strings.Contains(out, "2. g4 Qh4# 0-1") {
		t.Errorf("export:\n%s", out)
	}
	// Game 1 is going: --all gives it by its tags only, and says so; its pending move is
	// written only with --include-hidden, with a warning.
	playByMail(t, dir, 1, "e4")
	pgn := filepath.Join(dir, "all.pgn")
	_, out, errs = run(t, append([]string{"export", "--all"}, data...)...)
	if !strings.Contains(errs, "1 game(s) in progress written by their tags only") || strings.Contains(out, "e4") || strings.Contains(out, "hidden") {
		t.Errorf("export --all shows a game in progress:\n%s%s", out, errs)
	}
	if _, one, _ := run(t, append([]string{"export", "1"}, data...)...); strings.Contains(one, "e4") || !strings.Contains(one, `[Result "*"]`) {
		t.Errorf("export of a game in progress:\n%s", one)
	}
	_, whole, errs := run(t, append([]string{"export", "--all", "--include-hidden"}, data...)...)
	if !strings.Contains(whole, "T1: e4") || !strings.Contains(errs, "warning: 1 game(s) in progress written with every move") {
		t.Errorf("export --all --include-hidden:\n%s%s", whole, errs)
	}
	os.WriteFile(pgn, []byte(out), 0o644)
	if code, out, _ := run(t, "verify", pgn); code != exitOK || !strings.Contains(out, "2 games, 2 valid") {
		t.Errorf("exported games do not verify: %d\n%s", code, out)
	}
	backup := filepath.Join(dir, "backup.db")
	if code, out, _ := run(t, append([]string{"backup", backup}, data...)...); code != exitOK || !strings.Contains(out, "backup of "+dir+" written to "+backup) {
		t.Errorf("backup: %d %s", code, out)
	}
}

// Admin commands run where there is no data directory do not create an empty store: they
// say which directory they looked in and how to name the right one. new creates one, and
// says so.
func TestAdminWithoutData(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "nothing-here")
	for _, args := range [][]string{{"list"}, {"show", "1"}, {"export", "--all"}, {"backup", filepath.Join(t.TempDir(), "b.db")}} {
		code, out, errs := run(t, append(args, "--data", dir)...)
		if code != exitUsage || out != "" || !strings.Contains(errs, "no refereed data in "+dir) || !strings.Contains(errs, "--data DIR") {
			t.Errorf("%v: exit %d\nstdout %q\nstderr %q", args, code, out, errs)
		}
		if _, err := os.Stat(dir); err == nil {
			t.Fatalf("%v created %s", args, dir)
		}
	}
	code, out, _ := run(t, "new", "--white", "a@example.com", "--black", "b@example.com", "--data", dir)
	if code != exitOK || !strings.Contains(out, "created a new store in "+dir) || !strings.Contains(out, "game #1 created in "+dir) {
		t.Errorf("new: exit %d\n%s", code, out)
	}
	// Issue 33: the players' passwords of the built-in mail server on a fresh data directory,
	// before any daemon ran; the daemon's first start then works with the same ones.
	if code, out, _ := run(t, "new", "--white", "ann@localhost", "--black", "bob@localhost", "--data", dir); code != exitOK ||
		!strings.Contains(out, "local mail: ann@localhost logs in with password") || !strings.Contains(out, "local mail: bob@localhost logs in with password") {
		t.Errorf("new on a data directory no daemon has run on: exit %d\n%s", code, out)
	}
	fresh := filepath.Join(t.TempDir(), "fresh")
	code, out, _ = run(t, "new", "--white", "ann@localhost", "--black", "bob@localhost", "--data", fresh)
	_, again, _ := run(t, "mailpass", "--data", fresh, "ann@localhost")
	if code != exitOK || !strings.Contains(out, strings.TrimSpace(again)) || !strings.Contains(again, "logs in with password") {
		t.Errorf("new on a fresh data directory: exit %d\n%s\nmailpass: %s", code, out, again)
	}
	if code, out, _ := run(t, "list", "--data", dir); code != exitOK || !strings.Contains(out, "2 game(s); 4 mail(s) waiting in the outbox; data in "+dir) {
		t.Errorf("list after new: exit %d\n%s", code, out)
	}
}

// A game set up from a decided position is listed as over.
func TestNewDecidedPosition(t *testing.T) {
	data := []string{"--data", t.TempDir()}
	code, _, errs := run(t, append([]string{"new", "--fen", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "--white", "a@example.com", "--black", "b@example.com"}, data...)...)
	if code != exitOK {
		t.Fatalf("new: %d %s", code, errs)
	}
	if _, out, _ := run(t, append([]string{"list"}, data...)...); !strings.Contains(out, "over 1-0") {
		t.Errorf("list:\n%s", out)
	}
}

// restore puts a backup back, keeps the store it replaces, and refuses what is not a store.
func TestBackupRestore(t *testing.T) {
	dir := t.TempDir()
	data := []string{"--data", dir}
	run(t, append([]string{"new", "--white", "a@example.com", "--black", "b@example.com"}, data...)...)
	backup := filepath.Join(t.TempDir(), "backup.db")
	if code, _, errs := run(t, append([]string{"backup", backup}, data...)...); code != exitOK {
		t.Fatalf("backup: %s", errs)
	}
	run(t, append([]string{"new", "--white", "c@example.com", "--black", "d@example.com"}, data...)...)
	code, out, errs := run(t, append([]string{"restore", backup}, data...)...)
	if code != exitOK || !strings.Contains(out, "restored "+backup+" (1 game(s))") || !strings.Contains(out, "kept as "+filepath.Join(dir, "refereed.db.before-restore-")) {
		t.Fatalf("restore: exit %d\n%s%s", code, out, errs)
	}
	if _, out, _ := run(t, append([]string{"list"}, data...)...); !strings.Contains(out, "1 game(s)") {
		t.Errorf("after restore:\n%s", out)
	}
	junk := filepath.Join(t.TempDir(), "junk")
	os.WriteFile(junk, []byte("not a database"), 0o600)
	if code, _, errs := run(t, append([]string{"restore", junk}, data...)...); code != exitInvalid || !strings.Contains(errs, "is not a refereed backup") {
		t.Errorf("restore of junk: exit %d %s", code, errs)
	}
	if _, out, _ := run(t, append([]string{"list"}, data...)...); !strings.Contains(out, "1 game(s)") {
		t.Errorf("a failed restore changed the store:\n%s", out)
	}
}

// new takes a game's declared options (--option NAME=VALUE), and refuses one it does not have.
func TestNewOptions(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := run(t, "new", "--variant", "progressive-italian", "--white", "a@x", "--black", "b@x", "--option", "strict-forfeit", "--data", dir)
	if code != 0 {
		t.Fatalf("new with an option: %d %s %s", code, out, errs)
	}
	db, err := store.Open(filepath.Join(dir, "refereed.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	db.View(func(tx *store.Tx) error {
		g, err := tx.Game(1)
		if err != nil || g.Flags["strict-forfeit"] != "true" {
			t.Errorf("the option was not kept: %+v %v", g, err)
		}
		return nil
	})
	db.Close()
	code, _, errs = run(t, "new", "--variant", "orthodox", "--white", "a@x", "--black", "b@x", "--option", "strict-forfeit", "--data", dir)
	if code != exitUsage || !strings.Contains(errs, `Orthodox chess has no option "strict-forfeit" (it has none)`) {
		t.Errorf("an option the game does not have: %d %q", code, errs)
	}
}

// `new -h` names the option's value NAME=VALUE, not the words quoted in its doc (issue 25).
func TestNewHelpOption(t *testing.T) {
	_, out, errs := run(t, "new", "-h")
	all := out + errs
	if !strings.Contains(all, "-option NAME=VALUE") || strings.Contains(all, "-option refereed") {
		t.Errorf("new -h:\n%s", all)
	}
}
