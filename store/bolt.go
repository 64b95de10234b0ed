package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// The bbolt backend: one file, one writer at a time, buckets of JSON records with indexes kept
// beside them in the same transaction.

// SchemaVersion is the layout this code writes. Open migrates older files (see migrations).
// 2: the games of each player are indexed (bByPlayer); 3: the games by when the deadline
// check must look at them next (bDue); 4: the games by status and variant (bByState); 5: the
// raw copy of a sent mail kept as bytes apart from its record (bSentRaw); 6: the raw mail
// waiting in the inbox kept apart from its record likewise (bInboxRaw); 7: the players who
// have a rating (bRated), and the ratings of each game best first (bRatingOrder); the games
// of each status and variant counted (keyStateCount); 8: a player's IF moves logged as
// EventIf, and the moves they played from SourceIf ("if" both), no longer as "conditional".
const SchemaVersion = 8

var (
	bMeta      = []byte("meta")
	bGames     = []byte("games")     // id (u64) -> Game JSON
	bEvents    = []byte("events")    // nested bucket per game id -> seq (u64) -> Event JSON
	bTokens    = []byte("tokens")    // token -> GameRef JSON
	bInbox     = []byte("inbox")     // InboxKey bytes -> InboundMail JSON
	bProcessed = []byte("processed") // InboxKey bytes -> time
	bOutbox    = []byte("outbox")    // seq (u64) -> OutMail JSON, its Raw in bOutboxRaw
	bSent      = []byte("sent")      // seq (u64) -> OutMail JSON, delivered or given up
	bSeen      = []byte("seenids")   // game id + "/" + Message-ID -> time: a re-sent mail is not applied twice
	bRate      = []byte("ratelimit") // address -> times of recent answers (JSON)
	// bTournaments is new in a schema-1 file without migration: Open creates any missing
	// bucket, and readers treat an absent one (a read-only open of an older file) as empty.
	bTournaments = []byte("tournaments") // id (u64) -> Tournament JSON
	bPlayers     = []byte("players")     // address -> PlayerRecord JSON (leave), new the same way
	// bByPlayer indexes the games by their players: lower-case address, a 0 byte and the
	// game's id (u64) -> nothing. Schema 2; kept by CreateGame and PutGame.
	bByPlayer = []byte("games-by-player")
	// bDue indexes the games by when the deadline check must look at them next: the time
	// (unix seconds, u64) and the game's id (u64) -> nothing; bDueOf is the way back, id ->
	// that key. Schema 3.
	bDue   = []byte("games-due")
	bDueOf = []byte("games-due-of")
	// bByState indexes the games by status and variant: status, 0, variant key, 0, id (u64)
	// -> nothing. Schema 4; kept by CreateGame and PutGame.
	bByState = []byte("games-by-state")
	// bSentRaw holds the raw copy of a sent mail while it is kept (SentRawRetention): seq (u64)
	// -> the mail's bytes; its record in bSent has no Raw. Schema 5.
	bSentRaw = []byte("sent-raw")
	// bInboxRaw holds the raw mail of an inbox record (key -> bytes): counting an attempt
	// rewrites the small record, never the mail. Schema 6.
	bInboxRaw = []byte("inbox-raw")
	// bRated holds the address of every player who has a rating -> his keys in bRatingOrder
	// (JSON): the rating lists read those players, not every player. bRatingOrder orders each
	// game's ratings: the game's key, 0, the rating (8 bytes, best first), the address ->
	// nothing; a page of a rating list is read by keys. Schema 7; kept by PutPlayerRecord.
	bRated       = []byte("players-rated")
	bRatingOrder = []byte("ratings-by-rating")
	// bOutboxRaw holds the raw mail of an outbox record (seq -> the mail's bytes), apart from
	// its JSON: a mail is not base64 in JSON, encoded when queued and decoded and scanned
	// whenever the outbox is read, and a retry rewrites the small record, never the mail. New
	// without migration, as bTournaments: a record queued before holds its Raw in its JSON.
	bOutboxRaw = []byte("outbox-raw")
	allBuckets = [][]byte{bMeta, bGames, bEvents, bTokens, bInbox, bProcessed, bOutbox, bSent, bSeen, bRate, bTournaments, bPlayers, bByPlayer, bDue, bDueOf, bByState, bSentRaw, bInboxRaw, bRated, bRatingOrder,
		bChallenges, bChallengesAny, bChallengesBy, bChallengesDue, bOutboxRaw}
	keySchema = []byte("schema")
	keyClosed = []byte("closed") // when the store was last closed cleanly (DB.Close)
)

// Options for Open.
type Options struct {
	Timeout  time.Duration // how long to wait for the file lock; 0 means 1 s
	ReadOnly bool
	NoSync   bool // tests only: skip fsync
}

