package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// announcementsOf runs replay --json on file and returns its "announcements" as raw JSON
// objects (nil when the key is absent).
func announcementsOf(t *testing.T, file string) []map[string]any {
	t.Helper()
	code, out, errs := run(t, "replay", "--json", file)
	var rep map[string]any
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != exitOK {
		t.Fatalf("replay: %d %v %s\n%s", code, err, errs, out)
	}
	if rep["error"] != nil || len(rep["warnings"].([]any)) != 0 {
		t.Errorf("replay: error %v, warnings %v", rep["error"], rep["warnings"])
	}
	raw, ok := rep["announcements"]
	if !ok {
		return nil
	}
	var out2 []map[string]any
	for _, a := range raw.([]any) {
		out2 = append(out2, a.(map[string]any))
	}
	return out2
}

// Kriegspiel and Progressive Kriegspiel played by mail, exported, and read back: the export
// is the umpire's whole log (failed attempts and Any? in comments), replay and verify read
// it, and replay --json lists the announcements with exactly the keys by, captured,
// en_passant, checks and pawn_tries.
func TestKriegspielExportReplays(t *testing.T) {
	const w, b = 0, 1
	type mail = struct {
		side int
		body string
	}
	type ann = map[string]any
	a := func(by, captured string, ep bool, checks []any, tries any) ann {
		return ann{"by": by, "captured": captured, "en_passant": ep, "checks": checks, "pawn_tries": tries}
	}
	none := []any{}
	cases := []struct {
		variant  string
		mails    []mail
		inRecord []string
		want     []ann
	}{
		{"kriegspiel",
			[]mail{{w, "e4"}, {b, "d5"}, {w, "Any?\nexf5\ne5"}, {b, "Any?\nc5"}, {w, "Bf1-g3\nd4"}, {b, "cxd4"}, {w, "Bb5"}, {b, "RESIGN"}},
			[]string{"{Any?: Try; e4-f5: No} e5", "{Any?: No} c5", "Bb5+ 1-0"},
			[]ann{a("white", "", false, none, nil), a("black", "", false, none, nil), a("white", "", false, none, nil), a("black", "", false, none, nil),
				a("white", "", false, none, nil), a("black", "d4", false, none, nil), a("white", "", false, []any{"long diagonal"}, nil)}},
		{"progressive-kriegspiel",
			[]mail{{w, "e4"}, {b, "NOSTOP d5, Nc6"}, {w, "exd5"}, {w, "dxe6\nBb5"}, {w, "Nf3"}, {w, "Bb5"}, {b, "RESIGN"}},
			[]string{"1 e4 2 d5, Nc6 3 exd5, {d5-e6: No} Nf3, Bb5 1-0"},
			[]ann{a("white", "", false, none, false), a("black", "", false, none, true), a("black", "", false, none, true),
				a("white", "d5", false, none, true), a("white", "", false, none, true), a("white", "", false, none, false)}},
	}
	for _, c := range cases {
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
			for _, s := range c.inRecord {
				if !strings.Contains(strings.Join(strings.Fields(pgn), " "), s) {
					t.Errorf("the export lacks %q:\n%s", s, pgn)
				}
			}
			file := filepath.Join(dir, "game.pgn")
			os.WriteFile(file, []byte(pgn), 0o644)
			got := announcementsOf(t, file)
			want := make([]map[string]any, len(c.want))
			copy(want, c.want)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("announcements\n got %v\nwant %v\n%s", got, want, pgn)
			}
			if code, out, _ := run(t, "verify", file); code != exitOK || !strings.Contains(out, "1 games, 1 valid") {
				t.Errorf("verify: %d %s\n%s", code, out, pgn)
			}
			// A wrong answer in the umpire's log is found: a warning, as every game's
			// annotations that do not fit; --strict makes the game invalid.
			bad := strings.Replace(pgn, "No}", "Try}", 1)
			bad = strings.Replace(bad, ": No", ": Nonsense", 1)
			os.WriteFile(file, []byte(bad), 0o644)
			// (In Kriegspiel the skipped "e4-f5: Try" leaves Any?'s Try unanswered by a pawn
			// capture, so the true move that follows is refused: the game is invalid too.)
			if code, out, _ := run(t, "verify", file); !strings.Contains(out, ": warning: ") || !strings.Contains(out, "1 with warnings") || code == exitOK && c.variant == "kriegspiel" {
				t.Errorf("verify of a record with a wrong answer: exit %d\n%s\n%s", code, out, bad)
			}
			if code, _, _ := run(t, "verify", "--strict", file); code != exitInvalid {
				t.Errorf("verify --strict of a record with a wrong answer: exit %d\n%s", code, bad)
			}
		})
	}
	// The true game alone, as any PGN writer gives it, replays too; orthodox chess has no
	// announcements.
	dir := t.TempDir()
	file := filepath.Join(dir, "k.pgn")
	os.WriteFile(file, []byte("[Variant \"Kriegspiel\"]\n\n1. e4 d5 2. exd5 e5 3. dxe6 *\n"), 0o644)
	if got := announcementsOf(t, file); len(got) != 5 || got[4]["captured"] != "e5" || got[4]["en_passant"] != true {
		t.Errorf("the true game's announcements: %v", got)
	}
	os.WriteFile(file, []byte("1. e4 d5 *\n"), 0o644)
	if got := announcementsOf(t, file); got != nil {
		t.Errorf("orthodox chess has announcements: %v", got)
	}
}
