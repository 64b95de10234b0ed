package web

import (
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/referee/organizer"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/variant"
)

// BenchmarkGamesList renders pages of the archive with 1,000 and 100,000 games in the store,
// side by side (issue 23: a page must cost the same; the target is under 50 ms): the first page
// of the list, a filtered page, a player's page (a player of about 20 games), the first page
// of the tournaments, the rating lists, and the last page of the filtered list and of a rating
// list as the link from the page before reaches it. The store grows through the referee's paths: a tenth
// of the games in rated round robins of five (Tournaments().New, as `refereed tournament new`
// makes them) with one game of each resigned by mail, the rest made one by one (NewGame), of
// three variants, every other one resigned by mail.
func BenchmarkGamesList(b *testing.B) {
	for _, n := range []int{1000, 100000} {
		w := newWorld(b)
		players := n / 20
		drain := func() {
			if err := w.db.Update(func(tx *store.Tx) error {
				out, err := tx.Outbox()
				for _, m := range out {
					if err == nil {
						err = tx.Done(m)
					}
				}
				return err
			}); err != nil {
				b.Fatal(err)
			}
		}
		for i := 0; i < n; {
			if i%100 < 10 && n-i >= 10 {
				var five []string
				for k := range 5 {
					five = append(five, fmt.Sprintf("p%d@example.com", (i+k)%players))
				}
				tid, err := w.ref.Tournaments().New(organizer.Options{Name: fmt.Sprintf("Section %d", i/10), Variant: "orthodox", Players: five, Rated: true})
				if err != nil {
					b.Fatal(err)
				}
				var first uint64
				if err := w.db.View(func(tx *store.Tx) error {
					t, err := tx.Tournament(tid)
					if err == nil {
						first = t.Rounds[0].Games[0].Game
					}
					return err
				}); err != nil {
					b.Fatal(err)
				}
				w.mail(first, chess.White, "e4")
				w.mail(first, chess.Black, "RESIGN")
				i += 10
			} else {
				id, err := w.ref.NewGame([]string{"orthodox", "kriegspiel", "transactional"}[i%3],
					fmt.Sprintf("p%d@example.com", i%players), fmt.Sprintf("q%d@example.net", i%(players+3)), variant.Options{})
				if err != nil {
					b.Fatal(err)
				}
				if i%2 == 0 {
					w.mail(id, chess.White, "RESIGN")
				}
				i++
			}
			if i%1000 == 0 {
				drain()
			}
		}
		drain()
		h := New(w.db)
		// The last page of the filtered list and of a rating list as their links reach it:
		// from the page before it, by the link to the next.
		last := func(list, word string) string {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, list+"&page=999999", nil))
			m := regexp.MustCompile(`page (\d+) of (\d+)`).FindStringSubmatch(rec.Body.String())
			if m == nil || m[2] == "1" {
				return list
			}
			pages, _ := strconv.Atoi(m[2])
			rec = httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, list+"&page="+strconv.Itoa(pages-1), nil))
			l := regexp.MustCompile(`<a href="([^"]*)">` + word).FindStringSubmatch(rec.Body.String())
			if l == nil {
				b.Fatalf("no link to the last page of %s", list)
			}
			return html.UnescapeString(l[1])
		}
		for _, path := range []string{"/", "/?variant=kriegspiel&status=over", last("/?variant=kriegspiel&status=over", "older"),
			"/player/p17", "/tournaments", "/ratings", "/ratings?variant=orthodox", last("/ratings?variant=orthodox", "next")} {
			b.Run(fmt.Sprintf("games=%d%s", n, path), func(b *testing.B) {
				for b.Loop() {
					rec := httptest.NewRecorder()
					h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
					if rec.Code != 200 {
						b.Fatal(rec.Code)
					}
				}
			})
		}
	}
}
