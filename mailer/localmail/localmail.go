// Package localmail is the small mail system `refereed serve` runs when no configuration is
// given: an IMAP server (go-imap's imapserver, on a disk-backed store of its own) and an SMTP
// submission server (go-smtp) on loopback that together act as a mail host for one domain
// ("localhost"). Plus addresses (referee+g42-w-token@localhost) are delivered to their base
// mailbox, as Postfix and Dovecot do with recipient_delimiter.
//
// Everyone logs in with the full address and the password of that address (see PasswordFor):
// over IMAP to read, also before a first mail has arrived, and over SMTP to send, as that
// address only (smtp.go). The referee's own mail is delivered in-process (Transport), and
// nobody sends as the referee. Mail goes only to mailboxes that exist: the referee's, and
// those of the people it has written to or who have logged in. There is no relaying.
//
// The mail is on disk (mailstore.go): bbolt holds the index of mailboxes, UIDs and flags,
// one file per message holds its bytes. Memory holds the index only, so the daemon's memory
// and start-up time follow how many messages are kept, not their size, and not how much
// mail ever came. A mailbox holds at most Quota bytes; a mail beyond it is refused before
// anything is stored (452 at RCPT, 552 at DATA, OVERQUOTA at APPEND), and a mail is never
// dropped to make room. A restart brings back every mailbox with its UIDs and UIDVALIDITY.
// For a club on one machine it is the whole mail system; a league that has real mail servers
// points refereed at them with a configuration file instead.
package localmail

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"crypto/tls"
	"encoding/base32"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-smtp"
	bolt "go.etcd.io/bbolt"
)

// now is the server's clock.
func (s *Server) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

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
	// MaxMessageBytes bounds one message, at SMTP (SIZE) and APPEND (25 MiB when 0).
	MaxMessageBytes int64
	// Quota bounds the bytes one address's mailboxes hold together (1 GiB when 0).
	Quota int64
	// Dir is where the mail is kept across restarts (localmail.db and localmail.d/); without
	// it, a temporary directory removed at Close (tests).
	Dir string
	// Referee is the daemon's own address: its mail is delivered in-process (Transport), and
	// nobody submits mail as it over SMTP.
	Referee string
	// Log receives what a client is not told (a disk error's detail); none when nil.
	Log *slog.Logger
	// Now is the clock a new mailbox's UIDVALIDITY is taken from (time.Now when nil): tests
	// pin it to play a server that lost its state and numbers its mail again.
	Now func() time.Time
	// CompactAbove is the size of the index (localmail.db) above which a start compacts it
	// when it is mostly free pages (8 MiB when 0).
	CompactAbove int64
	// TLS, when set, is offered on both servers (STARTTLS) and used on IMAPSAddr and
	// SMTPSAddr (implicit TLS, when set). A connection from another machine logs in only
	// over TLS; one from this machine also without it. Listening beyond loopback needs it.
	TLS                  *tls.Config
	IMAPSAddr, SMTPSAddr string
	// Limits bound the connections and slow failed logins (Limits' defaults when zero).
	Limits Limits
	// Listen, when set, replaces net.Listen (tests: a listener whose connections come from
	// another machine, as far as the server can tell).
	Listen func(network, addr string) (net.Listener, error)
	// Reserve is the disk space (bytes) below which mail between people is refused for now,
	// while mail to the referee and the referee's own pass (DefaultReserve of the disk when
	// 0; -1 for none). DailyPerSender bounds the bytes one address submits a day (200 MiB
	// when 0; -1 for none).
	Reserve        int64
	DailyPerSender int64
	// Fault, when set, is called before each write to the disk ("write": a message's file,
	// "index": the index); an error from it fails that write as a full disk would. Tests
	// inject faults through it.
	Fault func(step string) error

	mu    sync.Mutex // guards users and every mailbox's index; serializes changes
	users map[string]*user
	disk  *disk
	// The protocol servers: strict ones for connections from elsewhere (no login before
	// TLS), lenient ones for connections from this machine or through implicit TLS.
	imapStrict, imapLenient *imapserver.Server
	smtpStrict, smtpLenient *smtp.Server
	iln, sln                net.Listener   // the plain ports (IMAPListen, SMTPListen)
	listeners               []net.Listener // every port, closed by Close
	lim                     Limits
	counts                  *conns
	fails                   *failures
	volume                  senderVolume
}

