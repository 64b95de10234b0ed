// Package mailertest has fakes of the mailer's interfaces for tests.
package mailertest

import (
	"context"
	"sync"

	"github.com/refereed/refereed/mailer"
)

// Sent is one message a Transport accepted.
type Sent struct {
	From string
	To   []string
	Raw  []byte
}

// Transport records what it is asked to send. Script, when set, is called first for each
// attempt (numbered from 1) and may return an error to inject (a 4xx or 5xx).
type Transport struct {
	mu       sync.Mutex
	Script   func(attempt int, to []string) error
	attempts int
	Sent     []Sent
}

var _ mailer.Transport = (*Transport)(nil)

// Send implements mailer.Transport.
func (t *Transport) Send(ctx context.Context, from string, to []string, raw []byte) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.attempts++
	if t.Script != nil {
		if err := t.Script(t.attempts, to); err != nil {
			return err
		}
	}
	t.Sent = append(t.Sent, Sent{From: from, To: append([]string(nil), to...), Raw: append([]byte(nil), raw...)})
	return nil
}

// Messages returns a copy of what was sent.
func (t *Transport) Messages() []Sent {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]Sent(nil), t.Sent...)
}
