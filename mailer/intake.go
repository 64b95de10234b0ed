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
	Processed string // folder that fetched mail moves to ("Processed" when empty); "-" to flag \Seen instead
	// MaxSize is the largest mail fetched whole; a larger one is stored as its header only,
	// marked oversize, so that the referee can answer it (2 MiB when 0).
	MaxSize int64
	// PollInterval is how often the mailbox is searched when the server has no IDLE, and
	// also while idling, as a safety net (30 s when 0). FastPoll, when set, replaces IDLE by a
	// poll at that interval: Dovecot holds IDLE notices back 500 ms, a short poll does not.
	PollInterval time.Duration
	FastPoll     time.Duration
	// IdleRefresh re-issues IDLE this often (10 min when 0; servers drop idle connections).
	IdleRefresh time.Duration
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
		if backoff *= 2; backoff > time.Minute {
			backoff = time.Minute
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
	if in.Processed != "-" {
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
	if err := in.DB.View(func(tx *store.Tx) error {
		for _, uid := range uids {
			fp, ok := tx.Known(key(uid))
			switch {
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
		hdr := &imap.FetchItemBodySection{Peek: true, Specifier: imap.PartSpecifierHeader}
		msgs, err := c.Fetch(imap.UIDSetNum(check...), &imap.FetchOptions{UID: true, RFC822Size: true,
			BodySection: []*imap.FetchItemBodySection{hdr}}).Collect()
		if err != nil {
			return fmt.Errorf("imap: fetch headers: %w", err)
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
				if _, ok := tx.Known(alt); ok {
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
	var mails []store.InboundMail
	if len(unknown) > 0 {
		sizes, err := c.Fetch(imap.UIDSetNum(unknown...), &imap.FetchOptions{UID: true, RFC822Size: true}).Collect()
		if err != nil {
			return fmt.Errorf("imap: fetch sizes: %w", err)
		}
		max := in.MaxSize
		if max == 0 {
			max = 2 << 20
		}
		var small, big []imap.UID
		for _, m := range sizes {
			if m.RFC822Size > max {
				big = append(big, m.UID)
			} else {
				small = append(small, m.UID)
			}
		}
		whole := &imap.FetchItemBodySection{Peek: true}
		header := &imap.FetchItemBodySection{Peek: true, Specifier: imap.PartSpecifierHeader}
		for _, part := range []struct {
			uids    []imap.UID
			section *imap.FetchItemBodySection
		}{{small, whole}, {big, header}} {
			if len(part.uids) == 0 {
				continue
			}
			msgs, err := c.Fetch(imap.UIDSetNum(part.uids...), &imap.FetchOptions{UID: true, RFC822Size: true,
				BodySection: []*imap.FetchItemBodySection{part.section}}).Collect()
			if err != nil {
				return fmt.Errorf("imap: fetch: %w", err)
			}
			for _, m := range msgs {
				k, ok := keys[m.UID]
				if !ok {
					k = key(m.UID)
				}
				raw := m.FindBodySection(part.section)
				im := store.InboundMail{Key: k, Raw: raw, Fingerprint: Fingerprint(m.RFC822Size, raw)}
				if part.section == header {
					im.Oversize = m.RFC822Size
				}
				mails = append(mails, im)
			}
		}
		stored := 0
		if err := in.DB.Update(func(tx *store.Tx) error {
			for _, m := range mails {
				isNew, err := tx.PutInbound(m)
				if err != nil {
					return err
				}
				if isNew {
					stored++
				}
			}
			return nil
		}); err != nil {
			return fmt.Errorf("mailer: store fetched mail: %w", err)
		}
		in.log().Info("mail fetched", "count", stored)
		if stored > 0 && in.OnNew != nil {
			in.OnNew()
		}
	}
	// Only now, with every message safe in the store, take them out of the mailbox.
	set := imap.UIDSetNum(uids...)
	if in.Processed == "-" {
		if err := c.Store(set, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagSeen}}, nil).Close(); err != nil {
			return fmt.Errorf("imap: flag seen: %w", err)
		}
		return nil
	}
	if _, err := c.Move(set, in.processed()).Wait(); err != nil {
		return fmt.Errorf("imap: move to %s: %w", in.processed(), err)
	}
	return nil
}
