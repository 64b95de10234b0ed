package web

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/referee/organizer"
	"github.com/refereed/refereed/store"
)

// ratedCup plays a rated tournament of three to its end (White wins every game) and returns
// its games.
func (w *world) ratedCup(name string) []uint64 {
	w.t.Helper()
	tid, err := w.ref.Tournaments().New(organizer.Options{Name: name, Variant: "orthodox", Players: []string{ann, bob, "cy@example.org"}, Rated: true})
	if err != nil {
		w.t.Fatal(err)
	}
	var games []uint64
	w.db.View(func(tx *store.Tx) error {
		tr, err := tx.Tournament(tid)
		for _, r := range tr.Rounds {
			for _, p := range r.Games {
				games = append(games, p.Game)
			}
		}
		return err
	})
	for _, id := range games {
		w.mail(id, chess.White, "e4")
		w.mail(id, chess.Black, "RESIGN")
	}
	return games
}

// /ratings lists each game's ratings, best first, provisional ones marked; a player's page
// shows his ratings with their history as an SVG chart. No address appears.
func TestRatingsPages(t *testing.T) {
	w := newWorld(t)
	h := New(w.db)
	if code, _, body := get(t, h, "/ratings"); code != http.StatusOK || !strings.Contains(body, "No rated game has ended yet") {
		t.Fatalf("no ratings: %d\n%s", code, body)
	}
	w.ratedCup("Rated Cup")
	code, _, body := get(t, h, "/ratings")
	for _, want := range []string{"<h2>Orthodox chess</h2>", `<a href="/player/ann">ann</a>`, `class="provisional"`, "?</td>", `<a href="/ratings">Ratings</a>`} {
		if code != http.StatusOK || !strings.Contains(body, want) {
			t.Errorf("/ratings lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "@") {
		t.Errorf("an address on /ratings:\n%s", body)
	}
	if _, _, body := get(t, h, "/ratings?variant=progressive"); strings.Contains(body, "ann") || !strings.Contains(body, "No rated game") {
		t.Errorf("/ratings?variant=progressive:\n%s", body)
	}
	if code, _, _ := get(t, h, "/ratings?variant=nosuch"); code != http.StatusNotFound {
		t.Errorf("an unknown variant: %d", code)
	}
	code, _, body = get(t, h, "/player/cy")
	for _, want := range []string{"<h2>Ratings</h2>", "Orthodox chess: ", "2 rated games", "<svg", "<polyline", "<circle", "Rating history: 2 rated games"} {
		if code != http.StatusOK || !strings.Contains(body, want) {
			t.Errorf("/player/cy lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "@") || strings.Contains(body, "<script") {
		t.Errorf("an address or a script on the player's page:\n%s", body)
	}
}

// A game's rating list is paged, best first, ranks running on; the list of every game shows
// the head of each and the way to the rest.
func TestRatingsPaging(t *testing.T) {
	w := newWorld(t)
	if err := w.db.Update(func(tx *store.Tx) error {
		for i := range 130 {
			rec := &store.PlayerRecord{Address: fmt.Sprintf("p%03d@example.com", i), Ratings: []store.PlayerRating{{Variant: "orthodox", Rating: 2000 - float64(i), RD: 60, Games: 9}}}
			if err := tx.PutPlayerRecord(rec); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	h := New(w.db)
	rows := func(body string) int { return strings.Count(body, `<td><a href="/player/`) }
	_, _, body := get(t, h, "/ratings")
	if rows(body) != RatingsHead || !strings.Contains(body, `<a href="/ratings?variant=orthodox">All 130 players →</a>`) || !strings.Contains(body, "<td>1</td><td><a href=\"/player/p000\">") {
		t.Errorf("/ratings: %d rows\n%s", rows(body), body)
	}
	_, _, body = get(t, h, "/ratings?variant=orthodox")
	if rows(body) != 100 || !strings.Contains(body, "130 players; page 1 of 2.") || !strings.Contains(body, `href="/ratings?variant=orthodox&amp;page=2">next`) || strings.Contains(body, "better</a>") {
		t.Errorf("page 1: %d rows\n%s", rows(body), body)
	}
	_, _, body = get(t, h, "/ratings?variant=orthodox&page=2")
	if rows(body) != 30 || !strings.Contains(body, "<td>101</td><td><a href=\"/player/p100\">") || !strings.Contains(body, "better</a>") || strings.Contains(body, "next →</a>") {
		t.Errorf("page 2: %d rows\n%s", rows(body), body)
	}
	for _, p := range []string{"7", "9223372036854775807", "99999999999999999999"} {
		code, _, body := get(t, h, "/ratings?variant=orthodox&page="+p)
		want := rows(body) == 30 && strings.Contains(body, "page 2 of 2.") && strings.Contains(body, "<td>101</td>")
		if p == "99999999999999999999" { // not a number: the first page
			want = rows(body) == 100 && strings.Contains(body, "page 1 of 2.")
		}
		if code != 200 || !want {
			t.Errorf("page %s: %d, %d rows\n%s", p, code, rows(body), body)
		}
	}
}
