package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

func (k InboxKey) bytes() []byte {
	b := make([]byte, 0, len(k.Mailbox)+9+len(k.Content))
	b = append(b, k.Mailbox...)
	b = append(b, 0)
	b = binary.BigEndian.AppendUint32(b, k.UIDValidity)
	b = binary.BigEndian.AppendUint32(b, k.UID)
	return append(b, k.Content...)
}

// processedMark is the value of a processed key. Files written before fingerprints held a
// bare RFC 3339 time instead.
type processedMark struct {
	At          time.Time `json:"at"`
	Fingerprint string    `json:"fingerprint,omitempty"`
}

// PutInbound stores a fetched message unless its key is already stored or processed; it
// reports whether it was new.
func (t *boltTx) PutInbounds(ms []InboundMail) ([]bool, error) {
	isNew := make([]bool, len(ms))
	for i, m := range ms {
		var err error
		if isNew[i], err = t.PutInbound(m); err != nil {
			return nil, err
		}
	}
	return isNew, nil
}

func (t *boltTx) PutInbound(m InboundMail) (bool, error) {
	k := m.Key.bytes()
	if t.tx.Bucket(bProcessed).Get(k) != nil || t.tx.Bucket(bInbox).Get(k) != nil {
		return false, nil
	}
	if m.Fetched.IsZero() {
		m.Fetched = t.Now
	}
	if err := t.tx.Bucket(bInboxRaw).Put(k, m.Raw); err != nil {
		return false, fmt.Errorf("store: put inbox %v: %w", m.Key, err)
	}
	m.Raw = nil
	if err := putJSON(t.tx.Bucket(bInbox), k, m); err != nil {
		return false, fmt.Errorf("store: put inbox %v: %w", m.Key, err)
	}
	return true, nil
}

// withRaw gives m, read from its record under key k, its raw mail.
func (t *boltTx) withRaw(k []byte, m *InboundMail) {
	if b := t.tx.Bucket(bInboxRaw); b != nil && m.Raw == nil {
		if raw := b.Get(k); raw != nil {
			m.Raw = append([]byte(nil), raw...)
		}
	}
}

// Inbound returns the stored message with key k.
func (t *boltTx) Inbound(k InboxKey) (*InboundMail, error) {
	var m InboundMail
	if err := getJSON(t.tx.Bucket(bInbox), k.bytes(), &m); err != nil {
		return nil, fmt.Errorf("store: inbox %v: %w", k, err)
	}
	t.withRaw(k.bytes(), &m)
	return &m, nil
}

// PendingInbound lists stored messages not yet processed, in key order.
func (t *boltTx) PendingInbound() ([]InboundMail, error) {
	out, err := decodeAll[InboundMail](t.tx.Bucket(bInbox))
	if err != nil {
		return nil, fmt.Errorf("store: list inbox: %w", err)
	}
	for i := range out {
		t.withRaw(out[i].Key.bytes(), &out[i])
	}
	return out, nil
}

// InboundPage returns waiting mails in key order, after the key after (from the first when
// nil): at most n of them, and no more than maxBytes of raw mail (one at least). Quarantined
// mail is skipped. Paging keeps the memory flat however much mail waits.
func (t *boltTx) InboundPage(after *InboxKey, n int, maxBytes int64) ([]InboundMail, error) {
	c := t.tx.Bucket(bInbox).Cursor()
	var k, v []byte
	if after == nil {
		k, v = c.First()
	} else {
		ak := after.bytes()
		if k, v = c.Seek(ak); k != nil && bytes.Equal(k, ak) {
			k, v = c.Next()
		}
	}
	var out []InboundMail
	var size int64
	raws := t.tx.Bucket(bInboxRaw)
	for ; k != nil && len(out) < n; k, v = c.Next() {
		rawLen := len(v) + len(raws.Get(k))
		if len(out) > 0 && size+int64(rawLen) > maxBytes {
			break
		}
		var m InboundMail
		if err := json.Unmarshal(v, &m); err != nil {
			return nil, fmt.Errorf("store: inbox %x: %w", k, err)
		}
		if !m.Quarantined.IsZero() {
			continue
		}
		t.withRaw(k, &m)
		size += int64(rawLen)
		out = append(out, m)
	}
	return out, nil
}

