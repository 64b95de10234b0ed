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

// Every kind of mail of a Transactional game.
func TestGoldenTransactional(t *testing.T) {
	runGolden(t, "tx", "transactional", []goldenStep{
		{name: "move-pending", side: W, body: "T1: e4"},
		{name: "move-and-batch", side: B, body: "T2: d5\nT2: Nf6"},
		{name: "commit-with-warning", side: W, body: "T9: Bb5 (C)"},
		{name: "refused-line", side: B, body: "Bd7\nNxe4\nc6"},
		{name: "help-board-history", side: B, body: "HELP\nBOARD\nHISTORY"},
		{name: "ep-question", side: W, body: "EP? d5"},
		{name: "forged-from", raw: func(h *harness, id uint64) []byte {
			p := h.player(id, B)
			return mailText("mallory@evil.example", h.ref.replyAddress(id, B, p.Token), "x", "resign", "")
		}},
		{name: "draw-offer", side: B, body: "DRAW OFFER"},
		{name: "draw-decline", side: W, body: "DRAW DECLINE\nBxd7+"},
		{name: "resign", side: B, body: "RESIGN"},
	})
}

// The deadline mails (rules.md 0.4a): a reminder, then the forfeit.
func TestGoldenDeadlines(t *testing.T) {
	runGolden(t, "deadline", "orthodox", []goldenStep{
		{name: "move", side: W, body: "e4"},
		{name: "reminder", wait: 73 * time.Hour},
		{name: "forfeit", wait: 72 * time.Hour},
	})
}

// Every kind of mail of an orthodox game.
func TestGoldenOrthodox(t *testing.T) {
	runGolden(t, "orthodox", "orthodox", []goldenStep{
		{name: "move", side: W, body: "e4"},
		{name: "out-of-turn", side: W, body: "d4"},
		{name: "move-with-note", side: B, body: "e5+"},
		{name: "two-moves", side: W, body: "Qh5\nNc6"},
		{name: "moves", side: B, body: "Nc6"},
		{name: "move", side: W, body: "Bc4"},
		{name: "move", side: B, body: "Nf6??"},
		{name: "mate", side: W, body: "Qxf7#"},
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

// The games that hide information, and the rest that had none: every kind of mail each
// sends, read as its players read them (issue 22: golden mails for every registered game).

// Italian Progressive Chess: a check only with a series' last move (IT-D1), the refusal of an
// early one, a check ending a series, a resignation.
func TestGoldenItalian(t *testing.T) {
	runGolden(t, "italian", "progressive-italian", []goldenStep{
		{name: "series", side: W, body: "e4"},
		{name: "series", side: B, body: "e5 d5"},
		{name: "early-check", side: W, body: "Bb5+ Nf3 d3"},
		{name: "check-last", side: W, body: "Nf3 Nc3 Bb5+"},
		{name: "resign", side: B, body: "RESIGN"},
	})
}

// Kriegspiel: attempts answered No or Impossible, a capture announced by square, Any?,
// pawn tries, the end revealing the game.
func TestGoldenKriegspiel(t *testing.T) {
	runGolden(t, "kriegspiel", "kriegspiel", []goldenStep{
		{name: "move", side: W, body: "e2e4"},
		{name: "move", side: B, body: "d7d5"},
		{name: "any-capture", side: W, body: "Any?\ne4d5"},
		{name: "no-then-move", side: B, body: "d8d4, d8d5"},
		{name: "impossible", side: W, body: "e1e3"},
		{name: "move", side: W, body: "b1c3"},
		{name: "board-history", side: B, body: "BOARD\nHISTORY"},
		{name: "resign", side: B, body: "RESIGN"},
	})
}

// Progressive Kriegspiel: series of attempts, a series stopped by a check, the end.
func TestGoldenProgressiveKriegspiel(t *testing.T) {
	runGolden(t, "pk", "progressive-kriegspiel", []goldenStep{
		{name: "series", side: W, body: "e2e4"},
		{name: "series", side: B, body: "e7e5, d8h4"},
		{name: "series-check", side: W, body: "d1h5, h5f7, f7e8"},
		{name: "board-history", side: B, body: "BOARD\nHISTORY"},
		{name: "resign", side: B, body: "RESIGN"},
	})
}

// PSC: a sealed move, the opponent told only that one was chosen, the turn with both moves,
// CONTROL, a move refused for the control rules, a draw agreed.
func TestGoldenSynchronous(t *testing.T) {
	runGolden(t, "psc", "synchronous", []goldenStep{
		{name: "sealed", side: W, body: "e4"},
		{name: "turn", side: B, body: "e5"},
		{name: "control-refused", side: W, body: "CONTROL\nQh5\nNf3"},
		{name: "turn", side: B, body: "Nc6"},
		{name: "draw-offer", side: W, body: "DRAW OFFER"},
		{name: "draw-accept", side: B, body: "DRAW ACCEPT"},
	})
}

// PSC with fog of war (PS-D9): each sees what his men see; a man lost is told by square and
// kind; a move the hidden counts forbid is "not possible now"; HELP without CONTROL.
func TestGoldenSynchronousFog(t *testing.T) {
	runGoldenWith(t, "pscfog", "synchronous", variant.Options{FEN: "4r2b/8/8/4N3/8/7k/8/K7 w - - 0 1", Flags: map[string]string{"fog": "true"}}, []goldenStep{
		{name: "sealed", side: W, body: "Ka2"},
		{name: "capture", side: B, body: "Bxe5"},
		{name: "not-possible", side: W, body: "Kb2"},
		{name: "help", side: W, body: "HELP"},
		{name: "sealed", side: W, body: "Kb1"},
		{name: "history", side: B, body: "HISTORY"},
		{name: "resign", side: B, body: "RESIGN"},
	})
}

// Korolev's game: a self-capture, a collision, an illusory capture, the king captured.
func TestGoldenKorolev(t *testing.T) {
	runGolden(t, "korolev", "korolev", []goldenStep{
		{name: "sealed", side: W, body: "e4"},
		{name: "turn", side: B, body: "d5"},
		{name: "sealed", side: W, body: "exd5"},
		{name: "exchange", side: B, body: "Qxd5"},
		{name: "sealed", side: W, body: "Qh5"},
		{name: "turn", side: B, body: "Qxg2"},
		{name: "resign", side: W, body: "RESIGN"},
	})
}

// Train Wreck: a turn of two moves (one's own man, then an enemy man), the refusal of a move
// of the enemy king, a takeback asked and accepted, the end.
func TestGoldenTrainWreck(t *testing.T) {
	runGolden(t, "trainwreck", "trainwreck", []goldenStep{
		{name: "turn", side: W, body: "e2-e4 / b8-c6"},
		{name: "king-refused", side: B, body: "d7-d5 / e1-e2"},
		{name: "turn", side: B, body: "d7-d5 / g1-f3"},
		{name: "takeback", side: B, body: "TAKEBACK"},
		{name: "takeback-accept", side: W, body: "TAKEBACK ACCEPT"},
		{name: "resign", side: B, body: "RESIGN"},
	})
}

// Three-Move Train Wreck: White's first turn of one own move, then two own moves and one of
// the enemy's.
func TestGoldenTrainWreckThree(t *testing.T) {
	runGolden(t, "trainwreck3", "trainwreck-three", []goldenStep{
		{name: "first-turn", side: W, body: "e4 / Nc6"},
		{name: "turn", side: B, body: "d5, e5 / Nf3"},
		{name: "refused", side: W, body: "d4 / Ke7"},
		{name: "resign", side: W, body: "RESIGN"},
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
