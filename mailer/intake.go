package mailer

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"mime"
	"net"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-message/charset"
	"github.com/emersion/go-sasl"

	"github.com/refereed/refereed/store"
)

// IMAP says how to reach the referee's mailbox.
type IMAP struct {
	Addr     string // host:port
	Security string // "tls" (implicit), "starttls", or "plain"
	Username string
	Password string
	Auth     string      // "plain" (AUTHENTICATE PLAIN) or "login"; PLAIN when offered if empty
	TLS      *tls.Config // a default from Addr when nil
}

// Intake fetches new mail into the store's inbox.
type Intake struct {
	IMAP      IMAP
	DB        *store.DB
	Mailbox   string // "INBOX" when empty
	Processed string // folder that fetched mail moves to ("Processed" when empty); "-" to flag \Seen instead; Delete to expunge it
	// MaxSize is the largest mail fetched whole; a larger one is stored as its header only,
	// marked oversize, so that the referee can answer it (DefaultMaxSize when 0).
	MaxSize int64
	// Admit, when set, is asked about every mail larger than PrefixBytes, given its first
	// PrefixBytes: only admitted mail is fetched and stored whole (the referee admits mail
	// that carries a valid reply token); the rest is stored as that prefix, marked Partial.
	Admit       func(prefix []byte) bool
	PrefixBytes int64 // 16 KiB when 0
	// BatchBytes bounds the mail fetched and stored at once (8 MiB when 0; one mail at least):
	// memory stays flat whatever waits in the mailbox. Each batch is stored in one
	// transaction, then announced (OnNew), then taken out of the mailbox.
	BatchBytes int64
	// PollInterval is how often the mailbox is searched when the server has no IDLE, and
	// also while idling, as a safety net (30 s when 0). FastPoll, when set, replaces IDLE by a
	// poll at that interval: Dovecot holds IDLE notices back 500 ms, a short poll does not.
	PollInterval time.Duration
	FastPoll     time.Duration
	// IdleRefresh re-issues IDLE this often (10 min when 0; servers drop idle connections).
	IdleRefresh time.Duration
	// Ignore, when set, is asked about every mail fetched, before it is stored: a mail it
	// names a reason for (the referee: a stranger's, which is never answered) is recorded as
	// processed at once, in the same transaction, and never waits in the inbox, where it
	// would hold up the players' mail.
	Ignore func(raw []byte) (why string)
	// OnNew is called after new mail was stored.
	OnNew func()
	Log   *slog.Logger
	// Dial, when set, replaces the network dial (tests inject failures through it).
	Dial func(ctx context.Context, addr string) (net.Conn, error)
}

func (in *Intake) log() *slog.Logger {
	if in.Log == nil {
		return slog.Default()
	}
	return in.Log
}

func (in *Intake) mailbox() string {
	if in.Mailbox == "" {
		return "INBOX"
	}
	return in.Mailbox
}

func (in *Intake) processed() string {
	if in.Processed == "" {
		return "Processed"
	}
	return in.Processed
}

// maxReconnect bounds the intake's backoff: a session that failed because the store could not
// write (a full disk) starts again within seconds of there being room.
const maxReconnect = 15 * time.Second

// Run fetches mail until ctx ends, reconnecting with backoff after any failure.
func (in *Intake) Run(ctx context.Context) error {
	backoff := time.Second
	for ctx.Err() == nil {
		start := time.Now()
		err := in.session(ctx)
		if ctx.Err() != nil {
			return nil
		}
		if time.Since(start) > time.Minute {
			backoff = time.Second // the connection had been working
		}
		in.log().Warn("imap session ended; reconnecting", "err", err, "in", backoff)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(backoff):
		}
		if backoff *= 2; backoff > maxReconnect {
			backoff = maxReconnect
		}
	}
	return nil
}

