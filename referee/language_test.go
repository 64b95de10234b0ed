package referee

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/refereed/refereed/templates"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/lang"
	"github.com/refereed/refereed/parser"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/variant"
)

// setLanguage keeps address's language and piece letters, as SET LANGUAGE and SET PIECES do.
func (h *harness) setLanguage(address string, l, pieces lang.Tag) {
	h.t.Helper()
	if err := h.db.Update(func(tx *store.Tx) error {
		rec, err := tx.PlayerRecord(address)
		if err != nil {
			return err
		}
		rec.Language, rec.Pieces = string(l), string(pieces)
		return tx.PutPlayerRecord(rec)
	}); err != nil {
		h.t.Fatal(err)
	}
}

// Each player reads his mail in his language, with moves in his piece letters, and writes
// moves in them: Ann in German (Sf3 for Nf3), Bob in French (Cf6), a refusal and HELP in
// theirs, and the command words English for both.
func TestGoldenLanguages(t *testing.T) {
	runGolden(t, "lang", "orthodox", []goldenStep{
		{name: "set-german", side: W, body: "SET LANGUAGE de\ne4"},
		{name: "set-french", side: B, body: "SET LANGUAGE francais\nCf6"},
		{name: "german-letters", side: W, body: "Sc3"},
		{name: "refused-french", side: B, body: "Dxd8"},
		{name: "help-french", side: B, body: "HELP"},
		{name: "english-letters", side: B, body: "SET PIECES en\nNc6"},
		{name: "resign", side: W, body: "RESIGN"},
	})
}

// Golden mails in every language, both players reading it, for a game that hides nothing and
// one that hides: what each player reads, whole.
func TestGoldenEveryLanguage(t *testing.T) {
	for _, l := range lang.All() {
		if l == lang.EN {
			continue // the other goldens
		}
		both := func(h *harness) { h.setLanguage(ann, l, ""); h.setLanguage(bob, l, "") }
		t.Run(string(l), func(t *testing.T) {
			runGoldenSetup(t, "in-"+string(l)+"-orthodox", "orthodox", variant.Options{}, both, []goldenStep{
				{name: "move", side: W, body: "e4"},
				{name: "refused", side: B, body: "e4"},
				{name: "draw-offer", side: B, body: "e5\nDRAW OFFER"},
				{name: "resign", side: W, body: "RESIGN"},
			})
			runGoldenSetup(t, "in-"+string(l)+"-kriegspiel", "kriegspiel", variant.Options{}, both, []goldenStep{
				{name: "move", side: W, body: "e2e4"},
				{name: "reply", side: B, body: "e7e5"},
				{name: "any", side: W, body: "ANY?"},
				{name: "resign", side: B, body: "RESIGN"},
			})
		})
	}
}

// SET LANGUAGE and SET PIECES say what is wrong with a value that is not a language, and
// keep nothing.
func TestSetLanguageRefused(t *testing.T) {
	h := newHarness(t)
	id := h.newGame("orthodox")
	h.outbox()
	h.deliver(h.reply(id, W, "SET LANGUAGE klingon"))
	body := flat(bodyTo(t, h.outbox(), ann))
	mustContain(t, "a language refused", body, `"klingon" is not a language I write: en (English), de (Deutsch)`)
	h.db.View(func(tx *store.Tx) error {
		if rec, _ := tx.PlayerRecord(ann); rec.Language != "" {
			t.Errorf("a refused language was kept: %q", rec.Language)
		}
		return nil
	})
}

var (
	fenRe   = regexp.MustCompile(`[1-8pnbrqkPNBRQK/]{15,} [wb] [-KQkq]+ [-a-h1-8]+ \d+ \d+`)
	boardRe = regexp.MustCompile(`(?m)^[1-8] \|.*\| [1-8]$`)
)

