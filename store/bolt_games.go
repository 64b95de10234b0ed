package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

// CreateGame stores a new game, assigning its ID, and indexes its players' tokens.
func (t *boltTx) CreateGame(g *Game) error {
	b := t.tx.Bucket(bGames)
	id, err := b.NextSequence()
	if err != nil {
		return fmt.Errorf("store: create game: %w", err)
	}
	if err := g.begin(id, t.Now); err != nil {
		return err
	}
	for side, p := range g.Players {
		if err := putJSON(t.tx.Bucket(bTokens), []byte(p.Token), GameRef{Game: id, Side: side}); err != nil {
			return fmt.Errorf("store: create game: token: %w", err)
		}
	}
	if err := putJSON(b, u64(id), g); err != nil {
		return fmt.Errorf("store: create game: %w", err)
	}
	if !g.Over() {
		if err := t.MarkDue(id); err != nil {
			return err
		}
	}
	if err := t.tx.Bucket(bByState).Put(stateKey(g.Status, g.Variant, id), nil); err != nil {
		return fmt.Errorf("store: create game: %w", err)
	}
	if err := countState(t.tx, g.Status, g.Variant, 1); err != nil {
		return fmt.Errorf("store: create game: %w", err)
	}
	return t.indexPlayers(id, nil, g.Indexed())
}

// Game returns game id.
func (t *boltTx) Game(id uint64) (*Game, error) {
	var g Game
	if err := getJSON(t.tx.Bucket(bGames), u64(id), &g); err != nil {
		return nil, fmt.Errorf("store: game %d: %w", id, err)
	}
	g.ID = id // the key, whatever the record says
	return &g, nil
}

// PutGame saves g, and indexes it under its players when they changed (a replacement).
func (t *boltTx) PutGame(g *Game) error {
	g.Updated = t.Now
	return t.putGameAs(g)
}

// putGameAs saves g as it is (a copy keeps its times), indexed.
func (t *boltTx) putGameAs(g *Game) error {
	b := t.tx.Bucket(bGames)
	if b.Sequence() < g.ID { // a game copied in under its id: the next new one comes after it
		if err := b.SetSequence(g.ID); err != nil {
			return fmt.Errorf("store: put game %d: %w", g.ID, err)
		}
	}
	var was struct {
		Players [2]struct{ Address string }
		Former  []struct{ Address string }
		Status  Status
		Variant string
	}
	raw := b.Get(u64(g.ID))
	if raw != nil {
		if err := json.Unmarshal(raw, &was); err != nil {
			return fmt.Errorf("store: put game %d: %w", g.ID, err)
		}
	}
	if err := putJSON(b, u64(g.ID), g); err != nil {
		return fmt.Errorf("store: put game %d: %w", g.ID, err)
	}
	if was.Status != g.Status || was.Variant != g.Variant {
		st := t.tx.Bucket(bByState)
		if err := st.Delete(stateKey(was.Status, was.Variant, g.ID)); err != nil {
			return fmt.Errorf("store: put game %d: %w", g.ID, err)
		}
		if err := st.Put(stateKey(g.Status, g.Variant, g.ID), nil); err != nil {
			return fmt.Errorf("store: put game %d: %w", g.ID, err)
		}
		if raw != nil {
			if err := countState(t.tx, was.Status, was.Variant, -1); err != nil {
				return fmt.Errorf("store: put game %d: %w", g.ID, err)
			}
		}
		if err := countState(t.tx, g.Status, g.Variant, 1); err != nil {
			return fmt.Errorf("store: put game %d: %w", g.ID, err)
		}
	}
	wasIndexed := []string{was.Players[0].Address, was.Players[1].Address}
	for _, f := range was.Former {
		wasIndexed = append(wasIndexed, f.Address)
	}
	return t.indexPlayers(g.ID, wasIndexed, g.Indexed())
}

