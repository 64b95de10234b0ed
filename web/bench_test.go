package web

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/refereed/refereed/store"
)

// BenchmarkGamesList renders the first page of the games list of a store of 10,000 games.
// The target is under 100 ms a page.
func BenchmarkGamesList(b *testing.B) {
	w := newWorld(b)
	if err := w.db.Update(func(tx *store.Tx) error {
		for i := range 10000 {
			g := &store.Game{Variant: []string{"orthodox", "kriegspiel", "transactional"}[i%3],
				Players: [2]store.Player{{Address: fmt.Sprintf("p%d@example.com", i%50), Token: fmt.Sprintf("a%d", i)}, {Address: fmt.Sprintf("q%d@example.net", i%70), Token: fmt.Sprintf("b%d", i)}}}
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
	for _, path := range []string{"/", "/?variant=kriegspiel&status=over&page=10"} {
		b.Run(path, func(b *testing.B) {
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
