package store

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// What Copy needs of the database beyond the Tx methods (copy.go).

// atLeast moves counter name to id if it is below.
func (t *pgTx) atLeast(name string, id uint64) error {
	_, err := t.tx.Exec(t.ctx, `INSERT INTO counters (name, value) VALUES ($1, $2)
		ON CONFLICT (name) DO UPDATE SET value = greatest(counters.value, excluded.value)`, name, int64(id))
	return err
}

func (t *pgTx) putGameAs(g *Game) error {
	if err := t.putGameRow(g, false); err != nil {
		return fmt.Errorf("store: put game %d: %w", g.ID, err)
	}
	return t.atLeast("games", g.ID)
}

func (t *pgTx) putTournamentAs(tr *Tournament) error {
	if err := t.putTournamentRow(tr, false); err != nil {
		return fmt.Errorf("store: put tournament %d: %w", tr.ID, err)
	}
	return t.atLeast("tournaments", tr.ID)
}

func (t *pgTx) putOutboxAs(m OutMail) error {
	if err := t.PutOutbox(m); err != nil {
		return err
	}
	// The sequence past the id (setval is not rolled back: a copy that fails leaves it ahead,
	// which only skips ids).
	if m.ID == 0 {
		return nil
	}
	_, err := t.tx.Exec(t.ctx, `SELECT setval('outbox_ids', $1) FROM outbox_ids WHERE NOT is_called OR last_value < $1`, int64(m.ID))
	return err
}

// rows calls fn for each row q returns, scanned into dst.
func (t *pgTx) rows(q string, args []any, dst []any, fn func() error) error {
	rows, err := t.tx.Query(t.ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := rows.Scan(dst...); err != nil {
			return err
		}
		if err := fn(); err != nil {
			return err
		}
	}
	return rows.Err()
}

func (t *pgTx) dueOf(id uint64) (time.Time, error) {
	if err := t.flush(); err != nil {
		return time.Time{}, err
	}
	var due *time.Time
	if err := t.tx.QueryRow(t.ctx, `SELECT due FROM games WHERE id = $1`, int64(id)).Scan(&due); err != nil {
		return time.Time{}, fmt.Errorf("store: due of game %d: %w", id, err)
	}
	if due == nil {
		return time.Time{}, nil
	}
	return due.UTC(), nil
}

func (t *pgTx) eachToken(fn func(string, GameRef) error) error {
	var token string
	var doc []byte
	return t.rows(`SELECT token, doc FROM tokens ORDER BY token`, nil, []any{&token, &doc}, func() error {
		var r GameRef
		if err := json.Unmarshal(doc, &r); err != nil {
			return fmt.Errorf("token: %w", err)
		}
		return fn(token, r)
	})
}

func (t *pgTx) eachPlayer(fn func(*PlayerRecord) error) error {
	var doc []byte
	return t.rows(`SELECT doc FROM players ORDER BY address`, nil, []any{&doc}, func() error {
		var rec PlayerRecord
		if err := json.Unmarshal(doc, &rec); err != nil {
			return fmt.Errorf("player: %w", err)
		}
		return fn(&rec)
	})
}

// eachRated reads the rated players by the partial index players_rated.
func (t *pgTx) eachRated(fn func(*PlayerRecord) error) error {
	var doc []byte
	return t.rows(`SELECT doc FROM players WHERE doc ? 'ratings' ORDER BY address`, nil, []any{&doc}, func() error {
		var rec PlayerRecord
		if err := json.Unmarshal(doc, &rec); err != nil {
			return fmt.Errorf("player: %w", err)
		}
		return fn(&rec)
	})
}

