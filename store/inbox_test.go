package store

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// The inbox is read a page at a time, bounded in count and bytes; quarantined mail is kept
// but skipped until released; a dropped mail is recorded as processed.
func TestInboundPagesAndQuarantine(t *testing.T) { each(t, testInboundPagesAndQuarantine) }

func testInboundPagesAndQuarantine(t *testing.T, db *DB, _ string) {
	key := func(uid uint32) InboxKey { return InboxKey{Mailbox: "INBOX", UIDValidity: 1, UID: uid} }
	db.Update(func(tx *Tx) error {
		for uid := uint32(1); uid <= 10; uid++ {
			tx.PutInbound(InboundMail{Key: key(uid), Raw: []byte(strings.Repeat("x", 1000))})
		}
		m, _ := tx.Inbound(key(3))
		return tx.Quarantine(*m, "handling failed 3 times")
	})
	var uids []uint32
	var after *InboxKey
	pages := 0
	for {
		var page []InboundMail
		db.View(func(tx *Tx) error {
			var err error
			page, err = tx.InboundPage(after, 4, 2500)
			return err
		})
		if len(page) == 0 {
			break
		}
		pages++
		for _, m := range page {
			uids = append(uids, m.Key.UID)
		}
		after = &page[len(page)-1].Key
	}
	if fmt.Sprint(uids) != "[1 2 4 5 6 7 8 9 10]" || pages < 4 {
		t.Errorf("pages read %v in %d pages; want all but the quarantined 3, at most 2 of 1 KB per 2.5 KB page", uids, pages)
	}
	db.Update(func(tx *Tx) error {
		if err := tx.Release(key(3)); err != nil {
			t.Error(err)
		}
		if err := tx.DropInbound(key(4)); err != nil {
			t.Error(err)
		}
		page, _ := tx.InboundPage(nil, 100, 1<<20)
		if len(page) != 9 || page[2].Key.UID != 3 || page[3].Key.UID != 5 {
			t.Errorf("after release and drop: %d mails", len(page))
		}
		if done, err := tx.Processed(key(4)); !done || err != nil {
			t.Errorf("a dropped mail would be fetched again (%v)", err)
		}
		return nil
	})
}

// Raw copies of mail delivered long ago are pruned, and compaction gives the space back.
func TestPruneAndCompact(t *testing.T) { each(t, testPruneAndCompact) }

func testPruneAndCompact(t *testing.T, db *DB, path string) {
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	db.Now = func() time.Time { return now }
	// Mails that do not compress (the store compresses raw copies): 20 KB of random bytes.
	rnd := rand.New(rand.NewSource(1))
	db.Update(func(tx *Tx) error {
		for i := 0; i < 200; i++ {
			raw := make([]byte, 20000)
			rnd.Read(raw)
			raw[0] = 'F'
			id, _ := tx.Enqueue(OutMail{MessageID: fmt.Sprint(i), Raw: raw})
			tx.Done(OutMail{ID: id, MessageID: fmt.Sprint(i), Raw: raw, Sent: now})
		}
		return nil
	})
	now = now.Add(SentRawRetention + time.Hour)
	db.Update(func(tx *Tx) error {
		id, _ := tx.Enqueue(OutMail{MessageID: "recent", Raw: []byte("keep me")})
		return tx.Done(OutMail{ID: id, MessageID: "recent", Raw: []byte("keep me"), Sent: now})
	})
	if n, err := db.Prune(); err != nil || n != 200 {
		t.Errorf("pruned %d (%v), want 200", n, err)
	}
	if n, err := db.Prune(); err != nil || n != 0 { // from where it stopped: nothing new
		t.Errorf("pruned %d (%v) again, want 0", n, err)
	}
	now = now.Add(SentRawRetention + time.Hour) // the recent one is old now: pruned from the mark
	if n, err := db.Prune(); err != nil || n != 1 {
		t.Errorf("pruned %d (%v) a month later, want 1", n, err)
	}
	now = now.Add(-SentRawRetention - time.Hour)
	db.View(func(tx *Tx) error {
		sent, _ := tx.SentMails()
		if len(sent) != 201 || sent[200].Raw != nil || sent[0].Raw != nil || sent[0].MessageID != "0" {
			t.Errorf("after pruning: %d sent, last %q", len(sent), sent[len(sent)-1].Raw)
		}
		return nil
	})
	if db.bolt == nil {
		return // compaction is the file's
	}
	if db.FreeRatio() < 0.5 {
		t.Errorf("free ratio %.2f after pruning", db.FreeRatio())
	}
	db.Close()
	before, after, err := CompactInPlace(path)
	if err != nil || after >= before/2 {
		t.Fatalf("compact: %d -> %d bytes, %v", before, after, err)
	}
	db = open(t, path)
	defer db.Close()
	db.View(func(tx *Tx) error {
		if sent, _ := tx.SentMails(); len(sent) != 201 {
			t.Errorf("%d sent mails after compaction", len(sent))
		}
		return nil
	})
	if _, err := os.Stat(path + ".compact"); err == nil {
		t.Error("the compaction's temporary file is left")
	}
}