// connect dials and logs in.
func (in *Intake) connect(ctx context.Context, notify chan<- struct{}) (*imapclient.Client, error) {
	opts := &imapclient.Options{
		WordDecoder: &mime.WordDecoder{CharsetReader: charset.Reader},
		TLSConfig:   in.IMAP.TLS,
		UnilateralDataHandler: &imapclient.UnilateralDataHandler{
			Mailbox: func(d *imapclient.UnilateralDataMailbox) {
				if d.NumMessages != nil {
					select {
					case notify <- struct{}{}:
					default:
					}
				}
			},
		},
	}
	if opts.TLSConfig == nil {
		host, _, _ := net.SplitHostPort(in.IMAP.Addr)
		opts.TLSConfig = &tls.Config{ServerName: host}
	}
	var c *imapclient.Client
	var err error
	if in.Dial != nil {
		conn, derr := in.Dial(ctx, in.IMAP.Addr)
		if derr != nil {
			return nil, fmt.Errorf("imap: dial %s: %w", in.IMAP.Addr, derr)
		}
		switch in.IMAP.Security {
		case "tls":
			conn = tls.Client(conn, opts.TLSConfig)
			c = imapclient.New(conn, opts)
		case "starttls":
			c, err = imapclient.NewStartTLS(conn, opts)
		default:
			c = imapclient.New(conn, opts)
		}
	} else {
		switch in.IMAP.Security {
		case "tls":
			c, err = imapclient.DialTLS(in.IMAP.Addr, opts)
		case "starttls":
			c, err = imapclient.DialStartTLS(in.IMAP.Addr, opts)
		case "plain", "":
			c, err = imapclient.DialInsecure(in.IMAP.Addr, opts)
		default:
			return nil, fmt.Errorf("imap: unknown security %q (want tls, starttls or plain)", in.IMAP.Security)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("imap: dial %s: %w", in.IMAP.Addr, err)
	}
	if err := c.WaitGreeting(); err != nil {
		c.Close()
		return nil, fmt.Errorf("imap: greeting: %w", err)
	}
	usePlain := in.IMAP.Auth == "plain" || (in.IMAP.Auth == "" && c.Caps().Has(imap.AuthCap(sasl.Plain)))
	if usePlain {
		err = c.Authenticate(sasl.NewPlainClient("", in.IMAP.Username, in.IMAP.Password))
	} else {
		err = c.Login(in.IMAP.Username, in.IMAP.Password).Wait()
	}
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("imap: log in as %s: %w", in.IMAP.Username, err)
	}
	return c, nil
}

// session is one connection: log in, make sure the Processed folder exists, then fetch and
// wait for news until something fails.
func (in *Intake) session(ctx context.Context) error {
	notify := make(chan struct{}, 1)
	c, err := in.connect(ctx, notify)
	if err != nil {
		return err
	}
	defer c.Close()
	go func() {
		select {
		case <-ctx.Done():
			c.Close()
		case <-c.Closed():
		}
	}()
	if in.Processed != "-" && in.Processed != Delete {
		if err := c.Create(in.processed(), nil).Wait(); err != nil {
			var ie *imap.Error
			if !errors.As(err, &ie) || (ie.Code != imap.ResponseCodeAlreadyExists && ie.Type != imap.StatusResponseTypeNo) {
				return fmt.Errorf("imap: create %s: %w", in.processed(), err)
			}
		}
	}
	sel, err := c.Select(in.mailbox(), nil).Wait()
	if err != nil {
		return fmt.Errorf("imap: select %s: %w", in.mailbox(), err)
	}
	in.log().Info("imap connected", "addr", in.IMAP.Addr, "mailbox", in.mailbox(), "uidvalidity", sel.UIDValidity, "messages", sel.NumMessages)
	idle := in.FastPoll == 0 && (c.Caps().Has(imap.CapIdle) || c.Caps().Has(imap.CapIMAP4rev2))
	poll := in.PollInterval
	if poll == 0 {
		poll = 30 * time.Second
	}
	if in.FastPoll > 0 {
		poll = in.FastPoll
	}
	refresh := in.IdleRefresh
	if refresh == 0 {
		refresh = 10 * time.Minute
	}
	for {
		if err := in.fetch(c, sel.UIDValidity); err != nil {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if !idle {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-c.Closed():
				return errors.New("imap: connection closed")
			case <-time.After(poll):
			}
			continue
		}
		cmd, err := c.Idle()
		if err != nil {
			return fmt.Errorf("imap: idle: %w", err)
		}
		timer := time.NewTimer(min(refresh, poll))
		select {
		case <-ctx.Done():
		case <-c.Closed():
		case <-notify:
		case <-timer.C:
		}
		timer.Stop()
		if err := cmd.Close(); err != nil {
			return fmt.Errorf("imap: idle done: %w", err)
		}
		if err := cmd.Wait(); err != nil {
			return fmt.Errorf("imap: idle: %w", err)
		}
	}
}

