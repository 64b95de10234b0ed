package localmail

import (
	"crypto/tls"
	"errors"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"
)

// What a server facing the network needs beyond loopback (issue 36): each connection's peer
// is known before the protocol starts, so that a connection from this machine may log in
// without TLS and one from elsewhere only after it (two protocol servers, one strict, one
// lenient, each fed the connections that are theirs); connections are capped per peer and
// in all, and idle ones are closed; failed logins are logged, slowed, then refused for a while.

// Limits a Server keeps to (zero fields: the defaults).
type Limits struct {
	MaxConnsPerPeer int           // connections open at once from one address of another machine (20)
	MaxConns        int           // connections open at once in all (1,000)
	IMAPIdle        time.Duration // an IMAP connection without a command for this long is closed (30 min, RFC 3501's autologout)
	SMTPIdle        time.Duration // an SMTP connection without a command for this long is closed (5 min, RFC 5321's)
	// PreAuthIdle: before anyone has logged in on it, a connection is closed after this
	// much silence (1 min), or IMAPIdle/SMTPIdle when shorter.
	PreAuthIdle time.Duration
	// FailuresBeforeDelay failed logins from one peer in FailureWindow are answered at once;
	// each one after waits FailureDelay first; after FailuresBeforeBlock every login from
	// the peer (of another machine) is refused until the window has passed with no more.
	FailuresBeforeDelay int           // 5
	FailuresBeforeBlock int           // 20
	FailureDelay        time.Duration // 2 s
	FailureWindow       time.Duration // 15 min
}

func (l Limits) withDefaults() Limits {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	defD := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&l.MaxConnsPerPeer, 20)
	def(&l.MaxConns, 1000)
	def(&l.FailuresBeforeDelay, 5)
	def(&l.FailuresBeforeBlock, 20)
	defD(&l.IMAPIdle, 30*time.Minute)
	defD(&l.SMTPIdle, 5*time.Minute)
	defD(&l.FailureDelay, 2*time.Second)
	defD(&l.PreAuthIdle, time.Minute)
	defD(&l.FailureWindow, 15*time.Minute)
	return l
}

// IsLoopback reports whether a listen address ("127.0.0.1:1143", "[::1]:25", "localhost:2525")
// is on this machine only. An empty host, 0.0.0.0 or [::] listens on every interface.
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// peerOf is the address a connection comes from, without its port.
func peerOf(c net.Conn) netip.Addr {
	if ap, err := netip.ParseAddrPort(c.RemoteAddr().String()); err == nil {
		return ap.Addr().Unmap()
	}
	return netip.Addr{}
}

// conns counts the connections open, per peer and in all.
type conns struct {
	mu     sync.Mutex
	lim    Limits
	total  int
	byPeer map[netip.Addr]int
}

// take counts a new connection from peer; false when a cap is reached.
func (c *conns) take(peer netip.Addr) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	// The players of a club on one machine all come from loopback: the cap per peer is for
	// other machines.
	if c.total >= c.lim.MaxConns || !peer.IsLoopback() && c.byPeer[peer] >= c.lim.MaxConnsPerPeer {
		return false
	}
	if c.byPeer == nil {
		c.byPeer = map[netip.Addr]int{}
	}
	c.total++
	c.byPeer[peer]++
	return true
}

func (c *conns) give(peer netip.Addr) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.total--
	if c.byPeer[peer]--; c.byPeer[peer] <= 0 {
		delete(c.byPeer, peer)
	}
}

// guardedConn is a connection counted in conns until it is closed, closed when idle: after
// preAuth while nobody has logged in on it, after idle once someone has.
type guardedConn struct {
	net.Conn
	idle, preAuth time.Duration
	authed        atomic.Bool
	once          sync.Once
	onDone        func()
}

func (g *guardedConn) Read(p []byte) (int, error) {
	idle := g.idle
	if !g.authed.Load() {
		idle = min(idle, g.preAuth)
	}
	g.Conn.SetReadDeadline(time.Now().Add(idle))
	n, err := g.Conn.Read(p)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		// Idle too long: closed now, so that a protocol server that reads again (go-imap
		// tries a second read after a timeout) does not wait another round.
		g.Close()
	}
	return n, err
}

// loggedIn marks the connection c (or the one under its TLS) as one on which someone logged
// in: it may stay idle longer.
func loggedIn(c net.Conn) {
	if t, ok := c.(*tls.Conn); ok {
		c = t.NetConn()
	}
	if g, ok := c.(*guardedConn); ok {
		g.authed.Store(true)
	}
}

func (g *guardedConn) Close() error {
	g.once.Do(g.onDone)
	return g.Conn.Close()
}

// split accepts connections on one listener and hands each to the strict or the lenient
// protocol server by where it comes from: from loopback, or through TLS already (an implicit
// TLS port), lenient (it may log in at once); from elsewhere strict (it logs in after
// STARTTLS only). Over a cap, a connection is told so (busy) and closed.
type split struct {
	ln              net.Listener
	tlsConfig       *tls.Config // implicit TLS: every connection is wrapped in it
	strict, lenient *chanListener
	counts          *conns
	idle            time.Duration
	busy            string // the line a connection over a cap gets before it is closed
}

func newSplit(ln net.Listener, implicit *tls.Config, counts *conns, idle time.Duration, busy string) *split {
	return &split{ln: ln, tlsConfig: implicit, counts: counts, idle: idle, busy: busy,
		strict: newChanListener(ln.Addr()), lenient: newChanListener(ln.Addr())}
}

