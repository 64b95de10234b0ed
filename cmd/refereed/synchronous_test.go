package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Synchronous games played by mail through refereed, exported, and read back by replay and
// verify: the export replays without a warning to the same end, and replay --json gives the
// result and the position after the last resolved turn.
func TestSynchronousExportReplaysAndVerifies(t *testing.T) {
	const w, b = 0, 1
	type mail = struct {
		side int
		body string
	}
	for _, c := range []struct {
		variant string
		mails   []mail
		result  string
	}{
		{"synchronous", []mail{{w, "e4"}, {b, "e5"}, {w, "Nf3"}, {b, "Nc6"}, {b, "RESIGN"}}, "1-0"},
		{"korolev", []mail{{w, "d4"}, {b, "d5"}, {w, "RESIGN"}}, "0-1"},
	} {
		t.Run(c.variant, func(t *testing.T) {
			dir := t.TempDir()
			if code, out, errs := run(t, "new", "--variant", c.variant, "--white", "ann@example.com", "--black", "bob@example.com", "--data", dir); code != exitOK {
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
			if rep.Variant != c.variant || rep.Result != c.result || len(rep.Warnings) != 0 || rep.Error != nil || rep.FEN == "" {
				t.Errorf("replay --json: %+v, want %s %s\n%s", rep, c.variant, c.result, pgn)
			}
			if code, out, _ := run(t, "verify", file); code != exitOK || !strings.Contains(out, "1 games, 1 valid") {
				t.Errorf("verify: %d %s\n%s", code, out, pgn)
			}
		})
	}
}
