package localmail_test

import (
	"context"
	"crypto/hmac"
	"crypto/md5"
	"crypto/pbkdf2"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/refereed/refereed/mailer"
	"github.com/refereed/refereed/mailer/localmail"
)

func code(err error) int {
	var se *smtp.SMTPError
	if errors.As(err, &se) {
		return se.Code
	}
	return 0
}

// Submission needs a login, and a client sends only as the address it logged in as, in the
// envelope and in From:; nobody logs in as the referee; RCPT names mailboxes that exist and
// creates none (issue 20: a player sent his opponent mail "from" the referee, and 50,000
// RCPTs made 50,000 mailboxes).
func TestSubmissionNeedsLogin(t *testing.T) {
	s := start(t, "")
	defer s.Close()
	if _, err := s.Mailbox("bob@localhost"); err != nil {
		t.Fatal(err)
	}
	dial := func(user string, auth sasl.Client) *smtp.Client {
		t.Helper()
		c, err := smtp.Dial(s.SMTPListen())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		if auth != nil {
			if err := c.Auth(auth); err != nil {
				t.Fatalf("AUTH as %s: %v", user, err)
			}
		}
		return c
	}
	mail := func(from, to string) string {
		return "From: " + from + "\r\nTo: " + to + "\r\nSubject: x\r\n\r\nhello\r\n"
	}
	send := func(c *smtp.Client, from, to, raw string) error {
		return c.SendMail(from, []string{to}, strings.NewReader(raw))
	}

	if err := send(dial("", nil), "ann@localhost", "bob@localhost", mail("ann@localhost", "bob@localhost")); code(err) != 530 {
		t.Errorf("without a login: %v, want 530", err)
	}
	for _, a := range []sasl.Client{sasl.NewPlainClient("", "referee@localhost", "pw"), sasl.NewLoginClient("referee+g1@localhost", "pw"),
		sasl.NewPlainClient("", "ann@localhost", "wrong"), sasl.NewPlainClient("bob@localhost", "ann@localhost", "pw")} {
		c, err := smtp.Dial(s.SMTPListen())
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Auth(a); code(err) != 535 {
			t.Errorf("AUTH %T: %v, want 535", a, err)
		}
		c.Close()
	}
	ann := dial("ann", sasl.NewLoginClient("ann@localhost", "pw"))
	if err := send(ann, "referee@localhost", "bob@localhost", mail("referee@localhost", "bob@localhost")); code(err) != 553 {
		t.Errorf("Ann as the referee in the envelope: %v, want 553", err)
	}
	if err := send(ann, "ann@localhost", "bob@localhost", mail("Referee <referee@localhost>", "bob@localhost")); code(err) != 553 {
		t.Errorf("Ann as the referee in From: %v, want 553", err)
	}
	if err := send(ann, "ann@localhost", "bob@localhost", "From: ann@localhost, referee@localhost\r\n\r\nx\r\n"); code(err) != 553 {
		t.Errorf("two From addresses: %v, want 553", err)
	}
	// An address of the domain without a mailbox is answered as one with (the server does not
	// tell who has a mailbox), and its copy dropped: no mailbox is made. No relaying.
	for _, to := range []string{"nobody@localhost", "nobody+x@localhost"} {
		if err := send(ann, "ann@localhost", to, mail("ann@localhost", to)); err != nil {
			t.Errorf("RCPT %s: %v, want it answered as an address with a mailbox", to, err)
		}
	}
	if s.Exists("nobody@localhost") {
		t.Error("mail to an address without a mailbox made one")
	}
	if err := send(ann, "ann@localhost", "bob@elsewhere.example", mail("ann@localhost", "bob@elsewhere.example")); code(err) != 550 {
		t.Errorf("RCPT of another domain: %v, want 550", err)
	}
	if err := send(ann, "Ann+chess@localhost", "bob@localhost", mail("Ann <ann@localhost>", "bob@localhost")); err != nil {
		t.Errorf("Ann as herself: %v", err)
	}
	if err := send(ann, "ann@localhost", "referee+g1-w-abcdefghij@localhost", mail("ann@localhost", "referee+g1-w-abcdefghij@localhost")); err != nil {
		t.Errorf("Ann to the referee: %v", err)
	}
	c := login(t, s, "bob@localhost")
	if inbox, _ := mailbox(t, c, "INBOX"); len(inbox) != 1 {
		t.Errorf("Bob's INBOX holds %v, want Ann's one mail", inbox)
	}
}

