package referee

import (
	"mime"
	"net/mail"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 33: a mail list shows a subject's start and cuts the rest: every golden mail's subject
// is short (at most 70 characters for game #1; most at most 60), what happened at most 40 of
// them after the game's short name, and a subject that asks for a move says so first.
func TestSubjectsShort(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "golden", "*.eml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden mails: %v", err)
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
		if len(subject) > 60 {
			long++
		}
		_, what, _ := strings.Cut(subject, ": ")
		if len(subject) > 70 || len(what) > 40 {
			t.Errorf("%s: subject of %d characters (what happened: %d): %s", filepath.Base(f), len(subject), len(what), subject)
		}
		if strings.Contains(what, "your move") && !strings.HasPrefix(what, "your move") {
			t.Errorf("%s: the move asked for is not first: %s", filepath.Base(f), subject)
		}
	}
	if long > len(files)/5 {
		t.Errorf("%d of %d subjects are over 60 characters", long, len(files))
	}
}
