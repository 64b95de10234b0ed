package referee

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/refereed/refereed/archive"
	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/referee/clocks"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/templates/mailcheck"
	"github.com/refereed/refereed/variant"
)

// firstMove is a first mail from White for the registered games whose test wants one that
// leaves something hidden from Black (a pending Transactional move, a stated Conditional
// C-move) or that must come in an order of its own; any other game's is found (firstOf).
var firstMove = map[string]string{
	"orthodox":            "e4",
	"transactional":       "e4",
	"progressive":         "e4",
	"progressive-italian": "e4",
	"conditional":         "A: e4 C: !d4",
	"trainwreck":          "e2-e4 / b8-c6",
	"trainwreck-three":    "e2-e4 / b8-c6",
	"synchronous":         "e4",
	"korolev":             "e4",
	numberedKey:           "e4",

	// A Kriegspiel move stops the reading of its mail: the draw offer goes first.
	"kriegspiel":             "DRAW OFFER\ne4",
	"progressive-kriegspiel": "DRAW OFFER\ne4",
}

// missingWords is what templates.Say writes for a sentence it cannot render.
var missingWords = regexp.MustCompile(`\[[a-z][a-z/-]{2,}\]`)

// checkMail holds what every mail to a player must do (templates/mailcheck).
func checkMail(t *testing.T, m store.OutMail) { t.Helper(); mailcheck.Check(t, m) }

// firstOf is White's first mail in game key: firstMove's, or the first of the usual ways to
// write e2-e4 that the game takes. A new game needs no line anywhere for it.
func firstOf(key string) (string, bool) {
	if m, ok := firstMove[key]; ok {
		return m, true
	}
	for _, m := range []string{"e4", "e2e4", "e2-e4", "A: e4", "T1: e4", "e2-e4 / b8-c6", "e4 / Nc6"} {
		g, err := variant.MustLookup(key).New(variant.Options{})
		if err != nil {
			return "", false
		}
		if cmd, _, err := g.Resolve(chess.White, m); err == nil {
			if _, err := g.Submit(cmd); err == nil {
				return m, true
			}
		}
	}
	return "", false
}

// rules.md 0.4b: when a game ends, however it ends, both players get the whole true record:
// the record in the game's notation, every accepted command (hidden ones included, like a
// pending move or a stated C-move never executed) and the final position, drawn from each
// player's own side. Every registered variant, ended by resignation, agreement and forfeit.
func TestGameOverRevealsEverything(t *testing.T) {
	for _, key := range variant.Keys() {
		if key == stopperKey {
			continue // stops reading after its first move: the draw offer would go unread
		}
		first, ok := firstOf(key)
		if !ok {
			t.Errorf("variant %s: no first move of White's found", key)
			continue
		}
		for _, end := range []string{"resign", "draw", "forfeit"} {
			t.Run(key+"/"+end, func(t *testing.T) {
				h := newHarness(t)
				id := h.newGame(key)
				h.outbox()
				first := first
				if end == "draw" {
					first += "\nDRAW OFFER"
				}
				h.deliver(h.reply(id, W, first))
				for _, m := range h.outbox() {
					checkMail(t, m)
				}
				switch end {
				case "resign":
					h.deliver(h.reply(id, B, "RESIGN"))
				case "draw":
					h.deliver(h.reply(id, B, "DRAW ACCEPT"))
				case "forfeit":
					h.now = h.now.Add(clocks.DefaultDeadline + time.Minute)
					if _, err := h.ref.CheckDeadlines(); err != nil {
						t.Fatal(err)
					}
					if m := h.outbox(); len(m) != 1 || !strings.Contains(bodyTo(t, m, bob), "Reminder") {
						t.Fatalf("no reminder before the forfeit: %d mails", len(m))
					}
					h.now = h.now.Add(clocks.DefaultDeadline)
					if _, err := h.ref.CheckDeadlines(); err != nil {
						t.Fatal(err)
					}
				}
				if !h.outcome(id).Over() {
					t.Fatalf("the game did not end")
				}
				var events []store.Event
				var record string
				h.db.View(func(tx *store.Tx) error {
					l, err := archive.Load(tx, id)
					var v, g = (*variant.Variant)(nil), variant.Game(nil)
					if err == nil {
						v, g = l.Variant, l.Live
					}
					if err != nil {
						return err
					}
					record = v.WriteMovetext(g)
					events, err = tx.Events(id)
					return err
				})
				m := h.outbox()
				if len(m) != 2 {
					t.Fatalf("%d game-over mails, want one to each player", len(m))
				}
				for _, mail := range m {
					checkMail(t, mail)
				}
				for _, who := range []string{ann, bob} {
					body := bodyTo(t, m, who)
					mustContain(t, who+"'s game-over mail", body, "game over: "+h.outcome(id).Result, "The whole game:", "my log: every command I accepted", "The final position:")
					for _, e := range events {
						mustContain(t, who+"'s game-over mail", body, fmt.Sprintf("%s: %s", chess.Color(e.Side), e.Text))
					}
					for _, line := range strings.Split(record, "\n") {
						mustContain(t, who+"'s game-over mail", strings.Join(strings.Fields(body), " "), strings.Join(strings.Fields(line), " "))
					}
				}
				if key == "conditional" {
					// The C-move White stated was never executed: both see it now.
					for _, who := range []string{ann, bob} {
						mustContain(t, who+"'s game-over mail", bodyTo(t, m, who), "!d4")
					}
				}
				// After the end, nothing more is sent on time.
				h.now = h.now.Add(10 * clocks.DefaultDeadline)
				if n, _ := h.ref.CheckDeadlines(); n != 0 {
					t.Errorf("%d deadline mails for a finished game", n)
				}
			})
		}
	}
}

// A game set up from a decided position is over from the start: stored as over, and its
// opening mails say so, with the result, and do not say who moves first.
func TestGameOverAtCreation(t *testing.T) {
	for _, tc := range []struct{ key, fen, result string }{
		{"orthodox", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "1-0"},
		{"progressive", "8/8/8/4k3/8/8/8/4K3 w - - 0 1", "1/2-1/2"},
		{"conditional", "k7/8/1Q6/8/8/8/8/K7 b - - 0 1", "1/2-1/2"},
		{"transactional", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "1-0"},
	} {
		h := newHarness(t)
		id, err := h.ref.NewGame(tc.key, ann, bob, variant.Options{FEN: tc.fen})
		if err != nil {
			t.Fatal(err)
		}
		var sg *store.Game
		h.db.View(func(tx *store.Tx) error { sg, err = tx.Game(id); return err })
		if !sg.Over() || sg.Result != tc.result {
			t.Errorf("%s: stored as %q %q, want over %s", tc.key, sg.Status, sg.Result, tc.result)
		}
		m := h.outbox()
		for _, mail := range m {
			checkMail(t, mail)
		}
		for _, who := range []string{ann, bob} {
			body := bodyTo(t, m, who)
			mustContain(t, tc.key+" opening of a decided game", body, "game over at the start: "+tc.result, "already decided", "There is nothing to play")
			for _, wrong := range []string{"moves first", "your move", "It is your", "HELP lists"} {
				if strings.Contains(body, wrong) {
					t.Errorf("%s: the opening of a decided game says %q:\n%s", tc.key, wrong, body)
				}
			}
		}
		h.now = h.now.Add(10 * clocks.DefaultDeadline)
		if n, _ := h.ref.CheckDeadlines(); n != 0 {
			t.Errorf("%s: %d deadline mails for a game over at the start", tc.key, n)
		}
	}
}
