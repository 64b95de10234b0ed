package templates

import (
	"strings"
	"testing"
	"time"
)

// BenchmarkRender is one mail of a move: a few paragraphs, a board, the game so far, a
// footer, rendered as the text and HTML alternative.
func BenchmarkRender(b *testing.B) {
	board := strings.Repeat("   +---+---+---+---+---+---+---+---+\n 8 | r | n | b | q | k | b | n | r |\n", 8)
	m := Mail{From: "refereed <referee@example.org>", ReplyTo: "referee+g1-w-abc@example.org", To: "ann@example.net",
		Subject: "[refereed #1] Orthodox: your move", MessageID: "refereed.g1.w.abc.4@example.org",
		InReplyTo: "x@example.net", References: []string{"refereed.g1.w.abc.1@example.org", "x@example.net"},
		Date: time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC), AutoSubmitted: "auto-replied",
		Paragraphs: []string{"Your move 1. e4 was played.", "Black answered 1... e5. Your move.",
			"The game so far: 1. e4 e5", "FEN: rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"},
		Diagram: board, Footer: "Reply to this mail with your move. HELP lists the commands."}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, _, err := RenderText(m); err != nil {
			b.Fatal(err)
		}
	}
}
