package store

import (
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Several instances of refereed may serve one PostgreSQL store: one leads (reads the mailbox,
// delivers, runs the clocks), the others stand by. Leadership is one row of the lease table:
// who holds it, until when (the database's clock, never an instance's), and an epoch that
// grows by one at every change of holder. The leader's every write transaction first reads
// the row and fails with ErrFenced unless it still holds that epoch: a leader that was paused
// (a long GC, SIGSTOP, a partition) and wakes after another took over cannot write anything,
// even before it learns that it lost. Plain SQL, no advisory locks: CockroachDB runs it too.

// A database set read-only (ErrReadOnly) is a DBA's freeze: Acquire and Renew fail with
// ErrReadOnly, and the leader stands by until it is writable again.

// ErrLeaseLost is returned by Renew when another instance holds the lease now.
var ErrLeaseLost = errors.New("store: the lease is another instance's now")

// Lease is one instance's claim to lead a shared store.
type Lease struct {
	db     *DB
	holder string
	ttl    time.Duration
	epoch  int64
}

// NewLease is holder's claim to lead db for ttl at a time (renewed well before it runs out).
// On a bbolt file, whose lock admits one process, the claim is always granted.
func (db *DB) NewLease(holder string, ttl time.Duration) *Lease {
	return &Lease{db: db, holder: holder, ttl: ttl}
}

// Holder is the instance's name in the lease.
func (l *Lease) Holder() string { return l.holder }

// Epoch is the epoch this instance leads under (0 before it first led).
func (l *Lease) Epoch() int64 { return l.epoch }

// Acquire takes the lease if nobody holds it or its holder let it run out, and reports whether
// this instance leads now. From then on the store's writes are fenced by the new epoch.
func (l *Lease) Acquire() (bool, error) {
	p := l.db.pg
	if p == nil {
		return true, nil
	}
	if p.frozen() {
		return false, ErrReadOnly
	}
	var epoch int64
	err := p.wait(func() error {
		return p.run(false, func(tx *txConn) error {
			var holder string
			var cur int64
			var live bool
			err := tx.QueryRow(p.ctx, `SELECT holder, epoch, expires > current_timestamp FROM lease WHERE name = 'leader'`).Scan(&holder, &cur, &live)
			switch {
			case errors.Is(err, pgx.ErrNoRows):
				epoch = 1
				_, err = tx.Exec(p.ctx, `INSERT INTO lease (name, holder, epoch, expires)
					VALUES ('leader', $1, 1, current_timestamp + $2 * INTERVAL '1 millisecond')`, l.holder, l.ttl.Milliseconds())
				return err
			case err != nil:
				return err
			case live && !(holder == l.holder && cur == l.epoch):
				epoch = 0 // another's, and alive
				return nil
			}
			epoch = cur + 1
			_, err = tx.Exec(p.ctx, `UPDATE lease SET holder = $1, epoch = $2, expires = current_timestamp + $3 * INTERVAL '1 millisecond'
				WHERE name = 'leader'`, l.holder, epoch, l.ttl.Milliseconds())
			return err
		})
	})
	if err != nil {
		return false, fmt.Errorf("store: acquire the lease: %w", err)
	}
	if epoch == 0 {
		return false, nil
	}
	l.epoch = epoch
	p.holder.Store(&l.holder)
	p.fence.Store(epoch)
	return true, nil
}

// Renew extends the lease this instance holds by its ttl, from now on the database's clock.
// ErrLeaseLost means another took it: this instance must stop leading (its writes already
// fail).
func (l *Lease) Renew() error {
	p := l.db.pg
	if p == nil {
		return nil
	}
	if p.frozen() {
		p.pool.Reset() // the connections opened before the freeze would still write
		return ErrReadOnly
	}
	var n int64
	err := p.run(false, func(tx *txConn) error {
		tag, err := tx.Exec(p.ctx, `UPDATE lease SET expires = current_timestamp + $3 * INTERVAL '1 millisecond'
			WHERE name = 'leader' AND holder = $1 AND epoch = $2`, l.holder, l.epoch, l.ttl.Milliseconds())
		n = tag.RowsAffected()
		return err
	})
	if err != nil {
		return fmt.Errorf("store: renew the lease: %w", err)
	}
	if n == 0 {
		return ErrLeaseLost
	}
	return nil
}

// Release gives the lease up at once (a clean shutdown), so that a standby need not wait for
// it to run out.
func (l *Lease) Release() error {
	p := l.db.pg
	if p == nil || l.epoch == 0 {
		return nil
	}
	return p.run(false, func(tx *txConn) error {
		_, err := tx.Exec(p.ctx, `UPDATE lease SET expires = current_timestamp - INTERVAL '1 second'
			WHERE name = 'leader' AND holder = $1 AND epoch = $2`, l.holder, l.epoch)
		return err
	})
}

// Leader returns who holds the lease, its epoch and whether it is still alive (for status
// lines and tests); holder is "" when nobody ever led.
func (db *DB) Leader() (holder string, epoch int64, live bool, err error) {
	p := db.pg
	if p == nil {
		return "", 0, false, nil
	}
	err = p.run(true, func(tx *txConn) error {
		err := tx.QueryRow(p.ctx, `SELECT holder, epoch, expires > current_timestamp FROM lease WHERE name = 'leader'`).Scan(&holder, &epoch, &live)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		return err
	})
	return holder, epoch, live, err
}

// Stand lifts the fence once this instance has stopped everything it did as leader: what it
// writes from now on (an operator's command through it) is written as any client's.
func (l *Lease) Stand() {
	if p := l.db.pg; p != nil {
		p.fence.Store(0)
	}
}

// frozen reports whether the database was set read-only (ALTER DATABASE ... SET
// default_transaction_read_only = on) since the pool's connections were opened: they keep the
// setting they began with, and only new ones get the new one, so the leader asks the catalog
// at each renewal. A database that cannot say (no such catalog) is not frozen.
func (p *pgStore) frozen() bool {
	var n int
	err := p.pool.QueryRow(p.ctx, `SELECT count(*) FROM pg_catalog.pg_db_role_setting s, unnest(s.setconfig) c
		WHERE s.setrole = 0 AND s.setdatabase = (SELECT oid FROM pg_catalog.pg_database WHERE datname = current_database())
		AND lower(c) IN ('default_transaction_read_only=on', 'default_transaction_read_only=true',
			'default_transaction_read_only=yes', 'default_transaction_read_only=1')`).Scan(&n)
	return err == nil && n > 0
}
