package localmail

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/md5"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/mail"
	"net/netip"
	"os"
	"strings"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/refereed/refereed/mailer"
)

// Submission (RFC 6409) as Postfix does it with smtpd_sasl_auth_enable and
// reject_sender_login_mismatch: a client logs in (AUTH PLAIN, LOGIN, SCRAM-SHA-256 or
// CRAM-MD5) and then sends as the address it
// logged in as only, in the envelope and in From:. Recipients are mailboxes that exist (the
// referee's, and those of the people it has written to or who have logged in): a stranger's
// RCPT creates none, and is answered as any other (the copy is dropped), so that a sender
// cannot tell who has a mailbox here. A client from another machine logs in only over TLS
// (guard.go), and mail between people waits while the disk is below its reserve (reserve.go).
// Nobody logs in as the referee here: its mail is delivered in-process (Send).

var (
	errAuthRequired = &smtp.SMTPError{Code: 530, EnhancedCode: smtp.EnhancedCode{5, 7, 0}, Message: "Authentication required: log in with your full address and its password"}
	errAuthFailed   = &smtp.SMTPError{Code: 535, EnhancedCode: smtp.EnhancedCode{5, 7, 8}, Message: "Authentication failed: log in with your full address and its password"}
	errTryLater     = &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "Your mail could not be kept just now: please try again later"}
)

type session struct {
	srv    *Server
	peer   netip.Addr // where the connection comes from
	conn   *smtp.Conn
	user   string // the canonical address logged in as; "" before AUTH
	from   string
	mailOK bool
	size   int64 // as the client announced it (SIZE), 0 when not
	to     []string
}

var _ smtp.AuthSession = (*session)(nil)

// AuthMechanisms: PLAIN and LOGIN, and SCRAM-SHA-256 and CRAM-MD5, which send no password:
// clients that will not send one over a connection without TLS log in with them as they are
// (msmtp's "auth on" takes SCRAM-SHA-256, Thunderbird's "encrypted password" CRAM-MD5).
func (s *session) AuthMechanisms() []string {
	return []string{scramSHA256, sasl.Plain, sasl.Login, cramMD5}
}

func (s *session) Auth(mech string) (sasl.Server, error) {
	switch mech {
	case sasl.Plain:
		return sasl.NewPlainServer(func(identity, username, password string) error {
			if identity != "" && !strings.EqualFold(identity, username) {
				return errAuthFailed
			}
			return s.login(username, password)
		}), nil
	case sasl.Login:
		return &loginServer{login: s.login}, nil
	case cramMD5:
		return &cramServer{s: s}, nil
	case scramSHA256:
		return &scramServer{s: s}, nil
	}
	return nil, smtp.ErrAuthUnknownMechanism
}

// login checks an address and its password; the referee's address never logs in here.
func (s *session) login(username, password string) error {
	return s.loginCheck(username, func(addr string) bool { return s.srv.passwordOK(addr, password) })
}

// loginCheck logs in as username if ok says its password was shown.
func (s *session) loginCheck(username string, ok func(addr string) bool) error {
	referee := s.srv.canonical(s.srv.Referee)
	addr, admitted := s.srv.admit("smtp", s.peer, username, func(addr string) bool { return addr != referee && ok(addr) })
	if !admitted {
		return errAuthFailed
	}
	// The password is the operator's word that the address is a person's: his mailbox may
	// exist before his first mail, as with an IMAP login.
	if _, err := s.srv.Mailbox(addr); err != nil {
		s.srv.logError("smtp login", addr, err)
		return errTryLater
	}
	s.user = addr
	if s.conn != nil {
		loggedIn(s.conn.Conn())
	}
	return nil
}

func (s *session) Mail(from string, opts *smtp.MailOptions) error {
	if s.user == "" {
		return errAuthRequired
	}
	if from != "" && s.srv.canonical(from) != s.user { // <>: a report (MDN, DSN) of the user's own
		return &smtp.SMTPError{Code: 553, EnhancedCode: smtp.EnhancedCode{5, 7, 1}, Message: "Sender address rejected: you are logged in as " + s.user + ", send from that address"}
	}
	s.from, s.mailOK, s.size = from, true, opts.Size
	return nil
}

