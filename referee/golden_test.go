package referee

import (
	"flag"
	"path/filepath"
	"testing"
	"time"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/templates/mailcheck"
	"github.com/refereed/refereed/variant"
)

var update = flag.Bool("update", false, "rewrite the golden mails in testdata/golden")

// Each game's own golden mails (every kind of mail it sends, issue 22) are its package's:
// variant/<game>/golden_test.go and testdata/golden there, through referee/refereetest. These
// are the referee's: deadlines, replies as people write them, IF moves and settings, and
// languages (language_test.go); a challenge's are the lobby's (referee/challenges).

// goldenStep is one inbound mail of a scripted game; every mail it causes is compared with
// testdata/golden/<game>-<NN>-<name>-<recipient>.eml.
type goldenStep struct {
	name string
	side chess.Color
	body string
	raw  func(h *harness, id uint64) []byte // instead of body
	// wait moves the clock on and runs the deadline check instead of delivering a mail.
	wait time.Duration
}

// runGolden plays the steps of one game and compares every mail with its golden file. Every
// golden file of the game must be produced: a mail that is no longer sent fails the test
// as a changed one does (with -update, its file is removed).
func runGolden(t *testing.T, game, variantKey string, steps []goldenStep) {
	runGoldenWith(t, game, variantKey, variant.Options{}, steps)
}

// runGoldenWith is runGolden for a game with options or a start position.
func runGoldenWith(t *testing.T, game, variantKey string, opts variant.Options, steps []goldenStep) {
	runGoldenSetup(t, game, variantKey, opts, nil, steps)
}

// runGoldenSetup is runGoldenWith with setup run on the harness before the game is made.
func runGoldenSetup(t *testing.T, game, variantKey string, opts variant.Options, setup func(h *harness), steps []goldenStep) {
	h := newHarness(t)
	if setup != nil {
		setup(h)
	}
	id, err := h.ref.NewGame(variantKey, ann, bob, opts)
	if err != nil {
		t.Fatal(err)
	}
	golden := mailcheck.Golden{Dir: filepath.Join("testdata", "golden"), Game: game, Black: bob, Update: *update}
	check := func(n int, name string) { golden.Check(t, n, name, h.outbox()) }
	check(0, "opening")
	for i, s := range steps {
		if s.wait > 0 {
			h.now = h.now.Add(s.wait)
			if _, err := h.ref.CheckDeadlines(); err != nil {
				t.Fatal(err)
			}
			check(i+1, s.name)
			continue
		}
		raw := []byte(nil)
		if s.raw != nil {
			raw = s.raw(h, id)
		} else {
			raw = h.reply(id, s.side, s.body)
		}
		h.deliver(raw)
		check(i+1, s.name)
	}
	golden.Done(t)
}

// The deadline mails (rules.md 0.4a): a reminder, then the forfeit.
func TestGoldenDeadlines(t *testing.T) {
	runGolden(t, "deadline", "orthodox", []goldenStep{
		{name: "move", side: W, body: "e4"},
		{name: "reminder", wait: 73 * time.Hour},
		{name: "forfeit", wait: 72 * time.Hour},
	})
}

// Issue 34: mail as people write it: a move below a quote under an attribution in Polish,
// with a sign-off (not refused; the answer says it was not read), and a mail with nothing
// but the quote (where commands may stand).
func TestGoldenReplies(t *testing.T) {
	runGolden(t, "replies", "orthodox", []goldenStep{
		{name: "bottom-posted-signed", side: W, body: "W dniu pt., 27 lis 2026 o 10:00 refereed <referee@example.org> napisał(a):\n> White to play move 1.\n\ne4\n\nDzięki,\nAnn"},
		{name: "quote-only", side: B, body: "On Fri, Nov 27, 2026 at 10:00 AM refereed <referee@example.org> wrote:\n> Black to play move 1."},
	})
}

// Conditional moves, a player's settings and PGN by mail (issue 25): a sequence stated and
// listed, its reply played at once, the rest of it dropped by another move; moves shown in
// numeric notation and boards with figurines to the player who asked, and the game so far
// attached in PGN.
func TestGoldenOrthodoxConditional(t *testing.T) {
	runGolden(t, "ifmoves", "orthodox", []goldenStep{
		{name: "move", side: W, body: "e4"},
		{name: "move", side: B, body: "e5"},
		{name: "move-and-if", side: W, body: "Nf3\nIF Nc6 Bb5 a6 Ba4\nIF d6 d4"},
		{name: "if-list", side: W, body: "IF LIST"},
		{name: "fired", side: B, body: "Nc6\nNf6"},
		{name: "dropped", side: B, body: "d6"},
		{name: "settings", side: W, body: "SET NOTATION numeric\nSET BOARD unicode\nSET"},
		{name: "numeric-move", side: W, body: "3233"},
		{name: "pgn", side: W, body: "PGN"},
	})
}
