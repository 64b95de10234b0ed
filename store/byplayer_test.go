package store

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Issue 23: a player's games are read by index: CreateGame indexes both players, PutGame
// moves the entry when a player is replaced, the lookup ignores case, GamesOfLocal finds an
// address by its local part, and a schema-1 store is indexed when it is opened.
func TestGamesOf(t *testing.T) { each(t, testGamesOf) }

func testGamesOf(t *testing.T, db *DB, path string) {
	var err error
	ids := map[string]uint64{}
	db.Update(func(tx *Tx) error {
		for i, pair := range [][2]string{{"ann@x.org", "bob@y.org"}, {"cy@z.org", "Ann@x.org"}, {"bob@y.org", "dee@w.org"}} {
			g := &Game{Variant: "orthodox", Players: [2]Player{{Address: pair[0], Token: "t" + pair[0]}, {Address: pair[1], Token: "u" + pair[1] + string(rune('a'+i))}}}
			if err := tx.CreateGame(g); err != nil {
				t.Fatal(err)
			}
			ids[pair[0]+pair[1]] = g.ID
		}
		return nil
	})
	count := func(addr string) int {
		var n int
		db.View(func(tx *Tx) error { gs, err := tx.GamesOf(addr); n = len(gs); return err })
		return n
	}
	if count("ann@x.org") != 2 || count("ANN@X.ORG") != 2 || count("bob@y.org") != 2 || count("nobody@x.org") != 0 {
		t.Fatalf("games of ann %d, bob %d", count("ann@x.org"), count("bob@y.org"))
	}
	db.Update(func(tx *Tx) error { // bob's address is corrected to eve's in game 3
		g, _ := tx.Game(ids["bob@y.orgdee@w.org"])
		g.Players[0].Address = "eve@v.org"
		return tx.PutGame(g)
	})
	if count("bob@y.org") != 1 || count("eve@v.org") != 1 {
		t.Fatalf("after the correction: bob %d, eve %d", count("bob@y.org"), count("eve@v.org"))
	}
	// Issue 33: a REPLACE keeps the game under the player replaced (Game.Former).
	db.Update(func(tx *Tx) error {
		g, _ := tx.Game(ids["cy@z.orgAnn@x.org"])
		g.Former = append(g.Former, Former{Side: 0, Address: "cy@z.org", Commands: 4, Move: 3})
		g.Players[0].Address = "fay@v.org"
		return tx.PutGame(g)
	})
	if count("cy@z.org") != 1 || count("fay@v.org") != 1 {
		t.Fatalf("after a REPLACE: cy %d, fay %d", count("cy@z.org"), count("fay@v.org"))
	}
	var cy int
	db.View(func(tx *Tx) error { gs, err := tx.GamesOfLocal("cy"); cy = len(gs); return err })
	if cy != 1 {
		t.Fatalf("games of local part cy after a REPLACE: %d", cy)
	}
	var local int
	db.View(func(tx *Tx) error { gs, err := tx.GamesOfLocal("ann"); local = len(gs); return err })
	if local != 2 {
		t.Fatalf("games of local part ann: %d", local)
	}
	if db.bolt == nil {
		return
	}
	// A schema-1 store: no index, then indexed when opened.
	db.bolt.Update(func(tx *bolt.Tx) error {
		tx.DeleteBucket(bByPlayer)
		tx.CreateBucket(bByPlayer)
		return tx.Bucket(bMeta).Put(keySchema, u64(1))
	})
	db.Close()
	if db, err = Open(path, Options{NoSync: true}); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if count("ann@x.org") != 2 || count("eve@v.org") != 1 || count("cy@z.org") != 1 {
		t.Fatalf("after the migration: ann %d, eve %d", count("ann@x.org"), count("eve@v.org"))
	}
}

// Issue 23: the games due: a new game and a logged event mark a game due now, SetDue moves
// it or drops it, DueGames lists the overdue first, and a schema-2 store gets every game
// still going marked when it is opened.
func TestDueGames(t *testing.T) { each(t, testDueGames) }

