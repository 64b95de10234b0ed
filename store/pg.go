package store

// The PostgreSQL backend: the same transactions as the bbolt file's, on tables (pg_schema.go)
// under SERIALIZABLE isolation. A transaction that loses a serialization race, or that the
// server could not finish because the connection went away (a restart, a failover), is run
// again from the start; the referee's transactions are written to be run again (a mail's
// transaction checks first whether the mail was processed).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// pgStore is an open PostgreSQL store.
type pgStore struct {
	pool *pgxpool.Pool
	ctx  context.Context
	stop context.CancelFunc
	// fence, when not 0, is the lease epoch this process leads under: every write transaction
	// first checks that the lease still has it (and holder), else fails with ErrFenced.
	fence  atomic.Int64
	holder atomic.Pointer[string]
	// Outage is how long a transaction keeps trying while the database cannot be reached
	// before it gives up with the error.
	outage time.Duration
}

// IsURL reports whether s names a PostgreSQL database rather than a bbolt file.
func IsURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// OpenURL opens the store s names: a PostgreSQL database ("postgres://user@host/db"), or
// else a bbolt file at that path. A database's schema is brought up to date.
func OpenURL(s string, o Options) (*DB, error) {
	if !IsURL(s) {
		return Open(s, o)
	}
	cfg, err := pgxpool.ParseConfig(s)
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", redact(s), err)
	}
	// Eight delivery workers, the intake, the inbox, the clocks and the web at once, with room
	// (the URL's pool_max_conns says otherwise).
	if !strings.Contains(s, "pool_max_conns") {
		cfg.MaxConns = 16
	}
	cfg.ConnConfig.Tracer = roundTrips{}
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = 5 * time.Second
	}
	ctx, stop := context.WithCancel(context.Background())
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		stop()
		return nil, fmt.Errorf("store: %s: %w", redact(s), err)
	}
	// At open, a database out of reach is waited for o.Timeout (10 s when 0): a command with a
	// mistyped port says so soon. Once open, an outage (a restart, a failover) is waited out
	// for up to a minute.
	p := &pgStore{pool: pool, ctx: ctx, stop: stop, outage: 10 * time.Second}
	if o.Timeout > 0 {
		p.outage = o.Timeout
	}
	defer func() { p.outage = time.Minute }()
	db := &DB{pg: p, path: redact(s)} // Now nil: the database's clock
	if !o.ReadOnly {
		if err := p.migrate(); err != nil {
			p.close()
			return nil, fmt.Errorf("store: %s: %w", db.path, err)
		}
	} else if err := p.wait(func() error { return pool.Ping(ctx) }); err != nil {
		p.close()
		return nil, fmt.Errorf("store: %s: %w", db.path, err)
	}
	return db, nil
}

// redact is a database URL without its password.
func redact(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "postgres://..."
	}
	return u.Redacted()
}

func (p *pgStore) close() {
	p.pool.Close()
	p.stop()
}

