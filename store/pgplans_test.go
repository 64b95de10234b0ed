package store

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// pgHotQueries are the queries of the pages, the lists and the clocks on PostgreSQL, with
// arguments as a league's, and the README's two archivist queries: each must be planned on an
// index, never on a scan of a table that grows with the league.
var pgHotQueries = []struct {
	name, sql string
	args      []any
}{
	{"/ratings?variant=: RatedPage", `SELECT address, entry FROM ratings WHERE variant = $1 ORDER BY rating DESC, address OFFSET $2 LIMIT $3`, []any{"orthodox", 0, 100}},
	{"/ratings: RatedVariants", ratedVariantsSQL, nil},
	{"a count: counter", `SELECT value FROM counters WHERE name = $1`, []any{"rated/orthodox"}},
	{"/tournaments: LatestTournaments", `SELECT id, doc FROM tournaments WHERE id <= $1 ORDER BY id DESC LIMIT $2`, []any{100, 50}},
	{"/tournaments?page=: LatestTournaments, a deep page", `SELECT id, doc FROM tournaments WHERE id <= $1 ORDER BY id DESC LIMIT $2`, []any{3, 50}},
	{"/tournaments: their games", `SELECT id, doc FROM games WHERE tournament = ANY($1)`, []any{[]int64{100, 99, 98}}},
	{"/: LatestGameIDs", `SELECT id FROM games WHERE id <= $1 ORDER BY id DESC LIMIT $2`, []any{2000, 100}},
	{"/?page=: LatestGameIDs, a deep page", `SELECT id FROM games WHERE id <= $1 ORDER BY id DESC LIMIT $2`, []any{150, 100}},
	{"/?status=&variant=: GameIDPage", `SELECT id FROM games WHERE status = $1 AND variant = $2 ORDER BY id DESC OFFSET $3 LIMIT $4`, []any{"over", "kriegspiel", 0, 100}},
	{"/?variant=: GameIDPage", `SELECT id FROM games WHERE variant = $1 ORDER BY id DESC OFFSET $2 LIMIT $3`, []any{"kriegspiel", 0, 100}},
	{"/ratings?variant=&page=: RatedPlace", `SELECT rating, address FROM ratings WHERE variant = $1 ORDER BY rating DESC, address OFFSET $2 LIMIT 1`, []any{"orthodox", 300}},
	{"/ratings?variant=&after=: RatedFrom, where the ties past end", `SELECT address FROM ratings WHERE variant = $1 AND rating = $2 ORDER BY address OFFSET $3 LIMIT 1`, []any{"orthodox", 1500.0, 2}},
	{"/ratings?variant=&after=: RatedFrom, the ties", `SELECT address, entry, rating FROM ratings WHERE variant = $1 AND rating = $2 AND address >= $3 ORDER BY address LIMIT $4`, []any{"orthodox", 1500.0, "p7@x", 101}},
	{"/ratings?variant=&after=: RatedRank, a link from a list that changed", `SELECT (SELECT count(*) FROM ratings WHERE variant = $1 AND rating > $2)
		+ (SELECT count(*) FROM (SELECT 1 FROM ratings WHERE variant = $1 AND rating = $2 LIMIT $3) x)`, []any{"orthodox", 1500.0, 2}},
	{"/ratings?variant=&after=: RatedFrom, below", `SELECT address, entry, rating FROM ratings WHERE variant = $1 AND rating < $2 ORDER BY rating DESC, address LIMIT $3`, []any{"orthodox", 1400.0, 101}},
	{"/ratings?variant=&before=: RatedFrom, above", `SELECT address, entry, rating FROM ratings WHERE variant = $1 AND rating > $2 ORDER BY rating, address DESC LIMIT $3`, []any{"orthodox", 1400.0, 101}},
	{"/ratings?variant=&before=: RatedFrom, a line's place in its ties", `SELECT count(*) FROM ratings WHERE variant = $1 AND rating = $2 AND address < $3`, []any{"orthodox", 1500.0, "p7@x"}},
	{"/?status=&variant=&before=: GameIDsFrom", `SELECT id FROM games WHERE status = $1 AND variant = $2 AND id < $3 ORDER BY id DESC LIMIT $4`, []any{"over", "kriegspiel", 150, 101}},
	{"/?status=&variant=&after=: GameIDsFrom", `SELECT id FROM games WHERE status = $1 AND variant = $2 AND id > $3 ORDER BY id LIMIT $4`, []any{"over", "kriegspiel", 150, 101}},
	{"/?status=&before=: GameIDsFrom", `SELECT id FROM games WHERE status = $1 AND id < $2 ORDER BY id DESC LIMIT $3`, []any{"active", 150, 101}},
	{"/?status=&after=: GameIDsFrom", `SELECT id FROM games WHERE status = $1 AND id > $2 ORDER BY id LIMIT $3`, []any{"over", 150, 101}},
	{"/?variant=&before=: GameIDsFrom", `SELECT id FROM games WHERE variant = $1 AND id < $2 ORDER BY id DESC LIMIT $3`, []any{"kriegspiel", 150, 101}},
	{"/?variant=&after=: GameIDsFrom", `SELECT id FROM games WHERE variant = $1 AND id > $2 ORDER BY id LIMIT $3`, []any{"kriegspiel", 150, 101}},
	{"/?after=: GameIDsFrom", `SELECT id FROM games WHERE id > $1 ORDER BY id LIMIT $2`, []any{150, 101}},
	{"/player/NAME: GamesOf", gamesOfSQL, []any{"p7@x"}},
	{"a mail from a player's other address: GamesOfLocal", gamesOfLocalSQL, []any{"p7"}},
	{"the deadline check: DueGames", `SELECT id FROM games WHERE due IS NOT NULL AND due <= $1 ORDER BY due, id LIMIT $2`, []any{"2026-01-01T00:00:00Z", 256}},
	{"the rating lists' players: EachRatedPlayer", `SELECT doc FROM players WHERE doc ? 'ratings' ORDER BY address`, nil},
	{"the archivist: a player's finished Progressive games", `SELECT g.id, g.white, g.black, g.result, g.reason,
       string_agg(e.text, ' ' ORDER BY e.seq) AS log
FROM games g JOIN events e ON e.game = g.id AND e.kind = ''
WHERE g.variant = 'progressive' AND g.status = 'over'
  AND 'p7@x' IN (lower(g.white), lower(g.black))
GROUP BY g.id ORDER BY g.id`, nil},
	{"the archivist: a tournament's results", `SELECT g.round, g.white, g.black, coalesce(nullif(g.result, ''), '*') AS result
FROM games g JOIN tournaments t ON t.id = g.tournament
WHERE t.name = 't7' ORDER BY g.round, g.id`, nil},
}

