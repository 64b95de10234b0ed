package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 21: verify reads what follows a result as the next game, shows warnings and counts
// them (--strict makes them errors), says where in the file a movetext goes wrong, and speaks
// of the record, not to a player.
func TestVerifyFindings(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.pgn")
	write := func(s string) { os.WriteFile(file, []byte(s), 0o644) }

	write("[Event \"a\"]\n\n1. e4 e5 2. Nf3 *\n1. Ke2 *\n")
	if code, out, _ := run(t, "verify", file); code != exitInvalid || !strings.Contains(out, "2 games, 1 valid, 1 invalid") || !strings.Contains(out, "game 2 (line 4)") {
		t.Errorf("a game after a result on the next line: %d\n%s", code, out)
	}
	write("1. e4 e5 1-0 0-1\n")
	if code, out, _ := run(t, "verify", file); code != exitOK || !strings.Contains(out, "2 games, 2 valid") {
		// "0-1" alone is a game: White resigned (or lost by forfeit) before moving.
		t.Errorf("two results: %d\n%s", code, out)
	}

	write("1. e4 e5 2. Qh5# Nc6 *\n")
	code, out, _ := run(t, "verify", file)
	if code != exitOK || !strings.Contains(out, "warning: move 2 (Qh5#)") || !strings.Contains(out, "1 games, 1 valid, 0 invalid; 1 with warnings (1 warnings)") {
		t.Errorf("a wrong mate mark: %d\n%s", code, out)
	}
	if code, out, _ := run(t, "verify", "--strict", file); code != exitInvalid || !strings.Contains(out, "0 valid, 1 invalid; 1 with warnings (1 warnings), counted invalid (--strict)") {
		t.Errorf("--strict: %d\n%s", code, out)
	}
	if code, out, _ := run(t, "verify", "--json", file); code != exitOK || !strings.Contains(out, `"type":"warnings"`) || !strings.Contains(out, `"with_warnings":1`) {
		t.Errorf("--json: %d\n%s", code, out)
	}

	write("[Variant \"Progressive\"]\n\n1 e4 2 e5, Nc6 3 d4 *\n")
	if _, out, _ := run(t, "verify", file); !strings.Contains(out, "series 3 has 3 moves; the record gives 1") {
		t.Errorf("a short Progressive series:\n%s", out)
	}
	write("[Variant \"Progressive Kriegspiel\"]\n\n1 e4 2 e5 3 d4 *\n")
	if _, out, _ := run(t, "verify", file); !strings.Contains(out, "series 2 has 2 moves; the record gives 1") {
		t.Errorf("a short Progressive Kriegspiel series:\n%s", out)
	}
	write("1. e4 e5 2. Nf3 Nf6 3. Nc3 {a comment\n")
	if _, out, _ := run(t, "verify", file); !strings.Contains(out, "line 1, column 28: a comment opened here is not closed") {
		t.Errorf("an open comment:\n%s", out)
	}
	write("[Event \"x\"]\n\n1. e4 e5\n2. Nf3, Nc6 *\n")
	if _, out, _ := run(t, "verify", file); !strings.Contains(out, "line 4, column 7: unexpected comma") {
		t.Errorf("a comma:\n%s", out)
	}
	for _, m := range []string{"[Variant \"Progressive\"]\n\n1 e4 2 e5 *\n", "1. e4 e4 *\n", "[Variant \"Train Wreck\"]\n\n1. e2e4/b8c6 e2e4/b8c6 *\n"} {
		write(m)
		if _, out, _ := run(t, "verify", file); strings.Contains(out, "you sent") || strings.Contains(out, "wait for") || strings.Contains(out, "not yours") {
			t.Errorf("player wording in verify:\n%s", out)
		}
	}
}

// Issue 33 (11): a game that starts at another move than 1 with no FEN is warned (and so
// invalid with --strict); "exd6 e.p." is read, with a note; each message names the line of
// its move, not the game's first line.
func TestVerifyIssue33(t *testing.T) {
	file := filepath.Join(t.TempDir(), "a.pgn")
	write := func(s string) { os.WriteFile(file, []byte(s), 0o644) }
	write("[Event \"a\"]\n\n12. e4 e5 *\n")
	if code, out, _ := run(t, "verify", "--strict", file); code != exitInvalid || !strings.Contains(out, "game 1 (line 3) [Event a]: warning: the record starts at move 12 but gives no FEN") {
		t.Errorf("a record from move 12 without a FEN: %d\n%s", code, out)
	}
	write("[Event \"a\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 12\"]\n\n12. e4 Kd7 *\n")
	if code, out, _ := run(t, "verify", "--strict", file); code != exitOK {
		t.Errorf("a record from move 12 with its FEN: %d\n%s", code, out)
	}
	write("[Event \"a\"]\n\n1. e4 Nf6 2. e5 d5\n3. exd6 e.p. exd6\n4. Ke3 *\n")
	code, out, _ := run(t, "verify", file)
	for _, want := range []string{
		"game 1 (line 4) [Event a]: warning: move 3 (exd6 e.p.): \"e.p.\" written apart from its move; read as exd6",
		"game 1 (line 5) [Event a]: move 4 Ke3: no king can move to e3",
	} {
		if code != exitInvalid || !strings.Contains(out, want) {
			t.Errorf("output lacks %q: %d\n%s", want, code, out)
		}
	}
}
