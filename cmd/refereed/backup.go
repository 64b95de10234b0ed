package main

import (
	"context"
	"fmt"
)

func (m *Main) runBackup(ctx context.Context, args []string) int {
	fs := m.flagSet("backup", "Usage: refereed backup [--data DIR] FILE\n\nWrites a consistent snapshot of the database to FILE, also while the daemon\nruns. 'refereed restore FILE' puts it back.")
	d := addDataFlags(fs)
	if err := parseInterspersed(fs, args); err != nil {
		return usageCode(err)
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return exitUsage
	}
	db, closeDB, err := d.open(ctx, m)
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed backup: %v\n", err)
		return exitUsage
	}
	defer closeDB()
	n, err := db.BackupFile(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed backup: %v\n", err)
		return exitInvalid
	}
	fmt.Fprintf(m.Stdout, "backup of %s written to %s (%d bytes)\n", d.where(m), fs.Arg(0), n)
	return exitOK
}
