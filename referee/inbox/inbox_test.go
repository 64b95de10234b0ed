package inbox

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/refereed/refereed/store"
)

func newStore(t *testing.T, n int) (*store.DB, []store.InboxKey) {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "i.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	var keys []store.InboxKey
	err = db.Update(func(tx *store.Tx) error {
		for i := range n {
			k := store.InboxKey{Mailbox: "INBOX", UIDValidity: 1, UID: uint32(i + 1)}
			if _, err := tx.PutInbound(store.InboundMail{Key: k, Raw: []byte("mail"), Fetched: tx.Now}); err != nil {
				return err
			}
			keys = append(keys, k)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return db, keys
}

// Fresh mail is handled in one transaction; each mail once; the inbox is empty after.
func TestProcessBatch(t *testing.T) {
	db, keys := newStore(t, 5)
	calls, prepared := 0, 0
	r := &Runner{DB: db,
		Handle:  func(tx *store.Tx, m store.InboundMail) error { calls++; return tx.MarkProcessed(m.Key) },
		Prepare: func(ms ...store.InboundMail) func() { prepared += len(ms); return func() {} }}
	n, err := r.Process()
	if err != nil || n != len(keys) || calls != len(keys) || prepared != len(keys) {
		t.Fatalf("handled %d (%v), %d calls, %d prepared", n, err, calls, prepared)
	}
	if n, err := r.Process(); n != 0 || err != nil {
		t.Errorf("again: %d %v", n, err)
	}
}

// A mail that keeps failing (an error or a panic) is tried alone, counted, and quarantined
// after MaxAttempts, its sender told once; the rest of the inbox is handled.
func TestProcessQuarantine(t *testing.T) {
	for _, panics := range []bool{false, true} {
		db, keys := newStore(t, 3)
		bad := keys[1]
		kept := 0
		r := &Runner{DB: db, MaxAttempts: 2,
			Handle: func(tx *store.Tx, m store.InboundMail) error {
				if m.Key == bad {
					if panics {
						panic("a bug")
					}
					return errors.New("a fault")
				}
				return tx.MarkProcessed(m.Key)
			},
			Kept: func(tx *store.Tx, m *store.InboundMail) error { kept++; return nil }}
		if n, err := r.Process(); err != nil || n != 2 {
			t.Fatalf("panics %v: first run handled %d: %v", panics, n, err)
		}
		for range 3 {
			if _, err := r.Process(); err != nil {
				t.Fatal(err)
			}
		}
		if kept != 1 {
			t.Errorf("panics %v: the sender was told %d times", panics, kept)
		}
		db.View(func(tx *store.Tx) error {
			m, err := tx.Inbound(bad)
			if err != nil || m.Quarantined.IsZero() || m.Attempts != 2 || m.Error == "" {
				t.Errorf("panics %v: the failing mail: %+v %v", panics, m, err)
			}
			return nil
		})
	}
}
