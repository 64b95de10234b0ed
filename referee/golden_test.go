package referee

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/refereed/refereed/chess"
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
	h := newHarness(t)
	id := h.newGame(variantKey)
	produced := map[string]bool{}
	check := func(n int, name string) {
		for _, m := range h.outbox() {
			who := "white"
			if m.To[0] == bob {
				who = "black"
			}
			file := filepath.Join("testdata", "golden", fmt.Sprintf("%s-%02d-%s-%s.eml", game, n, name, who))
			if produced[file] {
				t.Errorf("%s: two mails to the same player in one step", file)
			}
			produced[file] = true
			checkMail(t, m)
			if *update {
				if err := os.WriteFile(file, m.Raw, 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Errorf("%s: %v (run go test ./referee -run Golden -update)", file, err)
				continue
			}
			if !bytes.Equal(m.Raw, want) {
				t.Errorf("%s differs; got:\n%s", file, m.Raw)
			}
		}
	}
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
	files, err := filepath.Glob(filepath.Join("testdata", "golden", game+"-*.eml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if produced[f] {
			continue
		}
		if *update {
			if err := os.Remove(f); err != nil {
				t.Fatal(err)
			}
			continue
		}
		t.Errorf("%s: this mail was not sent", f)
	}
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
