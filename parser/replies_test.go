package parser

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The corpus in testdata/replies: replies in the shapes real clients and locales write them,
// each with a move where the person's text stands. The shapes were drawn from public corpora
// of real clients' mail: Mailgun's talon (tests/fixtures, Apache-2.0), GitHub's
// email_reply_parser (test/emails, MIT), zapier/email-reply-parser and crisp-im/email-reply-parser
// (test/fixtures, per client and locale, MIT); the fixtures are written anew around a
// referee's mail (none is copied), and each names the fixture whose shape it takes.
//
// A fixture is "source: ...", "want: ..." (the lines read, "|" between them, an aside marked
// "~"), a blank line, then the body. In the body {{QUOTED}} stands for the referee's mail
// quoted with "> ", {{ORIGINAL}} for it unquoted (Outlook, phones).

// refereeMail is the text of a mail the referee sent (a golden mail of orthodox chess, in
// variant/orthodox/testdata/golden).
const refereeMail = `White played 1. e4

    h  g  f  e  d  c  b  a
  +------------------------+
1 | R  N  B  K  Q  B  N  R | 1
2 | P  P  P  .  P  P  P  P | 2
3 | .  .  .  .  .  .  .  . | 3
4 | .  .  .  P  .  .  .  . | 4
5 | .  .  .  .  .  .  .  . | 5
6 | .  .  .  .  .  .  .  . | 6
7 | p  p  p  p  p  p  p  p | 7
8 | r  n  b  k  q  b  n  r | 8
  +------------------------+
    h  g  f  e  d  c  b  a
  White: K Q R B N P   Black: k q r b n p

Black to play move 1.

The game so far:
1. e4

FEN: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1

--
Game #1, Orthodox chess. You play Black against ann@example.com. Reply
to this mail to send commands, one per line; HELP lists them.
`

func quoted(body string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimRight(body, "\n"), "\n") {
		if l == "" {
			b.WriteString(">\n")
		} else {
			b.WriteString("> " + l + "\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

func shown(ls []Line) string {
	var s []string
	for _, l := range ls {
		if l.Aside {
			s = append(s, "~"+l.Text)
		} else {
			s = append(s, l.Text)
		}
	}
	return strings.Join(s, "|")
}

func TestReplyCorpus(t *testing.T) {
	files, err := filepath.Glob("testdata/replies/*.txt")
	if err != nil || len(files) < 40 {
		t.Fatalf("corpus: %d files, %v", len(files), err)
	}
	sent := NewSent(SentLines(refereeMail, MaxSent))
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		head, body, _ := strings.Cut(string(b), "\n\n")
		var want string
		for _, l := range strings.Split(head, "\n") {
			if w, ok := strings.CutPrefix(l, "want: "); ok {
				want = w
			}
		}
		body = strings.ReplaceAll(body, "{{QUOTED}}", quoted(refereeMail))
		body = strings.ReplaceAll(body, "{{ORIGINAL}}", strings.TrimRight(refereeMail, "\n"))
		name := strings.TrimSuffix(filepath.Base(file), ".txt")
		t.Run(name, func(t *testing.T) {
			if got := shown(Read(body, sent)); got != want {
				t.Errorf("read %q, want %q\n%s", got, want, body)
			}
			// Without the sent lines, as in CRLF: what the structure alone gives is the same,
			// but for mail whose original is not marked at all.
			if name != "unquoted-original" {
				if got := shown(Read(strings.ReplaceAll(body, "\n", "\r\n"), nil)); got != want {
					t.Errorf("without sent lines, CRLF: read %q, want %q", got, want)
				}
			}
		})
	}
}