func TestParseInboxKey(t *testing.T) {
	for _, k := range []InboxKey{{Mailbox: "INBOX", UIDValidity: 1700000000, UID: 42}, {Mailbox: "a/b", UIDValidity: 1, UID: 2, Content: "3fa2"}} {
		got, err := ParseInboxKey(k.String())
		if err != nil || got != k {
			t.Errorf("%v: %+v %v", k, got, err)
		}
	}
	for _, bad := range []string{"", "INBOX", "INBOX/1", "INBOX/x/2", "/1/2", "INBOX/1/99999999999"} {
		if _, err := ParseInboxKey(bad); err == nil {
			t.Errorf("%q read as a key", bad)
		}
	}
}

// Issue 23: the keys of mail processed long ago are forgotten, a few small transactions at a
// time from where the last call stopped; recent ones stay.
func TestForgetProcessed(t *testing.T) { each(t, testForgetProcessed) }

func testForgetProcessed(t *testing.T, db *DB, _ string) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	db.Now = func() time.Time { return now }
	key := func(uid uint32) InboxKey { return InboxKey{Mailbox: "INBOX", UIDValidity: 7, UID: uid} }
	db.Update(func(tx *Tx) error {
		for uid := uint32(1); uid <= 600; uid++ {
			tx.MarkProcessed(key(uid))
		}
		return nil
	})
	now = now.Add(ProcessedRetention + time.Hour)
	db.Update(func(tx *Tx) error {
		for uid := uint32(601); uid <= 610; uid++ {
			tx.MarkProcessed(key(uid))
		}
		return nil
	})
	if n, err := db.ForgetProcessed(); err != nil || n != 600 {
		t.Fatalf("forgot %d (%v), want 600", n, err)
	}
	if n, err := db.ForgetProcessed(); err != nil || n != 0 {
		t.Fatalf("forgot %d (%v) again, want 0", n, err)
	}
	db.View(func(tx *Tx) error {
		for uid, want := range map[uint32]bool{1: false, 600: false, 601: true, 610: true} {
			if done, err := tx.Processed(key(uid)); done != want || err != nil {
				t.Errorf("key %d processed %v (%v), want %v", uid, done, err, want)
			}
		}
		return nil
	})
}

// MarkIgnored records a key as processed with its fingerprint, once, and never over a mail
// that waits in the inbox.
func TestMarkIgnored(t *testing.T) { each(t, testMarkIgnored) }

func testMarkIgnored(t *testing.T, db *DB, _ string) {
	k := InboxKey{Mailbox: "INBOX", UIDValidity: 3, UID: 9}
	waiting := InboxKey{Mailbox: "INBOX", UIDValidity: 3, UID: 10}
	db.Update(func(tx *Tx) error {
		if ok, err := tx.MarkIgnored(InboundMail{Key: k, Fingerprint: "fp9"}); !ok || err != nil {
			t.Errorf("mark ignored: %v %v", ok, err)
		}
		if ok, _ := tx.MarkIgnored(InboundMail{Key: k, Fingerprint: "other"}); ok {
			t.Error("a key marked twice")
		}
		tx.PutInbound(InboundMail{Key: waiting, Raw: []byte("x")})
		if ok, _ := tx.MarkIgnored(InboundMail{Key: waiting}); ok {
			t.Error("a waiting mail marked ignored")
		}
		return nil
	})
	db.View(func(tx *Tx) error {
		fp, known, err := tx.Known(k)
		done, err2 := tx.Processed(k)
		stored, err3 := tx.Stored(k)
		if !known || fp != "fp9" || !done || stored || errors.Join(err, err2, err3) != nil {
			t.Errorf("ignored key: known %v fingerprint %q processed %v stored %v (%v)", known, fp, done, stored, errors.Join(err, err2, err3))
		}
		stored, err = tx.Stored(waiting)
		done, err2 = tx.Processed(waiting)
		if !stored || done || errors.Join(err, err2) != nil {
			t.Errorf("the waiting mail changed: stored %v processed %v (%v)", stored, done, errors.Join(err, err2))
		}
		return nil
	})
}

