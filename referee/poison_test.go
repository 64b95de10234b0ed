package referee

import (
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/refereed/refereed/store"
)

// A mail that kills the daemon while it is handled (here the goroutine dies mid-transaction,
// as the process would) never starts a crash loop: its attempt is recorded before it is
// handled, so after MaxAttempts it is quarantined and the rest of the inbox goes on. A mail
// that panics is caught and counted the same way.
func TestPoisonMailQuarantined(t *testing.T) {
	for _, kill := range []string{"crash", "panic"} {
		t.Run(kill, func(t *testing.T) {
			h := newHarness(t)
			id := h.newGame("orthodox")
			h.outbox()
			good1, poison, good2 := h.reply(id, W, "e4"), h.reply(id, W, "POISON"), h.reply(id, B, "e5")
			h.db.Update(func(tx *store.Tx) error {
				for i, raw := range [][]byte{good1, poison, good2} {
					tx.PutInbound(store.InboundMail{Key: store.InboxKey{Mailbox: "INBOX", UIDValidity: 1, UID: uint32(i + 1)}, Raw: raw})
				}
				return nil
			})
			var current []byte
			h.ref.Fault = func(step string) error {
				if step == "submit" && strings.Contains(string(current), "POISON") {
					if kill == "panic" {
						panic("a bug the mail trips")
					}
					runtime.Goexit() // the process dies here: nothing after is run
				}
				return nil
			}
			// The daemon comes back up and looks at its inbox again, and again.
			for round := 0; round < 6; round++ {
				var wg sync.WaitGroup
				wg.Add(1)
				go func() {
					defer wg.Done()
					h.ref.onHandle = func(m store.InboundMail) { current = m.Raw }
					h.ref.ProcessInbox()
				}()
				wg.Wait()
			}
			var all []store.InboundMail
			h.db.View(func(tx *store.Tx) error {
				return tx.InboxAll(func(m store.InboundMail) error { all = append(all, m); return nil })
			})
			if len(all) != 1 || all[0].Key.UID != 2 || all[0].Quarantined.IsZero() || all[0].Attempts != 3 {
				t.Fatalf("inbox after six restarts: %+v", all)
			}
			if kill == "panic" && !strings.Contains(all[0].Error, "a bug the mail trips") {
				t.Errorf("the panic is not kept for the operator: %q", all[0].Error)
			}
			if out := h.outcome(id); out.Over() {
				t.Errorf("game over: %+v", out)
			}
			var n int
			h.db.View(func(tx *store.Tx) error { ev, _ := tx.Events(id); n = len(ev); return nil })
			if n != 2 {
				t.Errorf("%d moves applied, want e4 and e5", n)
			}
			kept := 0
			for _, m := range h.outbox() {
				if strings.Contains(string(m.Raw), "your mail was kept") {
					kept++
				}
			}
			if kept != 1 {
				t.Errorf("the sender of the quarantined mail was told %d times that it was kept, want once", kept)
			}
		})
	}
}
