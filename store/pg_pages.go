package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/jackc/pgx/v5"
)

// The pages read from a point on PostgreSQL (pages.go): each statement seeks the point in an
// index (ratings_order; games_state, games_status, games_variant or the key) and reads the
// page's rows, and one more to know whether the list goes on.

func (t *pgTx) GameIDsFrom(status Status, variant string, id uint64, back bool, limit int) ([]uint64, bool, error) {
	if err := t.flush(); err != nil {
		return nil, false, err
	}
	// One query text for each filter and direction, so that each is planned on its index.
	q, args := `SELECT id FROM games WHERE`, []any{}
	if status != "" {
		args = append(args, string(status))
		q += fmt.Sprintf(` status = $%d AND`, len(args))
	}
	if variant != "" {
		args = append(args, variant)
		q += fmt.Sprintf(` variant = $%d AND`, len(args))
	}
	from := int64(min(id, math.MaxInt64))
	if back {
		q += fmt.Sprintf(` id > $%d ORDER BY id LIMIT $%d`, len(args)+1, len(args)+2)
	} else {
		if id == 0 {
			from = math.MaxInt64
		}
		q += fmt.Sprintf(` id < $%d ORDER BY id DESC LIMIT $%d`, len(args)+1, len(args)+2)
	}
	ids, err := t.ids(q, append(args, from, limit+1)...)
	if err != nil {
		return nil, false, fmt.Errorf("store: list games: %w", err)
	}
	more := len(ids) > limit
	ids = ids[:min(len(ids), limit)]
	if back {
		slices.Reverse(ids)
	}
	return ids, more, nil
}

// ratedLines reads lines of a rating list with the rating they are ordered by.
func (t *pgTx) ratedLines(q string, args ...any) ([]ratedLine, error) {
	var out []ratedLine
	var l ratedLine
	var entry []byte
	err := t.rows(q, args, []any{&l.Address, &entry, &l.rating}, func() error {
		l.PlayerRating = PlayerRating{}
		if err := json.Unmarshal(entry, &l.PlayerRating); err != nil {
			return fmt.Errorf("rating of %s: %w", l.Address, err)
		}
		out = append(out, l)
		return nil
	})
	return out, err
}

func (t *pgTx) RatedFrom(variant string, at RatedAt, back bool, limit int) (RatedSlice, error) {
	s, err := t.ratedFrom(variant, at, back, limit)
	if err != nil {
		return RatedSlice{}, fmt.Errorf("store: rated players of %s: %w", variant, err)
	}
	return s, nil
}

