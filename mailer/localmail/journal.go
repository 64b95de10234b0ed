package localmail

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// The journal keeps the local mail across restarts. Every change to a mailbox (a delivery,
// an APPEND, a COPY, MOVE, STORE or EXPUNGE, a mailbox created, deleted or renamed) is written
// to DIR/localmail.db and synced before it is made and acknowledged; a start replays the
// journal in order into the in-memory server. The in-memory server numbers UIDs and
// UIDVALIDITY values deterministically from the order of those changes, so the replay
// rebuilds every mailbox with the UIDs and UIDVALIDITY it had: a UID never comes back with
// other contents, which is what an IMAP client (the referee's intake first of all) relies on.
// Message numbers are journaled as UIDs. The journal only grows; it is a trial server's store.

var bOps = []byte("ops") // seq (u64) -> op JSON

// op is one journaled change.
type op struct {
	Op      string            `json:"op"` // user, append, create, delete, rename, subscribe, unsubscribe, copy, move, store, expunge
	User    string            `json:"user"`
	Mailbox string            `json:"mailbox,omitempty"`
	Dest    string            `json:"dest,omitempty"` // copy, move: target mailbox; rename: new name
	UIDs    *imap.UIDSet      `json:"uids,omitempty"` // nil with expunge: every \Deleted message
	FlagOp  imap.StoreFlagsOp `json:"flag_op,omitempty"`
	Flags   []imap.Flag       `json:"flags,omitempty"`
	Time    time.Time         `json:"time,omitzero"`
	Raw     []byte            `json:"raw,omitempty"`
}

type journal struct {
	db *bolt.DB
}

func openJournal(dir string) (*journal, error) {
	path := filepath.Join(dir, "localmail.db")
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, fmt.Errorf("localmail: %s is in use by another process", path)
	}
	if err != nil {
		return nil, fmt.Errorf("localmail: open %s: %w", path, err)
	}
	if err := db.Update(func(tx *bolt.Tx) error {
		_, err := tx.CreateBucketIfNotExists(bOps)
		return err
	}); err != nil {
		db.Close()
		return nil, fmt.Errorf("localmail: open %s: %w", path, err)
	}
	return &journal{db: db}, nil
}

// write appends o durably.
func (j *journal) write(o op) error {
	b, err := json.Marshal(o)
	if err != nil {
		return err
	}
	err = j.db.Update(func(tx *bolt.Tx) error {
		bk := tx.Bucket(bOps)
		seq, err := bk.NextSequence()
		if err != nil {
			return err
		}
		return bk.Put(binary.BigEndian.AppendUint64(nil, seq), b)
	})
	if err != nil {
		return fmt.Errorf("localmail: journal %s: %w", o.Op, err)
	}
	return nil
}

// each calls f with every journaled change, oldest first.
func (j *journal) each(f func(op) error) error {
	return j.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bOps).ForEach(func(k, v []byte) error {
			var o op
			if err := json.Unmarshal(v, &o); err != nil {
				return fmt.Errorf("localmail: journal entry %x: %w", k, err)
			}
			return f(o)
		})
	})
}

func (j *journal) close() error { return j.db.Close() }

// literal makes bytes an imap.LiteralReader.
type literal struct {
	*bytes.Reader
}

func (l literal) Size() int64 { return l.Reader.Size() }

