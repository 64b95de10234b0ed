// Package localmail is the small mail system `refereed serve` runs when no configuration is
// given: an IMAP server (go-imap's imapmemserver) and an SMTP server (go-smtp) on loopback
// that together act as a mail host for one domain ("localhost"). Every address of that
// domain that receives mail gets a mailbox; plus addresses (referee+g42-w-token@localhost)
// are delivered to their base mailbox, as Postfix and Dovecot do with recipient_delimiter.
// Everyone logs in over IMAP with the full address and the password of that address (see
// PasswordFor), also before a first mail has arrived. Mail to other domains is refused: there is no relaying.
//
// With Dir set, the mail is kept in DIR/localmail.db (see journal.go) and a restart brings
// back every mailbox with its UIDs and UIDVALIDITY; without it the mail lives in memory (the
// tests). It is a place to try refereed and to run its tests, not a mail server for a club.
package localmail

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base32"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
	"github.com/emersion/go-smtp"
)

// Server is the local mail host.
type Server struct {
	Domain string // "localhost" when empty
	// Secret, when set, gives every address its own IMAP password (PasswordFor), so that
	// no player can read another's mail. Password, when Secret is empty, is one password for
	// every mailbox: for tests, never for players who must not read each other's mail.
	Secret   []byte
	Password string
	IMAPAddr string // listen address, e.g. 127.0.0.1:1143
	SMTPAddr string // listen address, e.g. 127.0.0.1:2525
	// MaxMessageBytes bounds one SMTP message (25 MiB when 0).
	MaxMessageBytes int64
	// Dir, when set, is where the mail is kept across restarts (localmail.db).
	Dir string
	// Referee is the daemon's own address: its mail is delivered in-process (Send), and
	// nobody submits mail as it over SMTP.
	Referee string
	// Log receives what an SMTP client is not told (a disk error's detail); none when nil.
	Log *slog.Logger

	mu      sync.Mutex // guards users
	users   map[string]*imapmemserver.User
	jmu     sync.Mutex // serializes changes, so that the journal's order is the servers'
	journal *journal
	imap    *imapserver.Server
	smtp    *smtp.Server
	iln     net.Listener
	sln     net.Listener
}

func (s *Server) domain() string {
	if s.Domain == "" {
		return "localhost"
	}
	return s.Domain
}

// Start listens on both addresses and serves in the background.
func (s *Server) Start() error {
	s.users = map[string]*imapmemserver.User{}
	if s.Dir != "" {
		j, err := openJournal(s.Dir)
		if err != nil {
			return err
		}
		if err := j.each(func(o op) error {
			s.apply(o) // a change that failed when it was made fails again: same state
			return nil
		}); err != nil {
			j.close()
			return err
		}
		s.journal = j
	}
	if s.Referee != "" {
		if _, err := s.Mailbox(s.Referee); err != nil {
			s.closeJournal()
			return err
		}
	}
	s.imap = imapserver.New(&imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return &imapSession{srv: s}, nil, nil
		},
		Caps:         imap.CapSet{imap.CapIMAP4rev1: {}, imap.CapIMAP4rev2: {}},
		InsecureAuth: true, // loopback only
		Logger:       log.New(io.Discard, "", 0),
	})
	var err error
	if s.iln, err = net.Listen("tcp", s.IMAPAddr); err != nil {
		s.closeJournal()
		return fmt.Errorf("localmail: imap listen %s: %w", s.IMAPAddr, err)
	}
	if s.sln, err = net.Listen("tcp", s.SMTPAddr); err != nil {
		s.iln.Close()
		s.closeJournal()
		return fmt.Errorf("localmail: smtp listen %s: %w", s.SMTPAddr, err)
	}
	s.smtp = smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return &session{srv: s}, nil }))
	s.smtp.Domain = s.domain()
	s.smtp.AllowInsecureAuth = true // loopback only: the password never leaves the machine
	s.smtp.ReadTimeout, s.smtp.WriteTimeout = time.Minute, time.Minute
	s.smtp.MaxMessageBytes = s.MaxMessageBytes
	if s.smtp.MaxMessageBytes == 0 {
		s.smtp.MaxMessageBytes = 25 << 20
	}
	s.smtp.MaxRecipients = 50
	go s.imap.Serve(s.iln)
	go s.smtp.Serve(s.sln)
	return nil
}

