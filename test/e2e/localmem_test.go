package e2e

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/refereed/refereed/parser"
)

// The built-in mail server under a hostile, logged-in player (test/t-09-local-memory runs it
// with the daemon in a 256 MiB memory cgroup; REFEREED_TEST_LOCALMEM=1): 300 mails of 1.5 MB
// from Ann, each to the referee (half to her reply address, half to the bare address) and to
// her opponent Bob's mailbox, then more to Bob until his mailbox holds over 500 MB. The
// daemon is restarted twice, and a move is played after each start. It is never OOM-killed,
// every move is answered, and each daemon's peak resident set stays under 200 MB. Start-up
// time and resident set are printed against the mail kept (REFEREED_TEST_LOCALMEM_GB=1 adds
// a point at 1 GB).
func TestLocalMailMemory(t *testing.T) {
	if os.Getenv("REFEREED_TEST_LOCALMEM") != "1" {
		t.Skip("a scenario (test/t-09-local-memory): REFEREED_TEST_LOCALMEM=1")
	}
	if os.Getenv("REFEREED_TEST_REAL") == "1" {
		t.Skip("the built-in mail server's scenario")
	}
	e := newEnv(t)
	e.extra = []string{"--mail-daily", "0", "--mail-reserve", "0"} // the flood is the test: no limit of the day, no reserve
	ann, bob, carl := e.addr("ann"), e.addr("bob"), e.addr("carl")
	const limit = 200 << 20
	var peaks []int64
	measure := func(what string) {
		t.Helper()
		if !e.alive() {
			t.Fatalf("%s: the daemon died (OOM-killed?)", what)
		}
		hwm := peakRSS(t, e.pid())
		peaks = append(peaks, hwm)
		if hwm > limit {
			t.Errorf("%s: peak resident set %d MB, want under %d MB", what, hwm>>20, limit>>20)
		}
	}
	restart := func(what string) {
		t.Helper()
		measure(what)
		e.stop()
		kept := dirSize(filepath.Join(e.data, "localmail.d"))
		t0 := time.Now()
		e.start()
		took := time.Since(t0)
		time.Sleep(time.Second)
		rss := statusField(t, e.pid(), "VmRSS:")
		idx, _ := os.Stat(filepath.Join(e.data, "localmail.db"))
		loaded := "?"
		if b, err := os.ReadFile(e.logFile); err == nil {
			if i := bytes.LastIndex(b, []byte("localmail: index loaded")); i >= 0 {
				line, _, _ := bytes.Cut(b[i:], []byte("\n"))
				if _, v, ok := bytes.Cut(line, []byte(" took=")); ok {
					loaded = string(v)
				}
			}
		}
		fmt.Printf("local mail kept %5d MB (index %d KB): index loaded in %s, daemon ready in %d ms, resident set after start %d MB\n",
			kept>>20, idx.Size()>>10, loaded, took.Milliseconds(), rss>>20)
	}

	e.start()
	e.admin("new", "--variant", "orthodox", "--white", ann, "--black", bob)
	annTo := e.waitSmall(ann, 1)[0].ReplyTo
	bobTo := e.waitSmall(bob, 1)[0].ReplyTo
	e.admin("new", "--variant", "orthodox", "--white", carl, "--black", e.addr("dana")) // Carl's mailbox exists
	e.waitSmall(carl, 1)
	// play sends a move and waits until both players have the news.
	play := func(who, to, move, news string) {
		t.Helper()
		e.send(who, to, "Re: your move", move)
		e.waitFor(ann, news)
		e.waitFor(bob, news)
	}
	restart("empty")

	c := e.submit(ann)
	junk := strings.Repeat(strings.Repeat("x", 98)+"\r\n", 1_500_000/100)
	t0 := time.Now()
	flood := func(i int, to ...string) {
		t.Helper()
		raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: junk %d\r\nMessage-ID: <junk.%d@%s>\r\n\r\n%s", ann, strings.Join(to, ", "), i, i, e.domain, junk)
		for try := 0; ; try++ {
			err := c.SendMail(ann, to, strings.NewReader(raw))
			if err == nil {
				return
			}
			if try == 20 { // a 452 (the referee's mailbox full for a moment) is tried again
				t.Fatalf("mail %d: %v", i, err)
			}
			time.Sleep(500 * time.Millisecond)
			c.Close()
			c = e.submit(ann)
		}
	}
	for i := 0; i < 300; i++ {
		to := e.referee
		if i%2 == 0 {
			to = annTo
		}
		flood(i, to, bob)
		switch i {
		case 6:
			restart("10 MB kept")
			c = e.submit(ann)
		case 66:
			restart("100 MB kept")
			c = e.submit(ann)
		}
	}
	fmt.Printf("300 mails of 1.5 MB to the referee and Bob in %s\n", time.Since(t0).Round(time.Second))
	play(ann, annTo, "e4", "White played 1. e4")
	restart("after the flood")

	play(bob, bobTo, "e5", "Black played 1... e5")
	c = e.submit(ann)
	for i := 300; dirSize(filepath.Join(e.data, "localmail.d")) < 520<<20; i++ {
		flood(i, bob)
	}
	restart("500 MB kept")

	play(ann, annTo, "Nf3", "White played 2. Nf3")
	if os.Getenv("REFEREED_TEST_LOCALMEM_GB") == "1" {
		c = e.submit(ann)
		for i := 1000; dirSize(filepath.Join(e.data, "localmail.d")) < 1<<30; i++ {
			flood(i, carl)
		}
		restart("1 GB kept")
		play(bob, bobTo, "Nc6", "Black played 2... Nc6")
	}
	measure("the end")
	if cg := os.Getenv("REFEREED_TEST_CGROUP_START"); cg != "" {
		for _, f := range []string{"memory.oom_control", "memory.events"} {
			if b, err := os.ReadFile(filepath.Join(cg, f)); err == nil {
				for _, line := range strings.Split(string(b), "\n") {
					if f := strings.Fields(line); len(f) == 2 && f[0] == "oom_kill" && f[1] != "0" {
						t.Errorf("the memory cgroup OOM-killed %s times", f[1])
					}
				}
			}
		}
	}
	var top int64
	for _, p := range peaks {
		top = max(top, p)
	}
	fmt.Printf("local mail scenario: highest peak resident set %d MB over %d daemons\n", top>>20, len(peaks))
}

