package progressive_test

import (
	"testing"

	"github.com/refereed/refereed/referee/refereetest"
	"github.com/refereed/refereed/variant"
)

// Progressive by mail: the whole series in one mail, applied whole or refused naming its
// first bad move; both players get the series, the diagram and what comes next.
func TestProgressiveByMail(t *testing.T) {
	ann, bob := refereetest.White, refereetest.Black
	h := refereetest.New(t)
	id := h.NewGame("progressive-italian", variant.Options{})
	h.Outbox()
	h.Deliver(h.Reply(id, W, "SERIES 1: e4"))
	m := h.Outbox()
	for _, who := range []string{ann, bob} {
		refereetest.Says(t, "after series 1", refereetest.BodyTo(t, m, who), "White played series 1: e4", "Next: series 2, 2 moves, for Black.", "+------------------------+")
	}
	h.Deliver(h.Reply(id, B, "e5, Qh4"))
	h.Outbox()
	h.Deliver(h.Reply(id, W, "3: Bc4, Bxf7+, Nf3"))
	m = h.Outbox()
	refereetest.Says(t, "refused series", refereetest.BodyTo(t, m, ann), "Line 1 (3: Bc4, Bxf7+, Nf3) was refused: move 2 (Bxf7+) gives check", "which Italian rules forbid.", "Nothing\nin your mail was done.")
	if refereetest.BodyTo(t, m, bob) != "" {
		t.Error("Bob was told of Ann's refused series")
	}
	h.Deliver(h.Reply(id, W, "Nf3, Nxh4, Bc4"))
	refereetest.Says(t, "Bob after series 3", refereetest.BodyTo(t, h.Outbox(), bob), "White played series 3: Nf3, Nxh4, Bc4", "Next: series 4, 4 moves, for Black.",
		"Subject: [refereed #1] Italian Progressive: your move (series 4)")
}

// A series written one move a line is one series, as Progressive Kriegspiel takes it; a line
// past the series is not part of it.
func TestSeriesOneMoveALine(t *testing.T) {
	ann, bob := refereetest.White, refereetest.Black
	h := refereetest.New(t)
	id := h.NewGame("progressive", variant.Options{})
	h.Outbox()
	h.Deliver(h.Reply(id, W, "e4"))
	h.Outbox()
	h.Deliver(h.Reply(id, B, "e5\nNc6\nNf6"))
	m := h.Outbox()
	refereetest.Says(t, "Bob's answer", refereetest.BodyTo(t, m, bob), "Black played series 2: e5, Nc6", "Line 3 (Nf6) was refused")
	refereetest.Says(t, "Ann's news", refereetest.BodyTo(t, m, ann), "Black played series 2: e5, Nc6")
	// A sign-off is not taken into a short series.
	h.Deliver(h.Reply(id, W, "Nf3, Bc4, d3"))
	h.Outbox()
	h.Deliver(h.Reply(id, B, "Hi Ann,\nd6\n\nThanks"))
	refereetest.Says(t, "Bob's short series", refereetest.BodyTo(t, h.Outbox(), bob), "Line 2 (d6) was refused: series 4 has 4 moves; you sent 1")
}
