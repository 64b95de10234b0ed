package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/refereed/refereed/clock"
	"github.com/refereed/refereed/lang"

	"github.com/refereed/refereed/referee"
	"github.com/refereed/refereed/referee/senders"
	"github.com/refereed/refereed/variant"
)

func (m *Main) runNew(ctx context.Context, args []string) int {
	fs := m.flagSet("new", "Usage: refereed new --variant NAME --white ADDR --black ADDR\n\nCreates a game and queues the opening mail to each player. Creates the data\ndirectory if there is none yet.")
	d := addDataFlags(fs)
	address := addressFlag(fs)
	v := fs.String("variant", "orthodox", "the game: "+strings.Join(variant.Keys(), ", "))
	white := fs.String("white", "", "White's mail address")
	black := fs.String("black", "", "Black's mail address")
	fen := fs.String("fen", "", "start position, where the variant allows one")
	var options optionFlags
	fs.Var(&options, "option", "a game option `NAME=VALUE` (repeatable; \"refereed variants\" lists each game's)")
	auth := fs.String("auth", "prefer", "what the mail system must say of a sender: none, prefer (refuse a failed DKIM/DMARC check) or require (a pass)")
	deadline := fs.Duration("deadline", 72*time.Hour, "time for each action: a reminder after it, a forfeit one more deadline later (rules.md 0.4a)")
	rated := fs.Bool("rated", false, "the game counts for both players' ratings")
	language := fs.String("language", "", "the language of both players' mail where they set none (SET LANGUAGE): de, fr, es, it, nl, pt, pl, ru, en")
	timeControl := fs.String("time", "", "a correspondence time control in whole days instead of --deadline: 30d+3d (days and an increment a move) or 50d/10 (days per 10 moves)")
	if err := fs.Parse(args); err != nil {
		return usageCode(err)
	}
	if *white == "" || *black == "" || fs.NArg() > 0 {
		fs.Usage()
		return exitUsage
	}
	if !senders.ValidAuth(*auth) {
		fmt.Fprintf(m.Stderr, "refereed new: --auth %q: want none, prefer or require\n", *auth)
		return exitUsage
	}
	if *deadline <= 0 {
		fmt.Fprintf(m.Stderr, "refereed new: --deadline %v: want a positive duration like 72h\n", *deadline)
		return exitUsage
	}
	flags := map[string]string{"deadline": deadline.String(), "auth": *auth}
	if *rated {
		flags[referee.RatedFlag] = "true"
	}
	if *language != "" {
		t, err := lang.Parse(*language)
		if err != nil {
			fmt.Fprintf(m.Stderr, "refereed new: --language: %v\n", err)
			return exitUsage
		}
		flags[referee.LanguageFlag] = string(t)
	}
	if *timeControl != "" {
		tc, err := clock.ParseTimeControl(*timeControl)
		if err != nil {
			fmt.Fprintf(m.Stderr, "refereed new: --time: %v\n", err)
			return exitUsage
		}
		flags["time"] = tc.String()
	}
	if va, err := variant.Lookup(*v); err == nil {
		for _, o := range options {
			name, value, _ := strings.Cut(o, "=")
			if err := va.SetOption(flags, name, value); err != nil {
				fmt.Fprintf(m.Stderr, "refereed new: %v\n", err)
				return exitUsage
			}
		}
		// A value that is not one (fog=maybe) is refused before anything is created.
		if _, err := va.New(variant.Options{FEN: *fen, Flags: flags}); err != nil {
			fmt.Fprintf(m.Stderr, "refereed new: %v\n", err)
			return exitUsage
		}
	}
	db, closeDB, created, err := d.create(ctx, m)
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed new: %v\n", err)
		return exitUsage
	}
	defer closeDB()
	if created {
		fmt.Fprintf(m.Stdout, "created a new store in %s\n", d.where(m))
	}
	if created || d.shared() {
		if err := d.makeMailSecret(m, db); err != nil {
			fmt.Fprintf(m.Stderr, "refereed %s: %v\n", fs.Name(), err)
			return exitInvalid
		}
	}
	id, err := refereeOf(db, *address).NewGame(*v, *white, *black, variant.Options{FEN: *fen, Flags: flags})
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed new: %v\n", err)
		return exitInvalid
	}
	fmt.Fprintf(m.Stdout, "game #%d created in %s: %s plays White, %s plays Black; the opening mails are queued\n", id, d.where(m), *white, *black)
	printMailPasswords(m.Stdout, d.mailSecret(m, db), refereeOf(db, *address).Address, *white, *black)
	if m.db == nil {
		fmt.Fprintln(m.Stdout, d.noDaemon(db))
	}
	return exitOK
}

// optionFlags collects repeated --option NAME=VALUE.
type optionFlags []string

func (o *optionFlags) String() string     { return strings.Join(*o, ",") }
func (o *optionFlags) Set(s string) error { *o = append(*o, s); return nil }