// The hot queries have indexes to be planned on: with sequential scans priced out of reach
// (enable_seqscan off), EXPLAIN names no sequential scan of a table that grows with the league,
// which it still would where no index serves. With REFEREED_EXPLAIN_GAMES=N the league has N
// games and the planner its defaults: run with -v to see the plans (the README's, at 100,000).
func TestPGPlansUseIndexes(t *testing.T) {
	if os.Getenv("REFEREED_TEST_PG") == "" {
		t.Skip("no PostgreSQL: bash test/lib/pg-up.sh starts one; REFEREED_TEST_PG=$(cat /tmp/refereed-pgci/url)")
	}
	n, priced := 2000, true
	if s := os.Getenv("REFEREED_EXPLAIN_GAMES"); s != "" {
		n, _ = strconv.Atoi(s)
		priced = false
	}
	db := pgLeague(t, n)
	seq := regexp.MustCompile(`Seq Scan on (games|events|players|ratings|tournaments|former_players|sent|processed|inbox|seen_message_ids)\b`)
	tx, err := db.pg.pool.Begin(db.pg.ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(db.pg.ctx)
	if priced {
		if _, err := tx.Exec(db.pg.ctx, `SET LOCAL enable_seqscan = off`); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range pgHotQueries {
		rows, err := tx.Query(db.pg.ctx, `EXPLAIN (COSTS OFF) `+q.sql, q.args...)
		if err != nil {
			t.Fatalf("%s: %v", q.name, err)
		}
		var plan []string
		for rows.Next() {
			var line string
			if err := rows.Scan(&line); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, line)
		}
		rows.Close()
		text := strings.Join(plan, "\n")
		t.Logf("-- %s\n%s", q.name, text)
		if m := seq.FindString(text); m != "" && priced {
			t.Errorf("%s: %s:\n%s", q.name, m, text)
		}
	}
}
