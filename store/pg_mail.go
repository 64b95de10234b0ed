package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Inbound and outbound mail on PostgreSQL: the bbolt backend's methods (bolt_mail.go) as SQL.
// An inbox key is its four columns (mailbox, uidvalidity, uid, content), in that order.

func keyArgs(k InboxKey) []any {
	return []any{k.Mailbox, int64(k.UIDValidity), int64(k.UID), k.Content}
}

const inboxCols = `doc, raw`

// rawApart takes a record's raw mail out of it, for a column of its own (empty, never NULL,
// when it has none).
func rawApart(raw *[]byte) []byte {
	r := *raw
	*raw = nil
	if r == nil {
		r = []byte{}
	}
	return r
}

// nullTime is t, or NULL when it is zero.
func nullTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t
}

// scanDoc decodes a row of (doc, raw): the record, its raw mail put back where raw says.
func scanDoc[T any](row pgx.Row, raw func(*T) *[]byte) (T, error) {
	var m T
	var doc, bytes []byte
	if err := row.Scan(&doc, &bytes); err != nil {
		return m, err
	}
	if err := json.Unmarshal(doc, &m); err != nil {
		return m, err
	}
	*raw(&m) = bytes
	return m, nil
}

// scanInbound decodes one inbox row.
func scanInbound(row pgx.Row) (InboundMail, error) {
	return scanDoc(row, func(m *InboundMail) *[]byte { return &m.Raw })
}

// updateInbound rewrites m's record (attempts, quarantine, error); its raw mail stays.
// updateInbound is written at flush, in order with the other writes held (nobody waits for
// its answer; what reads the inbox flushes first): counting the attempts on a batch of mail is
// then one round trip, not one a mail.
func (t *pgTx) updateInbound(m InboundMail) error {
	m.Raw = nil
	doc, err := jsonDoc(m)
	if err != nil {
		return err
	}
	t.later = append(t.later, laterStmt{`UPDATE inbox SET attempts = $5, quarantined = $6, error = $7, doc = $8
		WHERE mailbox = $1 AND uidvalidity = $2 AND uid = $3 AND content = $4`,
		append(keyArgs(m.Key), m.Attempts, nullTime(m.Quarantined), m.Error, doc)})
	return nil
}

func (t *pgTx) PutInbound(m InboundMail) (bool, error) {
	isNew, err := t.PutInbounds([]InboundMail{m})
	if err != nil {
		return false, err
	}
	return isNew[0], nil
}

// PutInbounds stores each mail unless its key waits already or was processed: one round
// trip for all.
func (t *pgTx) PutInbounds(ms []InboundMail) ([]bool, error) {
	clear(t.known)
	if err := t.flush(); err != nil {
		return nil, err
	}
	isNew := make([]bool, len(ms))
	b := &pgx.Batch{}
	for i, m := range ms {
		if m.Fetched.IsZero() {
			m.Fetched = t.Now
		}
		raw := rawApart(&m.Raw)
		doc, err := jsonDoc(m)
		if err != nil {
			return nil, fmt.Errorf("store: put inbox %v: %w", m.Key, err)
		}
		b.Queue(`INSERT INTO inbox (mailbox, uidvalidity, uid, content, fetched, attempts, quarantined, error, doc, raw)
		SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10
		WHERE NOT EXISTS (SELECT 1 FROM processed WHERE mailbox = $1 AND uidvalidity = $2 AND uid = $3 AND content = $4)
		ON CONFLICT (mailbox, uidvalidity, uid, content) DO NOTHING`,
			append(keyArgs(m.Key), m.Fetched, m.Attempts, nullTime(m.Quarantined), m.Error, doc, raw)...).Exec(func(tag pgconn.CommandTag) error {
			isNew[i] = tag.RowsAffected() == 1
			return nil
		})
	}
	if err := t.tx.SendBatch(t.ctx, b).Close(); err != nil {
		return nil, fmt.Errorf("store: put %d mails in the inbox: %w", len(ms), err)
	}
	return isNew, nil
}