// submit logs in to the built-in SMTP server as user.
func (e *env) submit(user string) *smtp.Client {
	e.t.Helper()
	c, err := smtp.Dial(e.smtpAddr)
	if err != nil {
		e.t.Fatal(err)
	}
	if err := c.Auth(sasl.NewPlainClient("", user, e.password)); err != nil {
		e.t.Fatal(err)
	}
	return c
}

// waitSmall waits for n mails under 200 KB in user's INBOX (the referee's; the junk is
// larger) and returns them in order, without reading the junk.
func (e *env) waitSmall(user string, n int) []*parser.Message {
	e.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	var out []*parser.Message
	for time.Now().Before(deadline) {
		out = e.small(user)
		if len(out) >= n {
			return out
		}
		time.Sleep(200 * time.Millisecond)
	}
	e.t.Fatalf("%s has %d small mails, want %d", user, len(out), n)
	return nil
}

// waitFor waits for a mail under 200 KB in user's INBOX that holds text.
func (e *env) waitFor(user, text string) {
	e.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		for _, m := range e.small(user) {
			if strings.Contains(m.Body, text) {
				return
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	e.t.Fatalf("%s has no mail with %q", user, text)
}

func (e *env) small(user string) []*parser.Message {
	c := e.login(user)
	if c == nil {
		return nil
	}
	defer c.Close()
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		return nil
	}
	res, err := c.UIDSearch(&imap.SearchCriteria{Smaller: 200 << 10}, nil).Wait()
	if err != nil || len(res.AllUIDs()) == 0 {
		return nil
	}
	body := &imap.FetchItemBodySection{Peek: true}
	msgs, err := c.Fetch(imap.UIDSetNum(res.AllUIDs()...), &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{body}}).Collect()
	if err != nil {
		return nil
	}
	var out []*parser.Message
	seen := map[string]bool{}
	for _, m := range msgs {
		p, err := parser.Parse(bytes.Clone(m.FindBodySection(body)))
		if err != nil || seen[p.MessageID] {
			continue
		}
		seen[p.MessageID] = true
		out = append(out, p)
	}
	return out
}

func dirSize(dir string) int64 {
	var n int64
	entries, _ := os.ReadDir(dir)
	for _, de := range entries {
		if fi, err := de.Info(); err == nil {
			n += fi.Size()
		}
	}
	return n
}

func statusField(t *testing.T, pid int, field string) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == field {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}
