package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/refereed/refereed/store"
)

// The operator sees the waiting and quarantined mail, reads one with its control characters
// escaped, puts a quarantined one back in line, and drops another for good.
func TestInboxCommand(t *testing.T) {
	dir := t.TempDir()
	db, err := store.Open(filepath.Join(dir, "refereed.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	k1 := store.InboxKey{Mailbox: "INBOX", UIDValidity: 5, UID: 1}
	k2 := store.InboxKey{Mailbox: "INBOX", UIDValidity: 5, UID: 2}
	db.Update(func(tx *store.Tx) error {
		tx.PutInbound(store.InboundMail{Key: k1, Raw: []byte("From: ann@x.org\r\nSubject: e4\r\n\r\ne4\r\n")})
		tx.PutInbound(store.InboundMail{Key: k2, Raw: []byte("From: mallory@x.org\r\nSubject: \x1b]0;owned\x07\x1b[2J\r\n\r\nboom\x1b[31m\r\n")})
		m, _ := tx.Inbound(k2)
		m.Attempts = 3
		return tx.Quarantine(*m, "failed 3 times: panic")
	})
	db.Close()
	code, out, errs := run(t, "inbox", "list", "--data", dir)
	if code != 0 || !strings.Contains(out, "INBOX/5/1") || !strings.Contains(out, "waiting") || !strings.Contains(out, "quarantined") || !strings.Contains(out, "2 mail(s)") {
		t.Fatalf("list: %d %q %q", code, out, errs)
	}
	code, out, _ = run(t, "inbox", "show", "INBOX/5/2", "--data", dir)
	if code != 0 || strings.ContainsAny(out, "\x1b\x07") || !strings.Contains(out, `\x{1b}[2J`) || !strings.Contains(out, "failed 3 times: panic") {
		t.Fatalf("show: %d %q", code, out)
	}
	if code, out, _ = run(t, "inbox", "retry", "INBOX/5/2", "--data", dir); code != 0 || !strings.Contains(out, "back in line") {
		t.Fatalf("retry: %d %q", code, out)
	}
	if code, out, _ = run(t, "inbox", "drop", "INBOX/5/1", "--data", dir); code != 0 || !strings.Contains(out, "dropped") {
		t.Fatalf("drop: %d %q", code, out)
	}
	code, out, _ = run(t, "inbox", "list", "--data", dir)
	if code != 0 || strings.Contains(out, "INBOX/5/1") || strings.Contains(out, "quarantined") || !strings.Contains(out, "1 mail(s)") {
		t.Errorf("after retry and drop: %q", out)
	}
	if code, _, errs = run(t, "inbox", "show", "INBOX/5/9", "--data", dir); code == 0 || !strings.Contains(errs, "no mail INBOX/5/9") {
		t.Errorf("show of a missing key: %d %q", code, errs)
	}
	if code, _, errs = run(t, "inbox", "show", "nonsense", "--data", dir); code != exitUsage || !strings.Contains(errs, "not a mail key") {
		t.Errorf("show of a bad key: %d %q", code, errs)
	}
}