func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	if s.user == "" {
		return errAuthRequired
	}
	addr := s.srv.canonical(to)
	if addr == "" {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 7, 1}, Message: "Not an address of this server, and there is no relaying"}
	}
	// Mail to the referee passes whatever the disk holds: no game stops. Mail between people
	// waits while the disk is below its reserve.
	if addr != s.srv.canonical(s.srv.Referee) && s.srv.belowReserve(max(s.size, 1)) {
		s.srv.logInfo("localmail: mail between players refused: the disk is below its reserve", "from", s.user, "to", addr)
		return errReserve
	}
	if s.srv.full(to, max(s.size, 1)) {
		return errMailboxFull(true)
	}
	// An address without a mailbox is answered as one with: the server does not tell a
	// logged-in sender who has a mailbox here. Its copy is dropped at DATA (logged).
	s.to = append(s.to, to)
	return nil
}

func (s *session) Data(r io.Reader) error {
	if s.user == "" || len(s.to) == 0 {
		return errAuthRequired
	}
	// The mail goes to disk as it comes (never whole into memory), then its From: is
	// checked, then it is delivered.
	file, _, err := s.srv.disk.writeTemp("", r, s.srv.maxMessage())
	if errors.Is(err, errTooBig) {
		return &smtp.SMTPError{Code: 552, EnhancedCode: smtp.EnhancedCode{5, 3, 4}, Message: "Message too big"}
	}
	if err != nil {
		return s.srv.smtpError(err)
	}
	defer os.Remove(file)
	f, err := os.Open(file)
	if err != nil {
		return s.srv.smtpError(err)
	}
	defer f.Close()
	if from := headerFrom(io.LimitReader(f, 1<<20)); s.srv.canonical(from) != s.user {
		return &smtp.SMTPError{Code: 553, EnhancedCode: smtp.EnhancedCode{5, 7, 1}, Message: "From: must be the one address you are logged in as, " + s.user}
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return s.srv.smtpError(err)
	}
	if fi, err := f.Stat(); err == nil && !s.srv.volume.add(s.user, fi.Size(), s.srv.dailyLimit(), s.srv.now()) {
		s.srv.logInfo("localmail: mail refused: the sender's volume of the day is spent", "from", s.user, "limit", s.srv.dailyLimit())
		return errDaily
	}
	var to []string
	for _, rcpt := range s.to {
		if s.srv.exists(rcpt) {
			to = append(to, rcpt)
		} else {
			s.srv.logInfo("localmail: mail to an address without a mailbox dropped", "from", s.user, "to", rcpt)
		}
	}
	if len(to) == 0 {
		return nil
	}
	if err := s.srv.deliver(s.from, to, f, true); err != nil {
		return s.srv.smtpError(err)
	}
	return nil
}

func (s *session) Reset()        { s.from, s.mailOK, s.to = "", false, nil }
func (s *session) Logout() error { return nil }

// headerFrom is the one address in the From: field of a mail; "" if there is not exactly one.
func headerFrom(r io.Reader) string {
	m, err := mail.ReadMessage(r)
	if err != nil {
		return ""
	}
	list, err := mail.ParseAddressList(m.Header.Get("From"))
	if err != nil || len(list) != 1 || len(m.Header["From"]) != 1 {
		return ""
	}
	return list[0].Address
}

// smtpError is what an SMTP client is told of a failure to keep its mail: a refusal it can
// act on as it is, anything else (a full or failing disk) as a temporary failure without
// detail; the log keeps the detail.
func (s *Server) smtpError(err error) error {
	var se *smtp.SMTPError
	if errors.As(err, &se) {
		return se
	}
	var ce *clientError
	if errors.As(err, &ce) {
		return &smtp.SMTPError{Code: 554, EnhancedCode: smtp.EnhancedCode{5, 6, 0}, Message: "Your mail could not be read: " + ce.Error()}
	}
	s.logError("smtp deliver", "", err)
	return errTryLater
}

func (s *Server) logError(what, addr string, err error) {
	if s.Log != nil {
		s.Log.Error("localmail: "+what, "address", addr, "err", err)
	}
}

