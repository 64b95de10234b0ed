package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// The games, their logs, tokens, tournaments and players on PostgreSQL: the bbolt backend's
// methods (bolt_games.go, bolt_tournaments.go) as SQL, with the same answers.

// gameRow is the statement that writes g's row, its columns from g and its doc g itself, and
// returns what its status and game were before (for the counts of GameIDPage) and how many
// rows it wrote; with withDue it sets the due moment too (a flush's put and due in one).
func gameRow(g *Game, insert bool, due any, withDue bool) (q string, args []any, doc []byte, err error) {
	doc, err = jsonDoc(g)
	if err != nil {
		return "", nil, nil, err
	}
	cols, vals, set := `id, variant, white, black, status, result, reason, tournament, round, created, updated, doc`,
		`$1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12`, ``
	args = []any{int64(g.ID), g.Variant, g.Players[0].Address, g.Players[1].Address, string(g.Status),
		g.Result, g.Reason, int64(g.Tournament), g.Round, g.Created, g.Updated, doc}
	if withDue {
		cols, vals, set = cols+`, due`, vals+`, $13`, `, due = excluded.due`
		args = append(args, due)
	}
	q = `INSERT INTO games (` + cols + `) VALUES (` + vals + `)`
	if !insert { // a game put back whole (a restore, a copy) is written as it is
		q += ` ON CONFLICT (id) DO UPDATE SET variant = excluded.variant, white = excluded.white, black = excluded.black,
			status = excluded.status, result = excluded.result, reason = excluded.reason, tournament = excluded.tournament,
			round = excluded.round, created = excluded.created, updated = excluded.updated, doc = excluded.doc` + set
	}
	return `WITH was AS (SELECT status, variant FROM games WHERE id = $1), put AS (` + q + ` RETURNING 1)
		SELECT (SELECT status FROM was), (SELECT variant FROM was), (SELECT count(*) FROM put)`, args, doc, nil
}

// putGameRow writes g's row (gameRow) and what goes with it (afterGameRow).
func (t *pgTx) putGameRow(g *Game, insert bool) error {
	q, args, doc, err := gameRow(g, insert, nil, false)
	if err != nil {
		return err
	}
	var r gameRowResult
	if err := t.tx.QueryRow(t.ctx, q, args...).Scan(&r.wasStatus, &r.wasVariant, &r.n); err != nil {
		return err
	}
	if err := t.afterGameRow(g, doc, r, false); err != nil {
		return err
	}
	for _, f := range g.Former { // who played it before a REPLACE
		if _, err := t.tx.Exec(t.ctx, `INSERT INTO former_players (game, address) VALUES ($1, $2) ON CONFLICT DO NOTHING`, int64(g.ID), f.Address); err != nil {
			return err
		}
	}
	return nil
}

// gameRowResult is what gameRow's statement returns.
type gameRowResult struct {
	wasStatus, wasVariant *string
	n                     int
}

// afterGameRow moves the counts when a game begun or ended (its status or game changed),
// unless counted (the transaction knew it unchanged: held), and remembers its doc and state.
func (t *pgTx) afterGameRow(g *Game, doc []byte, r gameRowResult, counted bool) error {
	var err error
	if r.n != 1 {
		err = ErrNotFound
	}
	if err == nil && !counted && (r.wasStatus == nil || *r.wasStatus != string(g.Status) || *r.wasVariant != g.Variant) {
		if r.wasStatus != nil {
			_, err = t.tx.Exec(t.ctx, `UPDATE counters SET value = value - 1 WHERE name = $1`, stateCounter(Status(*r.wasStatus), *r.wasVariant))
		}
		if err == nil {
			_, err = t.next(stateCounter(g.Status, g.Variant))
		}
	}
	if err == nil {
		t.remember(fmt.Sprint("game/", g.ID), doc)
		t.readState(g.ID, string(g.Status), g.Variant)
	}
	return err
}

// readState notes a game's status and variant as its row has them.
func (t *pgTx) readState(id uint64, status, variant string) {
	if t.states == nil {
		t.states = map[uint64]string{}
	}
	t.states[id] = stateCounter(Status(status), variant)
}

