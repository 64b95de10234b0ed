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
		address: fs.String("address", "referee@localhost", "the referee's mail address"),
	}
}

func (d dataFlags) dbPath() string { return filepath.Join(*d.dir, "refereed.db") }

// open opens the store, creating the data directory if needed.
func (d dataFlags) open() (*store.DB, error) {
	if err := os.MkdirAll(*d.dir, 0o700); err != nil {
		return nil, fmt.Errorf("data directory: %w", err)
	}
	return store.Open(d.dbPath(), store.Options{})
}

func (d dataFlags) referee(db *store.DB) *referee.Referee {
	return &referee.Referee{DB: db, Address: *d.address}
}