// InboxAll calls f with every stored mail, waiting or quarantined, in key order, one at a
// time (nothing is held but the one being looked at).
func (t *boltTx) InboxAll(f func(InboundMail) error) error {
	return t.tx.Bucket(bInbox).ForEach(func(k, v []byte) error {
		var m InboundMail
		if err := json.Unmarshal(v, &m); err != nil {
			return fmt.Errorf("store: inbox %x: %w", k, err)
		}
		t.withRaw(k, &m)
		return f(m)
	})
}

// Quarantine sets m aside for the operator: kept with its error, no longer processed.
func (t *boltTx) Quarantine(m InboundMail, why string) error {
	m.Quarantined, m.Error = t.Now, why
	return t.UpdateInbound(m)
}

// Release puts a quarantined mail back in line, its attempts forgotten.
func (t *boltTx) Release(k InboxKey) error {
	m, err := t.Inbound(k)
	if err != nil {
		return err
	}
	m.Quarantined, m.Attempts, m.Error = time.Time{}, 0, ""
	return t.UpdateInbound(*m)
}

// DropInbound deletes a stored mail and records its key as processed, so that the intake
// does not fetch it again.
func (t *boltTx) DropInbound(k InboxKey) error {
	if _, err := t.Inbound(k); err != nil {
		return err
	}
	return t.MarkProcessed(k)
}

// UpdateInbound saves m's record (its attempt count and error); its raw mail stays as it is.
func (t *boltTx) UpdateInbound(m InboundMail) error {
	m.Raw = nil
	if err := putJSON(t.tx.Bucket(bInbox), m.Key.bytes(), m); err != nil {
		return fmt.Errorf("store: update inbox %v: %w", m.Key, err)
	}
	return nil
}

// MarkProcessed records k as done, with the fingerprint of its stored copy, and drops that
// copy from the inbox.
func (t *boltTx) MarkProcessed(k InboxKey) error {
	kb := k.bytes()
	mark := processedMark{At: t.Now.UTC()}
	if raw := t.tx.Bucket(bInbox).Get(kb); raw != nil {
		var m InboundMail
		if err := json.Unmarshal(raw, &m); err == nil {
			mark.Fingerprint = m.Fingerprint
		}
	}
	if err := putJSON(t.tx.Bucket(bProcessed), kb, mark); err != nil {
		return fmt.Errorf("store: mark processed %v: %w", k, err)
	}
	if err := t.tx.Bucket(bInbox).Delete(kb); err != nil {
		return fmt.Errorf("store: mark processed %v: %w", k, err)
	}
	if err := t.tx.Bucket(bInboxRaw).Delete(kb); err != nil {
		return fmt.Errorf("store: mark processed %v: %w", k, err)
	}
	return nil
}

// MarkIgnored records m's key as processed, with its fingerprint, without storing it: mail
// that needs no handling (a stranger's). It reports false, and does nothing, for a key
// already stored or processed.
func (t *boltTx) MarkIgnored(m InboundMail) (bool, error) {
	k := m.Key.bytes()
	if t.tx.Bucket(bProcessed).Get(k) != nil || t.tx.Bucket(bInbox).Get(k) != nil {
		return false, nil
	}
	if err := putJSON(t.tx.Bucket(bProcessed), k, processedMark{At: t.Now.UTC(), Fingerprint: m.Fingerprint}); err != nil {
		return false, fmt.Errorf("store: mark ignored %v: %w", m.Key, err)
	}
	return true, nil
}

// moveInboxRaw (schema 5 to 6) moves the raw mail waiting in the inbox out of its records
// (where JSON held it in base64) into bInboxRaw.
func moveInboxRaw(tx *bolt.Tx) error {
	return moveRaw(tx.Bucket(bInbox), tx.Bucket(bInboxRaw), func(m *InboundMail) *[]byte { return &m.Raw })
}

