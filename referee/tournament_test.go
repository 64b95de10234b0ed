package referee

import (
	"strconv"
	"testing"

	"github.com/refereed/refereed/archive"
	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/parser"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/tournament"
)

var quartet = []string{"alice@example.com", "bruno@example.net", "chen@example.org", "dora@example.com"}

func (h *harness) tournament(id uint64) *store.Tournament {
	h.t.Helper()
	var t *store.Tournament
	if err := h.db.View(func(tx *store.Tx) (err error) { t, err = tx.Tournament(id); return err }); err != nil {
		h.t.Fatal(err)
	}
	return t
}

// mailsTo returns the subject and text part of every mail to addr in mails.
func mailsTo(t *testing.T, mails []store.OutMail, addr string) []string {
	t.Helper()
	var out []string
	for _, m := range mails {
		if m.To[0] == addr {
			p, err := parser.Parse(m.Raw)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, "Subject: "+p.Subject+"\n"+p.Body+"\n"+string(m.Raw))
		}
	}
	return out
}

// A game ended by a withdrawal before withdrawals were logged in the game (its log does not
// say it ended; the store does) takes no more moves either.
func TestOverInStoreOnly(t *testing.T) {
	h := newHarness(t)
	id := h.newGame("orthodox")
	h.outbox()
	if err := h.db.Update(func(tx *store.Tx) error {
		sg, err := tx.Game(id)
		if err != nil {
			return err
		}
		sg.Status, sg.Result, sg.Reason = store.Over, "0-1", archive.WithdrawnReason
		return tx.PutGame(sg)
	}); err != nil {
		t.Fatal(err)
	}
	h.deliver(h.reply(id, chess.White, "e4"))
	m := h.outbox()
	if len(m) != 1 {
		t.Fatalf("%d mails", len(m))
	}
	mustSay(t, "a move in a game over", bodyTo(t, m, ann), "Line 1 (e4) was refused: the game is over (0-1).")
	h.db.View(func(tx *store.Tx) error {
		if n, err := tx.EventCount(id); n != 0 || err != nil {
			t.Errorf("%d events logged in a game over (%v)", n, err)
		}
		return nil
	})
}

const td = "td@example.org"

// mailsTo2 keeps the mails of one game.
func mailsTo2(mails []store.OutMail, game uint64) []store.OutMail {
	var out []store.OutMail
	for _, m := range mails {
		if m.Game == game {
			out = append(out, m)
		}
	}
	return out
}

func itoa(n uint64) string { return strconv.FormatUint(n, 10) }

func (h *harness) section(tr *store.Tournament) (s tournament.Section, err error) {
	err = h.db.View(func(tx *store.Tx) error { s, err = archive.Section(tx, tr); return err })
	return s, err
}