// The language changes the words and nothing else (issue 39): for every language, the same
// game gives Ann the same boards and FENs in the same number of mails, and Bob, who reads
// English, byte-identical mail whatever Ann reads (he learns nothing of her settings). In
// Kriegspiel too, where the boards are each player's own.
func TestLanguageChangesWordsOnly(t *testing.T) {
	games := map[string][]string{
		"orthodox":   {"W:e4", "B:e5", "W:Nf3", "B:Nc6", "W:HELP", "W:Bb5", "B:a6", "W:Qxf7", "W:DRAW OFFER", "B:DRAW DECLINE", "W:RESIGN"},
		"kriegspiel": {"W:e4", "B:e5", "W:Qh5", "B:Nc6", "W:Bc4", "B:Nf6", "W:ANY?", "W:Qxf7", "B:RESIGN"},
	}
	for key, script := range games {
		t.Run(key, func(t *testing.T) {
			type seen struct {
				annBoards, annFENs []string
				annMails           int
				bob                [][]byte
			}
			var base *seen
			for _, l := range lang.All() {
				h := newHarness(t)
				h.setLanguage(ann, l, lang.EN) // her words in l, moves in English letters
				id, err := h.ref.NewGame(key, ann, bob, variant.Options{})
				if err != nil {
					t.Fatal(err)
				}
				s := &seen{}
				take := func() {
					for _, m := range h.outbox() {
						if m.To[0] == bob {
							s.bob = append(s.bob, bytes.ReplaceAll(m.Raw, []byte(fmt.Sprint(h.now.Unix())), nil))
							continue
						}
						p, err := parser.Parse(m.Raw)
						if err != nil {
							t.Fatal(err)
						}
						s.annMails++
						s.annBoards = append(s.annBoards, strings.Join(boardRe.FindAllString(p.Body, -1), "\n"))
						s.annFENs = append(s.annFENs, strings.Join(fenRe.FindAllString(p.Body, -1), "\n"))
					}
				}
				take()
				for _, step := range script {
					side := chess.White
					if step[0] == 'B' {
						side = chess.Black
					}
					h.deliver(h.reply(id, side, step[2:]))
					take()
				}
				if base == nil {
					base = s
					if len(base.annBoards) == 0 || !slices0(base.annFENs) && key == "orthodox" {
						t.Fatalf("%s: nothing to compare: %+v", l, base)
					}
					continue
				}
				if s.annMails != base.annMails {
					t.Errorf("%s: Ann got %d mails, %d in English", l, s.annMails, base.annMails)
				}
				for i := range min(len(s.annBoards), len(base.annBoards)) {
					if s.annBoards[i] != base.annBoards[i] || s.annFENs[i] != base.annFENs[i] {
						t.Errorf("%s: Ann's mail %d shows another board or FEN than in English:\n%s\n%s\nwant\n%s\n%s", l, i, s.annBoards[i], s.annFENs[i], base.annBoards[i], base.annFENs[i])
					}
				}
				if len(s.bob) != len(base.bob) {
					t.Fatalf("%s: Bob got %d mails, %d when Ann reads English", l, len(s.bob), len(base.bob))
				}
				for i := range s.bob {
					if !bytes.Equal(s.bob[i], base.bob[i]) {
						t.Errorf("%s: Bob's mail %d depends on Ann's language:\n%s\nwant\n%s", l, i, s.bob[i], base.bob[i])
					}
				}
			}
		})
	}
}

// slices0 reports whether some string of ss is not empty.
func slices0(ss []string) bool {
	for _, s := range ss {
		if s != "" {
			return true
		}
	}
	return false
}

// A language's own command words work for a player who reads it (AUFGEBEN is RESIGN in
// German), and his HELP lists them; English words work for everyone.
func TestLocalCommandWords(t *testing.T) {
	h := newHarness(t)
	h.setLanguage(ann, lang.DE, "")
	h.setLanguage(bob, lang.RU, "")
	id := h.newGame("orthodox")
	h.outbox()
	h.deliver(h.reply(id, W, "hilfe"))
	mustContain(t, "Ann's HELP", flat(bodyTo(t, h.outbox(), ann)), "RESIGN", "Auf Deutsch auch: AUFGEBEN (RESIGN)")
	h.deliver(h.reply(id, W, "e4"))
	h.deliver(h.reply(id, B, "ДОСКА"))
	if out := h.outbox(); len(out) != 3 {
		t.Fatalf("after e4 and ДОСКА: %d mails", len(out))
	}
	h.deliver(h.reply(id, B, "Сдаюсь"))
	h.db.View(func(tx *store.Tx) error {
		if g, _ := tx.Game(id); g.Result != "1-0" {
			t.Errorf("Сдаюсь: the game is %q, want 1-0", g.Result)
		}
		return nil
	})
}

// Why a move was refused comes in the player's language too, the chess rules' reasons
// included.
func TestRefusalReasonInLanguage(t *testing.T) {
	h := newHarness(t)
	h.setLanguage(ann, lang.DE, "")
	id := h.newGame("orthodox")
	h.outbox()
	h.deliver(h.reply(id, W, "Dd8"))
	want, ok := templates.SayWordsIn(lang.DE, "chess/none-can-move", map[string]any{"A": "queen", "B": "d8"})
	if !ok {
		t.Fatal("no German words for chess/none-can-move")
	}
	mustContain(t, "Ann's refusal", flat(bodyTo(t, h.outbox(), ann)), want)
}

// The noninterference tests hold in every language: what a player may not know changes no
// byte of his mail, whatever language the words are in.
func TestNoninterferenceInEveryLanguage(t *testing.T) {
	defer func() { testLanguage = "" }()
	for _, l := range lang.All()[1:] {
		testLanguage = l
		t.Run(string(l), func(t *testing.T) {
			t.Run("mail", TestMailNoninterference)
			t.Run("clock", TestClockNoninterference)
			t.Run("fog", TestFogMailNoninterference)
			t.Run("start", TestStartNoninterference)
		})
	}
}
