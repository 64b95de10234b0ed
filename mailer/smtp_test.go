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