// IMAPListen and SMTPListen are the bound addresses (useful with port 0).
func (s *Server) IMAPListen() string { return s.iln.Addr().String() }
func (s *Server) SMTPListen() string { return s.sln.Addr().String() }

// Close stops both servers.
func (s *Server) Close() error {
	err1 := s.imap.Close()
	err2 := s.smtp.Close()
	s.jmu.Lock() // no change half made
	defer s.jmu.Unlock()
	return errors.Join(err1, err2, s.closeJournal())
}

func (s *Server) closeJournal() error {
	if s.journal == nil {
		return nil
	}
	err := s.journal.close()
	s.journal = nil
	return err
}

// canonical is the mailbox address of address: lower case, without a +suffix; "" if it is
// not an address of the domain.
func (s *Server) canonical(address string) string {
	addr := strings.ToLower(address)
	local, domain, ok := strings.Cut(addr, "@")
	if !ok || domain != s.domain() || local == "" {
		return ""
	}
	if base, _, plus := strings.Cut(local, "+"); plus {
		local = base
	}
	if local == "" {
		return ""
	}
	return local + "@" + domain
}

// passwordOK checks the password of a canonical address.
func (s *Server) passwordOK(addr, password string) bool {
	want := s.Password
	if len(s.Secret) > 0 {
		want = PasswordFor(s.Secret, addr)
	}
	return subtle.ConstantTimeCompare([]byte(password), []byte(want)) == 1
}

// PasswordFor is the IMAP password of address under the install's secret: an HMAC of the
// mailbox's address, so that the operator can tell each player his own (refereed new and show
// print it) and nobody can derive another's without the secret.
func PasswordFor(secret []byte, address string) string {
	addr := strings.ToLower(address)
	if local, domain, ok := strings.Cut(addr, "@"); ok {
		if base, _, plus := strings.Cut(local, "+"); plus {
			addr = base + "@" + domain
		}
	}
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte(addr))
	return strings.ToLower(base32.StdEncoding.EncodeToString(mac.Sum(nil)))[:16]
}

// Mailbox returns the mailbox user of address, creating it.
func (s *Server) Mailbox(address string) (*imapmemserver.User, error) {
	addr := s.canonical(address)
	if addr == "" {
		return nil, fmt.Errorf("%s is not an address of %s", address, s.domain())
	}
	s.mu.Lock()
	u := s.users[addr]
	s.mu.Unlock()
	if u != nil {
		return u, nil
	}
	err := s.change(op{Op: "user", User: addr}, func() error {
		var err error
		u, err = s.addUser(addr)
		return err
	})
	return u, err
}

// addUser creates the user of a canonical address with its INBOX (a no-op if it exists).
func (s *Server) addUser(addr string) (*imapmemserver.User, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if u := s.users[addr]; u != nil {
		return u, nil
	}
	u := imapmemserver.NewUser(addr, "") // our sessions check passwords, not imapmemserver's
	if err := u.Create("INBOX", nil); err != nil {
		return nil, err
	}
	s.users[addr] = u
	return u, nil
}

// Deliver puts raw into the mailbox of each recipient, with Return-Path and Delivered-To
// headers as a real delivery agent writes them. It returns once the mail is kept.
func (s *Server) Deliver(from string, to []string, raw []byte) error {
	for _, rcpt := range to {
		if _, err := s.Mailbox(rcpt); err != nil {
			return err
		}
		var buf bytes.Buffer
		fmt.Fprintf(&buf, "Return-Path: <%s>\r\nDelivered-To: %s\r\n", from, rcpt)
		buf.Write(raw)
		o := op{Op: "append", User: s.canonical(rcpt), Mailbox: "INBOX", Raw: buf.Bytes(), Time: time.Now()}
		if err := s.change(o, func() error { return s.apply(o) }); err != nil {
			return fmt.Errorf("localmail: deliver to %s: %w", rcpt, err)
		}
	}
	return nil
}
