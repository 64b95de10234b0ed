package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/refereed/refereed/lang"

	"github.com/refereed/refereed/referee"
	"github.com/refereed/refereed/store"
)

// dbName is the store's file in a data directory.
const dbName = "refereed.db"

// dataFlags are the --data and --store options every command on the store shares.
type dataFlags struct {
	dir *string
	url *string
}

func addDataFlags(fs *flag.FlagSet) dataFlags {
	return dataFlags{dir: fs.String("data", "refereed-data", "data directory (holds "+dbName+")"),
		url: storeFlag(fs)}
}

// storeFlag is --store: a PostgreSQL store in place of the data directory's file.
func storeFlag(fs *flag.FlagSet) *string {
	return fs.String("store", os.Getenv("REFEREED_STORE"), "the store: a PostgreSQL URL (postgres://user@host/db) in place of DIR/"+dbName+" (default $REFEREED_STORE)")
}

// check refuses a --store (or $REFEREED_STORE) that names no PostgreSQL database: a mistyped
// URL must not send an organizer's work into a stray local file.
func (d dataFlags) check() error {
	if d.url != nil && *d.url != "" && !store.IsURL(*d.url) {
		return fmt.Errorf("--store %q: want a PostgreSQL URL (postgres://user@host/db); without --store the store is %s", *d.url, d.dbPath())
	}
	return nil
}

// shared reports whether the commands name a PostgreSQL store: it is opened directly, never
// through a daemon's control socket (several instances and commands share it).
func (d dataFlags) shared() bool { return d.url != nil && store.IsURL(*d.url) }

func (d dataFlags) dbPath() string { return filepath.Join(*d.dir, dbName) }

// storeURLOf finds a PostgreSQL --store in args (or $REFEREED_STORE) without parsing the rest.
func storeURLOf(args []string) string {
	for i, a := range args {
		for _, p := range []string{"--store=", "-store="} {
			if strings.HasPrefix(a, p) {
				return a[len(p):]
			}
		}
		if (a == "--store" || a == "-store") && i+1 < len(args) {
			return args[i+1]
		}
	}
	return os.Getenv("REFEREED_STORE")
}

// where is the data directory in use, as an absolute path: the daemon's inside the daemon.
func (d dataFlags) where(m *Main) string {
	if d.shared() {
		if u, err := url.Parse(*d.url); err == nil {
			return u.Redacted()
		}
	}
	dir := *d.dir
	if m.db != nil {
		dir = filepath.Dir(m.db.Path())
	}
	if abs, err := filepath.Abs(dir); err == nil {
		return abs
	}
	return dir
}

// errNoData says that a data directory holds no store, and how to name the right one.
type errNoData struct{ dir string }

func (e errNoData) Error() string {
	return fmt.Sprintf("no refereed data in %s (it has no %s): run this in the directory that holds the daemon's data directory, or name it with --data DIR", e.dir, dbName)
}

// open opens the store of an existing data directory; inside the daemon it is the daemon's
// open store. It never creates a store: a command run in the wrong directory says so instead
// of showing an empty one. close must be called when done. When ctx ends (Ctrl-C, SIGTERM)
// the store's statements in flight are given up (store.DB.Interrupt): a command waiting on
// a database stops.
func (d dataFlags) open(ctx context.Context, m *Main) (db *store.DB, close func(), err error) {
	if err := d.check(); err != nil {
		return nil, nil, err
	}
	if m.db != nil {
		return m.db, func() {}, nil
	}
	if d.shared() {
		db, err = store.OpenURL(*d.url, store.Options{})
		if err != nil {
			return nil, nil, err
		}
		return db, closeOnStop(ctx, db), nil
	}
	if _, err := os.Stat(d.dbPath()); errors.Is(err, fs.ErrNotExist) {
		return nil, nil, errNoData{d.where(m)}
	}
	db, err = store.Open(d.dbPath(), store.Options{})
	if err != nil {
		return nil, nil, err
	}
	return db, func() { db.Close() }, nil
}

// create opens the store, creating the data directory and the store if need be (new, the one
// command that starts from nothing); created reports that it did.
func (d dataFlags) create(ctx context.Context, m *Main) (db *store.DB, close func(), created bool, err error) {
	if err := d.check(); err != nil {
		return nil, nil, false, err
	}
	if m.db != nil {
		return m.db, func() {}, false, nil
	}
	if d.shared() {
		db, err = store.OpenURL(*d.url, store.Options{})
		if err != nil {
			return nil, nil, false, err
		}
		return db, closeOnStop(ctx, db), false, nil
	}
	if _, err := os.Stat(d.dbPath()); errors.Is(err, fs.ErrNotExist) {
		created = true
	}
	if err := os.MkdirAll(*d.dir, 0o700); err != nil {
		return nil, nil, false, fmt.Errorf("data directory: %w", err)
	}
	db, err = store.Open(d.dbPath(), store.Options{})
	if err != nil {
		return nil, nil, false, err
	}
	return db, func() { db.Close() }, created, nil
}

// closeOnStop interrupts db when ctx ends, until the close it returns is called.
func closeOnStop(ctx context.Context, db *store.DB) func() {
	stop := context.AfterFunc(ctx, db.Interrupt)
	return func() { stop(); db.Close() }
}

// errInterrupted is a command's error when it was stopped (Ctrl-C, SIGTERM) before it ended.
var errInterrupted = errors.New("interrupted before the end")

// stopped is err, or errInterrupted when ctx ended (a loop that saw it, or the store's
// statements given up: store.ErrInterrupted).
func stopped(ctx context.Context, err error) error {
	if err != nil && (ctx.Err() != nil || errors.Is(err, store.ErrInterrupted)) {
		return errInterrupted
	}
	return err
}

// addressFlag is the referee's address, for the commands that write mail.
func addressFlag(fs *flag.FlagSet) *string {
	return fs.String("address", "", "the referee's mail address (default: the one the daemon last ran with, else referee@localhost)")
}

// refereeOf is the referee of this store: its address is addr, else the one the daemon runs
// or last ran with (it is in every reply address), else referee@localhost.
func refereeOf(db *store.DB, addr string) *referee.Referee {
	if addr == "" {
		addr = db.Meta("address")
	}
	if addr == "" {
		addr = "referee@localhost"
	}
	r := &referee.Referee{DB: db, Address: addr, Organizer: db.Meta("organizer"), LocalDomain: db.Meta("local_domain")}
	r.LeaveDays, _ = strconv.Atoi(db.Meta("leave_days"))
	r.Language = lang.Tag(db.Meta("language"))
	r.Rating.Tau, _ = strconv.ParseFloat(db.Meta("rating_tau"), 64)
	return r
}

// noDaemon says when the mails a command queued go out, no daemon having taken them: on a
// shared store, whoever leads sends them within seconds.
func (d dataFlags) noDaemon(db *store.DB) string {
	if d.shared() {
		if holder, _, live, err := db.Leader(); err == nil && live {
			return "the instance leading the store (" + holder + ") sends the mails within seconds"
		}
		return "no instance leads the store now: the mails go out when 'refereed serve --store URL' runs"
	}
	return fmt.Sprintf("no daemon is running on this data directory: the mails go out when 'refereed serve --data %s' runs", *d.dir)
}
