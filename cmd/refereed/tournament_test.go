package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/refereed/refereed/store"
)

func TestTournamentCommands(t *testing.T) {
	dir := t.TempDir()
	data := []string{"--data", dir}
	players := "alice@example.com,bruno@example.net,chen@example.org,dora@example.com"
	code, out, errs := run(t, append([]string{"tournament", "new", "--name", "Progressive Open 2027", "--variant", "progressive", "--players", players, "--withdraw-rule", "half"}, data...)...)
	if code != exitOK || !strings.Contains(out, "tournament #1 created") || !strings.Contains(out, "4 players, 3 rounds, 6 games") {
		t.Fatalf("tournament new: %d %s %s", code, out, errs)
	}
	for _, bad := range [][]string{
		{"tournament", "new", "--name", "x", "--players", "a@x,b@x"},
		{"tournament", "new", "--name", "x", "--players", "a@x,b@x,c@x", "--withdraw-rule", "never"},
		{"tournament", "new", "--name", "x", "--variant", "nosuch", "--players", "a@x,b@x,c@x"},
	} {
		if code, _, errs := run(t, append(bad, data...)...); code != exitInvalid || errs == "" {
			t.Errorf("%v: %d %s", bad, code, errs)
		}
	}
	if code, _, _ := run(t, append([]string{"tournament", "new", "--players", players}, data...)...); code != exitUsage {
		t.Errorf("tournament new without a name: %d", code)
	}
	if code, _, _ := run(t, append([]string{"tournament", "frobnicate"}, data...)...); code != exitUsage {
		t.Errorf("unknown tournament command: %d", code)
	}

	// Game 1 (round 1: alice-dora): alice plays e4, dora resigns.
	playByMail(t, dir, 1, "e4", "RESIGN")

	code, out, _ = run(t, append([]string{"tournament", "list"}, data...)...)
	if code != exitOK || !strings.Contains(out, "#1    progressive     4 players  single  1/6 games decided  Progressive Open 2027") {
		t.Errorf("tournament list:\n%s", out)
	}
	code, out, _ = run(t, append([]string{"tournament", "show", "1"}, data...)...)
	if code != exitOK || !strings.Contains(out, "Tournament #1: Progressive Open 2027, progressive, withdrawals: half") ||
		!strings.Contains(out, "  1  alice                * . . 1      1       0   1") {
		t.Errorf("tournament show:\n%s", out)
	}
	if code, _, errs := run(t, append([]string{"tournament", "show", "7"}, data...)...); code != exitInvalid || !strings.Contains(errs, "tournament 7") {
		t.Errorf("tournament show 7: %d %s", code, errs)
	}
	code, out, errs = run(t, append([]string{"tournament", "export", "1"}, data...)...)
	if code != exitOK || strings.Count(out, `[Event "Progressive Open 2027"]`) != 6 || strings.Count(out, `[Result "*"]`) != 5 ||
		!strings.Contains(out, `[Round "1"]`) || !strings.Contains(out, `[Round "3"]`) || !strings.Contains(out, `[Variant "Progressive Chess"]`) ||
		!strings.Contains(out, `[White "alice@example.com"]`) || !strings.Contains(out, `[Result "1-0"]`) || !strings.Contains(out, "{refereed log:") ||
		!strings.Contains(errs, "6 game(s) of tournament #1") {
		t.Errorf("tournament export: %d %s\n%s", code, errs, out)
	}
	code, out, errs = run(t, append([]string{"tournament", "withdraw", "1", "dora@example.com"}, data...)...)
	if code != exitOK || !strings.Contains(out, "dora@example.com withdrawn from tournament #1") {
		t.Errorf("tournament withdraw: %d %s %s", code, out, errs)
	}
	if code, _, errs := run(t, append([]string{"tournament", "withdraw", "1", "dora@example.com"}, data...)...); code != exitInvalid || !strings.Contains(errs, "already withdrawn") {
		t.Errorf("withdraw twice: %d %s", code, errs)
	}
	// dora finished one game of three: by the half rule none of hers counts.
	code, out, _ = run(t, append([]string{"tournament", "show", "1"}, data...)...)
	if code != exitOK || !strings.Contains(out, "dora (w)") || !strings.Contains(out, "x") || !strings.Contains(out, "  1= alice                * . . x      0       0   0") {
		t.Errorf("tournament show after the withdrawal:\n%s", out)
	}

	// While the daemon runs, the commands go through its control socket.
	db, err := store.Open(filepath.Join(dir, "refereed.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stop, err := serveControl(ctx, dir, db, func() {})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	code, out, errs = run(t, append([]string{"tournament", "list"}, data...)...)
	if code != exitOK || !strings.Contains(out, "Progressive Open 2027") {
		t.Errorf("tournament list through the daemon: %d %s %s", code, out, errs)
	}
}
