package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/refereed/refereed/archive"
	"github.com/refereed/refereed/referee/command"
	"github.com/refereed/refereed/store"
)

func (m *Main) runExport(ctx context.Context, args []string) int {
	fs := m.flagSet("export", "Usage: refereed export ID | --all [--include-hidden]\n\n"+
		"Writes PGN with variant tags. A finished game carries its whole revealed log with times;\n"+
		"a game still going is written by its tags only (result *), unless --include-hidden.")
	d := addDataFlags(fs)
	all := fs.Bool("all", false, "export every game")
	hidden := fs.Bool("include-hidden", false, "write the games still going with every move, those their players may not know yet included (the organizer's full dump: keep it from the players)")
	if err := parseInterspersed(fs, args); err != nil {
		return usageCode(err)
	}
	if (*all && fs.NArg() != 0) || (!*all && fs.NArg() != 1) {
		fs.Usage()
		return exitUsage
	}
	db, closeDB, err := d.open(ctx, m)
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed export: %v\n", err)
		return exitUsage
	}
	defer closeDB()
	live := archive.Live(*hidden)
	going := 0 // games in progress written
	one := func(tx *store.Tx, g *store.Game) error {
		if !g.Over() {
			going++
		}
		return archive.Export(tx, g.ID, m.Stdout, live)
	}
	err = db.View(func(tx *store.Tx) error {
		n := 0
		if *all { // a stream: one game in memory at a time
			err := tx.EachGame(func(g *store.Game) error {
				if err := ctx.Err(); err != nil {
					return err
				}
				n++
				return one(tx, g)
			})
			if err != nil {
				return err
			}
		} else {
			id, err := command.ParseGameID(fs.Arg(0))
			if err != nil {
				return err
			}
			g, err := tx.Game(id)
			if err != nil {
				return err
			}
			if err := one(tx, g); err != nil {
				return err
			}
			n = 1
		}
		fmt.Fprintf(m.Stderr, "refereed export: %d game(s) from %s\n", n, d.where(m))
		switch {
		case going > 0 && *hidden:
			fmt.Fprintf(m.Stderr, "refereed export: warning: %d game(s) in progress written with every move, those their players may not know yet included: keep this file from the players\n", going)
		case going > 0:
			fmt.Fprintf(m.Stderr, "refereed export: %d game(s) in progress written by their tags only (--include-hidden writes their moves, hidden ones included)\n", going)
		}
		return nil
	})
	if err := stopped(ctx, err); errors.Is(err, errInterrupted) {
		fmt.Fprintf(m.Stderr, "refereed export: %v: what was written is incomplete\n", err)
		return exitInvalid
	} else if err != nil {
		fmt.Fprintf(m.Stderr, "refereed export: %v\n", err)
		return exitInvalid
	}
	return exitOK
}
