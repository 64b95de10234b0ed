package main

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/refereed/refereed/mailer/localmail"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/store/storetest"
)

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// serveOnce runs the daemon on dir until it says it runs, stops it, and returns what it
// printed.
func serveOnce(t *testing.T, dir string) string {
	t.Helper()
	var out, errb syncBuffer
	m := &Main{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int)
	go func() {
		done <- m.Run(ctx, []string{"serve", "--data", dir, "--imap", "127.0.0.1:0", "--smtp", "127.0.0.1:0", "--log", "error"})
	}()
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(out.String(), "refereed is running") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	for !strings.Contains(out.String(), "Stop with Ctrl-C") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	if code := <-done; code != exitOK {
		t.Fatalf("serve: exit %d: %s", code, errb.String())
	}
	return out.String()
}

// The referee's mail password is printed when it is made, not at every start (a terminal's
// scrollback or a service log would hold it); `refereed mailpass` prints it on demand.
func TestRefereePasswordOnce(t *testing.T) {
	dir := t.TempDir()
	first := serveOnce(t, dir)
	second := serveOnce(t, dir)
	code, out, stderr := run(t, "mailpass", "--data", dir)
	if code != exitOK {
		t.Fatalf("mailpass: exit %d: %s", code, stderr)
	}
	f := strings.Fields(out)
	pw := f[len(f)-1]
	if !strings.Contains(out, "referee@localhost logs in with password") || len(pw) != 16 {
		t.Fatalf("mailpass: %q", out)
	}
	if !strings.Contains(first, pw) {
		t.Errorf("the first start did not print the referee's password:\n%s", first)
	}
	if strings.Contains(second, pw) || !strings.Contains(second, "refereed mailpass") {
		t.Errorf("the second start:\n%s", second)
	}
	if _, out, _ := run(t, "mailpass", "--data", dir, "ann@localhost"); !strings.Contains(out, "ann@localhost logs in with password") {
		t.Errorf("mailpass ann@localhost: %q", out)
	}
}

// With --store URL the built-in mail server's secret is the database's (several instances
// share it): new makes it there and prints the players' passwords, show and mailpass print the
// same ones, and a daemon on the database gives the referee that password.
func TestMailPasswordsOnPostgres(t *testing.T) {
	url := storetest.Postgres(t)
	code, out, stderr := run(t, "new", "--store", url, "--white", "ann@localhost", "--black", "bob@localhost")
	if code != exitOK || !strings.Contains(out, "ann@localhost logs in with password") || !strings.Contains(out, "bob@localhost logs in with password") {
		t.Fatalf("new --store: exit %d: %s%s", code, out, stderr)
	}
	pw := func(out, addr string) string {
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "local mail: "+addr+" logs in with password ") {
				return strings.TrimPrefix(l, "local mail: "+addr+" logs in with password ")
			}
		}
		return ""
	}
	ann := pw(out, "ann@localhost")
	if code, out, stderr := run(t, "show", "--store", url, "1"); code != exitOK || pw(out, "ann@localhost") != ann {
		t.Errorf("show --store: exit %d, ann's password %q, want %q: %s%s", code, pw(out, "ann@localhost"), ann, out, stderr)
	}
	if code, out, stderr := run(t, "mailpass", "--store", url, "ann@localhost"); code != exitOK || pw(out, "ann@localhost") != ann {
		t.Errorf("mailpass --store: exit %d, %q, want %q: %s", code, out, ann, stderr)
	}
	db, err := store.OpenURL(url, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	secret, made, err := sharedSecret(db, t.TempDir())
	if err != nil || made || localmail.PasswordFor(secret, "ann@localhost") != ann {
		t.Errorf("a daemon's secret on the database: made %v, %v: not the one new printed", made, err)
	}
}