// RatedPage reads the page from the index ratings_order (each row holds its line: no
// player's record is read), and the count from the counter kept with the rows.
func (t *pgTx) RatedPage(variant string, skip, limit int) ([]RatedEntry, int, error) {
	count, err := t.counter("rated/" + variant)
	if err != nil {
		return nil, 0, err
	}
	n := int(count)
	var out []RatedEntry
	var addr string
	var line []byte
	err = t.rows(`SELECT address, entry FROM ratings WHERE variant = $1 ORDER BY rating DESC, address OFFSET $2 LIMIT $3`,
		[]any{variant, skip, limit}, []any{&addr, &line}, func() error {
			e := RatedEntry{Address: addr}
			if err := json.Unmarshal(line, &e.PlayerRating); err != nil {
				return err
			}
			out = append(out, e)
			return nil
		})
	if err != nil {
		return nil, 0, fmt.Errorf("store: rated players of %s: %w", variant, err)
	}
	return out, n, nil
}

// RatedVariants walks down the index ratings_order from one game to the next (a loose index
// scan: a step per game, whatever the number of rated players).
func (t *pgTx) RatedVariants() ([]string, error) {
	var out []string
	var v string
	err := t.rows(ratedVariantsSQL, nil, []any{&v}, func() error { out = append(out, v); return nil })
	if err != nil {
		return nil, fmt.Errorf("store: rated variants: %w", err)
	}
	return out, nil
}

const ratedVariantsSQL = `WITH RECURSIVE v (variant) AS (
		(SELECT variant FROM ratings ORDER BY variant LIMIT 1)
		UNION ALL
		SELECT (SELECT r.variant FROM ratings r WHERE r.variant > v.variant ORDER BY r.variant LIMIT 1) FROM v WHERE v.variant IS NOT NULL)
	SELECT variant FROM v WHERE variant IS NOT NULL`

// putRatings keeps the rows of ratings (and each game's count) as rec's ratings are, when
// they changed from was's (the record the transaction read; nil: unknown, read from the rows).
func (t *pgTx) putRatings(rec *PlayerRecord, was []byte) error {
	type line struct {
		variant string
		rating  float64
		entry   string
	}
	now := map[string]line{}
	for _, r := range rec.Ratings {
		r.History = nil
		b, err := json.Marshal(r)
		if err != nil {
			return err
		}
		now[r.Variant] = line{r.Variant, r.Rating, string(b)}
	}
	old := map[string]line{}
	if was != nil {
		var w PlayerRecord
		if err := json.Unmarshal(was, &w); err != nil {
			return err
		}
		for _, r := range w.Ratings {
			r.History = nil
			b, err := json.Marshal(r)
			if err != nil {
				return err
			}
			old[r.Variant] = line{r.Variant, r.Rating, string(b)}
		}
	} else {
		var v, e string
		var r float64
		if err := t.rows(`SELECT variant, rating, entry::TEXT FROM ratings WHERE address = $1`, []any{rec.Address}, []any{&v, &r, &e},
			func() error { old[v] = line{v, r, e}; return nil }); err != nil {
			return err
		}
	}
	var gone []string
	for v := range old {
		if _, ok := now[v]; !ok {
			gone = append(gone, v)
		}
	}
	var vs, es []string
	var rs []float64
	for v, l := range now {
		if o, ok := old[v]; !ok || o.rating != l.rating || o.entry != l.entry {
			vs, rs, es = append(vs, v), append(rs, l.rating), append(es, l.entry)
		}
	}
	if len(gone) > 0 {
		if _, err := t.tx.Exec(t.ctx, `DELETE FROM ratings WHERE address = $1 AND variant = ANY($2)`, rec.Address, gone); err != nil {
			return err
		}
	}
	if len(vs) > 0 {
		if _, err := t.tx.Exec(t.ctx, `INSERT INTO ratings (address, variant, rating, entry)
			SELECT $1, v, r, e::JSONB FROM unnest($2::TEXT[], $3::FLOAT8[], $4::TEXT[]) AS x (v, r, e)
			ON CONFLICT (address, variant) DO UPDATE SET rating = excluded.rating, entry = excluded.entry`, rec.Address, vs, rs, es); err != nil {
			return err
		}
	}
	// The versions of the lists whose order changed: a line that came, went or moved.
	for v, l := range now {
		if o, ok := old[v]; !ok || o.rating != l.rating {
			if _, err := t.next("ratedv/" + v); err != nil {
				return err
			}
		}
	}
	for _, v := range gone {
		if _, err := t.next("ratedv/" + v); err != nil {
			return err
		}
	}
	// The counts: one more for each game he is newly rated in, one less for each he is not.
	for v := range now {
		if _, ok := old[v]; !ok {
			if _, err := t.next("rated/" + v); err != nil {
				return err
			}
		}
	}
	for _, v := range gone {
		if _, err := t.tx.Exec(t.ctx, `UPDATE counters SET value = value - 1 WHERE name = $1`, "rated/"+v); err != nil {
			return err
		}
	}
	return nil
}

