package main

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/refereed/refereed/store"
)

func run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	m := &Main{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}
	code := m.Run(context.Background(), args)
	return code, out.String(), errb.String()
}

func TestVerifyReportsInvalidGames(t *testing.T) {
	code, out, _ := run(t, "verify", "testdata/mixed.pgn")
	if code != exitInvalid {
		t.Errorf("exit %d, want %d", code, exitInvalid)
	}
	for _, want := range []string{
		"game 2 (line 13) [White Cid, Black Dee, Event Illegal]: move 2 Ke3: no king can move to e3",
		"game 3 (line 15) [White Eve, Black Fay, Event Wrong result]: result: the record says 1-0 but the final position says 0-1 (Black checkmated White)",
		"game 4 (line 22): tag Event: value not closed",
		"4 games, 1 valid, 3 invalid",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "game 1 ") {
		t.Errorf("valid game reported:\n%s", out)
	}
}

func TestVerifyJSON(t *testing.T) {
	code, out, _ := run(t, "verify", "--json", "testdata/mixed.pgn")
	if code != exitInvalid {
		t.Errorf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d JSON lines, want 3 invalid + summary:\n%s", len(lines), out)
	}
	var first struct {
		Type, Where, Move, Reason string
		Game                      int
		Tags                      map[string]string
	}
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil {
		t.Fatal(err)
	}
	if first.Type != "invalid" || first.Game != 2 || first.Where != "move 2" || first.Move != "Ke3" || first.Tags["White"] != "Cid" {
		t.Errorf("first invalid game: %+v", first)
	}
	var sum struct {
		Type                  string
		Games, Valid, Invalid int
	}
	json.Unmarshal([]byte(lines[3]), &sum)
	if sum.Type != "summary" || sum.Games != 4 || sum.Valid != 1 || sum.Invalid != 3 {
		t.Errorf("summary %+v", sum)
	}
}

func TestVerifyExitCodes(t *testing.T) {
	if code, _, errs := run(t, "verify", "testdata/no-such-file.pgn"); code != exitUsage || !strings.Contains(errs, "no-such-file") {
		t.Errorf("missing file: exit %d, %q", code, errs)
	}
	if code, out, _ := run(t, "verify", "../../../shared/examples/records/transactional-notation-example.pgn"); code != exitOK || !strings.Contains(out, "1 games, 1 valid, 0 invalid") {
		t.Errorf("Transactional record (fixtures §1.1): exit %d\n%s", code, out)
	}
	if code, _, _ := run(t, "verify"); code != exitUsage {
		t.Errorf("no files: exit %d", code)
	}
}

func TestReplay(t *testing.T) {
	code, out, _ := run(t, "replay", "--json", "testdata/mixed.pgn")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, out)
	}
	var rep replayReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Variant != "orthodox" || rep.Result != "0-1" || rep.Termination != "checkmate" || rep.Plies != 4 ||
		rep.FEN != "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3" || rep.Warnings == nil {
		t.Errorf("report %+v", rep)
	}
	code, out, errs := run(t, "replay", "--game", "2", "testdata/mixed.pgn")
	if code != exitInvalid || !strings.Contains(errs, "move 2 Ke3: no king can move to e3") || !strings.Contains(out, "a  b  c") {
		t.Errorf("illegal record: exit %d\n%s\n%s", code, out, errs)
	}
	code, out, _ = run(t, "replay", "testdata/mixed.pgn")
	if code != exitOK || !strings.Contains(out, "Result: 0-1 (checkmate: Black checkmated White)") || !strings.Contains(out, "FEN: rnb1kbnr") {
		t.Errorf("text replay: exit %d\n%s", code, out)
	}
}

func TestPerftCommand(t *testing.T) {
	code, out, _ := run(t, "perft", "--divide", "2")
	if code != exitOK || !strings.Contains(out, "e2e4: 20\n") || !strings.Contains(out, "nodes 400\n") {
		t.Errorf("perft --divide 2: exit %d\n%s", code, out)
	}
	code, out, _ = run(t, "perft", "--fen", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "3")
	if code != exitOK || !strings.Contains(out, "nodes 97862\n") {
		t.Errorf("kiwipete perft 3: %s", out)
	}
	if code, _, errs := run(t, "perft", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1", "1"); code != exitUsage || !strings.Contains(errs, "kings") {
		t.Errorf("kingless FEN: exit %d %q", code, errs)
	}
}

func TestUnknownCommand(t *testing.T) {
	if code, _, errs := run(t, "frobnicate"); code != exitUsage || !strings.Contains(errs, `unknown command "frobnicate"`) {
		t.Errorf("exit %d %q", code, errs)
	}
}

