package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// The challenges on PostgreSQL (migration 9): a row each, with the columns the lists look up
// (open, the challenger and the invited address, when it expires) and doc, the record. The
// partial indexes hold the open ones only, as bbolt's indexes do.

func (t *pgTx) putChallengeRow(c *Challenge) error {
	doc, err := jsonDoc(c)
	if err != nil {
		return err
	}
	_, err = t.tx.Exec(t.ctx, `INSERT INTO challenges (id, open, challenger, invited, expires, doc) VALUES ($1, $2, $3, $4, $5, $6)
		ON CONFLICT (id) DO UPDATE SET open = excluded.open, challenger = excluded.challenger, invited = excluded.invited,
			expires = excluded.expires, doc = excluded.doc`,
		int64(c.ID), c.Open(), strings.ToLower(c.From), strings.ToLower(c.To), c.Expires, doc)
	return err
}

// CreateChallenge stores a new challenge, assigning its ID.
func (t *pgTx) CreateChallenge(c *Challenge) error {
	id, err := t.next("challenges")
	if err != nil {
		return fmt.Errorf("store: create challenge: %w", err)
	}
	c.ID, c.Created = id, t.Now
	if err := t.putChallengeRow(c); err != nil {
		return fmt.Errorf("store: create challenge: %w", err)
	}
	return nil
}

// PutChallenge saves c.
func (t *pgTx) PutChallenge(c *Challenge) error {
	if err := t.putChallengeRow(c); err != nil {
		return fmt.Errorf("store: put challenge %d: %w", c.ID, err)
	}
	return nil
}

// Challenge returns challenge id.
func (t *pgTx) Challenge(id uint64) (*Challenge, error) {
	var doc []byte
	err := t.tx.QueryRow(t.ctx, `SELECT doc FROM challenges WHERE id = $1`, int64(id)).Scan(&doc)
	if errors.Is(err, pgx.ErrNoRows) {
		err = ErrNotFound
	}
	var c Challenge
	if err == nil {
		err = json.Unmarshal(doc, &c)
	}
	if err != nil {
		return nil, fmt.Errorf("store: challenge %d: %w", id, err)
	}
	c.ID = id
	return &c, nil
}

// OpenChallenges is a page of the open challenges to anyone, oldest first, and how many there
// are (the index challenges_open_any).
func (t *pgTx) OpenChallenges(skip, limit int) ([]Challenge, int, error) {
	var n int
	if err := t.tx.QueryRow(t.ctx, `SELECT count(*) FROM challenges WHERE open AND invited = ''`).Scan(&n); err != nil {
		return nil, 0, fmt.Errorf("store: open challenges: %w", err)
	}
	out, err := t.challengeRows(`SELECT id, doc FROM challenges WHERE open AND invited = '' ORDER BY id OFFSET $1 LIMIT $2`, skip, limit)
	return out, n, err
}

// ChallengesOf is the open challenges address made or was invited to, oldest first.
func (t *pgTx) ChallengesOf(address string) ([]Challenge, error) {
	a := strings.ToLower(address)
	return t.challengeRows(`SELECT id, doc FROM challenges WHERE open AND (challenger = $1 OR invited = $1) ORDER BY id`, a)
}

// ExpiredChallenges is the ids of at most max open challenges whose time ran out by until.
func (t *pgTx) ExpiredChallenges(until time.Time, max int) ([]uint64, error) {
	var ids []uint64
	var id int64
	err := t.rows(`SELECT id FROM challenges WHERE open AND expires <= $1 ORDER BY expires, id LIMIT $2`, []any{until, max}, []any{&id},
		func() error { ids = append(ids, uint64(id)); return nil })
	if err != nil {
		return nil, fmt.Errorf("store: expired challenges: %w", err)
	}
	return ids, nil
}

// EachChallenge calls fn with every challenge, by id, in pages.
func (t *pgTx) EachChallenge(fn func(*Challenge) error) error {
	var after int64
	for {
		page, err := t.challengeRows(`SELECT id, doc FROM challenges WHERE id > $1 ORDER BY id LIMIT 64`, after)
		if err != nil {
			return err
		}
		for i := range page {
			if err := fn(&page[i]); err != nil {
				return err
			}
		}
		if len(page) < 64 {
			return nil
		}
		after = int64(page[len(page)-1].ID)
	}
}

// putChallengeAs writes c as it was, under its id (Copy).
func (t *pgTx) putChallengeAs(c *Challenge) error {
	if err := t.putChallengeRow(c); err != nil {
		return fmt.Errorf("store: put challenge %d: %w", c.ID, err)
	}
	return t.atLeast("challenges", c.ID)
}

func (t *pgTx) challengeRows(q string, args ...any) ([]Challenge, error) {
	var out []Challenge
	var id int64
	var doc []byte
	err := t.rows(q, args, []any{&id, &doc}, func() error {
		var c Challenge
		if err := json.Unmarshal(doc, &c); err != nil {
			return fmt.Errorf("challenge %d: %w", id, err)
		}
		c.ID = uint64(id) // the row's key
		out = append(out, c)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: challenges: %w", err)
	}
	return out, nil
}
