// Command refereed is the play-by-email referee for chess variants: the daemon and its admin
// and archive subcommands. This package is wiring only; each subcommand is one file.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/refereed/refereed/store"
	_ "github.com/refereed/refereed/variant/all"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	m := &Main{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}
	os.Exit(m.Run(ctx, os.Args[1:]))
}

// Main runs one invocation; tests start it in-process with their own writers.
type Main struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer

	db *store.DB // set inside the daemon: admin commands use its open store
	// openStore, when set, replaces how serve opens its store (tests: an open that hangs).
	openStore func(*serveOptions, *slog.Logger) (*store.DB, string, error)
}

// Exit codes shared by the subcommands.
const (
	exitOK      = 0
	exitInvalid = 1 // a record or game is invalid
	exitUsage   = 2 // bad arguments or unreadable input
)

type subcommand struct {
	name, summary string
	run           func(m *Main, ctx context.Context, args []string) int
}

func (m *Main) subcommands() []subcommand {
	return []subcommand{
		{"verify", "replay every game of PGN files and report the invalid ones", (*Main).runVerify},
		{"rate", "rate the players of PGN archives with Glicko-2, per variant", (*Main).runRate},
		{"replay", "replay one game record and print its final position and result", (*Main).runReplay},
		{"serve", "run the referee daemon (with no configuration: a local mail server too)", (*Main).runServe},
		{"perft", "count legal move paths to a depth (move generator check)", (*Main).runPerft},
		{"variants", "list the games refereed plays", (*Main).runVariants},
		{"new", "create a game between two mail addresses", (*Main).runNew},
		{"tournament", "create, list, show, export a round-robin tournament; withdraw a player", (*Main).runTournament},
		{"list", "list the games in the store", (*Main).runList},
		{"ratings", "list the players' ratings from the rated games, per variant", (*Main).runRatings},
		{"show", "show a game as a player or the referee sees it", (*Main).runShow},
		{"export", "write games as PGN with their revealed logs", (*Main).runExport},
		{"backup", "write a consistent snapshot of the store", (*Main).runBackup},
		{"restore", "put a backup back as the store (the daemon stopped)", (*Main).runRestore},
		{"inbox", "list, show, drop or retry the mail waiting or quarantined", (*Main).runInbox},
		{"web", "serve the read-only web archive of a store or backup, without the daemon", (*Main).runWeb},
		{"migrate", "copy a whole store between a data directory's file and PostgreSQL", (*Main).runMigrate},
		{"compact", "give the store's free space back (the daemon stopped)", (*Main).runCompact},
		{"mailpass", "print the built-in mail server's password of the referee or of addresses", (*Main).runMailpass},
		{"version", "print the version", (*Main).runVersion},
	}
}

// Run dispatches to a subcommand and returns the process exit code.
func (m *Main) Run(ctx context.Context, args []string) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		m.usage(m.Stdout)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	if args[0] == "--version" || args[0] == "-version" {
		return m.runVersion(ctx, nil)
	}
	if adminCommands[args[0]] && m.db == nil && storeURLOf(args[1:]) == "" {
		if code, ok := m.forward(args); ok {
			return code
		}
	}
	for _, sc := range m.subcommands() {
		if sc.name != args[0] {
			continue
		}
		if asksHelp(args[1:]) {
			// Help that was asked for is output, not an error: it goes to stdout.
			h := *m
			h.Stderr = m.Stdout
			return sc.run(&h, ctx, args[1:])
		}
		return sc.run(m, ctx, args[1:])
	}
	fmt.Fprintf(m.Stderr, "refereed: unknown command %q\n\n", args[0])
	m.usage(m.Stderr)
	return exitUsage
}

func (m *Main) usage(w io.Writer) {
	fmt.Fprintln(w, "refereed: a play-by-email referee for chess variants")
	fmt.Fprintln(w, "\nUsage: refereed COMMAND [options]\n\nCommands:")
	for _, sc := range m.subcommands() {
		fmt.Fprintf(w, "  %-10s %s\n", sc.name, sc.summary)
	}
	fmt.Fprintln(w, "\nRun 'refereed COMMAND -h' for a command's options.")
}

// asksHelp reports whether a subcommand's arguments ask for its help.
func asksHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "-h", "-help", "--help":
			return true
		case "--":
			return false
		}
	}
	return false
}

// usageCode is the exit code after a flag error: 0 when the user asked for -h, else 2.
func usageCode(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	return exitUsage
}

// flagSet is a subcommand's flags: its errors go to the command's error output, and its usage
// is usage (the synopsis and what the command does) followed by the flags.
func (m *Main) flagSet(name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(m.Stderr)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), usage)
		fs.PrintDefaults()
	}
	return fs
}