func (t *pgTx) CreateGame(g *Game) error {
	id, err := t.next("games")
	if err != nil {
		return fmt.Errorf("store: create game: %w", err)
	}
	if err := g.begin(id, t.Now); err != nil {
		return err
	}
	if err := t.putGameRow(g, true); err != nil {
		return fmt.Errorf("store: create game: %w", err)
	}
	for side, p := range g.Players {
		if err := t.PutTokenRef(p.Token, GameRef{Game: id, Side: side}); err != nil {
			return fmt.Errorf("store: create game: token: %w", err)
		}
	}
	if !g.Over() {
		return t.MarkDue(id)
	}
	return nil
}

// scanGames decodes the (id, doc) rows returns, in order. A game's id is its row's key, whatever
// its doc says (a hand-edited or merged database may disagree): what pages go by.
func scanGames(rows pgx.Rows, err error) ([]Game, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Game
	for rows.Next() {
		var id int64
		var doc []byte
		if err := rows.Scan(&id, &doc); err != nil {
			return nil, err
		}
		var g Game
		if err := json.Unmarshal(doc, &g); err != nil {
			return nil, fmt.Errorf("game %d: %w", id, err)
		}
		g.ID = uint64(id)
		out = append(out, g)
	}
	return out, rows.Err()
}

func (t *pgTx) Game(id uint64) (*Game, error) {
	key := fmt.Sprint("game/", id)
	doc, ok := t.cached(key)
	var err error
	if !ok && t.write {
		// A mail's transaction reads its game's players' records next: in the same round trip.
		var white, black, status, varnt string
		var wdoc, bdoc []byte
		err = t.tx.QueryRow(t.ctx, `SELECT g.doc, g.white, g.black, g.status, g.variant, (SELECT doc FROM players WHERE address = g.white),
			(SELECT doc FROM players WHERE address = g.black) FROM games g WHERE g.id = $1`, int64(id)).Scan(&doc, &white, &black, &status, &varnt, &wdoc, &bdoc)
		if err == nil {
			t.remember(key, doc)
			t.readState(id, status, varnt)
			for _, p := range []struct {
				addr string
				doc  []byte
			}{{white, wdoc}, {black, bdoc}} {
				if _, known := t.cached("player/" + p.addr); !known {
					t.remember("player/"+p.addr, p.doc) // nil: known to have no record
				}
			}
		}
	} else if !ok {
		err = t.tx.QueryRow(t.ctx, `SELECT doc FROM games WHERE id = $1`, int64(id)).Scan(&doc)
		if err == nil {
			t.remember(key, doc)
		}
	}
	if errors.Is(err, pgx.ErrNoRows) {
		err = ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("store: game %d: %w", id, err)
	}
	var g Game
	if err := json.Unmarshal(doc, &g); err != nil {
		return nil, fmt.Errorf("store: game %d: %w", id, err)
	}
	g.ID = id // the row's key
	return &g, nil
}

// PutGame holds the write until the transaction commits or a query needs it (flush); the
// transaction's own reads see it at once.
func (t *pgTx) PutGame(g *Game) error {
	g.Updated = t.Now
	doc, err := jsonDoc(g)
	if err != nil {
		return fmt.Errorf("store: put game %d: %w", g.ID, err)
	}
	t.remember(fmt.Sprint("game/", g.ID), doc)
	if t.putGames == nil {
		t.putGames = map[uint64]Game{}
	}
	var cp Game
	if err := json.Unmarshal(doc, &cp); err != nil {
		return fmt.Errorf("store: put game %d: %w", g.ID, err)
	}
	t.putGames[g.ID] = cp // a copy of its own: the caller may change g afterwards
	return nil
}

// EachGame reads the games a page at a time, so that it holds one page, never all; the pages
// go by the rows' keys, so that the loop ends and gives each row once.
func (t *pgTx) EachGame(fn func(*Game) error) error {
	if err := t.flush(); err != nil {
		return err
	}
	after := int64(0)
	for {
		page, err := scanGames(t.tx.Query(t.ctx, `SELECT id, doc FROM games WHERE id > $1 ORDER BY id LIMIT 256`, after))
		if err != nil {
			return fmt.Errorf("store: list games: %w", err)
		}
		for i := range page {
			if err := fn(&page[i]); err != nil {
				return err
			}
		}
		if len(page) < 256 {
			return nil
		}
		after = int64(page[len(page)-1].ID)
	}
}

