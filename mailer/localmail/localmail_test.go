package localmail_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/refereed/refereed/mailer/localmail"
)

func start(t *testing.T, dir string) *localmail.Server {
	t.Helper()
	s := &localmail.Server{Password: "pw", IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Dir: dir, Referee: "referee@localhost"}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	return s
}

func send(t *testing.T, s *localmail.Server, to, body string) {
	t.Helper()
	c, err := smtp.Dial(s.SMTPListen())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Auth(sasl.NewPlainClient("", "ann@localhost", "pw")); err != nil {
		t.Fatal(err)
	}
	raw := fmt.Sprintf("From: ann@localhost\r\nTo: %s\r\nSubject: %s\r\n\r\n%s\r\n", to, body, body)
	if err := c.SendMail("ann@localhost", []string{to}, strings.NewReader(raw)); err != nil {
		t.Fatal(err)
	}
}

func login(t *testing.T, s *localmail.Server, user string) *imapclient.Client {
	t.Helper()
	c, err := imapclient.DialInsecure(s.IMAPListen(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Login(user, "pw").Wait(); err != nil {
		t.Fatalf("login %s: %v", user, err)
	}
	return c
}

// mailbox lists UID -> subject of one mailbox, and its UIDVALIDITY.
func mailbox(t *testing.T, c *imapclient.Client, name string) (map[imap.UID]string, uint32) {
	t.Helper()
	sel, err := c.Select(name, nil).Wait()
	if err != nil {
		t.Fatalf("select %s: %v", name, err)
	}
	out := map[imap.UID]string{}
	if sel.NumMessages == 0 {
		return out, sel.UIDValidity
	}
	msgs, err := c.Fetch(imap.SeqSet{{Start: 1, Stop: sel.NumMessages}}, &imap.FetchOptions{UID: true, Envelope: true}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs {
		out[m.UID] = m.Envelope.Subject
	}
	return out, sel.UIDValidity
}

// A restart keeps every mailbox with its UIDs and UIDVALIDITY, and new mail gets new UIDs:
// a UID never comes back with other contents (the intake's keys rely on it).
func TestRestartKeepsMailAndUIDs(t *testing.T) {
	dir := t.TempDir()
	s := start(t, dir)
	for _, body := range []string{"one", "two", "three"} {
		send(t, s, "referee+g1-w-tok@localhost", body)
	}
	c := login(t, s, "referee@localhost")
	if err := c.Create("Processed", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	mailbox(t, c, "INBOX")
	if _, err := c.Move(imap.UIDSetNum(1), "Processed").Wait(); err != nil { // the intake's UID MOVE
		t.Fatal(err)
	}
	if err := c.Store(imap.SeqSetNum(2), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close(); err != nil {
		t.Fatal(err) // by sequence number: message 2 is UID 3 now
	}
	if err := c.Expunge().Close(); err != nil {
		t.Fatal(err)
	}
	inbox1, v1 := mailbox(t, c, "INBOX")
	processed1, pv1 := mailbox(t, c, "Processed")
	if fmt.Sprint(inbox1) != "map[2:two]" || fmt.Sprint(processed1) != "map[1:one]" {
		t.Fatalf("before the restart: INBOX %v, Processed %v", inbox1, processed1)
	}
	c.Logout()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s = start(t, dir)
	defer s.Close()
	c = login(t, s, "referee@localhost")
	inbox2, v2 := mailbox(t, c, "INBOX")
	processed2, pv2 := mailbox(t, c, "Processed")
	if fmt.Sprint(inbox2) != fmt.Sprint(inbox1) || v2 != v1 || fmt.Sprint(processed2) != fmt.Sprint(processed1) || pv2 != pv1 {
		t.Fatalf("after the restart: INBOX %v (UIDVALIDITY %d, was %d), Processed %v (%d, was %d)", inbox2, v2, v1, processed2, pv2, pv1)
	}
	send(t, s, "referee@localhost", "four")
	inbox3, _ := mailbox(t, c, "INBOX")
	if fmt.Sprint(inbox3) != "map[2:two 4:four]" {
		t.Errorf("new mail after the restart: %v, want UID 4", inbox3)
	}
}

// A player can log in before his first mail, and a wrong password or another domain cannot.
func TestLoginBeforeFirstMail(t *testing.T) {
	for _, dir := range []string{"", t.TempDir()} {
		s := start(t, dir)
		c := login(t, s, "Ann@localhost")
		if inbox, _ := mailbox(t, c, "INBOX"); len(inbox) != 0 {
			t.Errorf("new mailbox holds %v", inbox)
		}
		for _, bad := range [][2]string{{"bob@localhost", "wrong"}, {"bob@elsewhere.example", "pw"}} {
			c2, err := imapclient.DialInsecure(s.IMAPListen(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := c2.Login(bad[0], bad[1]).Wait(); err == nil {
				t.Errorf("login %s with %q accepted", bad[0], bad[1])
			}
			c2.Close()
		}
		send(t, s, "ann@localhost", "hello")
		if inbox, _ := mailbox(t, c, "INBOX"); fmt.Sprint(inbox) != "map[1:hello]" {
			t.Errorf("mail after an early login: %v", inbox)
		}
		s.Close()
	}
}

// With a secret, each address has its own password: one player's does not open another's
// mailbox (issue: one shared password let a player read the other's private views).
func TestPasswordPerAddress(t *testing.T) {
	secret := []byte("install secret")
	s := &localmail.Server{Secret: secret, IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0"}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ann, bob := localmail.PasswordFor(secret, "ann@localhost"), localmail.PasswordFor(secret, "Bob+g1@localhost")
	if ann == bob || len(ann) < 12 || bob != localmail.PasswordFor(secret, "bob@localhost") {
		t.Fatalf("passwords %q %q", ann, bob)
	}
	try := func(user, pw string) error {
		c, err := imapclient.DialInsecure(s.IMAPListen(), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		return c.Login(user, pw).Wait()
	}
	if err := try("ann@localhost", ann); err != nil {
		t.Errorf("Ann with her password: %v", err)
	}
	for _, bad := range [][2]string{{"bob@localhost", ann}, {"ann@localhost", bob}, {"ann@localhost", ""}} {
		if try(bad[0], bad[1]) == nil {
			t.Errorf("%s logged in with another's password", bad[0])
		}
	}
}
