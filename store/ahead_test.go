package store

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/refereed/refereed/store/storetest"
)

// aheadGame stores game 1 (tokens "tokena" and "tokenb") with one event, a processed key and a
// waiting one, and Message-ID m1 seen by White.
func aheadGame(t *testing.T, db *DB) (done, waiting InboxKey) {
	t.Helper()
	done = InboxKey{Mailbox: "INBOX", UIDValidity: 1, UID: 1}
	waiting = InboxKey{Mailbox: "INBOX", UIDValidity: 1, UID: 2}
	if err := db.Update(func(tx *Tx) error {
		g := &Game{Variant: "orthodox", Players: [2]Player{{Address: "a@x", Token: "tokena"}, {Address: "b@x", Token: "tokenb"}}}
		if err := tx.CreateGame(g); err != nil {
			return err
		}
		if _, err := tx.AppendEvent(g.ID, Event{Text: "begin"}); err != nil {
			return err
		}
		if _, err := tx.SeenMessageID(g.ID, 0, "m1@x"); err != nil {
			return err
		}
		for _, k := range []InboxKey{done, waiting} {
			if _, err := tx.PutInbound(InboundMail{Key: k, Raw: []byte("Subject: x\r\n\r\ne4\r\n")}); err != nil {
				return err
			}
		}
		return tx.MarkProcessed(done)
	}); err != nil {
		t.Fatal(err)
	}
	return done, waiting
}

// What a transaction reads ahead it reads as it would without: the answers, and the answers
// after its own writes, are the same (on bbolt, which ignores Ahead, they are the reference).
func TestAheadSameAnswers(t *testing.T) { each(t, testAheadSameAnswers) }

