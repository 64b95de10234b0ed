package main

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/refereed/refereed/store"
)

func (m *Main) runList(ctx context.Context, args []string) int {
	fs := m.flagSet("list", "Usage: refereed list [--data DIR] [--page N]\n\nLists the games of the store: variant, players, status, last change; as a stream\n(one game in memory at a time), or page N of 100 (only its games read).")
	d := addDataFlags(fs)
	page := fs.Int("page", 0, "show page N of 100 games (0: all)")
	if err := fs.Parse(args); err != nil {
		return usageCode(err)
	}
	if fs.NArg() > 0 || *page < 0 || *page > math.MaxInt32 {
		fs.Usage()
		return exitUsage
	}
	db, closeDB, err := d.open(ctx, m)
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed list: %v\n", err)
		return exitUsage
	}
	defer closeDB()
	const perPage = 100
	lo, hi := 0, math.MaxInt
	if *page > 0 {
		lo, hi = (*page-1)*perPage, *page*perPage
	}
	n, outbox := 0, 0
	fmt.Fprintf(m.Stdout, "%-7s %-22s %-26s %-26s %-14s %s\n", "GAME", "VARIANT", "WHITE", "BLACK", "STATUS", "UPDATED")
	row := func(g *store.Game) {
		status := string(g.Status)
		if g.Result != "" {
			status += " " + g.Result
		}
		fmt.Fprintf(m.Stdout, "%-7s %-22s %-26s %-26s %-14s %s\n", fmt.Sprintf("#%d", g.ID), g.Variant, g.Players[0].Address, g.Players[1].Address, status, g.Updated.UTC().Format("2006-01-02 15:04"))
	}
	err = db.View(func(tx *store.Tx) error {
		var err error
		if outbox, err = tx.OutboxCount(); err != nil {
			return err
		}
		if *page == 0 {
			return tx.EachGame(func(g *store.Game) error { row(g); n++; return ctx.Err() })
		}
		// A page: its games by id (ids run from 1 and are never reused), the rest unread.
		if n, err = tx.GameCount(); err != nil {
			return err
		}
		for id := lo + 1; id <= min(hi, n) && ctx.Err() == nil; id++ {
			g, err := tx.Game(uint64(id))
			if errors.Is(err, store.ErrNotFound) {
				continue
			} else if err != nil {
				return err
			}
			row(g)
		}
		return ctx.Err()
	})
	if err := stopped(ctx, err); err != nil {
		fmt.Fprintf(m.Stderr, "refereed list: %v\n", err)
		return exitUsage
	}
	fmt.Fprintf(m.Stdout, "%d game(s); %d mail(s) waiting in the outbox; data in %s\n", n, outbox, d.where(m))
	return exitOK
}
