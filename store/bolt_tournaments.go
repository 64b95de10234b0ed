package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// CreateTournament stores a new tournament, assigning its ID. Its games are created apart
// (CreateGame) in the same transaction, and linked with PutTournament.
func (t *boltTx) CreateTournament(tr *Tournament) error {
	b := t.tx.Bucket(bTournaments)
	id, err := b.NextSequence()
	if err != nil {
		return fmt.Errorf("store: create tournament: %w", err)
	}
	tr.ID = id
	tr.Created, tr.Updated = t.Now, t.Now
	if err := putJSON(b, u64(id), tr); err != nil {
		return fmt.Errorf("store: create tournament: %w", err)
	}
	return nil
}

// PutTournament saves tr.
func (t *boltTx) PutTournament(tr *Tournament) error {
	tr.Updated = t.Now
	if err := putJSON(t.tx.Bucket(bTournaments), u64(tr.ID), tr); err != nil {
		return fmt.Errorf("store: put tournament %d: %w", tr.ID, err)
	}
	return nil
}

// Tournament returns tournament id.
func (t *boltTx) Tournament(id uint64) (*Tournament, error) {
	var tr Tournament
	b := t.tx.Bucket(bTournaments)
	if b == nil {
		return nil, fmt.Errorf("store: tournament %d: %w", id, ErrNotFound)
	}
	if err := getJSON(b, u64(id), &tr); err != nil {
		return nil, fmt.Errorf("store: tournament %d: %w", id, err)
	}
	tr.ID = id // the key, whatever the record says
	return &tr, nil
}

// TournamentCount is how many tournaments the store holds, read without reading them
// (tournaments are never deleted: it is the last id given).
func (t *boltTx) TournamentCount() (int, error) {
	if b := t.tx.Bucket(bTournaments); b != nil {
		return int(b.Sequence()), nil
	}
	return 0, nil
}

// LatestTournaments is a page of the tournaments, newest first, at most limit read.
// Tournaments are never deleted and their ids run from 1: the page begins at the id skip
// below the last, sought, not walked to.
func (t *boltTx) LatestTournaments(skip, limit int) ([]Tournament, error) {
	b := t.tx.Bucket(bTournaments)
	if b == nil || skip >= int(b.Sequence()) {
		return nil, nil
	}
	var out []Tournament
	c := b.Cursor()
	first := b.Sequence() - uint64(skip)
	k, v := c.Seek(u64(first))
	switch {
	case k == nil: // past the last key
		k, v = c.Last()
	case binary.BigEndian.Uint64(k) > first:
		k, v = c.Prev()
	}
	for ; k != nil && len(out) < limit; k, v = c.Prev() {
		var tr Tournament
		if err := json.Unmarshal(v, &tr); err != nil {
			return nil, fmt.Errorf("store: tournament %d: %w", binary.BigEndian.Uint64(k), err)
		}
		tr.ID = binary.BigEndian.Uint64(k)
		out = append(out, tr)
	}
	return out, nil
}

// EachTournament calls fn with every tournament, by id, one at a time.
func (t *boltTx) EachTournament(fn func(*Tournament) error) error {
	b := t.tx.Bucket(bTournaments)
	if b == nil {
		return nil
	}
	return b.ForEach(func(k, v []byte) error {
		var tr Tournament
		if err := json.Unmarshal(v, &tr); err != nil {
			return fmt.Errorf("store: tournament %d: %w", binary.BigEndian.Uint64(k), err)
		}
		tr.ID = binary.BigEndian.Uint64(k)
		return fn(&tr)
	})
}

// PlayerRecord returns what is kept of address (an empty record for an unknown one).
func (t *boltTx) PlayerRecord(address string) (*PlayerRecord, error) {
	rec := &PlayerRecord{Address: address}
	b := t.tx.Bucket(bPlayers)
	if b == nil {
		return rec, nil
	}
	if err := getJSON(b, []byte(address), rec); err != nil && !errors.Is(err, ErrNotFound) {
		return nil, fmt.Errorf("store: player %s: %w", address, err)
	}
	return rec, nil
}

