package referee

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/emersion/go-message"
	"github.com/refereed/refereed/store"
)

// SET NOTATION and SET BOARD (issue 25): kept per player across his games, shown by SET,
// and changing his mails only.
func TestSettings(t *testing.T) {
	h := newHarness(t)
	id := h.newGame("orthodox")
	h.outbox()
	a, _ := h.send(id, W, "SET")
	mustSay(t, "SET", a, "Your settings, in all your games: moves shown in the games' own notation", "boards drawn with letters")
	a, _ = h.send(id, W, "SET NOTATION numeric\nSET BOARD unicode")
	mustSay(t, "SET NOTATION", a, "Done. Your settings, in all your games: moves shown in ICCF numeric notation", "boards drawn with figurines")
	a, _ = h.send(id, W, "SET COLOUR red")
	mustSay(t, "SET COLOUR", a, "write SET NOTATION numeric or algebraic")
	a, _ = h.send(id, W, "SET BOARD fancy")
	mustSay(t, "SET BOARD fancy", a, "SET BOARD is ascii or unicode")
	a, b := h.send(id, W, "e4")
	mustSay(t, "White's mail", a, "White played 1. 5254", "The game so far: 1. 5254", "♔", "White: ♔ ♕ ♖ ♗ ♘ ♙")
	mustSay(t, "Black's mail", b, "White played 1. e4", "The game so far: 1. e4", "White: K Q R B N P")
	if strings.Contains(b, "♔") || strings.Contains(b, "5254") {
		t.Errorf("Black's mail follows White's settings:\n%s", b)
	}
	// Kept across games: his next game's first mail is drawn as he asked.
	h.newGame("orthodox")
	for _, m := range h.outbox() {
		if m.To[0] == ann && !bytes.Contains(m.Raw, []byte("=E2=99=94")) { // ♔, quoted-printable
			t.Errorf("a new game's opening forgets the setting:\n%s", m.Raw)
		}
	}
}

// PGN answers with the game so far as an attachment, player-safe: in a hidden game only the
// player's own moves, in a comment.
func TestPGNAttachment(t *testing.T) {
	h := newHarness(t)
	id := h.newGame("orthodox")
	h.outbox()
	h.send(id, W, "e4")
	h.send(id, B, "e5")
	h.deliver(h.reply(id, B, "PGN"))
	pgn := attachmentTo(t, h.outbox(), bob)
	for _, want := range []string{`[White "ann@example.com"]`, `[Variant "Orthodox chess"]`, "1. e4 e5 *"} {
		if !strings.Contains(pgn, want) {
			t.Errorf("PGN lacks %q:\n%s", want, pgn)
		}
	}
	k := h.newGame("kriegspiel")
	h.outbox()
	h.send(k, W, "e4")
	h.send(k, B, "d5")
	h.deliver(h.reply(k, W, "PGN"))
	pgn = attachmentTo(t, h.outbox(), ann)
	if !strings.Contains(pgn, "{1. e2-e4}") || strings.Contains(pgn, "d5") {
		t.Errorf("Kriegspiel PGN:\n%s", pgn)
	}
}

// attachmentTo is the PGN attached to the one mail to addr.
func attachmentTo(t *testing.T, mails []store.OutMail, addr string) string {
	t.Helper()
	for _, m := range mails {
		if m.To[0] != addr {
			continue
		}
		e, err := message.Read(bytes.NewReader(m.Raw))
		if err != nil {
			t.Fatal(err)
		}
		var found string
		e.Walk(func(path []int, part *message.Entity, err error) error {
			if ct, _, _ := part.Header.ContentType(); ct == "application/x-chess-pgn" {
				b, _ := io.ReadAll(part.Body)
				found = string(b)
			}
			return nil
		})
		if found == "" {
			t.Fatalf("no PGN attached:\n%s", m.Raw)
		}
		return found
	}
	t.Fatalf("no mail to %s", addr)
	return ""
}

// The move news is in numeric notation for the player who asked, in the games whose news
// names moves: Progressive's series, Train Wreck's turns, a Kriegspiel player's own move.
func TestNumericNews(t *testing.T) {
	h := newHarness(t)
	for _, c := range []struct{ key, move, mine, theirs string }{
		{"progressive", "e4", "White played series 1: 5254", "White played series 1: e4"},
		{"trainwreck", "e2-e4 / Nb8-c6", "White played turn 1: 5254 / 2836.", "White played turn 1: e2-e4 / Nb8-c6."},
		{"kriegspiel", "e4", "You played 5254. White has played.", "White has played."},
	} {
		id := h.newGame(c.key)
		h.outbox()
		h.send(id, W, "SET NOTATION numeric")
		a, b := h.send(id, W, c.move)
		mustSay(t, c.key+" (White)", a, c.mine)
		mustSay(t, c.key+" (Black)", b, c.theirs)
		if strings.Contains(b, "5254") {
			t.Errorf("%s: Black's mail follows White's setting:\n%s", c.key, b)
		}
		h.send(id, W, "SET NOTATION algebraic")
	}
}