// fetch stores every message of the mailbox that the store does not know yet, then moves
// all the fetched ones out of the mailbox. A crash between the two fetches them again, and
// their keys make the second copy a no-op. A key the store knows is trusted only if the
// server still returns the same content under it (its fingerprint): a server that reuses
// UIDs, like a mail store that lost its state, must not cost a player's move.
func (in *Intake) fetch(c *imapclient.Client, uidValidity uint32) error {
	criteria := &imap.SearchCriteria{}
	if in.Processed == "-" {
		criteria.NotFlag = []imap.Flag{imap.FlagSeen}
	}
	res, err := c.UIDSearch(criteria, nil).Wait()
	if err != nil {
		return fmt.Errorf("imap: search: %w", err)
	}
	uids := res.AllUIDs()
	if len(uids) == 0 {
		return nil
	}
	key := func(uid imap.UID) store.InboxKey {
		return store.InboxKey{Mailbox: in.mailbox(), UIDValidity: uidValidity, UID: uint32(uid)}
	}
	var unknown, check []imap.UID
	known := map[imap.UID]string{} // fingerprints the store holds
	var ahead store.Ahead          // one round trip for the first 1024 on PostgreSQL; the rest one each
	for _, uid := range uids[:min(len(uids), 1024)] {
		ahead.Known = append(ahead.Known, key(uid))
	}
	if err := in.DB.ViewAhead(ahead, func(tx *store.Tx) error {
		for _, uid := range uids {
			fp, ok, err := tx.Known(key(uid))
			switch {
			case err != nil:
				return err
			case !ok:
				unknown = append(unknown, uid)
			case fp != "":
				known[uid] = fp
				check = append(check, uid)
			}
		}
		return nil
	}); err != nil {
		return err
	}
	// What the server holds now under the keys we know: the same mail, or other mail.
	keys := map[imap.UID]store.InboxKey{}
	if len(check) > 0 {
		hdr := &imap.FetchItemBodySection{Peek: true, Specifier: imap.PartSpecifierHeader, Partial: &imap.SectionPartial{Size: FingerprintBytes}}
		var msgs []*imapclient.FetchMessageBuffer
		for i := 0; i < len(check); i += 256 {
			part, err := c.Fetch(imap.UIDSetNum(check[i:min(i+256, len(check))]...), &imap.FetchOptions{UID: true, RFC822Size: true,
				BodySection: []*imap.FetchItemBodySection{hdr}}).Collect()
			if err != nil {
				return fmt.Errorf("imap: fetch headers: %w", err)
			}
			msgs = append(msgs, part...)
		}
		if err := in.DB.View(func(tx *store.Tx) error {
			for _, m := range msgs {
				fp := Fingerprint(m.RFC822Size, m.FindBodySection(hdr))
				if fp == known[m.UID] {
					continue
				}
				// Other content under a known key: it is kept under a key of its own.
				alt := key(m.UID)
				alt.Content = fp[:16]
				if _, ok, err := tx.Known(alt); err != nil {
					return err
				} else if ok {
					continue
				}
				in.log().Error("the mail server returned other mail under a UID already processed; processing it as new",
					"key", key(m.UID).String(), "stored", known[m.UID], "now", fp)
				keys[m.UID] = alt
				unknown = append(unknown, m.UID)
			}
			return nil
		}); err != nil {
			return err
		}
	}
	if err := in.fetchNew(c, unknown, keys, key); err != nil {
		return err
	}
	// The mail known already (and found the same) goes out of the mailbox too.
	var done []imap.UID
	isNew := map[imap.UID]bool{}
	for _, uid := range unknown {
		isNew[uid] = true
	}
	for _, uid := range uids {
		if !isNew[uid] {
			done = append(done, uid)
		}
	}
	return in.takeOut(c, done)
}

