package trainwreck

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/record"
	"github.com/refereed/refereed/variant"
)

func replayRecord(t *testing.T, tag, fen, movetext string) *variant.Replayed {
	t.Helper()
	tags := []record.Tag{{Name: "Variant", Value: tag}}
	if fen != "" {
		tags = append(tags, record.Tag{Name: "FEN", Value: fen})
	}
	r, err := variant.ReplayRecord(&record.Record{Tags: tags, Movetext: movetext})
	if err != nil {
		t.Fatalf("%q: %v", movetext, err)
	}
	return r
}

// Records: each turn's parts separated by "/", part 1's moves by ","; spaces around "/",
// "-" in moves, SAN and move numbers glued to moves are read; a turn cut short by the end of
// the game holds what was played; the result says who won and how; the game writes its
// record back in coordinates, every turn numbered (Black's "1...": where a turn ends is
// where the next number stands).
func TestRecords(t *testing.T) {
	cases := []struct {
		what, tag, fen, movetext string
		canonical                string // what the game writes back
		result, term             string
		plies                    int
		board                    string
	}{
		{"a game won by taking the king in part 1: the last turn holds part 1 alone", "Train Wreck", "",
			"1. e2e4/e7e5 d8h4/f2f3 2. a2a3/a7a6 h4e1 0-1", "1. e2-e4 / e7-e5 1... Qd8-h4 / f2-f3 2. a2-a3 / a7-a6 2... Qh4xe1", "0-1", "king capture", 7,
			"rnb1kbnr/1ppp1ppp/p7/4p3/4P3/P4P2/1PPP2PP/RNBQqBNR"},
		{"the same in SAN, with spaces, dashes and glued numbers", "Train Wreck Chess", "",
			"1.e2-e4 / e7-e5 Qh4 / f3 2. a3/a6 2... Qxe1 0-1", "1. e2-e4 / e7-e5 1... Qd8-h4 / f2-f3 2. a2-a3 / a7-a6 2... Qh4xe1", "0-1", "king capture", 7,
			"rnb1kbnr/1ppp1ppp/p7/4p3/4P3/P4P2/1PPP2PP/RNBQqBNR"},
		{"Three-Move: White's first turn has one own move, then two", "Three-Move Train Wreck", "",
			"1. e2e4/b8c6 d7d5,e7e5/e4d5 2. d2d4, g1f3 / c6b4 *", "1. e2-e4 / Nb8-c6 1... d7-d5, e7-e5 / e4xd5 2. d2-d4, Ng1-f3 / Nc6-b4", "*", "unterminated", 8,
			"r1bqkbnr/ppp2ppp/8/3Pp3/1n1P4/5N2/PPP2PPP/RNBQKB1R"},
		{"a promotion by the mover, as a letter or in parentheses", "trainwreck", "4k3/1P6/8/8/8/8/p7/4K3 w - - 0 1",
			"1. b7b8r / a2a1(B) *", "1. b7-b8=R / a2-a1=B", "*", "unterminated", 2, "1R2k3/8/8/8/8/8/8/b3K3"},
		{"a turn cut short by a stalemate after part 1", "trainwreck", "4k3/4p3/4P3/8/8/8/8/4K2R w K - 0 1",
			"1. O-O 0-1", "1. O-O", "0-1", "stalemate", 1, "4k3/4p3/4P3/8/8/8/8/5RK1"},
		{"a record from Black's turn", "trainwreck", "4k3/p7/8/8/8/8/8/4K2R b K - 0 7",
			"7... a6/Rh3 8. Ke2/a5 *", "7... a7-a6 / Rh1-h3 8. Ke1-e2 / a6-a5", "*", "unterminated", 4, "4k3/8/8/p7/8/7R/4K3/8"},
		{"an undecided game ended by a result is a resignation", "trainwreck", "", "1. e2e4/b8c6 1-0", "1. e2-e4 / Nb8-c6", "1-0", "resignation", 2, ""},
	}
	for _, c := range cases {
		t.Run(c.what, func(t *testing.T) {
			r := replayRecord(t, c.tag, c.fen, c.movetext)
			if r.Failure != nil {
				t.Fatalf("failure: %v", r.Failure)
			}
			g := r.Game.(*Game)
			o := g.Outcome()
			if o.Result != c.result || o.Termination != c.term || r.Plies != c.plies || len(r.Warnings) != 0 {
				t.Errorf("outcome %+v, %d plies, warnings %q; want %s by %s, %d plies", o, r.Plies, r.Warnings, c.result, c.term, c.plies)
			}
			if c.board != "" && placement(g) != c.board {
				t.Errorf("board %s, want %s", placement(g), c.board)
			}
			if got := variant.MustLookup(g.Key()).WriteMovetext(g); got != c.canonical {
				t.Errorf("written back as %q, want %q", got, c.canonical)
			}
			// What is written reads back to the same game (the players' notation is a record's).
			again := replayRecord(t, c.tag, c.fen, c.canonical+" "+c.result)
			if again.Failure != nil || placement(again.Game.(*Game)) != placement(g) {
				t.Errorf("written record does not read back: %v", again.Failure)
			}
		})
	}
}

