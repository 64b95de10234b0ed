package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/refereed/refereed/referee"
	"github.com/refereed/refereed/store"
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
	if code, _, errs := run(t, append([]string{"new", "--variant", "nosuch", "--white", "a@x", "--black", "b@x"}, data...)...); code != exitInvalid || !strings.Contains(errs, `unknown variant "nosuch" (known: conditional, orthodox, progressive, progressive-italian, transactional)`) {
		t.Errorf("unknown variant: %d %s", code, errs)
	}
	if code, _, errs := run(t, append([]string{"new", "--white", "a@x", "--black", "a@x"}, data...)...); code != exitInvalid || !strings.Contains(errs, "same address") {
		t.Errorf("same address: %d %s", code, errs)
	}
	run(t, append([]string{"new", "--white", "carl@example.com", "--black", "dana@example.com"}, data...)...)
	playByMail(t, dir, 2, "f3", "e5", "g4", "Qh4#")

	code, out, _ = run(t, append([]string{"list"}, data...)...)
	if code != exitOK || !strings.Contains(out, "#1    transactional  ann@example.com") || !strings.Contains(out, "over 0-1") {
		t.Errorf("list:\n%s", out)
	}
	code, out, _ = run(t, append([]string{"show", "1", "--as", "black"}, data...)...)
	if code != exitOK || !strings.Contains(out, "Your transactional view") || !strings.Contains(out, "    h  g  f") || !strings.Contains(out, "Waiting for White since") || !strings.Contains(out, "deadline 3 days") {
		t.Errorf("show as black:\n%s", out)
	}
	if code, _, errs := run(t, append([]string{"show", "9"}, data...)...); code != exitInvalid || !strings.Contains(errs, "game 9: no such game") {
		t.Errorf("show missing game: %d %s", code, errs)
	}
	code, out, _ = run(t, append([]string{"export", "2"}, data...)...)
	if code != exitOK || !strings.Contains(out, `[Variant "Orthodox chess"]`) || !strings.Contains(out, "{refereed log:") || !strings.Contains(out, "2. g4 Qh4# 0-1") {
		t.Errorf("export:\n%s", out)
	}
	pgn := filepath.Join(dir, "all.pgn")
	_, out, _ = run(t, append([]string{"export", "--all"}, data...)...)
	os.WriteFile(pgn, []byte(out), 0o644)
	if code, out, _ := run(t, "verify", pgn); code != exitOK || !strings.Contains(out, "2 games, 2 valid") {
		t.Errorf("exported games do not verify: %d\n%s", code, out)
	}
	backup := filepath.Join(dir, "backup.db")
	if code, out, _ := run(t, append([]string{"backup", backup}, data...)...); code != exitOK || !strings.Contains(out, "backup written") {
		t.Errorf("backup: %d %s", code, out)
	}
	if code, out, _ := run(t, "list", "--data", filepath.Join(dir, "restore")); code != exitOK || !strings.Contains(out, "0 game(s)") {
		t.Errorf("empty store: %s", out)
	}
}
