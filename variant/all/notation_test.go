package all

import (
	"strings"
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/record"
	"github.com/refereed/refereed/variant"
)

// replay plays a record of the variant key from fen.
func replay(t *testing.T, key, fen, movetext string) *variant.Replayed {
	t.Helper()
	tags := []record.Tag{{Name: "Variant", Value: key}}
	if fen != "" {
		tags = append(tags, record.Tag{Name: "FEN", Value: fen})
	}
	r, err := variant.ReplayRecord(&record.Record{Tags: tags, Movetext: movetext})
	if err != nil {
		t.Fatalf("%s %q: %v", key, movetext, err)
	}
	return r
}

// send resolves and submits lines for the players the game waits for, in turn.
func send(t *testing.T, g variant.Game, lines ...string) []chess.Warning {
	t.Helper()
	var warns []chess.Warning
	for _, l := range lines {
		by := g.ToAct()[0]
		cmd, w, err := g.Resolve(by, l)
		if err != nil {
			t.Fatalf("%s %v %q: %v", g.Key(), by, l, err)
		}
		warns = append(warns, w...)
		if _, err := g.Submit(cmd); err != nil {
			t.Fatalf("%s %v %q (%s): %v", g.Key(), by, l, cmd.Text, err)
		}
	}
	return warns
}

// rules.md 0.3a: a promotion written (Q), against its move or, in Transactional records,
// apart from it, with or without a check or mate mark after it, is read in every game's
// records and mail commands, and inside Conditional branches.
func TestParenthesizedPromotion(t *testing.T) {
	cases := []struct {
		key, fen string
		record   string   // movetext, read as a record
		mail     []string // the same moves as mail commands ("" skips)
		square   string
		piece    string // FEN letter expected on square at the end
	}{
		{"orthodox", "k7/8/8/8/8/8/2p5/3R2K1 b - - 0 1", "1... cxd1(Q)+ *", []string{"cxd1(Q)+"}, "d1", "q"}, // E:L989
		{"orthodox", "3r3k/2P3pp/8/8/8/8/8/K7 w - - 0 1", "1. c:d8(Q)# 1-0", []string{"c:d8(Q)#"}, "d8", "Q"},
		{"orthodox", "8/8/8/8/8/8/p7/5K1k b - - 0 1", "1... a1(Q)+ *", []string{"a1(Q)+"}, "a1", "q"},
		{"progressive", "7k/8/8/8/8/P7/1p6/7K b - - 0 1", "2 b1(N), Nd2 *", []string{"b1(N), Nd2"}, "d2", "n"}, // E:L1033
		{"progressive", "7k/8/8/8/8/P7/1p6/7K b - - 0 1", "2 b1(Q)+ *", []string{"SERIES 2: b1(Q)+"}, "b1", "q"},
		{"progressive-italian", "7k/8/8/8/8/P7/1p6/7K b - - 0 1", "2 b1(N), Nd2 *", []string{"b1(N), Nd2"}, "d2", "n"},
		{"transactional", "4k3/8/8/8/8/8/3p4/K7 b - - 0 1", "1... T2: d1(Q)+(C) *", []string{"d1(Q)+(C)"}, "d1", "q"},
		{"transactional", "4k3/8/8/8/8/8/3p4/K7 b - - 0 1", "1... T2: d1 (Q)+ (C) *", []string{"T2: d1 (Q)+ (C)"}, "d1", "q"},
		{"transactional", "4k3/P7/8/8/8/8/8/K7 w - - 0 1", "1. T1: a8(N) *", []string{"a8(N)"}, "a8", "N"},
		{"transactional", "4k3/P7/8/8/8/8/8/K7 w - - 0 1", "1. T1: a8 (N) *", []string{"a8 (N)"}, "a8", "N"},
		{"transactional", "4k3/P7/8/8/8/8/8/K7 w - - 0 1", "1. T1: a8 (T)+ *", []string{"a8(T)+"}, "a8", "R"}, // (R) is a rollback there
		{"conditional", "7k/P7/8/8/8/8/8/1K6 w - - 0 1", "1. Kb2 Kh7 g7?*a8(Q)*/Kc2 *", []string{"A: Kb2 C: g7?a8(Q)/Kc2", "B: Kh7"}, "a8", "Q"},
		{"conditional", "6k1/P4ppp/8/8/8/8/8/1K6 w - - 0 1", "1. a8(Q)# 1-0", []string{"A: a8(Q)#"}, "a8", "Q"},
	}
	for _, c := range cases {
		r := replay(t, c.key, c.fen, c.record)
		if r.Failure != nil || len(r.Warnings) != 0 {
			t.Errorf("%s record %q: %v %q", c.key, c.record, r.Failure, r.Warnings)
			continue
		}
		sq, _ := chess.ParseSquare(c.square)
		if pos := r.Game.Position(); pos.At(sq).String() != c.piece {
			got := pos.At(sq)
			t.Errorf("%s record %q: %s on %s, want %s", c.key, c.record, got, c.square, c.piece)
		}
		g, err := variant.MustLookup(c.key).New(variant.Options{FEN: c.fen})
		if err != nil {
			t.Fatal(err)
		}
		if w := send(t, g, c.mail...); len(w) != 0 {
			t.Errorf("%s mail %q: warnings %v", c.key, c.mail, w)
		}
		if pos := g.Position(); pos.At(sq).String() != c.piece {
			got := pos.At(sq)
			t.Errorf("%s mail %q: %s on %s, want %s", c.key, c.mail, got, c.square, c.piece)
		}
	}
	// In Transactional Chess (R) after a move is a rollback, never a rook.
	g, _ := variant.MustLookup("transactional").New(variant.Options{FEN: "4k3/P7/8/8/8/8/8/K7 w - - 0 1"})
	if _, _, err := g.Resolve(chess.White, "a8(R)+"); err == nil || !strings.Contains(err.Error(), "(R) means rollback here; a rook promotion is written =R or (T)") {
		t.Errorf("a8(R)+ in Transactional: %v", err)
	}
}