// A record that goes wrong names the turn and the part, and a result that contradicts the
// position is caught.
func TestRecordFailures(t *testing.T) {
	cases := []struct{ what, movetext, where, reason string }{
		{"a backward move in part 2", "1. e2e4/b8c6 d7d5/e4e3 *", "turn 1...", "part 2 (e4e3): the man on e4 cannot move to e3"},
		{"a missing part 2", "1. e2e4 d7d5/e4e5 *", "turn 1", "part 2 is missing"},
		{"a result against the king's capture", "1. e2e4/e7e5 d8h4/f2f3 2. a2a3/a7a6 h4e1 1-0", "result", "the final position says 0-1"},
		{"a move after the end", "1. e2e4/e7e5 d8h4/f2f3 2. a2a3/a7a6 h4e1 3. a3a4/a6a5 0-1", "turn 3", "the game was already over"},
	}
	for _, c := range cases {
		r := replayRecord(t, "Train Wreck", "", c.movetext)
		if r.Failure == nil || r.Failure.Where != c.where || !strings.Contains(r.Failure.Err.Error(), c.reason) {
			t.Errorf("%s: failure %v, want at %s: %s", c.what, r.Failure, c.where, c.reason)
		}
	}
	if _, err := variant.ReplayRecord(&record.Record{Tags: []record.Tag{{Name: "Variant", Value: "Train Wreck"}}, Movetext: "1. / e2e4"}); err == nil {
		t.Error("a / before any move was read")
	}
}

// Random games, both variants: the record the game writes replays to the same game (board,
// outcome, plies), and so does its log.
func TestRandomGamesRoundTrip(t *testing.T) {
	for _, three := range []bool{false, true} {
		for seed := int64(1); seed <= 40; seed++ {
			rng := rand.New(rand.NewSource(seed))
			g := newGame(t, three, "", nil)
			for i := 0; i < 60 && !g.Outcome().Over(); i++ {
				sendLine(t, g, randomTurn(g, rng))
			}
			v := variant.MustLookup(g.Key())
			mt := v.WriteMovetext(g)
			r := replayRecord(t, v.Name, "", mt+" "+resultOf(g))
			if r.Failure != nil || len(r.Warnings) != 0 || r.Plies != g.men || r.Game.Outcome() != g.Outcome() || fenOf(r.Game) != g.pos.FEN() {
				t.Fatalf("three=%v seed %d: the record does not round-trip: %v %q %d/%d plies %+v %+v\n%s", three, seed, r.Failure, r.Warnings, r.Plies, g.men, r.Game.Outcome(), g.Outcome(), mt)
			}
			l, fail, err := variant.Replay(v, variant.Options{}, g.Log())
			if err != nil || fail != nil || fenOf(l) != g.pos.FEN() || l.Outcome() != g.Outcome() {
				t.Fatalf("three=%v seed %d: the log does not replay: %v %v", three, seed, err, fail)
			}
		}
	}
}

func fenOf(g variant.Game) string {
	p := g.Position()
	return p.FEN()
}

func resultOf(g *Game) string {
	if o := g.Outcome(); o.Over() {
		return o.Result
	}
	return "*"
}

// randomTurn writes a legal turn for the player whose turn it is, in coordinates, cut short
// where the game ends.
func randomTurn(g *Game, rng *rand.Rand) string {
	p, u := g.pos, g.unmoved
	by := p.Turn
	var words []string
	for k := 0; k < g.ownCount(); k++ {
		ms := ownMoves(nil, &p, by, u)
		if len(ms) == 0 {
			return strings.Join(words, ", ")
		}
		m := ms[rng.Intn(len(ms))]
		words = append(words, m.UCI())
		if play(&p, &u, m).Role() == chess.King {
			return strings.Join(words, ", ")
		}
	}
	ms := otherMoves(nil, &p, by.Other(), u)
	if len(ms) == 0 {
		return strings.Join(words, ", ")
	}
	return strings.Join(words, ", ") + " / " + ms[rng.Intn(len(ms))].UCI()
}