func (s *Server) domain() string {
	if s.Domain == "" {
		return "localhost"
	}
	return s.Domain
}

func (s *Server) maxMessage() int64 {
	if s.MaxMessageBytes <= 0 {
		return 25 << 20
	}
	return s.MaxMessageBytes
}

func (s *Server) quota() int64 {
	if s.Quota <= 0 {
		return 1 << 30
	}
	return s.Quota
}

// Start opens the store, listens on both addresses and serves in the background.
func (s *Server) Start() error {
	var err error
	began := time.Now()
	compactAbove := s.CompactAbove
	if compactAbove <= 0 {
		compactAbove = 8 << 20
	}
	if s.disk, err = openDisk(s.Dir, s.Fault, compactAbove); err != nil {
		return err
	}
	if err := s.migrate(); err != nil {
		s.disk.close()
		return err
	}
	if s.users, err = s.disk.load(); err != nil {
		s.disk.close()
		return err
	}
	var msgs int
	var bytes int64
	for _, u := range s.users {
		for _, b := range u.boxes {
			msgs, bytes = msgs+len(b.msgs), bytes+b.size
		}
	}
	s.logInfo("localmail: index loaded", "addresses", len(s.users), "messages", msgs, "bytes", bytes, "took", time.Since(began))
	if s.Referee != "" {
		if _, err := s.Mailbox(s.Referee); err != nil {
			s.disk.close()
			return err
		}
	}
	if err := s.serve(); err != nil {
		s.disk.close()
		return err
	}
	return nil
}

// serve starts the protocol servers on their ports.
func (s *Server) serve() error {
	s.lim = s.Limits.withDefaults()
	s.counts = &conns{lim: s.lim}
	s.fails = &failures{lim: s.lim, now: s.now}
	for _, a := range []string{s.IMAPAddr, s.SMTPAddr} {
		if s.TLS == nil && !IsLoopback(a) {
			return fmt.Errorf("localmail: %s is reachable from other machines, and the server has no TLS: passwords would cross the network in the clear. Give it a certificate (--tls-cert FILE --tls-key FILE, or --acme), or listen on 127.0.0.1", a)
		}
	}
	if s.TLS == nil && (s.IMAPSAddr != "" || s.SMTPSAddr != "") {
		return errors.New("localmail: implicit TLS ports need a certificate (--tls-cert FILE --tls-key FILE, or --acme)")
	}
	imapOpts := func(insecure bool) *imapserver.Options {
		return &imapserver.Options{
			NewSession: func(c *imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
				return &imapSession{srv: s, peer: peerOf(c.NetConn()), conn: c}, nil, nil
			},
			Caps:         imap.CapSet{imap.CapIMAP4rev1: {}, imap.CapIMAP4rev2: {}},
			TLSConfig:    s.TLS,
			InsecureAuth: insecure,
			Logger:       log.New(io.Discard, "", 0),
		}
	}
	s.imapStrict, s.imapLenient = imapserver.New(imapOpts(false)), imapserver.New(imapOpts(true))
	smtpServer := func(insecure bool) *smtp.Server {
		srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
			return &session{srv: s, peer: peerOf(c.Conn()), conn: c}, nil
		}))
		srv.Domain = s.domain()
		srv.AllowInsecureAuth = insecure // from this machine: the password never leaves it
		srv.TLSConfig = s.TLS
		srv.ReadTimeout, srv.WriteTimeout = s.lim.SMTPIdle, time.Minute
		srv.MaxMessageBytes = s.maxMessage()
		srv.MaxRecipients = 50
		return srv
	}
	s.smtpStrict, s.smtpLenient = smtpServer(false), smtpServer(true)
	const imapBusy = "* BYE Too many connections: try again later\r\n"
	const smtpBusy = "421 4.7.0 Too many connections: try again later\r\n"
	ports := []struct {
		addr     string
		implicit bool
		imap     bool
		keep     *net.Listener
	}{{s.IMAPAddr, false, true, &s.iln}, {s.SMTPAddr, false, false, &s.sln}, {s.IMAPSAddr, true, true, nil}, {s.SMTPSAddr, true, false, nil}}
	var serving []*chanListener
	for _, p := range ports {
		if p.addr == "" {
			continue
		}
		listen := net.Listen
		if s.Listen != nil {
			listen = s.Listen
		}
		ln, err := listen("tcp", p.addr)
		if err != nil {
			for _, l := range s.listeners {
				l.Close()
			}
			return fmt.Errorf("localmail: listen %s: %w", p.addr, err)
		}
		s.listeners = append(s.listeners, ln)
		if p.keep != nil {
			*p.keep = ln
		}
		var implicit *tls.Config
		if p.implicit {
			implicit = s.TLS
		}
		if p.imap {
			sp := newSplit(ln, implicit, s.counts, s.lim.IMAPIdle, imapBusy)
			go sp.run()
			go s.imapStrict.Serve(sp.strict)
			go s.imapLenient.Serve(sp.lenient)
			serving = append(serving, sp.strict, sp.lenient)
		} else {
			sp := newSplit(ln, implicit, s.counts, s.lim.SMTPIdle, smtpBusy)
			go sp.run()
			go s.smtpStrict.Serve(sp.strict)
			go s.smtpLenient.Serve(sp.lenient)
			serving = append(serving, sp.strict, sp.lenient)
		}
	}
	for _, l := range serving { // Close may come at once (tests): each Serve is under way first
		l.waitServing()
	}
	return nil
}

