package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/refereed/refereed/archive"
	"github.com/refereed/refereed/store"
)

// runMigrate copies a whole store between the two backends, and checks the copy game by game.
func (m *Main) runMigrate(ctx context.Context, args []string) int {
	fs := m.flagSet("migrate", "Usage: refereed migrate --from STORE --to STORE\n\nCopies a whole store into a new, empty one: a data directory's file into PostgreSQL,\nor back. STORE is a data directory, a store or backup file, or a PostgreSQL URL\n(postgres://user@host/db). Every game's export is then compared between the two.\nStop the daemons on both first.")
	from := fs.String("from", "", "the store to copy")
	to := fs.String("to", "", "the new store (created if a file; a database must exist and hold no game)")
	if err := fs.Parse(args); err != nil {
		return usageCode(err)
	}
	if fs.NArg() > 0 || *from == "" || *to == "" {
		fs.Usage()
		return exitUsage
	}
	src, err := openMigrateStore(*from, false)
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed migrate: --from: %v\n", err)
		return exitUsage
	}
	defer src.Close()
	dst, err := openMigrateStore(*to, true)
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed migrate: --to: %v\n", err)
		return exitUsage
	}
	defer dst.Close()
	n, err := store.Copy(dst, src)
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed migrate: %v\n", err)
		return exitInvalid
	}
	fmt.Fprintf(m.Stdout, "copied %s to %s: %d games (%d events), %d tournaments, %d mails waiting, %d processed, %d in the outbox, %d sent\n",
		src.Path(), dst.Path(), n.Games, n.Events, n.Tournaments, n.Inbox, n.Processed, n.Outbox, n.Sent)
	checked, err := sameExports(src, dst)
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed migrate: the copy differs: %v\n", err)
		return exitInvalid
	}
	fmt.Fprintf(m.Stdout, "checked: the %d games export the same from both\n", checked)
	switch copied, err := copyMailSecret(src, dst); {
	case err != nil:
		fmt.Fprintf(m.Stderr, "refereed migrate: the built-in mail server's secret (players' mail passwords) was not copied: %v\n", err)
		return exitInvalid
	case copied:
		fmt.Fprintln(m.Stdout, "the built-in mail server's secret copied: the players' mail passwords stay the same")
	}
	return exitOK
}

// copyMailSecret copies the secret behind the built-in mail server's per-address passwords,
// if src has one: a data directory keeps it in its mail-secret file, a database in its
// settings (setting/mail-secret). Without it a store moved to the other backend would give
// every player, and the referee, a new password.
func copyMailSecret(src, dst *store.DB) (bool, error) {
	var secret string
	if src.Postgres() {
		secret = src.Meta("mail-secret")
	} else {
		b, err := os.ReadFile(filepath.Join(filepath.Dir(src.Path()), "mail-secret"))
		if errors.Is(err, fs.ErrNotExist) {
			return false, nil
		} else if err != nil {
			return false, err
		}
		secret = string(b)
	}
	if secret = strings.TrimSpace(secret); secret == "" {
		return false, nil
	}
	if dst.Postgres() {
		return true, dst.SetMeta("mail-secret", secret)
	}
	return true, os.WriteFile(filepath.Join(filepath.Dir(dst.Path()), "mail-secret"), []byte(secret+"\n"), 0o600)
}

// openMigrateStore opens a store named as migrate's options name them; a new file is created
// only for the destination.
func openMigrateStore(where string, create bool) (*store.DB, error) {
	if store.IsURL(where) {
		db, err := store.OpenURL(where, store.Options{})
		if err != nil {
			return nil, err
		}
		// What an instance writes after the copy began would be lost from the copy.
		if holder, _, live, err := db.Leader(); err == nil && live {
			db.Close()
			return nil, fmt.Errorf("%s: the instance %s leads it: stop every refereed serve on it first", db.Path(), holder)
		}
		return db, nil
	}
	if strings.Contains(where, "://") {
		return nil, fmt.Errorf("%q: want a data directory, a store file or a PostgreSQL URL (postgres://user@host/db)", where)
	}
	path := where
	fi, err := os.Stat(where)
	switch {
	case err == nil && fi.IsDir():
		path = filepath.Join(where, dbName)
	case errors.Is(err, fs.ErrNotExist) && !strings.HasSuffix(where, ".db"):
		path = filepath.Join(where, dbName) // a new data directory
	}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		if !create {
			return nil, fmt.Errorf("no store at %s", where)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, err
		}
	}
	return store.Open(path, store.Options{})
}

// sameExports compares every game's export (its PGN with the referee's record) between a and
// b, and returns how many games it compared.
func sameExports(a, b *store.DB) (int, error) {
	n := 0
	err := a.View(func(ta *store.Tx) error {
		return b.View(func(tb *store.Tx) error {
			na, err := ta.GameCount()
			if err != nil {
				return err
			}
			nb, err := tb.GameCount()
			if err != nil {
				return fmt.Errorf("the copy: %w", err)
			}
			if na != nb {
				return fmt.Errorf("%d games, %d in the copy", na, nb)
			}
			return ta.EachGame(func(g *store.Game) error {
				var ea, eb bytes.Buffer
				if err := archive.Export(ta, g.ID, &ea, archive.LiveHidden); err != nil {
					return fmt.Errorf("game %d: %w", g.ID, err)
				}
				if err := archive.Export(tb, g.ID, &eb, archive.LiveHidden); err != nil {
					return fmt.Errorf("game %d in the copy: %w", g.ID, err)
				}
				if !bytes.Equal(ea.Bytes(), eb.Bytes()) {
					return fmt.Errorf("game %d exports differently", g.ID)
				}
				n++
				return nil
			})
		})
	})
	return n, err
}
