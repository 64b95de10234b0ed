package main

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/refereed/refereed/referee"
	"github.com/refereed/refereed/variant"
)

func (m *Main) runNew(ctx context.Context, args []string) int {
	fs := flag.NewFlagSet("new", flag.ContinueOnError)
	fs.SetOutput(m.Stderr)
	d := addDataFlags(fs)
	address := addressFlag(fs)
	v := fs.String("variant", "orthodox", "the game: "+strings.Join(variant.Keys(), ", "))
	white := fs.String("white", "", "White's mail address")
	black := fs.String("black", "", "Black's mail address")
	fen := fs.String("fen", "", "start position, where the variant allows one")
	auth := fs.String("auth", "prefer", "what the mail system must say of a sender: none, prefer (refuse a failed DKIM/DMARC check) or require (a pass)")
	deadline := fs.Duration("deadline", 72*time.Hour, "time for each action: a reminder after it, a forfeit one more deadline later (rules.md 0.4a)")
	fs.Usage = func() {
		fmt.Fprintln(m.Stderr, "Usage: refereed new --variant NAME --white ADDR --black ADDR\n\nCreates a game and queues the opening mail to each player. Creates the data\ndirectory if there is none yet.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return usageCode(err)
	}
	if *white == "" || *black == "" || fs.NArg() > 0 {
		fs.Usage()
		return exitUsage
	}
	if !referee.ValidAuth(*auth) {
		fmt.Fprintf(m.Stderr, "refereed new: --auth %q: want none, prefer or require\n", *auth)
		return exitUsage
	}
	if *deadline <= 0 {
		fmt.Fprintf(m.Stderr, "refereed new: --deadline %v: want a positive duration like 72h\n", *deadline)
		return exitUsage
	}
	db, closeDB, created, err := d.create(m)
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed new: %v\n", err)
		return exitUsage
	}
	defer closeDB()
	if created {
		fmt.Fprintf(m.Stdout, "created a new store in %s\n", d.where(m))
	}
	id, err := refereeOf(db, *address).NewGame(*v, *white, *black, variant.Options{FEN: *fen, Flags: map[string]string{"deadline": deadline.String(), "auth": *auth}})
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed new: %v\n", err)
		return exitInvalid
	}
	fmt.Fprintf(m.Stdout, "game #%d created in %s: %s plays White, %s plays Black; the opening mails are queued\n", id, d.where(m), *white, *black)
	printMailPasswords(m.Stdout, d.where(m), db.Meta("address"), *white, *black)
	if m.db == nil {
		fmt.Fprintf(m.Stdout, "no daemon is running on this data directory: the mails go out when 'refereed serve --data %s' runs\n", *d.dir)
	}
	return exitOK
}
