package localmail

import (
	"errors"
	"net"
	"os"
	"testing"
	"time"
)

// timeoutConn is a connection whose every read times out, as an idle one's does.
type timeoutConn struct {
	net.Conn
	reads  int
	closed bool
}

func (c *timeoutConn) Read([]byte) (int, error)        { c.reads++; return 0, os.ErrDeadlineExceeded }
func (c *timeoutConn) SetReadDeadline(time.Time) error { return nil }
func (c *timeoutConn) Close() error                    { c.closed = true; return nil }

// A connection idle past its limit is closed at the first read that times out: go-imap reads
// once more after a timeout, and the silence must not count twice (it closed after twice the
// limit).
func TestIdleClosesAtFirstTimeout(t *testing.T) {
	under := &timeoutConn{}
	done := 0
	g := &guardedConn{Conn: under, idle: time.Minute, preAuth: time.Minute, onDone: func() { done++ }}
	if _, err := g.Read(make([]byte, 8)); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("read: %v", err)
	}
	if !under.closed || done != 1 {
		t.Fatalf("after a timed-out read: closed %v, counted out %d times", under.closed, done)
	}
	g.Close()
	if done != 1 {
		t.Errorf("counted out %d times", done)
	}
}