func (t *pgTx) GameCount() (int, error) {
	n, err := t.counter("games")
	return int(n), err
}

// ids collects the first column of rows.
func (t *pgTx) ids(q string, args ...any) ([]uint64, error) {
	rows, err := t.tx.Query(t.ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []uint64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, uint64(id))
	}
	return out, rows.Err()
}

// stateCounter names the counter of the games of variant in status (GameIDPage's counts, as
// bbolt's by-state counts).
func stateCounter(status Status, variant string) string {
	return "games/" + string(status) + "/" + variant
}

// GameIDPage reads the page by an index (games_state, or the key when nothing filters) and the
// count from the counters kept as games begin and end: both cost the page, not the games.
func (t *pgTx) GameIDPage(status Status, variant string, skip, limit int) ([]uint64, int, error) {
	if err := t.flush(); err != nil {
		return nil, 0, err
	}
	n := 0
	var name string
	var v int64
	err := t.rows(`SELECT name, value FROM counters WHERE name > 'games/' AND name < 'games0'`, nil, []any{&name, &v}, func() error {
		st, vr, _ := strings.Cut(strings.TrimPrefix(name, "games/"), "/")
		if (status == "" || st == string(status)) && (variant == "" || vr == variant) {
			n += int(v)
		}
		return nil
	})
	if err != nil {
		return nil, 0, fmt.Errorf("store: list games: %w", err)
	}
	if status == "" && variant == "" { // every game: a range of ids
		ids, err := t.LatestGameIDs(skip, limit)
		return ids, n, err
	}
	// One query text for each filter, so that each is planned on its index.
	q, args := `SELECT id FROM games`, []any{}
	switch {
	case status != "" && variant != "":
		q, args = q+` WHERE status = $1 AND variant = $2`, []any{string(status), variant}
	case status != "":
		q, args = q+` WHERE status = $1`, []any{string(status)}
	case variant != "":
		q, args = q+` WHERE variant = $1`, []any{variant}
	}
	q += fmt.Sprintf(` ORDER BY id DESC OFFSET $%d LIMIT $%d`, len(args)+1, len(args)+2)
	ids, err := t.ids(q, append(args, skip, limit)...)
	if err != nil {
		return nil, 0, fmt.Errorf("store: list games: %w", err)
	}
	return ids, n, nil
}

func (t *pgTx) LatestGameIDs(skip, limit int) ([]uint64, error) {
	if err := t.flush(); err != nil {
		return nil, err
	}
	// Games are never deleted and their ids run from 1: the page is a range of ids, and a
	// deep page costs its rows, as the first.
	n, err := t.GameCount()
	if err != nil || skip >= n {
		return nil, err
	}
	ids, err := t.ids(`SELECT id FROM games WHERE id <= $1 ORDER BY id DESC LIMIT $2`, n-skip, limit)
	if err != nil {
		return nil, fmt.Errorf("store: list games: %w", err)
	}
	return ids, nil
}

// gamesOfSQL reads a player's games by the indexes games_white, games_black and
// former_players_address, each alone (an OR of the three was planned as a walk of every game).
const gamesOfSQL = `SELECT id, doc FROM games WHERE id IN (
		SELECT id FROM games WHERE lower(white) = $1
		UNION SELECT id FROM games WHERE lower(black) = $1
		UNION SELECT game FROM former_players WHERE lower(address) = $1) ORDER BY id`

// gamesOfLocalSQL is gamesOfSQL by the local part (games_white_local, games_black_local,
// former_players_local).
const gamesOfLocalSQL = `SELECT id, doc FROM games WHERE id IN (
		SELECT id FROM games WHERE split_part(lower(white), '@', 1) = $1 AND strpos(white, '@') > 0
		UNION SELECT id FROM games WHERE split_part(lower(black), '@', 1) = $1 AND strpos(black, '@') > 0
		UNION SELECT game FROM former_players WHERE split_part(lower(address), '@', 1) = $1 AND strpos(address, '@') > 0) ORDER BY id`