// rules.md 0.3a: a check or mate mark that does not match the board is accepted with a
// warning, in every game (the mark is judged on what the mover sees).
func TestCheckMarkWarnsInEveryVariant(t *testing.T) {
	const fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"
	cases := []struct {
		key, fen string
		lines    []string // the last line is the one judged
		record   string
		want     string
	}{
		{"orthodox", fen, []string{"Ra8"}, "1. Ra8 *", "the move gives check: write +"},
		{"orthodox", fen, []string{"Ra7+"}, "1. Ra7+ *", "the move gives no check"},
		{"progressive", fen, []string{"Ra8"}, "1 Ra8 *", "the move gives check: write +"},
		{"progressive", fen, []string{"Ra7+"}, "1 Ra7+ *", "the move gives no check"},
		{"progressive-italian", fen, []string{"Ra8"}, "1 Ra8 *", "the move gives check: write +"},
		{"progressive-italian", "4k3/8/8/8/8/8/8/R3K3 b - - 0 1", []string{"Kd7, Ke6#"}, "2 Kd7, Ke6# *", "the move gives no check"},
		{"transactional", fen, []string{"Ra8"}, "1. T1: Ra8 *", "the move gives check: write +"},
		{"transactional", fen, []string{"Ra7+"}, "1. T1: Ra7+ *", "the move gives no check"},
		{"transactional", "4k3/8/8/8/8/8/8/R3K3 b - - 0 1", []string{"Kd7 (C)", "Ra7"}, "1... T2: Kd7 (C) 2. T1: Ra7 *", "the move gives check: write +"},
		{"conditional", "4k3/8/8/8/8/8/8/R3K3 b - - 0 1", []string{"A: Kd7", "B: Ra7"}, "1... Kd7 Ra7 *", "the move gives check: write +"},
		{"conditional", "4k3/8/8/8/8/8/8/R3K3 b - - 0 1", []string{"A: Kd7+"}, "1... Kd7+ *", "the move gives no check"},
		{"conditional", "6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1", []string{"A: Ra8+"}, "1. Ra8+ 1-0", "the move mates: write #"},
	}
	for _, c := range cases {
		g, err := variant.MustLookup(c.key).New(variant.Options{FEN: c.fen})
		if err != nil {
			t.Fatal(err)
		}
		w := send(t, g, c.lines...)
		if len(w) != 1 || !strings.Contains(w[0].Text, c.want) {
			t.Errorf("%s mail %q: warnings %v, want one with %q", c.key, c.lines, w, c.want)
		}
		r := replay(t, c.key, c.fen, c.record)
		if r.Failure != nil || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], c.want) {
			t.Errorf("%s record %q: %v %q, want one warning with %q", c.key, c.record, r.Failure, r.Warnings, c.want)
		}
	}
}

