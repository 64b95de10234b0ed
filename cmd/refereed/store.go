package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/refereed/refereed/referee"
	"github.com/refereed/refereed/store"
)

// dataFlags are the options every command on the store shares.
type dataFlags struct {
	dir     *string
	address *string
}

func addDataFlags(fs *flag.FlagSet) dataFlags {
	return dataFlags{
		dir:     fs.String("data", "refereed-data", "data directory (holds refereed.db)"),
		address: fs.String("address", "", "the referee's mail address (default: the one the daemon last ran with, else referee@localhost)"),
	}
}

func (d dataFlags) dbPath() string { return filepath.Join(*d.dir, "refereed.db") }

// open opens the store, creating the data directory if needed; inside the daemon it is the
// daemon's open store. close must be called when done.
func (d dataFlags) open(m *Main) (db *store.DB, close func(), err error) {
	if m.db != nil {
		return m.db, func() {}, nil
	}
	if err := os.MkdirAll(*d.dir, 0o700); err != nil {
		return nil, nil, fmt.Errorf("data directory: %w", err)
	}
	db, err = store.Open(d.dbPath(), store.Options{})
	if err != nil {
		return nil, nil, err
	}
	return db, func() { db.Close() }, nil
}

// referee is the referee of this store: its address is the flag's, else the one the daemon
// runs or last ran with (it is in every reply address), else referee@localhost.
func (d dataFlags) referee(db *store.DB) *referee.Referee {
	addr := *d.address
	if addr == "" {
		addr = db.Meta("address")
	}
	if addr == "" {
		addr = "referee@localhost"
	}
	return &referee.Referee{DB: db, Address: addr}
}
