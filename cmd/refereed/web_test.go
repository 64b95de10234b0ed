package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/refereed/refereed/store"
)

// TestWebServesAStoreReadOnly serves a data directory's store opened read-only.
func TestWebServesAStoreReadOnly(t *testing.T) {
	dir := t.TempDir()
	if code, out, errs := run(t, "new", "--data", dir, "--variant", "orthodox", "--white", "ann@localhost", "--black", "bob@localhost"); code != exitOK {
		t.Fatalf("new: %d\n%s%s", code, out, errs)
	}
	db, err := store.Open(filepath.Join(dir, dbName), store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	stop, addr, err := startWeb(context.Background(), "127.0.0.1:0", db, slog.New(slog.NewTextHandler(io.Discard, nil)), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	for path, want := range map[string]int{"/": 200, "/game/1": 200, "/game/2": 404} {
		resp, err := http.Get("http://" + addr + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("%s: %d, want %d", path, resp.StatusCode, want)
		}
		if strings.Contains(string(body), "@localhost") {
			t.Errorf("%s shows an address:\n%s", path, body)
		}
	}
	if code, _, errs := run(t, "web", "--data", filepath.Join(dir, "nothing-here")); code != exitUsage {
		t.Errorf("web on a missing store: %d\n%s", code, errs)
	}
	if code, _, errs := run(t, "web", "--data", dir, "--listen", "not an address"); code != exitInvalid {
		t.Errorf("web on a bad address: %d\n%s", code, errs)
	}
}
