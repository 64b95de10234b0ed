package main

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/refereed/refereed/gcpolicy"
	"github.com/refereed/refereed/lang"

	"github.com/refereed/refereed/mailer"
	"github.com/refereed/refereed/mailer/localmail"
	"github.com/refereed/refereed/parser"
	"github.com/refereed/refereed/rating"
	"github.com/refereed/refereed/referee"
	"github.com/refereed/refereed/referee/challenges"
	"github.com/refereed/refereed/store"
)

// serveOptions is everything serve needs, from flags and the config file.
type serveOptions struct {
	data, address        string
	imap                 mailer.IMAP
	smtpT                mailer.SMTP
	mailbox, processed   string
	poll, fastPoll       time.Duration
	maxSize              int64
	trustedServer        string
	organizer            string
	leaveDays            int
	language             lang.Tag // the players' who set none
	ratingTau            float64
	local                bool // run the embedded mail server
	localIMAP, localSMTP string
	net                  localNet // the built-in server facing other machines
	password             string
	web                  string // the web archive's listen address; "" serves none
	store                string // a PostgreSQL store's URL; "" keeps the data directory's file
	leaseTTL             time.Duration
	challenges           challenges.Policy
}

// localDomain is the built-in mail server's domain (the referee's), "" with real servers.
func (o *serveOptions) localDomain() string {
	if !o.local {
		return ""
	}
	_, d, _ := strings.Cut(o.address, "@")
	return d
}