// IMAPSListen and SMTPSListen are the bound implicit TLS ports, "" when there is none.
func (s *Server) IMAPSListen() string { return s.boundAddr(s.IMAPSAddr, 2) }
func (s *Server) SMTPSListen() string { return s.boundAddr(s.SMTPSAddr, 3) }

// boundAddr is the address the listener of a port (in the order serve opens them) is bound to.
func (s *Server) boundAddr(asked string, port int) string {
	if asked == "" {
		return ""
	}
	i := 0
	for p, a := range []string{s.IMAPAddr, s.SMTPAddr, s.IMAPSAddr, s.SMTPSAddr} {
		if a == "" {
			continue
		}
		if p == port {
			return s.listeners[i].Addr().String()
		}
		i++
	}
	return ""
}

// IMAPListen and SMTPListen are the bound addresses (useful with port 0).
func (s *Server) IMAPListen() string { return s.iln.Addr().String() }
func (s *Server) SMTPListen() string { return s.sln.Addr().String() }

// Close stops the servers and closes the store.
func (s *Server) Close() error {
	for _, l := range s.listeners {
		l.Close()
	}
	errs := []error{s.imapStrict.Close(), s.imapLenient.Close(), s.smtpStrict.Close(), s.smtpLenient.Close()}
	s.mu.Lock() // no change half made
	defer s.mu.Unlock()
	return errors.Join(append(errs, s.disk.close())...)
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
	return subtle.ConstantTimeCompare([]byte(password), []byte(s.passwordOf(addr))) == 1
}

