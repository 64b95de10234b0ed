package store

import (
	"errors"
	"slices"

	"github.com/jackc/pgx/v5"
)

// queueAhead queues on b (the transaction's first round trip) the reads a names, each
// answered into the transaction's caches: Processed's, Known's and TokenRef's answers (with
// the game, its players, its log and the Message-ID seen), and ids for the mails it will
// queue, taken from the outbox's sequence.
func (t *pgTx) queueAhead(b *pgx.Batch, a *Ahead) {
	if a == nil {
		return
	}
	for _, m := range a.Mails {
		if m.Key != (InboxKey{}) {
			k := m.Key
			b.Queue(`SELECT EXISTS (SELECT 1 FROM processed`+keyWhere+`)`, keyArgs(k)...).QueryRow(func(row pgx.Row) error {
				var done bool
				if err := row.Scan(&done); err != nil {
					return err
				}
				if t.done == nil {
					t.done = map[InboxKey]bool{}
				}
				t.done[k] = done
				return nil
			})
		}
		if m.Token != "" {
			token, mid := m.Token, m.MessageID
			var row tokenRow
			b.Queue(tokenRefSQL, token, t.write, mid).QueryRow(func(r pgx.Row) error {
				_, err := t.tokenRef(token, mid, row.scan(r), &row)
				if errors.Is(err, ErrNotFound) {
					return nil // kept as the answer
				}
				return err
			})
		}
	}
	for _, k := range a.Known {
		b.Queue(knownSQL, keyArgs(k)...).Query(func(rows pgx.Rows) error {
			var fp string
			known := rows.Next()
			if known {
				if err := rows.Scan(&fp); err != nil {
					return err
				}
			}
			if t.known == nil {
				t.known = map[InboxKey]knownAnswer{}
			}
			t.known[k] = knownAnswer{fp, known}
			return nil
		})
	}
	if a.Letters > 0 && t.write {
		b.Queue(`SELECT nextval('outbox_ids') FROM generate_series(1, $1)`, a.Letters).Query(func(rows pgx.Rows) error {
			for rows.Next() {
				var id int64
				if err := rows.Scan(&id); err != nil {
					return err
				}
				t.outIDs = append(t.outIDs, id)
			}
			slices.Sort(t.outIDs)
			return rows.Err()
		})
	}
}

// knownAnswer is what Known answers for a key read ahead.
type knownAnswer struct {
	fingerprint string
	known       bool
}