// boltOptions are how the store opens its bbolt file. The free list is written at every
// commit, so that an open after a crash reads it instead of rebuilding it by reading the
// whole file (1.2 s warm and minutes cold at 100,000 games, when it was not written). As an
// array (bbolt's first kind, sorted) writing it costs a copy of the free pages' ids: nothing
// measurable with the few thousand free pages a running store has (the hashmap kind sorts
// them at every commit: +0.17 ms a commit at 100,000 games), and the daemon compacts the file
// before they grow many (compactWhenIdle, FreePages). Measured in the README (restart after a
// crash).
func boltOptions(timeout time.Duration, readOnly bool) *bolt.Options {
	return &bolt.Options{Timeout: timeout, ReadOnly: readOnly, FreelistType: bolt.FreelistArrayType}
}

// Open opens or creates the store at path and brings its schema up to date.
func Open(path string, o Options) (*DB, error) {
	if o.Timeout == 0 {
		o.Timeout = time.Second
	}
	bdb, err := bolt.Open(path, 0o600, boltOptions(o.Timeout, o.ReadOnly))
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, fmt.Errorf("store: open %s: %w", path, ErrLocked)
	}
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	bdb.NoSync = o.NoSync
	db := &DB{bolt: bdb, path: path, Now: time.Now}
	if !o.ReadOnly {
		if err := db.migrate(); err != nil {
			bdb.Close()
			return nil, err
		}
	}
	return db, nil
}

// migrations[v] upgrades a store of schema v to v+1. A new layout adds an entry here and
// bumps SchemaVersion; nothing else reads an old layout.
var migrations = map[int]func(tx *bolt.Tx) error{
	1: indexPlayers,
	2: indexDue,
	3: indexState,
	4: moveSentRaw,
	5: moveInboxRaw,
	6: func(tx *bolt.Tx) error {
		if err := indexRated(tx); err != nil {
			return err
		}
		return countStates(tx)
	},
	7: renameIfEvents,
}

// renameIfEvents renames the events of a player's IF moves, and of the moves they played,
// logged under their old name (eventIfBefore): EventIf and SourceIf. Game by game, only the
// events that hold the old name are read.
func renameIfEvents(tx *bolt.Tx) error {
	old := []byte(`"` + eventIfBefore + `"`)
	games := tx.Bucket(bEvents)
	return games.ForEachBucket(func(id []byte) error {
		b := games.Bucket(id)
		var keys [][]byte
		var rewrite []Event
		err := b.ForEach(func(k, v []byte) error {
			if !bytes.Contains(v, old) {
				return nil
			}
			var e Event
			if err := json.Unmarshal(v, &e); err != nil {
				return fmt.Errorf("event %x of game %x: %w", k, id, err)
			}
			if e.Kind != eventIfBefore && e.Source != eventIfBefore {
				return nil
			}
			if e.Kind == eventIfBefore {
				e.Kind = EventIf
			}
			if e.Source == eventIfBefore {
				e.Source = SourceIf
			}
			keys, rewrite = append(keys, bytes.Clone(k)), append(rewrite, e)
			return nil
		})
		if err != nil {
			return err
		}
		for i, e := range rewrite {
			if err := putJSON(b, keys[i], e); err != nil {
				return err
			}
		}
		return nil
	})
}

func (db *DB) migrate() error {
	return db.bupdate(func(tx *bolt.Tx) error {
		for _, b := range allBuckets {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return fmt.Errorf("store: create bucket %s: %w", b, err)
			}
		}
		meta := tx.Bucket(bMeta)
		v := 0
		if raw := meta.Get(keySchema); raw != nil {
			v = int(binary.BigEndian.Uint64(raw))
		} else if tx.Bucket(bGames).Stats().KeyN == 0 {
			v = SchemaVersion // a new file starts at the current layout
		}
		if v > SchemaVersion {
			return fmt.Errorf("store: %s has schema %d, newer than this refereed (%d): upgrade refereed", db.path, v, SchemaVersion)
		}
		for ; v < SchemaVersion; v++ {
			if m := migrations[v]; m != nil {
				if err := m(tx); err != nil {
					return fmt.Errorf("store: migrate schema %d: %w", v, err)
				}
			}
		}
		return meta.Put(keySchema, u64(uint64(SchemaVersion)))
	})
}

// boltTx is a transaction on the bbolt file.
type boltTx struct {
	tx  *bolt.Tx
	Now time.Time
}

// Backup writes a consistent snapshot of the whole database to w while others keep working.
func (db *DB) Backup(w io.Writer) (int64, error) {
	if db.pg != nil {
		return 0, ErrNotFile
	}
	var n int64
	err := db.bview(func(tx *bolt.Tx) error {
		var err error
		n, err = tx.WriteTo(w)
		return err
	})
	if err != nil {
		return n, fmt.Errorf("store: backup: %w", err)
	}
	return n, nil
}