func (t *pgTx) GamesOf(address string) ([]Game, error) {
	if err := t.flush(); err != nil {
		return nil, err
	}
	a := strings.ToLower(address)
	out, err := scanGames(t.tx.Query(t.ctx, gamesOfSQL, a))
	if err != nil {
		return nil, fmt.Errorf("store: games of %s: %w", address, err)
	}
	return out, nil
}

func (t *pgTx) GamesOfLocal(local string) ([]Game, error) {
	if err := t.flush(); err != nil {
		return nil, err
	}
	l := strings.ToLower(local)
	out, err := scanGames(t.tx.Query(t.ctx, gamesOfLocalSQL, l))
	if err != nil {
		return nil, fmt.Errorf("store: games of %s@: %w", local, err)
	}
	return out, nil
}

func (t *pgTx) AppendEvent(id uint64, e Event) (uint64, error) {
	if e.At.IsZero() {
		e.At = t.Now
	}
	e.At = e.At.Truncate(time.Microsecond)
	if log, ok := t.events[id]; ok {
		// The log read in this transaction gives the next number: the insert goes with the
		// rest at the end (two transactions that append at once: one fails and runs again).
		e.Seq, e.At = 1, e.At.UTC()
		if n := len(log); n > 0 {
			e.Seq = log[n-1].Seq + 1
		}
		t.later = append(t.later, laterStmt{`INSERT INTO events (game, seq, side, kind, text, at, source, days, undo)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, []any{int64(id), int64(e.Seq), e.Side, e.Kind, e.Text, e.At, e.Source, e.Days, e.Undo}})
		t.events[id] = append(log, e)
		return e.Seq, t.MarkDue(id)
	}
	// The next number and the insert in one round trip; and the game is due now (MarkDue).
	var seq int64
	if err := t.tx.QueryRow(t.ctx, `INSERT INTO events (game, seq, side, kind, text, at, source, days, undo)
		SELECT $1, coalesce(max(seq), 0) + 1, $2, $3, $4, $5, $6, $7, $8 FROM events WHERE game = $1 RETURNING seq`,
		int64(id), e.Side, e.Kind, e.Text, e.At, e.Source, e.Days, e.Undo).Scan(&seq); err != nil {
		return 0, fmt.Errorf("store: append event to game %d: %w", id, err)
	}
	if log, ok := t.events[id]; ok { // the log read in this transaction grows by it
		e.Seq, e.At = uint64(seq), e.At.UTC()
		t.events[id] = append(log, e)
	}
	return uint64(seq), t.MarkDue(id)
}

func (t *pgTx) EventCount(id uint64) (uint64, error) {
	if log, ok := t.events[id]; ok {
		if len(log) == 0 {
			return 0, nil
		}
		return log[len(log)-1].Seq, nil
	}
	var n int64
	if err := t.tx.QueryRow(t.ctx, `SELECT coalesce(max(seq), 0) FROM events WHERE game = $1`, int64(id)).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: count events of game %d: %w", id, err)
	}
	return uint64(n), nil
}

// Events reads a game's log once a transaction (a mail reads it before and after its moves):
// later reads are the log read, with what the transaction appended.
func (t *pgTx) Events(id uint64) ([]Event, error) {
	if log, ok := t.events[id]; ok {
		return slices.Clone(log), nil
	}
	log, err := t.readEvents(id)
	if err == nil {
		if t.events == nil {
			t.events = map[uint64][]Event{}
		}
		t.events[id] = slices.Clone(log)
	}
	return log, err
}

func (t *pgTx) readEvents(id uint64) ([]Event, error) {
	rows, err := t.tx.Query(t.ctx, `SELECT seq, side, kind, text, at, source, days, undo FROM events WHERE game = $1 ORDER BY seq`, int64(id))
	if err != nil {
		return nil, fmt.Errorf("store: events of game %d: %w", id, err)
	}
	defer rows.Close()
	var out []Event
	for rows.Next() {
		var e Event
		var seq int64
		if err := rows.Scan(&seq, &e.Side, &e.Kind, &e.Text, &e.At, &e.Source, &e.Days, &e.Undo); err != nil {
			return nil, fmt.Errorf("store: events of game %d: %w", id, err)
		}
		e.Seq, e.At = uint64(seq), e.At.UTC()
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: events of game %d: %w", id, err)
	}
	return out, nil
}

func (t *pgTx) SeenMessageID(id uint64, side int, messageID string) (bool, error) {
	if messageID == "" {
		return false, nil
	}
	if seen, known := t.seen[msgIDKey{id, side, messageID}]; known { // read ahead
		if seen {
			return true, nil
		}
		t.seen[msgIDKey{id, side, messageID}] = true
		// Written with the rest at the end: a plain INSERT, so that a transaction that
		// saw it at the same time makes this one fail (and run again), not both apply it.
		t.later = append(t.later, laterStmt{`INSERT INTO seen_message_ids (game, side, message_id, at) VALUES ($1, $2, $3, $4)`,
			[]any{int64(id), side, messageID, t.Now}})
		return false, nil
	}
	tag, err := t.tx.Exec(t.ctx, `INSERT INTO seen_message_ids (game, side, message_id, at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (game, side, message_id) DO NOTHING`, int64(id), side, messageID, t.Now)
	if err != nil {
		return false, fmt.Errorf("store: record message id: %w", err)
	}
	return tag.RowsAffected() == 0, nil
}

func (t *pgTx) PutTokenRef(token string, ref GameRef) error {
	if token == "" {
		return fmt.Errorf("store: put token: empty token")
	}
	doc, err := jsonDoc(ref)
	if err == nil {
		_, err = t.tx.Exec(t.ctx, `INSERT INTO tokens (token, game, side, tournament, doc) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (token) DO UPDATE SET game = excluded.game, side = excluded.side, tournament = excluded.tournament, doc = excluded.doc`,
			token, int64(ref.Game), ref.Side, int64(ref.Tournament), doc)
	}
	if err != nil {
		return fmt.Errorf("store: put token: %w", err)
	}
	if t.tokens != nil {
		delete(t.tokens, token) // read again: as the row has it
	}
	return nil
}

func (t *pgTx) DropToken(token string) error {
	if _, err := t.tx.Exec(t.ctx, `DELETE FROM tokens WHERE token = $1`, token); err != nil {
		return fmt.Errorf("store: drop token: %w", err)
	}
	if t.tokens != nil {
		t.keepToken(token, GameRef{}, ErrNotFound)
	}
	return nil
}

func (t *pgTx) TokenRef(token string) (GameRef, error) {
	if token == "" {
		return GameRef{}, ErrNotFound
	}
	if c, ok := t.tokens[token]; ok { // read ahead, or put, in this transaction
		return c.ref, c.err
	}
	var row tokenRow
	return t.tokenRef(token, "", row.scan(t.tx.QueryRow(t.ctx, tokenRefSQL, token, t.write, "")), &row)
}

// tokenRefSQL reads a mail's token ($1) first, and its game, the players' records, the game's
// status and variant, in a write ($2) its log, and whether its side saw the Message-ID $3
// (unless ""): all in the same round trip, kept in the transaction's caches.
const tokenRefSQL = `SELECT k.doc, k.game, k.side, g.doc, g.white, g.black, g.status, g.variant,
		(SELECT doc FROM players WHERE address = g.white), (SELECT doc FROM players WHERE address = g.black),
		CASE WHEN $2 THEN (SELECT json_agg(json_build_array(seq, side, kind, text, at, source, days, undo) ORDER BY seq)
			FROM events WHERE game = k.game) END,
		$3 <> '' AND EXISTS (SELECT 1 FROM seen_message_ids s WHERE s.game = k.game AND s.side = k.side AND s.message_id = $3)
		FROM tokens k LEFT JOIN games g ON g.id = k.game WHERE k.token = $1`

// tokenRow is a row of tokenRefSQL.
type tokenRow struct {
	doc, gdoc, wdoc, bdoc, log  []byte
	game, side                  int64
	white, black, status, varnt *string
	seen                        bool
}

func (r *tokenRow) scan(row pgx.Row) error {
	return row.Scan(&r.doc, &r.game, &r.side, &r.gdoc, &r.white, &r.black, &r.status, &r.varnt, &r.wdoc, &r.bdoc, &r.log, &r.seen)
}

// tokenRef decodes a row of tokenRefSQL (err: the row's) into the transaction's caches (what
// it has read or written already is left as it is) and returns the token's reference.
func (t *pgTx) tokenRef(token, messageID string, err error, row *tokenRow) (GameRef, error) {
	var r GameRef
	if errors.Is(err, pgx.ErrNoRows) {
		err = ErrNotFound
	}
	if err == nil {
		err = json.Unmarshal(row.doc, &r)
	}
	if err == nil || errors.Is(err, ErrNotFound) {
		t.keepToken(token, r, err)
	}
	if err != nil || row.gdoc == nil || row.white == nil || row.black == nil {
		return r, err
	}
	id := uint64(row.game)
	if _, known := t.cached(fmt.Sprint("game/", id)); !known {
		t.remember(fmt.Sprint("game/", id), row.gdoc)
		t.readState(id, *row.status, *row.varnt)
	}
	for _, p := range []struct {
		addr string
		doc  []byte
	}{{*row.white, row.wdoc}, {*row.black, row.bdoc}} {
		if _, known := t.cached("player/" + p.addr); !known {
			t.remember("player/"+p.addr, p.doc) // nil: known to have no record
		}
	}
	if _, known := t.events[id]; t.write && !known {
		events, err := decodeEvents(row.log)
		if err != nil {
			return r, fmt.Errorf("store: events of game %d: %w", id, err)
		}
		if t.events == nil {
			t.events = map[uint64][]Event{}
		}
		t.events[id] = events
	}
	if k := (msgIDKey{id, int(row.side), messageID}); messageID != "" {
		if _, known := t.seen[k]; !known {
			if t.seen == nil {
				t.seen = map[msgIDKey]bool{}
			}
			t.seen[k] = row.seen
		}
	}
	return r, nil
}

// keepToken caches what TokenRef answers for token in this transaction.
func (t *pgTx) keepToken(token string, ref GameRef, err error) {
	if t.tokens == nil {
		t.tokens = map[string]tokenAnswer{}
	}
	t.tokens[token] = tokenAnswer{ref, err}
}

// tokenAnswer is what TokenRef answered.
type tokenAnswer struct {
	ref GameRef
	err error
}

// msgIDKey is a Message-ID a game's side may have seen.
type msgIDKey struct {
	game uint64
	side int
	mid  string
}

// decodeEvents reads a game's log as TokenRef's query gives it: a JSON array of [seq, side,
// kind, text, at, source, days, undo], or null for none.
func decodeEvents(log []byte) ([]Event, error) {
	if log == nil {
		return nil, nil
	}
	var rows [][]json.RawMessage
	if err := json.Unmarshal(log, &rows); err != nil {
		return nil, err
	}
	out := make([]Event, 0, len(rows))
	for _, row := range rows {
		if len(row) != 8 {
			return nil, fmt.Errorf("an event of %d fields", len(row))
		}
		var e Event
		for i, dst := range []any{&e.Seq, &e.Side, &e.Kind, &e.Text, &e.At, &e.Source, &e.Days, &e.Undo} {
			if err := json.Unmarshal(row[i], dst); err != nil {
				return nil, err
			}
		}
		e.At = e.At.UTC()
		out = append(out, e)
	}
	return out, nil
}

func (t *pgTx) SetDue(id uint64, at time.Time) error {
	var due any // NULL: never, until something marks it again
	if !at.IsZero() {
		// Whole seconds, as the bbolt index keeps them: the order of the due is the same.
		due = time.Unix(max(at.Unix(), 0), 0).UTC()
	}
	if t.dues == nil {
		t.dues = map[uint64]any{}
	}
	t.dues[id] = due // written at flush
	return nil
}

func (t *pgTx) MarkDue(id uint64) error { return t.SetDue(id, t.Now) }

func (t *pgTx) DueGames(until time.Time, max int) ([]uint64, error) {
	if err := t.flush(); err != nil {
		return nil, err
	}
	ids, err := t.ids(`SELECT id FROM games WHERE due IS NOT NULL AND due <= $1 ORDER BY due, id LIMIT $2`, until, max)
	if err != nil {
		return nil, fmt.Errorf("store: due games: %w", err)
	}
	return ids, nil
}

func (t *pgTx) putTournamentRow(tr *Tournament, insert bool) error {
	doc, err := jsonDoc(tr)
	if err != nil {
		return err
	}
	q := `INSERT INTO tournaments (id, name, variant, organizer, created, updated, doc) VALUES ($1, $2, $3, $4, $5, $6, $7)`
	if !insert {
		q += ` ON CONFLICT (id) DO UPDATE SET name = excluded.name, variant = excluded.variant, organizer = excluded.organizer,
			created = excluded.created, updated = excluded.updated, doc = excluded.doc`
	}
	tag, err := t.tx.Exec(t.ctx, q, int64(tr.ID), tr.Name, tr.Variant, tr.Organizer, tr.Created, tr.Updated, doc)
	if err == nil && tag.RowsAffected() != 1 {
		err = ErrNotFound
	}
	return err
}

func (t *pgTx) CreateTournament(tr *Tournament) error {
	id, err := t.next("tournaments")
	if err != nil {
		return fmt.Errorf("store: create tournament: %w", err)
	}
	tr.ID = id
	tr.Created, tr.Updated = t.Now, t.Now
	if err := t.putTournamentRow(tr, true); err != nil {
		return fmt.Errorf("store: create tournament: %w", err)
	}
	return nil
}

func (t *pgTx) PutTournament(tr *Tournament) error {
	tr.Updated = t.Now
	if err := t.putTournamentRow(tr, false); err != nil {
		return fmt.Errorf("store: put tournament %d: %w", tr.ID, err)
	}
	return nil
}

func (t *pgTx) Tournament(id uint64) (*Tournament, error) {
	var doc []byte
	err := t.tx.QueryRow(t.ctx, `SELECT doc FROM tournaments WHERE id = $1`, int64(id)).Scan(&doc)
	if errors.Is(err, pgx.ErrNoRows) {
		err = ErrNotFound
	}
	var tr Tournament
	if err == nil {
		err = json.Unmarshal(doc, &tr)
	}
	if err != nil {
		return nil, fmt.Errorf("store: tournament %d: %w", id, err)
	}
	tr.ID = id // the row's key
	return &tr, nil
}

func (t *pgTx) TournamentCount() (int, error) {
	n, err := t.counter("tournaments")
	return int(n), err
}

// LatestTournaments reads the page, and its tournaments' games in one more query (the index
// games_tournament) into the transaction's cache: a page of tournaments shows each one's
// standing, which reads every game of it, and a round trip a game cost 1.2 ms a tournament.
// Tournaments are never deleted and their ids run from 1, so the page is a range of ids: a
// deep page costs its rows, as the first (an OFFSET walked, or sorted, every row before it).
func (t *pgTx) LatestTournaments(skip, limit int) ([]Tournament, error) {
	n, err := t.TournamentCount()
	if err != nil || skip >= n {
		return nil, err
	}
	out, err := t.tournaments(`SELECT id, doc FROM tournaments WHERE id <= $1 ORDER BY id DESC LIMIT $2`, n-skip, limit)
	if err != nil || len(out) == 0 {
		return out, err
	}
	ids := make([]int64, len(out))
	for i, tr := range out {
		ids[i] = int64(tr.ID)
	}
	var id int64
	var doc []byte
	err = t.rows(`SELECT id, doc FROM games WHERE tournament = ANY($1)`, []any{ids}, []any{&id, &doc}, func() error {
		key := fmt.Sprint("game/", id)
		if _, ok := t.cached(key); !ok { // what this transaction wrote stays
			t.remember(key, slices.Clone(doc))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: list tournaments: %w", err)
	}
	return out, nil
}

// EachTournament reads the tournaments in pages of 64, so that fn may query the transaction
// (no rows are open while it runs); the pages go by the rows' keys.
func (t *pgTx) EachTournament(fn func(*Tournament) error) error {
	after := int64(0)
	for {
		page, err := t.tournaments(`SELECT id, doc FROM tournaments WHERE id > $1 ORDER BY id LIMIT 64`, after)
		if err != nil {
			return err
		}
		for i := range page {
			if err := fn(&page[i]); err != nil {
				return err
			}
		}
		if len(page) < 64 {
			return nil
		}
		after = int64(page[len(page)-1].ID)
	}
}

// tournaments decodes the (id, doc) rows query q gives; a tournament's id is its row's key.
func (t *pgTx) tournaments(q string, args ...any) ([]Tournament, error) {
	rows, err := t.tx.Query(t.ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("store: list tournaments: %w", err)
	}
	defer rows.Close()
	var out []Tournament
	for rows.Next() {
		var id int64
		var doc []byte
		var tr Tournament
		if err := rows.Scan(&id, &doc); err != nil {
			return nil, fmt.Errorf("store: list tournaments: %w", err)
		}
		if err := json.Unmarshal(doc, &tr); err != nil {
			return nil, fmt.Errorf("store: list tournaments: tournament %d: %w", id, err)
		}
		tr.ID = uint64(id)
		out = append(out, tr)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: list tournaments: %w", err)
	}
	return out, nil
}

func (t *pgTx) PlayerRecord(address string) (*PlayerRecord, error) {
	rec := &PlayerRecord{Address: address}
	key := "player/" + address
	doc, ok := t.cached(key)
	var err error
	if !ok {
		err = t.tx.QueryRow(t.ctx, `SELECT doc FROM players WHERE address = $1`, address).Scan(&doc)
		if errors.Is(err, pgx.ErrNoRows) {
			doc, err = nil, nil
		}
		if err == nil {
			t.remember(key, doc)
		}
	}
	if err == nil && doc == nil {
		return rec, nil
	}
	if err == nil {
		err = json.Unmarshal(doc, rec)
	}
	if err != nil {
		return nil, fmt.Errorf("store: player %s: %w", address, err)
	}
	return rec, nil
}

func (t *pgTx) PutPlayerRecord(rec *PlayerRecord) error {
	doc, err := jsonDoc(rec)
	if err == nil {
		was, known := t.cached("player/" + rec.Address)
		if !known {
			was = nil
		} else if was == nil {
			was = []byte("{}") // known absent: no ratings
		}
		err = t.putRatings(rec, was)
	}
	if err == nil {
		_, err = t.tx.Exec(t.ctx, `INSERT INTO players (address, doc) VALUES ($1, $2)
			ON CONFLICT (address) DO UPDATE SET doc = excluded.doc`, rec.Address, doc)
	}
	if err == nil {
		t.remember("player/"+rec.Address, doc)
	}
	if err != nil {
		return fmt.Errorf("store: put player %s: %w", rec.Address, err)
	}
	return nil
}

func (t *pgTx) Next(key string) (uint64, error) {
	n, err := t.next("count/" + key)
	if err != nil {
		return 0, fmt.Errorf("store: count %s: %w", key, err)
	}
	return n, nil
}

func (t *pgTx) Allow(address string, limit int, window time.Duration) (bool, error) {
	var raw []byte
	err := t.tx.QueryRow(t.ctx, `SELECT times FROM rate_limits WHERE address = $1`, address).Scan(&raw)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return false, fmt.Errorf("store: rate limit of %s: %w", address, err)
	}
	doc, ok, err := allowed(raw, t.Now, limit, window)
	if err != nil {
		return false, fmt.Errorf("store: rate limit of %s: %w", address, err)
	}
	if !ok {
		return false, nil
	}
	if _, err := t.tx.Exec(t.ctx, `INSERT INTO rate_limits (address, times) VALUES ($1, $2)
		ON CONFLICT (address) DO UPDATE SET times = excluded.times`, address, doc); err != nil {
		return false, fmt.Errorf("store: rate limit of %s: %w", address, err)
	}
	return true, nil
}
