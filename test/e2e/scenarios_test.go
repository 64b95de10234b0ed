package e2e

import (
	"encoding/base64"
	"fmt"
	"math/rand"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/refereed/refereed/mailer"
)

func mustContain(t *testing.T, what, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Fatalf("%s lacks %q:\n%s", what, w, got)
		}
	}
}

// A whole Transactional game played by mail to checkmate.
func TestGameToMate(t *testing.T) {
	e := newEnv(t)
	e.start()
	ann, bob := e.addr("ann"), e.addr("bob")
	mustContain(t, "new", e.admin("new", "--variant", "transactional", "--white", ann, "--black", bob), "game #1 created")
	e.reply(ann, 1, "T1: f3 (C)")
	e.reply(bob, 2, "T2: e5 (C)")
	e.reply(ann, 3, "g4 (C)")
	e.reply(bob, 4, "Qh4")
	for _, who := range []string{ann, bob} {
		msgs := e.waitMail(who, 5, 30*time.Second)
		last := msgs[len(msgs)-1]
		mustContain(t, who+"'s last mail", last.Subject+"\n"+last.Body, "game over: 0-1", "Black checkmated White", "The whole game")
	}
	mustContain(t, "list", e.admin("list"), "over 0-1")
}

// Hostile and odd mail: forged From, wrong token, HTML-only, Latin-1, a 10 MB attachment, an
// auto-reply and a bounce. Clear answers where due, no mail loops, nothing lost.
func TestHostileMail(t *testing.T) {
	e := newEnv(t)
	e.start()
	ann, bob := e.addr("ann"), e.addr("bob")
	e.admin("new", "--variant", "transactional", "--white", ann, "--black", bob)
	open := e.waitMail(ann, 1, 30*time.Second)[0]
	annTo := open.ReplyTo
	bobTo := e.waitMail(bob, 1, 30*time.Second)[0].ReplyTo

	// Forged From on Ann's token: Ann gets a generic notice; nothing is done.
	e.send(e.addr("mallory"), annTo, "move", "f3 (C)")
	msgs := e.waitMail(ann, 2, 30*time.Second)
	mustContain(t, "refusal", msgs[1].Body, "registered for you", "Nothing was done")
	// A wrong token: not answered.
	e.send(ann, "referee+g1-w-aaaaaaaaaa@"+e.domain, "move", "f3 (C)")
	// HTML-only from Ann: read and accepted.
	e.sendRaw(ann, annTo, []byte(fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: move\r\nMessage-ID: <html.%d@%s>\r\nMIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<html><body><div>T1: f3 (C)</div><blockquote>old</blockquote></body></html>\r\n", ann, annTo, time.Now().UnixNano(), e.domain)))
	msgs = e.waitMail(ann, 3, 30*time.Second)
	mustContain(t, "HTML-only move", msgs[2].Body, "Accepted T1: f3, committed")
	// Latin-1 from Bob.
	e.sendRaw(bob, bobTo, []byte(fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: =?ISO-8859-1?Q?Z=FCge?=\r\nMessage-ID: <l1.%d@%s>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=ISO-8859-1\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\ne5 (C)\r\n-- \r\nGr=FC=DFe\r\n", bob, bobTo, time.Now().UnixNano(), e.domain)))
	msgs = e.waitMail(bob, 3, 30*time.Second)
	mustContain(t, "Latin-1 move", msgs[2].Body, "Accepted T2: e5, committed")
	// A 10 MB attachment from Ann: answered "too large", nothing done.
	big := base64.StdEncoding.EncodeToString(make([]byte, 10<<20))
	var wrapped strings.Builder
	for i := 0; i < len(big); i += 76 {
		wrapped.WriteString(big[i:min(i+76, len(big))])
		wrapped.WriteString("\r\n")
	}
	bigMail := []byte(fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: big\r\nMessage-ID: <big.%d@%s>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=B\r\n\r\n--B\r\nContent-Type: text/plain\r\n\r\ng4 (C)\r\n--B\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n\r\n%s--B--\r\n", ann, annTo, time.Now().UnixNano(), e.domain, wrapped.String()))
	annMails := 6
	if e.real {
		e.sendRaw(ann, annTo, bigMail)
		// Ann has: opening, refusal, f3 reply, e5 commit; now the too-large answer.
		msgs = e.waitMail(ann, 5, 60*time.Second)
		mustContain(t, "10 MB mail", msgs[4].Subject+"\n"+msgs[4].Body, "too large", "so nothing in it was")
	} else {
		// The built-in server's SIZE is the intake's limit: refused at once, to Ann's own
		// mail client, and never kept (issue 20).
		if err := e.trySend(ann, annTo, bigMail); err == nil || !strings.Contains(err.Error(), "552") {
			t.Errorf("a 10 MB mail to the built-in server: %v, want 552", err)
		}
		annMails = 5
	}
	// An auto-reply and a bounce: never answered.
	e.send(bob, bobTo, "Out of office", "I am away", "Auto-Submitted: auto-replied\r\n")
	daemon := "MAILER-DAEMON@" + e.domain
	if !e.real {
		daemon = bob // the built-in server takes mail only from a logged-in sender (issue 20)
	}
	e.sendRaw("", bobTo, []byte(fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: Undelivered Mail Returned to Sender\r\nMessage-ID: <bounce.%d@%s>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/report; report-type=delivery-status; boundary=R\r\n\r\n--R\r\nContent-Type: text/plain\r\n\r\nmailbox unknown\r\n--R--\r\n", daemon, bobTo, time.Now().UnixNano(), e.domain)))
	// The game goes on: Ann's g4 as a plain mail now.
	e.reply(ann, annMails-1, "g4 (C)")
	msgs = e.waitMail(bob, 4, 30*time.Second)
	mustContain(t, "Bob after g4", msgs[3].Body, "White has committed: Pg2-Pg4")
	// No loops: nothing more arrives.
	time.Sleep(2 * time.Second)
	if n := len(e.inbox(bob)); n != 4 {
		t.Errorf("Bob has %d mails, want 4: something answered machine mail", n)
	}
	if n := len(e.inbox(ann)); n != annMails {
		t.Errorf("Ann has %d mails, want %d", n, annMails)
	}
}

// A burst of moves across many games while the daemon is killed with SIGKILL at random
// moments and restarted: every move applied exactly once, every reply delivered. The kills
// need real servers: the local mail server lives in the daemon's process and dies with it, so
// locally the burst runs without them.
func TestCrashBurst(t *testing.T) {
	games, movesPerGame := 20, 10
	if testing.Short() {
		games = 4
	}
	e := newEnv(t)
	e.start()
	type game struct{ white, black string }
	var gs []game
	for i := 0; i < games; i++ {
		g := game{e.addr(fmt.Sprintf("w%d", i)), e.addr(fmt.Sprintf("b%d", i))}
		e.admin("new", "--variant", "orthodox", "--white", g.white, "--black", g.black)
		gs = append(gs, g)
	}
	// Knights out and back: legal forever, one move per mail.
	moves := []string{"Nf3", "Nf6", "Ng1", "Ng8"}
	stop := make(chan struct{})
	var killer sync.WaitGroup
	killer.Add(1)
	kills := 0
	go func() {
		defer killer.Done()
		if !e.real {
			return
		}
		rng := rand.New(rand.NewSource(1))
		for {
			select {
			case <-stop:
				return
			case <-time.After(time.Duration(200+rng.Intn(800)) * time.Millisecond):
			}
			e.kill()
			kills++
			if err := e.startErr(); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for i, g := range gs {
		wg.Add(1)
		go func(i int, g game) {
			defer wg.Done()
			// Each player's mail count grows by one per own move (the reply) and one per
			// opponent move (the news); the opening mail is 1.
			for k := 0; k < movesPerGame; k++ {
				player := g.white
				if k%2 == 1 {
					player = g.black
				}
				e.reply(player, 1+k, moves[k%4])
			}
		}(i, g)
	}
	wg.Wait()
	close(stop)
	killer.Wait()
	// The last move's mails must arrive, then the records are checked.
	for _, g := range gs {
		e.waitMail(g.white, 1+movesPerGame, 60*time.Second)
		e.waitMail(g.black, 1+movesPerGame, 60*time.Second)
	}
	out := e.admin("export", "--all", "--include-hidden")
	want := "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6"
	if n := strings.Count(out, want+" *"); n != games {
		t.Fatalf("%d of %d games have exactly their %d moves (daemon killed %d times):\n%s", n, games, movesPerGame, kills, out)
	}
	e.dups.Store(0) // count each duplicate once, in this last pass
	for _, g := range gs {
		for _, p := range []string{g.white, g.black} {
			if n := len(e.inbox(p)); n != 1+movesPerGame {
				t.Errorf("%s received %d distinct mails, want %d", p, n, 1+movesPerGame)
			}
		}
	}
	dups := e.dups.Load()
	t.Logf("daemon killed %d times; %d duplicate deliveries (same Message-ID, at-least-once; at most %d per kill allowed)", kills, dups, mailer.DefaultParallel)
	fmt.Printf("crash scenario: %d kills, %d duplicate deliveries\n", kills, dups)
	if dups > int64(kills*mailer.DefaultParallel) {
		t.Errorf("%d duplicate deliveries after %d kills: more than one per delivery worker per crash", dups, kills)
	}
	if e.real && kills < 3 {
		t.Errorf("the daemon was killed only %d times: the burst ended too soon to test anything", kills)
	}
}

// Postfix stopped for a while: the outbox waits and drains when it returns (real servers).
func TestSMTPDown(t *testing.T) {
	if os.Getenv("REFEREED_TEST_REAL") != "1" {
		t.Skip("needs real Postfix (REFEREED_TEST_REAL=1)")
	}
	e := newEnv(t)
	e.start()
	ann, bob := e.addr("ann"), e.addr("bob")
	e.admin("new", "--white", ann, "--black", bob)
	e.waitMail(ann, 1, 30*time.Second)
	if out, err := exec.Command("postfix", "-c", postfixConf(), "stop").CombinedOutput(); err != nil {
		t.Fatalf("postfix stop: %v %s", err, out)
	}
	time.Sleep(2 * time.Second)
	e.admin("new", "--white", e.addr("carl"), "--black", e.addr("dana"))
	time.Sleep(3 * time.Second)
	mustContain(t, "list while Postfix is down", e.admin("list"), "2 mail(s) waiting in the outbox")
	if out, err := exec.Command("postfix", "-c", postfixConf(), "start").CombinedOutput(); err != nil {
		t.Fatalf("postfix start: %v %s", err, out)
	}
	// The sender retries with backoff (30 s first); the mails arrive.
	e.waitMail(e.addr("carl"), 1, 120*time.Second)
	e.waitMail(e.addr("dana"), 1, 120*time.Second)
}

// Dovecot restarted mid-session: intake reconnects and resumes; nothing lost (real servers).
func TestIMAPRestart(t *testing.T) {
	if os.Getenv("REFEREED_TEST_REAL") != "1" {
		t.Skip("needs real Dovecot (REFEREED_TEST_REAL=1)")
	}
	e := newEnv(t)
	e.start()
	ann, bob := e.addr("ann"), e.addr("bob")
	e.admin("new", "--white", ann, "--black", bob)
	e.reply(ann, 1, "e4")
	bobTo := e.waitMail(bob, 2, 30*time.Second)[1].ReplyTo
	conf := os.Getenv("DOVECOT_CONF")
	if out, err := exec.Command("doveadm", "-c", conf, "stop").CombinedOutput(); err != nil {
		t.Fatalf("doveadm stop: %v %s", err, out)
	}
	time.Sleep(2 * time.Second)
	// Mail sent while Dovecot is down waits in Postfix's queue.
	e.send(bob, bobTo, "Re: move", "e5")
	// Dovecot daemonizes: its output must not be a pipe we wait on (mail-stack.md gotcha 11).
	if err := exec.Command("dovecot", "-c", conf).Run(); err != nil {
		t.Fatalf("dovecot start: %v", err)
	}
	for i := 0; i < 100; i++ {
		if c, err := net.Dial("tcp", "127.0.0.1:"+getenv("LMTP_PORT", "2424")); err == nil {
			c.Close()
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	exec.Command("postqueue", "-f").Run()
	msgs := e.waitMail(ann, 3, 120*time.Second)
	mustContain(t, "after the restart", msgs[2].Body, "Black played 1... e5")
}

// The intake over IMAP with implicit TLS (port 1993) and with STARTTLS (port 1143), against
// real Dovecot: a move goes in and its answers come out (real servers).
func TestIMAPTLS(t *testing.T) {
	if os.Getenv("REFEREED_TEST_REAL") != "1" {
		t.Skip("needs real Dovecot (REFEREED_TEST_REAL=1)")
	}
	for _, c := range []struct{ security, addr string }{{"tls", "127.0.0.1:" + getenv("IMAPS_PORT", "1993")}, {"starttls", e2eIMAP()}} {
		t.Run(c.security, func(t *testing.T) {
			e := newEnv(t)
			e.writeConfig(c.security, c.addr)
			e.start()
			ann, bob := e.addr("ann"), e.addr("bob")
			e.admin("new", "--white", ann, "--black", bob)
			e.reply(ann, 1, "e4")
			msgs := e.waitMail(bob, 2, 30*time.Second)
			mustContain(t, "Bob's news over "+c.security, msgs[1].Body, "White played 1. e4")
			if b, _ := os.ReadFile(e.logFile); !strings.Contains(string(b), "imap connected") {
				t.Errorf("no IMAP session over %s in the log:\n%s", c.security, b)
			}
		})
	}
}

func e2eIMAP() string { return getenv("IMAP_ADDR", "127.0.0.1:1143") }

// postfixConf is the configuration directory of the scenario's own Postfix instance
// (test/lib/mail-up.sh): the machine's Postfix is never stopped.
func postfixConf() string {
	return getenv("POSTFIX_CONF", getenv("MAILCI_DIR", "/tmp/refereed-mailci")+"/postfix")
}

// The daemon stopped (SIGTERM) and started again in the middle of a game: both players' moves
// before and after the restart are all applied and answered, none is dropped. With the local
// mail server this needs the mail kept in the data directory with its UIDs; the intake must
// not have to fall back on content fingerprints to get it right.
func TestDaemonRestart(t *testing.T) {
	e := newEnv(t)
	e.start()
	ann, bob := e.addr("ann"), e.addr("bob")
	e.admin("new", "--variant", "orthodox", "--white", ann, "--black", bob)
	e.reply(ann, 1, "e4")
	e.reply(bob, 2, "e5")
	e.reply(ann, 3, "Nf3")
	e.waitMail(bob, 4, 30*time.Second)
	for round := 0; round < 2; round++ {
		e.stop()
		e.start()
	}
	e.reply(bob, 4, "Nc6")
	e.reply(ann, 5, "Bb5")
	e.reply(bob, 6, "a6")
	msgs := e.waitMail(ann, 7, 30*time.Second)
	mustContain(t, "Ann's news after the restarts", msgs[6].Body, "Black played 3... a6")
	mustContain(t, "export", e.admin("export", "1", "--include-hidden"), "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *")
	if b, _ := os.ReadFile(e.logFile); strings.Contains(string(b), "other mail under a UID") {
		t.Errorf("the mail server reused UIDs across the restart:\n%s", b)
	}
}
