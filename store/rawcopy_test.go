package store

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// A sent mail's copy is compressed when kept and read back whole; a copy kept before copies
// were compressed is read as it is.
func TestRawCopyRoundTrip(t *testing.T) {
	mails, _ := filepath.Glob("../variant/*/testdata/golden/*.eml")
	if len(mails) < 20 {
		t.Fatalf("only %d golden mails found", len(mails))
	}
	in, out := 0, 0
	for _, name := range mails {
		raw, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		packed, err := packRaw(raw)
		if err != nil {
			t.Fatal(err)
		}
		got, err := unpackRaw(packed)
		if err != nil || !bytes.Equal(got, raw) {
			t.Fatalf("%s: read back %d bytes (%v), want the %d kept", name, len(got), err, len(raw))
		}
		in, out = in+len(raw), out+len(packed)
	}
	if out*2 > in {
		t.Errorf("the golden mails kept in %d bytes of %d: want less than half", out, in)
	}
	for _, raw := range [][]byte{nil, []byte("x"), bytes.Repeat([]byte("Subject: a\r\n"), 10000)} {
		packed, _ := packRaw(raw)
		if got, err := unpackRaw(packed); err != nil || !bytes.Equal(got, raw) {
			t.Errorf("%d bytes read back as %d (%v)", len(raw), len(got), err)
		}
	}
	old := []byte("From: referee@example.org\r\n\r\nkept before compression\r\n")
	if got, err := unpackRaw(old); err != nil || !bytes.Equal(got, old) {
		t.Errorf("an uncompressed copy read back as %q (%v)", got, err)
	}
}
