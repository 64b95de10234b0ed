package mailer_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"io"
	"math/big"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/refereed/refereed/mailer"
)

// selfSigned makes a certificate for 127.0.0.1.
func selfSigned(t *testing.T) tls.Certificate {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

// authSink is an SMTP server that requires AUTH PLAIN (only over TLS) and keeps what it got.
type authSink struct {
	mu     sync.Mutex
	users  []string
	bodies []string
}

type authSession struct {
	sink *authSink
	user string
}

func (s *authSession) AuthMechanisms() []string { return []string{sasl.Plain} }
func (s *authSession) Auth(mech string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(identity, user, pass string) error {
		if user != "referee" || pass != "secret" {
			return &smtp.SMTPError{Code: 535, EnhancedCode: smtp.EnhancedCode{5, 7, 8}, Message: "bad credentials"} // as Postfix answers
		}
		s.user = user
		return nil
	}), nil
}
func (s *authSession) Mail(string, *smtp.MailOptions) error {
	if s.user == "" {
		return smtp.ErrAuthRequired
	}
	return nil
}
func (s *authSession) Rcpt(string, *smtp.RcptOptions) error { return nil }
func (s *authSession) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	s.sink.mu.Lock()
	s.sink.users = append(s.sink.users, s.user)
	s.sink.bodies = append(s.sink.bodies, string(b))
	s.sink.mu.Unlock()
	return err
}
func (s *authSession) Reset()        {}
func (s *authSession) Logout() error { return nil }

// Delivery over STARTTLS and implicit TLS with AUTH PLAIN; a wrong password is refused as a
// permanent error (5xx), not retried forever.
func TestSMTPTLSAndAuth(t *testing.T) {
	cert := selfSigned(t)
	sink := &authSink{}
	srv := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return &authSession{sink: sink}, nil }))
	srv.Domain = "127.0.0.1"
	srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert}}
	plainLn, _ := net.Listen("tcp", "127.0.0.1:0")
	tlsLn := tls.NewListener(mustListen(t), srv.TLSConfig)
	go srv.Serve(plainLn)
	go srv.Serve(tlsLn)
	defer srv.Close()
	client := &tls.Config{InsecureSkipVerify: true}
	for _, c := range []struct{ security, addr string }{{"starttls", plainLn.Addr().String()}, {"tls", tlsLn.Addr().String()}} {
		tr := &mailer.SMTP{Addr: c.addr, Security: c.security, Username: "referee", Password: "secret", TLS: client}
		if err := tr.Send(context.Background(), "referee@x", []string{"ann@x"}, []byte("Subject: hi\r\n\r\nbody\r\n")); err != nil {
			t.Fatalf("%s: %v", c.security, err)
		}
		tr.Close()
	}
	if len(sink.users) != 2 || sink.users[0] != "referee" || sink.users[1] != "referee" {
		t.Errorf("authenticated deliveries: %v", sink.users)
	}
	bad := &mailer.SMTP{Addr: plainLn.Addr().String(), Security: "starttls", Username: "referee", Password: "wrong", TLS: client}
	if err := bad.Send(context.Background(), "referee@x", []string{"ann@x"}, []byte("x\r\n")); !mailer.IsPermanent(err) {
		t.Errorf("wrong password: %v, want a permanent error", err)
	}
	noTLS := &mailer.SMTP{Addr: plainLn.Addr().String(), Security: "plain", Username: "referee", Password: "secret"}
	if err := noTLS.Send(context.Background(), "referee@x", []string{"ann@x"}, []byte("x\r\n")); err == nil {
		t.Error("AUTH over plain text was accepted by a server that requires TLS first")
	}
}

func mustListen(t *testing.T) net.Listener {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// connLog is a listener that keeps every connection it accepted, so that a test can close
// them from the server's side, and logs the commands the clients sent.
type connLog struct {
	net.Listener
	mu    sync.Mutex
	conns []net.Conn
	cmds  []string
}

func (l *connLog) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.mu.Lock()
		l.conns = append(l.conns, c)
		l.mu.Unlock()
	}
	return c, err
}

func (l *connLog) closeAll() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, c := range l.conns {
		c.Close()
	}
}