func testDueGames(t *testing.T, db *DB, path string) {
	var err error
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	db.Now = func() time.Time { return now }
	var a, b, c uint64
	db.Update(func(tx *Tx) error {
		for i, id := range []*uint64{&a, &b, &c} {
			g := &Game{Variant: "orthodox", Players: [2]Player{{Address: "w@x", Token: fmt.Sprint("tw", i)}, {Address: "b@x", Token: fmt.Sprint("tb", i)}}}
			if err := tx.CreateGame(g); err != nil {
				t.Fatal(err)
			}
			*id = g.ID
		}
		return nil
	})
	due := func(at time.Time) []uint64 {
		var ids []uint64
		db.View(func(tx *Tx) (err error) { ids, err = tx.DueGames(at, 10); return err })
		return ids
	}
	if got := due(now); len(got) != 3 {
		t.Fatalf("new games due: %v", got)
	}
	db.Update(func(tx *Tx) error {
		tx.SetDue(a, now.Add(2*time.Hour))
		tx.SetDue(b, now.Add(time.Hour))
		return tx.SetDue(c, time.Time{})
	})
	if got := due(now); len(got) != 0 {
		t.Fatalf("due now after SetDue: %v", got)
	}
	if got := due(now.Add(3 * time.Hour)); len(got) != 2 || got[0] != b || got[1] != a {
		t.Fatalf("due in 3 hours: %v, want [%d %d]", got, b, a)
	}
	db.Update(func(tx *Tx) error { _, err := tx.AppendEvent(c, Event{Text: "move e2e4"}); return err })
	if got := due(now); len(got) != 1 || got[0] != c {
		t.Fatalf("due after an event: %v", got)
	}
	if db.bolt == nil {
		return
	}
	// A schema-2 store: every game going is marked when it is opened.
	db.bolt.Update(func(tx *bolt.Tx) error {
		tx.DeleteBucket(bDue)
		tx.DeleteBucket(bDueOf)
		tx.CreateBucket(bDue)
		tx.CreateBucket(bDueOf)
		return tx.Bucket(bMeta).Put(keySchema, u64(2))
	})
	db.Close()
	if db, err = Open(path, Options{NoSync: true}); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if got := due(now); len(got) != 3 {
		t.Fatalf("after the migration: %v", got)
	}
}

// Issue 23: the games by status and variant, newest first, a page at a time, from the index
// (the ranges of each status and variant merged), with their count; a game that ends moves in
// it.
func TestGameIDPage(t *testing.T) { each(t, testGameIDPage) }

func testGameIDPage(t *testing.T, db *DB, _ string) {
	variants := []string{"orthodox", "kriegspiel", "orthodox", "kriegspiel", "progressive", "orthodox", "kriegspiel"}
	db.Update(func(tx *Tx) error {
		for i, v := range variants {
			g := &Game{Variant: v, Players: [2]Player{{Address: "w@x", Token: fmt.Sprint("tw", i)}, {Address: "b@x", Token: fmt.Sprint("tb", i)}}}
			if err := tx.CreateGame(g); err != nil {
				t.Fatal(err)
			}
		}
		for _, id := range []uint64{3, 7} {
			g, _ := tx.Game(id)
			g.Status = Over
			if err := tx.PutGame(g); err != nil {
				return err
			}
		}
		return nil
	})
	page := func(st Status, v string, skip, limit int) string {
		var got []uint64
		var n int
		db.View(func(tx *Tx) (err error) { got, n, err = tx.GameIDPage(st, v, skip, limit); return err })
		return fmt.Sprint(got, " of ", n)
	}
	for _, c := range []struct {
		st          Status
		v           string
		skip, limit int
		want        string
	}{
		{"", "", 0, 10, "[7 6 5 4 3 2 1] of 7"},
		{"", "", 2, 3, "[5 4 3] of 7"},
		{Active, "", 0, 10, "[6 5 4 2 1] of 5"},
		{Active, "", 1, 2, "[5 4] of 5"},
		{Over, "", 0, 10, "[7 3] of 2"},
		{"", "orthodox", 0, 10, "[6 3 1] of 3"},
		{"", "kriegspiel", 1, 1, "[4] of 3"},
		{Active, "kriegspiel", 0, 10, "[4 2] of 2"},
		{Over, "progressive", 0, 10, "[] of 0"},
		{"", "orthodox", 5, 10, "[] of 3"},
	} {
		if got := page(c.st, c.v, c.skip, c.limit); got != c.want {
			t.Errorf("GameIDPage(%q, %q, %d, %d) = %s, want %s", c.st, c.v, c.skip, c.limit, got, c.want)
		}
	}
}

