package kriegspiel

import (
	"strings"
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/variant"
	"github.com/refereed/refereed/variant/varianttest"
)

// A case plays lines, each by the player to act unless written "w: ..." or "b: ...", and
// checks what the last one did: what the mover and his opponent were told (each notice's
// words on a line; "" is nothing), or that it was refused, changing nothing.
type kcase struct {
	name    string
	prog    bool // a game of Progressive Kriegspiel, not Kriegspiel
	fen     string
	lines   []string
	mine    string
	theirs  string
	refused string
	check   func(t *testing.T, g *Game, ns []variant.Notice)
}

func newGame(t *testing.T, rules *Rules, fen string) *Game {
	t.Helper()
	g, err := New(variant.Options{FEN: fen}, rules)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// sideOf reads a line's "w: " or "b: " prefix; without one it is the player to act's.
func sideOf(g *Game, line string) (chess.Color, string) {
	if rest, ok := strings.CutPrefix(line, "w: "); ok {
		return chess.White, rest
	}
	if rest, ok := strings.CutPrefix(line, "b: "); ok {
		return chess.Black, rest
	}
	return g.pos.Turn, line
}

// send resolves and submits a line: the notices, or the refusal.
func send(g *Game, by chess.Color, text string) ([]variant.Notice, error) {
	cmd, _, err := g.Resolve(by, text)
	if err != nil {
		return nil, err
	}
	return g.Submit(cmd)
}

func runCases(t *testing.T, rule string, cases []kcase) {
	t.Helper()
	for _, c := range cases {
		t.Run(rule+"/"+c.name, func(t *testing.T) {
			rules := Kriegspiel
			if c.prog {
				rules = Progressive
			}
			g := newGame(t, rules, c.fen)
			last := len(c.lines) - 1
			for _, l := range c.lines[:last] {
				by, text := sideOf(g, l)
				varianttest.Send(t, g, by, text)
			}
			by, text := sideOf(g, c.lines[last])
			before := varianttest.Snapshot(g)
			ns, err := send(g, by, text)
			if c.refused != "" {
				if err == nil || !variant.IsRejection(err) || !strings.Contains(err.Error(), c.refused) {
					t.Fatalf("%v %q: %v, want a refusal with %q", by, text, err, c.refused)
				}
				if after := varianttest.Snapshot(g); after != before {
					t.Fatalf("the refusal changed the game:\n%s\n---\n%s", before, after)
				}
			} else {
				if err != nil {
					t.Fatalf("%v %q: %v", by, text, err)
				}
				if got := varianttest.TextsTo(ns, by, false); got != c.mine {
					t.Errorf("%v %q: the mover is told\n%q\nwant\n%q", by, text, got, c.mine)
				}
				if got := varianttest.TextsTo(ns, by.Other(), false); got != c.theirs {
					t.Errorf("%v %q: the opponent is told\n%q\nwant\n%q", by, text, got, c.theirs)
				}
			}
			if c.check != nil {
				c.check(t, g, ns)
			}
		})
	}
}

// stopped reports whether the notices end the reading of the mail.
func stopped(ns []variant.Notice) bool {
	for _, n := range ns {
		if n.Stop {
			return true
		}
	}
	return false
}

func viewHas(t *testing.T, g *Game, v variant.Viewer, want ...string) {
	t.Helper()
	d := g.View(v).Diagram()
	for _, w := range want {
		if !strings.Contains(d, w) {
			t.Errorf("view %d lacks %q:\n%s", v, w, d)
		}
	}
}

// KR-D1: every announcement goes to both in the same words, the number of failed attempts
// included; the text of an attempt is never sent to the opponent.
func TestKRD1AnnouncedToBoth(t *testing.T) {
	runCases(t, "KR-D1", []kcase{
		{name: "a No, to both; the mover is told which attempt it answers", lines: []string{"e4", "e5", "e4e5"},
			mine: "You tried e4-e5. White: No.", theirs: "White: No."},
		{name: "a move played, to both", lines: []string{"Nf3"},
			mine: "You played Ng1-f3. White has played.", theirs: "White has played."},
		{name: "each No counts, in both views", fen: "4k3/8/8/8/8/8/n7/R3K3 w - - 0 1", lines: []string{"Ra8", "Ra7"},
			mine: "You tried Ra1-a7. White: No.", theirs: "White: No.",
			check: func(t *testing.T, g *Game, _ []variant.Notice) {
				viewHas(t, g, variant.AsBlack, "- 1. White: No. No.")
				viewHas(t, g, variant.AsWhite, "- 1. White: No. No.")
			}},
		{name: "Any? and its answer, to both", lines: []string{"Any?"},
			mine: `White asks "Any?": No.`, theirs: `White asks "Any?": No.`},
	})
}

// KR-D2: an attempt no position of the opponent's men makes legal is "Impossible", to the
// mover alone, not announced, not counted; every other illegal attempt is a public "No".
func TestKRD2ImpossibleOrNo(t *testing.T) {
	nothingAnnounced := func(t *testing.T, g *Game, _ []variant.Notice) {
		if len(g.Log()) != 0 || len(g.events) != 0 {
			t.Errorf("an impossible attempt was logged: %v", g.Log())
		}
		viewHas(t, g, variant.AsBlack, "White to play move 1.")
		if d := g.View(variant.AsBlack).Diagram(); strings.Contains(d, "Announced") {
			t.Errorf("Black's view shows an announcement:\n%s", d)
		}
	}
	impossible := func(m string) string {
		return m + ": Impossible. No man of yours can make that move, wherever your opponent's men stand; nothing was announced."
	}
	runCases(t, "KR-D2", []kcase{
		{name: "a bishop moving like a knight", lines: []string{"Bf1-g3"}, mine: impossible("Bf1-g3"), check: nothingAnnounced},
		{name: "a path blocked by his own man", lines: []string{"Ra1-a3"}, mine: impossible("Ra1-a3"), check: nothingAnnounced},
		{name: "moving an enemy man", lines: []string{"e7e5"}, mine: impossible("e7e5"), check: nothingAnnounced},
		{name: "a knight that has no such move", lines: []string{"Nd4"}, mine: impossible("Nd4"), check: nothingAnnounced},
		{name: "castling after his king has moved", fen: "4k3/8/8/8/8/8/8/R3K2R w - - 0 1", lines: []string{"O-O"}, mine: impossible("O-O")},
		{name: "castling through an attacked square is possible: No", fen: "4kr2/8/8/8/8/8/8/R3K2R w K - 0 1", lines: []string{"O-O"},
			mine: "You tried O-O. White: No.", theirs: "White: No."},
		{name: "a pawn may always try its diagonals", lines: []string{"exd3"}, mine: "You tried e2-d3. White: No.", theirs: "White: No."},
		{name: "but not onto his own man", fen: "4k3/8/8/8/8/3P4/4P3/4K3 w - - 0 1", lines: []string{"exd3"}, mine: impossible("exd3")},
		{name: "a king stepping into check is possible: No", fen: "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1", lines: []string{"Kd1"},
			mine: "You tried Ke1-d1. White: No.", theirs: "White: No."},
		{name: "an Impossible attempt does not end a list", lines: []string{"Bf1-g3, Nf3"},
			mine: impossible("Bf1-g3") + "\nYou played Ng1-f3. White has played.", theirs: "White has played."},
		{name: "an Impossible line does not stop the mail", lines: []string{"Bf1-g3"}, mine: impossible("Bf1-g3"),
			check: func(t *testing.T, g *Game, ns []variant.Notice) {
				if stopped(ns) {
					t.Error("an Impossible attempt stops the reading of the mail")
				}
			}},
		{name: "ambiguity is judged from his own men: refused, nothing said", fen: "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1",
			lines: []string{"Nd2"}, refused: "ambiguous: Nb1-d2 or Nf3-d2"},
		{name: "a promotion names its piece", fen: "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", lines: []string{"b8"}, refused: "say which piece"},
	})
}

// KR-D3: "Any?" is answered Try, No, or Nonsense without pawns, to both; by the player to
// move, once a turn.
func TestKRD3Any(t *testing.T) {
	runCases(t, "KR-D3", []kcase{
		{name: "no pawns: Nonsense, to both", fen: "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", lines: []string{"Any?"},
			mine: `White asks "Any?": Nonsense.`, theirs: `White asks "Any?": Nonsense.`},
		{name: "a pawn capture: Try", lines: []string{"e4", "d5", "ANY?"},
			mine: `White asks "Any?": Try.`, theirs: `White asks "Any?": Try.`},
		{name: "none: No", lines: []string{"e4", "any"},
			mine: `Black asks "Any?": No.`, theirs: `Black asks "Any?": No.`},
		{name: "only the player to move asks", lines: []string{"b: Any?"}, refused: "it is White's move"},
		{name: "once a turn", lines: []string{"Any?", "Any?"}, refused: "asked Any? this turn already"},
		{name: "again the next turn", lines: []string{"Any?", "e4", "Any?", "e5", "Any?"},
			mine: `White asks "Any?": No.`, theirs: `White asks "Any?": No.`},
	})
}

// KR-D4: after "Try", the next announced attempt must be a pawn capture; another is refused
// privately and nothing is announced. After one pawn capture attempt, legal or not, he is
// free.
func TestKRD4AfterTry(t *testing.T) {
	runCases(t, "KR-D4", []kcase{
		{name: "a non-pawn-capture is refused", lines: []string{"e4", "d5", "Any?", "Nf3"}, refused: "must be a pawn capture"},
		{name: "a pawn push is not a pawn capture", lines: []string{"e4", "d5", "Any?", "d4"}, refused: "must be a pawn capture"},
		{name: "after a pawn capture attempt answered No, free", lines: []string{"e4", "d5", "Any?", "exf5", "Nf3"},
			mine: "You played Ng1-f3. White has played.", theirs: "White has played."},
		{name: "the pawn capture itself", lines: []string{"e4", "d5", "Any?", "exd5"},
			mine: "You played e4-d5. White has played and captured on d5.", theirs: "White has played and captured on d5."},
		{name: "an impossible pawn capture does not count", lines: []string{"e4", "d5", "Nc3", "Nf6", "Any?", "bxc3", "Nf3"},
			refused: "must be a pawn capture"},
		{name: "the view says so to the mover", lines: []string{"e4", "d5", "Any?"},
			mine: `White asks "Any?": Try.`, theirs: `White asks "Any?": Try.`,
			check: func(t *testing.T, g *Game, _ []variant.Notice) {
				viewHas(t, g, variant.AsWhite, "your next attempt must be a pawn capture")
			}},
	})
}

// KR-D5: an e.p. capture is announced by the square of the pawn captured, as en passant.
func TestKRD5EnPassant(t *testing.T) {
	runCases(t, "KR-D5", []kcase{
		{name: "announced on the pawn's square", lines: []string{"e4", "a6", "e5", "d5", "exd6"},
			mine: "You played e5-d6. White has played and captured on d5 (en passant).", theirs: "White has played and captured on d5 (en passant).",
			check: func(t *testing.T, g *Game, _ []variant.Notice) {
				a := g.Announcements()[4]
				if a.Captured != "d5" || !a.EnPassant {
					t.Errorf("announcement %+v", a)
				}
			}},
		{name: "Any? counts it", lines: []string{"e4", "a6", "e5", "d5", "Any?"},
			mine: `White asks "Any?": Try.`, theirs: `White asks "Any?": Try.`},
		{name: "only right after the double step", lines: []string{"e4", "d5", "e5", "a6", "exd6"},
			mine: "You tried e5-d6. White: No.", theirs: "White: No."},
	})
}

// KR-D6: checks by direction, each checking man apart; a pawn checks along its diagonal;
// long and short are the diagonals through the king's square.
func TestKRD6CheckDirections(t *testing.T) {
	runCases(t, "KR-D6", []kcase{
		{name: "on the rank", fen: "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", lines: []string{"Ra8"},
			mine: "You played Ra1-a8. White has played; check on the rank.", theirs: "White has played; check on the rank."},
		{name: "on the file", fen: "3k4/8/8/8/8/8/8/R3K3 w - - 0 1", lines: []string{"Rd1"},
			mine: "You played Ra1-d1. White has played; check on the file.", theirs: "White has played; check on the file."},
		{name: "by a knight", fen: "4k3/7p/8/8/4N3/8/8/4K3 w - - 0 1", lines: []string{"Nf6"},
			mine: "You played Ne4-f6. White has played; check by a knight.", theirs: "White has played; check by a knight."},
		{name: "a pawn on the long diagonal", fen: "4k3/8/3P4/8/8/8/8/4K3 w - - 0 1", lines: []string{"d7"},
			mine: "You played d6-d7. White has played; check on the long diagonal.", theirs: "White has played; check on the long diagonal."},
		{name: "a pawn on the short diagonal", fen: "4k3/8/5P2/8/8/8/8/4K3 w - - 0 1", lines: []string{"f7"},
			mine: "You played f6-f7. White has played; check on the short diagonal.", theirs: "White has played; check on the short diagonal."},
		{name: "a double check gives both", fen: "4k3/8/8/8/8/8/4B3/K3R3 w - - 0 1", lines: []string{"Bb5"},
			mine: "You played Be2-b5. White has played; check on the file and on the long diagonal.", theirs: "White has played; check on the file and on the long diagonal.",
			check: func(t *testing.T, g *Game, _ []variant.Notice) {
				if c := g.Announcements()[0].Checks; strings.Join(c, ",") != "file,long diagonal" {
					t.Errorf("checks %q", c)
				}
			}},
		{name: "a knight and a discovered rank", fen: "R2N1k2/8/8/8/8/8/8/4K3 w - - 0 1", lines: []string{"Ne6"},
			mine: "You played Nd8-e6. White has played; check on the rank and by a knight.", theirs: "White has played; check on the rank and by a knight."},
	})
	// The two diagonals through every square differ in length; long is the longer one.
	for s := chess.Square(0); s < 64; s++ {
		f, r := s.File(), s.Rank()
		if 8-abs(f-r) == 8-abs(f+r-7) {
			t.Errorf("%v: both diagonals have one length", s)
		}
	}
}

// KR-D7: a promotion's piece is not announced.
func TestKRD7Promotion(t *testing.T) {
	runCases(t, "KR-D7", []kcase{
		{name: "the piece only to the mover", fen: "4k3/1P5p/8/8/8/8/8/4K3 w - - 0 1", lines: []string{"b7b8n"},
			mine: "You played b7-b8=N. White has played.", theirs: "White has played.",
			check: func(t *testing.T, g *Game, _ []variant.Notice) {
				if d := g.View(variant.AsBlack).Diagram(); strings.Contains(d, "=N") || strings.Contains(d, "knight") {
					t.Errorf("Black's view names the piece:\n%s", d)
				}
			}},
		{name: "with its check", fen: "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", lines: []string{"b8=Q"},
			mine: "You played b7-b8=Q. White has played; check on the rank.", theirs: "White has played; check on the rank."},
	})
}

// KR-D8: the umpire declares the draws: 50 moves, threefold repetition on his board, dead
// positions, stalemate.
func TestKRD8Draws(t *testing.T) {
	drawn := func(termination string) func(*testing.T, *Game, []variant.Notice) {
		return func(t *testing.T, g *Game, _ []variant.Notice) {
			if o := g.Outcome(); o.Result != variant.Draw || o.Termination != termination {
				t.Errorf("outcome %+v, want a draw by %s", o, termination)
			}
		}
	}
	runCases(t, "KR-D8", []kcase{
		{name: "fifty moves", fen: "4k3/8/8/8/8/8/8/R3K3 w - - 99 80", lines: []string{"Ra2"},
			mine:   "You played Ra1-a2. White has played.\n50 moves by each side without a capture or a pawn move.",
			theirs: "White has played.\n50 moves by each side without a capture or a pawn move.", check: drawn("fifty-move rule")},
		{name: "threefold repetition", lines: []string{"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"},
			mine:   "You played Nf6-g8. Black has played.\nThe same position on the umpire's board three times.",
			theirs: "Black has played.\nThe same position on the umpire's board three times.", check: drawn("threefold repetition")},
		// The position after f2-f4 counts as its repeats do: exf3 e.p. is illegal (e4 is pinned
		// against Kh7 by Bb1), so the right gives nothing (FIDE 9.2.3, rules.md 0.2).
		{name: "threefold repetition after a double step no pawn may take", fen: "1n6/7k/8/8/4p3/8/5P2/1B2K1N1 w - - 0 1",
			lines:  []string{"f2f4", "Nc6", "Nh3", "Nb8", "Ng1", "Nc6", "Nh3", "Nb8", "Ng1"},
			mine:   "You played Nh3-g1. White has played.\nThe same position on the umpire's board three times.",
			theirs: "White has played.\nThe same position on the umpire's board three times.", check: drawn("threefold repetition")},
		{name: "dead position", fen: "4k3/8/8/8/8/8/3p4/4K2B w - - 0 1", lines: []string{"Kxd2"},
			mine:   "You played Ke1-d2. White has played and captured on d2.\nNeither side has the men to mate.",
			theirs: "White has played and captured on d2.\nNeither side has the men to mate.", check: drawn("insufficient material")},
		{name: "stalemate", fen: "k7/8/8/1Q6/8/8/8/K7 w - - 0 1", lines: []string{"Qb6"},
			mine:   "You played Qb5-b6. White has played; stalemate.\nBlack is stalemated.",
			theirs: "White has played; stalemate.\nBlack is stalemated.", check: drawn("stalemate")},
		{name: "checkmate is announced", fen: "6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1", lines: []string{"Ra8"},
			mine:   "You played Ra1-a8. White has played; check on the rank; checkmate.\nWhite checkmated Black.",
			theirs: "White has played; check on the rank; checkmate.\nWhite checkmated Black."},
	})
}

// KR-D9: a list of attempts is tried in order until one is played; each failure is a "No",
// the rest is not tried, and the reading of the mail stops. "Any?" may come first.
func TestKRD9Lists(t *testing.T) {
	runCases(t, "KR-D9", []kcase{
		{name: "in order until one is played", lines: []string{"e4", "d5", "try exf5; else e5; else Nf3"},
			mine:   "You tried e4-f5. White: No.\nYou played e4-e5. White has played.\nNot tried, since your move was played: Nf3.",
			theirs: "White: No.\nWhite has played.",
			check: func(t *testing.T, g *Game, ns []variant.Notice) {
				if !stopped(ns) {
					t.Error("the reading of the mail goes on after the move played")
				}
			}},
		{name: "Any? first", lines: []string{"e4", "d5", "Any?, exf5, e5"},
			mine:   "White asks \"Any?\": Try.\nYou tried e4-f5. White: No.\nYou played e4-e5. White has played.",
			theirs: "White asks \"Any?\": Try.\nWhite: No.\nWhite has played."},
		{name: "Any? only first", lines: []string{"e5, Any?"}, refused: "Any? may come only first"},
		{name: "a list after Try stops at its first non-capture, privately", lines: []string{"e4", "d5", "Any?; Nf3; exd5"},
			mine:   "White asks \"Any?\": Try.\nNf3 was not tried: the answer to Any? was Try: your next attempt must be a pawn capture. Nor was the rest of your list: exd5.",
			theirs: "White asks \"Any?\": Try.",
			check: func(t *testing.T, g *Game, ns []variant.Notice) {
				if !stopped(ns) {
					t.Error("the reading of the mail goes on")
				}
			}},
		{name: "one attempt a line: a No goes on", lines: []string{"e4", "e5", "e4e5"},
			mine: "You tried e4-e5. White: No.", theirs: "White: No.",
			check: func(t *testing.T, g *Game, ns []variant.Notice) {
				if stopped(ns) {
					t.Error("a No stops the reading of the mail")
				}
			}},
		{name: "one attempt a line: a move played stops", lines: []string{"e4"},
			mine: "You played e2-e4. White has played.", theirs: "White has played.",
			check: func(t *testing.T, g *Game, ns []variant.Notice) {
				if !stopped(ns) {
					t.Error("the reading of the mail goes on after the move played")
				}
			}},
		{name: "no NOSTOP in Kriegspiel", lines: []string{"NOSTOP e4, d4"}, refused: "NOSTOP is for Progressive Kriegspiel"},
	})
}

// PK-D1: after each successful move both players are told whether the player who moves
// next (the mover in mid-series, his opponent after it) has a pawn capture, e.p. included.
func TestPKD1PawnTries(t *testing.T) {
	runCases(t, "PK-D1", []kcase{
		{name: "after the first move, for Black", prog: true, lines: []string{"e4"},
			mine: "You played e2-e4. White has played (move 1 of 1). Pawn tries for Black: no.", theirs: "White has played (move 1 of 1). Pawn tries for Black: no."},
		{name: "in mid-series, for the mover", prog: true, lines: []string{"e4", "d5"},
			mine: "You played d7-d5. Black has played (move 1 of 2). Pawn tries for Black: yes.", theirs: "Black has played (move 1 of 2). Pawn tries for Black: yes."},
		{name: "after the series, for the opponent", prog: true, lines: []string{"e4", "NOSTOP d5, Nc6"},
			mine:   "You played d7-d5. Black has played (move 1 of 2). Pawn tries for Black: yes.\nYou played Nb8-c6. Black has played (move 2 of 2). Pawn tries for White: yes.",
			theirs: "Black has played (move 1 of 2). Pawn tries for Black: yes.\nBlack has played (move 2 of 2). Pawn tries for White: yes."},
		{name: "none after the move that ends the game", prog: true, fen: "6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1", lines: []string{"Ra8"},
			mine:   "You played Ra1-a8. White has played (move 1 of 1); check on the rank; checkmate.\nWhite checkmated Black.",
			theirs: "White has played (move 1 of 1); check on the rank; checkmate.\nWhite checkmated Black.",
			check: func(t *testing.T, g *Game, _ []variant.Notice) {
				if a := g.Announcements(); a[0].PawnTries != nil {
					t.Errorf("pawn tries %v after the mate", *a[0].PawnTries)
				}
			}},
		{name: "Kriegspiel announces none", lines: []string{"e4"},
			check: func(t *testing.T, g *Game, _ []variant.Notice) {
				if a := g.Announcements(); a[0].PawnTries != nil {
					t.Error("pawn tries in Kriegspiel")
				}
			}, mine: "You played e2-e4. White has played.", theirs: "White has played."},
	})
}

// PK-D2: no "Any?" in Progressive Kriegspiel, and so no obligation.
func TestPKD2NoAny(t *testing.T) {
	runCases(t, "PK-D2", []kcase{
		{name: "refused", prog: true, lines: []string{"Any?"}, refused: "no Any? in Progressive Kriegspiel"},
		{name: "refused in a list", prog: true, lines: []string{"Any?, e4"}, refused: "no Any? in Progressive Kriegspiel"},
	})
}

// PK-D3: failed attempts do not use up moves of the series; each success is "move k of n".
func TestPKD3AttemptsDoNotCount(t *testing.T) {
	runCases(t, "PK-D3", []kcase{
		{name: "a No, then the second move of two", prog: true, lines: []string{"e4", "e5", "exd4", "Nc6"},
			mine: "You played Nb8-c6. Black has played (move 2 of 2). Pawn tries for White: no.", theirs: "Black has played (move 2 of 2). Pawn tries for White: no.",
			check: func(t *testing.T, g *Game, _ []variant.Notice) {
				if n := g.TurnName(chess.White); n != "series 3" { // issue 33: a series not begun is named short
					t.Errorf("White's turn is %q", n)
				}
			}},
		{name: "the turn still waits for the move", prog: true, lines: []string{"e4", "e5", "exd4"},
			mine: "You tried e5-d4. Black: No.", theirs: "Black: No.",
			check: func(t *testing.T, g *Game, _ []variant.Notice) {
				if n := g.TurnName(chess.Black); n != "series 2, move 2 of 2" {
					t.Errorf("Black's turn is %q", n)
				}
				viewHas(t, g, variant.AsWhite, "Black to play series 2: move 2 of 2.", "- Series 2, Black: Played (move 1 of 2), pawn tries for Black: no. No.")
			}},
	})
}

// PK-D4: running out of legal moves in mid-series is stalemate, a draw at once; so is having
// none at the series' start, unless in check (mate).
func TestPKD4Stalemate(t *testing.T) {
	runCases(t, "PK-D4", []kcase{
		{name: "in mid-series", prog: true, fen: "7k/5K2/5N2/8/p7/8/P7/8 b - - 0 1", lines: []string{"a3"},
			mine:   "You played a4-a3. Black has played (move 1 of 2); stalemate.\nBlack has no move left in series 2.",
			theirs: "Black has played (move 1 of 2); stalemate.\nBlack has no move left in series 2.",
			check: func(t *testing.T, g *Game, _ []variant.Notice) {
				if o := g.Outcome(); o.Result != variant.Draw || o.Termination != "stalemate" {
					t.Errorf("outcome %+v", o)
				}
			}},
	})
	g := newGame(t, Progressive, "k7/8/1Q6/8/8/8/8/K7 b - - 0 1")
	if o := g.Outcome(); o.Termination != "stalemate" {
		t.Errorf("PK-D4 at the start of a series: %+v", o)
	}
}

// PK-D5: e.p. only with the first move of a series, against the opponent's double steps of
// his last series; the pawn-try announcement counts it.
func TestPKD5EnPassant(t *testing.T) {
	const fen = "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1"
	runCases(t, "PK-D5", []kcase{
		{name: "the double step gives White a pawn try", prog: true, fen: fen, lines: []string{"d5", "Kf7"},
			mine: "You played Ke8-f7. Black has played (move 2 of 2). Pawn tries for White: yes.", theirs: "Black has played (move 2 of 2). Pawn tries for White: yes."},
		{name: "first move: captured on d5, en passant", prog: true, fen: fen, lines: []string{"d5", "Kf7", "exd6"},
			mine: "You played e5-d6. White has played (move 1 of 3) and captured on d5 (en passant). Pawn tries for White: no.", theirs: "White has played (move 1 of 3) and captured on d5 (en passant). Pawn tries for White: no."},
		{name: "not with the second", prog: true, fen: fen, lines: []string{"d5", "Kf7", "Kd2", "exd6"},
			mine: "You tried e5-d6. White: No.", theirs: "White: No."},
		{name: "after the first move the try is gone", prog: true, fen: fen, lines: []string{"d5", "Kf7", "Kd2"},
			mine: "You played Ke1-d2. White has played (move 1 of 3). Pawn tries for White: no.", theirs: "White has played (move 1 of 3). Pawn tries for White: no."},
		{name: "not a pawn that moved again", prog: true, fen: "4k3/3p4/8/8/4P3/8/8/4K3 b - - 0 1", lines: []string{"d5", "d4", "e4e5", "Kd2", "exd6"},
			mine: "You tried e5-d6. White: No.", theirs: "White: No."},
	})
}

// PK-D6: a list stops at the first No, capture, check or "pawn tries: yes"; NOSTOP goes on
// past all but a No.
func TestPKD6Lists(t *testing.T) {
	runCases(t, "PK-D6", []kcase{
		{name: "stops at pawn tries: yes", prog: true, lines: []string{"e4", "d5, Nc6"},
			mine:   "You played d7-d5. Black has played (move 1 of 2). Pawn tries for Black: yes.\nNot tried, since I stop when you have pawn tries unless you write NOSTOP: Nc6.",
			theirs: "Black has played (move 1 of 2). Pawn tries for Black: yes.",
			check: func(t *testing.T, g *Game, ns []variant.Notice) {
				if !stopped(ns) {
					t.Error("the reading of the mail goes on")
				}
			}},
		{name: "NOSTOP goes past them, not past a No", prog: true, lines: []string{"e4", "NOSTOP d5, dxc4, Nc6"},
			mine:   "You played d7-d5. Black has played (move 1 of 2). Pawn tries for Black: yes.\nYou tried d5-c4. Black: No.\nNot tried, since I stop at a No: Nc6.",
			theirs: "Black has played (move 1 of 2). Pawn tries for Black: yes.\nBlack: No."},
		{name: "stops at a capture", prog: true, lines: []string{"e4", "NOSTOP d5, Nc6", "exd5, Nf3, Bb5"},
			mine:   "You played e4-d5. White has played (move 1 of 3) and captured on d5. Pawn tries for White: yes.\nNot tried, since I stop after a capture unless you write NOSTOP: Nf3, Bb5.",
			theirs: "White has played (move 1 of 3) and captured on d5. Pawn tries for White: yes."},
		{name: "NOSTOP goes past a capture", prog: true, lines: []string{"e4", "NOSTOP d5, Nc6", "NOSTOP exd5, Nf3, Bb5"},
			mine: "You played e4-d5. White has played (move 1 of 3) and captured on d5. Pawn tries for White: yes.\n" +
				"You played Ng1-f3. White has played (move 2 of 3). Pawn tries for White: yes.\n" +
				"You played Bf1-b5. White has played (move 3 of 3). Pawn tries for Black: no.",
			theirs: "White has played (move 1 of 3) and captured on d5. Pawn tries for White: yes.\n" +
				"White has played (move 2 of 3). Pawn tries for White: yes.\nWhite has played (move 3 of 3). Pawn tries for Black: no."},
		{name: "a check ends the series and the list", prog: true, fen: "r3k3/8/8/8/8/8/8/4K3 b - - 0 1", lines: []string{"NOSTOP Ra1, Kd7"},
			mine:   "You played Ra8-a1. Black has played (move 1 of 2); check on the rank. Pawn tries for White: no.\nNot tried, since your check ended the series: Kd7.",
			theirs: "Black has played (move 1 of 2); check on the rank. Pawn tries for White: no.",
			check: func(t *testing.T, g *Game, _ []variant.Notice) {
				if n := g.TurnName(chess.White); n != "series 3" { // issue 33: a series not begun is named short
					t.Errorf("White's turn is %q", n)
				}
			}},
		{name: "one attempt a line: a No stops", prog: true, lines: []string{"e4", "e5", "exd4"},
			mine: "You tried e5-d4. Black: No.", theirs: "Black: No.",
			check: func(t *testing.T, g *Game, ns []variant.Notice) {
				if !stopped(ns) {
					t.Error("a No does not stop the reading of the mail")
				}
			}},
		{name: "one attempt a line: a quiet move goes on", prog: true, lines: []string{"e4", "e5"},
			mine: "You played e7-e5. Black has played (move 1 of 2). Pawn tries for Black: no.", theirs: "Black has played (move 1 of 2). Pawn tries for Black: no.",
			check: func(t *testing.T, g *Game, ns []variant.Notice) {
				if stopped(ns) {
					t.Error("a quiet move stops the reading of the mail")
				}
			}},
		{name: "NOSTOP comes first", prog: true, lines: []string{"e4 NOSTOP"}, refused: "NOSTOP comes before"},
		// Issue 33: NOSTOP alone is told what it needs, and Progressive Kriegspiel offers no Any?.
		{name: "NOSTOP alone", prog: true, lines: []string{"NOSTOP"}, refused: "NOSTOP plays nothing by itself: write it first on the line of the attempts it applies to, like NOSTOP e4, d4, Nf3"},
		{name: "no attempt, no Any? offered", prog: true, lines: []string{"e4", "then"}, refused: "no attempt: send a move like e2e4 or Nf3, or a list of them, like e4, d4, Nf3"},
		{name: "not an attempt, no Any? offered", prog: true, lines: []string{"e4", "Zz9"}, refused: "or a list of them, like e4, d4, Nf3"},
	})
}

// PK-D7: Progressive Chess's draws: stalemate, a dead position at once (also in
// mid-series), 10 series without a capture or a pawn move; no 50-move rule, no repetition.
func TestPKD7Draws(t *testing.T) {
	runCases(t, "PK-D7", []kcase{
		{name: "no fifty-move rule", prog: true, fen: "4k3/8/8/8/8/8/8/R3K3 w - - 99 80", lines: []string{"Ra2"},
			mine: "You played Ra1-a2. White has played (move 1 of 1). Pawn tries for Black: no.", theirs: "White has played (move 1 of 1). Pawn tries for Black: no."},
		{name: "a dead position in mid-series", prog: true, fen: "4k3/8/8/8/8/8/6P1/K6b b - - 0 1", lines: []string{"Bxg2"},
			mine:   "You played Bh1-g2. Black has played (move 1 of 2) and captured on g2.\nNeither side has the men to mate.",
			theirs: "Black has played (move 1 of 2) and captured on g2.\nNeither side has the men to mate."},
	})
	// Ten series of knight moves: the same positions again and again, no draw by repetition;
	// the tenth ends the game.
	g := newGame(t, Progressive, "")
	hop := map[chess.Color][2]string{chess.White: {"Ng1-f3", "Nf3-g1"}, chess.Black: {"Ng8-f6", "Nf6-g8"}}
	at := map[chess.Color]int{}
	for series := 1; series <= 10; series++ {
		if g.Outcome().Over() {
			t.Fatalf("PK-D7: over before series %d: %+v", series, g.Outcome())
		}
		by := g.pos.Turn
		for k := 0; k < series; k++ {
			varianttest.Send(t, g, by, hop[by][at[by]%2])
			at[by]++
		}
	}
	if o := g.Outcome(); o.Termination != "ten-series rule" {
		t.Errorf("PK-D7: after ten quiet series: %+v", o)
	}
}

// rules.md §5.1: a check ends the series, however many moves are left (the next series has
// its full length); a checking move that leaves no reply mates.
func TestPKCheckEndsTheSeries(t *testing.T) {
	g := newGame(t, Progressive, "r3k3/8/8/8/8/8/8/4K3 b - - 0 1")
	varianttest.Send(t, g, chess.Black, "Ra1")
	if g.pos.Turn != chess.White || g.series != 3 {
		t.Fatalf("after a check in move 1 of 2: %v to play series %d", g.pos.Turn, g.series)
	}
	viewHas(t, g, variant.AsWhite, "White is in check on the rank.")
	varianttest.Send(t, g, chess.White, "Kd2") // out of check, move 1 of 3
	varianttest.Refuse(t, g, chess.Black, "Ra2", "series 3 is White's")
}