// BackupFile writes a snapshot to path (created with mode 0600, replaced atomically).
func (db *DB) BackupFile(path string) (int64, error) {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return 0, fmt.Errorf("store: backup: %w", err)
	}
	n, err := db.Backup(f)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return n, fmt.Errorf("store: backup: %w", err)
	}
	return n, nil
}

// Compact copies the store at src into a new file dst without its free pages (bbolt never
// shrinks a file by itself). src must not be open elsewhere; dst must not exist.
func Compact(src, dst string) (before, after int64, err error) {
	if _, err := os.Stat(dst); err == nil {
		return 0, 0, fmt.Errorf("store: compact: %s exists", dst)
	}
	sdb, err := bolt.Open(src, 0o600, &bolt.Options{Timeout: time.Second, ReadOnly: true})
	if errors.Is(err, bolterrors.ErrTimeout) {
		return 0, 0, fmt.Errorf("store: compact %s: %w", src, ErrLocked)
	}
	if err != nil {
		return 0, 0, fmt.Errorf("store: compact: %w", err)
	}
	defer sdb.Close()
	ddb, err := bolt.Open(dst, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		return 0, 0, fmt.Errorf("store: compact: %w", err)
	}
	if err := bolt.Compact(ddb, sdb, 64<<20); err != nil {
		ddb.Close()
		os.Remove(dst)
		return 0, 0, fmt.Errorf("store: compact: %w", err)
	}
	if err := ddb.Close(); err != nil {
		return 0, 0, fmt.Errorf("store: compact: %w", err)
	}
	si, _ := os.Stat(src)
	di, _ := os.Stat(dst)
	return si.Size(), di.Size(), nil
}

