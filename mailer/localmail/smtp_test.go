package localmail_test

import (
	"context"
	"errors"
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
	for _, to := range []string{"nobody@localhost", "nobody+x@localhost", "bob@elsewhere.example"} {
		if err := send(ann, "ann@localhost", to, mail("ann@localhost", to)); code(err) != 550 {
			t.Errorf("RCPT %s: %v, want 550", to, err)
		}
	}
	if err := send(ann, "ann@localhost", "nobody@localhost", mail("ann@localhost", "nobody@localhost")); code(err) != 550 {
		t.Errorf("a second RCPT to nobody: %v, want 550 (the first made no mailbox)", err)
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
