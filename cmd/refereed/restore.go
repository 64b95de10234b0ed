package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/refereed/refereed/store"
)

func (m *Main) runRestore(ctx context.Context, args []string) int {
	fs := m.flagSet("restore", "Usage: refereed restore [--data DIR] FILE\n\nPuts a backup written by 'refereed backup' back as the data directory's store.\nThe daemon must be stopped. The store it replaces is kept beside it as\nrefereed.db.before-restore-TIME. Creates the data directory if there is none.")
	d := addDataFlags(fs)
	if err := parseInterspersed(fs, args); err != nil {
		return usageCode(err)
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return exitUsage
	}
	if d.shared() {
		fmt.Fprintln(m.Stderr, "refereed restore: a PostgreSQL store is restored with its own tools (pg_restore); to load a backup file into it, use refereed migrate --from FILE --to URL")
		return exitUsage
	}
	if m.db != nil {
		fmt.Fprintln(m.Stderr, "refereed restore: the daemon is running on this data directory; stop it first")
		return exitUsage
	}
	msg, err := restore(fs.Arg(0), *d.dir, time.Now())
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed restore: %v\n", err)
		return exitInvalid
	}
	// The players of games in progress are told, and mail numbers move apart from those
	// sent since the backup.
	taken := time.Now()
	if fi, err := os.Stat(fs.Arg(0)); err == nil {
		taken = fi.ModTime()
	}
	db, err := store.Open(d.dbPath(), store.Options{})
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed restore: %v\n", err)
		return exitInvalid
	}
	n, err := refereeOf(db, "").AfterRestore(taken)
	db.Close()
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed restore: restored, but telling the players failed: %v\n(some may have been told: restore the same backup again, and all are told once)\n", err)
		return exitInvalid
	}
	if n > 0 {
		msg += fmt.Sprintf("; %d mail(s) queued to tell the players of games in progress", n)
	}
	fmt.Fprintf(m.Stdout, "%s; data in %s\n", msg, d.where(m))
	return exitOK
}

// restore copies the backup file into dir as its store, checked first (it must open as a
// store), and keeps the store it replaces. The daemon must not hold the store: the store's
// file lock says whether it does.
func restore(file, dir string, now time.Time) (string, error) {
	src, err := os.Open(file)
	if err != nil {
		return "", err
	}
	defer src.Close()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("data directory: %w", err)
	}
	target := filepath.Join(dir, dbName)
	if _, err := os.Stat(target); err == nil {
		cur, err := store.Open(target, store.Options{})
		if err != nil {
			return "", fmt.Errorf("%w; stop the daemon first", err)
		}
		cur.Close()
	}
	tmp := target + ".restore"
	if err := copyFile(tmp, src); err != nil {
		os.Remove(tmp)
		return "", err
	}
	games, err := countGames(tmp)
	if err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("%s is not a refereed backup: %w", file, err)
	}
	kept := ""
	if _, err := os.Stat(target); err == nil {
		kept = target + ".before-restore-" + now.UTC().Format("20060102-150405")
		if err := os.Rename(target, kept); err != nil {
			os.Remove(tmp)
			return "", err
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		os.Remove(tmp)
		return "", err
	}
	if err := os.Rename(tmp, target); err != nil {
		return "", err
	}
	msg := fmt.Sprintf("restored %s (%d game(s))", file, games)
	if kept != "" {
		msg += "; the store it replaced is kept as " + kept
	}
	return msg, nil
}

func copyFile(path string, src io.Reader) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	_, err = io.Copy(f, src)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// countGames opens a store file (bringing its layout up to date, as the daemon would) and
// counts its games.
func countGames(path string) (int, error) {
	db, err := store.Open(path, store.Options{})
	if err != nil {
		return 0, err
	}
	defer db.Close()
	n := 0
	err = db.View(func(tx *store.Tx) (err error) {
		n, err = tx.GameCount()
		return err
	})
	return n, err
}
