package mailer_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/refereed/refereed/mailer"
	"github.com/refereed/refereed/mailer/localmail"
	"github.com/refereed/refereed/mailer/mailertest"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/store/storetest"
)

func openDB(t *testing.T) *store.DB {
	t.Helper()
	db, err := store.OpenURL(storetest.Location(t, storetest.Default()), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestPolicy(t *testing.T) {
	created := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := mailer.Policy{First: time.Minute, Max: time.Hour, MaxAge: 24 * time.Hour, Rand: func() float64 { return 0.5 }}
	temp := &smtp.SMTPError{Code: 451, Message: "try later"}
	perm := mailer.Classify(&smtp.SMTPError{Code: 550, Message: "no such user"})
	if !mailer.IsPermanent(mailer.Classify(errors.New("smtp: server does not support SMTPUTF8"))) {
		t.Error("a server without SMTPUTF8 will not take a UTF-8 address by waiting: permanent")
	}
	if !mailer.IsPermanent(perm) || mailer.IsPermanent(mailer.Classify(temp)) || mailer.IsPermanent(mailer.Classify(errors.New("connection refused"))) {
		t.Fatal("5xx must be permanent, 4xx and network errors not")
	}
	var delays []time.Duration
	for attempt := 1; attempt <= 8; attempt++ {
		next, err := p.Next(temp, attempt, created, created)
		if err != nil {
			t.Fatal(err)
		}
		delays = append(delays, next.Sub(created))
	}
	want := []time.Duration{1, 2, 4, 8, 16, 32, 60, 60}
	for i, d := range delays {
		if d != want[i]*time.Minute {
			t.Errorf("attempt %d: delay %v, want %v", i+1, d, want[i]*time.Minute)
		}
	}
	if _, err := p.Next(perm, 1, created, created); !mailer.IsPermanent(err) {
		t.Error("a 5xx was retried")
	}
	if _, err := p.Next(temp, 30, created, created.Add(25*time.Hour)); !mailer.IsPermanent(err) || !strings.Contains(err.Error(), "gave up after 30 tries") {
		t.Errorf("an old mail was retried: %v", err)
	}
	j := mailer.Policy{First: time.Minute, Jitter: 0.2, Rand: func() float64 { return 0 }}
	if next, _ := j.Next(temp, 1, created, created); next.Sub(created) != 48*time.Second {
		t.Errorf("jitter: %v", next.Sub(created))
	}
}

func enqueue(t *testing.T, db *store.DB, n int) {
	t.Helper()
	db.Update(func(tx *store.Tx) error {
		for i := 0; i < n; i++ {
			tx.Enqueue(store.OutMail{MessageID: fmt.Sprintf("m%d@x", i), From: "referee+bounce@x", To: []string{fmt.Sprintf("p%d@x", i)}, Raw: []byte("hello"), Game: 1})
		}
		return nil
	})
}

func outboxLen(db *store.DB) (waiting, done int) {
	db.View(func(tx *store.Tx) error {
		o, _ := tx.Outbox()
		s, _ := tx.SentMails()
		waiting, done = len(o), len(s)
		return nil
	})
	return
}

// 4xx: the mail waits and is retried later; it leaves the outbox only once accepted.
func TestSenderRetriesTemporaryFailures(t *testing.T) {
	db := openDB(t)
	enqueue(t, db, 1)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tr := &mailertest.Transport{Script: func(attempt int, to []string) error {
		if attempt < 3 {
			return &smtp.SMTPError{Code: 421, Message: "busy"}
		}
		return nil
	}}
	s := &mailer.Sender{DB: db, Transport: tr, Now: func() time.Time { return now }, Policy: mailer.Policy{First: time.Minute, Rand: func() float64 { return 0.5 }}}
	for i := 0; i < 2; i++ {
		sent, next, err := s.Drain(context.Background())
		if err != nil || sent != 0 || next.IsZero() {
			t.Fatalf("try %d: sent %d next %v err %v", i, sent, next, err)
		}
		if w, _ := outboxLen(db); w != 1 {
			t.Fatal("a refused mail left the outbox")
		}
		if sent, _, _ := s.Drain(context.Background()); sent != 0 {
			t.Fatal("a mail was retried before its time")
		}
		now = next
	}
	if sent, _, _ := s.Drain(context.Background()); sent != 1 || len(tr.Messages()) != 1 {
		t.Fatalf("third try: sent %d", sent)
	}
	if w, d := outboxLen(db); w != 0 || d != 1 {
		t.Errorf("after delivery: waiting %d, done %d", w, d)
	}
}

// 5xx: given up at once, recorded, and reported.
func TestSenderGivesUpOnPermanentFailure(t *testing.T) {
	db := openDB(t)
	enqueue(t, db, 2)
	tr := &mailertest.Transport{Script: func(attempt int, to []string) error {
		if to[0] == "p0@x" {
			return mailer.Classify(&smtp.SMTPError{Code: 550, Message: "no such user"})
		}
		return nil
	}}
	var reported []string
	s := &mailer.Sender{DB: db, Transport: tr, OnGiveUp: func(m store.OutMail, err error) { reported = append(reported, m.To[0]+": "+err.Error()) }}
	if sent, _, err := s.Drain(context.Background()); sent != 1 || err != nil {
		t.Fatalf("sent %d: %v", sent, err)
	}
	if len(reported) != 1 || !strings.Contains(reported[0], "p0@x: permanent") {
		t.Errorf("reported %q", reported)
	}
	db.View(func(tx *store.Tx) error {
		s, _ := tx.SentMails()
		if len(s) != 2 || !s[0].Failed || !strings.Contains(s[0].LastError, "550") || s[1].Failed {
			t.Errorf("recorded %+v", s)
		}
		return nil
	})
}

// Intake against the in-memory IMAP server: every message is stored in the inbox before it
// is moved to Processed; an oversize one is stored as its header.
func TestIntakeLocalMail(t *testing.T) {
	lm := &localmail.Server{Password: "pw", IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0"}
	if err := lm.Start(); err != nil {
		t.Fatal(err)
	}
	defer lm.Close()
	if _, err := lm.Mailbox("referee@localhost"); err != nil {
		t.Fatal(err)
	}
	c, err := smtp.Dial(lm.SMTPListen())
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Auth(sasl.NewPlainClient("", "ann@localhost", "pw")); err != nil {
		t.Fatal(err)
	}
	for i, body := range []string{"e4", "d4", strings.Repeat(strings.Repeat("x", 50)+"\r\n", 100)} {
		raw := fmt.Sprintf("From: ann@localhost\r\nTo: referee+g1-w-abcdefghij@localhost\r\nMessage-ID: <%d@localhost>\r\nSubject: m\r\n\r\n%s\r\n", i, body)
		if err := c.SendMail("ann@localhost", []string{"referee+g1-w-abcdefghij@localhost"}, strings.NewReader(raw)); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.SendMail("ann@localhost", []string{"someone@elsewhere.example"}, strings.NewReader("x")); err == nil {
		t.Error("the local server relayed to another domain")
	}
	c.Close()

	db := openDB(t)
	got := make(chan struct{}, 10)
	in := &mailer.Intake{IMAP: mailer.IMAP{Addr: lm.IMAPListen(), Security: "plain", Username: "referee@localhost", Password: "pw"},
		DB: db, MaxSize: 1000, PollInterval: 50 * time.Millisecond, OnNew: func() { got <- struct{}{} }}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- in.Run(ctx) }()
	select {
	case <-got:
	case <-time.After(10 * time.Second):
		t.Fatal("no mail fetched")
	}
	var pending []store.InboundMail
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		db.View(func(tx *store.Tx) error { pending, _ = tx.PendingInbound(); return nil })
		if len(pending) == 3 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if len(pending) != 3 {
		t.Fatalf("%d mails stored, want 3", len(pending))
	}
	var oversize int
	for _, m := range pending {
		if m.Oversize > 0 {
			oversize++
			if strings.Contains(string(m.Raw), "xxxx") || !strings.Contains(string(m.Raw), "Message-ID") {
				t.Errorf("oversize mail stored with its body: %q", m.Raw)
			}
		}
		if !strings.Contains(string(m.Raw), "Delivered-To: referee+g1-w-abcdefghij@localhost") {
			t.Errorf("delivery headers missing: %q", m.Raw)
		}
	}
	if oversize != 1 {
		t.Errorf("%d oversize mails, want 1", oversize)
	}
	// More mail while the intake idles is fetched too (IDLE).
	u, _ := lm.Mailbox("referee@localhost")
	lm.Deliver("bob@localhost", []string{"referee@localhost"}, []byte("From: bob@localhost\r\nSubject: late\r\n\r\nNf3\r\n"))
	deadline = time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) && len(pending) < 4 {
		db.View(func(tx *store.Tx) error { pending, _ = tx.PendingInbound(); return nil })
		time.Sleep(20 * time.Millisecond)
	}
	if len(pending) != 4 {
		t.Errorf("mail delivered during IDLE not fetched: %d", len(pending))
	}
	st, err := u.Status("Processed", &imapStatus)
	if err != nil || *st.NumMessages != 4 {
		t.Errorf("Processed holds %v messages (%v), want 4", st, err)
	}
	st, _ = u.Status("INBOX", &imapStatus)
	if *st.NumMessages != 0 {
		t.Errorf("INBOX still holds %d", *st.NumMessages)
	}
	cancel()
	<-done
}

// The intake reconnects after the connection fails.
func TestIntakeReconnects(t *testing.T) {
	lm := &localmail.Server{Password: "pw", IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0"}
	if err := lm.Start(); err != nil {
		t.Fatal(err)
	}
	defer lm.Close()
	lm.Mailbox("referee@localhost")
	db := openDB(t)
	fails := 1
	got := make(chan struct{}, 10)
	in := &mailer.Intake{IMAP: mailer.IMAP{Addr: lm.IMAPListen(), Username: "referee@localhost", Password: "pw"}, DB: db,
		PollInterval: 20 * time.Millisecond, OnNew: func() { got <- struct{}{} },
		Dial: func(ctx context.Context, addr string) (net.Conn, error) {
			if fails > 0 {
				fails--
				return nil, errors.New("injected: connection refused")
			}
			return (&net.Dialer{}).DialContext(ctx, "tcp", addr)
		}}
	lm.Deliver("ann@localhost", []string{"referee@localhost"}, []byte("From: ann@localhost\r\n\r\ne4\r\n"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go in.Run(ctx)
	select {
	case <-got:
	case <-time.After(10 * time.Second):
		t.Fatal("no mail after a failed connection")
	}
}

// A mail server that starts again from UIDVALIDITY 1 and UID 1 with other mail (as the local
// server did after a restart) costs no move: a known key whose content changed is processed as
// new, logged; the same content under a known key is not stored twice.
func TestIntakeServerReusesUIDs(t *testing.T) {
	db := openDB(t)
	// run starts a fresh in-memory server with the given mails and fetches until idle.
	run := func(bodies ...string) {
		t.Helper()
		// Its clock stands still: the referee's mailbox gets the same UIDVALIDITY each time,
		// as on a server that lost its state.
		lm := &localmail.Server{Password: "pw", IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0",
			Now: func() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) }}
		if err := lm.Start(); err != nil {
			t.Fatal(err)
		}
		defer lm.Close()
		lm.Mailbox("referee@localhost")
		for _, b := range bodies {
			raw := fmt.Sprintf("From: ann@localhost\r\nMessage-ID: <%s@localhost>\r\nSubject: %s\r\n\r\n%s\r\n", b, b, b)
			if err := lm.Deliver("ann@localhost", []string{"referee+g1-w-abcdefghij@localhost"}, []byte(raw)); err != nil {
				t.Fatal(err)
			}
		}
		in := &mailer.Intake{IMAP: mailer.IMAP{Addr: lm.IMAPListen(), Username: "referee@localhost", Password: "pw"}, DB: db,
			PollInterval: 20 * time.Millisecond}
		drain(in, lm)
	}
	// process marks every waiting mail processed, as the referee does, and returns their bodies.
	process := func() []string {
		t.Helper()
		var got []string
		if err := db.Update(func(tx *store.Tx) error {
			pending, err := tx.PendingInbound()
			for _, m := range pending {
				got = append(got, strings.TrimSpace(string(m.Raw[strings.LastIndex(string(m.Raw), "\r\n\r\n"):])))
				if err := tx.MarkProcessed(m.Key); err != nil {
					return err
				}
			}
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return got
	}
	run("e4", "Nf3")
	if got := process(); fmt.Sprint(got) != "[e4 Nf3]" {
		t.Fatalf("first server: %v", got)
	}
	run("d4", "Nf3", "c4") // UIDs 1, 2, 3 again: 1 and 3 are new mail, 2 is like the old UID 2
	if got := process(); fmt.Sprint(got) != "[d4 c4]" {
		t.Fatalf("after the server reused its UIDs: %v, want [d4 c4]", got)
	}
	run("d4", "Nf3", "c4") // the same contents again (a crash before the move): nothing new
	if got := process(); len(got) != 0 {
		t.Fatalf("the same mail stored twice: %v", got)
	}
}

// Waiting mail is fetched in batches bounded by bytes, each stored, announced and taken out
// of the mailbox before the next; mail that Admit refuses (no valid token) is stored as its first
// bytes only.
func TestIntakeBatchesAndAdmit(t *testing.T) {
	lm := &localmail.Server{Password: "pw", IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0"}
	if err := lm.Start(); err != nil {
		t.Fatal(err)
	}
	defer lm.Close()
	u, _ := lm.Mailbox("referee@localhost")
	big := strings.Repeat(strings.Repeat("y", 70)+"\r\n", 4000) // 288 KB
	for i := 0; i < 12; i++ {
		to := "referee@localhost" // no token
		if i%3 == 0 {
			to = "referee+g1-w-goodtoken@localhost"
		}
		raw := fmt.Sprintf("From: x@localhost\r\nTo: %s\r\nSubject: %d\r\n\r\nHELP\r\n%s", to, i, big)
		if err := lm.Deliver("x@localhost", []string{to}, []byte(raw)); err != nil {
			t.Fatal(err)
		}
	}
	db := openDB(t)
	var mu sync.Mutex
	var batches []int // messages in the mailbox at each OnNew
	in := &mailer.Intake{IMAP: mailer.IMAP{Addr: lm.IMAPListen(), Username: "referee@localhost", Password: "pw"}, DB: db,
		PollInterval: 20 * time.Millisecond, BatchBytes: 1 << 20, MaxSize: 4 << 20,
		Admit: func(prefix []byte) bool { return strings.Contains(string(prefix), "goodtoken") },
		OnNew: func() {
			st, _ := u.Status("INBOX", &imapStatus)
			mu.Lock()
			batches = append(batches, int(*st.NumMessages))
			mu.Unlock()
		}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- in.Run(ctx) }()
	var pending []store.InboundMail
	emptied := func() bool { // the last batch is stored, announced and taken out
		st, _ := u.Status("INBOX", &imapStatus)
		mu.Lock()
		defer mu.Unlock()
		return len(batches) > 0 && *st.NumMessages == 0
	}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) && (len(pending) < 12 || !emptied()) {
		time.Sleep(20 * time.Millisecond)
		db.View(func(tx *store.Tx) error { pending, _ = tx.PendingInbound(); return nil })
	}
	cancel()
	<-done
	mu.Lock()
	defer mu.Unlock()
	if len(pending) != 12 {
		t.Fatalf("%d mails stored, want 12", len(pending))
	}
	for _, m := range pending {
		admitted := strings.Contains(string(m.Raw), "goodtoken")
		switch {
		case admitted && (m.Partial != 0 || len(m.Raw) < len(big)):
			t.Errorf("admitted mail %v stored partly (%d bytes)", m.Key, len(m.Raw))
		case !admitted && (m.Partial == 0 || len(m.Raw) > 16<<10 || !strings.Contains(string(m.Raw), "HELP")):
			t.Errorf("mail without a token %v: %d bytes, partial %d", m.Key, len(m.Raw), m.Partial)
		}
	}
	// 4 admitted mails of 288 KB and 8 prefixes in batches of at most 1 MB: the mailbox
	// empties in several steps, each announced once it is stored, before it is taken out.
	shrinks := len(batches) >= 3 && batches[0] == 12
	for i := 1; i < len(batches); i++ {
		shrinks = shrinks && batches[i] < batches[i-1] && batches[i] > 0
	}
	if !shrinks {
		t.Errorf("mail left in the mailbox at each announcement: %v, want several batches, each announced before it is taken out", batches)
	}
}

// With Processed = Delete (what serve sets for the built-in server) the intake expunges what
// the store holds: the referee's mailbox keeps no second copy (issue 20).
func TestIntakeDeletes(t *testing.T) {
	lm := &localmail.Server{Password: "pw", IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Referee: "referee@localhost"}
	if err := lm.Start(); err != nil {
		t.Fatal(err)
	}
	defer lm.Close()
	for _, b := range []string{"e4", "d4"} {
		if err := lm.Deliver("ann@localhost", []string{"referee@localhost"}, []byte("From: ann@localhost\r\nSubject: m\r\n\r\n"+b+"\r\n")); err != nil {
			t.Fatal(err)
		}
	}
	db := openDB(t)
	in := &mailer.Intake{IMAP: mailer.IMAP{Addr: lm.IMAPListen(), Username: "referee@localhost", Password: "pw"}, DB: db,
		Processed: mailer.Delete, PollInterval: 20 * time.Millisecond}
	u := drain(in, lm)
	if st, _ := u.Status("INBOX", &imap.StatusOptions{NumMessages: true, Size: true}); *st.NumMessages != 0 || *st.Size != 0 {
		t.Errorf("INBOX still holds %d mails", *st.NumMessages)
	}
	if _, err := u.Status("Processed", &imapStatus); err == nil {
		t.Error("a Processed folder was made")
	}
	db.View(func(tx *store.Tx) error {
		if pending, _ := tx.PendingInbound(); len(pending) != 2 {
			t.Errorf("the store holds %d mails, want 2", len(pending))
		}
		return nil
	})
}

// Issue 23: mail that Ignore names (the referee: a stranger's) is recorded as processed, with
// its fingerprint, in the transaction that stores the rest, and never waits in the inbox.
func TestIntakeIgnores(t *testing.T) {
	lm := &localmail.Server{Password: "pw", IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Referee: "referee@localhost"}
	if err := lm.Start(); err != nil {
		t.Fatal(err)
	}
	defer lm.Close()
	for _, from := range []string{"spam@example.com", "ann@localhost", "spam2@example.com"} {
		if err := lm.Deliver(from, []string{"referee@localhost"}, []byte("From: "+from+"\r\nSubject: m\r\n\r\nhello\r\n")); err != nil {
			t.Fatal(err)
		}
	}
	db := openDB(t)
	news := 0
	in := &mailer.Intake{IMAP: mailer.IMAP{Addr: lm.IMAPListen(), Username: "referee@localhost", Password: "pw"}, DB: db,
		Processed: mailer.Delete, PollInterval: 20 * time.Millisecond, OnNew: func() { news++ },
		Ignore: func(raw []byte) string {
			if strings.Contains(string(raw), "From: spam") {
				return "spam"
			}
			return ""
		}}
	drain(in, lm)
	err := db.View(func(tx *store.Tx) error {
		pending, _ := tx.PendingInbound()
		if len(pending) != 1 || !strings.Contains(string(pending[0].Raw), "ann@localhost") {
			t.Errorf("the inbox holds %d mails, want ann's alone", len(pending))
		}
		for uid := uint32(1); uid <= 3; uid++ {
			k := pending[0].Key
			k.UID = uid
			fp, known, err := tx.Known(k)
			if err != nil {
				return err
			}
			done, err := tx.Processed(k)
			if err != nil {
				return err
			}
			if !known || uid != pending[0].Key.UID && (fp == "" || !done) {
				t.Errorf("mail %d: known %v, fingerprint %q, processed %v", uid, known, fp, done)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if news != 1 {
		t.Errorf("OnNew called %d times, want 1", news)
	}
}

// drain runs in until the referee's INBOX on lm is empty (10 s at most), stops it, and
// returns that mailbox.
func drain(in *mailer.Intake, lm *localmail.Server) *localmail.Account {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- in.Run(ctx) }()
	u, _ := lm.Mailbox("referee@localhost")
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if st, err := u.Status("INBOX", &imapStatus); err == nil && *st.NumMessages == 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	<-done
	return u
}

// cutOn is a connection that breaks as the client sends a command holding word: the server
// never sees it, and the client never reads its reply.
type cutOn struct {
	net.Conn
	word string
	cut  chan struct{}
}

func (c *cutOn) Write(p []byte) (int, error) {
	if strings.Contains(string(p), c.word) {
		select {
		case c.cut <- struct{}{}:
		default:
		}
		c.Conn.Close()
		return 0, errors.New("injected: connection lost")
	}
	return c.Conn.Write(p)
}

// A mail stored whose expunge never gets its reply is announced at once, not at the next
// retry (issue 33): the referee reads it from the store, whatever became of the connection.
func TestIntakeAnnouncesBeforeTakingOut(t *testing.T) {
	lm := &localmail.Server{Password: "pw", IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0"}
	if err := lm.Start(); err != nil {
		t.Fatal(err)
	}
	defer lm.Close()
	lm.Mailbox("referee@localhost")
	db := openDB(t)
	got, cut := make(chan struct{}, 10), make(chan struct{}, 1)
	in := &mailer.Intake{IMAP: mailer.IMAP{Addr: lm.IMAPListen(), Username: "referee@localhost", Password: "pw"}, DB: db,
		Processed: mailer.Delete, PollInterval: time.Hour, OnNew: func() { got <- struct{}{} },
		Dial: func(ctx context.Context, addr string) (net.Conn, error) {
			c, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr)
			if err != nil {
				return nil, err
			}
			return &cutOn{Conn: c, word: "STORE", cut: cut}, nil
		}}
	lm.Deliver("ann@localhost", []string{"referee@localhost"}, []byte("From: ann@localhost\r\n\r\ne4\r\n"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go in.Run(ctx)
	select {
	case <-cut:
	case <-time.After(10 * time.Second):
		t.Fatal("the mail was never taken out")
	}
	select {
	case <-got:
	case <-time.After(10 * time.Second): // the intake waits an hour before it tries again
		t.Fatal("a stored mail whose expunge failed was not announced")
	}
}
