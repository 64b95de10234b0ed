package store

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// What Copy needs of the bbolt file beyond the Tx methods (copy.go).

// putAs writes v under id in bucket name and moves the bucket's sequence past id.
func (t *boltTx) putAs(name []byte, id uint64, v any) error {
	b := t.tx.Bucket(name)
	if b.Sequence() < id {
		if err := b.SetSequence(id); err != nil {
			return err
		}
	}
	return putJSON(b, u64(id), v)
}

func (t *boltTx) putTournamentAs(tr *Tournament) error { return t.putAs(bTournaments, tr.ID, tr) }

func (t *boltTx) putOutboxAs(m OutMail) error {
	if b := t.tx.Bucket(bOutbox); b.Sequence() < m.ID {
		if err := b.SetSequence(m.ID); err != nil {
			return err
		}
	}
	return t.putOutbox(m, true)
}

func (t *boltTx) dueOf(id uint64) (time.Time, error) {
	key := t.tx.Bucket(bDueOf).Get(u64(id))
	if len(key) < 8 {
		return time.Time{}, nil
	}
	return time.Unix(int64(binary.BigEndian.Uint64(key)), 0).UTC(), nil
}

func (t *boltTx) eachToken(fn func(string, GameRef) error) error {
	return t.tx.Bucket(bTokens).ForEach(func(k, v []byte) error {
		var r GameRef
		if err := json.Unmarshal(v, &r); err != nil {
			return fmt.Errorf("token: %w", err)
		}
		return fn(string(k), r)
	})
}

func (t *boltTx) eachPlayer(fn func(*PlayerRecord) error) error {
	return t.tx.Bucket(bPlayers).ForEach(func(k, v []byte) error {
		var rec PlayerRecord
		if err := json.Unmarshal(v, &rec); err != nil {
			return fmt.Errorf("player %s: %w", k, err)
		}
		return fn(&rec)
	})
}

// seenKey is the key of a seen Message-ID: the game's id, then "/side/Message-ID".
func seenKey(id uint64, side int, messageID string) []byte {
	return append(u64(id), []byte(fmt.Sprintf("/%d/%s", side, messageID))...)
}

func (t *boltTx) eachSeen(fn func(uint64, int, string, time.Time) error) error {
	return t.tx.Bucket(bSeen).ForEach(func(k, v []byte) error {
		if len(k) < 10 || k[8] != '/' {
			return fmt.Errorf("seen message id: bad key %q", k)
		}
		side, msgid, ok := strings.Cut(string(k[9:]), "/")
		s, err := strconv.Atoi(side)
		if !ok || err != nil {
			return fmt.Errorf("seen message id: bad key %q", k)
		}
		at, _ := time.Parse(time.RFC3339, string(v))
		return fn(binary.BigEndian.Uint64(k[:8]), s, msgid, at)
	})
}

func (t *boltTx) putSeen(id uint64, side int, messageID string, at time.Time) error {
	return t.tx.Bucket(bSeen).Put(seenKey(id, side, messageID), []byte(at.UTC().Format(time.RFC3339)))
}

// inboxKeyOf reads a key as InboxKey.bytes writes it.
func inboxKeyOf(b []byte) (InboxKey, error) {
	i := strings.IndexByte(string(b), 0)
	if i < 0 || len(b) < i+9 {
		return InboxKey{}, fmt.Errorf("bad inbox key %q", b)
	}
	return InboxKey{Mailbox: string(b[:i]), UIDValidity: binary.BigEndian.Uint32(b[i+1:]), UID: binary.BigEndian.Uint32(b[i+5:]),
		Content: string(b[i+9:])}, nil
}

func (t *boltTx) eachProcessed(fn func(InboxKey, time.Time, string) error) error {
	return t.tx.Bucket(bProcessed).ForEach(func(k, v []byte) error {
		key, err := inboxKeyOf(k)
		if err != nil {
			return err
		}
		var mark processedMark
		if len(v) > 0 && v[0] == '{' {
			if err := json.Unmarshal(v, &mark); err != nil {
				return fmt.Errorf("processed %v: %w", key, err)
			}
		} else {
			mark.At, _ = time.Parse(time.RFC3339, string(v)) // a bare time: written before fingerprints
		}
		return fn(key, mark.At, mark.Fingerprint)
	})
}

func (t *boltTx) putProcessed(k InboxKey, at time.Time, fingerprint string) error {
	return putJSON(t.tx.Bucket(bProcessed), k.bytes(), processedMark{At: at, Fingerprint: fingerprint})
}

func (t *boltTx) eachSent(after uint64, max int, fn func(OutMail) error) error {
	c := t.tx.Bucket(bSent).Cursor()
	raws := t.tx.Bucket(bSentRaw)
	n := 0
	for k, v := c.Seek(u64(after + 1)); k != nil && n < max; k, v = c.Next() {
		var m OutMail
		if err := json.Unmarshal(v, &m); err != nil {
			return fmt.Errorf("sent %d: %w", binary.BigEndian.Uint64(k), err)
		}
		m.ID = binary.BigEndian.Uint64(k) // the key: what the pages go by
		if raw := raws.Get(k); raw != nil {
			var err error
			if m.Raw, err = unpackRaw(raw); err != nil {
				return fmt.Errorf("sent %d: %w", binary.BigEndian.Uint64(k), err)
			}
		}
		if err := fn(m); err != nil {
			return err
		}
		n++
	}
	return nil
}

func (t *boltTx) eachMeta(fn func(key, value string) error) error {
	return t.tx.Bucket(bMeta).ForEach(func(k, v []byte) error {
		key := string(k)
		switch {
		case strings.HasPrefix(key, "count/") && len(v) == 8, key == string(keyPruned) && len(v) == 8:
			return fn(key, strconv.FormatUint(binary.BigEndian.Uint64(v), 10))
		case strings.HasPrefix(key, "setting/"):
			return fn(key, string(v))
		}
		return nil // the schema: each store has its own
	})
}

func (t *boltTx) putMeta(key, value string) error {
	if strings.HasPrefix(key, "setting/") {
		return t.tx.Bucket(bMeta).Put([]byte(key), []byte(value))
	}
	n, err := strconv.ParseUint(value, 10, 64)
	if err != nil {
		return fmt.Errorf("meta %s: %w", key, err)
	}
	return t.tx.Bucket(bMeta).Put([]byte(key), u64(n))
}

var _ copier = (*boltTx)(nil)
