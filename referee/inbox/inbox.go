// Package inbox runs the referee's inbox: the mail the intake stored, read a page at a time
// (memory stays flat however much mail waits), mail never tried before handled in batches of
// one store transaction, mail that failed once handled alone; every attempt is recorded
// durably before it is made, a panic is caught, and a mail that fails MaxAttempts times is
// quarantined (kept for the operator's refereed inbox) and its sender told, while the rest of
// the inbox goes on. A crash loop cannot start. What handling a mail means is the referee's.
package inbox

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime/debug"

	"github.com/refereed/refereed/store"
)

// Runner runs one referee's inbox.
type Runner struct {
	DB *store.DB
	// Handle handles one mail inside tx; an error rolls tx back, and the mail is tried again
	// alone.
	Handle func(tx *store.Tx, m store.InboundMail) error
	// Prepare, when set, is told of the mails about to be handled together, before their
	// transaction (the referee parses them and asks the mail system about their senders
	// there); what it returns is called once they were.
	Prepare func(ms ...store.InboundMail) (done func())
	// Ahead, when set, names what handling ms will read (store.Ahead), once Prepare was told
	// of them: their transaction reads it in its first round trip.
	Ahead func(ms ...store.InboundMail) store.Ahead
	// Kept, when set, tells a quarantined mail's sender that it was kept (in the quarantining
	// transaction).
	Kept func(tx *store.Tx, m *store.InboundMail) error
	// MaxAttempts is how often a mail is tried before it is quarantined (3 when 0).
	MaxAttempts int
	Log         *slog.Logger
}

func (r *Runner) logger() *slog.Logger {
	if r.Log == nil {
		return slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return r.Log
}

func (r *Runner) prepare(ms ...store.InboundMail) func() {
	if r.Prepare == nil {
		return func() {}
	}
	return r.Prepare(ms...)
}

func (r *Runner) kept(tx *store.Tx, m *store.InboundMail) error {
	if r.Kept == nil {
		return nil
	}
	return r.Kept(tx, m)
}

// one handles one mail alone, in its own transaction.
func (r *Runner) one(m store.InboundMail) error {
	defer r.prepare(m)()
	return r.DB.UpdateAhead(r.ahead(m), func(tx *store.Tx) error { return r.Handle(tx, m) })
}

func (r *Runner) ahead(ms ...store.InboundMail) store.Ahead {
	if r.Ahead == nil {
		return store.Ahead{}
	}
	return r.Ahead(ms...)
}

// Process handles the stored messages not yet processed, a page at a time (memory stays
// flat however much mail waits). Each attempt is recorded durably before the mail is
// handled, so a mail that kills the process (a panic is caught; running out of memory is
// not) is counted all the same: after MaxAttempts it is quarantined, kept for the operator
// (refereed inbox), reported, and the rest of the inbox goes on. A crash loop cannot start.
func (r *Runner) Process() (handled int, err error) {
	var after *store.InboxKey
	for {
		var page []store.InboundMail
		if err := r.DB.View(func(tx *store.Tx) error {
			var err error
			page, err = tx.InboundPage(after, BatchSize, BatchBytes)
			return err
		}); err != nil {
			return handled, err
		}
		if len(page) == 0 {
			return handled, nil
		}
		after = &page[len(page)-1].Key
		n, err := r.processPage(page)
		handled += n
		if err != nil {
			return handled, err
		}
	}
}

// BatchBytes bounds the raw mail Process holds at once (one mail at least).
const BatchBytes = 8 << 20

func (r *Runner) maxAttempts() int {
	if r.MaxAttempts == 0 {
		return 3
	}
	return r.MaxAttempts
}

// processPage handles one page: mail never tried before together in one transaction (after
// marking them tried), mail that was tried before one at a time.
func (r *Runner) processPage(page []store.InboundMail) (handled int, err error) {
	var fresh, tried []store.InboundMail
	for _, m := range page {
		if m.Attempts == 0 {
			fresh = append(fresh, m)
		} else {
			tried = append(tried, m)
		}
	}
	if len(fresh) > 1 {
		if err := r.markAttempt(fresh); err != nil {
			return 0, err
		}
		if r.guard(func() error { return r.batch(fresh) }) == nil {
			handled += len(fresh)
			fresh = nil
		}
		// else: one of them fails, each is handled alone below (its attempt is counted)
	}
	for _, m := range append(fresh, tried...) {
		ok, err := r.processOne(m)
		if err != nil {
			return handled, err
		}
		if ok {
			handled++
		}
	}
	return handled, nil
}

// processOne handles one mail alone: count the attempt, then handle it; quarantine it once
// it has failed MaxAttempts times.
func (r *Runner) processOne(m store.InboundMail) (bool, error) {
	var cur *store.InboundMail
	if err := r.DB.Update(func(tx *store.Tx) error {
		var err error
		if cur, err = tx.Inbound(m.Key); err != nil {
			return err
		}
		if cur.Attempts >= r.maxAttempts() {
			return r.quarantine(tx, cur)
		}
		cur.Attempts++
		return tx.UpdateInbound(*cur)
	}); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return false, nil // processed meanwhile
		}
		return false, err
	}
	if !cur.Quarantined.IsZero() {
		return false, nil
	}
	herr := r.guard(func() error { return r.one(*cur) })
	if herr == nil {
		return true, nil
	}
	r.logger().Error("handling failed; the mail is kept", "key", m.Key.String(), "attempt", cur.Attempts, "err", herr)
	return false, r.DB.Update(func(tx *store.Tx) error {
		cur, err := tx.Inbound(m.Key)
		if err != nil {
			return err
		}
		cur.Error = herr.Error()
		if cur.Attempts >= r.maxAttempts() {
			return r.quarantine(tx, cur)
		}
		return tx.UpdateInbound(*cur)
	})
}

