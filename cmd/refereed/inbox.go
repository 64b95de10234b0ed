package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"
	"unicode"

	"github.com/refereed/refereed/parser"
	"github.com/refereed/refereed/store"
)

// runInbox lets an operator see and act on the mail the daemon holds: waiting to be
// processed, or quarantined after failing repeatedly (a poison mail never crash-loops the
// daemon; it waits here).
func (m *Main) runInbox(ctx context.Context, args []string) int {
	fs := m.flagSet("inbox", `Usage: refereed inbox list|show KEY|drop KEY|retry KEY [--data DIR]

The mail the daemon has fetched and not yet processed, and the mail it quarantined
after failing to process it several times.
  list       one line a mail: key, state, attempts, size, sender, subject
  show KEY   the mail's header and error, and its raw text (control characters escaped)
  drop KEY   delete it; it counts as processed and is not fetched again
  retry KEY  put a quarantined mail back in line, its attempts forgotten`)
	d := addDataFlags(fs)
	if err := parseInterspersed(fs, args); err != nil {
		return usageCode(err)
	}
	rest := fs.Args()
	if len(rest) == 0 || (rest[0] == "list") != (len(rest) == 1) || len(rest) > 2 {
		fs.Usage()
		return exitUsage
	}
	var key store.InboxKey
	if rest[0] != "list" {
		var err error
		if key, err = store.ParseInboxKey(rest[1]); err != nil {
			fmt.Fprintf(m.Stderr, "refereed inbox: %v\n", err)
			return exitUsage
		}
	}
	db, closeDB, err := d.open(ctx, m)
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed inbox: %v\n", err)
		return exitUsage
	}
	defer closeDB()
	switch rest[0] {
	case "list":
		tw := tabwriter.NewWriter(m.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "KEY\tSTATE\tTRIES\tSIZE\tFROM\tSUBJECT")
		n := 0
		err = db.View(func(tx *store.Tx) error {
			return tx.InboxAll(func(im store.InboundMail) error {
				n++
				from, subject := summary(im.Raw)
				fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%s\n", im.Key, state(im), im.Attempts, size(im), from, subject)
				return nil
			})
		})
		tw.Flush()
		fmt.Fprintf(m.Stdout, "%d mail(s); data in %s\n", n, d.where(m))
	case "show":
		err = db.View(func(tx *store.Tx) error {
			im, err := tx.Inbound(key)
			if err != nil {
				return err
			}
			fmt.Fprintf(m.Stdout, "key: %s\nstate: %s\nattempts: %d\nfetched: %s\nsize: %d\n", im.Key, state(*im), im.Attempts, im.Fetched.UTC().Format("2006-01-02 15:04:05"), size(*im))
			if im.Error != "" {
				fmt.Fprintf(m.Stdout, "error: %s\n", printable(im.Error))
			}
			fmt.Fprintln(m.Stdout)
			for _, line := range strings.Split(string(im.Raw), "\n") {
				fmt.Fprintln(m.Stdout, printable(strings.TrimSuffix(line, "\r")))
			}
			return nil
		})
	case "drop":
		err = db.Update(func(tx *store.Tx) error { return tx.DropInbound(key) })
		if err == nil {
			fmt.Fprintf(m.Stdout, "mail %s dropped: it will not be processed or fetched again\n", key)
		}
	case "retry":
		err = db.Update(func(tx *store.Tx) error { return tx.Release(key) })
		if err == nil {
			fmt.Fprintf(m.Stdout, "mail %s is back in line: the daemon processes it next time it looks\n", key)
		}
	default:
		fs.Usage()
		return exitUsage
	}
	if errors.Is(err, store.ErrNotFound) {
		fmt.Fprintf(m.Stderr, "refereed inbox: no mail %s in the inbox (refereed inbox list shows them)\n", key)
		return exitInvalid
	}
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed inbox: %v\n", err)
		return exitInvalid
	}
	return exitOK
}

func state(m store.InboundMail) string {
	switch {
	case !m.Quarantined.IsZero():
		return "quarantined " + m.Quarantined.UTC().Format("2006-01-02 15:04")
	case m.Attempts > 0:
		return "failing"
	}
	return "waiting"
}

func size(m store.InboundMail) int64 {
	switch {
	case m.Oversize > 0:
		return m.Oversize
	case m.Partial > 0:
		return m.Partial
	}
	return int64(len(m.Raw))
}

// summary is a mail's sender and subject, made safe for a terminal.
func summary(raw []byte) (from, subject string) {
	msg, err := parser.Parse(raw)
	if err != nil {
		return "?", "(unreadable)"
	}
	return printable(cut(msg.From, 40)), printable(cut(msg.Subject, 50))
}

func cut(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// printable escapes the control characters of text that came by mail, so that it cannot
// move an operator's cursor, clear the screen or retitle the terminal.
func printable(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\t':
			b.WriteString("  ")
		case r == unicode.ReplacementChar || unicode.IsControl(r) || (r >= 0x200e && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069):
			fmt.Fprintf(&b, "\\x{%x}", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
