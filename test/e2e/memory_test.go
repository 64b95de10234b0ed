package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Hostile mail against a daemon under a memory limit (real servers; test/t-08-memory puts the
// daemon in a 1 GiB memory cgroup when the machine has one): 300 mails of 2 MB from a stranger
// queued while the daemon was down, a player's mail of 128,000 "?" lines and one of a hundred
// HISTORY lines. The daemon comes up, takes it all in bounded batches, answers the player with
// bounded mail, never dies, and its peak resident set stays under 100 MB.
func TestMemoryBounded(t *testing.T) {
	if os.Getenv("REFEREED_TEST_REAL") != "1" {
		t.Skip("needs real Dovecot and Postfix (REFEREED_TEST_REAL=1): mail waiting while the daemon is down needs a mail server of its own (the built-in one: TestLocalMailMemory)")
	}
	e := newEnv(t)
	e.start()
	ann, bob := e.addr("ann"), e.addr("bob")
	e.admin("new", "--white", ann, "--black", bob)
	annTo := e.waitMail(ann, 1, 30*time.Second)[0].ReplyTo
	e.stop()

	big := strings.Repeat(strings.Repeat("x", 98)+"\r\n", 2_000_000/100)
	for i := 0; i < 300; i++ {
		raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: junk %d\r\nMessage-ID: <junk.%d@%s>\r\n\r\n%s", e.addr("mallory"), e.referee, i, i, e.domain, big)
		e.sendRaw(e.addr("mallory"), e.referee, []byte(raw))
	}
	e.send(ann, annTo, "Re: queries", strings.Repeat("?\n", 128000))
	e.send(ann, annTo, "Re: history", strings.Repeat("HISTORY\n", 100))
	// Wait until Postfix has handed everything to Dovecot.
	deadline := time.Now().Add(10 * time.Minute)
	for time.Now().Before(deadline) {
		if n := e.count(e.referee, "INBOX"); n >= 302 {
			break
		}
		time.Sleep(time.Second)
	}
	if n := e.count(e.referee, "INBOX"); n < 302 {
		t.Fatalf("only %d of 302 mails reached the referee's mailbox", n)
	}

	e.start()
	pid := e.pid()
	if cg := os.Getenv("REFEREED_TEST_CGROUP"); cg != "" {
		if err := os.WriteFile(filepath.Join(cg, "cgroup.procs"), []byte(strconv.Itoa(pid)), 0o644); err != nil {
			t.Fatalf("memory cgroup: %v", err)
		}
		t.Logf("daemon in memory cgroup %s", cg)
	}
	deadline = time.Now().Add(10 * time.Minute)
	for time.Now().Before(deadline) {
		if e.count(e.referee, "INBOX") == 0 && strings.Contains(e.admin("inbox", "list"), "0 mail(s)") {
			break
		}
		time.Sleep(time.Second)
	}
	if n := e.count(e.referee, "INBOX"); n != 0 {
		t.Fatalf("%d mails still in the referee's mailbox", n)
	}
	msgs := e.waitMail(ann, 3, 60*time.Second)
	for _, m := range msgs[1:] {
		if len(m.Body) > 400<<10 {
			t.Errorf("an answer of %d bytes", len(m.Body))
		}
	}
	mustContain(t, "Ann's answers", msgs[1].Body+msgs[2].Body, "queries")
	if !e.alive() {
		t.Fatal("the daemon died")
	}
	hwm := peakRSS(t, pid)
	fi, _ := os.Stat(filepath.Join(e.data, "refereed.db"))
	t.Logf("peak resident set %d MB; store %d MB", hwm>>20, fi.Size()>>20)
	fmt.Printf("memory scenario: peak RSS %d MB with 300 x 2 MB waiting; store %d MB\n", hwm>>20, fi.Size()>>20)
	if hwm > 100<<20 {
		t.Errorf("peak resident set %d MB, want under 100 MB", hwm>>20)
	}
	if fi.Size() > 64<<20 {
		t.Errorf("the store grew to %d MB", fi.Size()>>20)
	}
}

// peakRSS reads the process's peak resident set (VmHWM) in bytes.
func peakRSS(t *testing.T, pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	t.Fatal("no VmHWM")
	return 0
}
