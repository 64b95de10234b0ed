package referee

import (
	"mime"
	"net/mail"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// Issue 33: a mail list shows a subject's start and cuts the rest: every golden mail's subject
// is short (at most 70 characters for game #1; most at most 60), what happened at most 40 of
// them after the game's short name (48 in the other languages, whose words are longer: the
// golden mails "in-<lang>-..." and "lang-..."), and a subject that asks for a move says so
// first. Characters, not bytes: a Cyrillic letter is one. The golden mails are the referee's
// (testdata/golden, and its packages': referee/challenges/testdata/golden) and each game's
// (variant/<game>/testdata/golden, and variant/toy's).
func TestSubjectsShort(t *testing.T) {
	var files []string
	for _, dir := range []string{filepath.Join("testdata", "golden"), filepath.Join("..", "variant", "*", "testdata", "golden"), filepath.Join("..", "variant", "*", "testdata"), filepath.Join("*", "testdata", "golden")} {
		found, err := filepath.Glob(filepath.Join(dir, "*.eml"))
		if err != nil || len(found) == 0 {
			t.Fatalf("no golden mails in %s: %v", dir, err)
		}
		files = append(files, found...)
	}
	var dec mime.WordDecoder
	long := 0
	for _, f := range files {
		raw, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		m, err := mail.ReadMessage(raw)
		raw.Close()
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		subject, err := dec.DecodeHeader(m.Header.Get("Subject"))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		n := utf8.RuneCountInString(subject)
		if n > 60 {
			long++
		}
		_, what, _ := strings.Cut(subject, ": ")
		whatMax := 40
		if base := filepath.Base(f); strings.HasPrefix(base, "in-") || strings.HasPrefix(base, "lang-") {
			whatMax = 48
		}
		if n > 70 || utf8.RuneCountInString(what) > whatMax {
			t.Errorf("%s: subject of %d characters (what happened: %d): %s", filepath.Base(f), n, utf8.RuneCountInString(what), subject)
		}
		if strings.Contains(what, "your move") && !strings.HasPrefix(what, "your move") {
			t.Errorf("%s: the move asked for is not first: %s", filepath.Base(f), subject)
		}
	}
	if long > len(files)/5 {
		t.Errorf("%d of %d subjects are over 60 characters", long, len(files))
	}
}
