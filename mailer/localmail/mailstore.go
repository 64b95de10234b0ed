package localmail

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// The mail on disk. DIR/localmail.db (bbolt) holds the index: the users, each mailbox with
// its UIDVALIDITY, next UID and subscription, and each message's UID, flags, date and size.
// DIR/localmail.d/ holds the messages, one file each, named by mailbox ID and UID. A start
// reads the index only, so that start-up time and memory follow how many messages are kept,
// never their bytes or how much mail ever came; a message's bytes are read from its file when
// a client fetches or searches them.
//
// Order of writes: a new message's file is written and synced before the index names it,
// and the index forgets a message before its file is removed, so a crash leaves at most
// files that the index does not name; the next start removes them. The index is the truth
// of which messages exist, and it is rewritten in place (bbolt reuses the pages of what was
// deleted), so it never grows with mail that is gone.

var (
	bUsers = []byte("users")     // address -> ""
	bBoxes = []byte("mailboxes") // address \x00 name -> boxRecord JSON; its sequence numbers mailboxes
	bMsgs  = []byte("messages")  // mailbox ID (u32) UID (u32) -> msgRecord JSON
	bOps   = []byte("ops")       // the journal of earlier versions (migrate.go)
)

type boxRecord struct {
	ID          uint32 `json:"id"` // names its messages in the index and on disk
	UIDValidity uint32 `json:"v"`
	UIDNext     uint32 `json:"n"`
	Subscribed  bool   `json:"s,omitempty"`
}

type msgRecord struct {
	Time  time.Time   `json:"t"`
	Size  int64       `json:"z"`
	Flags []imap.Flag `json:"f,omitempty"`
}

// user is one address's mail: its mailboxes by name. Guarded by Server.mu.
type user struct {
	addr  string
	boxes map[string]*mailbox
}

// size is the bytes the user's mail takes, for the quota.
func (u *user) size() int64 {
	var n int64
	for _, b := range u.boxes {
		n += b.size
	}
	return n
}

// mailbox is one mailbox's index in memory. Guarded by Server.mu (tracker has its own lock).
type mailbox struct {
	id          uint32
	user        *user
	name        string
	uidValidity uint32
	uidNext     imap.UID
	subscribed  bool
	msgs        []*message
	size        int64
	tracker     *imapserver.MailboxTracker
}

func (b *mailbox) record() boxRecord {
	return boxRecord{ID: b.id, UIDValidity: b.uidValidity, UIDNext: uint32(b.uidNext), Subscribed: b.subscribed}
}

// message is what memory holds of one message: never its bytes.
type message struct {
	uid   imap.UID
	t     time.Time
	size  int64
	flags []imap.Flag
}

func (m *message) record() msgRecord { return msgRecord{Time: m.t, Size: m.size, Flags: m.flags} }

func (m *message) has(f imap.Flag) bool {
	return slices.ContainsFunc(m.flags, func(g imap.Flag) bool { return strings.EqualFold(string(f), string(g)) })
}

func boxKey(addr, name string) []byte { return []byte(addr + "\x00" + name) }

func msgKey(id uint32, uid imap.UID) []byte {
	return binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(nil, id), uint32(uid))
}

// disk is the store of a Server.
type disk struct {
	db    *bolt.DB
	dir   string // the message files
	temp  string // a directory to remove on close (a Server without Dir)
	fault func(step string) error
}

