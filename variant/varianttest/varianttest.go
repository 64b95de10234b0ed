// Package varianttest has the helpers every variant's rules tests use: send a player's line
// through Resolve and Submit, check that a line is refused without changing anything, and
// read what a player was told; and the checks every game is held to through its public
// interface alone: Walk (a refused command changes nothing; the live game equals its
// replay) and Noninterference (two games that differ only in what a player may not know
// look the same to him).
package varianttest

import (
	"errors"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/templates"
	"github.com/refereed/refereed/variant"
)

// The games' refusals are worded by the templates, as in the daemon.

// Send resolves and submits text for by, failing the test on any error.
func Send(t testing.TB, g variant.Game, by chess.Color, text string) []variant.Notice {
	t.Helper()
	cmd, _, err := g.Resolve(by, text)
	if err != nil {
		t.Fatalf("%v %q: %v", by, text, err)
	}
	ns, err := g.Submit(cmd)
	if err != nil {
		t.Fatalf("%v %q (%s): %v", by, text, cmd.Text, err)
	}
	return ns
}

// Try resolves and submits text for by: its notices, or the error of either step.
func Try(g variant.Game, by chess.Color, text string) ([]variant.Notice, error) {
	cmd, _, err := g.Resolve(by, text)
	if err != nil {
		return nil, err
	}
	return g.Submit(cmd)
}

// Refuse checks that text from by is rejected with a reason containing want, and that the
// game did not change.
func Refuse(t testing.TB, g variant.Game, by chess.Color, text, want string) {
	t.Helper()
	before, logLen := g.Position(), len(g.Log())
	_, _, err := g.Resolve(by, text)
	if err == nil {
		t.Fatalf("%v %q accepted, want a rejection with %q", by, text, want)
	}
	if !variant.IsRejection(err) || !strings.Contains(err.Error(), want) {
		t.Fatalf("%v %q: %v, want a rejection with %q", by, text, err, want)
	}
	after := g.Position()
	if before.FEN() != after.FEN() || len(g.Log()) != logLen {
		t.Fatalf("%v %q: a rejection changed the game", by, text)
	}
}

// TextsTo joins the texts of the notices s may read, "kind: text" when withKind.
func TextsTo(ns []variant.Notice, s chess.Color, withKind bool) string {
	var out []string
	for _, n := range ns {
		text := templates.NoticeText(n.Kind, n.Words, n.Text, n.Args)
		if !n.To.Has(s) || text == "" {
			continue
		}
		if withKind {
			out = append(out, n.Kind+": "+text)
		} else {
			out = append(out, text)
		}
	}
	return strings.Join(out, "\n")
}

// Snapshot is everything a game shows to anyone: each viewer's view, whose action it awaits,
// how it stands, each player's turn name, and its log. Two snapshots are equal when nobody
// could tell the games apart.
func Snapshot(g variant.Game) string {
	var sb strings.Builder
	for _, v := range []variant.Viewer{variant.AsWhite, variant.AsBlack, variant.AsReferee} {
		view := g.View(v)
		fmt.Fprintf(&sb, "view %d (FEN %q):\n%s\n", v, view.FEN, view.Diagram())
	}
	fmt.Fprintf(&sb, "to act %v; outcome %+v\n", g.ToAct(), g.Outcome())
	if tn, ok := g.(variant.TurnNamer); ok {
		fmt.Fprintf(&sb, "turns %q %q\n", tn.TurnName(chess.White), tn.TurnName(chess.Black))
	}
	for _, c := range g.Log() {
		sb.WriteString(c.String())
		sb.WriteByte('\n')
	}
	return sb.String()
}

// Lines writes a command line for player by in game g: a variant's test knows its notation.
// Lines that the game refuses are as welcome as lines it accepts.
type Lines func(g variant.Game, by chess.Color, rng *rand.Rand) string

