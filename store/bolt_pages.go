package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// The pages read from a point on bbolt (pages.go): cursors sought to the point in the
// index of ratings (bRatingOrder) and in the ranges of the index of games by status and
// variant (bByState).

// keyRating is the rating a key of bRatingOrder holds after the game's key and its 0
// (ratingKey's, turned back).
func keyRating(b []byte) float64 {
	x := ^binary.BigEndian.Uint64(b)
	if x>>63 == 1 {
		x &^= 1 << 63
	} else {
		x = ^x
	}
	return math.Float64frombits(x)
}

func (t *boltTx) RatedFrom(variant string, at RatedAt, back bool, limit int) (RatedSlice, error) {
	b := t.tx.Bucket(bRatingOrder)
	if b == nil {
		return RatedSlice{Start: at, End: at}, nil
	}
	prefix := append([]byte(variant), 0)
	point := ratingKey(variant, at.Rating, "")
	in := func(k []byte) bool { return len(k) >= len(point) && bytes.HasPrefix(k, prefix) }
	rated := func(k []byte) float64 { return keyRating(k[len(prefix):len(point)]) }
	line := func(k, v []byte) (ratedLine, error) {
		l := ratedLine{RatedEntry: RatedEntry{Address: string(k[len(point):])}, rating: rated(k)}
		if err := json.Unmarshal(v, &l.PlayerRating); err != nil {
			return l, fmt.Errorf("store: rating of %s: %w", l.Address, err)
		}
		return l, nil
	}
	// The point: the first line after it (past at.Ties lines of its rating, when there are).
	c := b.Cursor()
	k, v := c.Seek(point)
	ties := 0
	for ; in(k) && rated(k) == at.Rating && ties < at.Ties; k, v = c.Next() {
		ties++
	}
	var lines []ratedLine
	if !back {
		for ; in(k) && len(lines) < limit; k, v = c.Next() {
			l, err := line(k, v)
			if err != nil {
				return RatedSlice{}, err
			}
			lines = append(lines, l)
		}
		first := 0
		if len(lines) > 0 && lines[0].rating == at.Rating {
			first = ties
		}
		return ratedSlice(lines, at, false, first, in(k)), nil
	}
	// Back: the lines before the point, read backward, then the first one's place among the
	// lines of its rating (the lines of that rating before it: a few, when any).
	if k == nil {
		k, v = c.Last()
	} else {
		k, v = c.Prev()
	}
	for ; in(k) && len(lines) < limit; k, v = c.Prev() {
		l, err := line(k, v)
		if err != nil {
			return RatedSlice{}, err
		}
		lines = append(lines, l)
	}
	more := in(k)
	slices.Reverse(lines)
	first := 0
	if len(lines) > 0 {
		for ; in(k) && rated(k) == lines[0].rating; k, _ = c.Prev() {
			first++
		}
	}
	return ratedSlice(lines, at, true, first, more), nil
}

func (t *boltTx) RatedPlace(variant string, place int) (RatedAt, error) {
	b := t.tx.Bucket(bRatingOrder)
	if b == nil {
		return RatedEnd, nil
	}
	prefix := append([]byte(variant), 0)
	at, c := RatedEnd, b.Cursor()
	for k, _ := c.Seek(prefix); len(k) >= len(prefix)+8 && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		r := keyRating(k[len(prefix) : len(prefix)+8])
		if r != at.Rating {
			at = RatedAt{Rating: r}
		}
		if place == 0 {
			return at, nil
		}
		place--
		at.Ties++
	}
	return RatedEnd, nil
}

func (t *boltTx) GameIDsFrom(status Status, variant string, id uint64, back bool, limit int) ([]uint64, bool, error) {
	b := t.tx.Bucket(bByState)
	if b == nil { // a store opened read-only before its migration
		all, err := t.allGames()
		var ids []uint64
		for i := len(all) - 1; i >= 0; i-- {
			g := &all[i]
			if (status == "" || g.Status == status) && (variant == "" || g.Variant == variant) &&
				(id == 0 || (!back && g.ID < id) || (back && g.ID > id)) {
				ids = append(ids, g.ID)
			}
		}
		if back {
			lo := max(len(ids)-limit, 0)
			return ids[lo:], lo > 0, err
		}
		return ids[:min(limit, len(ids))], len(ids) > limit, err
	}
	if id == 0 && !back {
		id = math.MaxUint64
	}
	ranges, _ := t.stateRanges(status, variant)
	ids, more := mergeStates(b, ranges, id, back, 0, limit)
	return ids, more, nil
}