// apply makes one journaled change on the in-memory server, live or in a replay.
func (s *Server) apply(o op) error {
	if o.Op == "user" {
		_, err := s.addUser(o.User)
		return err
	}
	s.mu.Lock()
	u := s.users[o.User]
	s.mu.Unlock()
	if u == nil {
		return fmt.Errorf("localmail: journal names unknown user %s", o.User)
	}
	switch o.Op {
	case "append":
		_, err := u.Append(o.Mailbox, literal{bytes.NewReader(o.Raw)}, &imap.AppendOptions{Time: o.Time, Flags: o.Flags})
		return err
	case "create":
		return u.Create(o.Mailbox, nil)
	case "delete":
		return u.Delete(o.Mailbox)
	case "rename":
		return u.Rename(o.Mailbox, o.Dest, nil)
	case "subscribe":
		return u.Subscribe(o.Mailbox)
	case "unsubscribe":
		return u.Unsubscribe(o.Mailbox)
	}
	// The rest works on messages of a selected mailbox, named by UID.
	sess := imapmemserver.NewUserSession(u)
	defer sess.Close()
	if _, err := sess.Select(o.Mailbox, nil); err != nil {
		return err
	}
	if o.UIDs == nil && o.Op != "expunge" {
		return fmt.Errorf("localmail: journal %s without UIDs", o.Op)
	}
	switch o.Op {
	case "copy":
		_, err := sess.Copy(*o.UIDs, o.Dest)
		return err
	case "move": // what MOVE does, without a connection to report to
		if _, err := sess.Copy(*o.UIDs, o.Dest); err != nil {
			return err
		}
		deleted := &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted}}
		if err := sess.Store(nil, *o.UIDs, deleted, nil); err != nil {
			return err
		}
		return sess.Expunge(nil, o.UIDs)
	case "store":
		return sess.Store(nil, *o.UIDs, &imap.StoreFlags{Op: o.FlagOp, Silent: true, Flags: o.Flags}, nil)
	case "expunge":
		return sess.Expunge(nil, o.UIDs)
	}
	return fmt.Errorf("localmail: unknown journal entry %q", o.Op)
}

// change journals o (when the server keeps its mail) and then makes it: nothing is seen or
// acknowledged that a restart would lose. Changes are serialized, so the journal's order is
// the order in which UIDs were given out.
func (s *Server) change(o op, do func() error) error {
	s.jmu.Lock()
	defer s.jmu.Unlock()
	if s.journal != nil {
		if err := s.journal.write(o); err != nil {
			return err
		}
	}
	return do()
}

// imapSession is one IMAP connection: the in-memory server's session, with every change
// journaled first.
type imapSession struct {
	*imapmemserver.UserSession // nil until login
	srv                        *Server
	user                       string
	selected                   string
}

var _ imapserver.SessionIMAP4rev2 = (*imapSession)(nil)

// Login accepts any address of the domain with the password; a mailbox that has had no mail
// yet is created, so a player can log in before the referee first writes.
func (sess *imapSession) Login(username, password string) error {
	addr := sess.srv.canonical(username)
	if addr == "" || !sess.srv.passwordOK(addr, password) {
		return imapserver.ErrAuthFailed
	}
	u, err := sess.srv.Mailbox(username)
	if err != nil {
		return imapserver.ErrAuthFailed
	}
	sess.user = addr
	sess.UserSession = imapmemserver.NewUserSession(u)
	return nil
}

func (sess *imapSession) Close() error {
	if sess.UserSession == nil {
		return nil
	}
	return sess.UserSession.Close()
}

func (sess *imapSession) Select(name string, options *imap.SelectOptions) (*imap.SelectData, error) {
	data, err := sess.UserSession.Select(name, options)
	if err == nil {
		sess.selected = name
	}
	return data, err
}

func (sess *imapSession) Unselect() error {
	sess.selected = ""
	return sess.UserSession.Unselect()
}

func (sess *imapSession) Create(name string, options *imap.CreateOptions) error {
	if _, err := sess.UserSession.Status(name, &imap.StatusOptions{}); err == nil {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeAlreadyExists, Text: "Mailbox already exists"}
	}
	return sess.srv.change(op{Op: "create", User: sess.user, Mailbox: name}, func() error {
		return sess.UserSession.Create(name, options)
	})
}

func (sess *imapSession) Delete(name string) error {
	return sess.srv.change(op{Op: "delete", User: sess.user, Mailbox: name}, func() error {
		return sess.UserSession.Delete(name)
	})
}

func (sess *imapSession) Rename(name, newName string, options *imap.RenameOptions) error {
	return sess.srv.change(op{Op: "rename", User: sess.user, Mailbox: name, Dest: newName}, func() error {
		return sess.UserSession.Rename(name, newName, options)
	})
}