// quarantine sets a mail aside after its last failed attempt and tells its sender, if he is a
// registered player, that it was kept.
func (r *Runner) quarantine(tx *store.Tx, m *store.InboundMail) error {
	why := fmt.Sprintf("failed %d times: %s", m.Attempts, m.Error)
	if m.Error == "" {
		why = fmt.Sprintf("the daemon stopped while handling it %d times", m.Attempts)
	}
	r.logger().Error("mail quarantined: see refereed inbox list", "key", m.Key.String(), "why", why)
	if err := r.kept(tx, m); err != nil {
		return err
	}
	return tx.Quarantine(*m, why)
}

// markAttempt records one attempt on each of ms before they are handled together.
func (r *Runner) markAttempt(ms []store.InboundMail) error {
	err := r.DB.Update(func(tx *store.Tx) error { // run again on a retried transaction: no change to ms inside
		for _, m := range ms {
			m.Attempts++
			if err := tx.UpdateInbound(m); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil {
		for i := range ms {
			ms[i].Attempts++
		}
	}
	return err
}

// guard runs f, turning a panic into an error: a mail that trips a bug is counted and, in
// the end, quarantined, instead of taking the daemon down.
func (r *Runner) guard(f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("inbox: panic: %v\n%s", p, debug.Stack())
		}
	}()
	return f()
}

// batch handles several mails in one transaction: all of them or, on any error, none
// (the caller then handles them one by one). One commit for a burst of mail is what keeps
// the throughput of the daemon near that of the mail servers.
func (r *Runner) batch(ms []store.InboundMail) error {
	defer r.prepare(ms...)()
	return r.DB.UpdateAhead(r.ahead(ms...), func(tx *store.Tx) error {
		for _, m := range ms {
			if err := r.Handle(tx, m); err != nil {
				return err
			}
		}
		return nil
	})
}

// BatchSize is the most mails Process handles in one transaction.
const BatchSize = 32
