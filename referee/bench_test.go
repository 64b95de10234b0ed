package referee

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"syscall"
	"testing"
	"time"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/gcpolicy"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/variant"
)

// BenchmarkMoveMail is the referee's work for one move by mail, end to end in process: parse,
// find the game, play the move, log it, write both players' mails, all in its transaction (a
// real bbolt file without fsync). Each op is one mail; games of a short opening are played
// over and over. It runs with the daemon's garbage-collector policy (gcpolicy), and reports
// the process's user CPU per mail (user-ms/op): the collector works on the other core, out of
// ns/op's sight. The outbox is emptied between games (the mails recorded as delivered,
// compressed for keeping) and counted in user-ms/op, not in ns/op.
func BenchmarkMoveMail(b *testing.B) {
	defer debug.SetGCPercent(debug.SetGCPercent(gcpolicy.Percent))
	h := newHarness(b)
	line := []string{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7"}
	var id uint64
	runtime.GC()
	u0 := userCPU()
	defer func() { b.ReportMetric(float64((userCPU()-u0).Microseconds())/1000/float64(b.N), "user-ms/op") }()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % len(line)
		if k == 0 {
			b.StopTimer()
			id = h.newGame("orthodox")
			h.outbox()
			b.StartTimer()
		}
		h.deliver(h.reply(id, chess.Color(k%2), line[k]))
		if k == len(line)-1 {
			b.StopTimer()
			h.outbox()
			b.StartTimer()
		}
	}
}

// BenchmarkGameOnDisk reports what a game costs in the store file (bytes/game): 200 games of
// ten moves by mail each, with the raw copies of their mails kept (within SentRawRetention)
// and after they expired and the file was compacted. Run it with -benchtime 1x.
func BenchmarkGameOnDisk(b *testing.B) {
	for i := 0; i < b.N; i++ {
		h := newHarness(b)
		line := []string{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7"}
		const games = 200
		for g := 0; g < games; g++ {
			id, err := h.ref.NewGame("orthodox", fmt.Sprintf("w%d@example.com", g), fmt.Sprintf("b%d@example.net", g), variant.Options{})
			if err != nil {
				b.Fatal(err)
			}
			for k, mv := range line {
				h.deliver(h.reply(id, chess.Color(k%2), mv))
			}
			h.outbox()
		}
		size := func() float64 {
			fi, err := os.Stat(h.db.Path())
			if err != nil {
				b.Fatal(err)
			}
			return float64(fi.Size())
		}
		path := h.db.Path()
		h.db.Close()
		if _, _, err := store.CompactInPlace(path); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(size()/games, "bytes/game-kept")
		db, err := store.Open(path, store.Options{NoSync: true})
		if err != nil {
			b.Fatal(err)
		}
		db.Now = func() time.Time { return h.now.Add(store.SentRawRetention + 24*time.Hour) }
		if _, err := db.Prune(); err != nil {
			b.Fatal(err)
		}
		db.Close()
		if _, _, err := store.CompactInPlace(path); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(size()/games, "bytes/game-expired")
		if h.db, err = store.Open(path, store.Options{NoSync: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// userCPU is the user CPU this process has used.
func userCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano())
}
