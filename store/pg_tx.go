package store

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// A transaction on PostgreSQL in as few round trips as it can take. BEGIN goes with the
// transaction's first statements: its moment and fence (queueBegin), and what its caller said
// it will read (Ahead, queueAhead). COMMIT goes with the writes held to the end (pgTx.held,
// pgTx.commit). A mail's transaction is then two round trips, plus one for each read that
// nobody could name ahead.

// txConn is a connection of the pool inside one transaction. Its BEGIN is held until the
// first statement and sent in that statement's round trip; commit sends COMMIT, in the round
// trip of the last writes when there are any.
type txConn struct {
	conn  *pgxpool.Conn
	ctx   context.Context
	begin string // BEGIN ..., until it was sent
	ended bool   // committed
}

// errEnded is a statement sent after its transaction committed: a bug in the store.
var errEnded = errors.New("store: a statement after the transaction committed")

// started sends the held BEGIN alone, for a statement that cannot carry it.
func (c *txConn) started() error {
	if c.ended {
		return errEnded
	}
	if c.begin == "" {
		return nil
	}
	begin := c.begin
	c.begin = ""
	_, err := c.conn.Exec(c.ctx, begin)
	return err
}

func (c *txConn) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	if err := c.started(); err != nil {
		return pgconn.CommandTag{}, err
	}
	return c.conn.Exec(ctx, sql, args...)
}

func (c *txConn) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	if err := c.started(); err != nil {
		return nil, err
	}
	return c.conn.Query(ctx, sql, args...)
}

func (c *txConn) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	if err := c.started(); err != nil {
		return errRow{err}
	}
	return c.conn.QueryRow(ctx, sql, args...)
}

// SendBatch sends b, with the held BEGIN first when it was not sent yet: its answer is read
// here, and the caller reads b's answers as if b had gone alone.
func (c *txConn) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults {
	if c.ended {
		return pgx.FailedBatchResults(b, errEnded)
	}
	if c.begin == "" {
		return c.conn.SendBatch(ctx, b)
	}
	withBegin := &pgx.Batch{QueuedQueries: append([]*pgx.QueuedQuery{{SQL: c.begin}}, b.QueuedQueries...)}
	c.begin = ""
	br := c.conn.SendBatch(ctx, withBegin)
	if _, err := br.Exec(); err != nil {
		br.Close()
		return pgx.FailedBatchResults(b, err)
	}
	return br
}

// commit ends the transaction: COMMIT after b's statements in one round trip (b may be nil or
// empty), or nothing at all when no statement was ever sent.
func (c *txConn) commit(b *pgx.Batch) error {
	if c.ended {
		return nil
	}
	if b == nil {
		b = &pgx.Batch{}
	}
	if c.begin != "" && b.Len() == 0 {
		c.ended = true // nothing began: nothing to end
		return nil
	}
	b.Queue("commit").Exec(func(tag pgconn.CommandTag) error {
		if tag.String() == "ROLLBACK" { // the transaction had failed: PostgreSQL rolled it back
			return pgx.ErrTxCommitRollback
		}
		return nil
	})
	err := c.SendBatch(c.ctx, b).Close()
	c.ended = err == nil
	return err
}

// release rolls back what did not commit and gives the connection back to the pool (which
// drops it if it is still inside a transaction: the rollback could not be sent).
func (c *txConn) release() {
	if pc := c.conn.Conn().PgConn(); !pc.IsClosed() && pc.TxStatus() != 'I' {
		c.conn.Exec(c.ctx, "rollback")
	}
	c.conn.Release()
}

// errRow is the row of a statement that could not be sent.
type errRow struct{ err error }

func (r errRow) Scan(...any) error { return r.err }

