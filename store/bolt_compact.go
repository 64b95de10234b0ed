package store

import (
	"context"
	"slices"

	bolt "go.etcd.io/bbolt"
)

// compactCopy copies every bucket of src, nested ones and their sequences included, into the
// empty dst with its pages filled (as bolt.Compact does), committing every txMax bytes; it
// gives up with ctx's error when ctx ends (a daemon told to stop does not wait for the copy of
// a large store). What dst holds then is to be thrown away.
func compactCopy(ctx context.Context, dst, src *bolt.DB, txMax int) error {
	return src.View(func(stx *bolt.Tx) error {
		c := &liveCopier{ctx: ctx, dst: dst, max: txMax}
		defer func() {
			if c.tx != nil {
				c.tx.Rollback()
			}
		}()
		err := stx.ForEach(func(name []byte, b *bolt.Bucket) error {
			if err := c.bucket(nil, name, b.Sequence()); err != nil {
				return err
			}
			return c.walk([][]byte{name}, b)
		})
		if err != nil {
			return err
		}
		if c.tx == nil {
			return nil
		}
		err = c.tx.Commit()
		c.tx = nil
		return err
	})
}

// liveCopier is compactCopy's write side: the transaction under way on dst, and the bucket last
// written to (found again by its path after each commit).
type liveCopier struct {
	ctx     context.Context
	dst     *bolt.DB
	tx      *bolt.Tx
	size    int // bytes written in tx
	max     int
	n       int // keys copied, for how often ctx is looked at
	cur     *bolt.Bucket
	curPath [][]byte
}

// room commits the transaction under way when adding n bytes would pass max, and begins one
// when none is under way.
func (c *liveCopier) room(n int) error {
	if c.n++; c.n%1024 == 0 {
		if err := c.ctx.Err(); err != nil {
			return err
		}
	}
	if c.tx != nil && c.size+n > c.max {
		err := c.tx.Commit()
		c.tx, c.cur = nil, nil
		if err != nil {
			return err
		}
	}
	if c.tx == nil {
		tx, err := c.dst.Begin(true)
		if err != nil {
			return err
		}
		c.tx, c.size = tx, 0
	}
	c.size += n
	return nil
}

// at is the bucket of dst at path, in the transaction under way.
func (c *liveCopier) at(path [][]byte) *bolt.Bucket {
	if c.cur != nil && slices.EqualFunc(path, c.curPath, func(a, b []byte) bool { return string(a) == string(b) }) {
		return c.cur
	}
	b := c.tx.Bucket(path[0])
	for _, k := range path[1:] {
		b = b.Bucket(k)
	}
	b.FillPercent = 1.0 // written in key order: full pages
	c.cur, c.curPath = b, path
	return b
}

// bucket creates the bucket name under path (at the top when path is empty), with seq.
func (c *liveCopier) bucket(path [][]byte, name []byte, seq uint64) error {
	if err := c.room(len(name)); err != nil {
		return err
	}
	var nb *bolt.Bucket
	var err error
	if len(path) == 0 {
		nb, err = c.tx.CreateBucket(name)
	} else {
		nb, err = c.at(path).CreateBucket(name)
	}
	if err != nil {
		return err
	}
	return nb.SetSequence(seq)
}

// walk copies the keys and nested buckets of b, which is at path in dst too.
func (c *liveCopier) walk(path [][]byte, b *bolt.Bucket) error {
	return b.ForEach(func(k, v []byte) error {
		if v == nil { // a nested bucket
			nb := b.Bucket(k)
			if err := c.bucket(path, k, nb.Sequence()); err != nil {
				return err
			}
			return c.walk(append(slices.Clone(path), k), nb)
		}
		if err := c.room(len(k) + len(v)); err != nil {
			return err
		}
		return c.at(path).Put(k, v)
	})
}
