// Package store keeps refereed's state: games with their players and append-only event logs,
// tournaments, the inbox of raw inbound mail keyed by (mailbox, UIDVALIDITY, UID), the set of
// processed keys, and the outbox of rendered mail.
//
// It has two backends behind one Tx: a bbolt file in the data directory (Open; bolt*.go), the
// default, and a PostgreSQL database shared by several instances (OpenURL; pg*.go), with a
// lease that lets one of them lead and fences the others' writes (lease.go). Copy moves a
// store between them. The store's test suite runs on both (storetest).
//
// The store owns the transaction: Update and View open one transaction and hand the caller a
// *Tx whose methods compose inside it; the referee opens exactly one write transaction per
// inbound mail, so a mail's effects and replies commit together or not at all. Each Tx
// carries Now, fixed when it begins. No []byte from bbolt outlives its transaction: every
// value is decoded (copied) before it is returned. On PostgreSQL a write transaction is
// SERIALIZABLE and may be run again (see Update). A caller that knows what its transaction
// will read names it ahead (UpdateAhead, ViewAhead: Ahead), and PostgreSQL reads it all with
// BEGIN in one round trip; the writes a transaction holds to its end go with COMMIT in
// another (pg_tx.go). bbolt has no round trips and ignores it.
//
// What a Tx offers is split by domain, one interface each, and a Tx is all of them:
//
//   - Games: games, their logs, tokens, the Message-IDs seen, and when each is due;
//   - Tournaments: the tournaments' records;
//   - Players: the players' records and the rating lists;
//   - Counters: counts by name (Next) and limits on answers to an address (Allow);
//   - Challenges: challenges and invitations;
//   - Inbox: inbound mail, quarantined or waiting, and the keys processed;
//   - Outbox: outbound mail waiting, and the mail sent.
//
// Code that needs one domain takes its interface (a *Tx is one); code that composes several
// in one transaction takes the *Tx. Every method returns its error, on both backends, the
// moment it fails: none is kept aside to fail the transaction later, and none reads as an
// empty answer (a count of 0, a key not known).
package store

import (
	"errors"
	"fmt"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
)

// ErrNotFound is returned for a missing game or mail.
var ErrNotFound = errors.New("not found")

// ErrLocked means another process has the database open.
var ErrLocked = errors.New("the database is in use by another refereed process (is the daemon running?)")

// ErrFenced means this process no longer leads: another instance took the lease (see Lease)
// since it was granted, and the store refused to let it write.
var ErrFenced = errors.New("store: another instance leads now: this one may not write")

// ErrInterrupted is the error of a transaction given up by Interrupt (the process was told
// to stop): it was not committed, unless its commit had already reached the database.
var ErrInterrupted = errors.New("store: interrupted: the process was told to stop")

// ErrReadOnly means the database refuses writes: a DBA set it read-only (ALTER DATABASE ...
// SET default_transaction_read_only = on), or it is a standby replica. A leader stands by
// until it is writable again.
var ErrReadOnly = errors.New("store: the database is read-only (default_transaction_read_only, or a replica): nothing may be written")

// ErrNotFile is returned for what only a bbolt file can do (Backup, Compact) when the store is
// a PostgreSQL database: its own tools back it up (pg_dump, replicas).
var ErrNotFile = errors.New("store: the store is a PostgreSQL database: back it up with its own tools (pg_dump, a replica)")

// DB is an open store: a bbolt file (Open) or a PostgreSQL database (OpenURL). Exactly one
// of bolt and pg is set.
type DB struct {
	// mu guards the bbolt handle: every use holds it for reading, and CompactOnline, which
	// puts a compacted file in the place of the open one, and Close hold it whole.
	mu   sync.RWMutex
	bolt *bolt.DB
	pg   *pgStore
	path string // the file, or the URL without its password
	// Now is the clock; each transaction reads it once. Tests pin it. When nil (how OpenURL
	// leaves a database) it is the store's own: the database's on PostgreSQL (now(), read
	// once by each transaction), so that every instance times the games (deadlines,
	// reminders, events) by the one clock they share, whatever the machine's clock says; the
	// machine's on a bbolt file.
	Now func() time.Time
}

// Tx is one transaction. Its methods are valid only inside the function given to Update or
// View; both backends give the same answers (the store's test suite runs on both).
type Tx struct {
	ops
	Now time.Time // fixed when the transaction began
}

// ops is what a transaction offers, implemented once per backend (boltTx, pgTx): the union of
// the domain interfaces, and what only the store's own code reads.
type ops interface {
	Games
	Tournaments
	Players
	Challenges
	Counters
	Inbox
	Outbox
	eachRated(fn func(*PlayerRecord) error) error
}

