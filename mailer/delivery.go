package mailer

import (
	"context"
	"crypto/tls"
	"fmt"
	"hash/fnv"
	"log/slog"
	"net"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/refereed/refereed/store"
)

// Transport sends one message. Implementations: SMTP, and mailertest.Transport for tests.
type Transport interface {
	Send(ctx context.Context, from string, to []string, raw []byte) error
}

// SMTP sends through an SMTP server.
type SMTP struct {
	Addr     string // host:port
	Security string // "tls" (implicit), "starttls", or "plain"
	Username string // AUTH PLAIN when set
	Password string
	Hello    string      // HELO/EHLO name; "localhost" when empty
	TLS      *tls.Config // server name and trust; a default from Addr when nil
	Timeout  time.Duration
	// IdleFor is how long a session is kept open for the next mail after its last one
	// (DefaultIdleFor when 0): a session costs a connection, the server's greeting, EHLO and
	// AUTH, and at its end QUIT, so the mails of a busy hour share a few, and a quiet daemon
	// holds none open.
	IdleFor time.Duration

	mu     sync.Mutex
	idle   []idleSession // open sessions, the least recently used first
	reaper *time.Timer   // closes the sessions idle for IdleFor; nil when none is idle
}

// DefaultIdleFor is how long an SMTP session waits for its next mail. Postfix's own client
// keeps a session for 2 s (smtp_connection_cache_time_limit), and a server waits minutes for
// a client's next command (RFC 5321 4.5.3.2.7), so a few seconds is safe on both sides.
const DefaultIdleFor = 5 * time.Second

type idleSession struct {
	c     *smtp.Client
	since time.Time
}

// Closer is implemented by transports that keep connections open between sends; the Sender
// closes them when it stops.
type Closer interface {
	Close() error
}

// Send delivers raw with the given envelope over an idle session, or a new one: concurrent
// calls use sessions of their own. It returns as soon as the server accepted the message (no
// QUIT wait), so that the caller can record the delivery at once: the less time between the
// two, the rarer a duplicate after a crash.
//
// An idle session goes on with its next transaction at once: the last one ended with the
// server's reply to DATA, which leaves the session ready for MAIL (RFC 5321 3.3), so no RSET
// is sent, a round trip a mail. If the server closed the session meanwhile, or refuses its
// MAIL, a new session sends the mail; nothing was sent on the old one.
func (s *SMTP) Send(ctx context.Context, from string, to []string, raw []byte) error {
	opts := mailOptions(from, to)
	c := s.take()
	if c != nil && c.Mail(from, opts) != nil {
		c.Close()
		c = nil
	}
	if c == nil {
		var err error
		if c, err = s.dial(); err != nil {
			return err
		}
		if err := c.Mail(from, opts); err != nil {
			c.Close()
			return Classify(fmt.Errorf("smtp: send: %w", err))
		}
	}
	if err := transaction(c, to, raw); err != nil {
		c.Close()
		return Classify(fmt.Errorf("smtp: send: %w", err))
	}
	s.put(c)
	return nil
}

func (s *SMTP) idleFor() time.Duration {
	if s.IdleFor > 0 {
		return s.IdleFor
	}
	return DefaultIdleFor
}

// put keeps c for the next mail, and has it closed once it has been idle for IdleFor.
func (s *SMTP) put(c *smtp.Client) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.idle = append(s.idle, idleSession{c: c, since: time.Now()})
	if s.reaper == nil {
		s.reaper = time.AfterFunc(s.idleFor(), s.reap)
	}
}

// reap ends the sessions idle for IdleFor or longer, and waits for the next one to be.
func (s *SMTP) reap() {
	s.mu.Lock()
	cut := time.Now().Add(-s.idleFor())
	n := 0
	for n < len(s.idle) && !s.idle[n].since.After(cut) {
		n++
	}
	old := slices.Clone(s.idle[:n])
	s.idle = slices.Delete(s.idle, 0, n)
	if len(s.idle) > 0 {
		s.reaper = time.AfterFunc(s.idle[0].since.Sub(cut), s.reap)
	} else {
		s.reaper = nil
	}
	s.mu.Unlock()
	for _, is := range old {
		is.c.Quit()
		is.c.Close()
	}
}

// mailOptions asks for SMTPUTF8 when an address of the envelope needs it, as SendMail does.
func mailOptions(from string, to []string) *smtp.MailOptions {
	for _, a := range append([]string{from}, to...) {
		for i := 0; i < len(a); i++ {
			if a[i] >= 0x80 {
				return &smtp.MailOptions{UTF8: true}
			}
		}
	}
	return nil
}

