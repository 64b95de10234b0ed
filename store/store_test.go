package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/refereed/refereed/store/storetest"
	bolt "go.etcd.io/bbolt"
)

// each runs test on a fresh store of every backend there is (storetest.Backends): the store's
// answers are the same on both. loc reopens the same store.
func each(t *testing.T, test func(t *testing.T, db *DB, loc string)) {
	for _, backend := range storetest.Backends() {
		t.Run(backend, func(t *testing.T) {
			loc := storetest.Location(t, backend)
			db := open(t, loc)
			defer func() { db.Close() }()
			test(t, db, loc)
		})
	}
}

func open(t testing.TB, path string) *DB {
	t.Helper()
	db, err := OpenURL(path, Options{NoSync: true, Timeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// A second instance on the same file fails fast and says why.
func TestSecondOpenFailsFast(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.db")
	db := open(t, path)
	defer db.Close()
	start := time.Now()
	_, err := Open(path, Options{Timeout: 200 * time.Millisecond})
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "is the daemon running?") {
		t.Fatalf("second open: %v", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Fatal("the second open waited for the lock instead of failing")
	}
}

func TestGamesEventsInboxOutbox(t *testing.T) { each(t, testGamesEventsInboxOutbox) }

func testGamesEventsInboxOutbox(t *testing.T, db *DB, _ string) {
	key := InboxKey{Mailbox: "INBOX", UIDValidity: 5, UID: 42}
	err := db.Update(func(tx *Tx) error {
		g := &Game{Variant: "orthodox", Players: [2]Player{{Address: "a@x", Token: "tokena"}, {Address: "b@x", Token: "tokenb"}}}
		if err := tx.CreateGame(g); err != nil {
			return err
		}
		if g.ID != 1 {
			t.Errorf("first game id %d", g.ID)
		}
		for _, text := range []string{"move e2e4", "move e7e5"} {
			if _, err := tx.AppendEvent(g.ID, Event{Text: text}); err != nil {
				return err
			}
		}
		if isNew, err := tx.PutInbound(InboundMail{Key: key, Raw: []byte("raw")}); err != nil || !isNew {
			t.Errorf("put inbound: %v %v", isNew, err)
		}
		if isNew, _ := tx.PutInbound(InboundMail{Key: key, Raw: []byte("raw")}); isNew {
			t.Error("the same key stored twice")
		}
		_, err := tx.Enqueue(OutMail{MessageID: "m1@x", To: []string{"a@x"}, Raw: []byte("hi")})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *Tx) error {
		ref, err := tx.TokenRef("tokenb")
		if err != nil || ref.Game != 1 || ref.Side != 1 {
			t.Errorf("token ref %+v %v", ref, err)
		}
		ev, _ := tx.Events(1)
		if len(ev) != 2 || ev[1].Text != "move e7e5" || ev[1].Seq != 2 {
			t.Errorf("events %+v", ev)
		}
		if high, err := tx.HighestProcessedUID("INBOX", 5); high != 42 || err != nil {
			t.Errorf("highest UID of the inbox: %d (%v)", high, err)
		}
		if err := tx.MarkProcessed(key); err != nil {
			return err
		}
		if done, err := tx.Processed(key); !done || err != nil {
			t.Errorf("not processed (%v)", err)
		}
		if isNew, _ := tx.PutInbound(InboundMail{Key: key}); isNew {
			t.Error("a processed key was stored again")
		}
		out, _ := tx.Outbox()
		if len(out) != 1 || out[0].MessageID != "m1@x" {
			t.Errorf("outbox %+v", out)
		}
		return tx.Done(out[0])
	})
	if err != nil {
		t.Fatal(err)
	}
	db.View(func(tx *Tx) error {
		out, _ := tx.Outbox()
		sent, _ := tx.SentMails()
		if len(out) != 0 || len(sent) != 1 {
			t.Errorf("after Done: outbox %d, sent %d", len(out), len(sent))
		}
		return nil
	})
}

// A backup taken while the store is open is a consistent store of its own.
func TestBackupWhileOpen(t *testing.T) {
	dir := t.TempDir()
	db := open(t, filepath.Join(dir, "r.db"))
	defer db.Close()
	db.Update(func(tx *Tx) error {
		return tx.CreateGame(&Game{Variant: "orthodox", Players: [2]Player{{Token: "aaaaaaaa"}, {Token: "bbbbbbbb"}}})
	})
	backup := filepath.Join(dir, "backup.db")
	if _, err := db.BackupFile(backup); err != nil {
		t.Fatal(err)
	}
	b := open(t, backup)
	defer b.Close()
	b.View(func(tx *Tx) error {
		if n, err := tx.GameCount(); n != 1 || err != nil {
			t.Errorf("backup holds %d games (%v)", n, err)
		}
		return nil
	})
	var buf bytes.Buffer
	if n, err := db.Backup(&buf); err != nil || n != int64(buf.Len()) {
		t.Errorf("backup to a writer: %d %v", n, err)
	}
}

// A file written by a newer refereed is refused, not misread.
func TestNewerSchemaRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.db")
	db := open(t, path)
	db.bolt.Update(func(tx *bolt.Tx) error { return tx.Bucket(bMeta).Put(keySchema, u64(SchemaVersion+1)) })
	db.Close()
	if _, err := Open(path, Options{}); err == nil || !strings.Contains(err.Error(), "newer than this refereed") {
		t.Fatalf("newer schema: %v", err)
	}
}

// A clean close ends with a transaction of its own, which notes it; closing twice does
// nothing the second time.
func TestCloseWritesFreeList(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.db")
	db := open(t, path)
	if err := db.Update(func(tx *Tx) error {
		return tx.CreateGame(&Game{Variant: "orthodox", Players: [2]Player{{Address: "a@x", Token: "ta"}, {Address: "b@x", Token: "tb"}}})
	}); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Errorf("a second close: %v", err)
	}
	raw, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if err := raw.View(func(tx *bolt.Tx) error {
		if tx.Bucket(bMeta).Get(keyClosed) == nil {
			t.Error("no record of the clean close")
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// A sent mail's raw copy is kept compressed in the bbolt file and read back as it was sent; a
// copy kept before copies were compressed reads as it is.
func TestSentRawCompressed(t *testing.T) {
	db := open(t, filepath.Join(t.TempDir(), "r.db"))
	defer db.Close()
	raw := []byte("From: referee@x\r\nTo: a@x\r\nSubject: your move\r\n\r\n" + strings.Repeat("8 | r  n  b  q  k  b  n  r | 8\r\n", 40))
	if err := db.Update(func(tx *Tx) error {
		for _, r := range [][]byte{raw, []byte("From: old@x\r\n\r\nkept before\r\n")} {
			id, err := tx.Enqueue(OutMail{MessageID: "m", To: []string{"a@x"}, Raw: r})
			if err != nil {
				return err
			}
			if err := tx.Done(OutMail{ID: id, MessageID: "m", To: []string{"a@x"}, Raw: r}); err != nil {
				return err
			}
		}
		// The second as an older store kept it: the mail itself.
		return tx.ops.(*boltTx).tx.Bucket(bSentRaw).Put(u64(2), []byte("From: old@x\r\n\r\nkept before\r\n"))
	}); err != nil {
		t.Fatal(err)
	}
	if err := db.View(func(tx *Tx) error {
		if v := tx.ops.(*boltTx).tx.Bucket(bSentRaw).Get(u64(1)); len(v) == 0 || v[0] != 0 || len(v) > len(raw)/3 {
			t.Errorf("the copy is kept in %d bytes (the mail: %d), not compressed", len(v), len(raw))
		}
		sent, err := tx.SentMails()
		if err != nil || len(sent) != 2 || !bytes.Equal(sent[0].Raw, raw) || string(sent[1].Raw) != "From: old@x\r\n\r\nkept before\r\n" {
			t.Errorf("read back: %d mails, %v", len(sent), err)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
}

// Every commit writes bbolt's free list (issue 38): a file as a crash leaves it (the daemon
// killed after its last commit) names its free list in its newest meta page, so the next open
// reads it instead of reading the whole file to rebuild it (test/t-11-league measures it).
func TestCrashKeepsFreeList(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.db")
	db := open(t, path)
	defer db.Close()
	for i := 0; i < 20; i++ {
		if err := db.Update(func(tx *Tx) error {
			_, err := tx.Enqueue(OutMail{MessageID: fmt.Sprint(i), Raw: []byte(strings.Repeat("x", 9000))})
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	raw, err := os.ReadFile(path) // as a SIGKILL leaves it: the daemon never closed it
	if err != nil {
		t.Fatal(err)
	}
	// bbolt's two meta pages (a 16-byte page header, then the meta: magic, version, page size,
	// flags, root bucket (16 bytes), free list page, page count, txid); the newer one counts.
	pageSize := int(binary.LittleEndian.Uint32(raw[16+8:]))
	var freelist, txid uint64
	for _, off := range []int{0, pageSize} {
		m := raw[off+16:]
		if tx := binary.LittleEndian.Uint64(m[48:]); tx >= txid {
			txid, freelist = tx, binary.LittleEndian.Uint64(m[32:])
		}
	}
	if freelist == ^uint64(0) {
		t.Fatalf("the newest meta page (txid %d) names no free list: an open after a crash reads the whole file", txid)
	}
}

// A token's game, its players' records and its log come with the token where the backend
// reads them ahead (PostgreSQL, in one round trip): what the transaction wrote before stays
// as written, and the log read so is the log, every field of it.
func TestTokenRefReadsAhead(t *testing.T) { each(t, testTokenRefReadsAhead) }

func testTokenRefReadsAhead(t *testing.T, db *DB, _ string) {
	at := time.Date(2026, 11, 22, 12, 0, 0, 123456000, time.UTC)
	full := Event{Side: 1, Kind: EventExtend, Text: "extend black 3", At: at, Source: "organizer", Days: 3, Undo: 2}
	if err := db.Update(func(tx *Tx) error {
		g := &Game{Variant: "orthodox", Players: [2]Player{{Address: "a@x", Token: "tokena"}, {Address: "b@x", Token: "tokenb"}}}
		if err := tx.CreateGame(g); err != nil {
			return err
		}
		if err := tx.PutPlayerRecord(&PlayerRecord{Address: "a@x", Language: "de"}); err != nil {
			return err
		}
		_, err := tx.AppendEvent(g.ID, full)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *Tx) error {
		sg, err := tx.Game(1)
		if err != nil {
			return err
		}
		sg.Players[0].Mails = 7
		if err := tx.PutGame(sg); err != nil {
			return err
		}
		if _, err := tx.AppendEvent(1, Event{Text: "move e2e4", At: at}); err != nil {
			return err
		}
		if ref, err := tx.TokenRef("tokena"); err != nil || ref.Game != 1 {
			t.Errorf("token: %+v %v", ref, err)
		}
		if sg, err := tx.Game(1); err != nil || sg.Players[0].Mails != 7 {
			t.Errorf("the game written before the token was read: %v, %d mails", err, sg.Players[0].Mails)
		}
		if ev, err := tx.Events(1); err != nil || len(ev) != 2 || ev[1].Text != "move e2e4" {
			t.Errorf("the log appended to before the token was read: %v %+v", err, ev)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *Tx) error {
		if _, err := tx.TokenRef("tokenb"); err != nil {
			return err
		}
		ev, err := tx.Events(1)
		want := full
		want.Seq = 1
		if err != nil || len(ev) != 2 || ev[0] != want || ev[1].Seq != 2 {
			t.Errorf("the log read with the token: %v\n%+v\nwant first %+v", err, ev, want)
		}
		if rec, err := tx.PlayerRecord("a@x"); err != nil || rec.Language != "de" {
			t.Errorf("a player's record read with the token: %+v %v", rec, err)
		}
		if sg, err := tx.Game(1); err != nil || sg.Players[0].Mails != 7 {
			t.Errorf("the game read with the token: %v %+v", err, sg)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}