// Both backends offer every domain.
var (
	_ ops = (*boltTx)(nil)
	_ ops = (*pgTx)(nil)

	_ Games       = (*boltTx)(nil)
	_ Tournaments = (*boltTx)(nil)
	_ Players     = (*boltTx)(nil)
	_ Challenges  = (*boltTx)(nil)
	_ Counters    = (*boltTx)(nil)
	_ Inbox       = (*boltTx)(nil)
	_ Outbox      = (*boltTx)(nil)

	_ Games       = (*pgTx)(nil)
	_ Tournaments = (*pgTx)(nil)
	_ Players     = (*pgTx)(nil)
	_ Challenges  = (*pgTx)(nil)
	_ Counters    = (*pgTx)(nil)
	_ Inbox       = (*pgTx)(nil)
	_ Outbox      = (*pgTx)(nil)

	_ ops = (*Tx)(nil) // a *Tx is every one of them
)

// Games are the games: their records, indexed by player, status and variant; their
// append-only logs; the tokens that map a mail's address to a game and side; the Message-IDs
// a game has seen; and the moments the deadline check must look at each game next (due).
type Games interface {
	CreateGame(g *Game) error
	Game(id uint64) (*Game, error)
	PutGame(g *Game) error
	EachGame(fn func(*Game) error) error
	// GameCount is how many games the store holds (games are never deleted: the last id).
	GameCount() (int, error)
	GameIDPage(status Status, variant string, skip, limit int) ([]uint64, int, error)
	LatestGameIDs(skip, limit int) ([]uint64, error)
	// GameIDsFrom lists at most limit ids of the games with status and of variant ("" for
	// any of either), newest first: those older than id (0: from the newest) or, back, the
	// newest of those newer than id (0: from the oldest); and whether more lie beyond them in
	// the direction read. It seeks id by an index: a page read from its neighbour costs its rows.
	GameIDsFrom(status Status, variant string, id uint64, back bool, limit int) ([]uint64, bool, error)
	GamesOf(address string) ([]Game, error)
	GamesOfLocal(local string) ([]Game, error)
	AppendEvent(id uint64, e Event) (uint64, error)
	// EventCount is how many events game id's log holds, read without reading them.
	EventCount(id uint64) (uint64, error)
	Events(id uint64) ([]Event, error)
	SeenMessageID(id uint64, side int, messageID string) (bool, error)
	PutTokenRef(token string, ref GameRef) error
	DropToken(token string) error
	TokenRef(token string) (GameRef, error)
	SetDue(id uint64, at time.Time) error
	MarkDue(id uint64) error
	DueGames(until time.Time, max int) ([]uint64, error)
}

// Tournaments are the tournaments' records (their games are Games).
type Tournaments interface {
	CreateTournament(tr *Tournament) error
	PutTournament(tr *Tournament) error
	Tournament(id uint64) (*Tournament, error)
	// TournamentCount is how many tournaments the store holds (never deleted: the last id).
	TournamentCount() (int, error)
	LatestTournaments(skip, limit int) ([]Tournament, error)
	EachTournament(fn func(*Tournament) error) error
}

// Players are the players' records (preferences, leaves, ratings) and the rating lists read
// from them.
type Players interface {
	PlayerRecord(address string) (*PlayerRecord, error)
	PutPlayerRecord(rec *PlayerRecord) error
	RatedPage(variant string, skip, limit int) ([]RatedEntry, int, error)
	// RatedFrom reads at most limit lines of variant's rating list after the point at or, back,
	// the last limit before it, best first; it seeks at by an index (pages.go).
	RatedFrom(variant string, at RatedAt, back bool, limit int) (RatedSlice, error)
	// RatedPlace is the point before the line at place (from 0) of variant's rating list,
	// found by skipping the lines before it; RatedEnd past the list.
	RatedPlace(variant string, place int) (RatedAt, error)
	// RatedRank is how many lines of variant's rating list come before the point at (counted:
	// its cost grows with the place).
	RatedRank(variant string, at RatedAt) (int, error)
	// RatedVersion moves whenever variant's rating list changes its order (a line comes,
	// goes, or its rating changes), so that what was known of the list's places can be known
	// to still hold.
	RatedVersion(variant string) (uint64, error)
	RatedVariants() ([]string, error)
}

// Counters are counts kept by name apart from any record: Next numbers what a key names (the
// mails sent to a tournament's organizer), Allow limits answers of a kind to an address
// within a window.
type Counters interface {
	Next(key string) (uint64, error)
	Allow(address string, limit int, window time.Duration) (bool, error)
}

