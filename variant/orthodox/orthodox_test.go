package orthodox

import (
	"encoding/json"
	"errors"
	"github.com/refereed/refereed/templates"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/record"
	"github.com/refereed/refereed/variant"
)

func replay(t *testing.T, pgn string) *variant.Replayed {
	t.Helper()
	rec, err := record.NewReader(strings.NewReader(pgn)).Next()
	if err != nil {
		t.Fatal(err)
	}
	r, err := variant.ReplayRecord(rec)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestEndings(t *testing.T) {
	cases := []struct {
		name, pgn, result, termination string
		failure                        bool
	}{
		{"fool's mate", "1. f3 e5 2. g4 Qh4# 0-1", "0-1", "checkmate", false},
		{"mate without mark", "1. f3 e5 2. g4 Qh4 0-1", "0-1", "checkmate", false},
		{"resignation", "1. e4 e5 0-1", "0-1", "resignation", false},
		{"agreed draw", "1. e4 e5 1/2-1/2", "1/2-1/2", "draw", false},
		{"unterminated", "1. e4 e5 *", "*", "unterminated", false},
		{"wrong result", "1. f3 e5 2. g4 Qh4# 1-0", "0-1", "checkmate", true},
		{"stalemate", "[FEN \"7k/8/6K1/8/8/8/8/5Q2 w - - 0 1\"]\n1. Qf7 1/2-1/2", "1/2-1/2", "stalemate", false},
		{"stalemate called a win", "[FEN \"7k/8/6K1/8/8/8/8/5Q2 w - - 0 1\"]\n1. Qf7 1-0", "1/2-1/2", "stalemate", true},
		{"insufficient material", "[FEN \"7k/8/8/8/8/8/6q1/6NK w - - 0 1\"]\n1. Kxg2 *", "1/2-1/2", "insufficient material", false},
		{"threefold claimed", "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2", "1/2-1/2", "threefold repetition", false},
		{"tag and token disagree", "[Result \"1-0\"]\n1. e4 0-1", "0-1", "", true},
		{"black to move from FEN", "[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 1\"]\n1... Kd7 2. e4 *", "*", "unterminated", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := replay(t, c.pgn)
			if (r.Failure != nil) != c.failure {
				t.Fatalf("failure %v, want failure=%v", r.Failure, c.failure)
			}
			if c.failure {
				return
			}
			if out := r.Game.Outcome(); out.Result != c.result || out.Termination != c.termination {
				t.Errorf("outcome %+v, want %s %s", out, c.result, c.termination)
			}
		})
	}
}

func TestIllegalMoveNamed(t *testing.T) {
	r := replay(t, "1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6 4. Ng5xf7 *")
	if r.Failure == nil {
		t.Fatal("illegal record accepted")
	}
	if r.Failure.Where != "move 4" || r.Failure.Text != "Ng5xf7" || !strings.Contains(r.Failure.Err.Error(), "g5") {
		t.Errorf("failure %q at %q (%q), want move 4 Ng5xf7 naming g5", r.Failure.Err, r.Failure.Where, r.Failure.Text)
	}
	if r.Plies != 6 {
		t.Errorf("plies before the failure %d, want 6", r.Plies)
	}
}

func TestWarningsAndCaptureSign(t *testing.T) {
	r := replay(t, "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7 1-0")
	if r.Failure != nil {
		t.Fatal(r.Failure)
	}
	if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "move 4 (Qxf7): the move mates") {
		t.Errorf("warnings %q", r.Warnings)
	}
	r = replay(t, "1. e4 e5 2. Nxf3 *")
	if r.Failure == nil || !strings.Contains(r.Failure.Err.Error(), "nothing is captured") {
		t.Errorf("x on an empty square: %v (rules.md 0.3b)", r.Failure)
	}
}

func TestResolveAndSubmitByMail(t *testing.T) {
	g, _ := New(variant.Options{})
	if _, _, err := g.Resolve(chess.Black, "e5"); !variant.IsRejection(err) || !strings.Contains(err.Error(), "White's move") {
		t.Errorf("black moving first: %v", err)
	}
	cmd, _, err := g.Resolve(chess.White, "MOVE Ng1-f3")
	if err != nil || cmd.Text != "move g1f3" {
		t.Fatalf("resolve: %v %v", cmd, err)
	}
	notices, err := g.Submit(cmd)
	if err != nil {
		t.Fatal(err)
	}
	// One notice: whose move is next is said under the board, not again by a "your move".
	if len(notices) != 1 || templates.NoticeText(notices[0].Kind, notices[0].Words, notices[0].Text, notices[0].Args) != "White played 1. Nf3" || notices[0].To != variant.ToBoth || notices[0].Show != variant.ShowView {
		t.Errorf("notices %+v", notices)
	}
	if got := g.View(variant.AsBlack).Lines; len(got) != 1 || got[0].String() != "Black to play move 1." {
		t.Errorf("Black's view says %q", got)
	}
	if _, err := g.Submit(variant.Command{By: chess.Black, Text: "move e2e4"}); !variant.IsRejection(err) {
		t.Errorf("black moving a white pawn: %v", err)
	}
	if _, err := g.Submit(variant.Command{By: chess.Black, Text: variant.CmdDrawAccept}); !variant.IsRejection(err) {
		t.Errorf("accepting a draw nobody offered: %v", err)
	}
	for _, c := range []variant.Command{{By: chess.Black, Text: variant.CmdDrawOffer}, {By: chess.White, Text: variant.CmdDrawAccept}} {
		if _, err := g.Submit(c); err != nil {
			t.Fatal(err)
		}
	}
	if out := g.Outcome(); out.Result != "1/2-1/2" {
		t.Errorf("after draw accept: %+v", out)
	}
	if _, err := g.Submit(variant.Command{By: chess.Black, Text: "move e7e5"}); !variant.IsRejection(err) {
		t.Error("move after the end accepted")
	}
	// The log replays to the same state.
	h, fail, err := variant.Replay(variant.MustLookup(Key), variant.Options{}, g.Log())
	hp, gp := h.Position(), g.Position()
	if err != nil || fail != nil || h.Outcome() != g.Outcome() || hp.FEN() != gp.FEN() {
		t.Errorf("log replay: %v %v %+v", err, fail, h.Outcome())
	}
}

