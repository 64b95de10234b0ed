package localmail_test

import (
	"bufio"
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"log/slog"
	"math/big"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/refereed/refereed/mailer/localmail"
)

// testTLS is a certificate for localhost and 127.0.0.1 signed by a CA of its own, and a
// client configuration that trusts that CA alone.
func testTLS(t testing.TB) (server, client *tls.Config) {
	t.Helper()
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	ca := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "refereed test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true,
		KeyUsage: x509.KeyUsageCertSign, BasicConstraintsValid: true}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caCert, _ := x509.ParseCertificate(caDER)
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	leaf := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "localhost"},
		DNSNames: []string{"localhost"}, IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, leaf, caCert, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(caCert)
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der, caDER}, PrivateKey: key}}},
		&tls.Config{RootCAs: pool, ServerName: "localhost"}
}

// fromElsewhere listens on loopback, but every connection it accepts seems to come from
// 203.0.113.7 (TEST-NET-3): the server treats it as a connection from another machine.
func fromElsewhere(network, addr string) (net.Listener, error) {
	ln, err := net.Listen(network, addr)
	return remoteListener{ln}, err
}

type remoteListener struct{ net.Listener }

func (l remoteListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return remoteConn{c}, nil
}

type remoteConn struct{ net.Conn }

func (remoteConn) RemoteAddr() net.Addr {
	return &net.TCPAddr{IP: net.IPv4(203, 0, 113, 7), Port: 40000}
}

// logLines is a log the test reads.
type logLines struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logLines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}
func (l *logLines) String() string { l.mu.Lock(); defer l.mu.Unlock(); return l.buf.String() }