// run runs f in one SERIALIZABLE transaction, again while it loses serialization races. A write
// transaction asks for no access mode: the database's default decides, so that a database set
// read-only (default_transaction_read_only) refuses it (ErrReadOnly). f may end the
// transaction itself (txConn.commit, with its last writes); else it is committed after f.
func (p *pgStore) run(readOnly bool, f func(c *txConn) error) error {
	begin := "begin isolation level serializable" // as pgx begins one
	if readOnly {
		begin += " read only"
	}
	for attempt := 1; ; attempt++ {
		err := func() error {
			conn, err := p.pool.Acquire(p.ctx)
			if err != nil {
				return err
			}
			c := &txConn{conn: conn, ctx: p.ctx, begin: begin}
			defer c.release()
			if err := f(c); err != nil {
				return err
			}
			return c.commit(nil)
		}()
		if !readOnly && attempt < 3 && errors.Is(readOnlyErr(err), ErrReadOnly) && !p.frozen() {
			// Refused by a connection opened while the database was read-only: it keeps that
			// default, though the database is writable again. New connections have the new one.
			p.pool.Reset()
			continue
		}
		if err == nil || !retryable(err) || attempt >= 50 {
			return readOnlyErr(err)
		}
		Retries.Add(1)
		time.Sleep(time.Duration(rand.IntN(10*attempt)+1) * time.Millisecond)
	}
}

// update and view run fn in a transaction as DB.Update and DB.View promise, with what ahead
// names read in the first round trip.
func (p *pgStore) update(now func() time.Time, ahead *Ahead, fn func(*Tx) error) error {
	return p.tx(false, now, ahead, fn)
}

func (p *pgStore) view(now func() time.Time, ahead *Ahead, fn func(*Tx) error) error {
	return p.tx(true, now, ahead, fn)
}

func (p *pgStore) tx(readOnly bool, now func() time.Time, ahead *Ahead, fn func(*Tx) error) error {
	return p.wait(func() error {
		return p.run(readOnly, func(c *txConn) error {
			t := &pgTx{tx: c, ctx: p.ctx, write: !readOnly}
			// The first round trip (with BEGIN): the transaction's moment, the database's (its
			// now(), read with the fence) unless a test pinned the clock, and the reads named
			// ahead.
			b := &pgx.Batch{}
			var check func() (time.Time, error)
			if now == nil || !readOnly && p.fence.Load() != 0 {
				check = p.queueBegin(b, !readOnly)
			}
			t.queueAhead(b, ahead)
			if b.Len() > 0 {
				if err := c.SendBatch(p.ctx, b).Close(); err != nil {
					return err
				}
			}
			var at time.Time
			if check != nil {
				var err error
				if at, err = check(); err != nil {
					return err
				}
			}
			if now != nil {
				at = now()
			}
			// The database keeps microseconds: so does the clock its transactions read.
			t.Now = at.UTC().Truncate(time.Microsecond)
			if err := fn(&Tx{ops: t, Now: t.Now}); err != nil {
				return err
			}
			return t.commit()
		})
	})
}

// queueBegin queues the read of the transaction's moment on the database's clock and, for a
// write, of the fence; check, once b was sent, returns the moment, or ErrFenced when this
// process writes under a lease epoch that is no longer the lease's. Read inside the
// transaction: a standby that takes the lease while it runs makes one of the two fail to
// commit (serializable), never both succeed.
func (p *pgStore) queueBegin(b *pgx.Batch, write bool) (check func() (time.Time, error)) {
	epoch := p.fence.Load()
	var at time.Time
	if !write || epoch == 0 {
		b.Queue(`SELECT now()`).QueryRow(func(row pgx.Row) error { return row.Scan(&at) })
		return func() (time.Time, error) { return at, nil }
	}
	var holder *string
	var cur *int64
	b.Queue(`SELECT now(), (SELECT holder FROM lease WHERE name = 'leader'), (SELECT epoch FROM lease WHERE name = 'leader')`).
		QueryRow(func(row pgx.Row) error { return row.Scan(&at, &holder, &cur) })
	return func() (time.Time, error) {
		if holder == nil || cur == nil || *cur != epoch || *holder != *p.holder.Load() {
			return at, ErrFenced
		}
		return at, nil
	}
}