// Challenges are the open challenges and invitations, by id, by player, and by when they
// expire.
type Challenges interface {
	CreateChallenge(c *Challenge) error
	PutChallenge(c *Challenge) error
	Challenge(id uint64) (*Challenge, error)
	OpenChallenges(skip, limit int) ([]Challenge, int, error)
	ChallengesOf(address string) ([]Challenge, error)
	ExpiredChallenges(until time.Time, max int) ([]uint64, error)
	EachChallenge(fn func(*Challenge) error) error
}

// Inbox is the inbound mail: the raw mail waiting to be processed (or quarantined) keyed by
// (mailbox, UIDVALIDITY, UID), and the keys processed, with the fingerprint of their content.
type Inbox interface {
	PutInbound(m InboundMail) (bool, error)
	// PutInbounds puts each of ms as PutInbound does, in order, and reports which were new
	// (on PostgreSQL in one round trip).
	PutInbounds(ms []InboundMail) ([]bool, error)
	Inbound(k InboxKey) (*InboundMail, error)
	PendingInbound() ([]InboundMail, error)
	InboundPage(after *InboxKey, n int, maxBytes int64) ([]InboundMail, error)
	InboxAll(f func(InboundMail) error) error
	Quarantine(m InboundMail, why string) error
	Release(k InboxKey) error
	DropInbound(k InboxKey) error
	UpdateInbound(m InboundMail) error
	MarkProcessed(k InboxKey) error
	MarkIgnored(m InboundMail) (bool, error)
	// Stored reports whether k waits in the inbox.
	Stored(k InboxKey) (bool, error)
	// Processed reports whether k was processed.
	Processed(k InboxKey) (bool, error)
	// Known reports whether k is stored or processed, and the fingerprint of the content it
	// had then ("" when the store did not record one).
	Known(k InboxKey) (fingerprint string, known bool, err error)
	// HighestProcessedUID is the highest UID of mailbox and uidValidity stored or processed.
	HighestProcessedUID(mailbox string, uidValidity uint32) (uint32, error)
}

// Outbox is the outbound mail: rendered mail waiting to be delivered, and the mail sent (or
// given up) kept for a while.
type Outbox interface {
	Enqueue(m OutMail) (uint64, error)
	Outbox() ([]OutMail, error)
	// OutboxCount is how many mails wait to be delivered.
	OutboxCount() (int, error)
	PutOutbox(m OutMail) error
	Done(m OutMail) error
	SentMails() ([]OutMail, error)
}

// Update runs fn in one write transaction; an error from fn rolls everything back. On
// PostgreSQL fn may run more than once (a serialization failure is retried): it must do
// nothing outside the transaction that a second run would repeat.
func (db *DB) Update(fn func(*Tx) error) error {
	if db.pg != nil {
		return db.pg.update(db.Now, nil, fn)
	}
	return db.bupdate(func(btx *bolt.Tx) error {
		now := db.clock()
		return fn(&Tx{ops: &boltTx{tx: btx, Now: now}, Now: now})
	})
}

// View runs fn in a read-only transaction.
func (db *DB) View(fn func(*Tx) error) error {
	if db.pg != nil {
		return db.pg.view(db.Now, nil, fn)
	}
	return db.bview(func(btx *bolt.Tx) error {
		now := db.clock()
		return fn(&Tx{ops: &boltTx{tx: btx, Now: now}, Now: now})
	})
}

// clock reads the machine's clock unless a test pinned Now (a bbolt file's transactions).
func (db *DB) clock() time.Time {
	if db.Now == nil {
		return time.Now()
	}
	return db.Now()
}

// Close closes the store. A bbolt file's last transaction notes when it was closed cleanly.
func (db *DB) Close() error {
	if db.pg != nil {
		db.pg.close()
		return nil
	}
	db.mu.Lock()
	defer db.mu.Unlock()
	if !db.bolt.IsReadOnly() && db.bolt.Path() != "" { // (Path is "" once closed: a second Close does nothing)
		err := db.bolt.Update(func(tx *bolt.Tx) error {
			return tx.Bucket(bMeta).Put(keyClosed, []byte(time.Now().UTC().Format(time.RFC3339)))
		})
		if err != nil {
			db.bolt.Close()
			return fmt.Errorf("store: close %s: %w", db.path, err)
		}
	}
	return db.bolt.Close()
}

// Interrupt gives up the store's work in flight, for a process told to stop: on PostgreSQL
// every statement running fails at once (a query waiting on a lock, or on a database out of
// reach, included), and every one after, so that only Close is left to do. A bbolt file's
// transactions wait on nothing outside the process, and are left to end: callers stop their
// loops themselves.
func (db *DB) Interrupt() {
	if db.pg != nil {
		db.pg.stop()
	}
}

// Path is the file's path, or the database's URL without its password.
func (db *DB) Path() string { return db.path }

// Postgres reports whether the store is a PostgreSQL database.
func (db *DB) Postgres() bool { return db.pg != nil }