// playerKey is the index key of game id under address.
func playerKey(address string, id uint64) []byte {
	return append(append([]byte(strings.ToLower(address)), 0), u64(id)...)
}

// indexPlayers moves game id's index entries from the addresses was to now.
func (t *boltTx) indexPlayers(id uint64, was, now []string) error {
	if slices.Equal(was, now) {
		return nil
	}
	b := t.tx.Bucket(bByPlayer)
	for _, a := range was {
		if a != "" && !slices.Contains(now, a) {
			if err := b.Delete(playerKey(a, id)); err != nil {
				return fmt.Errorf("store: index game %d: %w", id, err)
			}
		}
	}
	for _, a := range now {
		if a != "" {
			if err := b.Put(playerKey(a, id), nil); err != nil {
				return fmt.Errorf("store: index game %d: %w", id, err)
			}
		}
	}
	return nil
}

// indexPlayers (schema 1 to 2) indexes every game under its players.
func indexPlayers(tx *bolt.Tx) error {
	b := tx.Bucket(bByPlayer)
	return tx.Bucket(bGames).ForEach(func(k, v []byte) error {
		var g Game
		if err := json.Unmarshal(v, &g); err != nil {
			return err
		}
		for _, a := range g.Indexed() {
			if a != "" {
				if err := b.Put(playerKey(a, g.ID), nil); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// GamesOf lists the games address plays or played, by id, from the index: what a mail from a
// player costs does not grow with the games of others. A store opened read-only before its
// migration has no index: then every game is read.
func (t *boltTx) GamesOf(address string) ([]Game, error) {
	return t.gamesUnder(strings.ToLower(address) + "\x00")
}

// GamesOfLocal lists the games of every address whose local part is local ("ann" for
// ann@example.com and ann@example.org), by id.
func (t *boltTx) GamesOfLocal(local string) ([]Game, error) {
	return t.gamesUnder(strings.ToLower(local) + "@")
}

// gamesUnder lists the games indexed under keys that start with prefix, by id.
func (t *boltTx) gamesUnder(prefix string) ([]Game, error) {
	b := t.tx.Bucket(bByPlayer)
	if b == nil {
		all, err := t.allGames()
		var out []Game
		for _, g := range all {
			for _, a := range g.Indexed() {
				if strings.HasPrefix(strings.ToLower(a)+"\x00", prefix) || strings.HasPrefix(strings.ToLower(a), prefix) && strings.HasSuffix(prefix, "@") {
					out = append(out, g)
					break
				}
			}
		}
		return out, err
	}
	var ids []uint64
	c := b.Cursor()
	for k, _ := c.Seek([]byte(prefix)); k != nil && bytes.HasPrefix(k, []byte(prefix)); k, _ = c.Next() {
		ids = append(ids, binary.BigEndian.Uint64(k[len(k)-8:]))
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	out := make([]Game, 0, len(ids))
	for _, id := range ids {
		g, err := t.Game(id)
		if err != nil {
			return nil, err
		}
		out = append(out, *g)
	}
	return out, nil
}

// allGames lists every game by id: only for a store opened read-only before the migration
// that indexes them (no path of a running daemon reads every game).
func (t *boltTx) allGames() ([]Game, error) {
	out, err := decodeAll[Game](t.tx.Bucket(bGames))
	if err != nil {
		return nil, fmt.Errorf("store: list games: %w", err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// PutTokenRef indexes a token (an organizer's, or a replacement player's).
func (t *boltTx) PutTokenRef(token string, ref GameRef) error {
	if token == "" {
		return fmt.Errorf("store: put token: empty token")
	}
	if err := putJSON(t.tx.Bucket(bTokens), []byte(token), ref); err != nil {
		return fmt.Errorf("store: put token: %w", err)
	}
	return nil
}

// DropToken forgets a token: mail that carries it no longer reaches a game.
func (t *boltTx) DropToken(token string) error {
	if err := t.tx.Bucket(bTokens).Delete([]byte(token)); err != nil {
		return fmt.Errorf("store: drop token: %w", err)
	}
	return nil
}

// TokenRef finds the game and side of a token.
func (t *boltTx) TokenRef(token string) (GameRef, error) {
	var r GameRef
	if token == "" {
		return r, ErrNotFound
	}
	err := getJSON(t.tx.Bucket(bTokens), []byte(token), &r)
	return r, err
}

// AppendEvent adds an accepted command to game id's log and returns its sequence number.
func (t *boltTx) AppendEvent(id uint64, e Event) (uint64, error) {
	b, err := t.tx.Bucket(bEvents).CreateBucketIfNotExists(u64(id))
	if err != nil {
		return 0, fmt.Errorf("store: append event to game %d: %w", id, err)
	}
	seq, err := b.NextSequence()
	if err != nil {
		return 0, fmt.Errorf("store: append event to game %d: %w", id, err)
	}
	e.Seq = seq
	if e.At.IsZero() {
		e.At = t.Now
	}
	if err := putJSON(b, u64(seq), e); err != nil {
		return 0, fmt.Errorf("store: append event to game %d: %w", id, err)
	}
	// What its log says moves when the game is due: the deadline check looks again.
	return seq, t.MarkDue(id)
}

// EventCount is how many events game id's log holds, read without reading them.
func (t *boltTx) EventCount(id uint64) (uint64, error) {
	if b := t.tx.Bucket(bEvents).Bucket(u64(id)); b != nil {
		return b.Sequence(), nil
	}
	return 0, nil
}

// Events returns game id's log in order.
func (t *boltTx) Events(id uint64) ([]Event, error) {
	b := t.tx.Bucket(bEvents).Bucket(u64(id))
	if b == nil {
		return nil, nil
	}
	out, err := decodeAll[Event](b)
	if err != nil {
		return nil, fmt.Errorf("store: events of game %d: %w", id, err)
	}
	return out, nil
}

// SeenMessageID reports whether a mail with this Message-ID from this side was already
// applied to game id, and records it. A sender who re-sends the same mail gets it applied
// once. Each player has his own set: one cannot probe the other's, nor shadow his next mail
// by sending first under its predictable Message-ID.
func (t *boltTx) SeenMessageID(id uint64, side int, messageID string) (bool, error) {
	if messageID == "" {
		return false, nil
	}
	key := seenKey(id, side, messageID)
	b := t.tx.Bucket(bSeen)
	if b.Get(key) != nil {
		return true, nil
	}
	if err := b.Put(key, []byte(t.Now.UTC().Format(time.RFC3339))); err != nil {
		return false, fmt.Errorf("store: record message id: %w", err)
	}
	return false, nil
}

// Allow reports whether one more answer of a limited kind may go to address: at most limit
// within window. An allowed answer is counted.
func (t *boltTx) Allow(address string, limit int, window time.Duration) (bool, error) {
	b := t.tx.Bucket(bRate)
	times, ok, err := allowed(b.Get([]byte(address)), t.Now, limit, window)
	if err == nil && ok {
		err = b.Put([]byte(address), times)
	}
	if err != nil {
		return false, fmt.Errorf("store: rate limit of %s: %w", address, err)
	}
	return ok, nil
}

// allowed is the rate limit of Allow on the times kept (JSON, nil for none): whether one more
// answer may go at now, and the times to keep if it does.
func allowed(kept []byte, now time.Time, limit int, window time.Duration) (times []byte, ok bool, err error) {
	var all []time.Time
	if kept != nil {
		if err := json.Unmarshal(kept, &all); err != nil {
			return nil, false, err
		}
	}
	recent := all[:0]
	for _, at := range all {
		if now.Sub(at) < window {
			recent = append(recent, at)
		}
	}
	if len(recent) >= limit {
		return nil, false, nil
	}
	times, err = json.Marshal(append(recent, now))
	return times, err == nil, err
}

// SetDue records when the deadline check must look at game id next (zero: never, until
// something marks it again). It is kept in the transaction of what moves it, so that the
// check reads only the games due, however many there are.
func (t *boltTx) SetDue(id uint64, at time.Time) error {
	due, of := t.tx.Bucket(bDue), t.tx.Bucket(bDueOf)
	var key []byte
	if !at.IsZero() {
		key = append(u64(uint64(max(at.Unix(), 0))), u64(id)...)
	}
	if old := of.Get(u64(id)); old != nil {
		if bytes.Equal(old, key) {
			return nil // due then already
		}
		if err := due.Delete(old); err != nil {
			return fmt.Errorf("store: due of game %d: %w", id, err)
		}
		if key == nil {
			if err := of.Delete(u64(id)); err != nil {
				return fmt.Errorf("store: due of game %d: %w", id, err)
			}
		}
	}
	if key == nil {
		return nil
	}
	if err := due.Put(key, nil); err != nil {
		return fmt.Errorf("store: due of game %d: %w", id, err)
	}
	if err := of.Put(u64(id), key); err != nil {
		return fmt.Errorf("store: due of game %d: %w", id, err)
	}
	return nil
}

// MarkDue asks the deadline check to look at game id at its next round: something moved when
// the game is due (a command, leave, a pause, an extension, a new player).
func (t *boltTx) MarkDue(id uint64) error { return t.SetDue(id, t.Now) }

// DueGames lists the games the deadline check must look at by until, the most overdue
// first, at most max of them.
func (t *boltTx) DueGames(until time.Time, max int) ([]uint64, error) {
	b := t.tx.Bucket(bDue)
	if b == nil { // a store opened read-only before its migration
		return nil, nil
	}
	var out []uint64
	c := b.Cursor()
	for k, _ := c.First(); k != nil && len(out) < max; k, _ = c.Next() {
		if int64(binary.BigEndian.Uint64(k[:8])) > until.Unix() {
			break
		}
		out = append(out, binary.BigEndian.Uint64(k[8:]))
	}
	return out, nil
}

// indexDue (schema 2 to 3) marks every game still going as due: the first round of the
// deadline check after the upgrade works out when each falls due.
func indexDue(tx *bolt.Tx) error {
	due, of := tx.Bucket(bDue), tx.Bucket(bDueOf)
	return tx.Bucket(bGames).ForEach(func(k, v []byte) error {
		var g Game
		if err := json.Unmarshal(v, &g); err != nil {
			return err
		}
		if g.Over() {
			return nil
		}
		key := append(u64(0), k...)
		if err := due.Put(key, nil); err != nil {
			return err
		}
		return of.Put(k, key)
	})
}

// stateKey is the index key of game id by its status and variant.
func stateKey(status Status, variant string, id uint64) []byte {
	k := append([]byte(status), 0)
	k = append(append(k, variant...), 0)
	return append(k, u64(id)...)
}

// GameIDPage lists the ids of the games with status and of variant ("" for any of either),
// newest first: skip of them skipped, at most limit, read by keys (mergeStates: a merge of the
// index's ranges, newest first, each read backwards); and how many there are, from counts kept with
// the index (bStateCount keys in bMeta), not by reading it.
func (t *boltTx) GameIDPage(status Status, variant string, skip, limit int) ([]uint64, int, error) {
	b := t.tx.Bucket(bByState)
	if b == nil { // a store opened read-only before its migration
		all, err := t.allGames()
		var ids []uint64
		for i := len(all) - 1; i >= 0; i-- {
			if (status == "" || all[i].Status == status) && (variant == "" || all[i].Variant == variant) {
				ids = append(ids, all[i].ID)
			}
		}
		n := len(ids)
		return ids[min(skip, n):min(skip+limit, n)], n, err
	}
	ranges, total := t.stateRanges(status, variant)
	ids, _ := mergeStates(b, ranges, math.MaxUint64, false, skip, limit)
	return ids, total, nil
}

// keyStateCount begins the keys in bMeta that count the games of a status and variant:
// "statecount/" status "/" variant -> count (u64). Schema 7; kept with bByState.
var keyStateCount = []byte("statecount/")

// countState adds delta to the count of the games with status and of variant.
func countState(tx *bolt.Tx, status Status, variant string, delta int) error {
	return addCount(tx, append(slices.Clone(keyStateCount), string(status)+"/"+variant...), delta)
}

// metaCount is the count kept under key in bMeta (0 when none is).
func metaCount(tx *bolt.Tx, key []byte) int {
	if v := tx.Bucket(bMeta).Get(key); len(v) == 8 {
		return int(binary.BigEndian.Uint64(v))
	}
	return 0
}

// addCount adds delta to the count kept under key in bMeta.
func addCount(tx *bolt.Tx, key []byte, delta int) error {
	return tx.Bucket(bMeta).Put(key, u64(uint64(max(metaCount(tx, key)+delta, 0))))
}

// countStates (schema 6 to 7) counts the games of each status and variant from bByState.
func countStates(tx *bolt.Tx) error {
	counts := map[string]int{}
	err := tx.Bucket(bByState).ForEach(func(k, _ []byte) error {
		parts := bytes.SplitN(k, []byte{0}, 3)
		if len(parts) != 3 {
			return fmt.Errorf("games by state: bad key %q", k)
		}
		counts[string(parts[0])+"/"+string(parts[1])]++
		return nil
	})
	if err != nil {
		return err
	}
	meta := tx.Bucket(bMeta)
	for k, n := range counts {
		if err := meta.Put(append(slices.Clone(keyStateCount), k...), u64(uint64(n))); err != nil {
			return err
		}
	}
	return nil
}

// indexState (schema 3 to 4) indexes every game by its status and variant.
func indexState(tx *bolt.Tx) error {
	st := tx.Bucket(bByState)
	return tx.Bucket(bGames).ForEach(func(k, v []byte) error {
		var g Game
		if err := json.Unmarshal(v, &g); err != nil {
			return err
		}
		return st.Put(stateKey(g.Status, g.Variant, g.ID), nil)
	})
}

// GameCount is how many games the store holds, read without reading them (games are never
// deleted: it is the last id given).
func (t *boltTx) GameCount() (int, error) { return int(t.tx.Bucket(bGames).Sequence()), nil }

// EachGame calls fn with every game, by id, one at a time: a reader of every game holds one in
// memory, never all (list, export --all).
func (t *boltTx) EachGame(fn func(*Game) error) error {
	return t.tx.Bucket(bGames).ForEach(func(k, v []byte) error {
		var g Game
		if err := json.Unmarshal(v, &g); err != nil {
			return fmt.Errorf("store: game %d: %w", binary.BigEndian.Uint64(k), err)
		}
		g.ID = binary.BigEndian.Uint64(k)
		return fn(&g)
	})
}

// LatestGameIDs lists the ids of the newest games, newest first, skipping skip of them and at
// most limit: a page of every game, read by keys without reading the rest.
func (t *boltTx) LatestGameIDs(skip, limit int) ([]uint64, error) {
	b := t.tx.Bucket(bGames)
	last := b.Sequence() // games are never deleted and their ids run from 1
	if uint64(skip) >= last {
		return nil, nil
	}
	var ids []uint64
	c := b.Cursor()
	first := last - uint64(skip) // sought, not walked to
	k, _ := c.Seek(u64(first))
	switch {
	case k == nil:
		k, _ = c.Last()
	case binary.BigEndian.Uint64(k) > first:
		k, _ = c.Prev()
	}
	for ; k != nil && len(ids) < limit; k, _ = c.Prev() {
		ids = append(ids, binary.BigEndian.Uint64(k))
	}
	return ids, nil
}