// ICCF numeric notation (issue 25) is read wherever a move is, in records and by mail, in
// every game: the same moves in algebraic and in numeric notation reach the same position,
// promotions (a fifth digit) and castling (the king's move) included, and no check mark is
// asked for, since numeric notation writes none.
func TestNumericNotationEverywhere(t *testing.T) {
	const promo = "4k3/P7/8/8/8/8/7P/K7 w - - 0 1"
	cases := []struct {
		key, fen          string
		record, numeric   string   // two records of the same game
		mail, mailNumeric []string // the same as mail commands, in turn ("" record: mail only)
	}{
		{"orthodox", "", "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. O-O *", "1. 5254 5755 2. 7163 2836 3. 6134 7866 4. 5171 *",
			[]string{"e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6", "O-O"}, []string{"5254", "5755", "7163", "2836", "6134", "7866", "5171"}},
		{"orthodox", promo, "1. a8=N *", "1. 17184 *", []string{"a8=N"}, []string{"17184"}},
		{"progressive", "", "1 e4 2 e5, d5 *", "1 5254 2 5755, 4745 *", []string{"e4", "e5, d5"}, []string{"5254", "5755, 4745"}},
		{"progressive-italian", "", "1 e4 2 e5, d5 *", "1 5254 2 5755, 4745 *", []string{"e4", "e5, d5"}, []string{"5254", "5755 4745"}},
		{"transactional", "", "1. T1: e4 (C) 1... T2: e5 (C) *", "1. T1: 5254 (C) 1... T2: 5755 (C) *", []string{"e4 (C)", "e5 (C)"}, []string{"5254 (C)", "T2: 5755 COMMIT"}},
		{"transactional", promo, "1. T1: a8=Q (C) *", "1. T1: 17181 (C) *", []string{"a8=Q"}, []string{"17181"}},
		{"conditional", "", "1. e4 e5 *", "1. 5254 5755 *", []string{"A: e4", "B: e5"}, []string{"A: 5254", "B: 5755"}},
		{"trainwreck", "", "1. e2-e4 / Nb8-c6 *", "1. 5254 / 2836 *", []string{"e2-e4 / Nb8-c6"}, []string{"5254 / 2836"}},
		{"synchronous", "", "", "", []string{"e4", "e5"}, []string{"5254", "5755"}},
		{"kriegspiel", "", "", "", []string{"e4", "e5"}, []string{"5254", "5755"}},
		{"progressive-kriegspiel", "", "", "", []string{"e4", "e5 d5"}, []string{"5254", "5755 4745"}},
	}
	for _, c := range cases {
		if c.record != "" {
			a, b := replay(t, c.key, c.fen, c.record), replay(t, c.key, c.fen, c.numeric)
			if a.Failure != nil || b.Failure != nil || len(b.Warnings) != 0 {
				t.Errorf("%s %q: %v / %v %q", c.key, c.numeric, a.Failure, b.Failure, b.Warnings)
				continue
			}
			if pa, pb := a.Game.Position(), b.Game.Position(); pa.FEN() != pb.FEN() {
				t.Errorf("%s records: %s / %s", c.key, pa.FEN(), pb.FEN())
			}
		}
		var fens [2]string
		for i, lines := range [][]string{c.mail, c.mailNumeric} {
			g, err := variant.MustLookup(c.key).New(variant.Options{FEN: c.fen})
			if err != nil {
				t.Fatal(err)
			}
			w := send(t, g, lines...)
			if i == 1 && len(w) != 0 {
				t.Errorf("%s mail %q: warnings %v", c.key, lines, w)
			}
			p := g.Position()
			fens[i] = p.FEN()
		}
		if fens[0] != fens[1] {
			t.Errorf("%s mail: %s / %s", c.key, fens[0], fens[1])
		}
	}
}

// A line of words is not a command, in every game, whoever is to move (issue 25): it was
// "too long to be a move".
func TestWordsAreNotACommand(t *testing.T) {
	for _, key := range variant.Keys() {
		g, err := variant.MustLookup(key).New(variant.Options{})
		if err != nil {
			t.Fatal(err)
		}
		by := g.ToAct()[0]
		for _, line := range []string{"hello there", "thanks, have a nice day and good luck to you"} {
			if _, _, err := g.Resolve(by, line); err == nil || !strings.Contains(err.Error(), "is not a command") {
				t.Errorf("%s %q: %v", key, line, err)
			}
		}
	}
}
