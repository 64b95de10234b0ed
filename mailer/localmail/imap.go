package localmail

import (
	"bufio"
	"bytes"
	"net/netip"
	"os"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	gomessage "github.com/emersion/go-message"
	"github.com/emersion/go-message/textproto"
	bolt "go.etcd.io/bbolt"
)

// imapSession is one IMAP connection on the disk store: go-imap's server speaks the protocol,
// this answers from the index in memory and reads a message's file when its bytes are asked.
type imapSession struct {
	srv       *Server
	peer      netip.Addr // where the connection comes from
	conn      *imapserver.Conn
	user      *user
	box       *mailbox                   // selected; nil when none
	view      *imapserver.SessionTracker // the selected mailbox's updates for this session
	searchRes imap.UIDSet
}

var _ imapserver.SessionIMAP4rev2 = (*imapSession)(nil)

// Login accepts any address of the domain with its password; a mailbox that has had no mail
// yet is created, so a player can log in before the referee first writes.
func (sess *imapSession) Login(username, password string) error {
	addr, ok := sess.srv.admit("imap", sess.peer, username, func(addr string) bool { return sess.srv.passwordOK(addr, password) })
	if !ok {
		return imapserver.ErrAuthFailed
	}
	sess.srv.mu.Lock()
	u, err := sess.srv.addUserLocked(addr)
	sess.srv.mu.Unlock()
	if err != nil {
		sess.srv.logError("imap login", addr, err)
		return imapserver.ErrAuthFailed
	}
	sess.user = u
	if sess.conn != nil {
		loggedIn(sess.conn.NetConn())
	}
	return nil
}

// Close ends the session. It only reads the session's fields: go-imap may call it while an
// IDLE's goroutine is still reading them.
func (sess *imapSession) Close() error {
	if sess.view != nil {
		sess.view.Close()
	}
	return nil
}

func (sess *imapSession) unselect() {
	if sess.view != nil {
		sess.view.Close()
	}
	sess.box, sess.view, sess.searchRes = nil, nil, nil
}

func (sess *imapSession) Select(name string, options *imap.SelectOptions) (*imap.SelectData, error) {
	sess.unselect()
	s := sess.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	b := sess.user.boxes[mailboxName(name)]
	if b == nil {
		return nil, errNoMailbox
	}
	sess.box, sess.view = b, b.tracker.NewSession()
	flags := mailboxFlags(b)
	data := &imap.SelectData{
		Flags:          flags,
		PermanentFlags: append(slices.Clone(flags), imap.FlagWildcard),
		NumMessages:    uint32(len(b.msgs)),
		UIDNext:        b.uidNext,
		UIDValidity:    b.uidValidity,
	}
	for i, m := range b.msgs {
		if !m.has(imap.FlagSeen) {
			data.FirstUnseenSeqNum = uint32(i) + 1
			break
		}
	}
	return data, nil
}

func mailboxFlags(b *mailbox) []imap.Flag {
	set := map[imap.Flag]bool{imap.FlagSeen: true, imap.FlagAnswered: true, imap.FlagFlagged: true, imap.FlagDeleted: true, imap.FlagDraft: true}
	for _, m := range b.msgs {
		for _, f := range m.flags {
			set[f] = true
		}
	}
	var l []imap.Flag
	for f := range set {
		l = append(l, f)
	}
	slices.Sort(l)
	return l
}

func (sess *imapSession) Unselect() error {
	sess.unselect()
	return nil
}

func (sess *imapSession) Create(name string, _ *imap.CreateOptions) error {
	return sess.srv.createMailbox(sess.user, name)
}

func (sess *imapSession) Delete(name string) error {
	if sess.box != nil && sess.box.name == mailboxName(name) {
		sess.unselect()
	}
	return sess.srv.deleteMailbox(sess.user, name)
}

func (sess *imapSession) Rename(name, newName string, _ *imap.RenameOptions) error {
	return sess.srv.renameMailbox(sess.user, name, newName)
}

func (sess *imapSession) Subscribe(name string) error {
	return sess.srv.subscribe(sess.user, name, true)
}

func (sess *imapSession) Unsubscribe(name string) error {
	return sess.srv.subscribe(sess.user, name, false)
}

