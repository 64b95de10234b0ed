package main

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/refereed/refereed/referee/challenges"
	"github.com/refereed/refereed/referee/senders"
)

// Config is the production configuration, read from a TOML file. Every field has a flag
// that overrides it.
//
//	address = "referee@example.org"
//	data = "/var/lib/refereed"
//	[imap]
//	addr = "imap.example.org:993"
//	security = "tls"          # tls, starttls or plain
//	user = "referee@example.org"
//	password_file = "/etc/refereed/imap-password"
//	poll_interval = "30s"
//	[smtp]
//	addr = "smtp.example.org:587"
//	security = "starttls"
//	user = "referee@example.org"
//	password_file = "/etc/refereed/smtp-password"
//	organizer = "td@example.org"  # told of forfeits and failed deliveries
//	leave_days = 45                # leave a player may take in a year
//	rating_tau = 0.5               # Glicko-2's τ for the rated games (0.3 to 1.2)
//	language = "de"                # the players' mail who set none (SET LANGUAGE); en by default
//	[auth]
//	trusted_server = "mx.example.org"  # whose Authentication-Results header to believe
//	[web]
//	listen = "127.0.0.1:8080"  # serve the read-only web archive beside the daemon
//	[store]
//	url = "postgres://refereed@db.example.org/refereed"  # a shared store; several instances, one leads
//
// Or, for a club whose players are on their own machines, the built-in mail server facing
// the network instead of [imap] and [smtp] (README: Players on other machines):
//
//	address = "referee@club.example.org"
//	[localmail]
//	imap = ":143"               # STARTTLS
//	smtp = ":587"               # submission, STARTTLS
//	imaps = ":993"              # implicit TLS
//	smtps = ":465"
//	tls_cert = "/etc/letsencrypt/live/club.example.org/fullchain.pem"
//	tls_key = "/etc/letsencrypt/live/club.example.org/privkey.pem"
//	# or: acme = "club.example.org" (acme_email, acme_http = ":80", acme_directory)
//	mail_reserve = "2GiB"       # below it, mail between players waits
//
// Players start games themselves by mail (CHALLENGE at the referee's address); who may, to
// which games, and the bounds (README: Challenges):
//
//	[challenges]
//	enabled = true                  # false: only the operator and tournaments start games
//	from = "players"                # anyone, domains (below) or players (who have a game here);
//	                                # the built-in server's default is anyone (its mailbox holders)
//	domains = ["club.example.org"]
//	variants = ["orthodox", "kriegspiel"]  # the games one may challenge to; none: all
//	rated = "choice"                # choice (the challenge says), always or never
//	auth = "prefer"                 # what the mail system must say of a challenger (as new --auth)
//	expire_days = 7                 # unanswered challenges close after
//	max_open = 5                    # open challenges of one player
//	daily = 10                      # challenges one player makes a day
//	max_invitations = 3             # invitations waiting for one address
//	invitations_a_month = 3         # invitations from one player to one address in 30 days
type Config struct {
	Address string     `toml:"address"`
	Data    string     `toml:"data"`
	IMAP    ServerConf `toml:"imap"`
	SMTP    ServerConf `toml:"smtp"`
	Auth    AuthConf   `toml:"auth"`
	Web     WebConf    `toml:"web"`
	Store   StoreConf  `toml:"store"`
	// LocalMail, when present, runs the built-in mail server (instead of [imap] and [smtp]).
	LocalMail *LocalMailConf `toml:"localmail"`
	// Organizer is told of forfeits and failed deliveries in games and tournaments that
	// name no organizer, and organizes tournaments created without --organizer.
	Organizer string `toml:"organizer"`
	// LeaveDays is the leave a player may take in a calendar year (45 when 0).
	LeaveDays int `toml:"leave_days"`
	// RatingTau is Glicko-2's system constant τ for the rated games (0.5 when 0).
	RatingTau float64 `toml:"rating_tau"`
	// Language is the language of the mail of players who set none (SET LANGUAGE).
	Language string `toml:"language"`
	// Challenges is the [challenges] section; nil: the defaults.
	Challenges *ChallengesConf `toml:"challenges"`
}

// ChallengesConf is the [challenges] section.
type ChallengesConf struct {
	Enabled           *bool    `toml:"enabled"`
	From              string   `toml:"from"`
	Domains           []string `toml:"domains"`
	Variants          []string `toml:"variants"`
	Rated             string   `toml:"rated"`
	Auth              string   `toml:"auth"`
	ExpireDays        int      `toml:"expire_days"`
	MaxOpen           int      `toml:"max_open"`
	Daily             int      `toml:"daily"`
	MaxInvitations    int      `toml:"max_invitations"`
	InvitationsAMonth int      `toml:"invitations_a_month"`
}

