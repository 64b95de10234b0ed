package outbox

import (
	"fmt"
	"github.com/refereed/refereed/lang"
	"strings"
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/parser"
	"github.com/refereed/refereed/store"
)

// A player's mails thread under his first mail of the game; an answer also under the mail it
// answers and, of that mail's own References, no more than MaxReferences; the token never
// stands in a Message-ID or the bounce address, only in the reply address.
func TestThreadingAndAddresses(t *testing.T) {
	w := &Writer{Address: "referee@example.org"}
	g := &store.Game{ID: 42, Players: [2]store.Player{{Address: "ann@x", Token: "abcdefghij"}, {Address: "bob@y", Token: "klmnopqrst"}}}
	if in, refs := w.threading(g, chess.White, 1, nil); in != "" || refs != nil {
		t.Errorf("the first mail threads under %q %v", in, refs)
	}
	root := w.MessageID(g, chess.White, 1)
	if in, refs := w.threading(g, chess.White, 5, nil); in != root || len(refs) != 1 || refs[0] != root {
		t.Errorf("the fifth mail threads under %q %v, want %s", in, refs, root)
	}
	var theirs []string
	for i := 0; i < 30; i++ {
		theirs = append(theirs, strings.Repeat("x", i+1)+"@z")
	}
	in, refs := w.threading(g, chess.White, 5, &parser.Message{MessageID: "m@z", References: theirs})
	if in != "m@z" || len(refs) != MaxReferences+2 || refs[0] != root || refs[len(refs)-1] != "m@z" {
		t.Errorf("an answer threads under %q %v", in, refs)
	}
	for _, s := range []string{root, w.BounceAddress(42, chess.White, "abcdefghij")} {
		if strings.Contains(s, "abcdefghij") {
			t.Errorf("%s carries the token", s)
		}
	}
	if a := w.PlayerAddress(g, chess.Black); a != "referee+g42-b-klmnopqrst@example.org" {
		t.Errorf("Black's reply address %s", a)
	}
}

// CapText keeps a mail's text within MaxReplyText and says it cut it.
func TestCapText(t *testing.T) {
	big := strings.Repeat("a", 100<<10)
	paras, quoted := CapText([]string{big, big, big, big}, []string{"x"}, lang.EN)
	total := 0
	for _, p := range paras {
		total += len(p)
	}
	if total > MaxReplyText || len(quoted) != 0 || !strings.Contains(paras[len(paras)-1], "KB") {
		t.Errorf("%d bytes kept in %d paragraphs, %d quoted lines", total, len(paras), len(quoted))
	}
}

// The sent lines kept for a player are bounded, hold the newest mail's lines, and leave out
// the lines of his own quoted back to him (he may send them again).
func TestRememberSent(t *testing.T) {
	var kept []byte
	for m := 0; m < 10; m++ {
		var body strings.Builder
		for i := 0; i < 300; i++ {
			fmt.Fprintf(&body, "mail %d says line %d of many\r\n", m, i)
		}
		body.WriteString("> Nf3 unread\r\n")
		kept = RememberSent(kept, body.String())
	}
	if len(kept) != 4*MaxSentLines {
		t.Errorf("%d bytes kept, want %d", len(kept), 4*MaxSentLines)
	}
	set := SentSet(kept)
	if !set.Has("> mail 9 says line 0 of many") || set.Has("mail 0 says line 0 of many") || set.Has("Nf3 unread") {
		t.Error("the newest mail's lines are kept, the oldest dropped, the player's own left out")
	}
}

// The text Game gives for RememberSent is the mail's plain part as the player's client reads
// it: its sent lines are those of the rendered mail parsed back (quoted-printable, long and
// non-ASCII lines, "=" signs, quoted lines, a FEN), so a reply that quotes them is known.
func TestGameTextIsThePlainPart(t *testing.T) {
	w := &Writer{Address: "referee@example.org"}
	g := &store.Game{ID: 7, Players: [2]store.Player{{Address: "ann@x", Token: "abcdefghij", Mails: 3}, {Address: "bob@y", Token: "klmnopqrst"}}}
	for _, l := range []Letter{
		{Side: chess.White, What: "your move", Paras: []string{"Black played 1... e5.", "a = b, c=d and ümlauts: Schwarz zieht Sf6 — “quoted”", strings.Repeat("long words that wrap ", 12)},
			Diagram: "  +---+\n8 | r |\n  +---+\nFEN: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\n", Quoted: []string{"Nf3 unread", "> older"}, Lang: lang.DE},
		{Side: chess.White, What: "x", Paras: []string{strings.Repeat("=", 200), "trailing spaces   ", "\ttab"}},
	} {
		m, text, err := w.Game(&store.Tx{}, g, "Orthodox chess", l)
		if err != nil {
			t.Fatal(err)
		}
		parsed, err := parser.Parse(m.Raw)
		if err != nil {
			t.Fatal(err)
		}
		got, want := parser.SentLines(text, 1000), parser.SentLines(parsed.Body, 1000)
		if fmt.Sprint(got) != fmt.Sprint(want) || len(want) < 5 {
			t.Errorf("the sent lines of the text %v, of the mail parsed back %v", got, want)
		}
	}
}