func (sess *imapSession) Namespace() (*imap.NamespaceData, error) {
	return &imap.NamespaceData{Personal: []imap.NamespaceDescriptor{{Delim: '/'}}}, nil
}

func (sess *imapSession) List(w *imapserver.ListWriter, ref string, patterns []string, options *imap.ListOptions) error {
	if len(patterns) == 0 {
		return w.WriteList(&imap.ListData{Attrs: []imap.MailboxAttr{imap.MailboxAttrNoSelect}, Delim: '/'})
	}
	s := sess.srv
	s.mu.Lock()
	var l []imap.ListData
	for name, b := range sess.user.boxes {
		if !slices.ContainsFunc(patterns, func(p string) bool { return imapserver.MatchList(name, '/', ref, p) }) {
			continue
		}
		if options.SelectSubscribed && !b.subscribed {
			continue
		}
		if options.SelectSpecialUse {
			continue // none here
		}
		data := imap.ListData{Mailbox: name, Delim: '/'}
		if b.subscribed {
			data.Attrs = append(data.Attrs, imap.MailboxAttrSubscribed)
		}
		if options.ReturnStatus != nil {
			data.Status = statusData(b, options.ReturnStatus)
		}
		l = append(l, data)
	}
	s.mu.Unlock()
	sort.Slice(l, func(i, j int) bool { return l[i].Mailbox < l[j].Mailbox })
	for i := range l {
		if err := w.WriteList(&l[i]); err != nil {
			return err
		}
	}
	return nil
}

func (sess *imapSession) Status(name string, options *imap.StatusOptions) (*imap.StatusData, error) {
	s := sess.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	b := sess.user.boxes[mailboxName(name)]
	if b == nil {
		return nil, errNoMailbox
	}
	return statusData(b, options), nil
}

func statusData(b *mailbox, options *imap.StatusOptions) *imap.StatusData {
	data := &imap.StatusData{Mailbox: b.name}
	count := func(f imap.Flag) uint32 {
		var n uint32
		for _, m := range b.msgs {
			if m.has(f) {
				n++
			}
		}
		return n
	}
	if options.NumMessages {
		n := uint32(len(b.msgs))
		data.NumMessages = &n
	}
	if options.UIDNext {
		data.UIDNext = b.uidNext
	}
	if options.UIDValidity {
		data.UIDValidity = b.uidValidity
	}
	if options.NumUnseen {
		n := uint32(len(b.msgs)) - count(imap.FlagSeen)
		data.NumUnseen = &n
	}
	if options.NumDeleted {
		n := count(imap.FlagDeleted)
		data.NumDeleted = &n
	}
	if options.Size {
		n := b.size
		data.Size = &n
	}
	if options.NumRecent {
		n := uint32(0)
		data.NumRecent = &n
	}
	return data
}

