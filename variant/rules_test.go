package variant

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/templates"
)

// A refusal says its sentence; one whose sentence is missing, or that nothing words, still
// says which sentence and with what, and is found by Text.
func TestRefusalWords(t *testing.T) {
	err := Refuse("common/over", map[string]any{"Result": "1-0"})
	if !IsRejection(err) || err.Error() != "the game is over (1-0)" {
		t.Errorf("common/over: %v", err)
	}
	missing := Refuse("no-such-sentence", map[string]any{"N": 1}).(*Rejection)
	if text, ok := missing.Text(); ok || text != "[no-such-sentence map[N:1]]" {
		t.Errorf("a missing sentence: %q %v", text, ok)
	}
	if err := Reject("%v", "e9 is not a square"); err.Error() != "e9 is not a square" {
		t.Errorf("a text as it stands: %v", err)
	}
}

// The default judge tries its conditions in one order, each only where the variant has it.
func TestJudge(t *testing.T) {
	W, B := chess.White, chess.Black
	full := EndRules{
		Stalemate: "%s is stalemated",
		Dead:      "dead",
		Quiet:     Limit{At: 100, Termination: "fifty-move rule", Reason: "fifty"},
		Repeat:    Limit{At: 3, Termination: "threefold repetition", Reason: "three"},
	}
	locked := func() (Ending, bool) { return Ending{Draw, "stalemate", "locked"}, true }
	cases := []struct {
		name  string
		rules EndRules
		s     Standing
		want  Outcome // Result "*": the game goes on
	}{
		{"nothing", full, Standing{Mover: W, Quiet: 99, Repeats: 2}, Outcome{Result: "*"}},
		{"mate", full, Standing{Mover: B, NoMove: true, InCheck: true, Dead: true}, Outcome{"1-0", "checkmate", "White checkmated Black"}},
		{"mate in other words", full, Standing{Mover: W, NoMove: true, InCheck: true, Mate: func() string { return "Italian mate" }}, Outcome{"0-1", "checkmate", "Italian mate"}},
		{"mate, words kept", full, Standing{Mover: W, NoMove: true, InCheck: true, Mate: func() string { return "" }}, Outcome{"0-1", "checkmate", "Black checkmated White"}},
		{"stalemate before the draws", full, Standing{Mover: B, NoMove: true, Dead: true, Quiet: 100}, Outcome{Draw, "stalemate", "Black is stalemated"}},
		{"stalemate's default words", EndRules{}, Standing{Mover: W, NoMove: true}, Outcome{Draw, "stalemate", "White has no legal move"}},
		{"check alone", full, Standing{Mover: W, InCheck: true}, Outcome{Result: "*"}},
		{"special after stalemate", full, Standing{Mover: W, Dead: true, Special: locked}, Outcome{Draw, "stalemate", "locked"}},
		{"special that does not hold", full, Standing{Mover: W, Dead: true, Special: func() (Ending, bool) { return Ending{}, false }}, Outcome{Draw, "insufficient material", "dead"}},
		{"dead before fifty", full, Standing{Mover: W, Dead: true, Quiet: 100, Repeats: 3}, Outcome{Draw, "insufficient material", "dead"}},
		{"no dead-position rule", EndRules{Quiet: full.Quiet}, Standing{Mover: W, Dead: true}, Outcome{Result: "*"}},
		{"fifty before repetition", full, Standing{Mover: W, Quiet: 100, Repeats: 3}, Outcome{Draw, "fifty-move rule", "fifty"}},
		{"repetition", full, Standing{Mover: W, Repeats: 3}, Outcome{Draw, "threefold repetition", "three"}},
		{"no limits", EndRules{}, Standing{Mover: W, Quiet: 1000, Repeats: 1000}, Outcome{Result: "*"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := NewCommon()
			over := g.Judge(&c.rules, c.s)
			got := g.Outcome()
			if c.want.Result == "*" {
				if over || got.Over() {
					t.Fatalf("over: %+v", got)
				}
				return
			}
			if !over || got != c.want {
				t.Errorf("%v %+v, want %+v", over, got, c.want)
			}
			if n := g.OverNotice(); n.Kind != "game-over" || n.To != ToBoth || n.Show != ShowReveal || templates.NoticeText(n.Kind, n.Words, n.Text, n.Args) != strings.ToUpper(c.want.Reason[:1])+c.want.Reason[1:]+"." {
				t.Errorf("game-over notice %+v", n)
			}
		})
	}
	// A game over stays as it ended.
	g := NewCommon()
	g.End("0-1", "resignation", "White resigned")
	if !g.Judge(&full, Standing{Mover: W, NoMove: true, InCheck: true}) || g.Outcome().Termination != "resignation" {
		t.Errorf("judging a finished game changed it: %+v", g.Outcome())
	}
}