func (m *Main) runServe(ctx context.Context, args []string) int {
	fs := m.flagSet("serve", "Usage: refereed serve [--data DIR] [--config FILE] [options]\n\nWithout --config, runs a local mail server on 127.0.0.1 (IMAP :1143, SMTP :2525) for\nthe domain localhost, with the referee at referee@localhost.")
	data := fs.String("data", "refereed-data", "data directory (holds refereed.db)")
	configPath := fs.String("config", "", "TOML configuration for real mail servers; without it a local mail server runs")
	address := fs.String("address", "", "the referee's mail address (referee@localhost without --config)")
	password := fs.String("mail-password", "", "one local mail password for every mailbox, for tests (default $REFEREED_MAIL_PASSWORD; without it each address has its own)")
	imapAddr := fs.String("imap", "127.0.0.1:1143", "local mail server: IMAP listen address")
	smtpAddr := fs.String("smtp", "127.0.0.1:2525", "local mail server: SMTP listen address")
	poll := fs.Duration("poll", 0, "IMAP poll interval (0: the config's, else 30s; IDLE is used when offered)")
	fastPoll := fs.Duration("fast-poll", 0, "poll IMAP this often instead of IDLE (lower latency on Dovecot)")
	var ln localNet
	fs.StringVar(&ln.imaps, "imaps", "", "local mail server: IMAP with implicit TLS on this address (e.g. :993)")
	fs.StringVar(&ln.smtps, "smtps", "", "local mail server: SMTP submission with implicit TLS on this address (e.g. :465)")
	fs.StringVar(&ln.cert, "tls-cert", "", "local mail server: the TLS certificate (PEM, chain after the leaf), read again when it changes")
	fs.StringVar(&ln.key, "tls-key", "", "local mail server: the TLS certificate's key (PEM)")
	fs.StringVar(&ln.acme, "acme", "", "local mail server: obtain and renew a certificate for this host name by ACME (Let's Encrypt)")
	fs.StringVar(&ln.acmeDir, "acme-directory", "", "the ACME directory URL (default Let's Encrypt's)")
	fs.StringVar(&ln.acmeHTTP, "acme-http", ":80", "where the ACME HTTP challenge is answered (the CA asks port 80 of the host)")
	fs.StringVar(&ln.acmeEmail, "acme-email", "", "the address the CA writes to about the certificate")
	fs.StringVar(&ln.acmeCA, "acme-ca", "", "trust this CA bundle (PEM) for the ACME directory: a private ACME server (step-ca, Pebble)")
	fs.StringVar(&ln.daily, "mail-daily", "", "local mail server: what one address may submit a day (e.g. 500MiB; default 200 MiB; 0 for no limit)")
	fs.StringVar(&ln.host, "mail-host", "", "local mail server: the host name players' clients reach it by (default the --acme host, else the referee's domain); the web archive serves their settings")
	fs.StringVar(&ln.reserve, "mail-reserve", "", "local mail server: disk space kept free; below it mail between players waits (e.g. 2GiB; default a tenth of the disk, at most 1 GiB; 0 for none)")
	language := fs.String("language", "", "the language of the mail of players who set none (SET LANGUAGE): de, fr, es, it, nl, pt, pl, ru or en (the default)")
	webAddr := fs.String("web", "", "serve the read-only web archive on this address (e.g. 127.0.0.1:8080)")
	logLevel := fs.String("log", "info", "log level: debug, info, warn, error")
	storeURL := storeFlag(fs)
	if err := fs.Parse(args); err != nil {
		return usageCode(err)
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return exitUsage
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		fmt.Fprintf(m.Stderr, "refereed serve: --log %q: want debug, info, warn or error\n", *logLevel)
		return exitUsage
	}
	log := slog.New(slog.NewTextHandler(m.Stderr, &slog.HandlerOptions{Level: level}))

	o := serveOptions{data: *data, address: *address, poll: *poll, fastPoll: *fastPoll, web: *webAddr, store: *storeURL}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	var c *Config
	if *configPath != "" {
		var err error
		if c, err = loadConfig(*configPath); err != nil {
			fmt.Fprintf(m.Stderr, "refereed serve: %v\n", err)
			return exitUsage
		}
	}
	if c != nil {
		if o.web == "" {
			o.web = c.Web.Listen
		}
		if o.store == "" {
			o.store = c.Store.URL
		}
		if !set["data"] && c.Data != "" {
			o.data = c.Data
		}
		if o.address == "" {
			o.address = c.Address
		}
		if o.address == "" {
			o.address = c.IMAP.User
		}
		var tlsIMAP, tlsSMTP *tls.Config
		if c.IMAP.Insecure {
			tlsIMAP = &tls.Config{InsecureSkipVerify: true}
		}
		if c.SMTP.Insecure {
			tlsSMTP = &tls.Config{InsecureSkipVerify: true}
		}
		o.imap = mailer.IMAP{Addr: c.IMAP.Addr, Security: c.IMAP.Security, Username: c.IMAP.User, Password: c.IMAP.Password, Auth: c.IMAP.Auth, TLS: tlsIMAP}
		o.smtpT = mailer.SMTP{Addr: c.SMTP.Addr, Security: c.SMTP.Security, Username: c.SMTP.User, Password: c.SMTP.Password, TLS: tlsSMTP}
		o.mailbox, o.processed, o.maxSize = c.IMAP.Mailbox, c.IMAP.Processed, c.IMAP.MaxSize
		o.trustedServer = c.Auth.TrustedServer
		o.organizer, o.leaveDays, o.ratingTau = c.Organizer, c.LeaveDays, c.RatingTau
		if err := (rating.Config{Tau: o.ratingTau}).Check(); err != nil {
			fmt.Fprintf(m.Stderr, "refereed serve: %s: rating_%v\n", *configPath, err)
			return exitUsage
		}
		if o.poll == 0 {
			o.poll = c.IMAP.PollInterval.Duration
		}
		if o.fastPoll == 0 {
			o.fastPoll = c.IMAP.FastPoll.Duration
		}
	}
	if c == nil || c.LocalMail != nil {
		if lc := c.localMail(); lc != nil { // the config's [localmail], under the flags
			pick := func(flagName string, v *string, conf string) {
				if !set[flagName] && conf != "" {
					*v = conf
				}
			}
			pick("imap", imapAddr, lc.IMAP)
			pick("smtp", smtpAddr, lc.SMTP)
			pick("imaps", &ln.imaps, lc.IMAPS)
			pick("smtps", &ln.smtps, lc.SMTPS)
			pick("tls-cert", &ln.cert, lc.TLSCert)
			pick("tls-key", &ln.key, lc.TLSKey)
			pick("acme", &ln.acme, lc.ACME)
			pick("acme-directory", &ln.acmeDir, lc.ACMEDirectory)
			pick("acme-email", &ln.acmeEmail, lc.ACMEEmail)
			pick("acme-http", &ln.acmeHTTP, lc.ACMEHTTP)
			pick("acme-ca", &ln.acmeCA, lc.ACMECA)
			pick("mail-reserve", &ln.reserve, lc.MailReserve)
			pick("mail-host", &ln.host, lc.Host)
			pick("mail-daily", &ln.daily, lc.MailDaily)
		}
		o.local = true
		if o.address == "" {
			o.address = "referee@localhost"
		}
		o.password = *password
		if o.password == "" {
			o.password = os.Getenv("REFEREED_MAIL_PASSWORD")
		}
		o.localIMAP, o.localSMTP = *imapAddr, *smtpAddr
		o.net = ln
		o.imap = mailer.IMAP{Addr: *imapAddr, Security: "plain", Username: o.address, Password: o.password}
		o.smtpT = mailer.SMTP{Addr: *smtpAddr, Security: "plain"}
		o.processed = mailer.Delete // the store holds the referee's mail: no second copy kept
	}
	if o.local && o.net.cert == "" && o.net.acme == "" {
		for _, a := range []string{o.localIMAP, o.localSMTP} {
			if !localmail.IsLoopback(a) {
				fmt.Fprintf(m.Stderr, "refereed serve: %s is reachable from other machines, and the mail server has no TLS: passwords would cross the network in the clear. Give it a certificate (--tls-cert FILE --tls-key FILE, or --acme HOST), or listen on 127.0.0.1\n", a)
				return exitUsage
			}
		}
	}
	if o.store != "" && !store.IsURL(o.store) {
		fmt.Fprintf(m.Stderr, "refereed serve: --store %q: want a PostgreSQL URL (postgres://user@host/db); without it the store is DIR/refereed.db\n", o.store)
		return exitUsage
	}
	if !strings.Contains(o.address, "@") {
		fmt.Fprintf(m.Stderr, "refereed serve: the referee's address %q is not a mail address (set address in the config)\n", o.address)
		return exitUsage
	}
	var cc *ChallengesConf
	if c != nil {
		cc = c.Challenges
	}
	pol, err := cc.policy(o.local)
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed serve: %s: %v\n", *configPath, err)
		return exitUsage
	}
	o.challenges = pol
	if *language == "" && c != nil {
		*language = c.Language
	}
	if *language != "" {
		t, err := lang.Parse(*language)
		if err != nil {
			fmt.Fprintf(m.Stderr, "refereed serve: --language: %v\n", err)
			return exitUsage
		}
		o.language = t
	}
	if o.organizer != "" {
		org, err := (&referee.Referee{Address: o.address, LocalDomain: o.localDomain()}).CheckAddress(o.organizer)
		if err != nil {
			fmt.Fprintf(m.Stderr, "refereed serve: the config's organizer: %v\n", err)
			return exitUsage
		}
		o.organizer = org
	}
	// A daemon's heap is mostly one mail's garbage: collect it less often (gcpolicy).
	if gc := gcpolicy.Apply(os.Getenv); gc != (gcpolicy.Settings{}) {
		log.Debug("garbage collector", "gogc", gc.Percent, "soft_memory_limit", gc.Limit)
	}
	if err := m.serve(ctx, &o, log); err != nil && !errors.Is(err, errStopped) {
		fmt.Fprintf(m.Stderr, "refereed serve: %v\n", err)
		return exitInvalid
	}
	return exitOK
}

