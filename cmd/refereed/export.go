package main

import (
	"context"
	"fmt"

	"github.com/refereed/refereed/archive"
	"github.com/refereed/refereed/referee"
	"github.com/refereed/refereed/store"
)

func (m *Main) runExport(ctx context.Context, args []string) int {
	fs := m.flagSet("export", "Usage: refereed export ID | --all\n\nWrites PGN with variant tags; a finished game carries its whole revealed log with times.")
	d := addDataFlags(fs)
	all := fs.Bool("all", false, "export every game")
	if err := parseInterspersed(fs, args); err != nil {
		return usageCode(err)
	}
	if (*all && fs.NArg() != 0) || (!*all && fs.NArg() != 1) {
		fs.Usage()
		return exitUsage
	}
	db, closeDB, err := d.open(m)
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed export: %v\n", err)
		return exitUsage
	}
	defer closeDB()
	err = db.View(func(tx *store.Tx) error {
		if *all { // a stream: one game in memory at a time
			n := 0
			err := tx.EachGame(func(g *store.Game) error {
				n++
				return archive.Export(tx, g.ID, m.Stdout)
			})
			fmt.Fprintf(m.Stderr, "refereed export: %d game(s) from %s\n", n, d.where(m))
			return err
		}
		id, err := referee.ParseGameID(fs.Arg(0))
		if err != nil {
			return err
		}
		if err := archive.Export(tx, id, m.Stdout); err != nil {
			return err
		}
		fmt.Fprintf(m.Stderr, "refereed export: 1 game(s) from %s\n", d.where(m))
		return nil
	})
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed export: %v\n", err)
		return exitInvalid
	}
	return exitOK
}
