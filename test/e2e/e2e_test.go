// Package e2e plays refereed by mail, end to end: the refereed binary runs as its own
// process, and players send and read mail with ordinary SMTP and IMAP clients. The same
// scenarios run against the local mail server `refereed serve` starts (the default) and
// against real Dovecot and Postfix when REFEREED_TEST_REAL=1 (test/t-*/run.sh set that up:
// see test/lib/mail-up.sh). With real servers the players' mailboxes must exist:
// REFEREED_TEST_USERS lists them.
package e2e

import (
	"bytes"
	"fmt"
	"net"
	"net/mail"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/refereed/refereed/parser"
)

var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "refereed-e2e")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "refereed")
	build := exec.Command("go", "build", "-o", binary, "./cmd/refereed")
	build.Dir = "../.."
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build: %v\n%s", err, out)
		os.Exit(2)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// env is one mail system and one daemon.
type env struct {
	t        *testing.T
	extra    []string // more flags of serve
	real     bool
	imapAddr string
	smtpAddr string
	password string
	domain   string
	referee  string
	data     string
	config   string
	mu       sync.Mutex
	dups     atomic.Int64 // duplicate deliveries seen by inbox
	daemon   *exec.Cmd
	logFile  string
	store    string // a PostgreSQL store's URL (--store), "" for the data directory's file
	poll     string // the built-in server's poll (--poll): "" for 200ms, "-" for the default (IDLE)
}

var msgSeq atomic.Int64

