package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Train Wreck games played by mail through refereed, exported, and read back by replay and
// verify: the export replays without a warning to the same end, and replay --json names the
// ending (king capture, stalemate) and who won.
func TestTrainWreckExportReplaysAndVerifies(t *testing.T) {
	const w, b = 0, 1
	type mail = struct {
		side int
		body string
	}
	cases := []struct {
		variant, fen, option string
		mails                []mail
		result, termination  string
		plies                int
	}{
		{"trainwreck", "", "king-attacked-note=true",
			[]mail{{w, "TURN e2-e4 / e7-e5"}, {b, "Qd8-h4 / f2-f3"}, {w, "a3 / a6"}, {b, "Qxe1"}}, "0-1", "king capture", 7},
		{"trainwreck", "4k3/4p3/4P3/8/8/8/8/4K2R w K - 0 1", "",
			[]mail{{w, "O-O"}}, "0-1", "stalemate", 1},
		{"trainwreck-three", "", "",
			[]mail{{w, "e2-e4 / b8-c6"}, {b, "d7-d5, e7-e5 / e4xd5"}, {w, "d2-d4, Ng1-f3 / Nc6-b4"}, {b, "RESIGN"}}, "1-0", "resignation", 8},
	}
	for _, c := range cases {
		t.Run(c.variant+" "+c.termination, func(t *testing.T) {
			dir := t.TempDir()
			args := []string{"new", "--variant", c.variant, "--white", "ann@example.com", "--black", "bob@example.com", "--data", dir}
			if c.fen != "" {
				args = append(args, "--fen", c.fen)
			}
			if c.option != "" {
				args = append(args, "--option", c.option)
			}
			if code, out, errs := run(t, args...); code != exitOK {
				t.Fatalf("new: %d %s %s", code, out, errs)
			}
			mailAs(t, dir, 1, c.mails...)
			code, pgn, errs := run(t, "export", "1", "--data", dir)
			if code != exitOK {
				t.Fatalf("export: %d %s", code, errs)
			}
			file := filepath.Join(dir, "game.pgn")
			os.WriteFile(file, []byte(pgn), 0o644)
			code, out, errs := run(t, "replay", "--json", file)
			var rep replayReport
			if err := json.Unmarshal([]byte(out), &rep); err != nil || code != exitOK {
				t.Fatalf("replay: %d %v %s\n%s\n%s", code, err, errs, out, pgn)
			}
			if rep.Variant != c.variant || rep.Result != c.result || rep.Termination != c.termination || rep.Plies != c.plies || len(rep.Warnings) != 0 || rep.Error != nil {
				t.Errorf("replay --json: %+v, want %s %s by %s in %d plies\n%s", rep, c.variant, c.result, c.termination, c.plies, pgn)
			}
			if code, out, _ := run(t, "verify", file); code != exitOK || !strings.Contains(out, "1 games, 1 valid") {
				t.Errorf("verify: %d %s\n%s", code, out, pgn)
			}
			code, out, _ = run(t, "replay", file)
			if code != exitOK || !strings.Contains(out, "Result: "+c.result+" ("+c.termination) {
				t.Errorf("replay: %d\n%s", code, out)
			}
		})
	}
	if _, out, _ := run(t, "variants"); !strings.Contains(out, "--option king-attacked-note=true|false:") || !strings.Contains(out, "Three-Move Train Wreck") {
		t.Errorf("variants does not list the games and their option:\n%s", out)
	}
}
