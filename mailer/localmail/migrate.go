package localmail

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	bolt "go.etcd.io/bbolt"
)

// Earlier versions kept the local mail as a journal of every change ever made (an "ops"
// bucket of localmail.db), replayed into memory at each start. migrate replays such a
// journal once into the disk store, with the same UIDVALIDITY and UIDs (the intake's keys
// rely on them), writes each message to its file as the replay reaches it, and then drops
// the journal and compacts the file. The referee's Processed folder is not carried over: its
// mail is in the referee's store already. A crash during the migration leaves the journal, and
// the next start does it again from the beginning.

// oldOp is one journaled change of the earlier versions.
type oldOp struct {
	Op      string            `json:"op"`
	User    string            `json:"user"`
	Mailbox string            `json:"mailbox,omitempty"`
	Dest    string            `json:"dest,omitempty"`
	UIDs    *imap.UIDSet      `json:"uids,omitempty"`
	FlagOp  imap.StoreFlagsOp `json:"flag_op,omitempty"`
	Flags   []imap.Flag       `json:"flags,omitempty"`
	Time    time.Time         `json:"time,omitzero"`
	Raw     []byte            `json:"raw,omitempty"`
}

// oldUser is a user during the replay; its mailboxes are the new store's, in memory.
type oldUser struct {
	u       *user
	counter uint32 // the earlier versions' UIDVALIDITY: a counter per user
}