func TestResolvePreamble(t *testing.T) {
	g := NewCommon()
	if cmd, done, err := g.ResolvePreamble(chess.Black, "Resign"); !done || err != nil || cmd != (Command{By: chess.Black, Text: CmdResign}) {
		t.Errorf("resign: %v %v %v", cmd, done, err)
	}
	if _, done, err := g.ResolvePreamble(chess.White, "e4"); done || err != nil {
		t.Errorf("a move is the variant's: %v %v", done, err)
	}
	g.End(Draw, "draw", "draw agreed")
	if _, done, err := g.ResolvePreamble(chess.White, "e4"); !done || !IsRejection(err) || !strings.Contains(err.Error(), "the game is over (1/2-1/2)") {
		t.Errorf("after the end: %v %v", done, err)
	}
	if got := g.Awaiting(chess.White); got != nil {
		t.Errorf("a game over awaits %v", got)
	}
}

// ReadMove: notation, candidates, the capture sign refused under full information (rules.md
// 0.3b), check marks compared with a warning (0.3a).
func TestReadMove(t *testing.T) {
	cases := []struct {
		fen, text, uci string
		warn           chess.WarningCode
		err            string
	}{
		{chess.StartFEN, "Nf3", "g1f3", 0, ""},
		{chess.StartFEN, "MOVE g1-f3", "g1f3", 0, ""},
		{chess.StartFEN, "Nxf3", "", 0, "f3 is empty: nothing is captured; write the move without a capture sign (x or :)"},
		{chess.StartFEN, "Nf3+", "g1f3", chess.WarnCheckMark, ""},
		{chess.StartFEN, "Nf5", "", 0, "no knight can move to f5"},
		{chess.StartFEN, "Zf3", "", 0, "not a piece letter"},
		{"6k1/5ppp/8/8/8/8/8/R6K w - - 0 1", "Ra8", "a1a8", chess.WarnMateMark, ""},
		{"6k1/5ppp/8/8/8/8/8/R6K w - - 0 1", "Ra8#", "a1a8", 0, ""},
	}
	for _, c := range cases {
		p, _ := chess.ParseFEN(c.fen)
		m, warns, err := ReadMove(&p, c.text, p.LegalMoves(nil))
		// ReadLegalMove generates only the candidates: it must answer alike.
		m2, warns2, err2 := ReadLegalMove(&p, c.text)
		if m2 != m || !slices.Equal(warns2, warns) || fmt.Sprint(err2) != fmt.Sprint(err) {
			t.Errorf("%q: ReadLegalMove %v %v %v, ReadMove %v %v %v", c.text, m2, warns2, err2, m, warns, err)
		}
		if c.err != "" {
			if !IsRejection(err) || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: %v, want a rejection with %q", c.text, err, c.err)
			}
			continue
		}
		if err != nil || m.UCI() != c.uci {
			t.Errorf("%q: %v %v, want %s", c.text, m, err, c.uci)
		}
		if (c.warn == 0) != (len(warns) == 0) || c.warn != 0 && warns[len(warns)-1].Code != c.warn {
			t.Errorf("%q: warnings %v, want code %d", c.text, warns, c.warn)
		}
	}
}
