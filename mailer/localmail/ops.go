package localmail

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	bolt "go.etcd.io/bbolt"
)

// Every change below is made under Server.mu: written to the index (synced) first, then made
// in memory, so that nothing is seen or acknowledged that a restart would lose.

var (
	errNoMailbox = &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeNonExistent, Text: "No such mailbox"}
	errTryCreate = &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeTryCreate, Text: "No such mailbox"}
	errExists    = &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeAlreadyExists, Text: "Mailbox already exists"}
	errInbox     = &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeCannot, Text: "INBOX cannot be deleted or renamed"}
	errOverQuota = &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeOverQuota, Text: "Mailbox full: delete some mail first"}
	errBoxName   = &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeCannot, Text: "A mailbox name is 1 to 200 characters of text, its parts separated by /, none empty, . or .."}
	errBoxCount  = &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeLimit, Text: "No more mailboxes: an address has at most 200"}
	errDiskIMAP  = &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeServerBug, Text: "The change could not be kept just now: please try again later"}
)

// maxBoxes is the most mailboxes one address has: a mail client makes a handful.
const maxBoxes = 200

// goodBoxName reports whether name may name a mailbox: text of at most 200 bytes, no control
// character, parts between the delimiters none empty, "." or ".." (no name looks like a path
// out of its place, to a client or to a person reading the server's log).
func goodBoxName(name string) bool {
	if len(name) > 200 || !utf8.ValidString(name) || strings.IndexFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0 {
		return false
	}
	for _, part := range strings.Split(name, "/") {
		if part == "" || part == "." || part == ".." {
			return false
		}
	}
	return true
}

// mailboxName is the canonical name: INBOX in any case is INBOX; no trailing delimiter.
func mailboxName(name string) string {
	name = strings.TrimRight(name, "/")
	if strings.EqualFold(name, "INBOX") {
		return "INBOX"
	}
	return name
}

// addUserLocked creates the user of a canonical address with its INBOX (a no-op if it exists).
func (s *Server) addUserLocked(addr string) (*user, error) {
	if u := s.users[addr]; u != nil {
		return u, nil
	}
	u := &user{addr: addr, boxes: map[string]*mailbox{}}
	var inbox *mailbox
	err := s.disk.update(func(tx *bolt.Tx) error {
		if err := tx.Bucket(bUsers).Put([]byte(addr), nil); err != nil {
			return err
		}
		var err error
		inbox, err = createBox(tx, u, "INBOX", s.now())
		return err
	})
	if err != nil {
		return nil, err
	}
	u.boxes["INBOX"] = inbox
	s.users[addr] = u
	return u, nil
}

// createBox writes a new mailbox of u with a UIDVALIDITY never given before, by this file or
// (as far as a clock can tell) by one it replaced.
func createBox(tx *bolt.Tx, u *user, name string, now time.Time) (*mailbox, error) {
	bk := tx.Bucket(bBoxes)
	seq, err := bk.NextSequence()
	if err != nil {
		return nil, err
	}
	// The time of day added to the count: it never goes back, and a mailbox made again (a new
	// localmail.db beside a referee's store that remembers the old one's UIDs, or a copied
	// store) does not share a UIDVALIDITY with the one before.
	b := &mailbox{id: uint32(seq), user: u, name: name, uidValidity: uint32(now.Unix()) + uint32(seq), uidNext: 1, tracker: imapserver.NewMailboxTracker(0)}
	return b, putBox(tx, b)
}

func putBox(tx *bolt.Tx, b *mailbox) error {
	v, _ := json.Marshal(b.record())
	return tx.Bucket(bBoxes).Put(boxKey(b.user.addr, b.name), v)
}

func putMsg(tx *bolt.Tx, b *mailbox, m *message) error {
	v, _ := json.Marshal(m.record())
	return tx.Bucket(bMsgs).Put(msgKey(b.id, m.uid), v)
}

func (s *Server) createMailbox(u *user, name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	name = mailboxName(name)
	if name == "" || u.boxes[name] != nil {
		return errExists
	}
	if !goodBoxName(name) {
		return errBoxName
	}
	if len(u.boxes) >= maxBoxes {
		return errBoxCount
	}
	var b *mailbox
	if err := s.disk.update(func(tx *bolt.Tx) (err error) { b, err = createBox(tx, u, name, s.now()); return err }); err != nil {
		return s.imapError(err)
	}
	u.boxes[name] = b
	return nil
}

func (s *Server) deleteMailbox(u *user, name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	name = mailboxName(name)
	b := u.boxes[name]
	switch {
	case b == nil:
		return errNoMailbox
	case name == "INBOX":
		return errInbox
	}
	err := s.disk.update(func(tx *bolt.Tx) error {
		for _, m := range b.msgs {
			if err := tx.Bucket(bMsgs).Delete(msgKey(b.id, m.uid)); err != nil {
				return err
			}
		}
		return tx.Bucket(bBoxes).Delete(boxKey(u.addr, name))
	})
	if err != nil {
		return s.imapError(err)
	}
	delete(u.boxes, name)
	for _, m := range b.msgs {
		os.Remove(s.disk.path(b.id, m.uid))
	}
	return nil
}

