package mailer

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net/textproto"
	"strings"
	"time"

	"github.com/emersion/go-smtp"
)

// PermanentError is a delivery failure that retrying cannot mend (an SMTP 5xx, a rejected
// recipient, or a mail that waited too long).
type PermanentError struct {
	Err error
}

func (e *PermanentError) Error() string { return "permanent: " + e.Err.Error() }
func (e *PermanentError) Unwrap() error { return e.Err }

// IsPermanent reports whether err is a permanent delivery failure.
func IsPermanent(err error) bool {
	var p *PermanentError
	return errors.As(err, &p)
}

// Classify turns an SMTP client error into a permanent or a temporary one: 5xx replies are
// permanent; 4xx replies, network errors and anything else are worth another try.
func Classify(err error) error {
	if err == nil {
		return nil
	}
	var se *smtp.SMTPError
	if errors.As(err, &se) && se.Code >= 500 && se.Code < 600 {
		return &PermanentError{Err: err}
	}
	var te *textproto.Error
	if errors.As(err, &te) && te.Code >= 500 && te.Code < 600 {
		return &PermanentError{Err: err}
	}
	if strings.Contains(err.Error(), "does not support SMTPUTF8") {
		// The client's own refusal (go-smtp): an address this server cannot take will not
		// become one it can by waiting.
		return &PermanentError{Err: err}
	}
	return err
}

// Policy decides when a failed delivery is tried again.
type Policy struct {
	First  time.Duration // delay after the first failure (default 30 s)
	Max    time.Duration // longest delay (default 1 h)
	MaxAge time.Duration // give up on a mail older than this (default 5 days)
	// Jitter spreads retries: each delay is multiplied by a factor in [1-Jitter, 1+Jitter].
	Jitter float64 // default 0.2
	Rand   func() float64
}

func (p Policy) withDefaults() Policy {
	if p.First == 0 {
		p.First = 30 * time.Second
	}
	if p.Max == 0 {
		p.Max = time.Hour
	}
	if p.MaxAge == 0 {
		p.MaxAge = 5 * 24 * time.Hour
	}
	if p.Jitter == 0 {
		p.Jitter = 0.2
	}
	if p.Rand == nil {
		p.Rand = rand.Float64
	}
	return p
}

// Next decides what happens after a failed attempt: the time of the next try, or a
// permanent error when there is none. attempts counts the failures so far (1 after the first);
// created is when the mail was queued.
func (p Policy) Next(err error, attempts int, created, now time.Time) (time.Time, error) {
	p = p.withDefaults()
	if IsPermanent(err) {
		return time.Time{}, err
	}
	if now.Sub(created) >= p.MaxAge {
		return time.Time{}, &PermanentError{Err: fmt.Errorf("gave up after %d tries over %v: %w", attempts, now.Sub(created).Round(time.Minute), err)}
	}
	d := p.First
	for i := 1; i < attempts && d < p.Max; i++ {
		d *= 2
	}
	if d > p.Max {
		d = p.Max
	}
	f := 1 + p.Jitter*(2*p.Rand()-1)
	return now.Add(time.Duration(float64(d) * f)), nil
}
