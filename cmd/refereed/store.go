package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/refereed/refereed/referee"
	"github.com/refereed/refereed/store"
)

// dbName is the store's file in a data directory.
const dbName = "refereed.db"

// dataFlags is the --data option every command on the store shares.
type dataFlags struct {
	dir *string
}

func addDataFlags(fs *flag.FlagSet) dataFlags {
	return dataFlags{dir: fs.String("data", "refereed-data", "data directory (holds "+dbName+")")}
}

func (d dataFlags) dbPath() string { return filepath.Join(*d.dir, dbName) }

// where is the data directory in use, as an absolute path: the daemon's inside the daemon.
func (d dataFlags) where(m *Main) string {
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
// of showing an empty one. close must be called when done.
func (d dataFlags) open(m *Main) (db *store.DB, close func(), err error) {
	if m.db != nil {
		return m.db, func() {}, nil
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
func (d dataFlags) create(m *Main) (db *store.DB, close func(), created bool, err error) {
	if m.db != nil {
		return m.db, func() {}, false, nil
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
	r.Rating.Tau, _ = strconv.ParseFloat(db.Meta("rating_tau"), 64)
	return r
}
