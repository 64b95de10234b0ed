package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// refereed ratings lists what rated games made: a tournament is rated unless --rated=false;
// two games adjudicated (an adjudicated game is rated) give three players ratings. The CSV
// it writes is what refereed rate --initial reads.
func TestRatingsCommand(t *testing.T) {
	dir := t.TempDir()
	data := []string{"--data", dir}
	if code, out, errs := run(t, append([]string{"ratings"}, data...)...); code != exitUsage || out != "" || !strings.Contains(errs, "refereed ratings:") {
		t.Fatalf("no data directory: %d %q %q", code, out, errs)
	}
	for _, args := range [][]string{
		{"tournament", "new", "--name", "Rated", "--variant", "progressive", "--players", "a@example.com,b@example.com,c@example.com"},
		{"tournament", "new", "--name", "Friendly", "--variant", "orthodox", "--players", "a@example.com,b@example.com,c@example.com", "--rated=false"},
		{"tournament", "organize", "1", "ADJUDICATE", "1", "1-0", "won"},
		{"tournament", "organize", "1", "ADJUDICATE", "2", "1/2-1/2", "even"},
		{"tournament", "organize", "2", "ADJUDICATE", "4", "1-0", "won"},
	} {
		code, out, errs := run(t, append(args, data...)...)
		if code != exitOK {
			t.Fatalf("%v: %d %s %s", args, code, out, errs)
		}
		if args[1] == "new" && !strings.Contains(out, map[string]string{"Rated": "3 games, rated;", "Friendly": "3 games, not rated;"}[args[3]]) {
			t.Errorf("%v: %s", args, out)
		}
	}
	code, out, _ := run(t, append([]string{"ratings"}, data...)...)
	for _, want := range []string{"3 rating(s)", "Progressive Chess", "rank  player", "1     ", "?: provisional"} {
		if code != exitOK || !strings.Contains(out, want) {
			t.Errorf("ratings lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Orthodox") {
		t.Errorf("an unrated tournament's games rated:\n%s", out)
	}
	code, csv, _ := run(t, append([]string{"ratings", "--variant", "Orthodox", "--csv"}, data...)...)
	if code != exitOK || csv != "player,variant,rating,rd,volatility,games\n" {
		t.Errorf("--variant orthodox: %d %q", code, csv)
	}
	code, csv, _ = run(t, append([]string{"ratings", "--variant", "progressive", "--csv"}, data...)...)
	if code != exitOK || strings.Count(csv, "\n") != 4 || !strings.Contains(csv, ",progressive,") {
		t.Fatalf("--csv: %d %q", code, csv)
	}
	initial := filepath.Join(dir, "initial.csv")
	os.WriteFile(initial, []byte(csv), 0o644)
	pgn := filepath.Join(dir, "more.pgn")
	os.WriteFile(pgn, []byte("[Variant \"Progressive\"]\n[Date \"2027.01.01\"]\n[White \"a@example.com\"]\n[Black \"d@example.com\"]\n\n1 e4 2 e5 d5 1-0\n"), 0o644)
	if code, out, errs := run(t, "rate", "--initial", initial, pgn); code != exitOK || !strings.Contains(out, "a@example.com") || !strings.Contains(out, "c@example.com") {
		t.Errorf("rate --initial from ratings --csv: %d\n%s%s", code, out, errs)
	}
	if code, _, errs := run(t, append([]string{"ratings", "--variant", "nosuch"}, data...)...); code != exitUsage || !strings.Contains(errs, "--variant") {
		t.Errorf("an unknown variant: %d %q", code, errs)
	}
	// A single game is rated only when asked; show says so.
	if code, out, errs := run(t, append([]string{"new", "--rated", "--white", "a@example.com", "--black", "d@example.com"}, data...)...); code != exitOK {
		t.Fatalf("new --rated: %d %s %s", code, out, errs)
	}
	if _, out, _ := run(t, append([]string{"show", "7"}, data...)...); !strings.Contains(out, "active, rated\n") {
		t.Errorf("show of a rated game:\n%s", out)
	}
	if _, out, _ := run(t, append([]string{"show", "4"}, data...)...); strings.Contains(out, "rated") {
		t.Errorf("show of an unrated game:\n%s", out)
	}
}
