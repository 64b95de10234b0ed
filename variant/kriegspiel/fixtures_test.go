package kriegspiel

import (
	"bufio"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/record"
	"github.com/refereed/refereed/variant"
	"github.com/refereed/refereed/variant/varianttest"
)

// fixture is one sequence of testdata/fixtures.txt.
type fixture struct {
	id, key, fen  string
	steps         []fixtureStep
	announcements []string // "by captured en_passant checks pawn_tries", or nil if not given
}

type fixtureStep struct {
	by          chess.Color
	text, heard string
}

func readFixtures(t *testing.T) []fixture {
	t.Helper()
	f, err := os.Open("testdata/fixtures.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []fixture
	var cur *fixture
	inAnn := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "id "):
			out = append(out, fixture{id: line[3:], key: Key})
			cur, inAnn = &out[len(out)-1], false
		case strings.HasPrefix(line, "variant "):
			cur.key = line[8:]
		case strings.HasPrefix(line, "fen "):
			cur.fen = line[4:]
		case line == "announcements":
			inAnn, cur.announcements = true, []string{}
		case inAnn:
			cur.announcements = append(cur.announcements, strings.Join(strings.Fields(line), " "))
		default:
			text, heard, ok := strings.Cut(line[2:], "|")
			if !ok || (line[0] != 'W' && line[0] != 'B') {
				t.Fatalf("fixtures: cannot read %q", line)
			}
			by := chess.White
			if line[0] == 'B' {
				by = chess.Black
			}
			cur.steps = append(cur.steps, fixtureStep{by, strings.TrimSpace(text), strings.ReplaceAll(strings.TrimSpace(heard), `\n`, "\n")})
		}
	}
	return out
}

// announcementLines writes announcements as the fixtures do.
func announcementLines(as []variant.Announcement) []string {
	out := []string{}
	for _, a := range as {
		c, checks, tries := a.Captured, strings.ReplaceAll(strings.Join(a.Checks, ","), " ", "_"), "-"
		if c == "" {
			c = "-"
		}
		if checks == "" {
			checks = "-"
		}
		if a.PawnTries != nil {
			tries = map[bool]string{true: "yes", false: "no"}[*a.PawnTries]
		}
		out = append(out, strings.Join([]string{a.By, c, map[bool]string{true: "true", false: "false"}[a.EnPassant], checks, tries}, " "))
	}
	return out
}

// Fixtures §5.1-5.8: each sequence is played by mail lines, and each line's public
// announcement is what the opponent is told; the moves' announcements are what replay
// reports. The umpire's log the game exports replays to the same announcements.
func TestFixtures(t *testing.T) {
	for _, fx := range readFixtures(t) {
		t.Run(fx.id, func(t *testing.T) {
			v := variant.MustLookup(fx.key)
			opts := variant.Options{FEN: fx.fen}
			g, err := v.New(opts)
			if err != nil {
				t.Fatal(err)
			}
			for i, s := range fx.steps {
				ns := varianttest.Send(t, g, s.by, s.text)
				heard := varianttest.TextsTo(ns, s.by.Other(), false)
				if heard == "" {
					heard = "-"
				}
				if heard != s.heard {
					t.Errorf("step %d, %v %s: the opponent is told %q, want %q", i+1, s.by, s.text, heard, s.heard)
				}
			}
			got := announcementLines(g.(variant.Announcer).Announcements())
			if fx.announcements != nil && !reflect.DeepEqual(got, fx.announcements) {
				t.Errorf("announcements\n got %q\nwant %q", got, fx.announcements)
			}
			// The export replays to the same announcements and the same log.
			tags := []record.Tag{{Name: "Variant", Value: v.Name}}
			if fx.fen != "" {
				tags = append(tags, record.Tag{Name: "FEN", Value: fx.fen})
			}
			movetext := v.WriteMovetext(g)
			rec := &record.Record{Tags: tags, Movetext: movetext + " *"}
			r, err := variant.ReplayRecord(rec)
			if err != nil || r.Failure != nil {
				t.Fatalf("the export %q does not replay: %v %v", movetext, err, r.Failure)
			}
			if again := announcementLines(r.Game.(variant.Announcer).Announcements()); !reflect.DeepEqual(again, got) {
				t.Errorf("the export %q replays to\n%q, not\n%q", movetext, again, got)
			}
			if a, b := varianttest.Snapshot(g), varianttest.Snapshot(r.Game); a != b {
				t.Errorf("the export %q replays to another game:\n%s\n---\n%s", movetext, a, b)
			}
		})
	}
}

// The examples of the umpire-log notation in the package doc and the README replay, and a
// game's export reads back to itself.
func TestNotationExamples(t *testing.T) {
	for _, c := range []struct{ variant, movetext string }{
		{"Kriegspiel", "1. e4 d5 2. {Any?: Try; e4-f5: No} e5 2... {Any?: No} c5"},
		{"Progressive Kriegspiel", "1 d4 2 {c7-b6: No} d5, Nc6 3 Bf4, {Bf4-b8: No} Bxc7, Bxd8"},
	} {
		r, err := variant.ReplayRecord(&record.Record{Tags: []record.Tag{{Name: "Variant", Value: c.variant}}, Movetext: c.movetext + " *"})
		if err != nil || r.Failure != nil {
			t.Fatalf("%s: %v %v", c.movetext, err, r.Failure)
		}
		if got := r.Variant.WriteMovetext(r.Game); got != c.movetext {
			t.Errorf("%s exports as %s", c.movetext, got)
		}
	}
	// A plain comment is a comment; an umpire's answer that does not fit is an annotation
	// that does not fit, as a wrong check mark is: the game is valid, with a warning (issue
	// 21: verify treats every game's annotations alike; --strict makes them errors).
	for movetext, warn := range map[string]string{
		"1. e4 {a good move: no doubt} d5 *": "",
		"1. e4 {Nf3: No} d5 *":               "Nf3 is impossible", // Nf3 is White's, and Black moves
		"1. {Nf3: No} e4 d5 *":               "the record says No, but Nf3 is legal here",
		"1. {e2-e5: No} e4 d5 *":             "e2-e5 is impossible", // nothing to answer
		"1. {Any?: Try} e4 *":                "the record says Any?: try, but the answer here is No",
		"1. {e4-f5: Try} e4 *":               "an attempt's answer is No, not try",
	} {
		r, err := variant.ReplayRecord(&record.Record{Tags: []record.Tag{{Name: "Variant", Value: "Kriegspiel"}}, Movetext: movetext})
		if err != nil || r.Failure != nil {
			t.Errorf("%s: %v %v, want a valid game", movetext, err, r.Failure)
			continue
		}
		if got := strings.Join(r.Warnings, "\n"); warn == "" && got != "" || !strings.Contains(got, warn) {
			t.Errorf("%s: warnings %q, want %q", movetext, got, warn)
		}
	}
}
