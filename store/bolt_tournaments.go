package store

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"

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
	return &tr, nil
}

// TournamentCount is how many tournaments the store holds, read without reading them
// (tournaments are never deleted: it is the last id given).
func (t *boltTx) TournamentCount() int {
	if b := t.tx.Bucket(bTournaments); b != nil {
		return int(b.Sequence())
	}
	return 0
}

// LatestTournaments is a page of the tournaments, newest first: skip of them skipped by key,
// at most limit read.
func (t *boltTx) LatestTournaments(skip, limit int) ([]Tournament, error) {
	b := t.tx.Bucket(bTournaments)
	if b == nil {
		return nil, nil
	}
	var out []Tournament
	c := b.Cursor()
	for k, v := c.Last(); k != nil && len(out) < limit; k, v = c.Prev() {
		if skip > 0 {
			skip--
			continue
		}
		var tr Tournament
		if err := json.Unmarshal(v, &tr); err != nil {
			return nil, fmt.Errorf("store: tournament %d: %w", binary.BigEndian.Uint64(k), err)
		}
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
	if err := markRated(t.tx.Bucket(bRated), rec); err != nil {
		return fmt.Errorf("store: put player %s: %w", rec.Address, err)
	}
	return nil
}

// markRated keeps rec's entry in bRated: there while he has a rating.
func markRated(b *bolt.Bucket, rec *PlayerRecord) error {
	if len(rec.Ratings) > 0 {
		return b.Put([]byte(rec.Address), nil)
	}
	return b.Delete([]byte(rec.Address))
}

// indexRated fills bRated from the players' records (schema 6 to 7).
func indexRated(tx *bolt.Tx) error {
	b := tx.Bucket(bRated)
	return tx.Bucket(bPlayers).ForEach(func(k, v []byte) error {
		var rec PlayerRecord
		if err := json.Unmarshal(v, &rec); err != nil {
			return fmt.Errorf("player %s: %w", k, err)
		}
		return markRated(b, &rec)
	})
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