// loginServer is the server side of SASL LOGIN (draft-murchison-sasl-login): "Username:",
// then "Password:". go-sasl has only the client.
type loginServer struct {
	login    func(username, password string) error
	username string
	step     int
}

func (l *loginServer) Next(response []byte) (challenge []byte, done bool, err error) {
	switch l.step {
	case 0:
		l.step = 1
		if response == nil { // no initial response
			return []byte("Username:"), false, nil
		}
		fallthrough
	case 1:
		l.username, l.step = string(response), 2
		return []byte("Password:"), false, nil
	case 2:
		l.step = 3
		return nil, true, l.login(l.username, string(response))
	}
	return nil, true, sasl.ErrUnexpectedClientResponse
}

const cramMD5 = "CRAM-MD5"

// cramServer is the server side of SASL CRAM-MD5 (RFC 2195): a challenge that is never sent
// twice, answered with the address and an HMAC-MD5 of it under the password. go-sasl has no
// server for it. The password never crosses the connection.
type cramServer struct {
	s         *session
	challenge []byte
	step      int
}

func (c *cramServer) Next(response []byte) (challenge []byte, done bool, err error) {
	switch c.step {
	case 0:
		c.step = 1
		var nonce [12]byte
		if _, err := rand.Read(nonce[:]); err != nil {
			return nil, true, errTryLater
		}
		c.challenge = fmt.Appendf(nil, "<%x.%d@refereed>", nonce, time.Now().Unix())
		return c.challenge, false, nil
	case 1:
		c.step = 2
		user, digest, ok := strings.Cut(string(response), " ")
		if !ok {
			return nil, true, errAuthFailed
		}
		got, err := hex.DecodeString(strings.TrimSpace(digest))
		if err != nil {
			return nil, true, errAuthFailed
		}
		return nil, true, c.s.loginCheck(user, func(addr string) bool {
			mac := hmac.New(md5.New, []byte(c.s.srv.passwordOf(addr)))
			mac.Write(c.challenge)
			return hmac.Equal(mac.Sum(nil), got)
		})
	}
	return nil, true, sasl.ErrUnexpectedClientResponse
}

// Transport delivers the referee's own mail in-process: it is the one sender the SMTP server
// never takes as the referee. A recipient outside the domain is a permanent failure (there is
// no relaying); a failure to keep the mail is a temporary one. The quota does not hold the
// referee's mail back.
func (s *Server) Transport() mailer.Transport { return inProcess{s} }

// inProcess is the Server as a mailer.Transport (not a mailer.Closer: the sender must not
// stop the server when a drain is done).
type inProcess struct{ s *Server }

func (t inProcess) Send(ctx context.Context, from string, to []string, raw []byte) error {
	s := t.s
	for _, rcpt := range to {
		if s.canonical(rcpt) == "" {
			return &mailer.PermanentError{Err: fmt.Errorf("localmail: %s is not an address of %s, and there is no relaying", rcpt, s.domain())}
		}
	}
	for _, rcpt := range to {
		if _, err := s.Mailbox(rcpt); err != nil { // the referee's word makes a mailbox
			return err
		}
	}
	// The referee's mail passes the quota: it is small and bounded (an answer is at most
	// 256 KB, refusals are rate-limited), and a player whose mailbox a stranger has filled
	// must still get his game's mail.
	if err := s.deliver(from, to, bytes.NewReader(raw), false); err != nil {
		return fmt.Errorf("localmail: deliver to %v: %v", to, err) // temporary (not %w: a 552 for a full mailbox is no reason to give up)
	}
	return nil
}

var _ mailer.Transport = inProcess{}

// Exists reports whether address has a mailbox.
func (s *Server) Exists(address string) bool { return s.exists(address) }

// exists reports whether address has a mailbox.
func (s *Server) exists(address string) bool {
	addr := s.canonical(address)
	s.mu.Lock()
	defer s.mu.Unlock()
	return addr != "" && s.users[addr] != nil
}

func (s *Server) logInfo(msg string, args ...any) {
	if s.Log != nil {
		s.Log.Info(msg, args...)
	}
}