// Help that is asked for goes to stdout and exits 0, for refereed and each subcommand; a
// subcommand lists only the options that apply to it.
func TestHelpToStdout(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"--help"}, {"help"}, {"new", "-h"}, {"list", "-h"}, {"show", "--help"}, {"export", "-h"},
		{"backup", "-h"}, {"restore", "-h"}, {"verify", "-h"}, {"replay", "-h"}, {"perft", "-h"}, {"serve", "-h"}} {
		code, out, errs := run(t, args...)
		if code != exitOK || !strings.Contains(out, "Usage") || errs != "" {
			t.Errorf("%v: exit %d\nstdout %q\nstderr %q", args, code, out, errs)
		}
	}
	_, out, _ := run(t, "backup", "-h")
	if strings.Contains(out, "-address") || !strings.Contains(out, "-data") {
		t.Errorf("backup -h lists options that do not apply:\n%s", out)
	}
	if code, _, errs := run(t, "list", "--bogus"); code != exitUsage || !strings.Contains(errs, "Usage") {
		t.Errorf("a wrong flag: exit %d, stderr %q", code, errs)
	}
}

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"version"}} {
		code, out, _ := run(t, args...)
		if code != exitOK || !strings.HasPrefix(out, "refereed ") || !strings.Contains(out, "go1.") {
			t.Errorf("%v: exit %d %q", args, code, out)
		}
	}
}

// The config's organizer is held to the address rule before anything starts (issue 20: the
// referee's own plus address was taken, and its password printed).
func TestServeRefusesConfigOrganizer(t *testing.T) {
	for _, bad := range []string{"referee+td@example.org", "referee@example.org", `"q q"@example.org`} {
		cfg := filepath.Join(t.TempDir(), "refereed.toml")
		os.WriteFile(cfg, []byte("address = \"referee@example.org\"\norganizer = '"+bad+"'\n[imap]\naddr = \"127.0.0.1:1\"\n[smtp]\naddr = \"127.0.0.1:1\"\n"), 0o600)
		code, _, stderr := run(t, "serve", "--data", t.TempDir(), "--config", cfg)
		if code != exitUsage || !strings.Contains(stderr, "organizer") {
			t.Errorf("organizer %q: exit %d, %s", bad, code, stderr)
		}
	}
}

// SIGTERM while the store opens (issue 38: after a crash bbolt reads a large file whole, and
// the daemon was deaf meanwhile): the daemon says so and stops at once, with a clean exit;
// the store it was opening is closed when its open ends.
func TestServeStopsWhileTheStoreOpens(t *testing.T) {
	release, opening := make(chan struct{}), make(chan struct{})
	closed := make(chan struct{})
	var errb bytes.Buffer
	m := &Main{Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &errb,
		openStore: func(o *serveOptions, _ *slog.Logger) (*store.DB, string, error) {
			close(opening)
			<-release
			db, err := store.Open(filepath.Join(o.data, "refereed.db"), store.Options{NoSync: true})
			go func() { // the daemon closes it: its lock is given back
				for {
					if d, err := store.Open(filepath.Join(o.data, "refereed.db"), store.Options{Timeout: 50 * time.Millisecond}); err == nil {
						d.Close()
						close(closed)
						return
					}
				}
			}()
			return db, o.data, err
		}}
	ctx, cancel := context.WithCancel(context.Background())
	codes := make(chan int)
	go func() {
		codes <- m.Run(ctx, []string{"serve", "--data", t.TempDir(), "--imap", "127.0.0.1:0", "--smtp", "127.0.0.1:0"})
	}()
	<-opening
	cancel() // what SIGTERM does
	select {
	case code := <-codes:
		if code != exitOK || !strings.Contains(errb.String(), "stopping while the store opens") {
			t.Fatalf("exit %d:\n%s", code, errb.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the daemon did not stop while its store opened")
	}
	close(release)
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatal("the store opened after the stop was never closed")
	}
}

// The built-in mail server listens beyond loopback only with TLS: refused at start, with
// what to do (issue 36); a certificate and key go together.
func TestServeNetworkNeedsTLS(t *testing.T) {
	code, _, errs := run(t, "serve", "--data", t.TempDir(), "--imap", "0.0.0.0:0", "--smtp", "127.0.0.1:0")
	if code == exitOK || !strings.Contains(errs, "reachable from other machines, and the mail server has no TLS") || !strings.Contains(errs, "--tls-cert FILE --tls-key FILE") {
		t.Errorf("serve on 0.0.0.0 without TLS: %d %s", code, errs)
	}
	code, _, errs = run(t, "serve", "--data", t.TempDir(), "--imap", "127.0.0.1:0", "--smtp", "127.0.0.1:0", "--tls-cert", "x.pem")
	if code == exitOK || !strings.Contains(errs, "--tls-cert and --tls-key go together") {
		t.Errorf("a certificate without its key: %d %s", code, errs)
	}
	if n, err := parseSize("2GiB"); err != nil || n != 2<<30 {
		t.Errorf("2GiB: %d %v", n, err)
	}
	for _, bad := range []string{"lots", "-1G", "1e30"} {
		if _, err := parseSize(bad); err == nil {
			t.Errorf("%q read as a size", bad)
		}
	}
}