func (sess *imapSession) Subscribe(name string) error {
	return sess.srv.change(op{Op: "subscribe", User: sess.user, Mailbox: name}, func() error {
		return sess.UserSession.Subscribe(name)
	})
}

func (sess *imapSession) Unsubscribe(name string) error {
	return sess.srv.change(op{Op: "unsubscribe", User: sess.user, Mailbox: name}, func() error {
		return sess.UserSession.Unsubscribe(name)
	})
}

func (sess *imapSession) Append(mailbox string, r imap.LiteralReader, options *imap.AppendOptions) (*imap.AppendData, error) {
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(r); err != nil {
		return nil, err
	}
	o := op{Op: "append", User: sess.user, Mailbox: mailbox, Raw: buf.Bytes(), Time: time.Now()}
	if options != nil {
		o.Flags = options.Flags
		if !options.Time.IsZero() {
			o.Time = options.Time
		}
	}
	var data *imap.AppendData
	err := sess.srv.change(o, func() error {
		var err error
		data, err = sess.UserSession.Append(mailbox, literal{bytes.NewReader(o.Raw)}, &imap.AppendOptions{Time: o.Time, Flags: o.Flags})
		return err
	})
	return data, err
}

// uids names the messages of numSet by UID in this session's view.
func (sess *imapSession) uids(numSet imap.NumSet) (imap.UIDSet, error) {
	if set, ok := numSet.(imap.UIDSet); ok {
		return set, nil
	}
	seq, ok := numSet.(imap.SeqSet)
	if !ok {
		return nil, fmt.Errorf("localmail: unknown number set %T", numSet)
	}
	data, err := sess.UserSession.Search(imapserver.NumKindUID, &imap.SearchCriteria{SeqNum: []imap.SeqSet{seq}}, &imap.SearchOptions{})
	if err != nil {
		return nil, err
	}
	return imap.UIDSetNum(data.AllUIDs()...), nil
}

func (sess *imapSession) Copy(numSet imap.NumSet, dest string) (*imap.CopyData, error) {
	var data *imap.CopyData
	err := sess.messageChange("copy", numSet, func(o *op) { o.Dest = dest }, func() error {
		var err error
		data, err = sess.UserSession.Copy(numSet, dest)
		return err
	})
	return data, err
}

func (sess *imapSession) Move(w *imapserver.MoveWriter, numSet imap.NumSet, dest string) error {
	return sess.messageChange("move", numSet, func(o *op) { o.Dest = dest }, func() error {
		return sess.UserSession.Move(w, numSet, dest)
	})
}

func (sess *imapSession) Store(w *imapserver.FetchWriter, numSet imap.NumSet, flags *imap.StoreFlags, options *imap.StoreOptions) error {
	return sess.messageChange("store", numSet, func(o *op) { o.FlagOp, o.Flags = flags.Op, flags.Flags }, func() error {
		return sess.UserSession.Store(w, numSet, flags, options)
	})
}

func (sess *imapSession) Expunge(w *imapserver.ExpungeWriter, uids *imap.UIDSet) error {
	return sess.srv.change(op{Op: "expunge", User: sess.user, Mailbox: sess.selected, UIDs: uids}, func() error {
		return sess.UserSession.Expunge(w, uids)
	})
}

// messageChange journals a change to the messages numSet names, by UID, and makes it. The
// numbers are read under the journal's lock, so no other change comes between.
func (sess *imapSession) messageChange(kind string, numSet imap.NumSet, fill func(*op), do func() error) error {
	sess.srv.jmu.Lock()
	defer sess.srv.jmu.Unlock()
	uids, err := sess.uids(numSet)
	if err != nil {
		return err
	}
	o := op{Op: kind, User: sess.user, Mailbox: sess.selected, UIDs: &uids}
	fill(&o)
	if sess.srv.journal != nil {
		if err := sess.srv.journal.write(o); err != nil {
			return err
		}
	}
	return do()
}