// PutPlayerRecord saves rec.
func (t *boltTx) PutPlayerRecord(rec *PlayerRecord) error {
	if err := putJSON(t.tx.Bucket(bPlayers), []byte(rec.Address), rec); err != nil {
		return fmt.Errorf("store: put player %s: %w", rec.Address, err)
	}
	if err := markRated(t.tx, rec); err != nil {
		return fmt.Errorf("store: put player %s: %w", rec.Address, err)
	}
	return nil
}

// markRated keeps rec's entries in bRated and bRatingOrder: there while he has a rating, his
// order keys those of his ratings now; and the count of each game's rated players
// (keyRatedCount keys in bMeta).
func markRated(tx *bolt.Tx, rec *PlayerRecord) error {
	rated, order := tx.Bucket(bRated), tx.Bucket(bRatingOrder)
	addr := []byte(rec.Address)
	was := map[string]bool{} // his order keys before
	if old := rated.Get(addr); len(old) > 0 {
		var keys [][]byte
		if err := json.Unmarshal(old, &keys); err != nil {
			return fmt.Errorf("rating keys: %w", err)
		}
		for _, k := range keys {
			was[string(k)] = true
			if err := order.Delete(k); err != nil {
				return err
			}
			if i := bytes.IndexByte(k, 0); i >= 0 {
				if err := countRated(tx, string(k[:i]), -1); err != nil {
					return err
				}
			}
		}
	}
	// The versions of the lists whose order changed: a key that came or went.
	now := map[string]bool{}
	for _, r := range rec.Ratings {
		now[string(ratingKey(r.Variant, r.Rating, rec.Address))] = true
	}
	for k := range was {
		if !now[k] {
			if err := addCount(tx, append(slices.Clone(keyRatedVersion), k[:strings.IndexByte(k, 0)]...), 1); err != nil {
				return err
			}
		}
	}
	for _, r := range rec.Ratings {
		if !was[string(ratingKey(r.Variant, r.Rating, rec.Address))] {
			if err := addCount(tx, append(slices.Clone(keyRatedVersion), r.Variant...), 1); err != nil {
				return err
			}
		}
	}
	if len(rec.Ratings) == 0 {
		return rated.Delete(addr)
	}
	keys := make([][]byte, 0, len(rec.Ratings))
	for _, r := range rec.Ratings {
		k := ratingKey(r.Variant, r.Rating, rec.Address)
		r.History = nil // the list's line: the rating as it stands
		line, err := json.Marshal(r)
		if err != nil {
			return err
		}
		if err := order.Put(k, line); err != nil {
			return err
		}
		if err := countRated(tx, r.Variant, 1); err != nil {
			return err
		}
		keys = append(keys, k)
	}
	v, err := json.Marshal(keys)
	if err != nil {
		return err
	}
	return rated.Put(addr, v)
}

// keyRatedCount begins the keys in bMeta that count each game's rated players: "ratedcount/"
// variant -> count (u64). Schema 7; kept by markRated.
var keyRatedCount = []byte("ratedcount/")

// keyRatedVersion begins the keys in bMeta of each game's rating list's version:
// "ratedversion/" variant -> u64, moved by markRated whenever the list's order changes.
var keyRatedVersion = []byte("ratedversion/")

// countRated adds delta to the count of variant's rated players.
func countRated(tx *bolt.Tx, variant string, delta int) error {
	return addCount(tx, append(slices.Clone(keyRatedCount), variant...), delta)
}

// ratingKey is a rating's key in bRatingOrder: the game's key, 0, the rating turned so that
// the best sorts first (its IEEE bits, ordered as numbers, inverted), the address.
func ratingKey(variant string, rating float64, address string) []byte {
	b := math.Float64bits(rating)
	if b>>63 == 1 {
		b = ^b
	} else {
		b |= 1 << 63
	}
	k := append([]byte(variant), 0)
	return append(append(k, u64(^b)...), address...)
}

