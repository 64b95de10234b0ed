package synchronous

import (
	"strings"

	"github.com/refereed/refereed/templates"
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/variant"
	"github.com/refereed/refereed/variant/varianttest"
)

// newGame starts a game (korolev or PSC) from fen (a placement alone is enough), with flags.
func newGame(t *testing.T, korolev bool, fen string, flags map[string]string) *Game {
	t.Helper()
	if fen != "" && !strings.Contains(fen, " ") {
		fen += " w - - 0 1"
	}
	rules := PSC
	if korolev {
		rules = Korolev
	}
	g, err := New(variant.Options{FEN: fen, Flags: flags}, rules)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// turn plays one turn: White's move, then Black's; it returns the notices of the second.
func turn(t *testing.T, g *Game, white, black string) []variant.Notice {
	t.Helper()
	varianttest.Send(t, g, chess.White, white)
	return varianttest.Send(t, g, chess.Black, black)
}

// Fixtures §6: the constructed PSC opening and the worked control example of S:L8-10.
func TestFixturesPSC(t *testing.T) {
	g := newGame(t, false, "", nil)
	turn(t, g, "e4", "e5")
	turn(t, g, "Nf3", "d5")
	turn(t, g, "Nc3", "Nc6")
	if got, want := g.pos.Placement(), "r1bqkbnr/ppp2ppp/2n5/3pp3/4P3/2N2N2/PPPP1PPP/R1BQKB1R"; got != want {
		t.Fatalf("position %s, want %s", got, want)
	}
	if g.pos.Castling != chess.WhiteShort|chess.WhiteLong|chess.BlackShort|chess.BlackLong {
		t.Errorf("castling rights %v, want KQkq", g.pos.Castling)
	}
	sq := func(s string) chess.Square { q, _ := chess.ParseSquare(s); return q }
	for _, c := range []struct {
		sq     string
		w, b   int8
		holder string
	}{{"h4", 2, 1, "W"}, {"h3", 1, 1, "."}, {"d5", 2, 1, "W"}} {
		w, b := g.att[chess.White][sq(c.sq)], g.att[chess.Black][sq(c.sq)]
		if w != c.w || b != c.b {
			t.Errorf("%s: attacked %d/%d, want %d/%d", c.sq, w, b, c.w, c.b)
		}
		holder := "."
		if g.att.controls(chess.White, sq(c.sq)) {
			holder = "W"
		} else if g.att.controls(chess.Black, sq(c.sq)) {
			holder = "B"
		}
		if holder != c.holder {
			t.Errorf("%s controlled by %s, want %s", c.sq, holder, c.holder)
		}
	}
	if !g.att.frozen(chess.Black, sq("d5")) {
		t.Error("d5 is not frozen")
	}
	var to []string
	for _, m := range g.moves[chess.White] {
		if m.To == sq("d5") {
			to = append(to, g.pos.SANAmong(m, g.moves[chess.White]))
		}
	}
	if strings.Join(to, " ") != "Nxd5 exd5" && strings.Join(to, " ") != "exd5 Nxd5" {
		t.Errorf("White's moves to d5: %v, want exd5 and Nxd5", to)
	}
	for _, w := range []string{"exd5", "Nxd5"} {
		h := newGame(t, false, "", nil)
		turn(t, h, "e4", "e5")
		turn(t, h, "Nf3", "d5")
		turn(t, h, "Nc3", "Nc6")
		turn(t, h, w, "Nf6")
		if !h.att.frozen(chess.White, sq("d5")) {
			t.Errorf("after %s / Nf6 the white man on d5 is not frozen", w)
		}
	}
	// Negative test: after 1. e4 / d5, Black's e5 is illegal (e5 is controlled by nobody).
	h := newGame(t, false, "", nil)
	turn(t, h, "e4", "d5")
	varianttest.Refuse(t, h, chess.Black, "e5", "you do not control e5")
}

// Fixtures §7: Korolev's conflict cases KO-1 to KO-9.
func TestFixturesKorolev(t *testing.T) {
	for _, c := range []struct {
		id, start, white, black, want, result, says string
	}{
		{"KO-1", "4k3/8/5n2/8/8/2N5/8/4K3", "c3-d5", "f6-d5", "4k3/8/8/8/8/8/8/4K3", "1/2-1/2", "Collision on d5: White's knight and Black's knight were both removed"},
		{"KO-2", "8/8/3k4/8/4P3/8/8/4K3", "e4-e5", "d6-e5", "8/8/8/4k3/8/8/8/4K3", "1/2-1/2", "Collision on e5: White's pawn was removed; Black's king stays"},
		{"KO-3", "4k3/8/8/3n4/8/1B6/8/4K3", "b3xd5", "d5-f4", "4k3/8/8/3B4/5n2/8/8/4K3", "*", "Illusory capture on d5"},
		{"KO-4", "4k3/8/8/3n4/8/2N5/8/4K3", "c3xd5", "d5xc3", "4k3/8/8/3N4/8/2n5/8/4K3", "*", "exchanged places"},
		{"KO-5", "4k3/8/8/3p4/8/8/8/3RK3", "d1xd5", "d5-d4", "4k3/8/8/3R4/3p4/8/8/4K3", "*", "Illusory capture on d5"},
		{"KO-6", "r3k3/1p6/2n5/1B6/8/8/8/4K3", "b5xc6", "b7xc6", "r3k3/8/2p5/8/8/8/8/4K3", "*", "anticipating the capture"},
		{"KO-7", "r3k3/1p6/2n5/1B6/8/8/8/4K3", "e1-d2", "b7xc6", "r3k3/8/2p5/1B6/8/8/3K4/8", "*", "took its own side's knight on c6"},
		{"KO-8", "r3r1bb/ppqRkppp/8/2p1n3/7n/8/PPPPP1P1/RNBQNBK1", "d7xe7", "c7xd7", "r3r1bb/pp1qRppp/8/2p1n3/7n/8/PPPPP1P1/RNBQNBK1", "1-0", "Illusory capture on d7"},
		{"KO-9", "r3r1bb/ppqRkppp/8/2p1n3/7n/8/PPPPP1P1/RNBQNBK1", "d7xe7", "e7xd7", "r3r1bb/ppqkRppp/8/2p1n3/7n/8/PPPPP1P1/RNBQNBK1", "*", "exchanged places"},
	} {
		t.Run(c.id, func(t *testing.T) {
			g := newGame(t, true, c.start, nil)
			if g.Outcome().Over() {
				// A dead position (rules.md 0.4c) is drawn before the turn: the fixture's
				// resolution is checked on its own.
				var moves [2]chess.Move
				for i, text := range []string{c.white, c.black} {
					cmd, _, err := g.readMove(chess.Color(i), text)
					if err != nil {
						t.Fatal(err)
					}
					moves[i], _ = chess.FindUCI(g.moves[i], strings.TrimPrefix(cmd.Text, "move "))
				}
				r := koResolve(&g.pos, moves)
				if got := r.pos.Placement(); got != c.want {
					t.Errorf("position %s, want %s", got, c.want)
				}
				var said []string
				for _, e := range r.events {
					said = append(said, eventText(e))
				}
				if text := strings.Join(said, "\n"); !strings.Contains(text, c.says) {
					t.Errorf("the players are told:\n%s\nwant it to say %q", text, c.says)
				}
				return
			}
			ns := turn(t, g, c.white, c.black)
			if got := g.pos.Placement(); got != c.want {
				t.Errorf("position %s, want %s", got, c.want)
			}
			if got := g.Outcome().Result; got != c.result {
				t.Errorf("result %s (%s), want %s", got, g.Outcome().Reason, c.result)
			}
			if text := varianttest.TextsTo(ns, chess.White, false); !strings.Contains(text, c.says) {
				t.Errorf("the players are told:\n%s\nwant it to say %q", text, c.says)
			}
		})
	}
}

func eventText(e Event) string {
	return templates.Say("", "synchronous/event", templates.Args{"Kind": e.Kind, "Square": e.Square, "Man": e.Man, "Other": e.Other, "Victim": e.Victim, "Lost": e.Lost})
}