// run accepts until the listener is closed, then closes both halves.
func (s *split) run() {
	defer s.strict.Close()
	defer s.lenient.Close()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			return
		}
		peer := peerOf(c)
		if !s.counts.take(peer) {
			c.SetWriteDeadline(time.Now().Add(time.Second))
			c.Write([]byte(s.busy))
			c.Close()
			continue
		}
		var conn net.Conn = &guardedConn{Conn: c, idle: s.idle, preAuth: s.counts.lim.PreAuthIdle, onDone: func() { s.counts.give(peer) }}
		to := s.strict
		if s.tlsConfig != nil {
			conn, to = tls.Server(conn, s.tlsConfig), s.lenient
		} else if peer.IsLoopback() {
			to = s.lenient
		}
		if !to.put(conn) {
			conn.Close()
			return
		}
	}
}

// chanListener is a net.Listener fed by split.
type chanListener struct {
	addr   net.Addr
	ch     chan net.Conn
	done   chan struct{}
	closed sync.Once
	// accepting is closed at the first Accept: the protocol server's Serve is under way
	// (go-imap and go-smtp must not be closed before it is: their Close waits for the
	// listeners they count there).
	accepting chan struct{}
	started   sync.Once
}

func newChanListener(addr net.Addr) *chanListener {
	return &chanListener{addr: addr, ch: make(chan net.Conn), done: make(chan struct{}), accepting: make(chan struct{})}
}

// waitServing waits until a protocol server serves l (or a while: it then never will).
func (l *chanListener) waitServing() {
	select {
	case <-l.accepting:
	case <-time.After(10 * time.Second):
	}
}

func (l *chanListener) put(c net.Conn) bool {
	select {
	case l.ch <- c:
		return true
	case <-l.done:
		return false
	}
}

func (l *chanListener) Accept() (net.Conn, error) {
	l.started.Do(func() { close(l.accepting) })
	select {
	case c := <-l.ch:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *chanListener) Close() error {
	l.closed.Do(func() { close(l.done) })
	return nil
}

func (l *chanListener) Addr() net.Addr { return l.addr }

// failures counts failed logins per peer (throttle).
type failures struct {
	mu    sync.Mutex
	lim   Limits
	now   func() time.Time
	peers map[netip.Addr]*failed
}

type failed struct {
	n    int
	last time.Time
}

// maxFailurePeers bounds the peers remembered: beyond it the oldest are forgotten.
const maxFailurePeers = 10000

// blocked reports whether logins from peer are refused for now; wait is how long to delay
// the answer to one that fails.
func (f *failures) blocked(peer netip.Addr) (blocked bool, wait time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	e := f.peers[peer]
	if e == nil || f.now().Sub(e.last) > f.lim.FailureWindow {
		return false, 0
	}
	// Loopback is every local player at once: slowed, never blocked (a block would lock
	// them all out).
	if e.n >= f.lim.FailuresBeforeBlock && !peer.IsLoopback() {
		return true, f.lim.FailureDelay
	}
	if e.n >= f.lim.FailuresBeforeDelay {
		return false, f.lim.FailureDelay
	}
	return false, 0
}

// fail counts a failed login from peer.
func (f *failures) fail(peer netip.Addr) {
	f.mu.Lock()
	defer f.mu.Unlock()
	now := f.now()
	if f.peers == nil {
		f.peers = map[netip.Addr]*failed{}
	}
	e := f.peers[peer]
	if e == nil || now.Sub(e.last) > f.lim.FailureWindow {
		if len(f.peers) >= maxFailurePeers {
			f.forgetOldest()
		}
		e = &failed{}
		f.peers[peer] = e
	}
	e.n++
	e.last = now
}

// forgetOldest drops the stale entries, or the oldest one when none is stale.
func (f *failures) forgetOldest() {
	var oldest netip.Addr
	var at time.Time
	for p, e := range f.peers {
		if f.now().Sub(e.last) > f.lim.FailureWindow {
			delete(f.peers, p)
			continue
		}
		if at.IsZero() || e.last.Before(at) {
			oldest, at = p, e.last
		}
	}
	if len(f.peers) >= maxFailurePeers {
		delete(f.peers, oldest)
	}
}

// admit checks a login from peer over proto ("imap", "smtp"): ok says whether the password of
// the canonical address was shown. Every failure is logged on one line a fail2ban filter can
// read ("localmail: login failed" proto=... peer=... user=...); from a peer that failed often
// the answer comes late, and after many failures every login is refused for a while, its
// password not even checked. A mailbox that does not exist fails as a wrong password does.
func (s *Server) admit(proto string, peer netip.Addr, username string, ok func(addr string) bool) (string, bool) {
	blocked, wait := s.fails.blocked(peer)
	addr := s.canonical(username)
	if !blocked && addr != "" && ok(addr) {
		return addr, true
	}
	s.fails.fail(peer)
	if s.Log != nil {
		msg := "localmail: login failed"
		if blocked {
			msg = "localmail: login refused: too many failures from this peer"
		}
		s.Log.Warn(msg, "proto", proto, "peer", peer.String(), "user", clipUser(username))
	}
	if wait > 0 {
		time.Sleep(wait)
	}
	return "", false
}

// clipUser is a user name as the log keeps it: at most 100 bytes, printable.
func clipUser(u string) string {
	if len(u) > 100 {
		u = u[:100]
	}
	b := []byte(u)
	for i, c := range b {
		if c < 0x20 || c == 0x7f {
			b[i] = '?'
		}
	}
	return string(b)
}
