package web

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/refereed/refereed/store"
)

// The query of a list's page is outside input: the points its links carry (before=, after=,
// sig=) and its number, with any filter. Whatever a visitor writes there, the list answers with a
// page or a not-found, never a server error, and names no player's address.
func FuzzListQueries(f *testing.F) {
	w := newWorld(f)
	w.games(230, func(i int) (string, store.Status) {
		if i%3 == 0 {
			return []string{"orthodox", "kriegspiel"}[i%2], store.Over
		}
		return []string{"orthodox", "kriegspiel"}[i%2], store.Active
	})
	if err := w.db.Update(func(tx *store.Tx) error {
		for i := range 230 {
			rec := &store.PlayerRecord{Address: fmt.Sprintf("p%d@example.com", i), Ratings: []store.PlayerRating{{Variant: "orthodox", Rating: float64(1500 + i%7*10), RD: 60, Games: 3}}}
			if err := tx.PutPlayerRecord(rec); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		f.Fatal(err)
	}
	h := New(w.db)
	for _, seed := range []string{"/?page=2&before=130", "/?status=over&page=3&after=12", "/ratings?variant=orthodox&page=2&after=1560~3",
		"/ratings?variant=orthodox&page=2&before=1e308~0", "/ratings?variant=orthodox&after=-0~1073741824", "/?variant=kriegspiel&before=18446744073709551615",
		"/?variant=orth%00odox&page=2", "/?player=%ff%fe", "/?page=2&after=50&sig=AAAAAAAAAAAAAAAA"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, target string) {
		path, query, _ := strings.Cut(target, "?")
		if path != "/ratings" {
			path = "/"
		}
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.URL.Path, r.URL.RawQuery = path, query
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		if rec.Code >= 500 || strings.Contains(rec.Body.String(), "@example.com") {
			t.Fatalf("%s?%s: %d\n%s", path, query, rec.Code, rec.Body.String())
		}
	})
}