// moveRaw moves the raw mail held in the JSON records of src (where it was base64) into raws,
// under the same keys; raw points into a record at its raw mail.
func moveRaw[T any](src, raws *bolt.Bucket, raw func(*T) *[]byte) error {
	type moved struct {
		k []byte
		m T
	}
	var all []moved
	if err := src.ForEach(func(k, v []byte) error {
		var m T
		if err := json.Unmarshal(v, &m); err != nil {
			return err
		}
		if len(*raw(&m)) > 0 {
			all = append(all, moved{append([]byte(nil), k...), m})
		}
		return nil
	}); err != nil {
		return err
	}
	for _, x := range all {
		if err := raws.Put(x.k, *raw(&x.m)); err != nil {
			return err
		}
		*raw(&x.m) = nil
		if err := putJSON(src, x.k, x.m); err != nil {
			return err
		}
	}
	return nil
}

// Stored reports whether k waits in the inbox.
func (t *boltTx) Stored(k InboxKey) (bool, error) {
	return t.tx.Bucket(bInbox).Get(k.bytes()) != nil, nil
}

// Processed reports whether k was processed.
func (t *boltTx) Processed(k InboxKey) (bool, error) {
	return t.tx.Bucket(bProcessed).Get(k.bytes()) != nil, nil
}

// Known reports whether k is stored or processed, and the fingerprint of the content it had
// then ("" when the store did not record one).
func (t *boltTx) Known(k InboxKey) (fingerprint string, known bool, err error) {
	kb := k.bytes()
	if raw := t.tx.Bucket(bInbox).Get(kb); raw != nil {
		var m InboundMail
		if json.Unmarshal(raw, &m) == nil {
			return m.Fingerprint, true, nil
		}
		return "", true, nil
	}
	raw := t.tx.Bucket(bProcessed).Get(kb)
	if raw == nil {
		return "", false, nil
	}
	var mark processedMark
	if len(raw) > 0 && raw[0] == '{' && json.Unmarshal(raw, &mark) == nil {
		return mark.Fingerprint, true, nil
	}
	return "", true, nil // a bare time: written before fingerprints
}

// HighestProcessedUID returns the highest UID of mailbox under uidValidity that the store has
// seen (processed or waiting), 0 if none.
func (t *boltTx) HighestProcessedUID(mailbox string, uidValidity uint32) (uint32, error) {
	prefix := append([]byte(mailbox), 0)
	prefix = binary.BigEndian.AppendUint32(prefix, uidValidity)
	var high uint32
	for _, name := range [][]byte{bProcessed, bInbox} {
		c := t.tx.Bucket(name).Cursor()
		for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
			if uid := binary.BigEndian.Uint32(k[len(prefix):]); uid > high {
				high = uid
			}
		}
	}
	return high, nil
}

// Enqueue adds m to the outbox and returns its ID.
func (t *boltTx) Enqueue(m OutMail) (uint64, error) {
	b := t.tx.Bucket(bOutbox)
	id, err := b.NextSequence()
	if err != nil {
		return 0, fmt.Errorf("store: put outbox: %w", err)
	}
	m.ID = id
	m.Created = t.Now
	if err := t.putOutbox(m, true); err != nil {
		return 0, fmt.Errorf("store: put outbox: %w", err)
	}
	return id, nil
}

// putOutbox writes m's record, and its raw mail apart when raw (a new record), or where it
// is kept already (a record queued before bOutboxRaw keeps it in its JSON).
func (t *boltTx) putOutbox(m OutMail, raw bool) error {
	key := u64(m.ID)
	raws := t.tx.Bucket(bOutboxRaw)
	if raw || raws.Get(key) != nil {
		if raw {
			if err := raws.Put(key, m.Raw); err != nil {
				return err
			}
		}
		m.Raw = nil
	}
	return putJSON(t.tx.Bucket(bOutbox), key, m)
}

// Outbox lists the mails waiting for delivery, oldest first.
func (t *boltTx) Outbox() ([]OutMail, error) {
	out, err := decodeAll[OutMail](t.tx.Bucket(bOutbox))
	if err != nil {
		return nil, fmt.Errorf("store: list outbox: %w", err)
	}
	if raws := t.tx.Bucket(bOutboxRaw); raws != nil { // nil: a read-only open of an older file
		for i := range out {
			if v := raws.Get(u64(out[i].ID)); v != nil && out[i].Raw == nil {
				out[i].Raw = bytes.Clone(v)
			}
		}
	}
	return out, nil
}