// Walk plays a game from lines drawn at random, by both players (the one to act and the
// other), and holds it to the Submit contract at every step: a refused line (by Resolve or by
// Submit) leaves the game exactly as it was, in everything anyone can see and in its log, an
// error is either a rejection or nothing, and a rejection's sentence is in the words. At the
// end, the game equals its replay from the log. It returns how many lines were accepted.
func Walk(t testing.TB, v *variant.Variant, opts variant.Options, steps int, seed int64, lines Lines) int {
	t.Helper()
	rng := rand.New(rand.NewSource(seed))
	g, err := v.New(opts)
	if err != nil {
		t.Fatalf("%s: new: %v", v.Key, err)
	}
	accepted := 0
	for i := 0; i < steps && !g.Outcome().Over(); i++ {
		by := chess.Color(rng.Intn(2))
		if act := g.ToAct(); len(act) > 0 && rng.Intn(5) > 0 {
			by = act[rng.Intn(len(act))]
		}
		text := lines(g, by, rng)
		before := Snapshot(g)
		_, err := Try(g, by, text)
		switch {
		case err == nil:
			accepted++
		case !variant.IsRejection(err):
			t.Fatalf("%s seed %d step %d: %v %q: an error that is not a rejection: %v", v.Key, seed, i, by, text, err)
		default:
			var r *variant.Rejection
			if errors.As(err, &r) {
				if _, ok := r.Text(); !ok {
					t.Fatalf("%s seed %d step %d: %v %q was refused in words that are missing: %v", v.Key, seed, i, by, text, err)
				}
			}
			if after := Snapshot(g); after != before {
				t.Fatalf("%s seed %d step %d: %v %q was refused (%v) but changed the game:\nbefore:\n%s\nafter:\n%s", v.Key, seed, i, by, text, err, before, after)
			}
		}
	}
	r, fail, err := variant.Replay(v, opts, g.Log())
	if err != nil || fail != nil {
		t.Fatalf("%s seed %d: the log does not replay: %v %v", v.Key, seed, err, fail)
	}
	if live, replayed := Snapshot(g), Snapshot(r); live != replayed {
		t.Fatalf("%s seed %d: the live game differs from its replay:\nlive:\n%s\nreplay:\n%s", v.Key, seed, live, replayed)
	}
	return accepted
}

// Step is one line of a script.
type Step struct {
	By   chess.Color
	Text string
}

// Seen is all that v is shown of g under his notices: his view, its FEN, and the game so far
// as he may know it (variant.ScoreOf), the lines every mail that shows his board ends with.
func Seen(g variant.Game, v variant.Viewer) string {
	view := g.View(v)
	va := variant.MustLookup(g.Key())
	words, moves := variant.ScoreOf(va, g, v, false)
	_, numeric := variant.ScoreOf(va, g, v, true)
	return fmt.Sprintf("%s\nFEN %q\n%s: %s\nnumeric: %s\n", view.Diagram(), view.FEN, words, moves, numeric)
}

// Noninterference plays two scripts that differ only in what observer may not know (an
// uncommitted move, a rollback, a stated C-move ...) and fails unless observer is told the
// same words and shown the same views after every step. Each step must be accepted in its
// world, or refused in both.
func Noninterference(t testing.TB, v *variant.Variant, opts variant.Options, observer chess.Color, a, b []Step) {
	t.Helper()
	if len(a) != len(b) {
		t.Fatalf("the two worlds have %d and %d steps", len(a), len(b))
	}
	ga, err := v.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	gb, _ := v.New(opts)
	seen := func(g variant.Game, ns []variant.Notice) string {
		var sb strings.Builder
		for _, n := range ns {
			if n.To.Has(observer) {
				fmt.Fprintf(&sb, "%s|%s|%d|%v\n", n.Kind, templates.NoticeText(n.Kind, n.Words, n.Text, n.Args), n.Show, n.Stop)
			}
		}
		sb.WriteString(Seen(g, variant.ViewerOf(observer)))
		fmt.Fprintf(&sb, "\nto act %v; outcome %+v\n", g.ToAct(), g.Outcome())
		if tn, ok := g.(variant.TurnNamer); ok {
			sb.WriteString(tn.TurnName(observer))
		}
		return sb.String()
	}
	play := func(g variant.Game, s Step) ([]variant.Notice, error) {
		cmd, _, err := g.Resolve(s.By, s.Text)
		if err != nil {
			return nil, err
		}
		return g.Submit(cmd)
	}
	for i := range a {
		na, erra := play(ga, a[i])
		nb, errb := play(gb, b[i])
		if (erra == nil) != (errb == nil) {
			t.Fatalf("step %d: %q gives %v, %q gives %v: the worlds must agree on what is refused", i, a[i].Text, erra, b[i].Text, errb)
		}
		if (a[i].By == observer) && erra != nil && erra.Error() != errb.Error() {
			t.Fatalf("step %d: %v is refused differently: %v / %v", i, observer, erra, errb)
		}
		if sa, sb := seen(ga, na), seen(gb, nb); sa != sb {
			t.Fatalf("step %d (%q / %q): %v can tell the worlds apart:\n%s\n---\n%s", i, a[i].Text, b[i].Text, observer, sa, sb)
		}
	}
}