// RatedPage lists the ratings in variant, best first (then by address): skip of them
// skipped, at most limit, read from the index (each key holds its line: no player's record is
// read); and how many there are (counted as they come and go).
func (t *boltTx) RatedPage(variant string, skip, limit int) ([]RatedEntry, int, error) {
	b := t.tx.Bucket(bRatingOrder)
	if b == nil {
		return nil, 0, nil
	}
	n := metaCount(t.tx, append(slices.Clone(keyRatedCount), variant...))
	prefix := append([]byte(variant), 0)
	var out []RatedEntry
	c := b.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix) && len(out) < limit; k, v = c.Next() {
		if skip > 0 {
			skip--
			continue
		}
		e := RatedEntry{Address: string(k[len(prefix)+8:])}
		if err := json.Unmarshal(v, &e.PlayerRating); err != nil {
			return nil, 0, fmt.Errorf("store: rating of %s: %w", e.Address, err)
		}
		out = append(out, e)
	}
	return out, n, nil
}

// RatedVariants lists the games (their keys) in which someone has a rating, in order.
func (t *boltTx) RatedVariants() ([]string, error) {
	b := t.tx.Bucket(bRatingOrder)
	if b == nil {
		return nil, nil
	}
	var out []string
	c := b.Cursor()
	for k, _ := c.First(); k != nil; {
		i := bytes.IndexByte(k, 0)
		if i < 0 {
			return nil, fmt.Errorf("store: rated variants: bad key %q", k)
		}
		v := string(k[:i])
		out = append(out, v)
		k, _ = c.Seek(append([]byte(v), 1)) // past every key of v
	}
	return out, nil
}

// indexRated fills bRated and bRatingOrder from the players' records, and counts them
// (schema 6 to 7).
func indexRated(tx *bolt.Tx) error {
	if err := deletePrefix(tx.Bucket(bMeta), keyRatedCount); err != nil {
		return err
	}
	return tx.Bucket(bPlayers).ForEach(func(k, v []byte) error {
		var rec PlayerRecord
		if err := json.Unmarshal(v, &rec); err != nil {
			return fmt.Errorf("player %s: %w", k, err)
		}
		return markRated(tx, &rec)
	})
}

// deletePrefix deletes the keys of b that begin with prefix.
func deletePrefix(b *bolt.Bucket, prefix []byte) error {
	var keys [][]byte
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		keys = append(keys, slices.Clone(k))
	}
	for _, k := range keys {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// eachRated calls fn with the record of every player who has a rating, by address.
func (t *boltTx) eachRated(fn func(*PlayerRecord) error) error {
	b, players := t.tx.Bucket(bRated), t.tx.Bucket(bPlayers)
	if b == nil || players == nil {
		return nil
	}
	return b.ForEach(func(k, _ []byte) error {
		var rec PlayerRecord
		if err := getJSON(players, k, &rec); err != nil {
			return fmt.Errorf("player %s: %w", k, err)
		}
		return fn(&rec)
	})
}

// Next counts one more of what key names (say, the mails sent to a tournament's organizer)
// and returns the new count: 1, 2, 3 ... Counters live apart from the records they count,
// so that a record written back from an older copy cannot set one back.
func (t *boltTx) Next(key string) (uint64, error) {
	k := []byte("count/" + key)
	n := uint64(0)
	if v := t.tx.Bucket(bMeta).Get(k); len(v) == 8 {
		n = binary.BigEndian.Uint64(v)
	}
	n++
	if err := t.tx.Bucket(bMeta).Put(k, u64(n)); err != nil {
		return 0, fmt.Errorf("store: count %s: %w", key, err)
	}
	return n, nil
}
