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
	"github.com/refereed/refereed/store"
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
	db, closeDB, err := d.open(ctx, m)
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed mailpass: %v\n", err)
		return exitUsage
	}
	referee := db.Meta("address")
	if referee == "" { // no daemon has run on this store yet: the one it will run as, unconfigured
		referee = "referee@localhost"
	}
	secret := d.mailSecret(m, db)
	closeDB()
	addrs := fs.Args()
	if len(addrs) == 0 {
		addrs = []string{referee}
	}
	if n := printMailPasswords(m.Stdout, secret, referee, addrs...); n == 0 {
		where := d.where(m)
		if d.shared() {
			where = "the database " + where + " (its settings' setting/mail-secret, made by a command that creates games or by the first serve with the built-in mail server)"
		}
		fmt.Fprintf(m.Stderr, "refereed mailpass: no per-address passwords in %s (the daemon runs with --config or --mail-password), or no address of its domain\n", where)
		return exitUsage
	}
	return exitOK
}

// mailSecret is the secret behind the built-in mail server's per-address passwords, nil when
// there is none: in the data directory's mail-secret, or, for a PostgreSQL store (which
// several instances share, each with its own mail server), in the database's settings.
func (d dataFlags) mailSecret(m *Main, db *store.DB) []byte {
	if d.shared() {
		return []byte(strings.TrimSpace(db.Meta("mail-secret")))
	}
	secret, err := os.ReadFile(filepath.Join(d.where(m), "mail-secret"))
	if err != nil {
		return nil
	}
	return []byte(strings.TrimSpace(string(secret)))
}

// printMailPasswords tells the operator the local mail server's password of each address of
// its domain, when the data directory runs one with per-address passwords (serve without
// --config): each player reads his own mail only. It returns how many it printed.
func printMailPasswords(w io.Writer, secret []byte, referee string, addrs ...string) int {
	if len(secret) == 0 {
		return 0
	}
	_, domain, _ := strings.Cut(referee, "@")
	if domain == "" {
		domain = "localhost"
	}
	n := 0
	for _, a := range addrs {
		if _, d, _ := strings.Cut(a, "@"); strings.EqualFold(d, domain) {
			fmt.Fprintf(w, "local mail: %s logs in with password %s\n", a, localmail.PasswordFor(secret, a))
			n++
		}
	}
	return n
}

// makeMailSecret makes, in a data directory just created, the secret behind the built-in mail
// server's per-address passwords, as the daemon's first start would: the players' passwords
// are printed by the command that created it (issue 33: none were until a daemon had run).
// A daemon later started with --config or --mail-password does not use it. A PostgreSQL
// store keeps it in its settings (mail-secret), made when a game is first created there.
func (d dataFlags) makeMailSecret(m *Main, db *store.DB) error {
	if d.shared() {
		_, err := db.MetaOrSet("mail-secret", newSecret())
		return err
	}
	if m.db != nil {
		return nil
	}
	_, _, err := localSecret(*d.dir)
	return err
}
