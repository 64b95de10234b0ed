package store

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/refereed/refereed/store/storetest"
)

// pgLeague fills a fresh database with n games (a tenth in tournaments of ten games), n/20
// players rated in three games each, by SQL: what the web's pages read of it, fast to build.
func pgLeague(b testing.TB, n int) *DB {
	b.Helper()
	db := open(b, storetest.Postgres(b))
	b.Cleanup(func() { db.Close() })
	tournaments, players := n/100, n/20
	stmts := []string{
		fmt.Sprintf(`INSERT INTO games (id, variant, white, black, status, tournament, round, created, updated, doc)
			SELECT i, (ARRAY['orthodox', 'progressive', 'kriegspiel'])[i %% 3 + 1], 'p' || (i %% %[2]d) || '@x', 'p' || ((i * 7) %% %[2]d) || '@x',
				CASE WHEN i %% 2 = 0 THEN 'over' ELSE 'active' END,
				CASE WHEN i <= %[3]d * 10 THEN (i - 1) / 10 + 1 ELSE 0 END, 1, now(), now(),
				jsonb_build_object('id', i, 'variant', 'orthodox', 'status', 'active', 'players',
					jsonb_build_array(jsonb_build_object('address', 'p' || (i %% %[2]d) || '@x'), jsonb_build_object('address', 'q@x')))
			FROM generate_series(1, %[1]d) i`, n, players, tournaments),
		fmt.Sprintf(`INSERT INTO tournaments (id, name, variant, created, updated, doc)
			SELECT i, 't' || i, 'orthodox', now(), now(), jsonb_build_object('id', i, 'name', 't' || i, 'variant', 'orthodox')
			FROM generate_series(1, %d) i`, tournaments),
		fmt.Sprintf(`INSERT INTO players (address, doc)
			SELECT 'p' || i || '@x', jsonb_build_object('address', 'p' || i || '@x', 'ratings', (SELECT jsonb_agg(jsonb_build_object(
				'variant', v, 'rating', 1000 + (i * 37 + length(v)) %% 1500, 'rd', 80, 'volatility', 0.06, 'games', 10,
				'history', (SELECT jsonb_agg(jsonb_build_object('game', h, 'rating', 1500)) FROM generate_series(1, 10) h)))
				FROM unnest(ARRAY['orthodox', 'progressive', 'kriegspiel']) v))
			FROM generate_series(1, %d) i`, players),
		fmt.Sprintf(`INSERT INTO events (game, seq, side, text, at, source) SELECT g, s, s %% 2, 'e4', now(), 'm' || g || '.' || s
			FROM generate_series(1, %d) g, generate_series(1, 4) s`, n),
		fmt.Sprintf(`INSERT INTO former_players (game, address) SELECT i, 'f' || i || '@x' FROM generate_series(1, %d, 100) i`, n),
		`INSERT INTO ratings (address, variant, rating, entry)
			SELECT p.address, r->>'variant', (r->>'rating')::FLOAT8, r - 'history' FROM players p, jsonb_array_elements(p.doc->'ratings') r`,
		`INSERT INTO counters (name, value) SELECT 'rated/' || variant, count(*) FROM ratings GROUP BY variant`,
		fmt.Sprintf(`INSERT INTO counters (name, value) VALUES ('games', %d), ('tournaments', %d)`, n, tournaments),
		`ANALYZE`,
	}
	for _, s := range stmts {
		if _, err := db.pg.pool.Exec(db.pg.ctx, s); err != nil {
			b.Fatalf("%s: %v", s, err)
		}
	}
	return db
}

// benchSizes are the league sizes of the PostgreSQL benchmarks: REFEREED_BENCH_SIZES, else
// 1,000 and 10,000 games.
func benchSizes() []int {
	sizes := []int{1000, 10000}
	if s := os.Getenv("REFEREED_BENCH_SIZES"); s != "" {
		sizes = nil
		for _, f := range strings.Split(s, ",") {
			if n, err := strconv.Atoi(f); err == nil {
				sizes = append(sizes, n)
			}
		}
	}
	return sizes
}

// BenchmarkPGPages reads on PostgreSQL what /ratings, /ratings?variant=, a filtered page of /,
// /player/NAME and /tournaments read, at two sizes: each must cost its rows, not the league's.
func BenchmarkPGPages(b *testing.B) {
	for _, n := range benchSizes() {
		db := pgLeague(b, n)
		b.Run(fmt.Sprintf("ratings/games=%d", n), func(b *testing.B) {
			for b.Loop() {
				db.View(func(tx *Tx) error {
					vs, err := tx.RatedVariants()
					for _, v := range vs {
						if _, _, err := tx.RatedPage(v, 0, 20); err != nil {
							b.Fatal(err)
						}
					}
					return err
				})
			}
		})
		b.Run(fmt.Sprintf("ratings-variant/games=%d", n), func(b *testing.B) {
			for b.Loop() {
				db.View(func(tx *Tx) error {
					_, _, err := tx.RatedPage("orthodox", 0, 100)
					return err
				})
			}
		})
		b.Run(fmt.Sprintf("games-page/games=%d", n), func(b *testing.B) {
			for b.Loop() {
				db.View(func(tx *Tx) error {
					_, _, err := tx.GameIDPage(Over, "kriegspiel", 0, 100)
					return err
				})
			}
		})
		b.Run(fmt.Sprintf("player/games=%d", n), func(b *testing.B) {
			for b.Loop() {
				db.View(func(tx *Tx) error {
					_, err := tx.GamesOf("p7@x")
					return err
				})
			}
		})
		b.Run(fmt.Sprintf("tournaments/games=%d", n), func(b *testing.B) {
			for b.Loop() {
				db.View(func(tx *Tx) error {
					tx.TournamentCount()
					ts, err := tx.LatestTournaments(0, 50)
					for _, tr := range ts {
						for id := (tr.ID-1)*10 + 1; id <= tr.ID*10; id++ {
							if _, err := tx.Game(id); err != nil {
								b.Fatal(err)
							}
						}
					}
					return err
				})
			}
		})
	}
}