// selfName is how this binary was run, for a command line to copy (./refereed), or
// "refereed" when go run built it somewhere temporary.
func selfName() string {
	a := os.Args[0]
	if a == "" || strings.Contains(a, "go-build") || !strings.Contains(a, "/") {
		return "refereed"
	}
	if rel, err := filepath.Rel(".", a); err == nil && !strings.HasPrefix(rel, "..") && !filepath.IsAbs(a) {
		return "./" + rel
	}
	return a
}

// compactAbove is the file size above which serve compacts a store that is mostly free.
const compactAbove = 16 << 20

// serve runs the daemon until ctx ends.
func (m *Main) serve(ctx context.Context, o *serveOptions, log *slog.Logger) error {
	if err := os.MkdirAll(o.data, 0o700); err != nil {
		return fmt.Errorf("data directory: %w", err)
	}
	log.Debug("opening the store") // from here a stop is the daemon's own (SIGTERM handled)
	db, dbPath, err := m.openServeStoreCtx(ctx, o, log)
	if err != nil {
		return err
	}
	defer db.Close()
	// Until the daemon runs, a stop gives up whatever the store waits on (a table locked, a
	// database out of reach): nothing has been done that a stop would cut short.
	starting := context.AfterFunc(ctx, db.Interrupt)
	stoppedStarting := func(err error) error {
		if ctx.Err() != nil {
			log.Info("stopping while starting: nothing was done yet, nothing is lost")
			return errStopped
		}
		return err
	}
	// The settings commands on this store read (the referee's address in new games' mails,
	// the organizer...). A database set read-only is waited out by the leadership below; these
	// are then written when this instance leads.
	settingsSaved := false
	saveSettings := func() error {
		for k, v := range map[string]string{"address": o.address, "organizer": strings.ToLower(o.organizer), "leave_days": strconv.Itoa(o.leaveDays), "language": string(o.language),
			"local_domain": o.localDomain(), "rating_tau": strconv.FormatFloat(o.ratingTau, 'g', -1, 64)} {
			if db.Meta(k) == v {
				continue // unchanged: not written (the database may be read-only for now)
			}
			if err := db.SetMeta(k, v); err != nil {
				return err
			}
		}
		settingsSaved = true
		return nil
	}
	if err := saveSettings(); errors.Is(err, store.ErrReadOnly) {
		log.Warn("the database is read-only: the settings are written once this instance leads", "err", err)
	} else if err != nil {
		return stoppedStarting(err)
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var local *localmail.Server
	secretMade := false
	if o.local {
		domain := o.address[strings.IndexByte(o.address, '@')+1:]
		local = &localmail.Server{Domain: domain, Password: o.password, IMAPAddr: o.localIMAP, SMTPAddr: o.localSMTP, Dir: o.data,
			Referee: o.address, Log: log.With("part", "localmail"), MaxMessageBytes: localMaxSize(o.maxSize)}
		if o.password == "" { // each address its own password
			secretOf := localSecret
			if db.Postgres() {
				secretOf = func(dir string) ([]byte, bool, error) { return sharedSecret(db, dir) }
			}
			if local.Secret, secretMade, err = secretOf(o.data); err != nil {
				return stoppedStarting(err)
			}
			o.imap.Password = localmail.PasswordFor(local.Secret, o.address)
		}
		if err := o.net.apply(ctx, local, o.data, log); err != nil {
			return err
		}
		if err := local.Start(); err != nil {
			return err
		}
		defer local.Close()
		log.Info("local mail disk", "state", local.Disk().String())
		if _, err := local.Mailbox(o.address); err != nil {
			return err
		}
		o.imap.Addr, o.smtpT.Addr = local.IMAPListen(), local.SMTPListen() // port 0 picks free ones
	}

	ref := &referee.Referee{DB: db, Address: o.address, Log: log, Auth: parser.AuthOptions{TrustedServer: o.trustedServer},
		Organizer: strings.ToLower(o.organizer), LeaveDays: o.leaveDays, LocalDomain: o.localDomain(), Language: o.language,
		Rating: rating.Config{Tau: o.ratingTau}, Challenges: o.challenges}
	newMail := make(chan struct{}, 1)
	outbox := make(chan struct{}, 1)
	poke := func(ch chan struct{}) {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
	stopControl, err := serveControl(ctx, o.data, db, func() { poke(outbox) })
	if err != nil {
		return err
	}
	defer stopControl()

	intake := &mailer.Intake{IMAP: o.imap, DB: db, Mailbox: o.mailbox, Processed: o.processed, MaxSize: o.maxSize,
		PollInterval: o.poll, FastPoll: o.fastPoll, OnNew: func() { poke(newMail) }, Log: log.With("part", "intake"),
		Admit: ref.Admit, Ignore: ref.Ignorable}
	var transport mailer.Transport = &o.smtpT
	if local != nil {
		transport = local.Transport() // the referee's own mail goes in-process: nobody sends as it over SMTP
	}
	sender := &mailer.Sender{DB: db, Transport: transport, Log: log.With("part", "delivery"),
		OnGiveUp: func(om store.OutMail, err error) {
			if rerr := ref.RecordDeliveryFailure(om, err); rerr != nil {
				log.Error("recording a delivery failure", "err", rerr)
			}
		}}

	// The leader's duties: the clocks and housekeeping, the intake, delivery and the inbox.
	// They run until ctx ends; lead returns when all have stopped.
	lead := func(ctx context.Context) {
		if !settingsSaved {
			if err := saveSettings(); err != nil {
				log.Error("writing the settings", "err", err)
			}
		}
		var wg sync.WaitGroup
		wg.Add(4)
		go func() {
			defer wg.Done()
			lastPrune := time.Time{}
			leaderLoop.run(ctx, nil, func() error {
				if time.Since(lastPrune) > time.Hour {
					lastPrune = time.Now()
					if n, err := db.Prune(); err != nil {
						log.Error("pruning old mail", "err", err)
					} else if n > 0 {
						log.Info("raw copies of old sent mail pruned", "count", n)
					}
					if n, err := db.ForgetProcessed(); err != nil {
						log.Error("forgetting old processed mail", "err", err)
					} else if n > 0 {
						log.Info("keys of mail processed long ago forgotten", "count", n)
					}
				}
				n, err := ref.CheckDeadlines()
				if err != nil {
					log.Error("checking deadlines", "err", err)
				} else if n > 0 {
					poke(outbox)
				}
				return err
			})
		}()
		go func() { defer wg.Done(); intake.Run(ctx) }()
		go func() { defer wg.Done(); sender.Run(ctx, outbox, deliveryPoll(db)) }()
		go func() {
			defer wg.Done()
			leaderLoop.run(ctx, newMail, func() error {
				n, err := ref.ProcessInbox()
				if err != nil {
					log.Error("processing the inbox", "err", err)
				}
				if n > 0 {
					poke(outbox)
				}
				return err
			})
		}()
		poke(outbox)
		wg.Wait()
	}
	var leading sync.WaitGroup
	leading.Add(1)
	go func() { defer leading.Done(); m.leadership(ctx, db, o, log, lead) }()
	if !db.Postgres() {
		leading.Add(1)
		go func() { defer leading.Done(); compactWhenIdle(ctx, db, dbPath, log) }()
	}
	if local != nil {
		leading.Add(1)
		go func() { defer leading.Done(); watchMailDisk(ctx, local, log) }()
	}

	if o.web != "" {
		var mail http.Handler
		if local != nil && local.TLS != nil { // players on other machines: their clients' settings
			mail = local.Autoconfig(o.net.mailHost(o.localDomain()))
		}
		stopWeb, addr, err := startWeb(ctx, o.web, db, log, mail)
		if err != nil {
			cancel()
			leading.Wait()
			return err
		}
		defer stopWeb()
		fmt.Fprintf(m.Stdout, "Web archive at http://%s/\n", addr)
	}
	fmt.Fprintf(m.Stdout, "refereed is running; data in %s\n", dbPath)
	if db.Postgres() {
		fmt.Fprintln(m.Stdout, "The store is shared: this instance leads when no other does, and stands by (serving the web archive) while another leads.")
		if o.local {
			fmt.Fprintln(m.Stdout, "Its built-in mail server is its own: other instances on this store read other mail. Give them all real mail servers (--config).")
		}
	}
	if o.local {
		fmt.Fprintf(m.Stdout, "Local mail server for @%s (mail kept in %s):\n", o.address[strings.IndexByte(o.address, '@')+1:], filepath.Join(o.data, "localmail.db"))
		if local.TLS == nil {
			fmt.Fprintf(m.Stdout, "  IMAP %s  SMTP %s  (no TLS: loopback only; log in with the full address, to send too)\n", local.IMAPListen(), local.SMTPListen())
		} else {
			fmt.Fprintf(m.Stdout, "  IMAP %s and SMTP %s with STARTTLS%s; certificate %s\n", local.IMAPListen(), local.SMTPListen(), o.net.implicit(local), o.net.source())
			fmt.Fprintln(m.Stdout, "  a client on another machine logs in over TLS only, with the full address")
		}
		if o.password == "" {
			fmt.Fprintln(m.Stdout, "  each mailbox has its own password: `refereed new` and `refereed show` print the players',")
			if secretMade { // once: a terminal's scrollback or a log should not hold it at every start
				fmt.Fprintf(m.Stdout, "  the referee's is %s (made now; `refereed mailpass` prints it again)\n", o.imap.Password)
			} else {
				fmt.Fprintln(m.Stdout, "  `refereed mailpass` the referee's")
			}
		} else {
			fmt.Fprintln(m.Stdout, "  one password for every mailbox, as given (for tests: players could read each other's mail)")
		}
	} else {
		fmt.Fprintf(m.Stdout, "Mail: IMAP %s (%s), SMTP %s (%s)\n", o.imap.Addr, o.imap.Security, o.smtpT.Addr, o.smtpT.Security)
	}
	games := 0
	if err := db.View(func(tx *store.Tx) (err error) { games, err = tx.GameCount(); return err }); err != nil {
		if ctx.Err() == nil {
			log.Error("count the games for the banner", "err", err)
		}
		games = -1 // the banner says no count
	}
	switch {
	case games < 0:
		fmt.Fprintf(m.Stdout, "The referee is %s. Stop with Ctrl-C.\n", o.address)
	case games == 0:
		where := "--data " + o.data
		if db.Postgres() {
			where = "--store URL"
		}
		domain := "localhost"
		if d := o.localDomain(); d != "" {
			domain = d
		}
		fmt.Fprintf(m.Stdout, "The referee is %s. Start a game with\n  %s new %s --variant transactional --white ann@%s --black bob@%s\n", o.address, selfName(), where, domain, domain)
		fmt.Fprintln(m.Stdout, "then read the players' mail and reply to it. Stop with Ctrl-C.")
		if !o.challenges.Off {
			fmt.Fprintf(m.Stdout, "Players may start games too: a mail to %s saying CHALLENGE bob@%s orthodox.\n", o.address, domain)
		}
	default:
		fmt.Fprintf(m.Stdout, "The referee is %s, with %d game(s) (refereed list). Stop with Ctrl-C.\n", o.address, games)
	}

	if !starting() { // stopped while starting: the store was interrupted
		cancel()
		leading.Wait()
		return stoppedStarting(nil)
	}
	<-ctx.Done()
	log.Info("shutting down")
	cancel()
	// The duties end at their next step; a statement that waits on the database (a table
	// locked, the server out of reach) is given up after shutdownGrace.
	grace := time.AfterFunc(shutdownGrace, func() {
		log.Warn("still waiting on the database: giving up its statements", "after", shutdownGrace)
		db.Interrupt()
	})
	leading.Wait()
	grace.Stop()
	return nil
}

// shutdownGrace is how long a stop waits for the store's statements in flight.
const shutdownGrace = 3 * time.Second

// localMaxSize is the built-in SMTP server's SIZE: the largest mail the intake reads whole,
// less room for the headers delivery adds, so that too large a mail is refused at once, to
// its sender, and never kept.
func localMaxSize(intake int64) int64 {
	if intake <= 0 {
		intake = mailer.DefaultMaxSize
	}
	return max(intake-4<<10, 64<<10)
}

// localSecret is the install's secret behind the local mail server's per-address passwords:
// kept in DIR/mail-secret, made at the first start (made reports that).
func localSecret(dir string) (secret []byte, made bool, err error) {
	path := filepath.Join(dir, "mail-secret")
	if b, err := os.ReadFile(path); err == nil {
		if s := strings.TrimSpace(string(b)); s != "" {
			return []byte(s), false, nil
		}
	} else if !os.IsNotExist(err) {
		return nil, false, fmt.Errorf("local mail secret: %w", err)
	}
	s := newSecret()
	if err := os.WriteFile(path, []byte(s+"\n"), 0o600); err != nil {
		return nil, false, fmt.Errorf("local mail secret: %w", err)
	}
	return []byte(s), true, nil
}

// newSecret is a fresh secret for the local mail server's passwords.
func newSecret() string {
	b := make([]byte, 32)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// sharedSecret is the local mail server's secret of an instance on a PostgreSQL store: the
// database's (settings, mail-secret), so that every instance and every command gives a player
// the same password; the first instance or command to need one puts its own there (made).
func sharedSecret(db *store.DB, dir string) (secret []byte, made bool, err error) {
	if s := db.Meta("mail-secret"); s != "" {
		return []byte(s), false, nil
	}
	own, _, err := localSecret(dir)
	if err != nil {
		return nil, false, err
	}
	s, err := db.MetaOrSet("mail-secret", string(own))
	if err != nil {
		return nil, false, fmt.Errorf("local mail secret: %w", err)
	}
	return []byte(s), s == string(own), nil
}

// errStopped is serve's return when it was told to stop before it could start: a clean stop.
var errStopped = errors.New("stopped before the store was open")

// openSlowAfter is how long opening the store may take before the log says why it is slow.
const openSlowAfter = 2 * time.Second

// openServeStoreCtx is openServeStore, given up when ctx ends (SIGTERM, Ctrl-C): after an
// unclean stop bbolt rebuilds its free list by reading the whole file, which takes seconds on
// a large store and minutes on a busy disk. Until the store is open nothing has been written,
// so the daemon can stop at once; the log says what it is doing meanwhile.
func (m *Main) openServeStoreCtx(ctx context.Context, o *serveOptions, log *slog.Logger) (*store.DB, string, error) {
	open := openServeStore
	if m.openStore != nil {
		open = m.openStore
	}
	type opened struct {
		db    *store.DB
		where string
		err   error
	}
	done := make(chan opened, 1)
	start := time.Now()
	go func() {
		db, where, err := open(o, log)
		done <- opened{db, where, err}
	}()
	slow := time.NewTicker(openSlowAfter)
	defer slow.Stop()
	for {
		select {
		case r := <-done:
			if d := time.Since(start); d >= openSlowAfter && r.err == nil {
				log.Info("store open", "took", d.Round(time.Millisecond))
			}
			return r.db, r.where, r.err
		case <-ctx.Done():
			log.Info("stopping while the store opens: nothing was written yet, nothing is lost", "after", time.Since(start).Round(time.Millisecond))
			go func() { // it may still open: closed then, to give its lock back
				if r := <-done; r.db != nil {
					r.db.Close()
				}
			}()
			return nil, "", errStopped
		case <-slow.C:
			if o.store != "" {
				log.Info("still opening the store: waiting for the database; SIGTERM stops it safely", "elapsed", time.Since(start).Round(time.Second))
			} else {
				log.Info("still opening the store: a file whose free pages were not recorded (an unclean stop of an older refereed) is read whole to find them; SIGTERM stops it safely", "elapsed", time.Since(start).Round(time.Second))
			}
		}
	}
}

// openServeStore opens the daemon's store: the PostgreSQL database o names, or the data
// directory's file (compacted later, while the daemon runs: compactWhenIdle). where is what
// it names.
func openServeStore(o *serveOptions, log *slog.Logger) (db *store.DB, where string, err error) {
	if o.store != "" {
		db, err := store.OpenURL(o.store, store.Options{})
		if err != nil {
			return nil, "", err
		}
		return db, db.Path(), nil
	}
	dbPath := filepath.Join(o.data, "refereed.db")
	if db, err = store.Open(dbPath, store.Options{}); err != nil {
		return nil, "", err
	}
	return db, dbPath, nil
}

// compactFreePages is how many free pages make the daemon compact its store even when they
// are less than half of it: every commit writes their ids in bbolt's free list (8 bytes
// each), and beyond about 10,000 that begins to show in a mail's cost (+0.1 ms).
const compactFreePages = 10000

// compactFirstAfter and compactEvery say when the daemon looks whether its store wants
// compacting: a while after it started (what waited at the start is answered first), then
// every so often.
var compactFirstAfter, compactEvery = 5 * time.Minute, time.Hour

// compactSoonest is how soon after a start the daemon may look, when the moment it was to
// look has passed while it was stopped.
const compactSoonest = 30 * time.Second

// compactNext notes in the store when the daemon is to look next: a daemon restarted more
// often than compactFirstAfter looks at the moment an earlier run noted (firstCompactLook),
// not never.
func compactNext(db *store.DB, after time.Duration) {
	db.SetMeta("compact_look_at", time.Now().Add(after).UTC().Format(time.RFC3339))
}

// firstCompactLook is how long after this start the daemon first looks: compactFirstAfter,
// or sooner when an earlier run noted a sooner moment (at least compactSoonest, so that what
// waited at the start is answered first).
func firstCompactLook(db *store.DB) time.Duration {
	at, err := time.Parse(time.RFC3339, db.Meta("compact_look_at"))
	if err != nil { // never noted: from now
		compactNext(db, compactFirstAfter)
		return compactFirstAfter
	}
	return min(compactFirstAfter, max(compactSoonest, time.Until(at)))
}

// compactWhenIdle compacts the daemon's bbolt file in place while it runs (store.CompactOnline)
// when the file is mostly free pages (mail processed and pruned), or holds more than
// compactFreePages of them, and no mail waits to be processed: bbolt never gives space back by itself. The copy holds the store for about a
// second per 100 MB of live data; mail that comes meanwhile waits on the mail server.
func compactWhenIdle(ctx context.Context, db *store.DB, path string, log *slog.Logger) {
	wait := firstCompactLook(db)
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = compactEvery
		compactNext(db, compactEvery)
		fi, err := os.Stat(path)
		if err != nil || fi.Size() <= compactAbove || (db.FreeRatio() <= 0.5 && db.FreePages() <= compactFreePages) {
			continue
		}
		var waiting []store.InboundMail
		db.View(func(tx *store.Tx) (err error) { waiting, err = tx.InboundPage(nil, 1, 1); return err })
		if len(waiting) > 0 {
			wait = compactFirstAfter // busy: look again soon
			compactNext(db, compactFirstAfter)
			continue
		}
		start := time.Now()
		before, after, err := db.CompactOnline(ctx)
		if ctx.Err() != nil {
			log.Info("compaction given up: stopping; the store is as it was", "after", time.Since(start).Round(time.Millisecond))
			return
		}
		if err != nil {
			log.Error("compacting the store", "err", err)
			continue
		}
		log.Info("store compacted", "before", before, "after", after, "took", time.Since(start).Round(time.Millisecond))
	}
}

// loop runs a leader's step (the inbox, the clocks) every so often and when woken; after a
// failure (the store could not write: a full disk, a database gone away) it tries again
// within seconds, with backoff, rather than at the next period: play resumes soon after the
// disk has room again.
type loop struct {
	every                time.Duration // between steps while all is well
	retryFirst, retryMax time.Duration // after failures in a row: retryFirst, doubling, at most retryMax
}

// leaderLoop is the daemon's: a step a minute, a failed one tried again after 1, 2, 4, 8 s.
var leaderLoop = loop{every: time.Minute, retryFirst: time.Second, retryMax: 8 * time.Second}

// retryAfter is how long to wait after failures failed steps in a row.
func (l loop) retryAfter(failures int) time.Duration {
	d := l.retryFirst
	for i := 1; i < failures && d < l.retryMax; i++ {
		d *= 2
	}
	return min(d, l.retryMax)
}

// run calls step until ctx ends: again after l.every, when wake says so, or after a failure
// as retryAfter says.
func (l loop) run(ctx context.Context, wake <-chan struct{}, step func() error) {
	failures := 0
	for ctx.Err() == nil {
		wait := l.every
		if err := step(); err != nil {
			failures++
			wait = l.retryAfter(failures)
		} else {
			failures = 0
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
		case <-wake:
		case <-t.C:
		}
		t.Stop()
	}
}

// The lease of a shared store: how long it lasts, how often the leader renews it, how often a
// standby asks for it. A leader that dies is replaced within leaseTTL + standbyPoll.
const (
	leaseTTL    = 6 * time.Second
	renewEvery  = 2 * time.Second
	standbyPoll = time.Second
)

// leadership runs lead while this instance leads the store, until ctx ends. A bbolt file
// admits one process: it leads at once, for good. On a shared store it stands by until it
// acquires the lease, leads while it renews it, and stands by again when it loses it (another
// took over while it was paused, or the database was out of reach for longer than the lease)
// or the database is set read-only (a DBA's freeze: it says so, and leads again once the
// database is writable): its writes are fenced from the moment another leads, before it
// learns it.
func (m *Main) leadership(ctx context.Context, db *store.DB, o *serveOptions, log *slog.Logger, lead func(context.Context)) {
	if !db.Postgres() {
		lead(ctx)
		return
	}
	ttl := o.leaseTTL
	if ttl == 0 {
		ttl = leaseTTL
	}
	host, _ := os.Hostname()
	lease := db.NewLease(fmt.Sprintf("%s/%d/%x", host, os.Getpid(), time.Now().UnixNano()&0xffffff), ttl)
	log = log.With("instance", lease.Holder())
	standing, frozen := false, false
	for ctx.Err() == nil {
		ok, err := acquire(ctx, lease)
		if ctx.Err() != nil {
			if ok { // granted as the stop came: handed back, or a successor would wait for it to run out
				if err := lease.Release(); err != nil {
					log.Warn("releasing the lease", "err", err)
				}
			}
			return
		}
		switch {
		case errors.Is(err, store.ErrReadOnly):
			if !frozen { // said once, not every second of a DBA's freeze
				log.Warn("standing by: the database is read-only; leading again once it is writable", "err", err)
				frozen, standing = true, true
			}
		case err != nil:
			log.Error("asking for the lease", "err", err)
		}
		if !ok {
			if !standing {
				holder, _, _, _ := db.Leader()
				log.Info("standing by: another instance leads", "leader", holder)
				standing = true
			}
			select {
			case <-ctx.Done():
			case <-time.After(standbyPoll):
			}
			continue
		}
		standing, frozen = false, false
		log.Info("leading", "epoch", lease.Epoch())
		leadCtx, stop := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() { defer close(done); lead(leadCtx) }()
		renewed := time.Now()
	renewing:
		for {
			select {
			case <-ctx.Done():
				break renewing
			case <-done:
				break renewing
			case <-time.After(renewEvery):
			}
			err := lease.Renew()
			switch {
			case err == nil:
				renewed = time.Now()
				continue
			case errors.Is(err, store.ErrLeaseLost):
				log.Warn("another instance took over: standing by", "epoch", lease.Epoch())
				break renewing
			case errors.Is(err, store.ErrReadOnly):
				log.Warn("the database was set read-only: standing by until it is writable", "err", err)
				frozen, standing = true, true
				break renewing
			case time.Since(renewed) > ttl:
				log.Warn("the lease could not be renewed in time: standing by", "err", err)
				break renewing
			default:
				log.Warn("renewing the lease", "err", err)
			}
		}
		stop()
		<-done
		if ctx.Err() != nil {
			if err := lease.Release(); err != nil {
				log.Warn("releasing the lease", "err", err)
			}
			return
		}
		lease.Stand() // everything it did as leader has stopped
	}
}

// deliveryPoll is how often delivery looks at the outbox unprompted: a shared store's outbox
// is also written by commands run elsewhere, which cannot wake this process.
func deliveryPoll(db *store.DB) time.Duration {
	if db.Postgres() {
		return 2 * time.Second
	}
	return 30 * time.Second
}

// acquire asks for the lease until ctx ends: a stop is not held up by a database out of reach
// for more than 3 s (the request gives up when the store is closed). ok with an error from ctx
// means the lease was granted as the stop came: the caller hands it back.
func acquire(ctx context.Context, lease *store.Lease) (bool, error) {
	type answer struct {
		ok  bool
		err error
	}
	ch := make(chan answer, 1)
	go func() {
		ok, err := lease.Acquire()
		ch <- answer{ok, err}
	}()
	select {
	case a := <-ch:
		return a.ok, a.err
	case <-ctx.Done():
		// The answer, if it comes soon: a lease granted as the stop came is handed back.
		select {
		case a := <-ch:
			return a.ok, ctx.Err()
		case <-time.After(3 * time.Second):
			return false, ctx.Err()
		}
	}
}