// migrate applies the migrations the database has not had, each in its own transaction.
func (p *pgStore) migrate() error {
	return p.wait(func() error {
		// Read first: a database up to date is not written to (it may be read-only for now).
		var newest, applied int
		err := p.pool.QueryRow(p.ctx, `SELECT coalesce(max(version), 0), count(*) FROM schema_migrations`).Scan(&newest, &applied)
		if err == nil && newest == len(pgMigrations)-1 && applied == newest {
			return nil
		}
		if _, err := p.pool.Exec(p.ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version INT PRIMARY KEY, applied TIMESTAMPTZ NOT NULL)`); err != nil {
			return readOnlyErr(err)
		}
		for v := 1; v < len(pgMigrations); v++ {
			err := p.run(false, func(tx *txConn) error {
				var n int
				if err := tx.QueryRow(p.ctx, `SELECT count(*) FROM schema_migrations WHERE version = $1`, v).Scan(&n); err != nil {
					return err
				}
				if n > 0 {
					return nil
				}
				if _, err := tx.Exec(p.ctx, pgMigrations[v]); err != nil {
					return fmt.Errorf("migration %d: %w", v, err)
				}
				_, err := tx.Exec(p.ctx, `INSERT INTO schema_migrations (version, applied) VALUES ($1, now())`, v)
				return err
			})
			if err != nil {
				return err
			}
		}
		if err := p.pool.QueryRow(p.ctx, `SELECT coalesce(max(version), 0) FROM schema_migrations`).Scan(&newest); err != nil {
			return err
		}
		if newest >= len(pgMigrations) {
			return fmt.Errorf("the database has schema %d, newer than this refereed (%d): upgrade refereed", newest, len(pgMigrations)-1)
		}
		return nil
	})
}

// wait runs f until it succeeds, fails for a reason other than an unreachable database, or
// the database has been unreachable for longer than p.outage.
func (p *pgStore) wait(f func() error) error {
	start := time.Now()
	for delay := 50 * time.Millisecond; ; delay = min(delay*2, 2*time.Second) {
		err := f()
		if err != nil && p.ctx.Err() != nil {
			return ErrInterrupted
		}
		if err == nil || !transient(err) || time.Since(start) > p.outage {
			return err
		}
		time.Sleep(delay)
	}
}

// retryable reports whether a transaction that failed with err should run again: it lost a
// serialization race or a deadlock.
func retryable(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "40001" || pe.Code == "40P01")
}

// transient reports whether err says the database could not be reached or went away (a
// restart, a failover): worth waiting for.
func transient(err error) bool {
	if err == nil || errors.Is(err, ErrFenced) {
		return false
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return strings.HasPrefix(pe.Code, "08") || pe.Code == "57P01" || pe.Code == "57P02" || pe.Code == "57P03"
	}
	var ce *pgconn.ConnectError
	return errors.As(err, &ce) || pgconn.SafeToRetry(err) || pgconn.Timeout(err) ||
		strings.Contains(err.Error(), "connection refused") || strings.Contains(err.Error(), "unexpected EOF") ||
		strings.Contains(err.Error(), "conn closed") || strings.Contains(err.Error(), "broken pipe") ||
		strings.Contains(err.Error(), "connection reset")
}

// RoundTrips counts the statements sent to PostgreSQL, a batch of them as one (BEGIN and
// COMMIT included), for the benchmarks: a mail costs its round trips.
var RoundTrips atomic.Int64

// roundTrips is the pgx tracer that counts them.
type roundTrips struct{}

func (roundTrips) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	RoundTrips.Add(1)
	return ctx
}

func (roundTrips) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

func (roundTrips) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	RoundTrips.Add(1)
	return ctx
}

func (roundTrips) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}

func (roundTrips) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData) {}

// Retries counts the transactions run again after losing a serialization race (PostgreSQL),
// for the benchmarks and an operator's curiosity.
var Retries atomic.Int64

// readOnlyErr reports err as ErrReadOnly (too) when the database refused a write because it is
// read-only (SQLSTATE 25006).
func readOnlyErr(err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "25006" {
		return fmt.Errorf("%w: %w", ErrReadOnly, err)
	}
	return err
}

// pgTx is a transaction on the database.
type pgTx struct {
	tx  *txConn
	ctx context.Context
	Now time.Time
	// docs holds the records read or written in this transaction by table and key (their
	// JSON; nil: known absent): one mail reads its game and its players' records several
	// times, and every read is a round trip. Each read decodes a copy of its own.
	docs map[string][]byte
	// putGames and dues are writes held until the transaction commits or a query reads the
	// games' columns (flush): a mail rewrites its game several times (a count per letter
	// sent), and the database needs only the last.
	putGames map[uint64]Game
	dues     map[uint64]any
	// processed are the inbox keys marked processed, written at flush with the rest (before
	// anything reads the inbox or the processed keys again: the mail methods flush first).
	processed []InboxKey
	// events are the games' logs read in this transaction, with what it appended since.
	events map[uint64][]Event
	// later are writes whose answer nobody waits for (the mails queued and sent, the inbox's
	// attempts and quarantines), sent at flush in their order; the methods that read what they
	// write flush first. outIDs are ids for the outbox taken from its sequence ahead, a few in
	// one round trip.
	later  []laterStmt
	outIDs []int64
	// done, known, tokens and seen are answers read ahead (Ahead) or already given, kept
	// until a write in this transaction changes them: Processed's, Known's, TokenRef's and
	// whether a game's side saw a Message-ID.
	done   map[InboxKey]bool
	known  map[InboxKey]knownAnswer
	tokens map[string]tokenAnswer
	seen   map[msgIDKey]bool
	// states are the games' status and variant as their rows had them (stateCounter), for
	// those read or written in this transaction: a game written back with the same needs no
	// count moved.
	states map[uint64]string
	// write is set in a write transaction: a game read there brings its players' records
	// along (the mail's transaction reads them next).
	write bool
}

// laterStmt is a statement held back until flush.
type laterStmt struct {
	sql  string
	args []any
}

// held queues on b what the transaction holds back, games in id order: a mail's game, its
// due moment, its key marked processed, its event, the Message-ID seen and the mails queued
// go together. after, once b was sent, checks the games' writes and does what follows from
// them; final reports that after will send nothing (COMMIT may then go in b's round trip):
// a game whose status and variant the transaction read and did not change needs no count
// moved.
func (t *pgTx) held(b *pgx.Batch) (after func() error, final bool, err error) {
	type put struct {
		g       Game
		doc     []byte
		r       gameRowResult
		counted bool
	}
	var puts []*put
	final = true
	for _, id := range slices.Sorted(maps.Keys(t.putGames)) {
		p := &put{g: t.putGames[id]}
		due, withDue := t.dues[id]
		q, args, doc, err := gameRow(&p.g, false, due, withDue)
		if err != nil {
			return nil, false, fmt.Errorf("store: put game %d: %w", id, err)
		}
		p.doc = doc
		b.Queue(q, args...).QueryRow(func(row pgx.Row) error { return row.Scan(&p.r.wasStatus, &p.r.wasVariant, &p.r.n) })
		if len(p.g.Former) > 0 {
			addrs := make([]string, len(p.g.Former))
			for i, f := range p.g.Former {
				addrs[i] = f.Address
			}
			b.Queue(`INSERT INTO former_players (game, address) SELECT $1, unnest($2::TEXT[]) ON CONFLICT DO NOTHING`, int64(id), addrs)
		}
		p.counted = t.states[id] == stateCounter(p.g.Status, p.g.Variant)
		final = final && p.counted
		puts = append(puts, p)
	}
	for _, id := range slices.Sorted(maps.Keys(t.dues)) {
		if _, ok := t.putGames[id]; !ok {
			b.Queue(`UPDATE games SET due = $2 WHERE id = $1`, int64(id), t.dues[id])
		}
	}
	for _, k := range t.processed {
		b.Queue(markProcessedSQL, append(keyArgs(k), t.Now.UTC())...)
	}
	for _, l := range t.later {
		b.Queue(l.sql, l.args...)
	}
	clear(t.putGames)
	clear(t.dues)
	t.processed, t.later = t.processed[:0], t.later[:0]
	return func() error {
		for _, p := range puts {
			if err := t.afterGameRow(&p.g, p.doc, p.r, p.counted); err != nil {
				return fmt.Errorf("store: put game %d: %w", p.g.ID, err)
			}
		}
		return nil
	}, final, nil
}

// flush writes what the transaction holds back (held) in one round trip.
func (t *pgTx) flush() error {
	if len(t.putGames) == 0 && len(t.dues) == 0 && len(t.processed) == 0 && len(t.later) == 0 {
		return nil
	}
	b := &pgx.Batch{}
	after, _, err := t.held(b)
	if err != nil {
		return err
	}
	if err := t.tx.SendBatch(t.ctx, b).Close(); err != nil {
		return fmt.Errorf("store: write games, due moments and processed keys: %w", err)
	}
	return after()
}

// commit writes what the transaction holds back and commits it, in one round trip when
// nothing follows from the writes.
func (t *pgTx) commit() error {
	b := &pgx.Batch{}
	after, final, err := t.held(b)
	if err != nil {
		return err
	}
	if !final {
		if b.Len() > 0 {
			if err := t.tx.SendBatch(t.ctx, b).Close(); err != nil {
				return fmt.Errorf("store: write games, due moments and processed keys: %w", err)
			}
		}
		if err := after(); err != nil {
			return err
		}
		return t.tx.commit(nil)
	}
	if err := t.tx.commit(b); err != nil {
		return fmt.Errorf("store: write games, due moments and processed keys, and commit: %w", err)
	}
	// Committed: after only remembers what was written (a held game's row is an upsert,
	// one row whatever was there, and its counts did not move).
	return after()
}

// cached returns the doc of key in the transaction's cache.
func (t *pgTx) cached(key string) (doc []byte, ok bool) {
	doc, ok = t.docs[key]
	return doc, ok
}

// remember keeps doc as key's in the transaction's cache.
func (t *pgTx) remember(key string, doc []byte) {
	if t.docs == nil {
		t.docs = map[string][]byte{}
	}
	t.docs[key] = doc
}

// next counts one more of counter name (ids of games, tournaments, mails) inside the
// transaction: ids have no gaps and roll back with it, as bbolt's sequences do.
func (t *pgTx) next(name string) (uint64, error) {
	var v int64
	err := t.tx.QueryRow(t.ctx, `INSERT INTO counters (name, value) VALUES ($1, 1)
		ON CONFLICT (name) DO UPDATE SET value = counters.value + 1 RETURNING value`, name).Scan(&v)
	return uint64(v), err
}

// counter reads counter name without moving it (0 when it never counted).
func (t *pgTx) counter(name string) (uint64, error) {
	var v int64
	err := t.tx.QueryRow(t.ctx, `SELECT value FROM counters WHERE name = $1`, name).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("store: counter %s: %w", name, err)
	}
	return uint64(v), nil
}

// setting and setSetting keep small values (DB.Meta, the prune mark).
func (p *pgStore) setting(key string) (string, error) {
	var v string
	err := p.wait(func() error {
		err := p.pool.QueryRow(p.ctx, `SELECT value FROM settings WHERE key = $1`, key).Scan(&v)
		if errors.Is(err, pgx.ErrNoRows) {
			v, err = "", nil
		}
		return err
	})
	return v, err
}

func (p *pgStore) setSetting(key, value string) error {
	return p.tx(false, nil, nil, func(tx *Tx) error {
		_, err := tx.ops.(*pgTx).tx.Exec(p.ctx, `INSERT INTO settings (key, value) VALUES ($1, $2)
			ON CONFLICT (key) DO UPDATE SET value = excluded.value`, key, value)
		return err
	})
}

func (p *pgStore) settingOrSet(key, value string) (string, error) {
	err := p.tx(false, nil, nil, func(tx *Tx) error {
		return tx.ops.(*pgTx).tx.QueryRow(p.ctx, `WITH put AS (INSERT INTO settings (key, value) VALUES ($1, $2)
			ON CONFLICT (key) DO NOTHING RETURNING value)
			SELECT value FROM put UNION ALL SELECT value FROM settings WHERE key = $1`, key, value).Scan(&value)
	})
	return value, err
}

// pgTables are the tables Dump reads, each with the columns that order its rows.
var pgTables = []struct{ name, order string }{
	{"counters", "name"}, {"settings", "key"}, {"games", "id"}, {"events", "game, seq"},
	{"tokens", "token"}, {"seen_message_ids", "game, side, message_id"}, {"tournaments", "id"},
	{"players", "address"}, {"ratings", "address, variant"}, {"rate_limits", "address"},
	{"inbox", "mailbox, uidvalidity, uid, content"}, {"processed", "mailbox, uidvalidity, uid, content"},
	{"outbox", "id"}, {"sent", "id"}, {"challenges", "id"},
}

// dump returns every row of every table as JSON, keyed by table and row number.
func (p *pgStore) dump() (map[string]string, error) {
	out := map[string]string{}
	err := p.run(true, func(tx *txConn) error {
		for _, tb := range pgTables {
			rows, err := tx.Query(p.ctx, `SELECT row_to_json(x)::TEXT FROM (SELECT * FROM `+tb.name+` ORDER BY `+tb.order+`) x`)
			if err != nil {
				return err
			}
			i := 0
			for rows.Next() {
				var s string
				if err := rows.Scan(&s); err != nil {
					rows.Close()
					return err
				}
				out[fmt.Sprintf("%s/%d", tb.name, i)] = s
				i++
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return err
			}
		}
		return nil
	})
	return out, err
}

// pruneSome is bboltTx.pruneSome on the database: the raw copies of up to max sent mails done
// before the retention, after the mark.
func (p *pgStore) pruneSome(clock func() time.Time, max int) (pruned int, more bool, err error) {
	err = p.tx(false, clock, nil, func(tx *Tx) error {
		t := tx.ops.(*pgTx)
		now := tx.Now
		mark := int64(0)
		var s string
		err := t.tx.QueryRow(t.ctx, `SELECT value FROM settings WHERE key = 'sent-pruned'`).Scan(&s)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		fmt.Sscan(s, &mark)
		cutoff := now.Add(-SentRawRetention)
		rows, err := t.tx.Query(t.ctx, `SELECT id, coalesce(sent, created) < $2, raw IS NOT NULL FROM sent
			WHERE id > $1 ORDER BY id LIMIT $3`, mark, cutoff, max)
		if err != nil {
			return err
		}
		var drop []int64
		last, seen, young := mark, 0, false
		for rows.Next() {
			var id int64
			var old, hasRaw bool
			if err := rows.Scan(&id, &old, &hasRaw); err != nil {
				rows.Close()
				return err
			}
			if !old {
				young = true // the rest is newer: nothing to prune yet
				break
			}
			seen++
			last = id
			if hasRaw {
				drop = append(drop, id)
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		more = !young && seen == max
		if len(drop) > 0 {
			if _, err := t.tx.Exec(t.ctx, `UPDATE sent SET raw = NULL WHERE id = ANY($1)`, drop); err != nil {
				return err
			}
		}
		if last != mark {
			if _, err := t.tx.Exec(t.ctx, `INSERT INTO settings (key, value) VALUES ('sent-pruned', $1)
				ON CONFLICT (key) DO UPDATE SET value = excluded.value`, fmt.Sprint(last)); err != nil {
				return err
			}
		}
		pruned = len(drop)
		return nil
	})
	return pruned, more, err
}

// jsonDoc encodes a record for its doc column.
func jsonDoc(v any) ([]byte, error) { return json.Marshal(v) }

// forgetSome drops up to max processed keys older than ProcessedRetention, and as many of the
// Message-IDs seen as old (the same retention: a mail re-sent after it is a new one); more
// reports that there may be others.
func (p *pgStore) forgetSome(clock func() time.Time, max int) (forgot int, more bool, err error) {
	err = p.tx(false, clock, nil, func(tx *Tx) error {
		t := tx.ops.(*pgTx)
		cutoff := tx.Now.Add(-ProcessedRetention)
		tag, err := t.tx.Exec(t.ctx, `DELETE FROM processed WHERE (mailbox, uidvalidity, uid, content) IN
			(SELECT mailbox, uidvalidity, uid, content FROM processed WHERE at < $1 LIMIT $2)`, cutoff, max)
		if err != nil {
			return err
		}
		seen, err := t.tx.Exec(t.ctx, `DELETE FROM seen_message_ids WHERE (game, side, message_id) IN
			(SELECT game, side, message_id FROM seen_message_ids WHERE at < $1 LIMIT $2)`, cutoff, max)
		forgot = int(tag.RowsAffected())
		more = forgot == max || int(seen.RowsAffected()) == max
		return err
	})
	return forgot, more, err
}
