package main

import (
	"context"
	"fmt"
	"text/tabwriter"

	"github.com/refereed/refereed/store"
)

func (m *Main) runList(ctx context.Context, args []string) int {
	fs := m.flagSet("list", "Usage: refereed list [--data DIR]\n\nLists the games of the store: variant, players, status, last change.")
	d := addDataFlags(fs)
	if err := fs.Parse(args); err != nil {
		return usageCode(err)
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return exitUsage
	}
	db, closeDB, err := d.open(m)
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed list: %v\n", err)
		return exitUsage
	}
	defer closeDB()
	var games []store.Game
	var outbox int
	err = db.View(func(tx *store.Tx) error {
		var err error
		if games, err = tx.Games(); err != nil {
			return err
		}
		mails, err := tx.Outbox()
		outbox = len(mails)
		return err
	})
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed list: %v\n", err)
		return exitUsage
	}
	tw := tabwriter.NewWriter(m.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "GAME\tVARIANT\tWHITE\tBLACK\tSTATUS\tUPDATED")
	for _, g := range games {
		status := string(g.Status)
		if g.Result != "" {
			status += " " + g.Result
		}
		fmt.Fprintf(tw, "#%d\t%s\t%s\t%s\t%s\t%s\n", g.ID, g.Variant, g.Players[0].Address, g.Players[1].Address, status, g.Updated.UTC().Format("2006-01-02 15:04"))
	}
	tw.Flush()
	fmt.Fprintf(m.Stdout, "%d game(s); %d mail(s) waiting in the outbox; data in %s\n", len(games), outbox, d.where(m))
	return exitOK
}
