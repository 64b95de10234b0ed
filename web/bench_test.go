package web

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/refereed/refereed/store"
)

// BenchmarkGamesList renders pages of the archive with 1,000 and 100,000 games in the store,
// side by side (issue 23: a page must cost the same; the target is under 50 ms): the first page
// of the list, a filtered page, a player's page (a player of about 20 games).
func BenchmarkGamesList(b *testing.B) {
	for _, n := range []int{1000, 100000} {
		w := newWorld(b)
		if err := w.db.Update(func(tx *store.Tx) error {
			for i := range n {
				g := &store.Game{Variant: []string{"orthodox", "kriegspiel", "transactional"}[i%3],
					Players: [2]store.Player{{Address: fmt.Sprintf("p%d@example.com", i%(n/20)), Token: fmt.Sprintf("a%d", i)}, {Address: fmt.Sprintf("q%d@example.net", i%(n/20+3)), Token: fmt.Sprintf("b%d", i)}}}
				if i%2 == 0 {
					g.Status, g.Result = store.Over, "1-0"
				}
				if err := tx.CreateGame(g); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			b.Fatal(err)
		}
		h := New(w.db)
		for _, path := range []string{"/", "/?variant=kriegspiel&status=over&page=3", "/player/p7"} {
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