func TestMovetextRoundTrip(t *testing.T) {
	r := replay(t, "[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 1\"]\n1... Kd7 2. e4 Ke6 *")
	if got := r.Game.(*Game).Movetext(); got != "1... Kd7 2. e4 Ke6" {
		t.Errorf("movetext %q", got)
	}
}

// TestBigBig replays the 10,000 real games of corentings/chess's fixtures/pgns/big_big.pgn
// (module zip as test data, read from the module cache): all valid, and the SAN printed back
// equals the input with annotation marks removed.
func TestBigBig(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	out, err := exec.Command("go", "mod", "download", "-json", "github.com/corentings/chess/v2@v2.3.2").Output()
	var info struct{ Dir string }
	if err != nil || json.Unmarshal(out, &info) != nil || info.Dir == "" {
		t.Skipf("corentings/chess module not available: %v", err)
	}
	f, err := os.Open(filepath.Join(info.Dir, "fixtures", "pgns", "big_big.pgn"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd := record.NewReader(f)
	games := 0
	for {
		rec, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		games++
		r, err := variant.ReplayRecord(rec)
		if err != nil || r.Failure != nil {
			t.Fatalf("game %d: %v %v", rec.Number, err, r.Failure)
		}
		toks, _ := record.Tokenize(rec.Movetext, nil)
		var in []string
		for _, tk := range toks {
			if tk.Kind == record.Symbol {
				in = append(in, strings.TrimRight(tk.Text, "!?"))
			}
		}
		if got := r.Game.(*Game).sans(); strings.Join(got, " ") != strings.Join(in, " ") {
			t.Fatalf("game %d: SAN printed back differs:\n got %v\nwant %v", rec.Number, got, in)
		}
	}
	if games != 10000 {
		t.Errorf("%d games, want 10000", games)
	}
}

// A mail asking a player to move names the move in its subject: "your move (move 12)". The
// name is the record's move number, for the side to move only, and none once the game is over.
func TestTurnName(t *testing.T) {
	cases := []struct {
		name, fen string
		moves     []string
		white     string // TurnName(White)
		black     string
	}{
		{"start", "", nil, "move 1", ""},
		{"black's first", "", []string{"e4"}, "", "move 1"},
		{"white's second", "", []string{"e4", "e5"}, "move 2", ""},
		{"black's second", "", []string{"e4", "e5", "Nf3"}, "", "move 2"},
		{"from a FEN's move number", "4k3/8/8/8/8/8/4P3/4K3 b - - 0 37", nil, "", "move 37"},
		{"after black's move from a FEN", "4k3/8/8/8/8/8/4P3/4K3 b - - 0 37", []string{"Kd7"}, "move 38", ""},
		{"over", "", []string{"f3", "e5", "g4", "Qh4#"}, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g, err := New(variant.Options{FEN: c.fen})
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range c.moves {
				cmd, _, err := g.Resolve(g.pos.Turn, m)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := g.Submit(cmd); err != nil {
					t.Fatal(err)
				}
			}
			if w, b := g.TurnName(chess.White), g.TurnName(chess.Black); w != c.white || b != c.black {
				t.Errorf("TurnName: White %q, Black %q; want %q, %q", w, b, c.white, c.black)
			}
		})
	}
}

// Submit plays a move without looking for it again only when Resolve has just found it, on
// the same position: any other canonical command is checked as before.
func TestSubmitChecksWhatResolveDidNotFind(t *testing.T) {
	g, err := New(variant.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if cmd, _, err := g.Resolve(chess.White, "e4"); err != nil || cmd.Text != "move e2e4" {
		t.Fatalf("resolve e4: %v %v", cmd, err)
	}
	if _, err := g.Submit(variant.Command{By: chess.White, Text: "move e2e5"}); !variant.IsRejection(err) {
		t.Fatalf("e2e5 after resolving e4: %v", err)
	}
	for _, c := range []variant.Command{{By: chess.White, Text: "move e2e3"}, {By: chess.Black, Text: "move e7e5"}} {
		if _, err := g.Submit(c); err != nil {
			t.Fatalf("%s: %v", c.Text, err)
		}
	}
	// e2e4 was found two plies ago; the pawn has left e2 since.
	if _, err := g.Submit(variant.Command{By: chess.White, Text: "move e2e4"}); !variant.IsRejection(err) {
		t.Fatalf("e2e4 with no pawn on e2: %v", err)
	}
	if p := g.Position(); p.FEN() != "rnbqkbnr/pppp1ppp/8/4p3/8/4P3/PPPP1PPP/RNBQKBNR w KQkq e6 0 2" {
		t.Errorf("position %s", p.FEN())
	}
}