// Issue 23: a sent mail's raw copy is kept as bytes apart from its record, and a schema-4
// store's copies (base64 in the records' JSON) are moved there when it is opened.
func TestSentRawApart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	db, err := Open(path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	db.Update(func(tx *Tx) error {
		id, _ := tx.Enqueue(OutMail{MessageID: "a", Raw: []byte("raw a")})
		return tx.Done(OutMail{ID: id, MessageID: "a", Raw: []byte("raw a")})
	})
	db.bolt.Update(func(tx *bolt.Tx) error { // as schema 4 kept one: the raw in the record
		if v := tx.Bucket(bSent).Get(u64(1)); strings.Contains(string(v), "cmF3IGE") || !strings.Contains(string(tx.Bucket(bSentRaw).Get(u64(1))), "raw a") {
			t.Errorf("the record %s holds the raw copy, or the copy is not apart", v)
		}
		putJSON(tx.Bucket(bSent), u64(2), OutMail{ID: 2, MessageID: "b", Raw: []byte("raw b")})
		return tx.Bucket(bMeta).Put(keySchema, u64(4))
	})
	db.Close()
	if db, err = Open(path, Options{NoSync: true}); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.View(func(tx *Tx) error {
		sent, err := tx.SentMails()
		if err != nil || len(sent) != 2 || string(sent[0].Raw) != "raw a" || string(sent[1].Raw) != "raw b" {
			t.Errorf("sent after the migration: %v %v", sent, err)
		}
		if v := tx.ops.(*boltTx).tx.Bucket(bSent).Get(u64(2)); strings.Contains(string(v), "cmF3IGI") {
			t.Errorf("the migrated record still holds its raw copy: %s", v)
		}
		return nil
	})
}

// Issue 38: a queued mail's raw bytes are kept apart from its record (not base64 in JSON): a
// retry rewrites the record alone, and a record queued before, its raw in its JSON, is still
// read, retried and sent with it, without a migration.
func TestOutboxRawApart(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "s.db"), Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	mail := []byte("Subject: a move\r\n\r\ne4\r\n")
	db.Update(func(tx *Tx) error {
		if _, err := tx.Enqueue(OutMail{MessageID: "new", Raw: mail}); err != nil {
			t.Fatal(err)
		}
		return nil
	})
	db.bolt.Update(func(tx *bolt.Tx) error {
		if v := tx.Bucket(bOutbox).Get(u64(1)); strings.Contains(string(v), "raw\":\"") {
			t.Errorf("the record holds the mail: %s", v)
		}
		if v := tx.Bucket(bOutboxRaw).Get(u64(1)); string(v) != string(mail) {
			t.Errorf("the mail kept apart is %q", v)
		}
		// As a record was queued before: the raw in its JSON, nothing apart.
		tx.Bucket(bOutbox).SetSequence(2)
		return putJSON(tx.Bucket(bOutbox), u64(2), OutMail{ID: 2, MessageID: "old", Raw: []byte("old mail")})
	})
	db.Update(func(tx *Tx) error {
		out, err := tx.Outbox()
		if err != nil || len(out) != 2 || string(out[0].Raw) != string(mail) || string(out[1].Raw) != "old mail" {
			t.Fatalf("outbox %+v %v", out, err)
		}
		for _, m := range out { // a failed attempt rewrites each record
			m.Attempts, m.LastError = 1, "421 try later"
			if err := tx.PutOutbox(m); err != nil {
				t.Fatal(err)
			}
		}
		return nil
	})
	db.View(func(tx *Tx) error {
		bt := tx.ops.(*boltTx).tx
		if v := bt.Bucket(bOutbox).Get(u64(1)); strings.Contains(string(v), "raw\":\"") {
			t.Errorf("a retry put the mail into the record: %s", v)
		}
		if v := bt.Bucket(bOutbox).Get(u64(2)); !strings.Contains(string(v), "raw\":\"") {
			t.Errorf("a retry lost the old record's mail: %s", v)
		}
		return nil
	})
	db.Update(func(tx *Tx) error {
		out, _ := tx.Outbox()
		if len(out) != 2 || out[0].Attempts != 1 || string(out[0].Raw) != string(mail) || string(out[1].Raw) != "old mail" {
			t.Fatalf("outbox after the retries %+v", out)
		}
		for _, m := range out {
			if err := tx.Done(m); err != nil {
				t.Fatal(err)
			}
		}
		return nil
	})
	db.View(func(tx *Tx) error {
		if n, _ := tx.OutboxCount(); n != 0 {
			t.Errorf("%d mails left in the outbox", n)
		}
		if k, _ := tx.ops.(*boltTx).tx.Bucket(bOutboxRaw).Cursor().First(); k != nil {
			t.Errorf("a raw mail is left apart after its delivery: key %x", k)
		}
		sent, err := tx.SentMails()
		if err != nil || len(sent) != 2 || string(sent[0].Raw) != string(mail) || string(sent[1].Raw) != "old mail" {
			t.Errorf("sent %+v %v", sent, err)
		}
		return nil
	})
}