// OutboxCount is how many mails wait in the outbox, counted without reading them.
func (t *boltTx) OutboxCount() (int, error) {
	n := 0
	c := t.tx.Bucket(bOutbox).Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		n++
	}
	return n, nil
}

// PutOutbox saves a changed outbox entry (attempts, next try, last error).
func (t *boltTx) PutOutbox(m OutMail) error {
	if err := t.putOutbox(m, false); err != nil {
		return fmt.Errorf("store: put outbox %d: %w", m.ID, err)
	}
	return nil
}

// Done moves an outbox entry to the sent bucket: delivered, or failed for good.
func (t *boltTx) Done(m OutMail) error {
	raw := m.Raw
	if len(raw) == 0 {
		raw = bytes.Clone(t.tx.Bucket(bOutboxRaw).Get(u64(m.ID))) // deleted below
	}
	m.Raw = nil // kept apart, as bytes, while it is kept at all
	if err := putJSON(t.tx.Bucket(bSent), u64(m.ID), m); err != nil {
		return fmt.Errorf("store: put sent %d: %w", m.ID, err)
	}
	if len(raw) > 0 {
		packed, err := packRaw(raw)
		if err != nil {
			return fmt.Errorf("store: put sent %d: %w", m.ID, err)
		}
		if err := t.tx.Bucket(bSentRaw).Put(u64(m.ID), packed); err != nil {
			return fmt.Errorf("store: put sent %d: %w", m.ID, err)
		}
	}
	if err := t.tx.Bucket(bOutbox).Delete(u64(m.ID)); err != nil {
		return fmt.Errorf("store: delete outbox %d: %w", m.ID, err)
	}
	if err := t.tx.Bucket(bOutboxRaw).Delete(u64(m.ID)); err != nil {
		return fmt.Errorf("store: delete outbox %d: %w", m.ID, err)
	}
	return nil
}

// SentMails lists delivered and failed mails, oldest first, each with its raw copy while it
// is kept.
func (t *boltTx) SentMails() ([]OutMail, error) {
	out, err := decodeAll[OutMail](t.tx.Bucket(bSent))
	if err != nil {
		return nil, fmt.Errorf("store: list sent: %w", err)
	}
	if raws := t.tx.Bucket(bSentRaw); raws != nil {
		for i := range out {
			if raw := raws.Get(u64(out[i].ID)); raw != nil {
				if out[i].Raw, err = unpackRaw(raw); err != nil {
					return nil, fmt.Errorf("store: sent %d: %w", out[i].ID, err)
				}
			}
		}
	}
	return out, nil
}

// moveSentRaw (schema 4 to 5) moves the raw copies of sent mail out of their records (where
// JSON held them in base64) into bSentRaw.
func moveSentRaw(tx *bolt.Tx) error {
	return moveRaw(tx.Bucket(bSent), tx.Bucket(bSentRaw), func(m *OutMail) *[]byte { return &m.Raw })
}

// PruneBatch is the most sent mails one of Prune's transactions looks at: pruning never holds
// the store's writer for longer than a few mails' work.
const PruneBatch = 256

// keyPruned is where Prune stopped: the key of the last sent mail it has looked at for good.
var keyPruned = []byte("sent-pruned")

// Prune drops the raw copies of mails delivered or given up more than SentRawRetention ago
// and returns how many it dropped. It works in transactions of at most PruneBatch mails, and
// from where it stopped the last time (sent mail is kept in the order it was done): an hourly
// prune costs the mail of the last hour, not all mail ever sent. Together with Compact it
// keeps the file from growing without bound with mail that is done.
func (db *DB) Prune() (int, error) {
	total := 0
	for {
		n, more := 0, false
		err := error(nil)
		if db.pg != nil {
			n, more, err = db.pg.pruneSome(db.Now, PruneBatch)
		} else {
			err = db.bupdate(func(btx *bolt.Tx) (err error) {
				n, more, err = (&boltTx{tx: btx, Now: db.clock()}).pruneSome(PruneBatch)
				return err
			})
		}
		if err != nil {
			return total, err
		}
		total += n
		if !more {
			return total, nil
		}
	}
}

