package transactional_test

import (
	"strings"
	"testing"

	"github.com/refereed/refereed/referee/refereetest"
	"github.com/refereed/refereed/variant"
)

// The players' addresses, as the tests moved from package referee name them.
const (
	ann = refereetest.White
	bob = refereetest.Black
)

// A refused line stops processing: the reply names the line and the reason, says what was
// kept, and quotes the rest back; the opponent hears nothing of the refused line.
func TestRefusedLineQuotesRest(t *testing.T) {
	h := refereetest.New(t)
	id := h.NewGame("transactional", variant.Options{})
	h.Outbox()
	h.Deliver(h.Reply(id, W, "Nc3\nNb5\nZz9\nNc7"))
	m := h.Outbox()
	got := refereetest.BodyTo(t, m, ann)
	refereetest.Says(t, "reply", got, "Accepted T1: Nc3", "Kept for a later turn: Nb5", "Line 3 (Zz9) was refused", "The lines before it were done", "> Zz9", "> Nc7", "line 3 refused; lines above it done")
	if b := refereetest.BodyTo(t, m, bob); !strings.Contains(b, "Your turn") || strings.Contains(b, "Zz9") || strings.Contains(b, "Nc3") {
		t.Errorf("Bob was told:\n%s", b)
	}
}

// HELP, BOARD and HISTORY answer the sender only.
func TestHelpBoardHistory(t *testing.T) {
	h := refereetest.New(t)
	id := h.NewGame("transactional", variant.Options{})
	h.Deliver(h.Reply(id, W, "e4"))
	h.Outbox()
	h.Deliver(h.Reply(id, B, "help\nBOARD\nhistory"))
	m := h.Outbox()
	if len(m) != 1 {
		t.Fatalf("%d mails, want the one reply to Bob", len(m))
	}
	refereetest.Says(t, "Bob's reply", refereetest.BodyTo(t, m, bob), "Commands, one per line:", "EP? e4", "Your current view is below.", "Your view (nothing pending: both views are the same)", "What you have been told in this game:", "Your turn: transaction T2")
	if strings.Contains(refereetest.BodyTo(t, m, bob), "e4.") {
		t.Error("history reveals White's pending move")
	}
}

// Three moves sent out of turn in one Transactional mail are kept for later turns and said
// once, in order, not in three paragraphs that each say it again (found by review).
func TestBatchSaidOnce(t *testing.T) {
	h := refereetest.New(t)
	id := h.NewGame("transactional", variant.Options{})
	h.Outbox()
	h.Deliver(h.Reply(id, B, "T1: d5\nT1: Nf6\nT1: e6"))
	a := refereetest.BodyTo(t, h.Outbox(), bob)
	if n := strings.Count(a, "Kept for"); n != 1 {
		t.Fatalf("%d paragraphs about the kept lines:\n%s", n, a)
	}
	refereetest.Says(t, "Bob's answer", strings.Join(strings.Fields(a), " "), "Kept for later turns, in this order: d5, Nf6, e6.")
}

// TX-D12: a batch written on one line, "T1: Nc3 / T1: Nb5 / ...", is read as its lines; a
// T-number that is not the transaction a kept line will be played in gets a note (TX-D15).
func TestBatchOnOneLine(t *testing.T) {
	h := refereetest.New(t)
	id := h.NewGame("transactional", variant.Options{})
	h.Outbox()
	h.Deliver(h.Reply(id, W, "T1: Nc3 / T1: Nb5 / T9: Na3 (C)"))
	a := strings.Join(strings.Fields(refereetest.BodyTo(t, h.Outbox(), ann)), " ")
	refereetest.Says(t, "Ann's answer", a, "Accepted T1: Nc3", "Kept for later turns, in this order: Nb5, Na3 (C).",
		"you wrote T9, but this line will be played in transaction T1")
	if strings.Contains(a, "you wrote T1") {
		t.Errorf("a right T-number got a note:\n%s", a)
	}
}