// The referee's own mail goes in-process; a recipient of another domain is a permanent
// failure, as a 550 would be.
func TestSendInProcess(t *testing.T) {
	s := &localmail.Server{Password: "pw", IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Referee: "referee@localhost"}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tr := s.Transport()
	if err := tr.Send(context.Background(), "referee+bounce-g1@localhost", []string{"carl@localhost"}, []byte("From: referee@localhost\r\nSubject: your move\r\n\r\nx\r\n")); err != nil {
		t.Fatal(err)
	}
	if inbox, _ := mailbox(t, login(t, s, "carl@localhost"), "INBOX"); len(inbox) != 1 {
		t.Errorf("Carl's INBOX: %v", inbox)
	}
	if err := tr.Send(context.Background(), "referee@localhost", []string{"dan@elsewhere.example"}, []byte("x")); !mailer.IsPermanent(err) {
		t.Errorf("to another domain: %v, want a permanent failure", err)
	}
}

// cramClient is the client side of CRAM-MD5 (RFC 2195), as msmtp does it.
type cramClient struct{ user, pass string }

func (c cramClient) Start() (string, []byte, error) { return "CRAM-MD5", nil, nil }
func (c cramClient) Next(challenge []byte) ([]byte, error) {
	mac := hmac.New(md5.New, []byte(c.pass))
	mac.Write(challenge)
	return []byte(c.user + " " + hex.EncodeToString(mac.Sum(nil))), nil
}

// Issue 34: msmtp's "auth on" will not send a password without TLS; it logs in with
// CRAM-MD5, which sends none. A wrong password, or the referee's address, is refused.
func TestSubmissionCRAMMD5(t *testing.T) {
	s := start(t, "")
	defer s.Close()
	for _, c := range []struct {
		auth cramClient
		ok   bool
	}{{cramClient{"ann@localhost", "pw"}, true}, {cramClient{"ann@localhost", "wrong"}, false}, {cramClient{"referee@localhost", "pw"}, false}} {
		cl, err := smtp.Dial(s.SMTPListen())
		if err != nil {
			t.Fatal(err)
		}
		err = cl.Auth(c.auth)
		if c.ok && err != nil || !c.ok && code(err) != 535 {
			t.Errorf("CRAM-MD5 as %s/%s: %v", c.auth.user, c.auth.pass, err)
		}
		if c.ok {
			if err := cl.SendMail("ann@localhost", []string{"ann@localhost"}, strings.NewReader("From: ann@localhost\r\nSubject: x\r\n\r\nhi\r\n")); err != nil {
				t.Errorf("send after CRAM-MD5: %v", err)
			}
		}
		cl.Close()
	}
}

// scramClient is the client side of SCRAM-SHA-256 (RFC 7677), as msmtp's GNU SASL does it.
type scramClient struct {
	user, pass, first, nonce string
	step                     int
}

func (c *scramClient) Start() (string, []byte, error) {
	c.nonce = "rOprNGfwEbeRWgbNEkqO"
	c.first = "n=" + c.user + ",r=" + c.nonce
	return "SCRAM-SHA-256", []byte("n,," + c.first), nil
}

func (c *scramClient) Next(challenge []byte) ([]byte, error) {
	c.step++
	if c.step > 1 {
		return []byte{}, nil // the server's signature
	}
	attrs := map[string]string{}
	for _, kv := range strings.Split(string(challenge), ",") {
		k, v, _ := strings.Cut(kv, "=")
		attrs[k] = v
	}
	salt, _ := base64.StdEncoding.DecodeString(attrs["s"])
	iter, _ := strconv.Atoi(attrs["i"])
	salted, _ := pbkdf2.Key(sha256.New, c.pass, salt, iter, 32)
	mac := func(key []byte, s string) []byte {
		m := hmac.New(sha256.New, key)
		m.Write([]byte(s))
		return m.Sum(nil)
	}
	clientKey := mac(salted, "Client Key")
	stored := sha256.Sum256(clientKey)
	final := "c=biws,r=" + attrs["r"]
	sig := mac(stored[:], c.first+","+string(challenge)+","+final)
	for i := range clientKey {
		clientKey[i] ^= sig[i]
	}
	return []byte(final + ",p=" + base64.StdEncoding.EncodeToString(clientKey)), nil
}

// Issue 34: msmtp's "auth on" sends no password without TLS: it logs in with SCRAM-SHA-256.
func TestSubmissionSCRAM(t *testing.T) {
	s := start(t, "")
	defer s.Close()
	for _, c := range []struct {
		user, pass string
		ok         bool
	}{{"ann@localhost", "pw", true}, {"ann@localhost", "wrong", false}, {"referee@localhost", "pw", false}} {
		cl, err := smtp.Dial(s.SMTPListen())
		if err != nil {
			t.Fatal(err)
		}
		err = cl.Auth(&scramClient{user: c.user, pass: c.pass})
		if c.ok && err != nil || !c.ok && code(err) != 535 {
			t.Errorf("SCRAM-SHA-256 as %s/%s: %v", c.user, c.pass, err)
		}
		cl.Close()
	}
}