// policy is the section as the referee takes it, over the default for the mail servers in
// use (local: the built-in one).
func (c *ChallengesConf) policy(local bool) (challenges.Policy, error) {
	p := challenges.Policy{From: challenges.FromPlayers}
	if local {
		p.From = challenges.FromAnyone // the built-in server: only its mailbox holders can send
	}
	if c == nil {
		return p, nil
	}
	if c.Enabled != nil && !*c.Enabled {
		p.Off = true
	}
	if c.From != "" {
		p.From = c.From
	}
	for _, d := range c.Domains {
		p.Domains = append(p.Domains, strings.ToLower(strings.TrimPrefix(d, "@")))
	}
	p.Variants, p.Rated, p.Auth = c.Variants, c.Rated, c.Auth
	p.Expire = time.Duration(c.ExpireDays) * 24 * time.Hour
	p.MaxOpen, p.Daily, p.MaxInvitations, p.InvitationsAMonth = c.MaxOpen, c.Daily, c.MaxInvitations, c.InvitationsAMonth
	if !senders.ValidAuth(p.Auth) {
		return p, fmt.Errorf("[challenges] auth %q: want none, prefer or require", p.Auth)
	}
	if err := p.Check(); err != nil {
		return p, fmt.Errorf("[challenges]: %w", err)
	}
	return p, nil
}

// LocalMailConf is the built-in mail server's [localmail] section: serve's flags of the same
// names win over it.
type LocalMailConf struct {
	IMAP          string `toml:"imap"`
	SMTP          string `toml:"smtp"`
	IMAPS         string `toml:"imaps"`
	SMTPS         string `toml:"smtps"`
	TLSCert       string `toml:"tls_cert"`
	TLSKey        string `toml:"tls_key"`
	ACME          string `toml:"acme"`
	ACMEDirectory string `toml:"acme_directory"`
	ACMEEmail     string `toml:"acme_email"`
	ACMEHTTP      string `toml:"acme_http"`
	ACMECA        string `toml:"acme_ca"`
	MailReserve   string `toml:"mail_reserve"`
	Host          string `toml:"host"`
	MailDaily     string `toml:"mail_daily"`
}

// StoreConf names the store: a PostgreSQL database shared by several instances, in place of
// the data directory's bbolt file.
type StoreConf struct {
	URL string `toml:"url"`
}

// WebConf is the web archive: served beside the daemon when Listen is set.
type WebConf struct {
	Listen string `toml:"listen"`
}

// AuthConf says how senders are checked (each game's policy says how strictly).
type AuthConf struct {
	// TrustedServer is the authserv-id of the server that receives the referee's mail and
	// writes Authentication-Results (DMARC, DKIM, SPF verdicts). Without it the referee
	// verifies DKIM signatures itself.
	TrustedServer string `toml:"trusted_server"`
}

// ServerConf is one mail server.
type ServerConf struct {
	Addr         string   `toml:"addr"`
	Security     string   `toml:"security"`
	User         string   `toml:"user"`
	Password     string   `toml:"password"`
	PasswordFile string   `toml:"password_file"`
	Auth         string   `toml:"auth"`          // IMAP: "plain" or "login"
	Mailbox      string   `toml:"mailbox"`       // IMAP: INBOX
	Processed    string   `toml:"processed"`     // IMAP: Processed, or "-" to flag \Seen
	PollInterval duration `toml:"poll_interval"` // IMAP
	FastPoll     duration `toml:"fast_poll"`     // IMAP: poll this often instead of IDLE
	MaxSize      int64    `toml:"max_size"`      // IMAP: largest mail read whole, bytes
	Insecure     bool     `toml:"insecure_skip_verify"`
}

type duration struct{ time.Duration }

func (d *duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("%q is not a duration like 30s or 5m", b)
	}
	d.Duration = v
	return nil
}

// loadConfig reads a TOML file and says which keys it does not know.
func loadConfig(path string) (*Config, error) {
	var c Config
	md, err := toml.DecodeFile(path, &c)
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		var keys []string
		for _, k := range und {
			keys = append(keys, k.String())
		}
		return nil, fmt.Errorf("config %s: unknown keys: %s", path, strings.Join(keys, ", "))
	}
	for _, s := range []*ServerConf{&c.IMAP, &c.SMTP} {
		if s.PasswordFile != "" {
			b, err := os.ReadFile(s.PasswordFile)
			if err != nil {
				return nil, fmt.Errorf("config %s: password file: %w", path, err)
			}
			s.Password = strings.TrimRight(string(b), "\r\n")
		}
	}
	if c.IMAP.Addr == "" || c.SMTP.Addr == "" {
		return nil, fmt.Errorf("config %s: both [imap] addr and [smtp] addr are needed", path)
	}
	return &c, nil
}

// localMail is the [localmail] section, nil without a config or the section.
func (c *Config) localMail() *LocalMailConf {
	if c == nil {
		return nil
	}
	return c.LocalMail
}