func openDisk(dir string, fault func(string) error, compactAbove int64) (*disk, error) {
	d := &disk{fault: fault}
	if dir == "" { // tests: a store of their own, gone when the server closes
		tmp, err := os.MkdirTemp("", "localmail-")
		if err != nil {
			return nil, fmt.Errorf("localmail: %w", err)
		}
		dir, d.temp = tmp, tmp
	}
	path := filepath.Join(dir, "localmail.db")
	if err := compactIfMostlyFree(path, compactAbove); err != nil {
		return nil, err
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, fmt.Errorf("localmail: %s is in use by another process", path)
	}
	if err != nil {
		return nil, fmt.Errorf("localmail: open %s: %w", path, err)
	}
	d.db = db
	d.dir = filepath.Join(dir, "localmail.d")
	if err := os.MkdirAll(d.dir, 0o700); err != nil {
		db.Close()
		return nil, fmt.Errorf("localmail: %w", err)
	}
	if err := db.Update(func(tx *bolt.Tx) error {
		for _, b := range [][]byte{bUsers, bBoxes, bMsgs} {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		db.Close()
		return nil, fmt.Errorf("localmail: open %s: %w", path, err)
	}
	return d, nil
}

func (d *disk) close() error {
	err := d.db.Close()
	if d.temp != "" {
		os.RemoveAll(d.temp)
	}
	return err
}

func (d *disk) path(id uint32, uid imap.UID) string {
	return filepath.Join(d.dir, fmt.Sprintf("%08x-%08x", id, uint32(uid)))
}

// update runs f in one synced write transaction.
func (d *disk) update(f func(tx *bolt.Tx) error) error {
	if err := d.step("index"); err != nil {
		return err
	}
	if err := d.db.Update(f); err != nil {
		return fmt.Errorf("localmail: index: %w", err)
	}
	return nil
}

func (d *disk) step(name string) error {
	if d.fault == nil {
		return nil
	}
	return d.fault(name)
}

// load reads the index into users, and removes the files it does not name (a crash's
// leftovers).
func (d *disk) load() (map[string]*user, error) {
	users := map[string]*user{}
	byID := map[uint32]*mailbox{}
	err := d.db.View(func(tx *bolt.Tx) error {
		if err := tx.Bucket(bUsers).ForEach(func(k, _ []byte) error {
			users[string(k)] = &user{addr: string(k), boxes: map[string]*mailbox{}}
			return nil
		}); err != nil {
			return err
		}
		if err := tx.Bucket(bBoxes).ForEach(func(k, v []byte) error {
			addr, name, _ := strings.Cut(string(k), "\x00")
			u := users[addr]
			var r boxRecord
			if u == nil || json.Unmarshal(v, &r) != nil {
				return fmt.Errorf("mailbox %q: a bad record", k)
			}
			b := &mailbox{id: r.ID, user: u, name: name, uidValidity: r.UIDValidity, uidNext: imap.UID(r.UIDNext), subscribed: r.Subscribed}
			u.boxes[name] = b
			byID[r.ID] = b
			return nil
		}); err != nil {
			return err
		}
		return tx.Bucket(bMsgs).ForEach(func(k, v []byte) error {
			var r msgRecord
			b := byID[binary.BigEndian.Uint32(k)]
			if b == nil || len(k) != 8 || json.Unmarshal(v, &r) != nil {
				return fmt.Errorf("message %x: a bad record", k)
			}
			b.msgs = append(b.msgs, &message{uid: imap.UID(binary.BigEndian.Uint32(k[4:])), t: r.Time, size: r.Size, flags: r.Flags})
			b.size += r.Size
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("localmail: load the index: %w", err)
	}
	for _, b := range byID {
		b.tracker = imapserver.NewMailboxTracker(uint32(len(b.msgs)))
	}
	f, err := os.Open(d.dir)
	if err != nil {
		return nil, fmt.Errorf("localmail: %w", err)
	}
	defer f.Close()
	for {
		names, err := f.Readdirnames(1024)
		for _, name := range names {
			var v, uid uint32
			if n, _ := fmt.Sscanf(name, "%08x-%08x", &v, &uid); n == 2 && name == fmt.Sprintf("%08x-%08x", v, uid) {
				if b := byID[v]; b != nil {
					if _, ok := slices.BinarySearchFunc(b.msgs, imap.UID(uid), func(m *message, u imap.UID) int { return int(int64(m.uid) - int64(u)) }); ok {
						continue
					}
				}
			}
			os.Remove(filepath.Join(d.dir, name))
		}
		if err == io.EOF || len(names) == 0 {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("localmail: %w", err)
		}
	}
	return users, nil
}

// writeTemp copies r into a new synced file of the store's directory and returns its path
// and size; at most max bytes (more is errTooBig).
func (d *disk) writeTemp(prefix string, r io.Reader, max int64) (string, int64, error) {
	if err := d.step("write"); err != nil {
		return "", 0, err
	}
	f, err := os.CreateTemp(d.dir, "tmp-")
	if err != nil {
		return "", 0, fmt.Errorf("localmail: put message: %w", err)
	}
	n, err := io.WriteString(f, prefix)
	var m int64
	src := &reader{r: r}
	if err == nil {
		m, err = io.Copy(f, io.LimitReader(src, max-int64(n)+1))
	}
	size := int64(n) + m
	if err == nil && size > max {
		err = errTooBig
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		if err == errTooBig {
			return "", 0, err
		}
		if src.err != nil && err == src.err { // the client's, not the disk's
			return "", 0, &clientError{err}
		}
		return "", 0, fmt.Errorf("localmail: put message: %w", err)
	}
	return f.Name(), size, nil
}

var errTooBig = errors.New("localmail: message too big")

// reader remembers the error of its reader, to tell a client's failure from the disk's.
type reader struct {
	r   io.Reader
	err error
}

func (r *reader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if err != nil && err != io.EOF {
		r.err = err
	}
	return n, err
}

// clientError is a failure to read what the client sent (a broken line, a dropped
// connection): his to mend, and nothing of the disk's to hide.
type clientError struct{ err error }

func (e *clientError) Error() string { return e.err.Error() }
func (e *clientError) Unwrap() error { return e.err }

// compactIfMostlyFree compacts an index above the size given that is mostly free pages
// (bbolt reuses them but never gives them back), so that the file follows the mail kept.
func compactIfMostlyFree(path string, above int64) error {
	fi, err := os.Stat(path)
	if err != nil || fi.Size() <= above {
		return nil
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second}) // read-only would not load the free list
	if errors.Is(err, bolterrors.ErrTimeout) {
		return fmt.Errorf("localmail: %s is in use by another process", path)
	}
	if err != nil {
		return fmt.Errorf("localmail: open %s: %w", path, err)
	}
	st := db.Stats()
	free := int64(st.FreePageN+st.PendingPageN) * int64(db.Info().PageSize)
	db.Close()
	if free*2 < fi.Size() {
		return nil
	}
	tmp := path + ".compact"
	if err := compactFile(path, tmp); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("localmail: compact %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("localmail: compact %s: %w", path, err)
	}
	return nil
}