// ForgetProcessed drops the keys of mail processed more than ProcessedRetention ago, in
// transactions of at most PruneBatch keys and at most 16 of them a call, from where the last
// call stopped: the set of processed keys does not grow without bound, and an hourly call
// costs a few small transactions however large it is.
func (db *DB) ForgetProcessed() (int, error) {
	total := 0
	for round := 0; round < 16; round++ {
		n, more := 0, false
		err := error(nil)
		if db.pg != nil {
			n, more, err = db.pg.forgetSome(db.Now, PruneBatch)
		} else {
			err = db.bupdate(func(btx *bolt.Tx) (err error) {
				now := db.clock()
				n, more, err = (&boltTx{tx: btx, Now: now}).forgetSome(now.Add(-ProcessedRetention), PruneBatch)
				return err
			})
		}
		total += n
		if err != nil || !more {
			return total, err
		}
	}
	return total, nil
}

// after moves c to the first key after mark (the first key when mark is nil).
func after(c *bolt.Cursor, mark []byte) (k, v []byte) {
	if mark == nil {
		return c.First()
	}
	if k, v = c.Seek(mark); k != nil && bytes.Equal(k, mark) {
		k, v = c.Next()
	}
	return k, v
}

// pruneSome prunes up to max sent mails after the mark and moves the mark past those that are
// done for good; more reports that there may be others old enough after them.
func (t *boltTx) pruneSome(max int) (pruned int, more bool, err error) {
	b, raws, meta := t.tx.Bucket(bSent), t.tx.Bucket(bSentRaw), t.tx.Bucket(bMeta)
	cutoff := t.Now.Add(-SentRawRetention)
	c := b.Cursor()
	k, v := after(c, meta.Get(keyPruned))
	var drop [][]byte
	var last []byte
	for seen := 0; k != nil && seen < max; k, v = c.Next() {
		seen++
		var m OutMail
		if err := json.Unmarshal(v, &m); err != nil {
			return 0, false, fmt.Errorf("store: prune sent: %w", err)
		}
		done := m.Sent
		if done.IsZero() {
			done = m.Created
		}
		if !done.Before(cutoff) {
			k = nil // the rest is newer: nothing to prune yet
			break
		}
		last = append([]byte(nil), k...)
		if raws.Get(k) != nil {
			drop = append(drop, last)
		}
	}
	for _, id := range drop {
		if err := raws.Delete(id); err != nil {
			return 0, false, fmt.Errorf("store: prune sent: %w", err)
		}
	}
	if last != nil {
		if err := meta.Put(keyPruned, last); err != nil {
			return 0, false, fmt.Errorf("store: prune sent: %w", err)
		}
	}
	return len(drop), k != nil, nil
}

// keyProcessedPruned is where ForgetProcessed stopped: the last processed key it looked at.
var keyProcessedPruned = []byte("processed-pruned")

// forgetSome looks at up to max processed keys after the mark and drops those older than
// cutoff; more is false once it reached the end (the next call starts over).
func (t *boltTx) forgetSome(cutoff time.Time, max int) (forgot int, more bool, err error) {
	b, meta := t.tx.Bucket(bProcessed), t.tx.Bucket(bMeta)
	c := b.Cursor()
	k, v := after(c, meta.Get(keyProcessedPruned))
	var drop [][]byte
	var last []byte
	for seen := 0; k != nil && seen < max; k, v = c.Next() {
		seen++
		last = append([]byte(nil), k...)
		var mark processedMark
		if len(v) > 0 && v[0] == '{' {
			if json.Unmarshal(v, &mark) != nil {
				continue
			}
		} else if mark.At, err = time.Parse(time.RFC3339, string(v)); err != nil {
			continue
		}
		if mark.At.Before(cutoff) {
			drop = append(drop, last)
		}
	}
	for _, key := range drop {
		if err := b.Delete(key); err != nil {
			return 0, false, fmt.Errorf("store: forget processed: %w", err)
		}
	}
	if k == nil { // the end: the next round starts over
		return len(drop), false, meta.Delete(keyProcessedPruned)
	}
	return len(drop), true, meta.Put(keyProcessedPruned, last)
}
