package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/refereed/refereed/archive"
	"github.com/refereed/refereed/referee/clocks"
	"github.com/refereed/refereed/referee/command"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/variant"
)

func (m *Main) runShow(ctx context.Context, args []string) int {
	fs := m.flagSet("show", "Usage: refereed show [--as white|black|referee] ID")
	d := addDataFlags(fs)
	as := fs.String("as", "referee", "whose view: white, black or referee")
	if err := parseInterspersed(fs, args); err != nil {
		return usageCode(err)
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return exitUsage
	}
	id, err := command.ParseGameID(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed show: %v\n", err)
		return exitUsage
	}
	viewer := map[string]variant.Viewer{"white": variant.AsWhite, "black": variant.AsBlack, "referee": variant.AsReferee}
	v, ok := viewer[*as]
	if !ok {
		fmt.Fprintf(m.Stderr, "refereed show: --as %q: want white, black or referee\n", *as)
		return exitUsage
	}
	db, closeDB, err := d.open(ctx, m)
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed show: %v\n", err)
		return exitUsage
	}
	defer closeDB()
	ref := refereeOf(db, "") // reads the store: never inside another transaction (bbolt)
	err = db.View(func(tx *store.Tx) error {
		l, err := archive.Load(tx, id)
		if err != nil {
			return err
		}
		sg, va, g := l.Stored, l.Variant, l.Live
		fmt.Fprintf(m.Stdout, "Game #%d, %s: %s (White) v %s (Black), %s", sg.ID, va.Name, sg.Players[0].Address, sg.Players[1].Address, sg.Status)
		if sg.Result != "" {
			fmt.Fprintf(m.Stdout, " %s (%s)", sg.Result, sg.Reason)
		}
		if sg.Rated {
			fmt.Fprint(m.Stdout, ", rated")
		}
		fmt.Fprintf(m.Stdout, "\n\n%s", g.View(v).Diagram())
		defer fmt.Fprintf(m.Stdout, "Data in %s\n", d.where(m))
		if w, err := clocks.Waiting(tx, id); err == nil && w != "" {
			fmt.Fprintln(m.Stdout, w)
		}
		for i, p := range sg.Players {
			if p.Bounces > 0 {
				fmt.Fprintf(m.Stdout, "%s's mail bounced %d time(s); last: %s\n", variant.Side(i), p.Bounces, printable(p.LastBounce))
			}
		}
		for i, p := range sg.Players {
			fmt.Fprintf(m.Stdout, "%s (%s) replies to %s\n", p.Address, variant.Side(i), ref.ReplyAddress(sg, variant.Side(i)))
		}
		printMailPasswords(m.Stdout, d.mailSecret(m, db), ref.Address, sg.Players[0].Address, sg.Players[1].Address)
		return nil
	})
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed show: %v\n", err)
		return exitInvalid
	}
	return exitOK
}

// parseInterspersed parses flags that may come after the positional arguments.
func parseInterspersed(fs *flag.FlagSet, args []string) error {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return err
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
	return fs.Parse(append([]string{"--"}, pos...))
}