func startServer(t *testing.T, s *localmail.Server) *localmail.Server {
	t.Helper()
	if s.IMAPAddr == "" {
		s.IMAPAddr = "127.0.0.1:0"
	}
	if s.SMTPAddr == "" {
		s.SMTPAddr = "127.0.0.1:0"
	}
	if s.Password == "" {
		s.Password = "pw"
	}
	s.Referee = "referee@localhost"
	if s.Domain != "" {
		s.Referee = "referee@" + s.Domain
	}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// Listening beyond loopback without TLS is refused at start, with what to do (issue 36).
func TestNetworkNeedsTLS(t *testing.T) {
	for _, addrs := range [][2]string{{"0.0.0.0:0", "127.0.0.1:0"}, {"127.0.0.1:0", ":0"}} {
		s := &localmail.Server{Password: "pw", IMAPAddr: addrs[0], SMTPAddr: addrs[1]}
		err := s.Start()
		if err == nil {
			s.Close()
			t.Fatalf("%v: started without TLS", addrs)
		}
		if !strings.Contains(err.Error(), "--tls-cert FILE --tls-key FILE") || !strings.Contains(err.Error(), "listen on 127.0.0.1") {
			t.Errorf("%v: %v", addrs, err)
		}
	}
	for _, a := range []string{"127.0.0.1:1", "[::1]:2", "localhost:3"} {
		if !localmail.IsLoopback(a) {
			t.Errorf("%s: not loopback", a)
		}
	}
	for _, a := range []string{"0.0.0.0:1", ":2", "192.0.2.1:3", "[::]:4", "example.org:5"} {
		if localmail.IsLoopback(a) {
			t.Errorf("%s: taken for loopback", a)
		}
	}
}

// From another machine a client logs in only over TLS: no AUTH offered on SMTP before
// STARTTLS, LOGINDISABLED on IMAP; after STARTTLS (the certificate checked) it logs in and
// sends. Implicit TLS ports work too. From this machine nothing changes.
func TestLoginOnlyOverTLSFromElsewhere(t *testing.T) {
	srvTLS, cliTLS := testTLS(t)
	s := startServer(t, &localmail.Server{TLS: srvTLS, Listen: fromElsewhere, IMAPSAddr: "127.0.0.1:0", SMTPSAddr: "127.0.0.1:0"})

	c, err := smtp.Dial(s.SMTPListen())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Hello("client.example"); err != nil {
		t.Fatal(err)
	}
	if ok, _ := c.Extension("AUTH"); ok {
		t.Error("AUTH offered to another machine before STARTTLS")
	}
	if err := c.Auth(sasl.NewPlainClient("", "ann@localhost", "pw")); err == nil {
		t.Fatal("logged in from another machine without TLS")
	}
	c.Close()
	c, err = smtp.DialStartTLS(s.SMTPListen(), cliTLS)
	if err != nil {
		t.Fatalf("STARTTLS: %v", err)
	}
	defer c.Close()
	if err := c.Auth(sasl.NewPlainClient("", "ann@localhost", "pw")); err != nil {
		t.Fatalf("AUTH after STARTTLS: %v", err)
	}
	if err := c.SendMail("ann@localhost", []string{"referee@localhost"}, strings.NewReader("From: ann@localhost\r\n\r\ne4\r\n")); err != nil {
		t.Fatalf("a move over TLS: %v", err)
	}

	ic, err := imapclient.DialInsecure(s.IMAPListen(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !ic.Caps().Has("LOGINDISABLED") {
		t.Error("IMAP offers a login to another machine before STARTTLS")
	}
	if err := ic.Login("ann@localhost", "pw").Wait(); err == nil {
		t.Error("IMAP login from another machine without TLS")
	}
	ic.Close()
	ic, err = imapclient.DialStartTLS(s.IMAPListen(), &imapclient.Options{TLSConfig: cliTLS})
	if err != nil {
		t.Fatal(err)
	}
	if err := ic.Login("ann@localhost", "pw").Wait(); err != nil {
		t.Errorf("IMAP login after STARTTLS: %v", err)
	}
	ic.Close()

	// Implicit TLS.
	ic, err = imapclient.DialTLS(s.IMAPSListen(), &imapclient.Options{TLSConfig: cliTLS})
	if err != nil {
		t.Fatal(err)
	}
	if err := ic.Login("ann@localhost", "pw").Wait(); err != nil {
		t.Errorf("IMAP login on the implicit TLS port: %v", err)
	}
	ic.Close()
	sc, err := smtp.DialTLS(s.SMTPSListen(), cliTLS)
	if err != nil {
		t.Fatal(err)
	}
	if err := sc.Auth(sasl.NewPlainClient("", "ann@localhost", "pw")); err != nil {
		t.Errorf("SMTP login on the implicit TLS port: %v", err)
	}
	sc.Close()
}

// Failed logins are logged with the peer and the address tried, slowed, then refused for a
// while, the right password included; a mailbox that does not exist fails as a wrong
// password does.
func TestLoginThrottle(t *testing.T) {
	var logs logLines
	s := startServer(t, &localmail.Server{Log: slog.New(slog.NewTextHandler(&logs, nil)), Listen: fromElsewhere, TLS: mustTLS(t),
		Limits: localmail.Limits{FailuresBeforeDelay: 2, FailuresBeforeBlock: 4, FailureDelay: 50 * time.Millisecond, FailureWindow: time.Minute}})
	_, cliTLS := testTLS(t)
	cliTLS.InsecureSkipVerify = true
	try := func(user, pw string) error { // from 203.0.113.7, over STARTTLS
		c, err := smtp.DialStartTLS(s.SMTPListen(), cliTLS)
		if err != nil {
			return err
		}
		defer c.Close()
		return c.Auth(sasl.NewPlainClient("", user, pw))
	}
	var nobody, wrong error
	for i := 0; i < 4; i++ {
		wrong = try("ann@localhost", "guess")
		nobody = try("nobody@localhost", "guess")
	}
	if wrong == nil || nobody == nil || wrong.Error() != nobody.Error() {
		t.Errorf("a wrong password: %v; a mailbox that does not exist: %v (want the same answer)", wrong, nobody)
	}
	if err := try("ann@localhost", "pw"); err == nil {
		t.Error("the right password let in from a peer that failed 8 times")
	}
	text := logs.String()
	if n := strings.Count(text, `msg="localmail: login failed" proto=smtp peer=203.0.113.7 user=`); n != 4 {
		t.Errorf("%d failures logged before the block, want 4:\n%s", n, text)
	}
	if !strings.Contains(text, `msg="localmail: login refused: too many failures from this peer" proto=smtp peer=203.0.113.7 user=ann@localhost`) {
		t.Errorf("the refused login is not logged:\n%s", text)
	}
	// From this machine (another peer) Ann still logs in.
	s2 := startServer(t, &localmail.Server{})
	c, err := smtp.Dial(s2.SMTPListen())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Auth(sasl.NewPlainClient("", "ann@localhost", "pw")); err != nil {
		t.Errorf("a login from this machine: %v", err)
	}
}

func mustTLS(t *testing.T) *tls.Config {
	srv, _ := testTLS(t)
	return srv
}

// Connections are capped per peer of another machine (and in all), the one over the cap
// told so; an idle one is closed. From loopback (every player of a club on one machine)
// only the cap in all holds.
func TestConnectionCaps(t *testing.T) {
	s := startServer(t, &localmail.Server{TLS: mustTLS(t), Listen: fromElsewhere, Limits: localmail.Limits{MaxConnsPerPeer: 2, IMAPIdle: 300 * time.Millisecond}})
	var open []net.Conn
	for i := 0; i < 2; i++ {
		c, err := net.Dial("tcp", s.SMTPListen())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		line, _ := bufio.NewReader(c).ReadString('\n')
		if !strings.HasPrefix(line, "220 ") {
			t.Fatalf("connection %d: %q", i, line)
		}
		open = append(open, c)
	}
	c, err := net.Dial("tcp", s.SMTPListen())
	if err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(c).ReadString('\n')
	c.Close()
	if !strings.HasPrefix(line, "421 ") {
		t.Errorf("a third connection from one peer: %q, want 421", line)
	}
	open[0].Close()
	time.Sleep(100 * time.Millisecond) // the server sees the close
	c, err = net.Dial("tcp", s.SMTPListen())
	if err != nil {
		t.Fatal(err)
	}
	line, _ = bufio.NewReader(c).ReadString('\n')
	c.Close()
	if !strings.HasPrefix(line, "220 ") {
		t.Errorf("a connection after one closed: %q", line)
	}
	open[1].Close()
	local := startServer(t, &localmail.Server{Limits: localmail.Limits{MaxConnsPerPeer: 2}})
	for i := 0; i < 4; i++ {
		c, err := net.Dial("tcp", local.SMTPListen())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if line, _ := bufio.NewReader(c).ReadString('\n'); !strings.HasPrefix(line, "220 ") {
			t.Fatalf("connection %d from loopback: %q", i, line)
		}
	}

	// IMAP: an idle connection is closed.
	ic, err := net.Dial("tcp", s.IMAPListen())
	if err != nil {
		t.Fatal(err)
	}
	defer ic.Close()
	r := bufio.NewReader(ic)
	r.ReadString('\n') // greeting
	ic.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		if _, err := r.ReadString('\n'); err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				t.Fatal("an idle IMAP connection was not closed")
			}
			break // closed by the server
		}
	}
}

