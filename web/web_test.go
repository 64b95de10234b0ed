package web

import (
	"fmt"
	"html"
	"io"
	"math/rand"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/referee"
	"github.com/refereed/refereed/referee/organizer"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/store/storetest"
	"github.com/refereed/refereed/variant"
	_ "github.com/refereed/refereed/variant/all"
)

const (
	ann = "ann@example.com"
	bob = "bob@example.net"
)

var fixedNow = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// world is a store with a referee that tests drive by mail.
type world struct {
	t   testing.TB
	db  *store.DB
	ref *referee.Referee
	uid uint32
}

func newWorld(t testing.TB) *world {
	t.Helper()
	db, err := store.OpenURL(storetest.Location(t, storetest.Default()), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	db.Now = func() time.Time { return fixedNow }
	return &world{t: t, db: db, ref: &referee.Referee{DB: db, Address: "referee@example.org", Rand: rand.New(rand.NewSource(1))}}
}

// games puts n games straight in the store, without mails: game i of the variant and status
// of says (the lists' paging, not the games, under test).
func (w *world) games(n int, of func(i int) (string, store.Status)) {
	w.t.Helper()
	if err := w.db.Update(func(tx *store.Tx) error {
		for i := range n {
			v, st := of(i)
			g := &store.Game{Variant: v, Players: [2]store.Player{{Address: ann, Token: fmt.Sprintf("a%d", i)}, {Address: bob, Token: fmt.Sprintf("b%d", i)}}}
			if err := tx.CreateGame(g); err != nil {
				return err
			}
			if st != store.Active {
				g.Status = st
				if err := tx.PutGame(g); err != nil {
					return err
				}
			}
		}
		return nil
	}); err != nil {
		w.t.Fatal(err)
	}
}

// linkIn is the address of the link in body whose text ends with word ("" when there is none).
func linkIn(body, word string) string {
	if m := regexp.MustCompile(`<a href="([^"]*)">[^<]*` + regexp.QuoteMeta(word)).FindStringSubmatch(body); m != nil {
		return html.UnescapeString(m[1])
	}
	return ""
}

func (w *world) newGame(key string) uint64 {
	w.t.Helper()
	id, err := w.ref.NewGame(key, ann, bob, variant.Options{})
	if err != nil {
		w.t.Fatal(err)
	}
	return id
}

func (w *world) game(id uint64) *store.Game {
	w.t.Helper()
	var g *store.Game
	if err := w.db.View(func(tx *store.Tx) (err error) {
		g, err = tx.Game(id)
		return err
	}); err != nil {
		w.t.Fatal(err)
	}
	return g
}

// mail delivers a plain-text mail from side's player to game id.
func (w *world) mail(id uint64, side chess.Color, body string) {
	w.t.Helper()
	g := w.game(id)
	from := g.Players[side].Address
	w.uid++
	raw := fmt.Sprintf("From: Player <%s>\r\nTo: %s\r\nSubject: Re: your move\r\nMessage-ID: <msg%d.secretmid@%s>\r\nDate: Sun, 22 Nov 2026 11:00:00 +0000\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n",
		from, w.ref.ReplyAddress(g, side), w.uid, strings.SplitN(from, "@", 2)[1], strings.ReplaceAll(body, "\n", "\r\n"))
	if err := w.ref.Handle(store.InboxKey{Mailbox: "INBOX", UIDValidity: 7, UID: w.uid}, []byte(raw)); err != nil {
		w.t.Fatalf("Handle: %v", err)
	}
}

// get fetches path from h and returns the status, headers and body.
func get(t testing.TB, h http.Handler, path string) (int, http.Header, string) {
	t.Helper()
	r := httptest.NewRequest(http.MethodGet, "http://archive.test"+path, nil)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	body, _ := io.ReadAll(rec.Result().Body)
	return rec.Code, rec.Result().Header, string(body)
}

// firstMove is White's first mail in each variant, where "e4" is not it.
var firstMove = map[string]string{"conditional": "A: e4"}

func opening(key string) string {
	if m, ok := firstMove[key]; ok {
		return m
	}
	return "e4"
}

// TestPagesEveryVariant renders a finished game and a game in progress of every variant.
func TestPagesEveryVariant(t *testing.T) {
	w := newWorld(t)
	h := New(w.db)
	for _, key := range variant.Keys() {
		done := w.newGame(key)
		w.mail(done, chess.White, opening(key))
		w.mail(done, chess.Black, "RESIGN")
		if g := w.game(done); !g.Over() || g.Result != "1-0" {
			t.Fatalf("%s: game %d is %s %s after Black resigned", key, done, g.Status, g.Result)
		}
		going := w.newGame(key)
		w.mail(going, chess.White, opening(key))

		code, _, page := get(t, h, fmt.Sprintf("/game/%d", done))
		if code != 200 {
			t.Fatalf("%s: finished game page: %d\n%s", key, code, page)
		}
		for _, want := range []string{"ann", "bob", "finished", "1-0", "Download PGN", "?step=0", "♔", "<pre>"} {
			if !strings.Contains(page, want) {
				t.Errorf("%s: finished game page lacks %q\n%s", key, want, page)
			}
		}
		code, _, page = get(t, h, fmt.Sprintf("/game/%d?ply=0", done))
		if code != 200 || !strings.Contains(page, "step 0 of") {
			t.Errorf("%s: finished game at ply 0: %d\n%s", key, code, page)
		}
		code, hd, pgn := get(t, h, fmt.Sprintf("/game/%d.pgn", done))
		if code != 200 || !strings.Contains(pgn, `[White "ann"]`) || !strings.Contains(pgn, "1-0") || !strings.Contains(hd.Get("Content-Disposition"), "attachment") {
			t.Errorf("%s: PGN: %d\n%s", key, code, pgn)
		}
		code, _, page = get(t, h, fmt.Sprintf("/game/%d", going))
		if code != 200 || !strings.Contains(page, "in progress") || !strings.Contains(page, "ann") {
			t.Errorf("%s: game in progress: %d\n%s", key, code, page)
		}
		pol := variant.MustLookup(key).InProgress
		wantBoard := pol.Position
		if g, _ := variant.MustLookup(key).New(variant.Options{}); pol.Public {
			if pv, ok := g.(variant.PublicViewer); ok && len(pv.PublicView().Panels) > 0 {
				wantBoard = true // the public board (Transactional's committed position)
			}
		}
		if wantBoard != strings.Contains(page, "♔") {
			t.Errorf("%s: game in progress shows a board: %v, want %v\n%s", key, !wantBoard, wantBoard, page)
		}
		if code, _, _ := get(t, h, fmt.Sprintf("/game/%d.pgn", going)); code != 404 {
			t.Errorf("%s: PGN of a game in progress: %d, want 404", key, code)
		}
	}
	// Full information: the position and the moves of a game in progress.
	id := w.newGame("orthodox")
	w.mail(id, chess.White, "e4")
	w.mail(id, chess.Black, "c5")
	if _, _, page := get(t, h, fmt.Sprintf("/game/%d", id)); !strings.Contains(page, "1. e4 c5") || !strings.Contains(page, "White to play") {
		t.Errorf("orthodox in progress lacks its moves or turn:\n%s", page)
	}
	code, _, page := get(t, h, "/?variant=orthodox&status=over")
	if code != 200 || !strings.Contains(page, "1 game;") {
		t.Errorf("filtered list: %d\n%s", code, page)
	}
	code, _, page = get(t, h, "/player/ann")
	if code != 200 || !strings.Contains(page, fmt.Sprintf("%d won", len(variant.Keys()))) {
		t.Errorf("player page: %d\n%s", code, page)
	}
}

// TestTournamentPages renders a tournament with a finished game and games in progress.
func TestTournamentPages(t *testing.T) {
	w := newWorld(t)
	h := New(w.db)
	tid, err := w.ref.Tournaments().New(organizer.Options{Name: "Autumn Cup", Variant: "orthodox", Players: []string{ann, bob, "cy@example.org", "di@example.org"}})
	if err != nil {
		t.Fatal(err)
	}
	var first uint64
	if err := w.db.View(func(tx *store.Tx) error {
		tr, err := tx.Tournament(tid)
		if err == nil {
			first = tr.Rounds[0].Games[0].Game
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	w.mail(first, chess.White, "e4")
	w.mail(first, chess.Black, "RESIGN")
	code, _, page := get(t, h, "/tournaments")
	if code != 200 || !strings.Contains(page, "Autumn Cup") {
		t.Errorf("tournaments: %d\n%s", code, page)
	}
	code, _, page = get(t, h, fmt.Sprintf("/tournament/%d", tid))
	for _, want := range []string{"Autumn Cup", "Standings", "Crosstable", "Round 1", "cy", "di", fmt.Sprintf("/game/%d", first),
		"1 won, 0 lost, = drawn"} { // issue 33: the crosstable's legend
		if !strings.Contains(page, want) {
			t.Errorf("tournament page lacks %q (%d)\n%s", want, code, page)
		}
	}
	if strings.Contains(page, "@") {
		t.Errorf("tournament page shows an address:\n%s", page)
	}
	if code, _, page := get(t, h, fmt.Sprintf("/?tournament=%d", tid)); code != 200 || !strings.Contains(page, "6 games") {
		t.Errorf("games of the tournament: %d\n%s", code, page)
	}
	// Issue 21: a tournament game's PGN names the tournament and the round, as the
	// tournament's export does; the wide tables scroll on a narrow screen.
	if code, _, pgn := get(t, h, fmt.Sprintf("/game/%d.pgn", first)); code != 200 || !strings.Contains(pgn, `[Event "Autumn Cup"]`) || !strings.Contains(pgn, `[Round "1"]`) {
		t.Errorf("the PGN of a tournament game: %d\n%s", code, pgn)
	}
	if !strings.Contains(page, `<div class="scroll"><pre>`) || !strings.Contains(page, `<div class="scroll"><table>`) {
		t.Errorf("the crosstable and the tables do not scroll:\n%s", page)
	}
	// A replacement takes over the seat: the row says whose it is; each keeps his own page.
	if _, err := w.ref.Tournaments().Organize(tid, "REPLACE cy@example.org eve@example.org"); err != nil {
		t.Fatal(err)
	}
	_, _, page = get(t, h, fmt.Sprintf("/tournament/%d", tid))
	if !strings.Contains(page, `<a href="/player/eve">eve</a> (for cy)`) || !strings.Contains(page, "eve (for cy)") {
		t.Errorf("the tournament page after a replacement:\n%s", page)
	}
	if code, _, p := get(t, h, "/player/eve"); code != 200 || !strings.Contains(p, "Player eve") {
		t.Errorf("/player/eve: %d\n%s", code, p)
	}
}

// Issue 21: a page not found is a page of the site that says what is missing and the way
// back; ?step counts the steps of the referee's log (?ply, its old name, still works).
func TestNotFoundAndSteps(t *testing.T) {
	w := newWorld(t)
	id := w.newGame("orthodox")
	w.mail(id, chess.White, "e4")
	w.mail(id, chess.Black, "RESIGN")
	h := New(w.db)
	for path, what := range map[string]string{"/game/999": "no such game", "/tournament/7": "no such tournament", "/player/nobody": "no such player", "/nothing": "no such page"} {
		code, hd, page := get(t, h, path)
		if code != 404 || !strings.Contains(page, what) || !strings.Contains(page, `<a href="/">Back to the games</a>`) || !strings.Contains(hd.Get("Content-Type"), "text/html") {
			t.Errorf("%s: %d %q\n%s", path, code, hd.Get("Content-Type"), page)
		}
	}
	_, _, a := get(t, h, fmt.Sprintf("/game/%d?step=1", id))
	_, _, b := get(t, h, fmt.Sprintf("/game/%d?ply=1", id))
	if a != b || !strings.Contains(a, "Position after step 1 of 2") {
		t.Errorf("?step=1 and ?ply=1 differ, or the step is not named:\n%s", a)
	}
}

// TestOddPaths walks paths and queries no page expects: none panics, unknown ids are 404.
func TestOddPaths(t *testing.T) {
	w := newWorld(t)
	id := w.newGame("orthodox")
	w.mail(id, chess.White, "e4")
	w.mail(id, chess.Black, "RESIGN")
	h := New(w.db)
	cases := map[string]int{
		"/": 200, "/?page=-1": 200, "/?page=99999999999999999999": 200, "/?page=abc&status=zz&variant=%00": 200,
		"/?tournament=abc": 200, "/?player=%3Cscript%3E": 200, "/style.css": 200, "/tournaments": 200,
		// (bytes a database refuses in a text: no store is asked)
		"/?variant=orth%00odox": 200, "/?variant=%ff%fe&before=5&page=2": 200, "/?player=%00": 200, "/?player=w3%00": 200,
		"/?player=%ff&status=over": 200, "/player/%ff": 404, "/player/a%00b": 404, "/ratings?variant=%00": 200, "/?variant=Kriegspiel": 200,
		"/game/": 404, "/game/0": 404, "/game/999": 404, "/game/-1": 404, "/game/abc": 404, "/game/1x": 404,
		"/game/18446744073709551615": 404, "/game/184467440737095516150": 404, "/game/1/2": 404,
		"/game/1?ply=-1": 404, "/game/1?ply=999": 404, "/game/1?ply=x": 404, "/game/1?ply=1": 200, "/game/1?ply=": 200,
		"/game/1?step=-1": 404, "/game/1?step=999": 404, "/game/1?step=x": 404, "/game/1?step=1": 200, "/game/1?step=": 200,
		"/game/.pgn": 404, "/game/999.pgn": 404, "/game/1.pgn": 200, "/game/1.pgn.pgn": 404,
		"/tournament/": 404, "/tournament/1": 404, "/tournament/x": 404, "/tournament/0": 404,
		"/player/": 404, "/player/nobody": 404, "/player/ann": 200, "/player/ann@example.com": 404, "/player/a/b": 404,
		"/nothing": 404, "/game": 404, "/%2e%2e/etc/passwd": 404, "//": 404, "/game/%00": 404,
	}
	for path, want := range cases {
		code, hd, _ := get(t, h, path)
		if code != want {
			t.Errorf("%s: %d, want %d", path, code, want)
		}
		if hd.Get("Content-Security-Policy") == "" || hd.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: no security headers: %v", path, hd)
		}
	}
	r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader("x"))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d", rec.Code)
	}
}

// TestPaging lists at most PageSize games a page.
func TestPaging(t *testing.T) {
	w := newWorld(t)
	w.games(250, func(int) (string, store.Status) { return "orthodox", store.Active })
	h := New(w.db)
	for page, rows := range map[string]int{"1": 100, "2": 100, "3": 50, "9": 50} {
		_, _, body := get(t, h, "/?page="+page)
		if n := strings.Count(body, `<tr><td><a href="/game/`); n != rows {
			t.Errorf("page %s: %d rows, want %d", page, n, rows)
		}
	}
	// Filtered by status or variant: a page from the index, the total from its counts.
	for query, want := range map[string]string{
		"status=active&page=1": "100 /250 games; page 1 of 3", "variant=orthodox&page=3": "50 /250 games; page 3 of 3",
		"status=active&variant=orthodox&page=9": "50 /250 games; page 3 of 3", "status=over": "0 /0 games; page 1 of 1",
		"variant=orthodox&page=9223372036854775807": "50 /250 games; page 3 of 3",
	} {
		_, _, body := get(t, h, "/?"+query)
		n := strings.Count(body, `<tr><td><a href="/game/`)
		got := fmt.Sprintf("%d /", n)
		if i := strings.Index(body, " games; page "); i >= 0 {
			got += body[strings.LastIndex(body[:i], "<p>")+3 : strings.Index(body[i:], ".")+i]
		}
		if got != want {
			t.Errorf("/?%s: %q, want %q", query, got, want)
		}
	}
}

// /tournaments lists the newest first, a page of TournamentPageSize at a time.
func TestTournamentPaging(t *testing.T) {
	w := newWorld(t)
	if err := w.db.Update(func(tx *store.Tx) error {
		for i := 1; i <= 120; i++ {
			if err := tx.CreateTournament(&store.Tournament{Name: fmt.Sprintf("Cup %d", i), Variant: "orthodox", WithdrawRule: "half"}); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	h := New(w.db)
	for _, c := range []struct {
		page       string
		rows       int
		first      string
		newer, old bool
	}{{"", 50, "Cup 120", false, true}, {"2", 50, "Cup 70", true, true}, {"3", 20, "Cup 20", true, false}, {"99", 20, "Cup 20", true, false}} {
		_, _, body := get(t, h, "/tournaments?page="+c.page)
		if n := strings.Count(body, `<a href="/tournament/`); n != c.rows {
			t.Errorf("page %q: %d rows, want %d", c.page, n, c.rows)
		}
		if !strings.Contains(body, ">"+c.first+"</a>") || !strings.Contains(body, "120 tournaments") {
			t.Errorf("page %q does not begin with %s:\n%s", c.page, c.first, body)
		}
		if strings.Contains(body, "newer</a>") != c.newer || strings.Contains(body, "older →</a>") != c.old {
			t.Errorf("page %q: links newer %v older %v wanted\n%s", c.page, c.newer, c.old, body)
		}
	}
}

// TestETag answers 304 to a client that has the page, and the page again once it changed.
func TestETag(t *testing.T) {
	w := newWorld(t)
	id := w.newGame("orthodox")
	h := New(w.db)
	path := fmt.Sprintf("/game/%d", id)
	_, hd, _ := get(t, h, path)
	etag := hd.Get("ETag")
	if etag == "" {
		t.Fatal("no ETag")
	}
	ask := func() int {
		r := httptest.NewRequest(http.MethodGet, path, nil)
		r.Header.Set("If-None-Match", etag)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		return rec.Code
	}
	if code := ask(); code != http.StatusNotModified {
		t.Errorf("same page: %d, want 304", code)
	}
	w.mail(id, chess.White, "e4")
	if code := ask(); code != 200 {
		t.Errorf("after a move: %d, want 200", code)
	}
}

// TestReadOnlyStore serves every page of a store opened read-only (as `refereed web` does):
// the archive never writes. Every step of every finished game is drawn, and random paths and
// queries answer without a server error.
func TestReadOnlyStore(t *testing.T) {
	w := newWorld(t)
	var ids []uint64
	for _, key := range variant.Keys() {
		done := w.newGame(key)
		w.mail(done, chess.White, opening(key))
		w.mail(done, chess.Black, "RESIGN")
		going := w.newGame(key)
		w.mail(going, chess.White, opening(key))
		ids = append(ids, done, going)
	}
	if _, err := w.ref.Tournaments().New(organizer.Options{Name: "Cup", Variant: "transactional", Players: []string{ann, bob, "cy@example.org"}}); err != nil {
		t.Fatal(err)
	}
	path := w.db.Path()
	w.db.Close()
	db, err := store.OpenURL(path, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	h := New(db)
	paths := []string{"/", "/tournaments", "/tournament/1", "/player/ann", "/player/bob", "/player/cy", "/?tournament=1&status=active"}
	for _, id := range ids {
		paths = append(paths, fmt.Sprintf("/game/%d", id), fmt.Sprintf("/game/%d.pgn", id))
		for ply := 0; ply <= 3; ply++ {
			paths = append(paths, fmt.Sprintf("/game/%d?ply=%d", id, ply))
		}
	}
	for _, p := range paths {
		if code, _, body := get(t, h, p); code >= 500 || strings.Contains(body, "@") {
			t.Errorf("%s: %d\n%s", p, code, body)
		}
	}
	rng := rand.New(rand.NewSource(7))
	parts := []string{"", "/", "game", "tournament", "player", "1", "2", "0", "-", ".pgn", "?", "&", "=", "ply", "page", "variant", "%", "%00", "%2F", "..", "ann", "x", "999999999999999999999", "status", "over"}
	for range 3000 {
		var sb strings.Builder
		sb.WriteByte('/')
		for range rng.Intn(8) {
			sb.WriteString(parts[rng.Intn(len(parts))])
		}
		r := httptest.NewRequest(http.MethodGet, "http://archive.test/", nil)
		r.URL.Path = sb.String()
		if i := strings.IndexByte(r.URL.Path, '?'); i >= 0 {
			r.URL.Path, r.URL.RawQuery = r.URL.Path[:i], r.URL.Path[i+1:]
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		if rec.Code >= 500 {
			t.Errorf("%q: %d", sb.String(), rec.Code)
		}
	}
}

// A hidden game in progress shows its public part: Transactional's committed position (a
// committed move there, a pending one not), Kriegspiel's announcements.
func TestPublicPartOfHiddenGames(t *testing.T) {
	w := newWorld(t)
	h := New(w.db)
	tx := w.newGame("transactional")
	w.mail(tx, chess.White, "e4 (C)")
	w.mail(tx, chess.Black, "Nf6")
	_, _, page := get(t, h, fmt.Sprintf("/game/%d", tx))
	b := boardsOf(page)
	if len(b) != 1 || b[0][squareIndex("e4")] == "" || b[0][squareIndex("e2")] != "" || b[0][squareIndex("f6")] != "" || b[0][squareIndex("g8")] == "" {
		t.Errorf("Transactional in progress: want the committed e4 and not the pending Nf6:\n%s", page)
	}
	ks := w.newGame("kriegspiel")
	w.mail(ks, chess.White, "e4")
	w.mail(ks, chess.Black, "Any?\ne5")
	_, _, page = get(t, h, fmt.Sprintf("/game/%d", ks))
	if !strings.Contains(page, "Announced so far:") || !strings.Contains(page, "Any? No.") || strings.Contains(page, "e5") || strings.Contains(page, "e4") {
		t.Errorf("Kriegspiel in progress: want the announcements and no move:\n%s", page)
	}
}

// Issue 33 (6): a REPLACE does not rewrite history: the game's page says who played a side up
// to which move, its Moves and PGN carry a comment at the move, the replaced player keeps the
// game on his page, and his successor's row says whom he took it over from. (7): the
// organizer's adjudication is his in the log, with the reason, not White's.
func TestReplacedAndAdjudicated(t *testing.T) {
	w := newWorld(t)
	h := New(w.db)
	tid, err := w.ref.Tournaments().New(organizer.Options{Name: "Cup", Variant: "orthodox", Players: []string{ann, bob, "cy@example.org"}, Organizer: "td@example.org"})
	if err != nil {
		t.Fatal(err)
	}
	var id uint64
	w.db.View(func(tx *store.Tx) error {
		tr, err := tx.Tournament(tid)
		id = tr.Rounds[0].Games[0].Game
		return err
	})
	white := w.game(id).Players[0].Address
	w.mail(id, chess.White, "e4")
	w.mail(id, chess.Black, "e5")
	w.mail(id, chess.White, "Nf3")
	if _, err := w.ref.Tournaments().Organize(tid, "REPLACE "+white+" eve@example.org"); err != nil {
		t.Fatal(err)
	}
	w.mail(id, chess.Black, "Nc6")
	w.mail(id, chess.White, "Bb5")
	old := Name(white)
	_, _, page := get(t, h, fmt.Sprintf("/game/%d", id))
	want := old + " played White up to move 2; eve from move 3 on (replaced by the organizer on 2026-11-22)."
	if !strings.Contains(page, want) {
		t.Errorf("the page of a game in progress lacks %q:\n%s", want, page)
	}
	if _, err := w.ref.Tournaments().Organize(tid, fmt.Sprintf("ADJUDICATE %d 1-0 Black lost on time", id)); err != nil {
		t.Fatal(err)
	}
	_, _, page = get(t, h, fmt.Sprintf("/game/%d", id))
	for _, want := range []string{want, "1. e4 e5 2. Nf3 {" + old + " played White up to here; eve plays White from move 3 on (replaced by the organizer on 2026-11-22)} Nc6 3. Bb5",
		"6. the organizer: adjudicate 1-0 (Black lost on time)"} {
		if !strings.Contains(page, want) {
			t.Errorf("the finished game's page lacks %q:\n%s", want, page)
		}
	}
	if strings.Contains(page, "White: adjudicate") {
		t.Errorf("the adjudication is shown as White's:\n%s", page)
	}
	// A withdrawal ends the other game of the section in the same way: the organizer's.
	var other uint64
	w.db.View(func(tx *store.Tx) error {
		tr, err := tx.Tournament(tid)
		for _, rd := range tr.Rounds {
			for _, tg := range rd.Games {
				if g, _ := tx.Game(tg.Game); tg.Game != id && !g.Over() && (g.Players[0].Address == "cy@example.org" || g.Players[1].Address == "cy@example.org") && other == 0 {
					other = tg.Game
				}
			}
		}
		return err
	})
	if _, err := w.ref.Tournaments().Organize(tid, "WITHDRAW cy@example.org"); err != nil {
		t.Fatal(err)
	}
	if _, _, page := get(t, h, fmt.Sprintf("/game/%d", other)); other == 0 || !strings.Contains(page, "1. the organizer: ") || !strings.Contains(page, "withdrawn (withdrawal from the tournament)") {
		t.Errorf("the withdrawal in game %d's log:\n%s", other, page)
	}
	if strings.Contains(page, "White: adjudicate") {
		t.Errorf("the adjudication is shown as White's:\n%s", page)
	}
	_, _, pgn := get(t, h, fmt.Sprintf("/game/%d.pgn", id))
	if !strings.Contains(strings.Join(strings.Fields(pgn), " "), "2. Nf3 {"+old+" played White up to here; eve plays White from move 3 on") || strings.Contains(pgn, "@") {
		t.Errorf("the PGN:\n%s", pgn)
	}
	_, _, page = get(t, h, "/player/"+old)
	if !strings.Contains(page, fmt.Sprintf("/game/%d", id)) || !strings.Contains(page, "he played it up to move 2, then was replaced") {
		t.Errorf("the replaced player's page:\n%s", page)
	}
	if strings.Contains(page, "1 won") {
		t.Errorf("the replaced player is scored for the game his successor finished:\n%s", page)
	}
	_, _, page = get(t, h, "/player/eve")
	if !strings.Contains(page, "he took it over at move 3 (for "+old+")") || !strings.Contains(page, "1 won") {
		t.Errorf("the successor's page:\n%s", page)
	}
}

// Issue 33 (9): a finished Conditional game's Moves show the C-move its end left unplayed
// (a comment, revealed with the rest); the same game in progress hides it.
func TestFinishedConditionalShowsCMove(t *testing.T) {
	w := newWorld(t)
	h := New(w.db)
	id := w.newGame("conditional")
	w.mail(id, chess.White, "A: e4\nC: !d4")
	_, _, page := get(t, h, fmt.Sprintf("/game/%d", id))
	if strings.Contains(page, "d4") {
		t.Errorf("the stated C-move shows while the game goes on:\n%s", page)
	}
	w.mail(id, chess.Black, "RESIGN")
	_, _, page = get(t, h, fmt.Sprintf("/game/%d", id))
	if !strings.Contains(page, "{White&#39;s C-move, stated but not played: !d4}") {
		t.Errorf("the finished game's Moves lack the revealed C-move:\n%s", page)
	}
}

// Issue 33: "1 game", not "1 games"; an unknown ?status is said, not a silent list of every
// game.
func TestGamesListWords(t *testing.T) {
	w := newWorld(t)
	h := New(w.db)
	w.newGame("orthodox")
	if _, _, page := get(t, h, "/"); !strings.Contains(page, "1 game; page 1 of 1") {
		t.Errorf("one game:\n%s", page)
	}
	code, _, page := get(t, h, "/?status=bogus")
	if code != 200 || !strings.Contains(page, "There is no status &#34;bogus&#34;: choose in progress (active) or finished (over).") || strings.Contains(page, "/game/1") {
		t.Errorf("?status=bogus: %d\n%s", code, page)
	}
}

// Issue 33: a game in progress with a time control shows its clocks where spectators may see
// whose turn it is (as ICCF's pages show time used), and not where they may not (a
// simultaneous game's clock would say who has chosen).
func TestClocksOnPage(t *testing.T) {
	w := newWorld(t)
	h := New(w.db)
	h.Now = func() time.Time { return fixedNow.Add(3*24*time.Hour + time.Hour) }
	newTimed := func(key string) uint64 {
		id, err := w.ref.NewGame(key, ann, bob, variant.Options{Flags: map[string]string{"time": "30d"}})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	id := newTimed("orthodox")
	w.mail(id, chess.White, "e4")
	_, _, page := get(t, h, fmt.Sprintf("/game/%d", id))
	for _, want := range []string{"White: 0 days used, 30 days left", "Black: 3 days used, 27 days left (running)", "time control 30d"} {
		if !strings.Contains(page, want) {
			t.Errorf("the orthodox game's page lacks %q:\n%s", want, page)
		}
	}
	sy := newTimed("synchronous")
	w.mail(sy, chess.White, "e4")
	if _, _, page := get(t, h, fmt.Sprintf("/game/%d", sy)); strings.Contains(page, "Clocks") || strings.Contains(page, "running") {
		t.Errorf("a synchronous game's page shows its clocks (who has chosen):\n%s", page)
	}
}

// Issue 33: Progressive Kriegspiel's page shows whose series it is, as both players know it
// (the README said it did not).
func TestProgressiveKriegspielPageShowsSeries(t *testing.T) {
	w := newWorld(t)
	h := New(w.db)
	id := w.newGame("progressive-kriegspiel")
	w.mail(id, chess.White, "e4")
	if _, _, page := get(t, h, fmt.Sprintf("/game/%d", id)); !strings.Contains(page, "Black to play series 2: move 1 of 2.") || strings.Contains(page, "e4") {
		t.Errorf("Progressive Kriegspiel in progress:\n%s", page)
	}
}

// The links to the next and the previous page of a list carry the game where the page ended or
// began; walked either way, with any filter, they read the whole list once, numbered as by
// ?page=N, with the first and the last page a link away.
func TestPagingByLinks(t *testing.T) {
	w := newWorld(t)
	const games = 330
	variantOf := func(i int) string { return []string{"orthodox", "kriegspiel", "orthodox", "progressive"}[i%4] }
	w.games(games, func(i int) (string, store.Status) {
		if i%5 != 0 {
			return variantOf(i), store.Over
		}
		return variantOf(i), store.Active
	})
	h := New(w.db)
	rowRE := regexp.MustCompile(`<tr><td><a href="/game/(\d+)">`)
	ids := func(body string) (out []uint64) {
		for _, m := range rowRE.FindAllStringSubmatch(body, -1) {
			id, _ := strconv.ParseUint(m[1], 10, 64)
			out = append(out, id)
		}
		return out
	}
	for _, filter := range []string{"", "status=over", "variant=kriegspiel", "status=active&variant=orthodox", "status=active"} {
		q, _ := url.ParseQuery(filter)
		var want []uint64
		for i := games - 1; i >= 0; i-- {
			over := i%5 != 0
			if (q.Get("variant") == "" || q.Get("variant") == variantOf(i)) && (q.Get("status") == "" || (q.Get("status") == "over") == over) {
				want = append(want, uint64(i+1))
			}
		}
		pages := (len(want) + PageSize - 1) / PageSize
		var got []uint64
		u := "/?" + filter
		for n := 1; ; n++ {
			code, _, body := get(t, h, u)
			if code != http.StatusOK || !strings.Contains(body, fmt.Sprintf("%d games; page %d of %d.", len(want), n, pages)) {
				t.Fatalf("%s: page %d (%s): %d\n%s", filter, n, u, code, body)
			}
			if (n == 1) != (linkIn(body, "newer") == "") || (n <= 2) != (linkIn(body, "first page") == "") || (n >= pages-1) != (linkIn(body, "last page") == "") {
				t.Errorf("%s page %d: the links back wrong:\n%s", filter, n, body)
			}
			got = append(got, ids(body)...)
			if u = linkIn(body, "older"); u == "" {
				if n != pages || linkIn(body, "last page") != "" {
					t.Errorf("%s: the last page is %d of %d, or links to a last page", filter, n, pages)
				}
				break
			}
			if !strings.Contains(u, "before=") {
				t.Errorf("%s page %d: the next page's link carries no game: %s", filter, n, u)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s forward: %v\nwant %v", filter, got, want)
		}
		got = nil
		u = "/?" + filter + "&page=" + strconv.Itoa(pages)
		for n := pages; ; n-- {
			_, _, body := get(t, h, u)
			if !strings.Contains(body, fmt.Sprintf("page %d of %d.", n, pages)) {
				t.Fatalf("%s back: page %d (%s):\n%s", filter, n, u, body)
			}
			got = append(ids(body), got...)
			if u = linkIn(body, "newer"); u == "" {
				break
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s back: %v\nwant %v", filter, got, want)
		}
	}
	// A link's game is followed, whoever made the link: the page of the games older (before=)
	// or newer (after=) than it; past either end, that end's page; no game, the page by number.
	list := func(variant string) (out []uint64) { // the finished games, newest first
		for i := games - 1; i >= 0; i-- {
			if i%5 != 0 && (variant == "" || variantOf(i) == variant) {
				out = append(out, uint64(i+1))
			}
		}
		return out
	}
	for _, c := range []struct{ page, dir, id string }{
		{"2", "before", "abc"}, {"2", "before", "0"}, {"2", "after", "-5"}, {"2", "before", "99999"}, {"2", "after", "99999"},
		{"1", "before", "1"}, {"2", "after", "1"}, {"3", "after", "200"}, {"1", "before", "311"}, {"3", "before", "311"},
		{"2", "before", "311"}, {"2", "after", "200"}, {"99999999999999999999", "before", "x"},
	} {
		for _, variant := range []string{"", "orthodox"} {
			l := list(variant)
			pages := (len(l) + PageSize - 1) / PageSize
			p := min(pageNumber(c.page), pages)
			want := l[(p-1)*PageSize : min(p*PageSize, len(l))] // by number
			if id, err := strconv.ParseUint(c.id, 10, 64); err == nil && id > 0 {
				var older, newer []uint64
				for _, g := range l {
					if g < id {
						older = append(older, g)
					} else if g > id {
						newer = append(newer, g)
					}
				}
				switch {
				case c.dir == "before" && len(older) > 0:
					want = older[:min(PageSize, len(older))]
				case c.dir == "before":
					want = l[(pages-1)*PageSize:]
				case len(newer) > 0:
					want = newer[max(len(newer)-PageSize, 0):]
				default:
					want = l[:min(PageSize, len(l))]
				}
			}
			q := "/?status=over&variant=" + variant + "&page=" + c.page + "&" + c.dir + "=" + c.id
			if _, _, body := get(t, h, q); !slices.Equal(ids(body), want) {
				t.Errorf("%s: %v..., want %v...", q, ids(body)[:min(len(ids(body)), 3)], want[:min(len(want), 3)])
			}
		}
	}
}

// A variant filter that names no game says so, as an unknown status does; a game's name in
// another spelling the registry knows is that game.
func TestUnknownVariantFilter(t *testing.T) {
	w := newWorld(t)
	w.newGame("kriegspiel")
	h := New(w.db)
	for q, want := range map[string]string{
		"/?variant=nosuch":         "There is no game &#34;nosuch&#34;: choose one from the list.",
		"/?variant=orth%00odox":    `There is no game &#34;orth\x00odox&#34;`,
		"/?variant=%ff&lang=de":    "Das Spiel &#34;\uFFFD&#34; gibt es nicht",
		"/?variant=Kriegspiel":     "1 game; page 1 of 1.",
		"/?variant=kriegspiel&x=1": "1 game; page 1 of 1.",
		// The rating lists say it the same way.
		"/ratings?variant=nosuch":      "There is no game &#34;nosuch&#34;: choose one from the list.",
		"/ratings?variant=%ff&lang=de": "Das Spiel &#34;\uFFFD&#34; gibt es nicht",
		"/ratings?variant=Kriegspiel":  "No rated game of Kriegspiel has ended yet.",
	} {
		if code, _, body := get(t, h, q); code != http.StatusOK || !strings.Contains(body, want) {
			t.Errorf("%s: %d, lacks %q\n%s", q, code, want, body)
		}
	}
}

// A visitor walking a filtered list goes on from where he is while games end under him: each
// page holds games older than the last he saw, none twice, none that stayed in the list missed.
func TestWalkWhileGamesEnd(t *testing.T) {
	w := newWorld(t)
	const games = 450
	w.games(games, func(int) (string, store.Status) { return "orthodox", store.Active })
	h := New(w.db)
	end := func(lo, hi uint64) { // games lo..hi end
		if err := w.db.Update(func(tx *store.Tx) error {
			for id := lo; id <= hi; id++ {
				g, err := tx.Game(id)
				if err != nil {
					return err
				}
				g.Status = store.Over
				if err := tx.PutGame(g); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	rowRE := regexp.MustCompile(`<tr><td><a href="/game/(\d+)">`)
	next := regexp.MustCompile(`<a href="([^"]*)">older`)
	seen := map[string]bool{}
	last := uint64(games + 1)
	u := "/?status=active"
	for n := 0; u != ""; n++ {
		_, _, body := get(t, h, u)
		for _, m := range rowRE.FindAllStringSubmatch(body, -1) {
			id, _ := strconv.ParseUint(m[1], 10, 64)
			if seen[m[1]] || id >= last {
				t.Errorf("page %d: game %s again or out of order (after %d)", n+1, m[1], last)
			}
			seen[m[1]], last = true, id
		}
		if n == 0 {
			end(300, 400) // games of the page shown and of the next end
		}
		u = ""
		if m := next.FindStringSubmatch(body); m != nil {
			u = html.UnescapeString(m[1])
		}
	}
	for id := 1; id < 300; id++ { // in progress all along, older than the first page
		if !seen[strconv.Itoa(id)] {
			t.Errorf("the walk missed game %d", id)
		}
	}
}