// DefaultMaxSize is an Intake's MaxSize when none is given: 2 MiB.
const DefaultMaxSize = 2 << 20

// Delete as an Intake's Processed expunges fetched mail once the store holds it: the
// built-in server keeps no second copy of the referee's mail (the store has it).
const Delete = "!delete"

// takeOut moves mail that is safe in the store out of the mailbox (or flags it \Seen, or
// expunges it).
func (in *Intake) takeOut(c *imapclient.Client, uids []imap.UID) error {
	if len(uids) == 0 {
		return nil
	}
	set := imap.UIDSetNum(uids...)
	if in.Processed == "-" {
		if err := c.Store(set, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagSeen}}, nil).Close(); err != nil {
			return fmt.Errorf("imap: flag seen: %w", err)
		}
		return nil
	}
	if in.Processed == Delete {
		if err := c.Store(set, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close(); err != nil {
			return fmt.Errorf("imap: flag deleted: %w", err)
		}
		if err := c.UIDExpunge(set).Close(); err != nil {
			return fmt.Errorf("imap: expunge: %w", err)
		}
		return nil
	}
	if _, err := c.Move(set, in.processed()).Wait(); err != nil {
		return fmt.Errorf("imap: move to %s: %w", in.processed(), err)
	}
	return nil
}

// fetchNew fetches the unknown mail in batches bounded by bytes: each batch is fetched,
// stored in one transaction, and only then announced and taken out of the mailbox.
func (in *Intake) fetchNew(c *imapclient.Client, unknown []imap.UID, keys map[imap.UID]store.InboxKey, key func(imap.UID) store.InboxKey) error {
	if len(unknown) == 0 {
		return nil
	}
	max, prefixBytes, batchBytes := in.MaxSize, in.PrefixBytes, in.BatchBytes
	if max == 0 {
		max = DefaultMaxSize
	}
	if prefixBytes == 0 {
		prefixBytes = 16 << 10
	}
	if batchBytes == 0 {
		batchBytes = 8 << 20
	}
	sizes := map[imap.UID]int64{}
	for i := 0; i < len(unknown); i += 512 {
		msgs, err := c.Fetch(imap.UIDSetNum(unknown[i:min(i+512, len(unknown))]...), &imap.FetchOptions{UID: true, RFC822Size: true}).Collect()
		if err != nil {
			return fmt.Errorf("imap: fetch sizes: %w", err)
		}
		for _, m := range msgs {
			sizes[m.UID] = m.RFC822Size
		}
	}
	// cost is what a mail takes in a batch: the most that will be fetched of it.
	cost := func(uid imap.UID) int64 { return min(sizes[uid], max) }
	for start := 0; start < len(unknown); {
		end, total := start, int64(0)
		for end < len(unknown) && (end == start || total+cost(unknown[end]) <= batchBytes) && end-start < 256 {
			total += cost(unknown[end])
			end++
		}
		batch := unknown[start:end]
		start = end
		mails, err := in.fetchBatch(c, batch, sizes, keys, key, max, prefixBytes)
		if err != nil {
			return err
		}
		ignored := in.ignored(mails) // outside the transaction: Ignore may read the store
		var stored int
		if err := in.DB.Update(func(tx *store.Tx) (err error) {
			stored, err = Store(tx, mails, ignored)
			return err
		}); err != nil {
			return fmt.Errorf("mailer: store fetched mail: %w", err)
		}
		// Announced as soon as the store holds it: the referee reads it from the store, so a
		// connection lost while it is taken out of the mailbox costs the player no time (it
		// used to wait for the minute's retry).
		if len(ignored) > 0 {
			in.log().Info("mail ignored", "count", len(ignored), "why", ignored[mails[0].Key]+" ...")
		}
		in.log().Info("mail fetched", "count", stored, "bytes", total)
		if stored > 0 && in.OnNew != nil {
			in.OnNew()
		}
		if err := in.takeOut(c, batch); err != nil {
			return err
		}
	}
	return nil
}