// stateRanges are the prefixes of bByState's ranges that hold games with status and of
// variant ("" any), with how many games they hold in all (bStateCount keys in bMeta).
func (t *boltTx) stateRanges(status Status, variant string) ([][]byte, int) {
	var ranges [][]byte
	total := 0
	c := t.tx.Bucket(bMeta).Cursor()
	for k, v := c.Seek(keyStateCount); k != nil && bytes.HasPrefix(k, keyStateCount); k, v = c.Next() {
		st, vr, _ := strings.Cut(string(k[len(keyStateCount):]), "/")
		if n := int(binary.BigEndian.Uint64(v)); n > 0 && (status == "" || Status(st) == status) && (variant == "" || vr == variant) {
			total += n
			ranges = append(ranges, append(append(append([]byte(st), 0), vr...), 0))
		}
	}
	return ranges, total
}

// mergeStates merges bByState's ranges (a status and variant each, ordered by id) into one
// list of ids, newest first: those below id or, back, above it (the nearest limit of them,
// still given newest first); skip of them skipped. more says whether ids lie beyond the last
// read in the direction read.
func mergeStates(b *bolt.Bucket, ranges [][]byte, id uint64, back bool, skip, limit int) ([]uint64, bool) {
	type head struct {
		c      *bolt.Cursor
		prefix []byte
		id     uint64
		ok     bool
	}
	step := func(h *head, k []byte) {
		h.ok = k != nil && bytes.HasPrefix(k, h.prefix)
		if h.ok {
			h.id = binary.BigEndian.Uint64(k[len(k)-8:])
		}
	}
	heads := make([]head, len(ranges))
	for i, p := range ranges {
		h := head{c: b.Cursor(), prefix: p}
		if back { // the first key above id
			if id == math.MaxUint64 {
				continue
			}
			k, _ := h.c.Seek(append(slices.Clone(p), u64(id+1)...))
			step(&h, k)
		} else { // the last key below id
			k, _ := h.c.Seek(append(slices.Clone(p), u64(id)...))
			if k == nil {
				k, _ = h.c.Last()
			} else {
				k, _ = h.c.Prev()
			}
			step(&h, k)
		}
		heads[i] = h
	}
	var ids []uint64
	for n := 0; ; n++ {
		best := -1
		for i := range heads {
			if heads[i].ok && (best < 0 || (!back && heads[i].id > heads[best].id) || (back && heads[i].id < heads[best].id)) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		if len(ids) == limit {
			if back {
				slices.Reverse(ids)
			}
			return ids, true
		}
		if n >= skip {
			ids = append(ids, heads[best].id)
		}
		h := &heads[best]
		if back {
			k, _ := h.c.Next()
			step(h, k)
		} else {
			k, _ := h.c.Prev()
			step(h, k)
		}
	}
	if back {
		slices.Reverse(ids)
	}
	return ids, false
}

func (t *boltTx) RatedRank(variant string, at RatedAt) (int, error) {
	b := t.tx.Bucket(bRatingOrder)
	if b == nil {
		return 0, nil
	}
	prefix := append([]byte(variant), 0)
	point := ratingKey(variant, at.Rating, "")
	n, ties, c := 0, 0, b.Cursor()
	for k, _ := c.Seek(prefix); len(k) >= len(point) && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		switch {
		case bytes.Compare(k[:len(point)], point) < 0: // rated above the point
			n++
		case keyRating(k[len(prefix):len(point)]) == at.Rating && ties < at.Ties:
			ties++
		default:
			return n + ties, nil
		}
	}
	return n + ties, nil
}

func (t *boltTx) RatedVersion(variant string) (uint64, error) {
	return uint64(metaCount(t.tx, append(slices.Clone(keyRatedVersion), variant...))), nil
}