func (t *pgTx) ratedFrom(variant string, at RatedAt, back bool, limit int) (RatedSlice, error) {
	const cols = `SELECT address, entry, rating FROM ratings WHERE variant = $1`
	finite := !math.IsInf(at.Rating, 0) && !math.IsNaN(at.Rating)
	if !back {
		// The lines of the point's rating past its ties (the first one after them found on the
		// index alone), then those rated below it.
		var lines []ratedLine
		if finite {
			from, err := t.tieAt(variant, at.Rating, at.Ties)
			if err == nil && from != nil {
				lines, err = t.ratedLines(cols+` AND rating = $2 AND address >= $3 ORDER BY address LIMIT $4`, variant, at.Rating, *from, limit+1)
			}
			if err != nil {
				return RatedSlice{}, err
			}
		}
		first := 0
		if len(lines) > 0 {
			first = at.Ties
		}
		if len(lines) <= limit {
			below, err := t.ratedLines(cols+` AND rating < $2 ORDER BY rating DESC, address LIMIT $3`, variant, at.Rating, limit+1-len(lines))
			if err != nil {
				return RatedSlice{}, err
			}
			lines = append(lines, below...)
		}
		more := len(lines) > limit
		return ratedSlice(lines[:min(len(lines), limit)], at, false, first, more), nil
	}
	// Back: the last limit+1 of the point's first ties (the first of them found on the index
	// alone), then the lines rated above it, read upward, to limit+1 lines in all.
	var ties []ratedLine
	lo := 0 // the place among its ties of ties[0]
	if finite && at.Ties > 0 {
		// n: the lines of the rating before the point (fewer than it passes when the list has
		// fewer now: all of them).
		n := at.Ties
		last, err := t.tieAt(variant, at.Rating, n-1)
		if err == nil && last == nil {
			err = t.tx.QueryRow(t.ctx, `SELECT count(*) FROM ratings WHERE variant = $1 AND rating = $2`, variant, at.Rating).Scan(&n)
		}
		var from *string
		if err == nil && n > 0 {
			from, err = t.tieAt(variant, at.Rating, max(n-limit-1, 0))
		}
		if err == nil && from != nil {
			lo = max(n-limit-1, 0)
			ties, err = t.ratedLines(cols+` AND rating = $2 AND address >= $3 ORDER BY address LIMIT $4`, variant, at.Rating, *from, n-lo)
		}
		if err != nil {
			return RatedSlice{}, err
		}
	}
	if len(ties) > limit { // the page is ties only, and more lie before it
		cut := len(ties) - limit
		return ratedSlice(ties[cut:], at, true, lo+cut, true), nil
	}
	above, err := t.ratedLines(cols+` AND rating > $2 ORDER BY rating, address DESC LIMIT $3`, variant, at.Rating, limit+1-len(ties))
	if err != nil {
		return RatedSlice{}, err
	}
	slices.Reverse(above)
	more := len(above)+len(ties) > limit
	if more {
		above = above[1:]
	}
	first := lo
	if len(above) > 0 { // the first line's place among the lines of its rating
		if first, err = t.tiesBefore(variant, above[0].rating, above[0].Address); err != nil {
			return RatedSlice{}, err
		}
	}
	return ratedSlice(append(above, ties...), at, true, first, more), nil
}

// tieAt is the address of the line at place k (from 0) among variant's lines rated rating,
// read from the index alone; nil past them.
func (t *pgTx) tieAt(variant string, rating float64, k int) (*string, error) {
	var a string
	err := t.tx.QueryRow(t.ctx, `SELECT address FROM ratings WHERE variant = $1 AND rating = $2 ORDER BY address OFFSET $3 LIMIT 1`,
		variant, rating, k).Scan(&a)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	return &a, err
}

func (t *pgTx) RatedPlace(variant string, place int) (RatedAt, error) {
	var at RatedAt
	var addr string
	err := t.tx.QueryRow(t.ctx, `SELECT rating, address FROM ratings WHERE variant = $1 ORDER BY rating DESC, address OFFSET $2 LIMIT 1`,
		variant, place).Scan(&at.Rating, &addr)
	if errors.Is(err, pgx.ErrNoRows) {
		return RatedEnd, nil
	}
	if err == nil {
		at.Ties, err = t.tiesBefore(variant, at.Rating, addr)
	}
	if err != nil {
		return RatedAt{}, fmt.Errorf("store: rated players of %s: %w", variant, err)
	}
	return at, nil
}

// tiesBefore is how many lines of variant's list rated rating come before address's.
func (t *pgTx) tiesBefore(variant string, rating float64, address string) (int, error) {
	var n int
	err := t.tx.QueryRow(t.ctx, `SELECT count(*) FROM ratings WHERE variant = $1 AND rating = $2 AND address < $3`, variant, rating, address).Scan(&n)
	return n, err
}

func (t *pgTx) RatedRank(variant string, at RatedAt) (int, error) {
	var n int
	err := t.tx.QueryRow(t.ctx, `SELECT (SELECT count(*) FROM ratings WHERE variant = $1 AND rating > $2)
		+ (SELECT count(*) FROM (SELECT 1 FROM ratings WHERE variant = $1 AND rating = $2 LIMIT $3) x)`,
		variant, at.Rating, at.Ties).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("store: rank in %s: %w", variant, err)
	}
	return n, nil
}

func (t *pgTx) RatedVersion(variant string) (uint64, error) {
	return t.counter("ratedv/" + variant)
}