// Mail between players waits while the disk is below its reserve; mail to the referee
// passes. One address sends a bounded volume a day.
func TestReserveAndDailyVolume(t *testing.T) {
	s := startServer(t, &localmail.Server{Reserve: 1 << 62})
	c, err := smtp.Dial(s.SMTPListen())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Auth(sasl.NewPlainClient("", "ann@localhost", "pw")); err != nil {
		t.Fatal(err)
	}
	s.Mailbox("bob@localhost")
	err = c.SendMail("ann@localhost", []string{"bob@localhost"}, strings.NewReader("From: ann@localhost\r\n\r\nhi\r\n"))
	var se *smtp.SMTPError
	if !errors.As(err, &se) || se.Code != 452 {
		t.Errorf("mail to a player below the reserve: %v, want 452", err)
	}
	if err := c.SendMail("ann@localhost", []string{"referee+g1-w-abc@localhost"}, strings.NewReader("From: ann@localhost\r\n\r\ne4\r\n")); err != nil {
		t.Errorf("mail to the referee below the reserve: %v", err)
	}
	if d := s.Disk(); d.Reserve != 1<<62 || d.Size == 0 || !strings.Contains(d.String(), "reserve") {
		t.Errorf("disk state: %+v", d)
	}

	s2 := startServer(t, &localmail.Server{DailyPerSender: 200})
	c2, err := smtp.Dial(s2.SMTPListen())
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	if err := c2.Auth(sasl.NewPlainClient("", "ann@localhost", "pw")); err != nil {
		t.Fatal(err)
	}
	msg := "From: ann@localhost\r\n\r\n" + strings.Repeat("x", 100) + "\r\n"
	if err := c2.SendMail("ann@localhost", []string{"referee@localhost"}, strings.NewReader(msg)); err != nil {
		t.Fatalf("the first mail of the day: %v", err)
	}
	err = c2.SendMail("ann@localhost", []string{"referee@localhost"}, strings.NewReader(msg))
	if !errors.As(err, &se) || se.Code != 452 {
		t.Errorf("past the day's volume: %v, want 452", err)
	}
}

// A connection on which nobody logs in is closed after a short silence; one on which someone
// did may stay idle longer (an IMAP client idling between mails).
func TestPreAuthIdle(t *testing.T) {
	s := startServer(t, &localmail.Server{Limits: localmail.Limits{PreAuthIdle: 200 * time.Millisecond, IMAPIdle: 5 * time.Second}})
	quiet, err := net.Dial("tcp", s.IMAPListen())
	if err != nil {
		t.Fatal(err)
	}
	defer quiet.Close()
	ic, err := imapclient.DialInsecure(s.IMAPListen(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ic.Close()
	if err := ic.Login("ann@localhost", "pw").Wait(); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(quiet)
	r.ReadString('\n') // greeting
	quiet.SetReadDeadline(time.Now().Add(10 * time.Second))
	_, err = r.ReadString('\n')
	if err == nil {
		t.Fatal("the server wrote to a silent connection")
	} else if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatal("a connection on which nobody logged in was not closed")
	}
	time.Sleep(600 * time.Millisecond) // three times the first silence
	if err := ic.Noop().Wait(); err != nil {
		t.Errorf("a logged-in connection idle for 0.6 s was closed: %v", err)
	}
}
