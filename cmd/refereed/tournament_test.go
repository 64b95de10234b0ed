package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
		!strings.Contains(out, "    1 alice                * . . 1      1       0   1") {
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
	if code != exitOK || !strings.Contains(out, "dora (w)") || !strings.Contains(out, "x") || !strings.Contains(out, "    1 alice                * . . x      0       0   0") {
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

// The organizer's commands from the command line, on a tournament with a time control: the
// same commands as by mail, each answered on standard output, refusals on standard error.
func TestTournamentOrganize(t *testing.T) {
	dir := t.TempDir()
	data := []string{"--data", dir}
	code, out, errs := run(t, append([]string{"tournament", "new", "--name", "Winter Cup", "--variant", "orthodox", "--players", "a@example.com,b@example.com,c@example.com", "--time", "30d+3d", "--organizer", "td@example.org"}, data...)...)
	if code != exitOK || !strings.Contains(out, "tournament #1 created") {
		t.Fatalf("tournament new --time: %d %s %s", code, out, errs)
	}
	if code, _, errs := run(t, append([]string{"tournament", "new", "--name", "x", "--players", "a@x,b@x,c@x", "--time", "30h"}, data...)...); code != exitInvalid || !strings.Contains(errs, "write days and an increment like 30d+3d") {
		t.Errorf("--time 30h: %d %s", code, errs)
	}
	if code, _, errs := run(t, append([]string{"new", "--white", "a@x", "--black", "b@x", "--time", "soon"}, data...)...); code != exitUsage || !strings.Contains(errs, "--time") {
		t.Errorf("new --time soon: %d %s", code, errs)
	}
	// Leave starts today at the earliest: the dates are a month from now (the real clock).
	first := time.Now().UTC().AddDate(0, 1, 0)
	from, to := first.Format("2006-01-02"), first.AddDate(0, 0, 59).Format("2006-01-02")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"tournament", "organize", "1", "HELP"}, exitOK, "ADJUDICATE 12 1-0 why"},
		{[]string{"tournament", "pause", "1"}, exitOK, "You have stopped every clock of Winter Cup"},
		{[]string{"tournament", "pause", "--data", dir, "1"}, exitInvalid, "already stopped"},
		{[]string{"tournament", "games", "1"}, exitOK, "round 1, game #1:"},
		{[]string{"tournament", "resume", "1"}, exitOK, "You have started the clocks of Winter Cup again"},
		{[]string{"tournament", "extend", "1", "2", "5"}, exitOK, "Game #2: 5 days more given"},
		{[]string{"tournament", "extend", "1", "9", "5"}, exitInvalid, "game #9 is not a game of Winter Cup"},
		{[]string{"tournament", "organize", "1", "SHOW", "1"}, exitInvalid, "is in progress"},
		{[]string{"tournament", "adjudicate", "1", "1", "1/2-1/2", "agreed", "by", "phone"}, exitOK, "Game #1 adjudicated 1/2-1/2"},
		{[]string{"tournament", "organize", "1", "SHOW", "1"}, exitOK, "adjudicate 1/2-1/2"},
		{[]string{"tournament", "leave", "1", "b@example.com", from, to}, exitOK, "Leave granted to b@example.com from " + from + " to " + to + " (60 days)"},
		{[]string{"tournament", "organize", "1", "FROBNICATE"}, exitInvalid, "not an organizer's command"},
	} {
		code, out, errs := run(t, append(c.args, data...)...)
		if code != c.code || !strings.Contains(strings.Join(strings.Fields(out+errs), " "), c.want) {
			t.Errorf("%v: %d\n%s%s\nwant %d and %q", c.args, code, out, errs, c.code, c.want)
		}
	}
	code, out, _ = run(t, append([]string{"show", "2"}, data...)...)
	if code != exitOK || !strings.Contains(out, "Clocks (30d+3d, whole days): White 35 days left, Black 30 days left.") {
		t.Errorf("show of a game with a clock:\n%s", out)
	}
}