// Issue 23: raw mail waiting in the inbox is kept apart from its record: counting an attempt
// rewrites the record, not the mail; a schema-5 store's inbox is moved when it is opened.
func TestInboxRawApart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	db, err := Open(path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	k := InboxKey{Mailbox: "INBOX", UIDValidity: 1, UID: 5}
	db.Update(func(tx *Tx) error {
		_, err := tx.PutInbound(InboundMail{Key: k, Raw: []byte("Subject: hi\r\n\r\nbody")})
		return err
	})
	db.Update(func(tx *Tx) error {
		m, _ := tx.Inbound(k)
		m.Attempts++
		if err := tx.UpdateInbound(*m); err != nil {
			return err
		}
		if v := tx.ops.(*boltTx).tx.Bucket(bInbox).Get(k.bytes()); strings.Contains(string(v), "U3ViamVjd") {
			t.Errorf("the record holds the mail: %s", v)
		}
		return nil
	})
	db.bolt.Update(func(tx *bolt.Tx) error { // as schema 5 kept one: the mail in the record
		k2 := InboxKey{Mailbox: "INBOX", UIDValidity: 1, UID: 6}
		putJSON(tx.Bucket(bInbox), k2.bytes(), InboundMail{Key: k2, Raw: []byte("old mail")})
		return tx.Bucket(bMeta).Put(keySchema, u64(5))
	})
	db.Close()
	if db, err = Open(path, Options{NoSync: true}); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.View(func(tx *Tx) error {
		page, err := tx.InboundPage(nil, 10, 1<<20)
		if err != nil || len(page) != 2 || page[0].Attempts != 1 || string(page[0].Raw) != "Subject: hi\r\n\r\nbody" || string(page[1].Raw) != "old mail" {
			t.Errorf("the inbox after the migration: %+v %v", page, err)
		}
		return nil
	})
	db.Update(func(tx *Tx) error {
		if err := tx.MarkProcessed(k); err != nil {
			return err
		}
		if tx.ops.(*boltTx).tx.Bucket(bInboxRaw).Get(k.bytes()) != nil {
			t.Errorf("the raw mail outlives its processing")
		}
		return nil
	})
}

// The newest games, a page at a time: each page by a range of ids, the deep ones too, and
// nothing past the oldest.
func TestLatestGameIDs(t *testing.T) { each(t, testLatestGameIDs) }

func testLatestGameIDs(t *testing.T, db *DB, _ string) {
	db.Update(func(tx *Tx) error {
		for i := 0; i < 25; i++ {
			g := &Game{Variant: "orthodox", Players: [2]Player{{Address: "w@x", Token: fmt.Sprint("lw", i)}, {Address: "b@x", Token: fmt.Sprint("lb", i)}}}
			if err := tx.CreateGame(g); err != nil {
				t.Fatal(err)
			}
		}
		return nil
	})
	db.View(func(tx *Tx) error {
		for _, c := range []struct {
			skip, limit int
			want        []uint64
		}{
			{0, 3, []uint64{25, 24, 23}},
			{10, 3, []uint64{15, 14, 13}},
			{22, 10, []uint64{3, 2, 1}},
			{24, 10, []uint64{1}},
			{25, 10, nil},
			{90, 10, nil},
		} {
			if got, err := tx.LatestGameIDs(c.skip, c.limit); err != nil || !slices.Equal(got, c.want) {
				t.Errorf("LatestGameIDs(%d, %d) = %v (%v), want %v", c.skip, c.limit, got, err, c.want)
			}
		}
		return nil
	})
}