// The daemon compacts its open store while mail keeps coming (issue 38: a start no longer
// waits for it): transactions begun during the copy wait for it and then go on, on the
// compacted file; nothing is lost, and the space is given back.
func TestCompactOnline(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.db")
	db := open(t, path)
	defer func() { db.Close() }()
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	db.Now = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	rnd := rand.New(rand.NewSource(1))
	db.Update(func(tx *Tx) error {
		for i := 0; i < 300; i++ {
			raw := make([]byte, 20000)
			rnd.Read(raw)
			id, _ := tx.Enqueue(OutMail{MessageID: fmt.Sprint(i), Raw: raw})
			tx.Done(OutMail{ID: id, MessageID: fmt.Sprint(i), Raw: raw, Sent: now})
		}
		return nil
	})
	mu.Lock()
	now = now.Add(SentRawRetention + time.Hour)
	mu.Unlock()
	if n, err := db.Prune(); err != nil || n != 300 || db.FreeRatio() < 0.5 {
		t.Fatalf("pruned %d (%v), free ratio %.2f", n, err, db.FreeRatio())
	}
	// Writers and readers run through the compaction.
	var wg sync.WaitGroup
	stop := make(chan struct{})
	written := make([]int, 2)
	for w := range written {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				if err := db.Update(func(tx *Tx) error {
					_, err := tx.Enqueue(OutMail{MessageID: fmt.Sprintf("w%d-%d", w, i), Raw: []byte("a move")})
					return err
				}); err != nil {
					t.Error(err)
					return
				}
				db.View(func(tx *Tx) error { _, err := tx.Outbox(); return err })
				written[w]++
			}
		}()
	}
	time.Sleep(20 * time.Millisecond)
	before, after, err := db.CompactOnline(context.Background())
	time.Sleep(20 * time.Millisecond)
	close(stop)
	wg.Wait()
	if err != nil || after >= before/2 {
		t.Fatalf("compact online: %d -> %d bytes, %v", before, after, err)
	}
	if _, err := os.Stat(path + ".compact"); err == nil {
		t.Error("the compaction's temporary file is left")
	}
	db.View(func(tx *Tx) error {
		out, _ := tx.Outbox()
		sent, _ := tx.SentMails()
		if len(out) != written[0]+written[1] || len(sent) != 300 {
			t.Errorf("after compaction: %d in the outbox (%d written), %d sent", len(out), written[0]+written[1], len(sent))
		}
		return nil
	})
	// Closed and opened again, the compacted file is the store.
	db.Close()
	db = open(t, path)
	db.View(func(tx *Tx) error {
		if out, _ := tx.Outbox(); len(out) != written[0]+written[1] {
			t.Errorf("%d in the outbox after reopening", len(out))
		}
		return nil
	})
}

// A compaction given up (the daemon told to stop) leaves the store as it was, open, and no
// copy behind; the same compaction run to its end then copies every bucket, nested ones and
// their sequences included, and every key (the whole store dumped, equal).
func TestCompactOnlineGivenUp(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.db")
	db := open(t, path)
	defer func() { db.Close() }()
	rnd := rand.New(rand.NewSource(2))
	db.Update(func(tx *Tx) error {
		for i := 0; i < 3000; i++ {
			raw := make([]byte, 2000)
			rnd.Read(raw)
			tx.Enqueue(OutMail{MessageID: fmt.Sprint(i), Raw: raw})
		}
		return nil
	})
	games := 0
	newGame := func() uint64 {
		t.Helper()
		games++
		g := &Game{Variant: "orthodox", Players: [2]Player{{Address: "w@x", Token: fmt.Sprint("tw", games)}, {Address: "b@x", Token: fmt.Sprint("tb", games)}}}
		if err := db.Update(func(tx *Tx) error { return tx.CreateGame(g) }); err != nil {
			t.Fatal(err)
		}
		return g.ID
	}
	for i := 1; i <= 3; i++ {
		newGame()
	}
	want, err := db.Dump()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := db.CompactOnline(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("compaction with its context ended: %v", err)
	}
	if _, err := os.Stat(path + ".compact"); err == nil {
		t.Error("the given-up compaction's file is left")
	}
	if got, err := db.Dump(); err != nil || !maps.Equal(got, want) {
		t.Fatalf("the store after a given-up compaction differs (%v)", err)
	}
	if _, _, err := db.CompactOnline(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got, err := db.Dump(); err != nil || !maps.Equal(got, want) {
		t.Fatalf("the store after compaction differs (%v)", err)
	}
	// Committed every few kilobytes, the copy is the same.
	dpath := filepath.Join(t.TempDir(), "copy.db")
	ddb, err := bolt.Open(dpath, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	db.mu.RLock()
	err = compactCopy(context.Background(), ddb, db.bolt, 8<<10)
	db.mu.RUnlock()
	if err != nil {
		t.Fatal(err)
	}
	ddb.Close()
	cp := open(t, dpath)
	got, err := cp.Dump()
	cp.Close()
	if err != nil || !maps.Equal(got, want) {
		t.Fatalf("the store copied in small transactions differs (%v)", err)
	}
	if id := newGame(); id != 4 {
		t.Errorf("a game created after compaction: #%d, want #4: the buckets' sequences are copied", id)
	}
}