// The mails of one drain share a session with no RSET between them (a completed transaction
// leaves it ready); a session the server closed while it was idle costs no mail: a new one
// sends it. A refusal of the sender stays the server's answer.
func TestSMTPReusesSessions(t *testing.T) {
	sink := &authSink{}
	var refuse sync.Map // sender -> refused
	srv := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) {
		return &plainSession{authSession{sink: sink, user: "anyone"}, &refuse}, nil
	}))
	srv.Domain = "127.0.0.1"
	srv.AllowInsecureAuth = true
	ln := &connLog{Listener: mustListen(t)}
	srv.Debug = &cmdLog{ln: ln}
	go srv.Serve(ln)
	defer srv.Close()
	tr := &mailer.SMTP{Addr: ln.Addr().String(), Security: "plain"}
	send := func(from, body string) error {
		return tr.Send(context.Background(), from, []string{"ann@x"}, []byte("Subject: s\r\n\r\n"+body+"\r\n"))
	}
	for _, b := range []string{"one", "two", "three"} {
		if err := send("referee@x", b); err != nil {
			t.Fatal(err)
		}
	}
	ln.mu.Lock()
	conns, rsets := len(ln.conns), 0
	for _, c := range ln.cmds {
		if c == "RSET" {
			rsets++
		}
	}
	ln.mu.Unlock()
	if conns != 1 || rsets != 0 {
		t.Errorf("three mails took %d sessions and %d RSETs, want 1 and 0", conns, rsets)
	}
	ln.closeAll() // the server drops the idle session
	time.Sleep(50 * time.Millisecond)
	if err := send("referee@x", "four"); err != nil {
		t.Fatalf("after the server closed the idle session: %v", err)
	}
	refuse.Store("mallory@x", true)
	if err := send("mallory@x", "five"); !mailer.IsPermanent(err) {
		t.Errorf("a refused sender on a reused session: %v, want the server's permanent refusal", err)
	}
	if err := send("referee@x", "six"); err != nil {
		t.Fatalf("after a refusal: %v", err)
	}
	tr.Close()
	sink.mu.Lock()
	defer sink.mu.Unlock()
	var got []string
	for _, b := range sink.bodies {
		got = append(got, strings.TrimSpace(b[strings.Index(b, "\r\n\r\n")+4:]))
	}
	if strings.Join(got, " ") != "one two three four six" {
		t.Errorf("delivered %q, want one two three four six, each once", got)
	}
}

type plainSession struct {
	authSession
	refuse *sync.Map
}

func (s *plainSession) Mail(from string, _ *smtp.MailOptions) error {
	if _, ok := s.refuse.Load(from); ok {
		return &smtp.SMTPError{Code: 553, EnhancedCode: smtp.EnhancedCode{5, 7, 1}, Message: "sender refused"}
	}
	return nil
}

// cmdLog collects the commands of the server's debug output (what the clients sent).
type cmdLog struct{ ln *connLog }

func (w *cmdLog) Write(p []byte) (int, error) {
	for _, line := range strings.Split(string(p), "\n") {
		if f := strings.Fields(line); len(f) > 0 && strings.ToUpper(f[0]) == f[0] && len(f[0]) == 4 {
			w.ln.mu.Lock()
			w.ln.cmds = append(w.ln.cmds, f[0])
			w.ln.mu.Unlock()
		}
	}
	return len(p), nil
}

// A Sender's drains share their sessions: the mails of a busy minute do not each pay for a
// connection, a greeting, EHLO and QUIT. A session idle for IdleFor is ended politely (QUIT),
// and the Sender ends the rest when it stops.
func TestSenderKeepsSessionsBetweenDrains(t *testing.T) {
	sink := &authSink{}
	srv := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) {
		return &plainSession{authSession{sink: sink, user: "anyone"}, &sync.Map{}}, nil
	}))
	srv.Domain = "127.0.0.1"
	ln := &connLog{Listener: mustListen(t)}
	srv.Debug = &cmdLog{ln: ln}
	go srv.Serve(ln)
	defer srv.Close()
	const idle = 300 * time.Millisecond
	tr := &mailer.SMTP{Addr: ln.Addr().String(), Security: "plain", IdleFor: idle}
	db := openDB(t)
	s := &mailer.Sender{DB: db, Transport: tr, Parallel: 1}
	count := func(cmd string) (conns, n int) {
		ln.mu.Lock()
		defer ln.mu.Unlock()
		for _, c := range ln.cmds {
			if c == cmd {
				n++
			}
		}
		return len(ln.conns), n
	}
	for drain := 0; drain < 3; drain++ {
		enqueue(t, db, 2)
		if sent, _, err := s.Drain(context.Background()); err != nil || sent != 2 {
			t.Fatalf("drain %d: sent %d, %v", drain, sent, err)
		}
	}
	if conns, quits := count("QUIT"); conns != 1 || quits != 0 {
		t.Errorf("three drains in a row: %d sessions and %d QUITs, want 1 and 0", conns, quits)
	}
	deadline := time.Now().Add(5 * time.Second)
	for _, quits := count("QUIT"); quits == 0 && time.Now().Before(deadline); _, quits = count("QUIT") {
		time.Sleep(20 * time.Millisecond)
	}
	if _, quits := count("QUIT"); quits != 1 {
		t.Fatalf("a session idle for %v: %d QUITs, want 1", idle, quits)
	}
	// A new session for the next mail, ended when the Sender stops.
	enqueue(t, db, 1)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- s.Run(ctx, nil, time.Hour) }()
	for waiting, _ := outboxLen(db); waiting > 0 && time.Now().Before(deadline); waiting, _ = outboxLen(db) {
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	<-done
	if conns, quits := count("QUIT"); conns != 2 || quits != 2 {
		t.Errorf("after the Sender stopped: %d sessions and %d QUITs, want 2 and 2", conns, quits)
	}
	sink.mu.Lock()
	defer sink.mu.Unlock()
	if len(sink.bodies) != 7 {
		t.Errorf("%d mails delivered, want 7", len(sink.bodies))
	}
}
