package referee

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/refereed/refereed/parser"
	"github.com/refereed/refereed/store"
)

// plainTo is the text part of the one mail to addr in mails.
func plainTo(t *testing.T, mails []store.OutMail, addr string) string {
	t.Helper()
	for _, m := range mails {
		if m.To[0] == addr {
			p, err := parser.Parse(m.Raw)
			if err != nil {
				t.Fatal(err)
			}
			return p.Body
		}
	}
	t.Fatalf("no mail to %s", addr)
	return ""
}

func quoteLines(body string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimRight(body, "\n"), "\n") {
		b.WriteString(strings.TrimRight("> "+l, " ") + "\n")
	}
	return b.String()
}

// Issue 34: players answer as their clients write, in their languages, above, below or
// between the quoted lines; what they wrote is read, the quote never, and a sign-off is not
// refused.
func TestRepliesAsPeopleWriteThem(t *testing.T) {
	h := newHarness(t)
	id := h.newGame("orthodox")
	mails := h.outbox()
	annMail := plainTo(t, mails, ann)

	// Ann bottom-posts under a Polish Gmail attribution, and signs off.
	h.deliver(h.reply(id, W, "W dniu pt., 27 lis 2026 o 10:00 refereed <referee@example.org> napisał(a):\n"+quoteLines(annMail)+"\ne4\n\nDzięki,\nAnn\n"))
	mails = h.outbox()
	annAnswer := plainTo(t, mails, ann)
	mustContain(t, "Ann's answer", annAnswer, "White played 1. e4", "(Dzięki, Ann) were not read as commands")
	if strings.Contains(annAnswer, "refused") {
		t.Errorf("Ann's answer refuses something:\n%s", annAnswer)
	}
	bobMail := plainTo(t, mails, "bob@example.net")

	// Bob's phone pastes the mail below, unquoted, after a header block in Russian; his
	// move stands above it.
	h.deliver(h.reply(id, B, "e5\n\nОт: refereed <referee@example.org>\nОтправлено: 27 ноября 2026 г. 10:00\nКому: bob@example.net\n\n"+bobMail))
	mails = h.outbox()
	mustContain(t, "Ann's news", plainTo(t, mails, ann), "Black played 1... e5")
	annMail = plainTo(t, mails, ann)

	// Ann's client pastes the mail unquoted with no attribution at all: the referee knows
	// its lines.
	h.deliver(h.reply(id, W, "Nf3\n\n"+annMail))
	mails = h.outbox()
	mustContain(t, "Bob's news", plainTo(t, mails, "bob@example.net"), "White played 2. Nf3")
	if a := plainTo(t, mails, ann); strings.Contains(a, "refused") || strings.Contains(a, "not read") {
		t.Errorf("Ann's unquoted original was read:\n%s", a)
	}
	bobMail = plainTo(t, mails, "bob@example.net")

	// Bob answers inline, a Russian Gmail attribution above.
	parts := strings.SplitN(strings.TrimRight(bobMail, "\n"), "\n\n", 3)
	if len(parts) < 3 {
		t.Fatalf("Bob's mail has fewer than three paragraphs:\n%s", bobMail)
	}
	h.deliver(h.reply(id, B, "пт, 27 нояб. 2026 г. в 10:00, refereed <referee@example.org>:\n\n"+quoteLines(parts[0])+"\nNc6\n\n"+quoteLines(parts[1]+"\n\n"+parts[2])))
	mustContain(t, "Ann's news", plainTo(t, h.outbox(), ann), "Black played 2... Nc6")
}

// Issue 34: a player's mistakes in his own game are answered, across all his games, far
// beyond what a person makes; when a limit bites, its last answer says so.
func TestOwnRefusalsAnswered(t *testing.T) {
	h := newHarness(t)
	id, id2 := h.newGame("orthodox"), h.newGame("orthodox")
	h.outbox()
	for i := 0; i < RefusalLimit; i++ {
		h.deliver(h.reply(id, W, fmt.Sprintf("nonsense %d", i)))
		h.deliver(h.reply(id2, W, fmt.Sprintf("nonsense %d", i)))
	}
	if n := len(h.outbox()); n != 2*RefusalLimit {
		t.Fatalf("%d answers to %d mistakes in two games, want all", n, 2*RefusalLimit)
	}
	var last string
	for i := RefusalLimit; i < OwnRefusalLimit+5; i++ {
		h.deliver(h.reply(id, W, fmt.Sprintf("nonsense %d", i)))
		if m := h.outbox(); len(m) == 1 {
			last = plainTo(t, m, ann)
		} else if i < OwnRefusalLimit {
			t.Fatalf("mistake %d in one game: %d answers", i+1, len(m))
		}
	}
	mustContain(t, "the last answer before the limit", last, fmt.Sprintf("I could only refuse %d of your mails in this game", OwnRefusalLimit))
	h.deliver(h.reply(id2, W, "nonsense again")) // the other game is answered still
	if n := len(h.outbox()); n != 1 {
		t.Errorf("a mistake in another game: %d answers", n)
	}
}

// Issue 34: the corpus of real clients' reply shapes (parser/testdata/replies) through the
// referee: Bob answers Ann's 1. e4 with each, his move where his text stands and the mail he
// got quoted as his client quotes it. The move is played, and nothing is refused.
func TestReplyCorpusByMail(t *testing.T) {
	files, err := filepath.Glob("../parser/testdata/replies/*.txt")
	if err != nil || len(files) < 40 {
		t.Fatalf("corpus: %d files, %v", len(files), err)
	}
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		head, body, _ := strings.Cut(string(b), "\n\n")
		_, want, _ := strings.Cut(head, "\nwant: ")
		var read []string // what the fixture reads, asides aside
		for _, l := range strings.Split(want, "|") {
			if !strings.HasPrefix(l, "~") {
				read = append(read, l)
			}
		}
		if strings.Join(read, "|") != "Nc6" {
			continue // fixtures of the one move Nc6 (and asides) only
		}
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txt"), func(t *testing.T) {
			h := newHarness(t)
			id := h.newGame("orthodox")
			h.outbox()
			h.deliver(h.reply(id, W, "e4"))
			bobMail := plainTo(t, h.outbox(), "bob@example.net")
			body := strings.ReplaceAll(body, "{{QUOTED}}", strings.TrimRight(quoteLines(bobMail), "\n"))
			body = strings.ReplaceAll(body, "{{ORIGINAL}}", strings.TrimRight(bobMail, "\n"))
			h.deliver(h.reply(id, B, body))
			mails := h.outbox()
			mustContain(t, "Ann's news", plainTo(t, mails, ann), "Black played 1... Nc6")
			if answer := plainTo(t, mails, "bob@example.net"); strings.Contains(answer, "refused") {
				t.Errorf("Bob's answer refuses something:\n%s", answer)
			}
		})
	}
}