func (s *Server) renameMailbox(u *user, name, newName string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	name, newName = mailboxName(name), mailboxName(newName)
	b := u.boxes[name]
	switch {
	case b == nil:
		return errNoMailbox
	case name == "INBOX" || newName == "INBOX":
		return errInbox
	case newName == "" || u.boxes[newName] != nil:
		return errExists
	case !goodBoxName(newName):
		return errBoxName
	}
	old := b.name
	b.name = newName
	err := s.disk.update(func(tx *bolt.Tx) error {
		if err := tx.Bucket(bBoxes).Delete(boxKey(u.addr, old)); err != nil {
			return err
		}
		return putBox(tx, b)
	})
	if err != nil {
		b.name = old
		return s.imapError(err)
	}
	delete(u.boxes, old)
	u.boxes[newName] = b
	return nil
}

func (s *Server) subscribe(u *user, name string, on bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := u.boxes[mailboxName(name)]
	if b == nil {
		return errNoMailbox
	}
	was := b.subscribed
	b.subscribed = on
	if err := s.disk.update(func(tx *bolt.Tx) error { return putBox(tx, b) }); err != nil {
		b.subscribed = was
		return s.imapError(err)
	}
	return nil
}

// incoming is a message file to add to a mailbox.
type incoming struct {
	box   *mailbox
	file  string // a file of the store's directory, linked (not moved) into place
	size  int64
	t     time.Time
	flags []imap.Flag
}

// addLocked puts each message into its mailbox: the files linked under their new UIDs, then
// the index, then memory. It returns the UIDs given. Nothing is added if anything fails.
func (s *Server) addLocked(in []incoming, also func(tx *bolt.Tx) error) ([]imap.UID, error) {
	uids := make([]imap.UID, len(in))
	next := map[*mailbox]imap.UID{}
	var linked []string
	undo := func() {
		for _, p := range linked {
			os.Remove(p)
		}
	}
	for i, m := range in {
		uid, ok := next[m.box]
		if !ok {
			uid = m.box.uidNext
		}
		next[m.box] = uid + 1
		uids[i] = uid
		p := s.disk.path(m.box.id, uid)
		os.Remove(p) // a leftover of a crash before its index was written
		if err := os.Link(m.file, p); err != nil {
			undo()
			return nil, err
		}
		linked = append(linked, p)
	}
	err := s.disk.update(func(tx *bolt.Tx) error {
		for i, m := range in {
			if err := putMsg(tx, m.box, &message{uid: uids[i], t: m.t, size: m.size, flags: m.flags}); err != nil {
				return err
			}
		}
		for b, n := range next {
			r := b.record()
			r.UIDNext = uint32(n)
			v, _ := json.Marshal(r)
			if err := tx.Bucket(bBoxes).Put(boxKey(b.user.addr, b.name), v); err != nil {
				return err
			}
		}
		if also != nil {
			return also(tx)
		}
		return nil
	})
	if err != nil {
		undo()
		return nil, err
	}
	for i, m := range in {
		m.box.msgs = append(m.box.msgs, &message{uid: uids[i], t: m.t, size: m.size, flags: m.flags})
		m.box.size += m.size
	}
	for b, n := range next {
		b.uidNext = n
		b.tracker.QueueNumMessages(uint32(len(b.msgs)))
	}
	return uids, nil
}

// expungeLocked takes the messages gone out of b (index, memory, then files) and tells the
// other sessions; it returns their sequence numbers, highest first.
func (s *Server) expungeLocked(b *mailbox, gone map[imap.UID]bool, source *imapserver.SessionTracker) ([]uint32, error) {
	if len(gone) == 0 {
		return nil, nil
	}
	if err := s.disk.update(func(tx *bolt.Tx) error {
		for uid := range gone {
			if err := tx.Bucket(bMsgs).Delete(msgKey(b.id, uid)); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return nil, err
	}
	return s.forgetLocked(b, gone, source), nil
}

// forgetLocked takes messages whose index entries are gone out of memory and off the disk.
func (s *Server) forgetLocked(b *mailbox, gone map[imap.UID]bool, source *imapserver.SessionTracker) []uint32 {
	var seqs []uint32
	for i := len(b.msgs) - 1; i >= 0; i-- {
		m := b.msgs[i]
		if !gone[m.uid] {
			continue
		}
		seqs = append(seqs, uint32(i)+1)
		b.size -= m.size
		b.msgs = append(b.msgs[:i], b.msgs[i+1:]...)
		os.Remove(s.disk.path(b.id, m.uid))
	}
	for _, seq := range seqs {
		b.tracker.QueueExpunge(seq)
	}
	return seqs
}

// imapError is what an IMAP client is told of a failure to keep a change: nothing of the
// disk's detail, which goes to the log.
func (s *Server) imapError(err error) error {
	var ie *imap.Error
	if errors.As(err, &ie) {
		return ie
	}
	s.logError("imap change", "", err)
	return errDiskIMAP
}