func freePort(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

func getenv(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

// newEnv prepares a data directory and, for real servers, a config file.
func newEnv(t *testing.T) *env {
	e := &env{t: t, data: t.TempDir()}
	e.logFile = filepath.Join(e.data, "daemon.log")
	if os.Getenv("REFEREED_TEST_REAL") == "1" {
		e.real = true
		e.imapAddr = getenv("IMAP_ADDR", "127.0.0.1:1143")
		e.smtpAddr = getenv("SMTP_ADDR", "127.0.0.1:2525")
		e.password = getenv("MAIL_PASS", "secret")
		e.referee = getenv("MAIL_USER", "referee@example.test")
		e.domain = e.referee[strings.IndexByte(e.referee, '@')+1:]
		e.config = filepath.Join(e.data, "refereed.toml")
		e.writeConfig("plain", e.imapAddr)
		e.clearMailboxes()
	} else {
		e.imapAddr, e.smtpAddr, e.password = freePort(t), freePort(t), "pw"
		e.domain, e.referee = "localhost", "referee@localhost"
	}
	t.Cleanup(func() {
		e.stop()
		if t.Failed() {
			if b, err := os.ReadFile(e.logFile); err == nil {
				t.Logf("daemon log:\n%s", b)
			}
		}
	})
	return e
}

func (e *env) addr(local string) string { return local + "@" + e.domain }

// writeConfig writes the daemon's TOML for the real servers, with the IMAP security and
// address given (the test servers' certificate is self-signed).
func (e *env) writeConfig(security, imapAddr string) {
	conf := fmt.Sprintf("address = %q\n[imap]\naddr = %q\nsecurity = %q\ninsecure_skip_verify = true\nuser = %q\npassword = %q\nfast_poll = \"100ms\"\n[smtp]\naddr = %q\nsecurity = \"plain\"\n",
		e.referee, imapAddr, security, e.referee, e.password, e.smtpAddr)
	if err := os.WriteFile(e.config, []byte(conf), 0o600); err != nil {
		e.t.Fatal(err)
	}
}

// start runs the daemon.
func (e *env) start() {
	e.t.Helper()
	if err := e.startErr(); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) startErr() error {
	if _, err := e.launch(); err != nil {
		return err
	}
	sock := filepath.Join(e.data, "refereed.sock")
	for i := 0; i < 1000; i++ {
		if c, err := net.Dial("unix", sock); err == nil {
			c.Close()
			return nil
		}
		time.Sleep(10 * time.Millisecond)
	}
	return fmt.Errorf("the daemon did not start")
}

// startProcess starts the daemon and returns at once, its process no longer the env's to
// stop: the caller waits for it.
func (e *env) startProcess() *exec.Cmd {
	e.t.Helper()
	d, err := e.launch()
	if err != nil {
		e.t.Fatal(err)
	}
	e.mu.Lock()
	e.daemon = nil
	e.mu.Unlock()
	return d
}

// launch starts the daemon's process.
func (e *env) launch() (*exec.Cmd, error) {
	args := append([]string{"serve", "--data", e.data, "--log", "debug"}, e.extra...)
	if e.store != "" {
		args = append(args, "--store", e.store)
	}
	if e.real {
		args = append(args, "--config", e.config)
	} else {
		args = append(args, "--imap", e.imapAddr, "--smtp", e.smtpAddr, "--mail-password", e.password)
		switch e.poll {
		case "":
			args = append(args, "--poll", "200ms")
		case "-":
		default:
			args = append(args, "--poll", e.poll)
		}
	}
	log, err := os.OpenFile(e.logFile, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, err
	}
	d := exec.Command(binary, args...)
	if cg := os.Getenv("REFEREED_TEST_CGROUP_START"); cg != "" {
		// The daemon starts inside the memory cgroup, start-up included (the shell joins
		// it, then becomes the daemon).
		d = exec.Command("sh", append([]string{"-c", `echo $$ > "$0/cgroup.procs" && exec "$@"`, cg, binary}, args...)...)
	}
	d.Stdout, d.Stderr = log, log
	if err := d.Start(); err != nil {
		return nil, err
	}
	e.mu.Lock()
	e.daemon = d
	e.mu.Unlock()
	return d, nil
}

// stop ends the daemon with SIGTERM (kill with SIGKILL: see kill).
func (e *env) stop() {
	e.mu.Lock()
	d := e.daemon
	e.daemon = nil
	e.mu.Unlock()
	if d == nil || d.Process == nil {
		return
	}
	d.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { d.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		d.Process.Kill()
		<-done
	}
}

// kill ends the daemon with SIGKILL, as a crash would.
func (e *env) kill() {
	e.mu.Lock()
	d := e.daemon
	e.daemon = nil
	e.mu.Unlock()
	if d != nil {
		d.Process.Kill()
		d.Wait()
	}
}

// admin runs an admin command (through the control socket when the daemon runs).
func (e *env) admin(args ...string) string {
	e.t.Helper()
	out, err := exec.Command(binary, append(args, "--data", e.data)...).CombinedOutput()
	if err != nil {
		e.t.Fatalf("refereed %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// send mails body from a player to an address.
func (e *env) send(from, to, subject, body string, headers ...string) {
	e.t.Helper()
	raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <e2e.%d.%d@%s>\r\nDate: %s\r\n%sContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n",
		from, to, subject, time.Now().UnixNano(), msgSeq.Add(1), e.domain, time.Now().Format(time.RFC1123Z), strings.Join(headers, ""), strings.ReplaceAll(body, "\n", "\r\n"))
	e.sendRaw(from, to, []byte(raw))
}

func (e *env) sendRaw(from, to string, raw []byte) {
	e.t.Helper()
	var err error
	for try := 0; try < 20; try++ {
		var c *smtp.Client
		if c, err = smtp.Dial(e.smtpAddr); err == nil {
			// The built-in server takes mail only from a client logged in as the sender
			// (issue 20); the real test Postfix offers no AUTH.
			if ok, _ := c.Extension("AUTH"); ok {
				user := from
				if m, perr := mail.ReadMessage(bytes.NewReader(raw)); user == "" && perr == nil {
					user = m.Header.Get("From") // a report sent with the null sender
				}
				err = c.Auth(sasl.NewPlainClient("", user, e.password))
			}
			if err == nil {
				err = c.SendMail(from, []string{to}, strings.NewReader(string(raw)))
			}
			c.Close()
			if err == nil {
				return
			}
		}
		time.Sleep(250 * time.Millisecond)
	}
	e.t.Fatalf("send to %s: %v", to, err)
}

// trySend sends raw once and returns the server's answer.
func (e *env) trySend(from, to string, raw []byte) error {
	c, err := smtp.Dial(e.smtpAddr)
	if err != nil {
		return err
	}
	defer c.Close()
	if ok, _ := c.Extension("AUTH"); ok {
		if err := c.Auth(sasl.NewPlainClient("", from, e.password)); err != nil {
			return err
		}
	}
	return c.SendMail(from, []string{to}, bytes.NewReader(raw))
}

// login opens an IMAP session as user; nil if the login is refused. Close it when done.
func (e *env) login(user string) *imapclient.Client {
	e.t.Helper()
	c, err := imapclient.DialInsecure(e.imapAddr, nil)
	if err != nil {
		e.t.Fatalf("imap: %v", err)
	}
	if err := c.Login(user, e.password).Wait(); err != nil {
		c.Close()
		return nil
	}
	return c
}

// inbox reads every distinct message of a player's INBOX.
func (e *env) inbox(user string) []*parser.Message {
	e.t.Helper()
	c := e.login(user)
	if c == nil {
		return nil
	}
	defer c.Close()
	sel, err := c.Select("INBOX", nil).Wait()
	if err != nil || sel.NumMessages == 0 {
		return nil
	}
	body := &imap.FetchItemBodySection{Peek: true}
	msgs, err := c.Fetch(imap.SeqSetNum(seqs(sel.NumMessages)...), &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{body}}).Collect()
	if err != nil {
		e.t.Fatalf("imap fetch: %v", err)
	}
	// Delivery is at least once: a copy with a Message-ID already seen is the same mail, as a
	// mail client threads it.
	var out []*parser.Message
	seen := map[string]bool{}
	for _, m := range msgs {
		p, err := parser.Parse(m.FindBodySection(body))
		if err != nil {
			e.t.Fatalf("parse: %v", err)
		}
		if p.MessageID != "" && seen[p.MessageID] {
			e.dups.Add(1)
			continue
		}
		seen[p.MessageID] = true
		out = append(out, p)
	}
	return out
}

func seqs(n uint32) []uint32 {
	out := make([]uint32, n)
	for i := range out {
		out[i] = uint32(i + 1)
	}
	return out
}

// clearMailboxes empties the real servers' mailboxes of the test users before a scenario.
func (e *env) clearMailboxes() {
	for _, u := range strings.Fields(os.Getenv("REFEREED_TEST_USERS")) {
		c, err := imapclient.DialInsecure(e.imapAddr, nil)
		if err != nil {
			e.t.Fatalf("imap: %v", err)
		}
		if c.Login(u, e.password).Wait() == nil {
			for _, mb := range []string{"INBOX", "Processed"} {
				if sel, err := c.Select(mb, nil).Wait(); err == nil && sel.NumMessages > 0 {
					c.Store(imap.SeqSetNum(seqs(sel.NumMessages)...), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close()
					c.Expunge().Close()
				}
			}
		}
		c.Close()
	}
}

// waitMail waits until user has at least n mails and returns them.
func (e *env) waitMail(user string, n int, timeout time.Duration) []*parser.Message {
	e.t.Helper()
	deadline := time.Now().Add(timeout)
	var msgs []*parser.Message
	for time.Now().Before(deadline) {
		if msgs = e.inbox(user); len(msgs) >= n {
			return msgs
		}
		time.Sleep(100 * time.Millisecond)
	}
	e.t.Fatalf("%s has %d mails after %v, want %d", user, len(msgs), timeout, n)
	return nil
}

// reply answers the last mail user received, as a mail client's Reply does.
func (e *env) reply(user string, n int, body string) {
	e.t.Helper()
	msgs := e.waitMail(user, n, 30*time.Second)
	last := msgs[len(msgs)-1]
	e.send(user, last.ReplyTo, "Re: "+last.Subject, body, fmt.Sprintf("In-Reply-To: <%s>\r\n", last.MessageID))
}

// pid is the running daemon's process id.
func (e *env) pid() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.daemon.Process.Pid
}

// alive reports whether the daemon still runs.
func (e *env) alive() bool {
	e.mu.Lock()
	d := e.daemon
	e.mu.Unlock()
	return d != nil && d.Process.Signal(syscall.Signal(0)) == nil
}

// count is the number of messages in a mailbox of user.
func (e *env) count(user, mailbox string) int {
	e.t.Helper()
	c := e.login(user)
	if c == nil {
		return 0
	}
	defer c.Close()
	st, err := c.Status(mailbox, &imap.StatusOptions{NumMessages: true}).Wait()
	if err != nil || st.NumMessages == nil {
		return 0
	}
	return int(*st.NumMessages)
}
