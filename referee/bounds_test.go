package referee

import (
	"strings"
	"testing"

	"github.com/refereed/refereed/referee/outbox"
)

// One mail's work is bounded: 128,000 "?" lines (the attack that grew the daemon to 1.5 GB)
// get one answer of bounded size, with 30 queries answered and the rest returned unread; a
// hundred HISTORY lines likewise; moves are never limited.
func TestWorkPerMailBounded(t *testing.T) {
	h := newHarness(t)
	id := h.newGame("orthodox")
	h.outbox()
	h.deliver(h.reply(id, W, strings.Repeat("?\n", 128000)))
	out := h.outbox()
	if len(out) != 1 {
		t.Fatalf("%d mails for one mail of queries", len(out))
	}
	if n := len(out[0].Raw); n > outbox.MaxReplyText*3 {
		t.Errorf("the answer is %d bytes", n)
	}
	body := bodyTo(t, out, ann)
	mustContain(t, "answer", body, "you have sent 30 queries", "This answer was cut at 256 KB")
	// The limit holds across mails, while moves go on.
	h.deliver(h.reply(id, W, "HISTORY"))
	mustContain(t, "31st query", bodyTo(t, h.outbox(), ann), "was not read: you have sent 30 queries")
	h.deliver(h.reply(id, W, "e4"))
	if out := h.outbox(); len(out) != 2 {
		t.Errorf("a move after the query limit: %d mails, want the answer and Bob's news", len(out))
	}
	// Past MaxCommands lines, the rest comes back unread.
	h.ref.QueryLimit = 1000
	h.deliver(h.reply(id, B, strings.Repeat("BOARD\n", 120)))
	mustContain(t, "long mail", bodyTo(t, h.outbox(), bob), "more than 100 command lines")
}

// The answer's cap holds for the whole mail, its HTML alternative and the quoted unread
// lines included (issue 20: a few long lines quoted back made an answer of 435 KB).
func TestAnswerCapIncludesQuoted(t *testing.T) {
	h := newHarness(t)
	id := h.newGame("orthodox")
	h.outbox()
	for _, body := range []string{
		"xx\n" + strings.Repeat(strings.Repeat("q", 200000)+"\n", 10),
		"xx\n" + strings.Repeat(strings.Repeat("<", 900)+"\n", 3000),
		strings.Repeat("<&", 100000),
	} {
		h.deliver(h.reply(id, W, body))
		out := h.outbox()
		if len(out) != 1 {
			t.Fatalf("%d answers", len(out))
		}
		if n := len(out[0].Raw); n > outbox.MaxReplyText {
			t.Errorf("an answer of %d bytes, want at most %d", n, outbox.MaxReplyText)
		}
		mustContain(t, "the cut answer", bodyTo(t, out, ann), "This answer was cut at 256 KB")
	}
}