// Append streams the message to disk (never whole into memory), within the quota and the
// size limit, and adds it.
func (sess *imapSession) Append(name string, r imap.LiteralReader, options *imap.AppendOptions) (*imap.AppendData, error) {
	s := sess.srv
	s.mu.Lock()
	b := sess.user.boxes[mailboxName(name)]
	over := b != nil && sess.user.size()+r.Size() > s.quota()
	s.mu.Unlock()
	switch {
	case b == nil:
		return nil, errTryCreate
	case r.Size() > s.maxMessage():
		return nil, &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeTooBig, Text: "Message too big"}
	case over:
		return nil, errOverQuota
	}
	file, size, err := s.disk.writeTemp("", r, s.maxMessage())
	if err != nil {
		return nil, s.imapError(err)
	}
	defer os.Remove(file)
	in := incoming{box: b, file: file, size: size, t: time.Now()}
	if options != nil {
		in.flags = canonicalFlags(options.Flags)
		if !options.Time.IsZero() {
			in.t = options.Time
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if sess.user.boxes[b.name] != b {
		return nil, errTryCreate // deleted meanwhile
	}
	if sess.user.size()+size > s.quota() {
		return nil, errOverQuota
	}
	uids, err := s.addLocked([]incoming{in}, nil)
	if err != nil {
		return nil, s.imapError(err)
	}
	return &imap.AppendData{UIDValidity: b.uidValidity, UID: uids[0]}, nil
}

// canonicalFlags keeps system flags in their usual spelling and drops \Recent (the server's
// to set) and duplicates.
func canonicalFlags(flags []imap.Flag) []imap.Flag {
	var out []imap.Flag
	for _, f := range flags {
		for _, sys := range []imap.Flag{imap.FlagSeen, imap.FlagAnswered, imap.FlagFlagged, imap.FlagDeleted, imap.FlagDraft} {
			if strings.EqualFold(string(f), string(sys)) {
				f = sys
			}
		}
		if strings.EqualFold(string(f), `\Recent`) || slices.ContainsFunc(out, func(g imap.Flag) bool { return strings.EqualFold(string(f), string(g)) }) {
			continue
		}
		out = append(out, f)
	}
	return out
}

func (sess *imapSession) Poll(w *imapserver.UpdateWriter, allowExpunge bool) error {
	if sess.view == nil {
		return nil
	}
	return sess.view.Poll(w, allowExpunge)
}

func (sess *imapSession) Idle(w *imapserver.UpdateWriter, stop <-chan struct{}) error {
	if sess.view == nil {
		<-stop
		return nil
	}
	return sess.view.Idle(w, stop)
}

// selected is one message of the selected mailbox picked by a number set.
type selected struct {
	seq uint32 // as this session knows it (0: the session has not seen it yet)
	msg *message
}

// pickLocked lists the messages numSet names in the selected mailbox.
func (sess *imapSession) pickLocked(numSet imap.NumSet) []selected {
	b := sess.box
	if imap.IsSearchRes(numSet) {
		numSet = sess.searchRes
	}
	var out []selected
	switch set := numSet.(type) {
	case imap.SeqSet:
		set = staticSeqSet(set, uint32(len(b.msgs)))
		for i, m := range b.msgs {
			if seq := sess.view.EncodeSeqNum(uint32(i) + 1); seq != 0 && set.Contains(seq) {
				out = append(out, selected{seq: seq, msg: m})
			}
		}
	case imap.UIDSet:
		set = staticUIDSet(set, b.uidNext-1)
		for i, m := range b.msgs {
			if set.Contains(m.uid) {
				out = append(out, selected{seq: sess.view.EncodeSeqNum(uint32(i) + 1), msg: m})
			}
		}
	}
	return out
}

func staticSeqSet(set imap.SeqSet, max uint32) imap.SeqSet {
	out := slices.Clone(set)
	for i := range out {
		staticRange(&out[i].Start, &out[i].Stop, max)
	}
	return out
}

func staticUIDSet(set imap.UIDSet, max imap.UID) imap.UIDSet {
	out := slices.Clone(set)
	for i := range out {
		staticRange((*uint32)(&out[i].Start), (*uint32)(&out[i].Stop), uint32(max))
	}
	return out
}

// staticRange puts the largest number in place of "*" (0).
func staticRange(start, stop *uint32, max uint32) {
	dyn := *start == 0 || *stop == 0
	if *start == 0 {
		*start = max
	}
	if *stop == 0 {
		*stop = max
	}
	if dyn && *start > *stop {
		*start, *stop = *stop, *start
	}
}

// setFlagsLocked changes the flags of picked messages (index first) and tells the other
// sessions.
func (sess *imapSession) setFlagsLocked(picked []selected, change func(m *message) []imap.Flag, source *imapserver.SessionTracker) error {
	b := sess.box
	news := make([][]imap.Flag, len(picked))
	err := sess.srv.disk.update(func(tx *bolt.Tx) error {
		for i, p := range picked {
			news[i] = change(p.msg)
			m := *p.msg
			m.flags = news[i]
			if err := putMsg(tx, b, &m); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for i, p := range picked {
		p.msg.flags = news[i]
		if seq := slices.Index(b.msgs, p.msg); seq >= 0 {
			b.tracker.QueueMessageFlags(uint32(seq)+1, p.msg.uid, p.msg.flags, source)
		}
	}
	return nil
}

func (sess *imapSession) Store(w *imapserver.FetchWriter, numSet imap.NumSet, flags *imap.StoreFlags, _ *imap.StoreOptions) error {
	s := sess.srv
	s.mu.Lock()
	picked := sess.pickLocked(numSet)
	add := canonicalFlags(flags.Flags)
	err := sess.setFlagsLocked(picked, func(m *message) []imap.Flag {
		var out []imap.Flag
		switch flags.Op {
		case imap.StoreFlagsSet:
			out = add
		case imap.StoreFlagsAdd:
			out = canonicalFlags(append(slices.Clone(m.flags), add...))
		case imap.StoreFlagsDel:
			for _, f := range m.flags {
				if !slices.ContainsFunc(add, func(g imap.Flag) bool { return strings.EqualFold(string(f), string(g)) }) {
					out = append(out, f)
				}
			}
		}
		return out
	}, sess.view)
	s.mu.Unlock()
	if err != nil {
		return s.imapError(err)
	}
	if !flags.Silent {
		return sess.Fetch(w, numSet, &imap.FetchOptions{Flags: true})
	}
	return nil
}

func (sess *imapSession) Expunge(_ *imapserver.ExpungeWriter, uids *imap.UIDSet) error {
	s := sess.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	gone := map[imap.UID]bool{}
	for _, m := range sess.box.msgs {
		if m.has(imap.FlagDeleted) && (uids == nil || uids.Contains(m.uid)) {
			gone[m.uid] = true
		}
	}
	// The expunges reach this session too, by Poll after the command.
	if _, err := s.expungeLocked(sess.box, gone, nil); err != nil {
		return s.imapError(err)
	}
	return nil
}

// copyLocked links the picked messages into dest under new UIDs; with move it takes them
// out of the selected mailbox in the same index transaction.
func (sess *imapSession) copyLocked(numSet imap.NumSet, destName string, move bool) (*imap.CopyData, error) {
	s := sess.srv
	dest := sess.user.boxes[mailboxName(destName)]
	switch {
	case dest == nil:
		return nil, errTryCreate
	case dest == sess.box:
		return nil, &imap.Error{Type: imap.StatusResponseTypeNo, Text: "Source and destination mailboxes are identical"}
	}
	picked := sess.pickLocked(numSet)
	var in []incoming
	var src imap.UIDSet
	gone := map[imap.UID]bool{}
	var added int64
	for _, p := range picked {
		in = append(in, incoming{box: dest, file: s.disk.path(sess.box.id, p.msg.uid), size: p.msg.size, t: p.msg.t, flags: p.msg.flags})
		src.AddNum(p.msg.uid)
		gone[p.msg.uid] = true
		added += p.msg.size
	}
	if !move && sess.user.size()+added > s.quota() {
		return nil, errOverQuota
	}
	var also func(tx *bolt.Tx) error
	if move {
		b := sess.box
		also = func(tx *bolt.Tx) error {
			for uid := range gone {
				if err := tx.Bucket(bMsgs).Delete(msgKey(b.id, uid)); err != nil {
					return err
				}
			}
			return nil
		}
	}
	uids, err := s.addLocked(in, also)
	if err != nil {
		return nil, s.imapError(err)
	}
	if move {
		s.forgetLocked(sess.box, gone, nil)
	}
	return &imap.CopyData{UIDValidity: dest.uidValidity, SourceUIDs: src, DestUIDs: imap.UIDSetNum(uids...)}, nil
}

func (sess *imapSession) Copy(numSet imap.NumSet, dest string) (*imap.CopyData, error) {
	sess.srv.mu.Lock()
	defer sess.srv.mu.Unlock()
	return sess.copyLocked(numSet, dest, false)
}

func (sess *imapSession) Move(w *imapserver.MoveWriter, numSet imap.NumSet, dest string) error {
	sess.srv.mu.Lock()
	data, err := sess.copyLocked(numSet, dest, true)
	sess.srv.mu.Unlock()
	if err != nil {
		return err
	}
	// The expunges reach this session by Poll after the command.
	return w.WriteCopyData(data)
}

// Fetch answers from the index, and reads a message's file only when its bytes are asked for
// (one message in memory at a time). Setting \Seen (BODY[] without PEEK) is written first.
func (sess *imapSession) Fetch(w *imapserver.FetchWriter, numSet imap.NumSet, options *imap.FetchOptions) error {
	s := sess.srv
	markSeen := slices.ContainsFunc(options.BodySection, func(bs *imap.FetchItemBodySection) bool { return !bs.Peek })
	s.mu.Lock()
	picked := sess.pickLocked(numSet)
	if markSeen {
		var unseen []selected
		for _, p := range picked {
			if !p.msg.has(imap.FlagSeen) {
				unseen = append(unseen, p)
			}
		}
		if err := sess.setFlagsLocked(unseen, func(m *message) []imap.Flag { return append(slices.Clone(m.flags), imap.FlagSeen) }, nil); err != nil {
			s.mu.Unlock()
			return s.imapError(err)
		}
	}
	type snap struct {
		seq   uint32
		msg   message
		file  string
		flags []imap.Flag
	}
	var snaps []snap
	for _, p := range picked {
		if p.seq == 0 {
			continue // not yet announced to this session
		}
		snaps = append(snaps, snap{seq: p.seq, msg: *p.msg, file: s.disk.path(sess.box.id, p.msg.uid), flags: slices.Clone(p.msg.flags)})
	}
	s.mu.Unlock()
	needBody := options.Envelope || options.BodyStructure != nil || len(options.BodySection) > 0 || len(options.BinarySection) > 0 || len(options.BinarySectionSize) > 0
	for _, sn := range snaps {
		var buf []byte
		if needBody {
			var err error
			if buf, err = os.ReadFile(sn.file); err != nil {
				continue // expunged meanwhile
			}
		}
		if err := writeFetch(w.CreateMessage(sn.seq), &sn.msg, sn.flags, buf, options); err != nil {
			return err
		}
	}
	return nil
}

func writeFetch(w *imapserver.FetchResponseWriter, m *message, flags []imap.Flag, buf []byte, options *imap.FetchOptions) error {
	w.WriteUID(m.uid)
	if options.Flags {
		if flags == nil {
			flags = []imap.Flag{}
		}
		w.WriteFlags(flags)
	}
	if options.InternalDate {
		w.WriteInternalDate(m.t)
	}
	if options.RFC822Size {
		w.WriteRFC822Size(m.size)
	}
	if options.Envelope {
		if h, err := textproto.ReadHeader(bufio.NewReader(bytes.NewReader(buf))); err == nil {
			w.WriteEnvelope(imapserver.ExtractEnvelope(h))
		} else {
			w.WriteEnvelope(&imap.Envelope{})
		}
	}
	if options.BodyStructure != nil {
		w.WriteBodyStructure(imapserver.ExtractBodyStructure(bytes.NewReader(buf)))
	}
	for _, bs := range options.BodySection {
		b := imapserver.ExtractBodySection(bytes.NewReader(buf), bs)
		if err := writeLiteral(w.WriteBodySection(bs, int64(len(b))), b); err != nil {
			return err
		}
	}
	for _, bs := range options.BinarySection {
		b := imapserver.ExtractBinarySection(bytes.NewReader(buf), bs)
		if err := writeLiteral(w.WriteBinarySection(bs, int64(len(b))), b); err != nil {
			return err
		}
	}
	for _, bss := range options.BinarySectionSize {
		w.WriteBinarySectionSize(bss, imapserver.ExtractBinarySectionSize(bytes.NewReader(buf), bss))
	}
	return w.Close()
}

func writeLiteral(wc interface {
	Write([]byte) (int, error)
	Close() error
}, b []byte) error {
	_, err := wc.Write(b)
	if cerr := wc.Close(); err == nil {
		err = cerr
	}
	return err
}

// Search matches on the index where it can (numbers, flags, dates, sizes) and reads a
// message's file only for criteria on its header or text.
func (sess *imapSession) Search(kind imapserver.NumKind, criteria *imap.SearchCriteria, options *imap.SearchOptions) (*imap.SearchData, error) {
	s := sess.srv
	s.mu.Lock()
	sess.staticCriteria(criteria)
	type snap struct {
		seq  uint32
		msg  message
		file string
	}
	var snaps []snap
	for i, m := range sess.box.msgs {
		snaps = append(snaps, snap{seq: sess.view.EncodeSeqNum(uint32(i) + 1), msg: *m, file: s.disk.path(sess.box.id, m.uid)})
	}
	s.mu.Unlock()
	var data imap.SearchData
	var seqs imap.SeqSet
	var uids imap.UIDSet
	for _, sn := range snaps {
		var body []byte
		read := func() []byte {
			if body == nil {
				body, _ = os.ReadFile(sn.file)
				if body == nil {
					body = []byte{}
				}
			}
			return body
		}
		if !match(sn.seq, &sn.msg, criteria, read) {
			continue
		}
		uids.AddNum(sn.msg.uid)
		var num uint32
		switch kind {
		case imapserver.NumKindSeq:
			if sn.seq == 0 {
				continue
			}
			seqs.AddNum(sn.seq)
			num = sn.seq
		case imapserver.NumKindUID:
			num = uint32(sn.msg.uid)
		}
		if data.Min == 0 || num < data.Min {
			data.Min = num
		}
		if num > data.Max {
			data.Max = num
		}
		data.Count++
	}
	if kind == imapserver.NumKindSeq {
		data.All = seqs
	} else {
		data.All = uids
	}
	if options.ReturnSave {
		sess.searchRes = uids
	}
	return &data, nil
}

// staticCriteria puts the numbers "*" and "$" stand for into criteria.
func (sess *imapSession) staticCriteria(c *imap.SearchCriteria) {
	var seqs []imap.SeqSet
	for _, set := range c.SeqNum {
		if imap.IsSearchRes(set) {
			c.UID = append(c.UID, sess.searchRes)
			continue
		}
		seqs = append(seqs, staticSeqSet(set, uint32(len(sess.box.msgs))))
	}
	c.SeqNum = seqs
	for i, set := range c.UID {
		if imap.IsSearchRes(set) {
			c.UID[i] = sess.searchRes
		} else {
			c.UID[i] = staticUIDSet(set, sess.box.uidNext-1)
		}
	}
	for i := range c.Not {
		sess.staticCriteria(&c.Not[i])
	}
	for i := range c.Or {
		sess.staticCriteria(&c.Or[i][0])
		sess.staticCriteria(&c.Or[i][1])
	}
}

func match(seq uint32, m *message, c *imap.SearchCriteria, body func() []byte) bool {
	for _, set := range c.SeqNum {
		if seq == 0 || !set.Contains(seq) {
			return false
		}
	}
	for _, set := range c.UID {
		if !set.Contains(m.uid) {
			return false
		}
	}
	if !matchDate(m.t, c.Since, c.Before) {
		return false
	}
	for _, f := range c.Flag {
		if !m.has(f) {
			return false
		}
	}
	for _, f := range c.NotFlag {
		if m.has(f) {
			return false
		}
	}
	if (c.Larger != 0 && m.size <= c.Larger) || (c.Smaller != 0 && m.size >= c.Smaller) {
		return false
	}
	if len(c.Header) > 0 || !c.SentSince.IsZero() || !c.SentBefore.IsZero() || len(c.Text) > 0 || len(c.Body) > 0 {
		raw := body()
		e, _ := gomessage.Read(bytes.NewReader(raw))
		if e == nil {
			return false
		}
		for _, hc := range c.Header {
			if !matchFields(e.Header.FieldsByKey(hc.Key), hc.Value) {
				return false
			}
		}
		if !c.SentSince.IsZero() || !c.SentBefore.IsZero() {
			h := e.Header
			t, err := time.Parse(time.RFC1123Z, h.Get("Date"))
			if err != nil || !matchDate(t, c.SentSince, c.SentBefore) {
				return false
			}
		}
		lower := bytes.ToLower(raw)
		_, text, _ := bytes.Cut(lower, []byte("\r\n\r\n"))
		for _, t := range c.Text {
			if !bytes.Contains(lower, bytes.ToLower([]byte(t))) {
				return false
			}
		}
		for _, t := range c.Body {
			if !bytes.Contains(text, bytes.ToLower([]byte(t))) {
				return false
			}
		}
	}
	for i := range c.Not {
		if match(seq, m, &c.Not[i], body) {
			return false
		}
	}
	for i := range c.Or {
		if !match(seq, m, &c.Or[i][0], body) && !match(seq, m, &c.Or[i][1], body) {
			return false
		}
	}
	return true
}

func matchDate(t, since, before time.Time) bool {
	t = time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	return (since.IsZero() || !t.Before(since)) && (before.IsZero() || t.Before(before))
}

func matchFields(fields gomessage.HeaderFields, pattern string) bool {
	if pattern == "" {
		return fields.Len() > 0
	}
	pattern = strings.ToLower(pattern)
	for fields.Next() {
		if v, _ := fields.Text(); strings.Contains(strings.ToLower(v), pattern) {
			return true
		}
	}
	return false
}