// transaction is the rest of a mail's SMTP transaction after MAIL: its recipients and data.
func transaction(c *smtp.Client, to []string, raw []byte) error {
	for _, addr := range to {
		if err := c.Rcpt(addr, nil); err != nil {
			return err
		}
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := w.Write(raw); err != nil {
		return err
	}
	return w.Close()
}

// take returns the session idle the least time, or nil: the others, left unused while the
// mails are few, come to be closed.
func (s *SMTP) take() *smtp.Client {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.idle) == 0 {
		return nil
	}
	c := s.idle[len(s.idle)-1].c
	s.idle = s.idle[:len(s.idle)-1]
	return c
}

// Close ends the open sessions politely.
func (s *SMTP) Close() error {
	s.mu.Lock()
	idle := s.idle
	s.idle = nil
	if s.reaper != nil {
		s.reaper.Stop()
		s.reaper = nil
	}
	s.mu.Unlock()
	var first error
	for _, is := range idle {
		if err := is.c.Quit(); err != nil && first == nil {
			first = err
		}
		is.c.Close()
	}
	return first
}

func (s *SMTP) dial() (*smtp.Client, error) {
	timeout := s.Timeout
	if timeout == 0 {
		timeout = 30 * time.Second
	}
	tlsConfig := s.TLS
	if tlsConfig == nil {
		host, _, _ := net.SplitHostPort(s.Addr)
		tlsConfig = &tls.Config{ServerName: host}
	}
	var c *smtp.Client
	var err error
	switch s.Security {
	case "tls":
		c, err = smtp.DialTLS(s.Addr, tlsConfig)
	case "starttls":
		c, err = smtp.DialStartTLS(s.Addr, tlsConfig)
	case "plain", "":
		c, err = smtp.Dial(s.Addr)
	default:
		return nil, &PermanentError{Err: fmt.Errorf("smtp: unknown security %q (want tls, starttls or plain)", s.Security)}
	}
	if err != nil {
		return nil, fmt.Errorf("smtp: dial %s: %w", s.Addr, err)
	}
	Sessions.Add(1)
	c.CommandTimeout, c.SubmissionTimeout = timeout, 4*timeout
	hello := s.Hello
	if hello == "" {
		hello = "localhost"
	}
	if err := c.Hello(hello); err != nil {
		c.Close()
		return nil, fmt.Errorf("smtp: hello: %w", err)
	}
	if s.Username != "" {
		if err := c.Auth(sasl.NewPlainClient("", s.Username, s.Password)); err != nil {
			c.Close()
			return nil, Classify(fmt.Errorf("smtp: auth: %w", err))
		}
	}
	return c, nil
}

// Sessions counts the SMTP sessions opened, for the benchmarks: each costs a connection, the
// server's greeting, EHLO (and AUTH) and, once done, QUIT.
var Sessions atomic.Int64

// DefaultParallel is how many delivery workers a Sender runs unless told otherwise.
const DefaultParallel = 8

// RecordBatch is the most deliveries recorded in one transaction (group commit).
const RecordBatch = 64

// How long a Sender holds the record of a delivery for the workers still sending when its
// RecordWait is 0: twice the mean time its server took to accept a mail lately, but at least
// minRecordWait and at most DefaultRecordWait.
const (
	minRecordWait     = 5 * time.Millisecond
	DefaultRecordWait = 100 * time.Millisecond
)

// Sender drains the store's outbox.
type Sender struct {
	DB        *store.DB
	Transport Transport
	Policy    Policy
	Now       func() time.Time
	Log       *slog.Logger
	// Parallel is how many mails are delivered at once (DefaultParallel when 0). It is also
	// the most mails a crash can make it send twice: each worker has at most one delivery
	// not yet recorded.
	Parallel int
	// OnGiveUp is told of each mail given up for good (a 5xx, or too old), after it was
	// recorded; the referee records it against the player.
	OnGiveUp func(m store.OutMail, err error)
	// RecordWait is the longest an outcome waits for those of the workers still sending, to
	// be recorded in the same transaction (negative: no wait). A burst then costs a commit
	// (its pages and an fdatasync) for every few workers' mails, not for every mail; a worker
	// waits at most this long more before its next mail. When 0, the wait follows the server:
	// twice the mean time it took to accept a mail lately (its own fsync, a distant relay's
	// round trips), from 5 ms up to DefaultRecordWait.
	RecordWait time.Duration
	sendTime   atomic.Int64 // the mean time a mail took to be accepted lately, in ns (EWMA)

	mu sync.Mutex // one drain at a time; guards the fields below
	// unrecorded holds the mails a server accepted whose delivery the store could not
	// record (a full disk): they are never sent again, and recorded first when it can.
	unrecorded []delivery
	pause      time.Duration // the backoff after a failed record
	pauseUntil time.Time
}

