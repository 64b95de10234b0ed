package referee

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/mailer"
	"github.com/refereed/refereed/referee/organizer"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/variant"
)

// BenchmarkLeague holds the paths of issue 23 to flat cost, side by side at 1,000 and 10,000
// games (REFEREED_BENCH_LARGE=1 adds 100,000; REFEREED_BENCH_SIZES=1000,100000 runs those
// sizes only). The league grows as a real one does: a tenth of the games in round robins of
// five (Tournaments().New, what `refereed tournament new` does), the rest made one by one
// (NewGame, what `refereed new` does), every tenth of those with two moves played by mail;
// every player is in about ten games. Each sub-benchmark is one path:
//   - move: a move by mail, alone in its transaction;
//   - move-inbox: a move by mail through the daemon's path (the intake's store step, then
//     ProcessInbox), alone;
//   - move-behind-20-strangers: the same with 20 strangers' mails in the intake's batch (they
//     are recorded as processed there, mailer.Intake.Ignore, and never wait in the inbox);
//   - stranger: a stranger's mail to the bare address;
//   - leave: a LEAVE mail of a player of about ten games, granted (each time to a player who has no
//     leave yet);
//   - deadline-idle: the minute's deadline check with nothing due;
//   - restart: a new Referee on the store, its first deadline check (nothing due);
//   - prune: the hourly prune when nothing expired.
func BenchmarkLeague(b *testing.B) {
	sizes := []int{1000, 10000}
	if os.Getenv("REFEREED_BENCH_LARGE") != "" {
		sizes = append(sizes, 100000)
	}
	if list := os.Getenv("REFEREED_BENCH_SIZES"); list != "" { // "1000,100000": these only
		sizes = nil
		for _, f := range strings.Split(list, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 10 {
				b.Fatalf("REFEREED_BENCH_SIZES=%q: a list of game counts of 10 or more", list)
			}
			sizes = append(sizes, n)
		}
	}
	for _, n := range sizes {
		h := newHarness(b)
		var ids []uint64
		players := n/10 + 1
		for i := 0; i < n; {
			if i%100 < 10 && n-i >= 10 {
				// A tenth of the games: a round robin of five (ten games), as `refereed
				// tournament new` makes it.
				var five []string
				for k := range 5 {
					five = append(five, fmt.Sprintf("p%d@example.com", (i+k)%players))
				}
				tid, err := h.ref.Tournaments().New(organizer.Options{Name: fmt.Sprintf("Section %d", i/10), Variant: "orthodox", Players: five})
				if err != nil {
					b.Fatal(err)
				}
				if err := h.db.View(func(tx *store.Tx) error {
					t, err := tx.Tournament(tid)
					for _, rd := range t.Rounds {
						for _, tg := range rd.Games {
							ids = append(ids, tg.Game)
						}
					}
					return err
				}); err != nil {
					b.Fatal(err)
				}
				i += 10
			} else {
				id, err := h.ref.NewGame("orthodox", fmt.Sprintf("p%d@example.com", i%players), fmt.Sprintf("q%d@example.net", (i+7)%players), variant.Options{})
				if err != nil {
					b.Fatal(err)
				}
				ids = append(ids, id)
				if i%10 == 5 {
					h.deliver(h.reply(id, chess.White, "e4"))
					h.deliver(h.reply(id, chess.Black, "e5"))
				}
				i++
			}
			if i%1000 == 0 {
				h.outbox()
			}
		}
		h.outbox()
		if _, err := h.ref.CheckDeadlines(); err != nil {
			b.Fatal(err)
		}
		runtime.GC() // the building's garbage is not the paths' cost
		// A pool of games for the moves: each takes moves from a long line, in turn.
		line := []string{"Nf3", "Nc6", "Ng1", "Nb8", "Nf3", "Nc6", "Ng1", "Nb8"}
		ply := map[uint64]int{}
		next := 0
		move := func() []byte {
			id := ids[(next*37)%len(ids)]
			next++
			k := ply[id]
			ply[id]++
			return h.reply(id, chess.Color(k%2), line[k%len(line)])
		}
		run := func(name string, f func(b *testing.B)) {
			b.Run(fmt.Sprintf("games=%d/%s", n, name), f)
			h.outbox()
		}
		run("move", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				h.deliver(move())
			}
		})
		behind := func(strangers int) func(b *testing.B) {
			return func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					var mails []store.InboundMail
					for s := 0; s < strangers; s++ {
						h.uid++
						mails = append(mails, store.InboundMail{Key: store.InboxKey{Mailbox: "INBOX", UIDValidity: 7, UID: h.uid}, Raw: mailText(fmt.Sprintf("s%d-%d@spam.example", i, s), "referee@example.org", "hi", "buy", "")})
					}
					h.uid++
					mails = append(mails, store.InboundMail{Key: store.InboxKey{Mailbox: "INBOX", UIDValidity: 7, UID: h.uid}, Raw: move()})
					b.StartTimer()
					// The daemon's path from the intake's batch: each mail asked about
					// (Ignore), the batch stored, then the inbox handled.
					ignored := map[store.InboxKey]string{}
					for _, m := range mails {
						if why := h.ref.Ignorable(m.Raw); why != "" {
							ignored[m.Key] = why
						}
					}
					if err := h.ref.DB.Update(func(tx *store.Tx) error { _, err := mailer.Store(tx, mails, ignored); return err }); err != nil {
						b.Fatal(err)
					}
					if _, err := h.ref.ProcessInbox(); err != nil {
						b.Fatal(err)
					}
				}
			}
		}
		run("move-inbox", behind(0))
		run("move-behind-20-strangers", behind(20))
		run("stranger", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				h.deliver(mailText(fmt.Sprintf("x%d@spam.example", i), "referee@example.org", "hello", "buy now", ""))
			}
		})
		run("leave", func(b *testing.B) {
			// Every LEAVE is granted: the player's leave is taken back after it (timer
			// stopped), so that a small league's players, asked again and again, are not
			// refused (and cheaper) where a large league's are not asked twice.
			leaves := func(addr string, reset bool) int {
				n := 0
				if err := h.db.Update(func(tx *store.Tx) error {
					rec, err := tx.PlayerRecord(addr)
					if err != nil {
						return err
					}
					n = len(rec.Leaves)
					if !reset || n == 0 {
						return nil
					}
					rec.Leaves = nil
					return tx.PutPlayerRecord(rec)
				}); err != nil {
					b.Fatal(err)
				}
				return n
			}
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				id := ids[(i*53)%len(ids)]
				addr := h.player(id, chess.White).Address
				leaves(addr, true)
				from := fixedNow.AddDate(0, 0, 1+i%300).Format("2006-01-02")
				raw := h.reply(id, chess.White, "LEAVE "+from+" "+from)
				b.StartTimer()
				h.deliver(raw)
				b.StopTimer()
				if leaves(addr, false) != 1 {
					b.Fatalf("LEAVE %s of %s was not granted", from, addr)
				}
				b.StartTimer()
			}
		})
		run("deadline-idle", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := h.ref.CheckDeadlines(); err != nil {
					b.Fatal(err)
				}
			}
		})
		run("restart", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				r := &Referee{DB: h.db, Address: "referee@example.org"}
				if _, err := r.CheckDeadlines(); err != nil {
					b.Fatal(err)
				}
			}
		})
		run("prune", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := h.db.Prune(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
