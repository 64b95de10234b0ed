package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/web"
)

// runWeb serves the web archive of a data directory or a backup file, read-only, without
// the daemon (which holds the store's lock: stop it, or serve a backup).
func (m *Main) runWeb(ctx context.Context, args []string) int {
	fs := m.flagSet("web", "Usage: refereed web [--data DIR|FILE] [--listen ADDR]\n\nServe the read-only web archive of a store without the daemon.")
	data := fs.String("data", "refereed-data", "data directory (holds "+dbName+"), or a store or backup file")
	listen := fs.String("listen", "127.0.0.1:8080", "address to serve the archive on")
	url := storeFlag(fs)
	if err := fs.Parse(args); err != nil {
		return usageCode(err)
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return exitUsage
	}
	path := *data
	if *url != "" && !store.IsURL(*url) {
		fmt.Fprintf(m.Stderr, "refereed web: --store %q: want a PostgreSQL URL (postgres://user@host/db)\n", *url)
		return exitUsage
	}
	if store.IsURL(*url) {
		path = *url
	} else if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		path = filepath.Join(path, dbName)
	}
	if _, err := os.Stat(path); err != nil && !store.IsURL(path) {
		fmt.Fprintf(m.Stderr, "refereed web: %v\n", err)
		return exitUsage
	}
	db, err := store.OpenURL(path, store.Options{ReadOnly: true})
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed web: %v\n", err)
		return exitInvalid
	}
	defer db.Close()
	log := slog.New(slog.NewTextHandler(m.Stderr, nil))
	stop, addr, err := startWeb(ctx, *listen, db, log, nil)
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed web: %v\n", err)
		return exitInvalid
	}
	fmt.Fprintf(m.Stdout, "Web archive of %s (read-only) at http://%s/ ; stop with Ctrl-C.\n", db.Path(), addr)
	<-ctx.Done()
	stop()
	return exitOK
}

// startWeb serves the archive of db on listen until stop is called or ctx ends; it returns
// the address it listens on.
// startWeb serves the web archive on listen; mail, when set, serves the built-in mail
// server's client settings beside it (/mail/, /.well-known/autoconfig/, /apple/).
func startWeb(ctx context.Context, listen string, db *store.DB, log *slog.Logger, mail http.Handler) (stop func(), addr string, err error) {
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return nil, "", fmt.Errorf("web: %w", err)
	}
	h := web.New(db)
	h.Log = log.With("part", "web")
	var root http.Handler = h
	if mail != nil {
		mux := http.NewServeMux()
		mux.Handle("/", h)
		for _, p := range []string{"/mail/", "/.well-known/autoconfig/", "/apple/"} {
			mux.Handle(p, mail)
		}
		root = mux
	}
	srv := web.Server(listen, root)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("web archive", "err", err)
		}
	}()
	stop = func() {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
		<-done
	}
	return stop, ln.Addr().String(), nil
}
