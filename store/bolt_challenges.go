package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// The challenges on bbolt: bChallenges holds each (id -> JSON); three indexes hold the open
// ones only, and forget a challenge as it closes: bChallengesAny the open challenges to
// anyone (id -> nothing), bChallengesBy each open challenge under its challenger's and its
// invited player's address (address, 0, id -> nothing), bChallengesDue each by when it
// expires (unix seconds, id -> nothing). New buckets in a schema-8 file, made at open like
// every missing bucket: no migration.
var (
	bChallenges    = []byte("challenges")
	bChallengesAny = []byte("challenges-open-any")
	bChallengesBy  = []byte("challenges-open-by")
	bChallengesDue = []byte("challenges-open-due")
)

// CreateChallenge stores a new challenge, assigning its ID.
func (t *boltTx) CreateChallenge(c *Challenge) error {
	id, err := t.tx.Bucket(bChallenges).NextSequence()
	if err != nil {
		return fmt.Errorf("store: create challenge: %w", err)
	}
	c.ID, c.Created = id, t.Now
	if err := t.putChallenge(c); err != nil {
		return fmt.Errorf("store: create challenge: %w", err)
	}
	return nil
}

// PutChallenge saves c; a closed challenge leaves the indexes of open ones.
func (t *boltTx) PutChallenge(c *Challenge) error {
	if err := t.putChallenge(c); err != nil {
		return fmt.Errorf("store: put challenge %d: %w", c.ID, err)
	}
	return nil
}

func (t *boltTx) putChallenge(c *Challenge) error {
	if err := putJSON(t.tx.Bucket(bChallenges), u64(c.ID), c); err != nil {
		return err
	}
	keys := challengeKeys(c)
	for i, b := range [][]byte{bChallengesAny, bChallengesBy, bChallengesDue} {
		for _, k := range keys[i] {
			var err error
			if c.Open() {
				err = t.tx.Bucket(b).Put(k, nil)
			} else {
				err = t.tx.Bucket(b).Delete(k)
			}
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// challengeKeys are c's keys in bChallengesAny, bChallengesBy and bChallengesDue. A
// challenge's addresses and expiry never change once made: its keys are the same whenever
// they are computed.
func challengeKeys(c *Challenge) [3][][]byte {
	var k [3][][]byte
	if c.To == "" {
		k[0] = [][]byte{u64(c.ID)}
	}
	for _, a := range []string{c.From, c.To} {
		if a != "" {
			k[1] = append(k[1], append(append([]byte(strings.ToLower(a)), 0), u64(c.ID)...))
		}
	}
	k[2] = [][]byte{append(u64(uint64(max(c.Expires.Unix(), 0))), u64(c.ID)...)}
	return k
}

// Challenge returns challenge id.
func (t *boltTx) Challenge(id uint64) (*Challenge, error) {
	b := t.tx.Bucket(bChallenges)
	var c Challenge
	if b == nil {
		return nil, fmt.Errorf("store: challenge %d: %w", id, ErrNotFound)
	}
	if err := getJSON(b, u64(id), &c); err != nil {
		return nil, fmt.Errorf("store: challenge %d: %w", id, err)
	}
	c.ID = id
	return &c, nil
}

// OpenChallenges is a page of the open challenges to anyone, oldest first, and how many there
// are.
func (t *boltTx) OpenChallenges(skip, limit int) ([]Challenge, int, error) {
	b := t.tx.Bucket(bChallengesAny)
	if b == nil {
		return nil, 0, nil
	}
	var ids []uint64
	n := 0
	c := b.Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		if n >= skip && len(ids) < limit {
			ids = append(ids, binary.BigEndian.Uint64(k))
		}
		n++
	}
	out, err := t.challenges(ids)
	return out, n, err
}

// ChallengesOf is the open challenges address made or was invited to, oldest first.
func (t *boltTx) ChallengesOf(address string) ([]Challenge, error) {
	b := t.tx.Bucket(bChallengesBy)
	if b == nil {
		return nil, nil
	}
	prefix := append([]byte(strings.ToLower(address)), 0)
	var ids []uint64
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix) && len(k) == len(prefix)+8; k, _ = c.Next() {
		ids = append(ids, binary.BigEndian.Uint64(k[len(prefix):]))
	}
	return t.challenges(ids)
}

// ExpiredChallenges is the ids of at most max open challenges whose time ran out by until.
func (t *boltTx) ExpiredChallenges(until time.Time, max int) ([]uint64, error) {
	b := t.tx.Bucket(bChallengesDue)
	if b == nil {
		return nil, nil
	}
	var ids []uint64
	c := b.Cursor()
	for k, _ := c.First(); k != nil && len(ids) < max; k, _ = c.Next() {
		if len(k) != 16 || int64(binary.BigEndian.Uint64(k)) > until.Unix() {
			break
		}
		ids = append(ids, binary.BigEndian.Uint64(k[8:]))
	}
	return ids, nil
}

// EachChallenge calls fn with every challenge, open or closed, by id.
func (t *boltTx) EachChallenge(fn func(*Challenge) error) error {
	b := t.tx.Bucket(bChallenges)
	if b == nil {
		return nil
	}
	return b.ForEach(func(k, v []byte) error {
		var c Challenge
		if err := json.Unmarshal(v, &c); err != nil {
			return fmt.Errorf("store: challenge %d: %w", binary.BigEndian.Uint64(k), err)
		}
		c.ID = binary.BigEndian.Uint64(k)
		return fn(&c)
	})
}

// putChallengeAs writes c as it was, under its id (Copy).
func (t *boltTx) putChallengeAs(c *Challenge) error {
	b := t.tx.Bucket(bChallenges)
	if c.ID > b.Sequence() {
		if err := b.SetSequence(c.ID); err != nil {
			return err
		}
	}
	return t.putChallenge(c)
}

func (t *boltTx) challenges(ids []uint64) ([]Challenge, error) {
	out := make([]Challenge, 0, len(ids))
	for _, id := range ids {
		c, err := t.Challenge(id)
		if err != nil {
			return nil, err
		}
		out = append(out, *c)
	}
	return out, nil
}
