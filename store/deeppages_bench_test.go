package store

import (
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/refereed/refereed/store/storetest"
)

// BenchmarkDeepPages reads the last page of a rating list of REFEREED_BENCH_RATED players
// (20,000 unless set; one in five shares its rating with others) and of a filtered list of as
// many games, on each backend: by its number (the lines before it skipped), and from the point
// where the page before it ended, as the web archive's links to the next page read it (the
// point sought in an index). Side by side with the first page: a page from a point costs its
// rows, as the first does, at any depth.
func BenchmarkDeepPages(b *testing.B) {
	n := 20000
	if s := os.Getenv("REFEREED_BENCH_RATED"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	for _, backend := range storetest.Backends() {
		db := open(b, storetest.Location(b, backend))
		deepFill(b, db, backend, n)
		last := (n - 1) / 100 * 100
		var at RatedAt
		var before uint64
		if err := db.View(func(tx *Tx) (err error) {
			if at, err = tx.RatedPlace("orthodox", last); err != nil {
				return err
			}
			ids, _, err := tx.GameIDPage(Over, "kriegspiel", last-1, 1)
			if len(ids) == 1 {
				before = ids[0]
			}
			return err
		}); err != nil || before == 0 {
			b.Fatal(err, before)
		}
		read := func(name string, fn func(tx *Tx) (int, error)) {
			b.Run(fmt.Sprintf("%s/%s/n=%d", backend, name, n), func(b *testing.B) {
				for b.Loop() {
					if err := db.View(func(tx *Tx) error {
						got, err := fn(tx)
						if err == nil && got == 0 {
							b.Fatal("an empty page")
						}
						return err
					}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		read("ratings-first", func(tx *Tx) (int, error) {
			s, err := tx.RatedFrom("orthodox", RatedStart, false, 100)
			return len(s.Lines), err
		})
		read("ratings-last-by-number", func(tx *Tx) (int, error) {
			l, _, err := tx.RatedPage("orthodox", last, 100)
			return len(l), err
		})
		read("ratings-last-by-link", func(tx *Tx) (int, error) {
			s, err := tx.RatedFrom("orthodox", at, false, 100)
			return len(s.Lines), err
		})
		read("games-first", func(tx *Tx) (int, error) {
			ids, _, err := tx.GameIDsFrom(Over, "kriegspiel", 0, false, 100)
			return len(ids), err
		})
		read("games-last-by-number", func(tx *Tx) (int, error) {
			ids, _, err := tx.GameIDPage(Over, "kriegspiel", last, 100)
			return len(ids), err
		})
		read("games-last-by-link", func(tx *Tx) (int, error) {
			ids, _, err := tx.GameIDsFrom(Over, "kriegspiel", before, false, 100)
			return len(ids), err
		})
		db.Close()
	}
}

// deepFill puts n rated players in orthodox and 3n games, n of them finished Kriegspiel
// games, among others.
func deepFill(b *testing.B, db *DB, backend string, n int) {
	b.Helper()
	rated := func(i int) float64 {
		if i%5 == 0 {
			return float64(1000 + i%300)
		}
		return 1000 + float64(i)/7.3
	}
	if backend == "postgres" {
		for _, s := range []string{
			fmt.Sprintf(`INSERT INTO ratings (address, variant, rating, entry)
				SELECT 'p' || i || '@x', 'orthodox', CASE WHEN i %% 5 = 0 THEN 1000 + i %% 300 ELSE 1000 + i / 7.3 END,
					jsonb_build_object('variant', 'orthodox', 'rating', 1500, 'rd', 80, 'volatility', 0.06, 'games', 10)
				FROM generate_series(0, %d) i`, n-1),
			fmt.Sprintf(`INSERT INTO counters (name, value) VALUES ('rated/orthodox', %d)`, n),
			fmt.Sprintf(`INSERT INTO games (id, variant, white, black, status, tournament, round, created, updated, doc)
				SELECT i, (ARRAY['orthodox', 'progressive', 'kriegspiel'])[i %% 3 + 1], 'w@x', 'b@x',
					CASE WHEN i %% 3 = 2 THEN 'over' ELSE 'active' END, 0, 1, now(), now(), jsonb_build_object('id', i)
				FROM generate_series(1, %d) i`, 3*n),
			fmt.Sprintf(`INSERT INTO counters (name, value) VALUES ('games', %d), ('games/over/kriegspiel', %d)`, 3*n, n),
			`ANALYZE`,
		} {
			if _, err := db.pg.pool.Exec(db.pg.ctx, s); err != nil {
				b.Fatalf("%s: %v", s, err)
			}
		}
		return
	}
	for lo := 0; lo < n; lo += 10000 {
		if err := db.Update(func(tx *Tx) error {
			for i := lo; i < min(lo+10000, n); i++ {
				rec := &PlayerRecord{Address: fmt.Sprintf("p%d@x", i), Ratings: []PlayerRating{{Variant: "orthodox", Rating: rated(i), RD: 80, Games: 10}}}
				if err := tx.PutPlayerRecord(rec); err != nil {
					return err
				}
				for j := range 3 {
					g := &Game{Variant: []string{"orthodox", "progressive", "kriegspiel"}[j], Players: [2]Player{{Address: "w@x", Token: fmt.Sprint("w", i, j)}, {Address: "b@x", Token: fmt.Sprint("b", i, j)}}}
					if j == 2 {
						g.Status = Over
					}
					if err := tx.CreateGame(g); err != nil {
						return err
					}
				}
			}
			return nil
		}); err != nil {
			b.Fatal(err)
		}
	}
}
