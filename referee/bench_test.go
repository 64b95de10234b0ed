package referee

import (
	"testing"

	"github.com/refereed/refereed/chess"
)

// BenchmarkMoveMail is the referee's work for one move by mail, end to end in process: parse,
// find the game, play the move, log it, write both players' mails, all in its transaction (a
// real bbolt file without fsync). Each op is one mail; games of a short opening are played
// over and over.
func BenchmarkMoveMail(b *testing.B) {
	h := newHarness(b)
	line := []string{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7"}
	var id uint64
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