// ignored asks Ignore about each of mails: the keys of those to record as processed at once,
// with the reason.
func (in *Intake) ignored(mails []store.InboundMail) map[store.InboxKey]string {
	out := map[store.InboxKey]string{}
	if in.Ignore == nil {
		return out
	}
	for _, m := range mails {
		if m.Oversize > 0 || m.Partial > 0 && len(m.Raw) == 0 {
			continue
		}
		if why := in.Ignore(m.Raw); why != "" {
			out[m.Key] = why
		}
	}
	return out
}

// Store stores a batch of fetched mails in tx: each in the inbox, or, if ignored names it,
// recorded as processed at once (with its fingerprint, so that a server that reuses its UID
// for other mail is still caught). It returns how many were stored to be handled.
func Store(tx store.Inbox, mails []store.InboundMail, ignored map[store.InboxKey]string) (stored int, err error) {
	var keep []store.InboundMail
	for _, m := range mails {
		if ignored[m.Key] != "" {
			if _, err := tx.MarkIgnored(m); err != nil {
				return 0, err
			}
			continue
		}
		keep = append(keep, m)
	}
	if len(keep) == 0 {
		return 0, nil
	}
	isNew, err := tx.PutInbounds(keep) // one round trip on PostgreSQL
	if err != nil {
		return 0, err
	}
	for _, n := range isNew {
		if n {
			stored++
		}
	}
	return stored, nil
}

// fetchBatch fetches one batch: small mail whole; larger mail by its prefix first when Admit
// decides, then whole if admitted (its header only if oversize), else that prefix.
func (in *Intake) fetchBatch(c *imapclient.Client, uids []imap.UID, sizes map[imap.UID]int64, keys map[imap.UID]store.InboxKey,
	key func(imap.UID) store.InboxKey, max, prefixBytes int64) ([]store.InboundMail, error) {
	whole := &imap.FetchItemBodySection{Peek: true}
	header := &imap.FetchItemBodySection{Peek: true, Specifier: imap.PartSpecifierHeader}
	prefix := &imap.FetchItemBodySection{Peek: true, Partial: &imap.SectionPartial{Size: prefixBytes}}
	var small, big, ask []imap.UID
	for _, uid := range uids {
		switch {
		case sizes[uid] <= min(prefixBytes, max):
			small = append(small, uid)
		case in.Admit != nil:
			ask = append(ask, uid)
		case sizes[uid] > max:
			big = append(big, uid)
		default:
			small = append(small, uid)
		}
	}
	var out []store.InboundMail
	add := func(m *imapclient.FetchMessageBuffer, raw []byte) *store.InboundMail {
		k, ok := keys[m.UID]
		if !ok {
			k = key(m.UID)
		}
		out = append(out, store.InboundMail{Key: k, Raw: raw, Fingerprint: Fingerprint(m.RFC822Size, raw)})
		return &out[len(out)-1]
	}
	fetch := func(set []imap.UID, section *imap.FetchItemBodySection) ([]*imapclient.FetchMessageBuffer, error) {
		if len(set) == 0 {
			return nil, nil
		}
		msgs, err := c.Fetch(imap.UIDSetNum(set...), &imap.FetchOptions{UID: true, RFC822Size: true,
			BodySection: []*imap.FetchItemBodySection{section}}).Collect()
		if err != nil {
			return nil, fmt.Errorf("imap: fetch: %w", err)
		}
		return msgs, nil
	}
	msgs, err := fetch(ask, prefix)
	if err != nil {
		return nil, err
	}
	for _, m := range msgs {
		p := m.FindBodySection(prefix)
		switch {
		case !in.Admit(p):
			add(m, p).Partial = m.RFC822Size
		case m.RFC822Size > max:
			big = append(big, m.UID)
		default:
			small = append(small, m.UID)
		}
	}
	for _, part := range []struct {
		uids    []imap.UID
		section *imap.FetchItemBodySection
	}{{small, whole}, {big, header}} {
		msgs, err := fetch(part.uids, part.section)
		if err != nil {
			return nil, err
		}
		for _, m := range msgs {
			im := add(m, m.FindBodySection(part.section))
			if part.section == header {
				im.Oversize = m.RFC822Size
			}
		}
	}
	return out, nil
}
