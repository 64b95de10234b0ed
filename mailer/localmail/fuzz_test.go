package localmail

import (
	"bytes"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
)

// FuzzClientInput: what a client sends and this package reads itself (SASL LOGIN steps, a
// stored mail's bytes searched by header and text, its From: checked at submission) gives an
// answer, never a panic.
func FuzzClientInput(f *testing.F) {
	f.Add([]byte("ann@localhost"), []byte("pw"), []byte("From: ann@localhost\r\nSubject: x\r\n\r\nhello\r\n"))
	f.Add([]byte(""), []byte{0}, []byte("From: a, b\r\nContent-Type: multipart/mixed; boundary=B\r\n\r\n--B\r\n\r\nx\r\n--B--\r\n"))
	f.Add([]byte("\xff"), []byte("\r\n"), []byte("\r\n\r\n"))
	f.Fuzz(func(t *testing.T, user, pass, raw []byte) {
		var got [2]string
		l := &loginServer{login: func(u, p string) error { got = [2]string{u, p}; return nil }}
		for _, step := range [][]byte{nil, user, pass, pass} {
			if _, done, _ := l.Next(step); done {
				break
			}
		}
		if got[0] != "" && got[0] != string(user) {
			t.Fatalf("LOGIN took user %q from %q", got[0], user)
		}
		headerFrom(bytes.NewReader(raw))
		m := &message{uid: 1, t: time.Now(), size: int64(len(raw))}
		c := &imap.SearchCriteria{Header: []imap.SearchCriteriaHeaderField{{Key: "Subject", Value: "x"}}, Text: []string{"hello"}, Body: []string{"x"},
			SentSince: time.Now().Add(-time.Hour)}
		match(1, m, c, func() []byte { return raw })
	})
}