func (t *pgTx) eachSeen(fn func(uint64, int, string, time.Time) error) error {
	var id int64
	var side int
	var msgid string
	var at time.Time
	return t.rows(`SELECT game, side, message_id, at FROM seen_message_ids ORDER BY game, side, message_id`, nil,
		[]any{&id, &side, &msgid, &at}, func() error { return fn(uint64(id), side, msgid, at.UTC()) })
}

func (t *pgTx) putSeen(id uint64, side int, messageID string, at time.Time) error {
	_, err := t.tx.Exec(t.ctx, `INSERT INTO seen_message_ids (game, side, message_id, at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (game, side, message_id) DO NOTHING`, int64(id), side, messageID, at)
	return err
}

func (t *pgTx) eachProcessed(fn func(InboxKey, time.Time, string) error) error {
	if err := t.flush(); err != nil {
		return err
	}
	var k InboxKey
	var v, u int64
	var at time.Time
	var fp string
	return t.rows(`SELECT mailbox, uidvalidity, uid, content, at, fingerprint FROM processed`+inboxOrder, nil,
		[]any{&k.Mailbox, &v, &u, &k.Content, &at, &fp}, func() error {
			k.UIDValidity, k.UID = uint32(v), uint32(u)
			return fn(k, at.UTC(), fp)
		})
}

func (t *pgTx) putProcessed(k InboxKey, at time.Time, fingerprint string) error {
	_, err := t.tx.Exec(t.ctx, `INSERT INTO processed (mailbox, uidvalidity, uid, content, at, fingerprint)
		VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (mailbox, uidvalidity, uid, content) DO NOTHING`,
		append(keyArgs(k), at, fingerprint)...)
	return err
}

func (t *pgTx) eachSent(after uint64, max int, fn func(OutMail) error) error {
	out, err := t.outMails(fmt.Sprintf(`SELECT jsonb_set(doc, '{id}', to_jsonb(id)), raw FROM sent WHERE id > %d ORDER BY id LIMIT %d`, after, max))
	if err != nil {
		return err
	}
	for _, m := range out {
		if err := fn(m); err != nil {
			return err
		}
	}
	return nil
}

func (t *pgTx) eachMeta(fn func(key, value string) error) error {
	var key string
	var n int64
	if err := t.rows(`SELECT name, value FROM counters WHERE name LIKE 'count/%' ORDER BY name`, nil, []any{&key, &n},
		func() error { return fn(key, strconv.FormatInt(n, 10)) }); err != nil {
		return err
	}
	var value string
	return t.rows(`SELECT key, value FROM settings ORDER BY key`, nil, []any{&key, &value}, func() error { return fn(key, value) })
}

func (t *pgTx) putMeta(key, value string) error {
	if strings.HasPrefix(key, "count/") {
		n, err := strconv.ParseUint(value, 10, 64)
		if err != nil {
			return fmt.Errorf("meta %s: %w", key, err)
		}
		return t.atLeast(key, n)
	}
	_, err := t.tx.Exec(t.ctx, `INSERT INTO settings (key, value) VALUES ($1, $2)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`, key, value)
	return err
}

var _ copier = (*pgTx)(nil)
