package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/refereed/refereed/mailer/localmail"
)

// runMailpass prints the built-in mail server's password of the referee (or of the
// addresses given), on demand: serve prints the referee's only when it is first made.
func (m *Main) runMailpass(ctx context.Context, args []string) int {
	fs := flag.NewFlagSet("mailpass", flag.ContinueOnError)
	fs.SetOutput(m.Stderr)
	d := addDataFlags(fs)
	fs.Usage = func() {
		fmt.Fprintln(m.Stderr, "Usage: refereed mailpass [ADDRESS...]\n\nThe built-in mail server's password of the referee, or of each address given.")
		fs.PrintDefaults()
	}
	if err := parseInterspersed(fs, args); err != nil {
		return usageCode(err)
	}
	db, closeDB, err := d.open(m)
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed mailpass: %v\n", err)
		return exitUsage
	}
	referee := db.Meta("address")
	closeDB()
	addrs := fs.Args()
	if len(addrs) == 0 {
		addrs = []string{referee}
	}
	if n := printMailPasswords(m.Stdout, d.where(m), referee, addrs...); n == 0 {
		fmt.Fprintf(m.Stderr, "refereed mailpass: no per-address passwords in %s (the daemon runs with --config or --mail-password), or no address of its domain\n", d.where(m))
		return exitUsage
	}
	return exitOK
}

// printMailPasswords tells the operator the local mail server's password of each address of
// its domain, when the data directory runs one with per-address passwords (serve without
// --config): each player reads his own mail only. It returns how many it printed.
func printMailPasswords(w io.Writer, dataDir, referee string, addrs ...string) int {
	secret, err := os.ReadFile(filepath.Join(dataDir, "mail-secret"))
	if err != nil || len(strings.TrimSpace(string(secret))) == 0 {
		return 0
	}
	_, domain, _ := strings.Cut(referee, "@")
	if domain == "" {
		domain = "localhost"
	}
	n := 0
	for _, a := range addrs {
		if _, d, _ := strings.Cut(a, "@"); strings.EqualFold(d, domain) {
			fmt.Fprintf(w, "local mail: %s logs in with password %s\n", a, localmail.PasswordFor([]byte(strings.TrimSpace(string(secret))), a))
			n++
		}
	}
	return n
}

// makeMailSecret makes, in a data directory just created, the secret behind the built-in mail
// server's per-address passwords, as the daemon's first start would: the players' passwords
// are printed by the command that created it (issue 33: none were until a daemon had run).
// A daemon later started with --config or --mail-password does not use it.
func (d dataFlags) makeMailSecret(m *Main) error {
	if d.shared() || m.db != nil {
		return nil
	}
	_, _, err := localSecret(*d.dir)
	return err
}
