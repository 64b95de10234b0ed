package referee

import (
	"strings"
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/variant"
)

// HISTORY is what the player was told, mail by mail (issue 25): an accepted takeback is told
// where it came, after the move it took back, and the game goes on from the position it left.
func TestHistoryTakeback(t *testing.T) {
	h := newHarness(t)
	id := h.newGame("orthodox")
	for _, c := range []struct {
		side  byte
		lines string
	}{{'w', "e4"}, {'b', "e5"}, {'w', "d4"}, {'w', "TAKEBACK"}, {'b', "TAKEBACK ACCEPT"}, {'w', "Nf3"}} {
		side := W
		if c.side == 'b' {
			side = B
		}
		h.deliver(h.reply(id, side, c.lines))
	}
	h.outbox()
	h.deliver(h.reply(id, B, "HISTORY"))
	got := bodyTo(t, h.outbox(), bob)
	wants := []string{
		"- White played 1. e4.\n",
		"- Black played 1... e5.\n",
		"- White played 2. d4.\n",
		"- White asks to take back his last turn (2. d4).",
		"- Black agreed: White's last turn (2. d4) is taken back, and it is",
		"- White played 2. Nf3.\n",
	}
	at := 0
	for _, w := range wants {
		i := strings.Index(got[at:], w)
		if i < 0 {
			t.Fatalf("HISTORY lacks %q after byte %d:\n%s", w, at, got)
		}
		at += i + len(w)
	}
}

// ICCF numeric notation by mail (issue 25), a promotion's fifth digit included: the mails say
// the moves as the game writes them.
func TestNumericByMail(t *testing.T) {
	h := newHarness(t)
	id, err := h.ref.NewGame("orthodox", ann, bob, variant.Options{FEN: "4k3/P7/8/8/8/8/7p/K7 w - - 0 1"})
	if err != nil {
		t.Fatal(err)
	}
	h.outbox()
	h.deliver(h.reply(id, W, "17181+"))
	mustSay(t, "17181+", bodyTo(t, h.outbox(), bob), "White played 1. a8=Q+")
	h.deliver(h.reply(id, B, "5847"))
	mustSay(t, "5847", bodyTo(t, h.outbox(), ann), "Black played 1... Kd7")
	h.deliver(h.reply(id, W, "1878"))
	h.outbox()
	h.deliver(h.reply(id, B, "82814"))
	mustSay(t, "82814", bodyTo(t, h.outbox(), ann), "Black played 2... h1=N")
}

// A player who chose numeric notation gets the whole game in it when the game ends; his
// opponent, in algebraic.
func TestNumericWholeGame(t *testing.T) {
	h := newHarness(t)
	id, err := h.ref.NewGame("orthodox", ann, bob, variant.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h.outbox()
	h.deliver(h.reply(id, W, "SET NOTATION numeric\nf3"))
	h.outbox()
	for i, mv := range []string{"e5", "g4"} {
		h.deliver(h.reply(id, chess.Color((i+1)%2), mv))
		h.outbox()
	}
	h.deliver(h.reply(id, B, "Qh4#"))
	m := h.outbox()
	mustSay(t, "White's end", bodyTo(t, m, ann), "The whole game:\n1. 6263 5755 2. 7274 4884\n")
	mustSay(t, "Black's end", bodyTo(t, m, bob), "The whole game:\n1. f3 e5 2. g4 Qh4#\n")
}

// SET NOTATION numeric counts from the next line of the same mail.
func TestNumericSetInTheSameMail(t *testing.T) {
	h := newHarness(t)
	id, err := h.ref.NewGame("orthodox", ann, bob, variant.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h.outbox()
	h.deliver(h.reply(id, W, "SET NOTATION numeric\n5254"))
	mustSay(t, "the reply", bodyTo(t, h.outbox(), ann), "White played 1. 5254")
}