// delivery is the outcome of one send.
type delivery struct {
	m        store.OutMail
	sendErr  error
	giveUp   error
	recorded chan error // told once the outcome is recorded, or why it could not be
}

// Pauses after a failed record: the first, and the longest.
const (
	recordPause    = 5 * time.Second
	maxRecordPause = 15 * time.Second
)

func (s *Sender) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *Sender) log() *slog.Logger {
	if s.Log == nil {
		return slog.Default()
	}
	return s.Log
}

// record writes the outcome of sends in one transaction and reports them. On failure the
// accepted ones are kept in memory (never sent again) and delivery pauses with backoff.
func (s *Sender) record(batch []delivery) (sent int, next time.Time, err error) {
	if len(batch) == 0 {
		return 0, time.Time{}, nil
	}
	now := s.now()
	err = s.DB.Update(func(tx *store.Tx) error {
		for i := range batch {
			r := &batch[i]
			m := r.m // a failed transaction leaves batch as it was
			m.Attempts++
			if r.sendErr == nil {
				m.Sent, m.LastError = now, ""
				m.Raw = nil // the outbox holds it: Done moves it to the sent mail
				if err := tx.Done(m); err != nil {
					return err
				}
				continue
			}
			m.LastError = r.sendErr.Error()
			nextTry, perr := s.Policy.Next(r.sendErr, m.Attempts, m.Created, now)
			if perr != nil {
				m.Failed, r.giveUp = true, perr
				m.Raw = nil
				if err := tx.Done(m); err != nil {
					return err
				}
				continue
			}
			m.NextTry = nextTry
			if err := tx.PutOutbox(m); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		for _, r := range batch {
			if r.sendErr == nil && !s.isUnrecorded(r.m.ID) {
				s.unrecorded = append(s.unrecorded, delivery{m: r.m})
			}
		}
		s.pause = min(max(2*s.pause, recordPause), maxRecordPause)
		s.pauseUntil = now.Add(s.pause)
		s.log().Error("the store cannot record deliveries: delivery paused (no mail is sent twice for it)",
			"err", err, "accepted_unrecorded", len(s.unrecorded), "retry_in", s.pause)
		return 0, s.pauseUntil, fmt.Errorf("mailer: record deliveries: %w", err)
	}
	s.pause = 0
	for _, r := range batch {
		m := r.m
		m.Attempts++
		switch {
		case r.sendErr == nil:
			sent++
			s.log().Info("mail delivered", "message_id", m.MessageID, "to", m.To)
		case r.giveUp != nil:
			s.log().Error("mail given up", "message_id", m.MessageID, "to", m.To, "err", r.giveUp)
			if s.OnGiveUp != nil {
				m.Failed = true
				s.OnGiveUp(m, r.giveUp)
			}
		default:
			nextTry, _ := s.Policy.Next(r.sendErr, m.Attempts, m.Created, now)
			s.log().Warn("delivery failed; will retry", "message_id", m.MessageID, "to", m.To, "attempt", m.Attempts, "next", nextTry, "err", r.sendErr)
			if next.IsZero() || nextTry.Before(next) {
				next = nextTry
			}
		}
	}
	return sent, next, nil
}

func (s *Sender) isUnrecorded(id uint64) bool {
	for _, u := range s.unrecorded {
		if u.m.ID == id {
			return true
		}
	}
	return false
}

// Drain tries every mail that is due and returns how many were sent and when the next
// waiting one is due (zero if none waits). While the store cannot record deliveries it sends
// nothing, and reports when it will try again.
func (s *Sender) Drain(ctx context.Context) (sent int, next time.Time, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.now().Before(s.pauseUntil) {
		return 0, s.pauseUntil, nil
	}
	if len(s.unrecorded) > 0 {
		n, _, err := s.record(s.unrecorded)
		if err != nil {
			return 0, s.pauseUntil, err
		}
		sent += n
		s.unrecorded = nil
	}
	var due []store.OutMail
	if err := s.DB.View(func(tx *store.Tx) error {
		all, err := tx.Outbox()
		due = all
		return err
	}); err != nil {
		return sent, time.Time{}, err
	}
	var ready []store.OutMail
	for _, m := range due {
		if !m.NextTry.IsZero() && m.NextTry.After(s.now()) {
			if next.IsZero() || m.NextTry.Before(next) {
				next = m.NextTry
			}
			continue
		}
		ready = append(ready, m)
	}
	// A worker sends its next mail only once the last one's outcome is recorded, and the
	// outcomes that arrive meanwhile from the other workers, or within RecordWait from those
	// still sending, are recorded together in one transaction (group commit: one fsync for
	// many deliveries). So a crash sends again at most one mail per worker, with its stable
	// Message-ID, and the commits keep pace.
	workers := s.Parallel
	if workers <= 0 {
		workers = DefaultParallel
	}
	// Each recipient's mails go through one worker, in outbox order: a player never gets the
	// news of a move after the mail that follows it.
	queues := make([][]store.OutMail, workers)
	for _, m := range ready {
		h := fnv.New32a()
		h.Write([]byte(strings.ToLower(strings.Join(m.To, ","))))
		i := int(h.Sum32() % uint32(workers))
		queues[i] = append(queues[i], m)
	}
	results := make(chan delivery, workers)
	var sending atomic.Int32 // workers with a mail on its way, whose outcome is yet to come
	var wg sync.WaitGroup
	for _, q := range queues {
		if len(q) == 0 {
			continue
		}
		wg.Add(1)
		go func(q []store.OutMail) {
			defer wg.Done()
			for _, m := range q {
				if ctx.Err() != nil {
					return
				}
				sending.Add(1)
				start := time.Now()
				r := delivery{m: m, sendErr: s.Transport.Send(ctx, m.From, m.To, m.Raw), recorded: make(chan error, 1)}
				s.noteSend(time.Since(start))
				results <- r
				sending.Add(-1) // after the hand-over: the recorder never misses an outcome on its way
				if err := <-r.recorded; err != nil {
					return // the store cannot record: send nothing more
				}
			}
		}(q)
	}
	go func() { wg.Wait(); close(results) }()
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	// Record what has arrived, up to RecordBatch at a time, with the outcomes of the workers
	// still sending that arrive within the wait; then let each of those workers go on.
	var recErr error
	var batch []delivery
	for r := range results {
		batch = append(batch[:0], r)
		waiting, wait := false, s.recordWait()
	gather:
		for len(batch) < RecordBatch {
			select {
			case more, ok := <-results:
				if !ok {
					break gather
				}
				batch = append(batch, more)
				continue
			default:
			}
			if wait < 0 || sending.Load() == 0 {
				break gather // nothing more is on its way
			}
			if !waiting {
				timer.Reset(wait)
				waiting = true
			}
			select {
			case more, ok := <-results:
				if !ok {
					break gather
				}
				batch = append(batch, more)
			case <-timer.C:
				break gather
			}
		}
		timer.Stop() // no stale tick after Stop or Reset (Go 1.23's timers)
		if recErr == nil {
			n, nx, err := s.record(batch)
			sent += n
			if !nx.IsZero() && (next.IsZero() || nx.Before(next)) {
				next = nx
			}
			recErr = err
		} else {
			// A worker that had already sent when another's record failed: keep its
			// outcome with the others, unrecorded, never to be sent again.
			for _, r := range batch {
				if r.sendErr == nil && !s.isUnrecorded(r.m.ID) {
					s.unrecorded = append(s.unrecorded, delivery{m: r.m})
				}
			}
		}
		for _, r := range batch {
			r.recorded <- recErr
		}
	}
	if recErr != nil {
		return sent, s.pauseUntil, recErr
	}
	if ctx.Err() != nil {
		return sent, next, ctx.Err()
	}
	return sent, next, nil
}

// noteSend counts d, the time a mail took to be accepted (or refused), in the mean that
// recordWait follows. Two workers' updates may cross: the mean is a guide, not a count.
func (s *Sender) noteSend(d time.Duration) {
	old := time.Duration(s.sendTime.Load())
	if old > 0 {
		d = old + (d-old)/8
	}
	s.sendTime.Store(int64(d))
}

// recordWait is how long the first outcome of a batch waits for those of the workers still
// sending (RecordWait); negative for no wait.
func (s *Sender) recordWait() time.Duration {
	if s.RecordWait != 0 {
		return s.RecordWait
	}
	return min(max(2*time.Duration(s.sendTime.Load()), minRecordWait), DefaultRecordWait)
}

// Run drains the outbox whenever wake fires, when a retry falls due, and at least every
// interval, until ctx ends; then it closes the transport's sessions (Closer).
func (s *Sender) Run(ctx context.Context, wake <-chan struct{}, interval time.Duration) error {
	if interval == 0 {
		interval = 30 * time.Second
	}
	if c, ok := s.Transport.(Closer); ok {
		defer c.Close()
	}
	for {
		_, next, err := s.Drain(ctx)
		if err != nil && ctx.Err() == nil {
			s.log().Error("draining the outbox", "err", err)
		}
		wait := interval
		if !next.IsZero() {
			if d := next.Sub(s.now()); d < wait {
				wait = d
			}
		}
		if wait < 10*time.Millisecond {
			wait = 10 * time.Millisecond
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-wake:
		case <-t.C:
		}
		t.Stop()
	}
}
