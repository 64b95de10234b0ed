package varianttest

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/variant"
)

// RunScripts plays the rules fixtures of a data file (a game's testdata/fixtures.txt)
// through the public interface. The file holds cases, each a list of lines:
//
//	case 1.3 constructed lock tests        starts a case, and names it
//	variant transactional                  the registry key (required)
//	fen 4k3/8/8/8/8/8/8/R3K3 w - - 0 1     the start, when not the usual one
//	W T1: e4                               White sends a line; it must be accepted
//	B exd5 ! illegal in your view          Black's line must be refused, saying this
//	W Nxc7+(C) > White has committed       accepted; the opponent is told this
//	W Ra8 < The commit was mandatory       accepted; the sender is told this
//	placement rnbk1bnr/1p...               the referee's position now (FEN's first field)
//	fen4 r2k1bnr/pp2pppp/... w KQ -        the referee's position now (FEN's first 4 fields)
//	result 1-0                             how the game stands now ("*" while it goes on)
//
// Lines that start with # are comments. What a player is told is compared with his
// notices' texts joined, words apart from line breaks. A refusal must change nothing
// (Snapshot). Only what can be said through the interface is here; checks of a game's
// inner state stay in Go.
func RunScripts(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type line struct {
		n    int
		text string
	}
	var cases [][]line
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		text := strings.TrimSpace(sc.Text())
		switch {
		case text == "" || strings.HasPrefix(text, "#"):
			continue
		case strings.HasPrefix(text, "case "):
			cases = append(cases, nil)
		case len(cases) == 0:
			t.Fatalf("%s:%d: %q before the first case", path, n, text)
		}
		cases[len(cases)-1] = append(cases[len(cases)-1], line{n, text})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatalf("%s: no cases", path)
	}
	for _, c := range cases {
		name := strings.TrimPrefix(c[0].text, "case ")
		t.Run(name, func(t *testing.T) {
			var v *variant.Variant
			var opts variant.Options
			var g variant.Game
			start := func(at int) {
				if g != nil {
					return
				}
				if v == nil {
					t.Fatalf("%s:%d: no variant named before the first step", path, at)
				}
				var err error
				if g, err = v.New(opts); err != nil {
					t.Fatalf("%s:%d: %v", path, at, err)
				}
			}
			for _, l := range c[1:] {
				where := func() string { return path + ":" + strconv.Itoa(l.n) }
				key, rest, _ := strings.Cut(l.text, " ")
				rest = strings.TrimSpace(rest)
				switch key {
				case "variant":
					var err error
					if v, err = variant.Lookup(rest); err != nil {
						t.Fatalf("%s: %v", where(), err)
					}
				case "fen":
					opts.FEN = rest
				case "placement", "fen4", "result":
					start(l.n)
					pos := g.Position()
					got := map[string]string{
						"placement": pos.Placement(),
						"fen4":      strings.Join(strings.Fields(pos.FEN())[:4], " "),
						"result":    g.Outcome().Result,
					}[key]
					if key == "result" && got == "" {
						got = "*"
					}
					if got != rest {
						t.Errorf("%s: %s %s, want %s", where(), key, got, rest)
					}
				case "W", "B":
					start(l.n)
					by := chess.White
					if key == "B" {
						by = chess.Black
					}
					text, want, mark := rest, "", ""
					for _, m := range []string{" ! ", " > ", " < "} {
						if i := strings.Index(rest, m); i >= 0 {
							text, want, mark = strings.TrimSpace(rest[:i]), strings.TrimSpace(rest[i+3:]), strings.TrimSpace(m)
							break
						}
					}
					if mark == "!" {
						before := Snapshot(g)
						_, err := Try(g, by, text)
						switch {
						case err == nil:
							t.Fatalf("%s: %v %q accepted, want a refusal with %q", where(), by, text, want)
						case !variant.IsRejection(err) || !strings.Contains(err.Error(), want):
							t.Fatalf("%s: %v %q: %v, want a refusal with %q", where(), by, text, err, want)
						case Snapshot(g) != before:
							t.Fatalf("%s: %v %q: the refusal changed the game", where(), by, text)
						}
						continue
					}
					ns := Send(t, g, by, text)
					who := by
					if mark == ">" {
						who = by.Other()
					}
					if told := strings.Join(strings.Fields(TextsTo(ns, who, false)), " "); mark != "" && !strings.Contains(told, strings.Join(strings.Fields(want), " ")) {
						t.Errorf("%s: %v %q: %v was told %q, want %q", where(), by, text, who, told, want)
					}
				default:
					t.Fatalf("%s: %q is not a step of a case", where(), l.text)
				}
			}
		})
	}
}