func (t *pgTx) Inbound(k InboxKey) (*InboundMail, error) {
	if err := t.flush(); err != nil {
		return nil, err
	}
	m, err := scanInbound(t.tx.QueryRow(t.ctx, `SELECT `+inboxCols+` FROM inbox
		WHERE mailbox = $1 AND uidvalidity = $2 AND uid = $3 AND content = $4`, keyArgs(k)...))
	if errors.Is(err, pgx.ErrNoRows) {
		err = ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("store: inbox %v: %w", k, err)
	}
	return &m, nil
}

// inboxRows calls f with each inbox row q selects (doc, raw, and the raw's size first).
func (t *pgTx) inboxRows(q string, args []any, f func(m InboundMail) (bool, error)) error {
	if err := t.flush(); err != nil {
		return err
	}
	rows, err := t.tx.Query(t.ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		m, err := scanInbound(rows)
		if err != nil {
			return err
		}
		more, err := f(m)
		if err != nil || !more {
			return err
		}
	}
	return rows.Err()
}

const inboxOrder = ` ORDER BY mailbox, uidvalidity, uid, content`

func (t *pgTx) PendingInbound() ([]InboundMail, error) {
	var out []InboundMail
	err := t.inboxRows(`SELECT `+inboxCols+` FROM inbox`+inboxOrder, nil, func(m InboundMail) (bool, error) {
		out = append(out, m)
		return true, nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: list inbox: %w", err)
	}
	return out, nil
}

func (t *pgTx) InboundPage(after *InboxKey, n int, maxBytes int64) ([]InboundMail, error) {
	q, args := `SELECT `+inboxCols+` FROM inbox WHERE quarantined IS NULL`, []any{}
	if after != nil {
		q += ` AND (mailbox, uidvalidity, uid, content) > ($1, $2, $3, $4)`
		args = keyArgs(*after)
	}
	q += inboxOrder + fmt.Sprintf(" LIMIT %d", max(n, 1))
	var out []InboundMail
	var size int64
	err := t.inboxRows(q, args, func(m InboundMail) (bool, error) {
		doc, _ := json.Marshal(m) // the record's size, as the bbolt store counts it
		rawLen := int64(len(doc) + len(m.Raw))
		if len(out) > 0 && size+rawLen > maxBytes {
			return false, nil
		}
		size += rawLen
		out = append(out, m)
		return len(out) < n, nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: inbox page: %w", err)
	}
	return out, nil
}

func (t *pgTx) InboxAll(f func(InboundMail) error) error {
	return t.inboxRows(`SELECT `+inboxCols+` FROM inbox`+inboxOrder, nil, func(m InboundMail) (bool, error) {
		return true, f(m)
	})
}

func (t *pgTx) Quarantine(m InboundMail, why string) error {
	m.Quarantined, m.Error = t.Now, why
	return t.UpdateInbound(m)
}

func (t *pgTx) Release(k InboxKey) error {
	m, err := t.Inbound(k)
	if err != nil {
		return err
	}
	m.Quarantined, m.Attempts, m.Error = time.Time{}, 0, ""
	return t.UpdateInbound(*m)
}

func (t *pgTx) DropInbound(k InboxKey) error {
	if _, err := t.Inbound(k); err != nil {
		return err
	}
	return t.MarkProcessed(k)
}

func (t *pgTx) UpdateInbound(m InboundMail) error {
	if err := t.updateInbound(m); err != nil {
		return fmt.Errorf("store: update inbox %v: %w", m.Key, err)
	}
	return nil
}

// markProcessedSQL drops a key's stored copy and marks it with its fingerprint, in one
// statement ($1-$4 the key, $5 the time).
const markProcessedSQL = `WITH gone AS (
		DELETE FROM inbox WHERE mailbox = $1 AND uidvalidity = $2 AND uid = $3 AND content = $4
		RETURNING doc->>'fingerprint' AS fingerprint)
	INSERT INTO processed (mailbox, uidvalidity, uid, content, at, fingerprint)
	VALUES ($1, $2, $3, $4, $5, coalesce((SELECT fingerprint FROM gone), ''))
	ON CONFLICT (mailbox, uidvalidity, uid, content) DO UPDATE SET at = excluded.at, fingerprint = excluded.fingerprint`

// MarkProcessed is written at flush, with the game (usually the last thing a mail's
// transaction does); what reads the inbox or the processed keys flushes first.
func (t *pgTx) MarkProcessed(k InboxKey) error {
	clear(t.known)
	if _, ok := t.done[k]; ok {
		t.done[k] = true
	}
	t.processed = append(t.processed, k)
	return nil
}

func (t *pgTx) MarkIgnored(m InboundMail) (bool, error) {
	clear(t.known)
	if err := t.flush(); err != nil {
		return false, err
	}
	tag, err := t.tx.Exec(t.ctx, `INSERT INTO processed (mailbox, uidvalidity, uid, content, at, fingerprint)
		SELECT $1, $2, $3, $4, $5, $6
		WHERE NOT EXISTS (SELECT 1 FROM inbox WHERE mailbox = $1 AND uidvalidity = $2 AND uid = $3 AND content = $4)
		ON CONFLICT (mailbox, uidvalidity, uid, content) DO NOTHING`, append(keyArgs(m.Key), t.Now.UTC(), m.Fingerprint)...)
	if err != nil {
		return false, fmt.Errorf("store: mark ignored %v: %w", m.Key, err)
	}
	if _, ok := t.done[m.Key]; ok && tag.RowsAffected() == 1 {
		t.done[m.Key] = true
	}
	return tag.RowsAffected() == 1, nil
}

// exists reports whether q finds a row.
func (t *pgTx) exists(q string, args ...any) (bool, error) {
	if err := t.flush(); err != nil {
		return false, err
	}
	var one int
	err := t.tx.QueryRow(t.ctx, q, args...).Scan(&one)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

const keyWhere = ` WHERE mailbox = $1 AND uidvalidity = $2 AND uid = $3 AND content = $4`

func (t *pgTx) Stored(k InboxKey) (bool, error) {
	ok, err := t.exists(`SELECT 1 FROM inbox`+keyWhere, keyArgs(k)...)
	if err != nil {
		return false, fmt.Errorf("store: inbox %v: %w", k, err)
	}
	return ok, nil
}

func (t *pgTx) Processed(k InboxKey) (bool, error) {
	if done, ok := t.done[k]; ok { // read ahead
		return done || slices.Contains(t.processed, k), nil
	}
	ok, err := t.exists(`SELECT 1 FROM processed`+keyWhere, keyArgs(k)...)
	if err != nil {
		return false, fmt.Errorf("store: processed %v: %w", k, err)
	}
	return ok, nil
}

// knownSQL is Known's query ($1-$4 the key).
const knownSQL = `SELECT coalesce(doc->>'fingerprint', '') FROM inbox` + keyWhere + `
	UNION ALL SELECT fingerprint FROM processed` + keyWhere + ` LIMIT 1`

func (t *pgTx) Known(k InboxKey) (fingerprint string, known bool, err error) {
	if a, ok := t.known[k]; ok { // read ahead (the inbox's writes forget it)
		return a.fingerprint, a.known, nil
	}
	if err := t.flush(); err != nil {
		return "", false, err
	}
	err = t.tx.QueryRow(t.ctx, knownSQL, keyArgs(k)...).Scan(&fingerprint)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("store: known %v: %w", k, err)
	}
	return fingerprint, true, nil
}

func (t *pgTx) HighestProcessedUID(mailbox string, uidValidity uint32) (uint32, error) {
	if err := t.flush(); err != nil {
		return 0, err
	}
	var high int64
	if err := t.tx.QueryRow(t.ctx, `SELECT greatest(
		(SELECT coalesce(max(uid), 0) FROM processed WHERE mailbox = $1 AND uidvalidity = $2),
		(SELECT coalesce(max(uid), 0) FROM inbox WHERE mailbox = $1 AND uidvalidity = $2))`, mailbox, int64(uidValidity)).Scan(&high); err != nil {
		return 0, fmt.Errorf("store: highest uid of %s/%d: %w", mailbox, uidValidity, err)
	}
	return uint32(high), nil
}

func (t *pgTx) Enqueue(m OutMail) (uint64, error) {
	m.Created = t.Now
	raw := rawApart(&m.Raw)
	doc, err := jsonDoc(m)
	if err != nil {
		return 0, fmt.Errorf("store: put outbox: %w", err)
	}
	// The id comes from a sequence, which no two transactions wait for (a rolled back one
	// leaves a gap): no row every mail's transaction updates. A few are taken at once (a mail
	// queues two or three), and the mail is written at flush, with the game.
	if len(t.outIDs) == 0 {
		var id int64
		err := t.rows(`SELECT nextval('outbox_ids') FROM generate_series(1, 4)`, nil, []any{&id}, func() error {
			t.outIDs = append(t.outIDs, id)
			return nil
		})
		if err != nil {
			return 0, fmt.Errorf("store: put outbox: %w", err)
		}
		slices.Sort(t.outIDs)
	}
	id := t.outIDs[0]
	t.outIDs = t.outIDs[1:]
	t.later = append(t.later, laterStmt{`INSERT INTO outbox (id, message_id, game, kind, created, doc, raw)
		VALUES ($1, $2, $3, $4, $5, jsonb_set($6::JSONB, '{id}', to_jsonb($1::BIGINT)), $7)`,
		[]any{id, m.MessageID, int64(m.Game), m.Kind, m.Created, doc, raw}})
	return uint64(id), nil
}

// scanOut decodes one row of outbox or sent. Its queries put the row's key in the doc's id
// (jsonb_set): a mail is done, and pages go, by its row, whatever its doc says.
func scanOut(rows pgx.Rows) (OutMail, error) {
	return scanDoc(rows, func(m *OutMail) *[]byte { return &m.Raw })
}

func (t *pgTx) outMails(q string) ([]OutMail, error) {
	if err := t.flush(); err != nil {
		return nil, err
	}
	rows, err := t.tx.Query(t.ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []OutMail
	for rows.Next() {
		m, err := scanOut(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

func (t *pgTx) Outbox() ([]OutMail, error) {
	out, err := t.outMails(`SELECT jsonb_set(doc, '{id}', to_jsonb(id)), raw FROM outbox ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("store: list outbox: %w", err)
	}
	return out, nil
}

func (t *pgTx) OutboxCount() (int, error) {
	if err := t.flush(); err != nil {
		return 0, err
	}
	var n int
	if err := t.tx.QueryRow(t.ctx, `SELECT count(*) FROM outbox`).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: count outbox: %w", err)
	}
	return n, nil
}

func (t *pgTx) PutOutbox(m OutMail) error {
	if err := t.flush(); err != nil {
		return err
	}
	raw := rawApart(&m.Raw)
	doc, err := jsonDoc(m)
	if err == nil {
		_, err = t.tx.Exec(t.ctx, `INSERT INTO outbox (id, message_id, game, kind, created, doc, raw) VALUES ($1, $2, $3, $4, $5, $6, $7)
			ON CONFLICT (id) DO UPDATE SET doc = excluded.doc`, int64(m.ID), m.MessageID, int64(m.Game), m.Kind, m.Created, doc, raw)
	}
	if err != nil {
		return fmt.Errorf("store: put outbox %d: %w", m.ID, err)
	}
	return nil
}

// Done is written at flush, in order with the other held writes (what reads the outbox or
// the sent mail flushes first): the deliveries that share a commit share a round trip.
func (t *pgTx) Done(m OutMail) error {
	raw := m.Raw
	if len(raw) == 0 {
		raw = nil
	}
	m.Raw = nil
	doc, err := jsonDoc(m)
	var sent any
	if !m.Sent.IsZero() {
		sent = m.Sent
	}
	if err == nil { // recorded as sent and out of the outbox in one statement; without a raw
		// copy given, the outbox's is moved (it need not travel to the database again)
		t.later = append(t.later, laterStmt{`WITH gone AS (DELETE FROM outbox WHERE id = $1 RETURNING raw)
			INSERT INTO sent (id, message_id, game, kind, recipients, created, sent, failed, doc, raw)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, coalesce($10, (SELECT raw FROM gone)))
			ON CONFLICT (id) DO UPDATE SET sent = excluded.sent, failed = excluded.failed, doc = excluded.doc, raw = excluded.raw`,
			[]any{int64(m.ID), m.MessageID, int64(m.Game), m.Kind, strings.Join(m.To, ", "), m.Created, sent, m.Failed, doc, raw}})
	}
	if err != nil {
		return fmt.Errorf("store: put sent %d: %w", m.ID, err)
	}
	return nil
}

func (t *pgTx) SentMails() ([]OutMail, error) {
	out, err := t.outMails(`SELECT jsonb_set(doc, '{id}', to_jsonb(id)), raw FROM sent ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("store: list sent: %w", err)
	}
	return out, nil
}