// CompactInPlace compacts the store at path (not open elsewhere): into path.compact, synced,
// then renamed over path. A crash leaves either file whole.
func CompactInPlace(path string) (before, after int64, err error) {
	tmp := path + ".compact"
	os.Remove(tmp)
	if before, after, err = Compact(path, tmp); err != nil {
		return before, after, err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return before, after, fmt.Errorf("store: compact: %w", err)
	}
	return before, after, nil
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// bview and bupdate run fn in a bbolt transaction, holding the handle (see DB.mu).
func (db *DB) bview(fn func(*bolt.Tx) error) error {
	db.mu.RLock()
	defer db.mu.RUnlock()
	return db.bolt.View(fn)
}

func (db *DB) bupdate(fn func(*bolt.Tx) error) error {
	db.mu.RLock()
	defer db.mu.RUnlock()
	err := db.bolt.Update(fn)
	if err == nil {
		Commits.Add(1)
	}
	return err
}

// Commits counts the write transactions committed to bbolt files, for the benchmarks: each
// costs its pages written and an fdatasync.
var Commits atomic.Int64

// CompactOnline compacts the open store in place while the daemon runs: it waits for the
// transactions under way, holds off new ones, copies the live data into path.compact (as
// Compact does), puts the copy in the file's place, and opens it; the transactions held off
// then go on, on the copy. Nothing is lost: a failure before the copy takes the file's place
// leaves the file as it was, open again. It costs the time of the copy (about a second for
// 100 MB of live data), so the daemon calls it when the file is mostly free and nothing is
// waiting, never before its first answer. When ctx ends the copy is given up (within about a
// thousand keys) and the file stays as it was, open again.
func (db *DB) CompactOnline(ctx context.Context) (before, after int64, err error) {
	if db.pg != nil {
		return 0, 0, ErrNotFile
	}
	db.mu.Lock()
	defer db.mu.Unlock()
	path := db.bolt.Path()
	tmp := path + ".compact"
	os.Remove(tmp) // a copy left by a crash in the middle of one
	fi, err := os.Stat(path)
	if err != nil {
		return 0, 0, fmt.Errorf("store: compact: %w", err)
	}
	before = fi.Size()
	ddb, err := bolt.Open(tmp, 0o600, boltOptions(time.Second, false))
	if err != nil {
		return before, 0, fmt.Errorf("store: compact: %w", err)
	}
	ddb.NoSync = db.bolt.NoSync
	if err := compactCopy(ctx, ddb, db.bolt, 64<<20); err != nil {
		ddb.Close()
		os.Remove(tmp)
		return before, 0, fmt.Errorf("store: compact: %w", err)
	}
	if err := ddb.Close(); err != nil { // synced by its last commit
		os.Remove(tmp)
		return before, 0, fmt.Errorf("store: compact: %w", err)
	}
	noSync := db.bolt.NoSync
	if err := db.bolt.Close(); err != nil {
		os.Remove(tmp)
		return before, 0, fmt.Errorf("store: compact: close %s: %w", path, err)
	}
	renamed := os.Rename(tmp, path)
	if renamed == nil {
		syncDir(filepath.Dir(path))
	} else {
		os.Remove(tmp)
	}
	// The file (the copy, or the original if the copy could not take its place) opens again.
	bdb, err := bolt.Open(path, 0o600, boltOptions(10*time.Second, false))
	if err != nil {
		return before, 0, fmt.Errorf("store: compact: open %s again: %w", path, err)
	}
	bdb.NoSync = noSync
	db.bolt = bdb
	if renamed != nil {
		return before, before, fmt.Errorf("store: compact: %w", renamed)
	}
	if fi, err := os.Stat(path); err == nil {
		after = fi.Size()
	}
	return before, after, nil
}

// FreePages is how many of the file's pages are free: the ids every commit writes in the
// free list (0 for PostgreSQL).
func (db *DB) FreePages() int {
	if db.pg != nil {
		return 0
	}
	db.mu.RLock()
	defer db.mu.RUnlock()
	st := db.bolt.Stats()
	return st.FreePageN + st.PendingPageN
}

// FreeRatio is the share of the file's pages that are free (what Compact would give back).
func (db *DB) FreeRatio() float64 {
	if db.pg != nil {
		return 0 // the database reclaims its own space (VACUUM)
	}
	var ratio float64
	db.bview(func(tx *bolt.Tx) error {
		st := db.bolt.Stats()
		pages := tx.Size() / int64(db.bolt.Info().PageSize)
		if pages > 0 {
			ratio = float64(st.FreePageN+st.PendingPageN) / float64(pages)
		}
		return nil
	})
	return ratio
}

// SetMeta and Meta keep small settings of the installation, such as the referee's address
// the daemon last ran with.
func (db *DB) SetMeta(key, value string) error {
	if db.pg != nil {
		return db.pg.setSetting("setting/"+key, value)
	}
	return db.bupdate(func(tx *bolt.Tx) error { return tx.Bucket(bMeta).Put([]byte("setting/"+key), []byte(value)) })
}

// MetaOrSet returns setting key, set to value first if it was unset: of several processes
// that set it at once, one's value is every one's.
func (db *DB) MetaOrSet(key, value string) (string, error) {
	if db.pg != nil {
		return db.pg.settingOrSet("setting/"+key, value)
	}
	err := db.bupdate(func(tx *bolt.Tx) error {
		b := tx.Bucket(bMeta)
		if v := b.Get([]byte("setting/" + key)); len(v) > 0 {
			value = string(v)
			return nil
		}
		return b.Put([]byte("setting/"+key), []byte(value))
	})
	return value, err
}

// Meta returns a setting, "" if unset.
func (db *DB) Meta(key string) string {
	if db.pg != nil {
		v, _ := db.pg.setting("setting/" + key)
		return v
	}
	var v string
	db.bview(func(tx *bolt.Tx) error {
		v = string(tx.Bucket(bMeta).Get([]byte("setting/" + key)))
		return nil
	})
	return v
}

// Dump returns every key and value of every bucket, for tests that check nothing changed.
func (db *DB) Dump() (map[string]string, error) {
	if db.pg != nil {
		return db.pg.dump()
	}
	out := map[string]string{}
	err := db.bview(func(tx *bolt.Tx) error {
		var walk func(prefix string, b *bolt.Bucket) error
		walk = func(prefix string, b *bolt.Bucket) error {
			return b.ForEach(func(k, v []byte) error {
				if v == nil {
					return walk(prefix+string(k)+"/", b.Bucket(k))
				}
				out[prefix+string(k)] = string(v)
				return nil
			})
		}
		return tx.ForEach(func(name []byte, b *bolt.Bucket) error { return walk(string(name)+"/", b) })
	})
	return out, err
}

func u64(n uint64) []byte {
	b := make([]byte, 8)
	binary.BigEndian.PutUint64(b, n)
	return b
}

func putJSON(b *bolt.Bucket, key []byte, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return b.Put(key, data)
}

// decodeAll decodes every value of bucket b, in key order.
func decodeAll[T any](b *bolt.Bucket) ([]T, error) {
	var out []T
	err := b.ForEach(func(k, v []byte) error {
		var x T
		if err := json.Unmarshal(v, &x); err != nil {
			return err
		}
		out = append(out, x)
		return nil
	})
	return out, err
}

// getJSON decodes the value at key into v (decoding copies it out of bbolt's memory).
func getJSON(b *bolt.Bucket, key []byte, v any) error {
	raw := b.Get(key)
	if raw == nil {
		return ErrNotFound
	}
	return json.Unmarshal(raw, v)
}
