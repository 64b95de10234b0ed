package main

import (
	"context"
	"fmt"

	"github.com/refereed/refereed/store"
)

// runCompact gives the free pages of the store back to the file system (bbolt never shrinks
// a file by itself). The daemon does it at start when most of the file is free; this is for
// an operator who wants it now. The daemon must be stopped.
func (m *Main) runCompact(ctx context.Context, args []string) int {
	fs := m.flagSet("compact", "Usage: refereed compact [--data DIR]\n\nRewrites the store without its free pages; stop the daemon first.")
	d := addDataFlags(fs)
	if err := fs.Parse(args); err != nil {
		return usageCode(err)
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return exitUsage
	}
	if d.shared() {
		fmt.Fprintln(m.Stderr, "refereed compact: a PostgreSQL store gives its space back by itself (autovacuum); compact is for a data directory's file")
		return exitUsage
	}
	if m.db != nil {
		fmt.Fprintln(m.Stderr, "refereed compact: the daemon is running on this data directory: stop it first")
		return exitUsage
	}
	_, closeDB, err := d.open(ctx, m) // says so when there is no store here, or it is in use
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed compact: %v\n", err)
		return exitUsage
	}
	closeDB()
	before, after, err := store.CompactInPlace(d.dbPath())
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed compact: %v\n", err)
		return exitInvalid
	}
	fmt.Fprintf(m.Stdout, "%s: %d bytes, now %d\n", d.dbPath(), before, after)
	return exitOK
}