func (s *Server) migrate() error {
	d := s.disk
	var has bool
	d.db.View(func(tx *bolt.Tx) error { has = tx.Bucket(bOps) != nil; return nil })
	if !has {
		return nil
	}
	// Start clean: whatever an interrupted migration wrote goes.
	if err := d.db.Update(func(tx *bolt.Tx) error {
		for _, b := range [][]byte{bUsers, bBoxes, bMsgs} {
			if err := tx.DeleteBucket(b); err != nil {
				return err
			}
			if _, err := tx.CreateBucket(b); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return fmt.Errorf("localmail: migrate: %w", err)
	}
	if err := os.RemoveAll(d.dir); err != nil {
		return fmt.Errorf("localmail: migrate: %w", err)
	}
	if err := os.MkdirAll(d.dir, 0o700); err != nil {
		return fmt.Errorf("localmail: migrate: %w", err)
	}

	users := map[string]*oldUser{}
	var nextID uint32
	var maxValidity uint32
	newBox := func(ou *oldUser, name string) *mailbox {
		nextID++
		ou.counter++
		maxValidity = max(maxValidity, ou.counter)
		return &mailbox{id: nextID, user: ou.u, name: name, uidValidity: ou.counter, uidNext: 1}
	}
	add := func(b *mailbox, raw []byte, t time.Time, flags []imap.Flag) error {
		uid := b.uidNext
		b.uidNext++
		if err := os.WriteFile(d.path(b.id, uid), raw, 0o600); err != nil {
			return err
		}
		b.msgs = append(b.msgs, &message{uid: uid, t: t, size: int64(len(raw)), flags: canonicalFlags(flags)})
		b.size += int64(len(raw))
		return nil
	}
	link := func(from, to *mailbox, m *message) error {
		uid := to.uidNext
		to.uidNext++
		if err := os.Link(d.path(from.id, m.uid), d.path(to.id, uid)); err != nil {
			return err
		}
		to.msgs = append(to.msgs, &message{uid: uid, t: m.t, size: m.size, flags: slices.Clone(m.flags)})
		to.size += m.size
		return nil
	}
	remove := func(b *mailbox, gone func(m *message) bool) {
		b.msgs = slices.DeleteFunc(b.msgs, func(m *message) bool {
			if gone(m) {
				b.size -= m.size
				os.Remove(d.path(b.id, m.uid))
				return true
			}
			return false
		})
	}
	apply := func(o oldOp) error {
		if o.Op == "user" {
			if users[o.User] == nil {
				ou := &oldUser{u: &user{addr: o.User, boxes: map[string]*mailbox{}}}
				ou.u.boxes["INBOX"] = newBox(ou, "INBOX")
				users[o.User] = ou
			}
			return nil
		}
		ou := users[o.User]
		if ou == nil {
			return nil // as before: a change that failed when it was made fails again
		}
		boxes := ou.u.boxes
		b := boxes[o.Mailbox]
		switch o.Op {
		case "create":
			if name := strings.TrimRight(o.Mailbox, "/"); boxes[name] == nil {
				boxes[name] = newBox(ou, name)
			}
			return nil
		case "delete":
			if b != nil {
				remove(b, func(*message) bool { return true })
				delete(boxes, o.Mailbox)
			}
			return nil
		case "rename":
			if name := strings.TrimRight(o.Dest, "/"); b != nil && boxes[name] == nil {
				b.name = name
				boxes[name] = b
				delete(boxes, o.Mailbox)
			}
			return nil
		case "subscribe", "unsubscribe":
			if b != nil {
				b.subscribed = o.Op == "subscribe"
			}
			return nil
		case "append":
			if b != nil {
				return add(b, o.Raw, o.Time, o.Flags)
			}
			return nil
		}
		if b == nil {
			return nil
		}
		in := func(m *message) bool { return o.UIDs != nil && staticUIDSet(*o.UIDs, b.uidNext-1).Contains(m.uid) }
		switch o.Op {
		case "copy", "move":
			dest := boxes[o.Dest]
			if dest == nil || dest == b {
				return nil
			}
			for _, m := range b.msgs {
				if in(m) {
					if err := link(b, dest, m); err != nil {
						return err
					}
				}
			}
			if o.Op == "move" {
				remove(b, in)
			}
		case "store":
			for _, m := range b.msgs {
				if !in(m) {
					continue
				}
				switch o.FlagOp {
				case imap.StoreFlagsSet:
					m.flags = canonicalFlags(o.Flags)
				case imap.StoreFlagsAdd:
					m.flags = canonicalFlags(append(m.flags, o.Flags...))
				case imap.StoreFlagsDel:
					m.flags = slices.DeleteFunc(m.flags, func(f imap.Flag) bool {
						return slices.ContainsFunc(o.Flags, func(g imap.Flag) bool { return strings.EqualFold(string(f), string(g)) })
					})
				}
			}
		case "expunge":
			remove(b, func(m *message) bool { return m.has(imap.FlagDeleted) && (o.UIDs == nil || in(m)) })
		}
		return nil
	}
	ops := 0
	if err := d.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bOps).ForEach(func(k, v []byte) error {
			var o oldOp
			if err := json.NewDecoder(bytes.NewReader(v)).Decode(&o); err != nil {
				return fmt.Errorf("journal entry %x: %w", k, err)
			}
			ops++
			return apply(o)
		})
	}); err != nil {
		return fmt.Errorf("localmail: migrate the journal: %w", err)
	}
	// The referee's Processed folder holds mail its store has taken in: no second copy is kept
	// any more (the intake deletes what it has stored).
	if ou := users[s.canonical(s.Referee)]; ou != nil {
		if b := ou.u.boxes["Processed"]; b != nil {
			remove(b, func(*message) bool { return true })
			delete(ou.u.boxes, "Processed")
		}
	}
	if err := d.db.Update(func(tx *bolt.Tx) error {
		for addr, ou := range users {
			if err := tx.Bucket(bUsers).Put([]byte(addr), nil); err != nil {
				return err
			}
			for _, b := range ou.u.boxes {
				if err := putBox(tx, b); err != nil {
					return err
				}
				for _, m := range b.msgs {
					if err := putMsg(tx, b, m); err != nil {
						return err
					}
				}
			}
		}
		// New mailboxes get IDs and UIDVALIDITY values above every migrated one.
		if err := tx.Bucket(bBoxes).SetSequence(uint64(max(nextID, maxValidity))); err != nil {
			return err
		}
		return tx.DeleteBucket(bOps)
	}); err != nil {
		return fmt.Errorf("localmail: migrate the journal: %w", err)
	}
	// The journal's pages are free now: give them back.
	path := d.db.Path()
	if err := d.db.Close(); err != nil {
		return fmt.Errorf("localmail: migrate: %w", err)
	}
	tmp := path + ".compact"
	if err := compactFile(path, tmp); err != nil {
		os.Remove(tmp)
	} else if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		return fmt.Errorf("localmail: open %s: %w", path, err)
	}
	d.db = db
	s.logInfo("local mail: the journal of an earlier version moved to the disk store", "changes", ops, "users", len(users), "dir", filepath.Dir(path))
	return nil
}

// compactFile copies the bbolt file src into a new dst without its free pages.
func compactFile(src, dst string) error {
	from, err := bolt.Open(src, 0o600, &bolt.Options{Timeout: time.Second, ReadOnly: true})
	if err != nil {
		return err
	}
	defer from.Close()
	to, err := bolt.Open(dst, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		return err
	}
	if err := bolt.Compact(to, from, 64<<20); err != nil {
		to.Close()
		return err
	}
	return to.Close()
}