func testAheadSameAnswers(t *testing.T, db *DB, _ string) {
	done, waiting := aheadGame(t, db)
	unknown := InboxKey{Mailbox: "INBOX", UIDValidity: 1, UID: 3}
	ahead := Ahead{Mails: []AheadMail{
		{Key: done, Token: "tokena", MessageID: "m1@x"},
		{Key: waiting, Token: "tokenb", MessageID: "m2@x"},
		{Key: unknown, Token: "nosuch"},
	}, Known: []InboxKey{done, waiting, unknown}, Letters: 4}
	var ids []uint64
	if err := db.UpdateAhead(ahead, func(tx *Tx) error {
		ids = nil
		check := func(what string, got, want any) {
			t.Helper()
			if got != want {
				t.Errorf("%s: %v, want %v", what, got, want)
			}
		}
		p, err := tx.Processed(done)
		check("processed key", p || err != nil, true)
		p, err = tx.Processed(waiting)
		check("waiting key", p || err != nil, false)
		_, known, err := tx.Known(unknown)
		check("unknown key known", known || err != nil, false)
		_, known, err = tx.Known(waiting)
		check("waiting key known", known && err == nil, true)
		ref, err := tx.TokenRef("tokenb")
		check("token's game", ref.Game, uint64(1))
		check("token's side", ref.Side, 1)
		check("token's error", err, nil)
		_, err = tx.TokenRef("nosuch")
		check("unknown token", errors.Is(err, ErrNotFound), true)
		seen, err := tx.SeenMessageID(1, 0, "m1@x")
		check("Message-ID seen", seen && err == nil, true)
		seen, err = tx.SeenMessageID(1, 1, "m2@x")
		check("Message-ID new", seen || err != nil, false)
		seen, err = tx.SeenMessageID(1, 1, "m2@x")
		check("Message-ID seen once recorded", seen && err == nil, true)
		seq, err := tx.AppendEvent(1, Event{Side: 1, Text: "move e7e5"})
		check("next event", seq, uint64(2))
		n, err2 := tx.EventCount(1)
		check("events after the append", n, uint64(2))
		check("errors", errors.Join(err, err2), nil)
		if ev, err := tx.Events(1); err != nil || len(ev) != 2 || ev[1].Text != "move e7e5" || ev[1].Seq != 2 {
			t.Errorf("the log after the append: %v %+v", err, ev)
		}
		if err := tx.MarkProcessed(waiting); err != nil {
			return err
		}
		p, err = tx.Processed(waiting)
		check("key marked processed", p && err == nil, true)
		_, known, err = tx.Known(waiting)
		check("key marked processed known", known && err == nil, true)
		if err := tx.DropToken("tokenb"); err != nil {
			return err
		}
		_, err = tx.TokenRef("tokenb")
		check("dropped token", errors.Is(err, ErrNotFound), true)
		for _, m := range []string{"r1", "r2", "r3", "r4", "r5"} { // one more than were taken
			id, err := tx.Enqueue(OutMail{MessageID: m, To: []string{"a@x"}, Raw: []byte("hi")})
			if err != nil {
				return err
			}
			ids = append(ids, id)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(ids); i++ {
		if ids[i] <= ids[i-1] {
			t.Errorf("outbox ids out of order: %v", ids)
		}
	}
	// What it wrote, as a later transaction reads it.
	if err := db.Update(func(tx *Tx) error {
		if ev, err := tx.Events(1); err != nil || len(ev) != 2 || ev[1].Text != "move e7e5" || ev[1].Side != 1 {
			t.Errorf("the log committed: %v %+v", err, ev)
		}
		if seen, err := tx.SeenMessageID(1, 1, "m2@x"); err != nil || !seen {
			t.Errorf("the Message-ID committed: %v %v", seen, err)
		}
		if p, err := tx.Processed(waiting); err != nil || !p {
			t.Errorf("the key committed processed: %v %v", p, err)
		}
		if out, err := tx.Outbox(); err != nil || len(out) != 5 || out[0].MessageID != "r1" || out[4].MessageID != "r5" {
			t.Errorf("the outbox committed: %v %d mails", err, len(out))
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// A mail's transaction, with what it reads named ahead, is two round trips on PostgreSQL:
// BEGIN with the reads, and the writes with COMMIT.
func TestAheadRoundTrips(t *testing.T) {
	db := open(t, storetest.Postgres(t))
	defer db.Close()
	_, waiting := aheadGame(t, db)
	move := func(text, mid string) int64 {
		before := RoundTrips.Load()
		err := db.UpdateAhead(Ahead{Mails: []AheadMail{{Key: waiting, Token: "tokena", MessageID: mid}}, Letters: 2}, func(tx *Tx) error {
			if p, err := tx.Processed(waiting); err != nil || p {
				return err
			}
			ref, err := tx.TokenRef("tokena")
			if err != nil {
				return err
			}
			g, err := tx.Game(ref.Game)
			if err != nil {
				return err
			}
			if _, err := tx.PlayerRecord(g.Players[0].Address); err != nil {
				return err
			}
			if _, err := tx.Events(g.ID); err != nil {
				return err
			}
			if seen, err := tx.SeenMessageID(g.ID, ref.Side, mid); err != nil || seen {
				return err
			}
			if _, err := tx.AppendEvent(g.ID, Event{Text: text}); err != nil {
				return err
			}
			g.Players[0].Mails++
			if err := tx.PutGame(g); err != nil {
				return err
			}
			for _, to := range []string{"a@x", "b@x"} {
				if _, err := tx.Enqueue(OutMail{MessageID: mid + to, Game: g.ID, To: []string{to}, Raw: []byte("board")}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return RoundTrips.Load() - before
	}
	move("move e2e4", "m3@x") // the connection prepares its statements
	if n := move("move d2d4", "m4@x"); n != 2 {
		t.Errorf("a move's transaction took %d round trips, want 2", n)
	}
	db.View(func(tx *Tx) error {
		if ev, err := tx.Events(1); err != nil || len(ev) != 3 || ev[2].Text != "move d2d4" {
			t.Errorf("the moves' log: %v %+v", err, ev)
		}
		return nil
	})
}

// Two transactions that read ahead that a Message-ID was not seen, and both record it: the
// second to commit fails, or runs again and finds it seen; the mail is never applied twice.
func TestAheadSeenRace(t *testing.T) {
	db := open(t, storetest.Postgres(t))
	defer db.Close()
	aheadGame(t, db)
	ahead := Ahead{Mails: []AheadMail{{Token: "tokena", MessageID: "race@x"}}}
	read, other := make(chan struct{}), make(chan error)
	applied := 0
	runs := 0
	go func() {
		<-read // the first has read ahead; this one commits first
		other <- db.UpdateAhead(ahead, func(tx *Tx) error {
			seen, err := tx.SeenMessageID(1, 0, "race@x")
			if err == nil && !seen {
				_, err = tx.AppendEvent(1, Event{Text: "applied"})
			}
			return err
		})
	}()
	err := db.UpdateAhead(ahead, func(tx *Tx) error {
		runs++
		if runs == 1 {
			close(read)
			if err := <-other; err != nil {
				t.Errorf("the other transaction: %v", err)
			}
		}
		seen, err := tx.SeenMessageID(1, 0, "race@x")
		if err == nil && !seen {
			applied = runs
			_, err = tx.AppendEvent(1, Event{Text: "applied"})
		}
		return err
	})
	t.Logf("the first transaction ran %d times: %v", runs, err)
	if err == nil && applied == runs {
		t.Errorf("the Message-ID was applied by both transactions (run %d)", runs)
	}
	db.View(func(tx *Tx) error {
		ev, _ := tx.Events(1)
		if n := len(ev); n != 2 {
			t.Errorf("%d events, want the first and one applied: %+v", n, ev)
		}
		return nil
	})
}

// A mail recorded as sent without its raw copy keeps the outbox's (the sender does not send
// it to the database again).
func TestDoneMovesOutboxRaw(t *testing.T) { each(t, testDoneMovesOutboxRaw) }

func testDoneMovesOutboxRaw(t *testing.T, db *DB, _ string) {
	raw := []byte("Subject: your move\r\n\r\nboard\r\n")
	var id uint64
	if err := db.Update(func(tx *Tx) (err error) {
		id, err = tx.Enqueue(OutMail{MessageID: "m@x", To: []string{"a@x"}, Raw: raw})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *Tx) error {
		out, err := tx.Outbox()
		if err != nil || len(out) != 1 {
			return fmt.Errorf("outbox: %d mails, %v", len(out), err)
		}
		m := out[0]
		m.Raw, m.Sent = nil, tx.Now
		return tx.Done(m)
	}); err != nil {
		t.Fatal(err)
	}
	db.View(func(tx *Tx) error {
		sent, err := tx.SentMails()
		if err != nil || len(sent) != 1 || sent[0].ID != id || string(sent[0].Raw) != string(raw) {
			t.Errorf("sent: %v %+v, want the outbox's raw copy", err, sent)
		}
		if n, err := tx.OutboxCount(); err != nil || n != 0 {
			t.Errorf("outbox after Done: %d %v", n, err)
		}
		return nil
	})
}

// The raw mails and the games' records are compressed with lz4 (schema 10).
func TestRawCompressedWithLZ4(t *testing.T) {
	db := open(t, storetest.Postgres(t))
	defer db.Close()
	for _, col := range []string{"outbox.raw", "sent.raw", "inbox.raw", "games.doc"} {
		tb, name, _ := strings.Cut(col, ".")
		var method string
		err := db.pg.pool.QueryRow(db.pg.ctx, `SELECT attcompression::TEXT FROM pg_attribute WHERE attrelid = $1::regclass AND attname = $2`, tb, name).Scan(&method)
		if err != nil || method != "l" {
			t.Errorf("%s: compression %q (%v), want lz4 (l)", col, method, err)
		}
	}
}
