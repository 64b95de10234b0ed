package store

import (
	"errors"
	"testing"
	"time"

	"github.com/refereed/refereed/store/storetest"
)

// Two instances on one database: one leads; when its lease runs out (it was paused) the other
// takes over, and from that moment nothing the first writes commits, though it does not know
// yet that it lost; its renewal says so.
func TestLeaseFencing(t *testing.T) {
	loc := storetest.Postgres(t)
	a, b := open(t, loc), open(t, loc)
	defer a.Close()
	defer b.Close()
	la, lb := a.NewLease("a", 2*time.Second), b.NewLease("b", 2*time.Second)
	if ok, err := la.Acquire(); !ok || err != nil {
		t.Fatalf("a acquires a free lease: %v %v", ok, err)
	}
	if ok, err := lb.Acquire(); ok || err != nil {
		t.Fatalf("b acquires a live lease: %v %v", ok, err)
	}
	count := func(db *DB) (n uint64) {
		db.Update(func(tx *Tx) (err error) { n, err = tx.Next("writes"); return err })
		return n
	}
	if err := a.Update(func(tx *Tx) error { _, err := tx.Next("a"); return err }); err != nil {
		t.Fatalf("the leader writes: %v", err)
	}
	if err := la.Renew(); err != nil {
		t.Fatalf("the leader renews: %v", err)
	}
	// a is paused past its lease: b takes over.
	time.Sleep(2100 * time.Millisecond)
	if ok, err := lb.Acquire(); !ok || err != nil || lb.Epoch() != 2 {
		t.Fatalf("b takes over a lease run out: %v %v epoch %d", ok, err, lb.Epoch())
	}
	before := count(b)
	err := a.Update(func(tx *Tx) error { _, err := tx.Next("writes"); return err })
	if !errors.Is(err, ErrFenced) {
		t.Fatalf("the old leader's write: %v, want ErrFenced", err)
	}
	if after := count(b); after != before+1 {
		t.Fatalf("the fenced write counted: %d then %d", before, after)
	}
	if err := la.Renew(); !errors.Is(err, ErrLeaseLost) {
		t.Fatalf("the old leader renews: %v, want ErrLeaseLost", err)
	}
	if ok, _ := la.Acquire(); ok {
		t.Fatal("the old leader takes back a live lease")
	}
	la.Stand() // it stopped leading: an operator's command through it writes again
	if err := a.Update(func(tx *Tx) error { _, err := tx.Next("x"); return err }); err != nil {
		t.Fatalf("a write after Stand: %v", err)
	}
	// A clean shutdown hands over at once.
	if err := lb.Release(); err != nil {
		t.Fatal(err)
	}
	if ok, err := la.Acquire(); !ok || err != nil || la.Epoch() != 3 {
		t.Fatalf("a acquires a released lease: %v %v epoch %d", ok, err, la.Epoch())
	}
	if holder, epoch, live, err := a.Leader(); holder != "a" || epoch != 3 || !live || err != nil {
		t.Fatalf("Leader() = %q %d %v %v", holder, epoch, live, err)
	}
}

// The fence holds under a race: the leader writes as fast as it can while another takes over;
// no write of the old leader commits after the new one's acquisition.
func TestLeaseFenceRace(t *testing.T) {
	loc := storetest.Postgres(t)
	a, b := open(t, loc), open(t, loc)
	defer a.Close()
	defer b.Close()
	la, lb := a.NewLease("a", time.Second), b.NewLease("b", time.Second)
	if ok, _ := la.Acquire(); !ok {
		t.Fatal("a does not lead")
	}
	stop := make(chan struct{})
	done := make(chan int)
	go func() {
		fenced := 0
		for {
			select {
			case <-stop:
				done <- fenced
				return
			default:
			}
			err := a.Update(func(tx *Tx) error { _, err := tx.Next("race"); return err })
			if errors.Is(err, ErrFenced) {
				fenced++
			} else if err != nil {
				t.Error(err)
			}
		}
	}()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ok, err := lb.Acquire()
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("b never took over")
		}
		time.Sleep(50 * time.Millisecond)
	}
	var at uint64
	if err := b.View(func(tx *Tx) (err error) { at, err = tx.ops.(*pgTx).counter("count/race"); return err }); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	close(stop)
	if fenced := <-done; fenced == 0 {
		t.Fatal("no write of the old leader was fenced")
	}
	var end uint64
	if err := b.View(func(tx *Tx) (err error) { end, err = tx.ops.(*pgTx).counter("count/race"); return err }); err != nil {
		t.Fatal(err)
	}
	if end != at {
		t.Fatalf("the old leader wrote after the takeover: %d then %d", at, end)
	}
}

// A database a DBA set read-only is respected: the leader's renewal says so (its pool's
// connections, opened before, would still write), a new connection's write is refused, nobody
// takes the lease; once writable again the leader leads and writes, and so do the clients whose
// connections were opened during the freeze.
func TestReadOnlyDatabase(t *testing.T) {
	loc, name := storetest.Database(t)
	a := open(t, loc)
	defer a.Close()
	la := a.NewLease("a", 10*time.Second)
	if ok, err := la.Acquire(); !ok || err != nil {
		t.Fatalf("a acquires a free lease: %v %v", ok, err)
	}
	write := func(db *DB) error { return db.Update(func(tx *Tx) error { _, err := tx.Next("w"); return err }) }
	if err := write(a); err != nil {
		t.Fatal(err)
	}
	storetest.Exec(t, "ALTER DATABASE "+name+" SET default_transaction_read_only = on")
	if err := la.Renew(); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("renewing in a read-only database: %v, want ErrReadOnly", err)
	}
	b := open(t, loc) // new connections
	defer b.Close()
	if err := write(b); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("a write on a new connection to a read-only database: %v, want ErrReadOnly", err)
	}
	if err := b.View(func(tx *Tx) error { _, err := tx.GameCount(); return err }); err != nil {
		t.Fatalf("a read of a read-only database: %v", err)
	}
	if ok, err := b.NewLease("b", time.Second).Acquire(); ok || !errors.Is(err, ErrReadOnly) {
		t.Fatalf("acquiring in a read-only database: %v %v", ok, err)
	}
	storetest.Exec(t, "ALTER DATABASE "+name+" RESET default_transaction_read_only")
	if ok, err := la.Acquire(); !ok || err != nil {
		t.Fatalf("the leader leads again once writable: %v %v", ok, err)
	}
	if err := write(a); err != nil {
		t.Fatalf("the leader writes again: %v", err)
	}
	b.NewLease("b", time.Second).Stand()
	if err := write(b); err != nil {
		t.Fatalf("a write through connections opened during the freeze: %v", err)
	}
}