// passwordOf is the password of addr: its own under the secret, else the one for all.
func (s *Server) passwordOf(addr string) string {
	if len(s.Secret) > 0 {
		return PasswordFor(s.Secret, addr)
	}
	return s.Password
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

// Account is one address's mail, as the operator and the tests see it.
type Account struct {
	s *Server
	u *user
}

// Mailbox returns the account of address, creating it with its INBOX.
func (s *Server) Mailbox(address string) (*Account, error) {
	addr := s.canonical(address)
	if addr == "" {
		return nil, fmt.Errorf("localmail: %s is not an address of %s", address, s.domain())
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	u, err := s.addUserLocked(addr)
	if err != nil {
		return nil, err
	}
	return &Account{s: s, u: u}, nil
}

// Status is the STATUS of one of the account's mailboxes.
func (a *Account) Status(name string, options *imap.StatusOptions) (*imap.StatusData, error) {
	a.s.mu.Lock()
	defer a.s.mu.Unlock()
	b := a.u.boxes[mailboxName(name)]
	if b == nil {
		return nil, errNoMailbox
	}
	return statusData(b, options), nil
}

// Deliver puts raw into the mailbox of each recipient, with Return-Path and Delivered-To
// headers as a real delivery agent writes them. It returns once the mail is kept.
func (s *Server) Deliver(from string, to []string, raw []byte) error {
	return s.deliver(from, to, strings.NewReader(string(raw)), true)
}

// deliver streams r to disk, a file per recipient (never the whole mail in memory), and
// adds the files to their INBOXes in one index transaction: all or none. A recipient whose
// mailbox does not exist, or whose quota the mail would pass (with quota set), fails it
// before anything is added.
func (s *Server) deliver(from string, to []string, r io.Reader, quota bool) error {
	var files []string
	defer func() {
		for _, f := range files {
			os.Remove(f)
		}
	}()
	var first string
	var size, prefix0 int64
	for i, rcpt := range to {
		prefix := fmt.Sprintf("Return-Path: <%s>\r\nDelivered-To: %s\r\n", from, rcpt)
		src := r
		if i > 0 { // the same mail from the first copy, after its prefix
			f, err := os.Open(first)
			if err != nil {
				return fmt.Errorf("localmail: deliver: %w", err)
			}
			defer f.Close()
			if _, err := f.Seek(prefix0, io.SeekStart); err != nil {
				return fmt.Errorf("localmail: deliver: %w", err)
			}
			src = f
		}
		file, n, err := s.disk.writeTemp(prefix, src, s.maxMessage()+int64(len(prefix)))
		if errors.Is(err, errTooBig) {
			return &smtp.SMTPError{Code: 552, EnhancedCode: smtp.EnhancedCode{5, 3, 4}, Message: "Message too big"}
		}
		if err != nil {
			return err
		}
		files = append(files, file)
		if i == 0 {
			first, prefix0 = file, int64(len(prefix))
			size = n - prefix0
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var in []incoming
	adding := map[*user]int64{}
	now := time.Now()
	for i, rcpt := range to {
		u := s.users[s.canonical(rcpt)]
		if u == nil {
			return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "No such mailbox here, and no relaying"}
		}
		n := size + int64(len(fmt.Sprintf("Return-Path: <%s>\r\nDelivered-To: %s\r\n", from, rcpt)))
		adding[u] += n
		if quota && u.size()+adding[u] > s.quota() {
			return errMailboxFull(false)
		}
		inbox := u.boxes["INBOX"]
		if inbox == nil { // a journal of an earlier version may have deleted it
			var err error
			if err = s.disk.update(func(tx *bolt.Tx) (err error) { inbox, err = createBox(tx, u, "INBOX", s.now()); return err }); err != nil {
				return fmt.Errorf("localmail: deliver: %w", err)
			}
			u.boxes["INBOX"] = inbox
		}
		in = append(in, incoming{box: inbox, file: files[i], size: n, t: now})
	}
	if _, err := s.addLocked(in, nil); err != nil {
		return fmt.Errorf("localmail: deliver: %w", err)
	}
	return nil
}

// errMailboxFull is the answer for a mailbox over its quota: 452 before the mail is sent
// (RCPT: it may fit once mail is deleted), 552 after it.
func errMailboxFull(rcpt bool) error {
	if rcpt {
		return &smtp.SMTPError{Code: 452, EnhancedCode: smtp.EnhancedCode{4, 2, 2}, Message: "Mailbox full: try again later"}
	}
	return &smtp.SMTPError{Code: 552, EnhancedCode: smtp.EnhancedCode{5, 2, 2}, Message: "Mailbox full"}
}

// full reports whether the mailbox of address cannot take size more bytes.
func (s *Server) full(address string, size int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.users[s.canonical(address)]
	return u != nil && u.size()+size > s.quota()
}
