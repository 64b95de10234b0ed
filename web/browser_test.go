package web

import (
	"bytes"
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/referee/organizer"
	"github.com/refereed/refereed/store"
)

// chromium finds Debian's headless browser for the real-browser test, which runs only when
// asked (REFEREED_TEST_BROWSER=1: .ci/run installs chromium and asks): it takes minutes on a
// loaded machine, and `go test ./...` is a newcomer's few minutes. Asked for without a
// chromium, it fails.
func chromium(t *testing.T) string {
	if os.Getenv("REFEREED_TEST_BROWSER") != "1" {
		t.Skip("the real-browser test runs when asked: REFEREED_TEST_BROWSER=1 go test -run TestInABrowser ./web (Debian's chromium; .ci/run does)")
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatal("no chromium on this machine (apt-get install chromium)")
	return ""
}

// browse has the real browser load url headless and returns the page as it built it (its DOM).
func browse(t *testing.T, bin, url string, extra ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	args := append([]string{"--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
		"--no-first-run", "--user-data-dir=" + t.TempDir()}, extra...)
	cmd := exec.CommandContext(ctx, bin, append(args, url)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %s: %v\n%s", url, err, errb.String())
	}
	return out.String()
}

// The archive in a real browser: a finished game's page and its steps render (the board
// changes from step to step, the links lead on), a screenshot of the game page is kept, and a
// game in progress with a pending hidden move shows none of it.
func TestInABrowser(t *testing.T) {
	bin := chromium(t)
	w := newWorld(t)
	done := w.newGame("orthodox")
	for i, mv := range []string{"f3", "e5", "g4", "Qh4"} { // the fool's mate
		w.mail(done, chess.Color(i%2), mv)
	}
	hidden := w.newGame("transactional")
	w.mail(hidden, chess.White, "Nf3") // pending: Black may not know it
	// A finished rated tournament of three: every game ended by resignation.
	tid, err := w.ref.Tournaments().New(organizer.Options{Name: "Winter Cup", Variant: "orthodox", Players: []string{ann, bob, "cy@example.org"}, Rated: true})
	if err != nil {
		t.Fatal(err)
	}
	var games []uint64
	w.db.View(func(tx *store.Tx) error {
		tr, err := tx.Tournament(tid)
		for _, r := range tr.Rounds {
			for _, p := range r.Games {
				if p.Game != 0 {
					games = append(games, p.Game)
				}
			}
		}
		return err
	})
	for _, id := range games {
		w.mail(id, chess.White, "e4")
		w.mail(id, chess.Black, "RESIGN")
	}
	srv := httptest.NewServer(New(w.db))
	defer srv.Close()

	cup := browse(t, bin, srv.URL+fmt.Sprintf("/tournament/%d", tid), "--dump-dom")
	for _, want := range []string{"Winter Cup", "finished", "Standings", "Crosstable", "cy"} {
		if !strings.Contains(cup, want) {
			t.Errorf("the finished tournament's page in the browser lacks %q:\n%s", want, cup)
		}
	}
	if len(games) != 3 || strings.Contains(cup, "@") {
		t.Errorf("%d games in the tournament, or an address on its page:\n%s", len(games), cup)
	}

	// The ratings it made: the list, and a player's page with his rating's history drawn in SVG.
	list := browse(t, bin, srv.URL+"/ratings?variant=orthodox", "--dump-dom")
	for _, want := range []string{"Orthodox chess", ">cy</a>", "provisional", "?</td>"} {
		if !strings.Contains(list, want) {
			t.Errorf("the ratings page in the browser lacks %q:\n%s", want, list)
		}
	}
	cy := browse(t, bin, srv.URL+"/player/cy", "--dump-dom")
	for _, want := range []string{"<h2>Ratings</h2>", "<svg", "<polyline", "Rating history: 2 rated games"} {
		if !strings.Contains(cy, want) {
			t.Errorf("the player's page in the browser lacks %q:\n%s", want, cy)
		}
	}
	if strings.Contains(list, "@") || strings.Contains(cy, "@") {
		t.Errorf("an address on the ratings pages in the browser:\n%s\n%s", list, cy)
	}

	page := browse(t, bin, srv.URL+fmt.Sprintf("/game/%d", done), "--dump-dom")
	for _, want := range []string{"ann", "bob", "0-1", "Download PGN"} {
		if !strings.Contains(page, want) {
			t.Errorf("the finished game's page in the browser lacks %q:\n%s", want, page)
		}
	}
	if strings.Contains(page, "@") {
		t.Errorf("an address in the browser's page:\n%s", page)
	}
	start := browse(t, bin, srv.URL+fmt.Sprintf("/game/%d?ply=0", done), "--dump-dom")
	after := browse(t, bin, srv.URL+fmt.Sprintf("/game/%d?ply=2", done), "--dump-dom")
	if !strings.Contains(start, "step 0 of") || !strings.Contains(after, "step 2 of") || !strings.Contains(start, "?step=1") {
		t.Errorf("stepping through the moves: step 0 and 2 pages, or the link onward, missing:\n%s\n---\n%s", start, after)
	}
	b0, b2 := boardsOf(start), boardsOf(after)
	switch {
	case len(b0) == 0 || len(b2) == 0:
		t.Errorf("no board in the browser's pages")
	case b0[0][squareIndex("f2")] == "" || b2[0][squareIndex("f3")] == "" || b2[0][squareIndex("f2")] != "" || b2[0][squareIndex("e5")] == "":
		t.Errorf("the boards of step 0 and step 2 do not show f3 and e5 played: %q / %q", b0[0], b2[0])
	}

	dir := os.Getenv("REFEREED_TEST_ARTIFACTS")
	if dir == "" {
		dir = t.TempDir()
	}
	os.MkdirAll(dir, 0o755)
	shot := filepath.Join(dir, "game-page.png")
	browse(t, bin, srv.URL+fmt.Sprintf("/game/%d?ply=4", done), "--screenshot="+shot, "--window-size=1000,1300", "--hide-scrollbars")
	if fi, err := os.Stat(shot); err != nil || fi.Size() < 5000 {
		t.Errorf("no screenshot of the game page at %s: %v", shot, err)
	} else {
		t.Logf("screenshot of the game page: %s (%d bytes)", shot, fi.Size())
	}
	// A phone's width: the tables scroll in their boxes, the page itself does not widen.
	narrow := filepath.Join(dir, "tournament-400px.png")
	browse(t, bin, srv.URL+fmt.Sprintf("/tournament/%d", tid), "--screenshot="+narrow, "--window-size=400,1200")
	if fi, err := os.Stat(narrow); err != nil || fi.Size() < 5000 {
		t.Errorf("no screenshot of the tournament page at 400 px: %v", err)
	} else {
		t.Logf("screenshot of the tournament page at 400 px: %s", narrow)
	}

	// Issue 33: the games list at 400 px, its filters (a label with its input) and results
	// ("1/2-1/2" on one line).
	listShot := filepath.Join(dir, "games-400px.png")
	browse(t, bin, srv.URL+"/", "--screenshot="+listShot, "--window-size=400,900")
	if fi, err := os.Stat(listShot); err != nil || fi.Size() < 5000 {
		t.Errorf("no screenshot of the games list at 400 px: %v", err)
	} else {
		t.Logf("screenshot of the games list at 400 px: %s", listShot)
	}

	// The chart as drawn: a screenshot of the player's page, which must not be blank.
	chartShot := filepath.Join(dir, "player-ratings.png")
	browse(t, bin, srv.URL+"/player/cy", "--screenshot="+chartShot, "--window-size=800,700", "--hide-scrollbars")
	if fi, err := os.Stat(chartShot); err != nil || fi.Size() < 5000 {
		t.Errorf("no screenshot of the player's ratings at %s: %v", chartShot, err)
	} else {
		t.Logf("screenshot of the player's ratings: %s", chartShot)
	}

	going := browse(t, bin, srv.URL+fmt.Sprintf("/game/%d", hidden), "--dump-dom")
	if !strings.Contains(going, "in progress") {
		t.Errorf("the game in progress in the browser:\n%s", going)
	}
	for _, leak := range []string{"Nf3", "g1f3", "f3", "@"} {
		if strings.Contains(going, leak) {
			t.Errorf("the page of a game in progress shows %q, a pending move's trace:\n%s", leak, going)
		}
	}
}
