package referee

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/variant"
)

// TestMailNoninterference: two games differ only in what White may not know — Black's pending
// moves against his rollbacks, his refused attempts, his private queries — and every mail
// White receives is byte-identical (design.md: Noninterference, at the mail level). Batches
// are left out on purpose: a batch line is played at once, so the opponent's next prompt
// comes sooner; that is the speed of the mail, not the state of the game (TX-D12).
func TestMailNoninterference(t *testing.T) {
	type step struct {
		side   chess.Color
		worldA []string // mails (bodies) sent in world a
		worldB []string
	}
	steps := []step{
		{W, []string{"e4"}, []string{"e4"}},
		{B, []string{"Nc6"}, []string{"Qxe4\nZz9", "VIEW\nHISTORY", "Nf6 (R)"}},
		{W, []string{"d4"}, []string{"d4"}},
		{B, []string{"Nb4"}, []string{"h6"}},
		{W, []string{"Nc3"}, []string{"Nc3"}},
		{B, []string{"Nc6 (R)"}, []string{"h5 (R)\nBOARD"}},
		{W, []string{"Nf3"}, []string{"Nf3"}},
		{B, []string{"e5 (C)"}, []string{"EP? e4", "e5 (C)"}},   // both commit the same men
		{W, []string{"PGN\nHISTORY"}, []string{"PGN\nHISTORY"}}, // what White knows, attached
	}
	a, b := newHarness(t), newHarness(t)
	blackDiffered := false
	ida, idb := a.newGame("transactional"), b.newGame("transactional")
	for i, s := range steps {
		for _, body := range s.worldA {
			a.deliver(a.reply(ida, s.side, body))
		}
		for _, body := range s.worldB {
			b.deliver(b.reply(idb, s.side, body))
		}
		ma, mb := a.outbox(), b.outbox()
		if bodyTo(t, ma[len(ma)-1:], bob) != bodyTo(t, mb[len(mb)-1:], bob) {
			blackDiffered = true
		}
		var toA, toB [][]byte
		for _, m := range ma {
			if m.To[0] == ann {
				toA = append(toA, m.Raw)
			}
		}
		for _, m := range mb {
			if m.To[0] == ann {
				toB = append(toB, m.Raw)
			}
		}
		if len(toA) != len(toB) {
			t.Fatalf("step %d: White got %d mails in world a, %d in world b", i, len(toA), len(toB))
		}
		for j := range toA {
			if !bytes.Equal(toA[j], toB[j]) {
				t.Fatalf("step %d: White's mail differs\n--- a\n%s\n--- b\n%s", i, toA[j], toB[j])
			}
		}
	}
	if !blackDiffered {
		t.Fatal("Black's own mails were the same in both worlds: the test varied nothing")
	}
}

// TestClockNoninterference: in a game with a time control, the clocks White is shown do not
// depend on what Black does in private or when: pending moves, rollbacks, questions and
// refused lines sent on other days than in the other world, with the same commits at the
// same moments, give White byte-identical mail (issue 16: a clock never reveals when the
// opponent made a private query or a hidden move).
func TestClockNoninterference(t *testing.T) {
	type step struct {
		side         chess.Color
		after        time.Duration // the store's clock moves this much first, in both worlds
		worldA       []string
		worldB       []string
		deadlineRuns bool
	}
	steps := []step{
		{W, day + time.Hour, []string{"e4"}, []string{"e4"}, true},
		{B, 5 * time.Hour, []string{"VIEW"}, []string{"Qxe4\nZz9"}, true},
		{B, day, []string{"Nc6 (R)"}, []string{"Nf6 (R)"}, true},
		{W, 2 * day, []string{"d4 (C)"}, []string{"d4 (C)"}, true},
		{B, 20 * time.Hour, []string{"BOARD"}, []string{"HISTORY", "EP? d4"}, true},
		{B, day, []string{"a6 (R)"}, []string{"h6 (R)"}, true},
		{W, 3 * day, []string{"Nf3"}, []string{"Nf3"}, true},
		{B, 2 * day, []string{"HISTORY"}, nil, true},
		{B, 2 * day, []string{"e5 (C)"}, []string{"e5 (C)"}, true},
		{W, 2*day + 13*time.Hour, nil, nil, true}, // White's reminder: 4 days left, the flag 5 days on, the reminder 2.5 days before
	}
	a, b := newHarness(t), newHarness(t)
	ida, idb := a.timedGame("transactional", "7d+1d"), b.timedGame("transactional", "7d+1d")
	blackDiffered, reminded := false, false
	for i, s := range steps {
		a.now, b.now = a.now.Add(s.after), b.now.Add(s.after)
		for _, body := range s.worldA {
			a.deliver(a.reply(ida, s.side, body))
		}
		for _, body := range s.worldB {
			b.deliver(b.reply(idb, s.side, body))
		}
		if s.deadlineRuns {
			a.deadlines()
			b.deadlines()
		}
		ma, mb := a.outbox(), b.outbox()
		var toA, toB [][]byte
		var blackA, blackB []string
		for _, m := range ma {
			if m.To[0] == ann {
				toA = append(toA, m.Raw)
				reminded = reminded || m.Kind == "reminder"
			} else {
				blackA = append(blackA, string(m.Raw))
			}
		}
		for _, m := range mb {
			if m.To[0] == ann {
				toB = append(toB, m.Raw)
			} else {
				blackB = append(blackB, string(m.Raw))
			}
		}
		if strings.Join(blackA, "") != strings.Join(blackB, "") || len(ma) != len(mb) {
			blackDiffered = true
		}
		if len(toA) != len(toB) {
			t.Fatalf("step %d: White got %d mails in world a, %d in world b", i, len(toA), len(toB))
		}
		for j := range toA {
			if !bytes.Equal(toA[j], toB[j]) {
				t.Fatalf("step %d: White's mail differs\n--- a\n%s\n--- b\n%s", i, toA[j], toB[j])
			}
			if !strings.Contains(string(toA[j]), "(7d+1d") { // the clocks' paragraph, in any language
				t.Fatalf("step %d: White's mail shows no clocks:\n%s", i, toA[j])
			}
		}
	}
	if !blackDiffered {
		t.Fatal("Black's own mails were the same in both worlds: the test varied nothing")
	}
	if !reminded {
		t.Fatal("White was never reminded: the clocks were not put to the test")
	}
}

// TestFogMailNoninterference: the fog leaks found by twin games (rules.md PS-D9), by mail.
// White's knight is taken by a bishop in one world and by a rook in the other, neither in his
// sight; in the other pair Black's unseen bishop move freezes White's other knight or not.
// Every mail White receives, his answers to HISTORY, BOARD, HELP, CONTROL and PGN included
// (and the game so far under his board), is byte-identical in the twins.
func TestFogMailNoninterference(t *testing.T) {
	fog := map[string]string{"fog": "true"}
	for _, c := range []struct {
		name, fen string
	}{
		{name: "capture", fen: "4r2b/8/8/4N3/8/7k/8/K7 w - - 0 1"},
		{name: "frozen", fen: "5r1k/1b6/8/7K/8/8/8/1N3N2 w - - 0 1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			type step struct {
				side chess.Color
				a, b string
			}
			steps := map[string][]step{
				"capture": {{W, "Ka2", "Ka2"}, {B, "Bxe5", "Rxe5"}, {W, "HISTORY\nBOARD\nHELP\nCONTROL", "HISTORY\nBOARD\nHELP\nCONTROL"}, {W, "Kb1", "Kb1"}, {W, "PGN", "PGN"}},
				"frozen":  {{W, "Kh4", "Kh4"}, {B, "Ba6", "Bc8"}, {W, "MOVE b1d2\nHISTORY", "MOVE b1d2\nHISTORY"}, {B, "Kg8", "Kg8"}, {W, "HISTORY\nBOARD\nNd2", "HISTORY\nBOARD\nNd2"}, {W, "PGN", "PGN"}},
			}[c.name]
			a, b := newHarness(t), newHarness(t)
			ida, err := a.ref.NewGame("synchronous", ann, bob, variant.Options{FEN: c.fen, Flags: fog})
			if err != nil {
				t.Fatal(err)
			}
			idb, _ := b.ref.NewGame("synchronous", ann, bob, variant.Options{FEN: c.fen, Flags: fog})
			a.outbox()
			b.outbox()
			blackDiffered := false
			for i, s := range steps {
				a.deliver(a.reply(ida, s.side, s.a))
				b.deliver(b.reply(idb, s.side, s.b))
				ma, mb := a.outbox(), b.outbox()
				if fmt.Sprint(rawTo(ma, bob)) != fmt.Sprint(rawTo(mb, bob)) {
					blackDiffered = true
				}
				wa, wb := rawTo(ma, ann), rawTo(mb, ann)
				if len(wa) != len(wb) {
					t.Fatalf("step %d: White got %d mails in world a, %d in world b", i, len(wa), len(wb))
				}
				for j := range wa {
					if !bytes.Equal(wa[j], wb[j]) {
						t.Fatalf("step %d: White's mail differs\n--- a\n%s\n--- b\n%s", i, wa[j], wb[j])
					}
					if s.side == W && strings.Contains(s.a, "HISTORY") && !strings.Contains(string(wa[j]), "Turn 1 was played") {
						t.Fatalf("step %d: no history in White's answer:\n%s", i, wa[j])
					}
				}
			}
			if !blackDiffered {
				t.Fatal("Black's own mails were the same in both worlds: the test varied nothing")
			}
		})
	}
}

// rawTo is the raw mails to addr among mails.
func rawTo(mails []store.OutMail, addr string) [][]byte {
	var out [][]byte
	for _, m := range mails {
		if m.To[0] == addr {
			out = append(out, m.Raw)
		}
	}
	return out
}

// TestStartNoninterference: twin games of every game whose start position shows White less
// than the whole board, started with --fen from positions that differ only in Black's men
// out of White's sight. Every mail White receives, the opening mail, the answers to his
// queries and the PGN attached to one of them included, is byte-identical in the twins
// (issue 33: the PGN attachment carried the whole start position in its FEN tag).
func TestStartNoninterference(t *testing.T) {
	// Black's men on his back rank, behind his pawns: out of sight of White's men under fog,
	// unseen in Kriegspiel. The worlds differ by a knight on b8 and a rook on h8.
	const fenA = "4k3/pppppppp/8/8/8/8/PPPPPPPP/R3K3 w - - 0 1"
	const fenB = "1n2k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K3 w - - 0 1"
	type game struct {
		key   string
		flags map[string]string
	}
	var games []game
	for _, k := range variant.Keys() {
		games = append(games, game{key: k})
	}
	games = append(games, game{key: "synchronous", flags: map[string]string{"fog": "true"}})
	moves := map[string][2]string{ // a first move each, where the game takes "e4" and "e5"
		"kriegspiel": {"e2e4", "e7e5"}, "progressive-kriegspiel": {"e2e4", "e7e5"}, "synchronous": {"e4", "e5"},
	}
	hidden := 0
	for _, gm := range games {
		v := variant.MustLookup(gm.key)
		ga, errA := v.New(variant.Options{FEN: fenA, Flags: gm.flags})
		gb, errB := v.New(variant.Options{FEN: fenB, Flags: gm.flags})
		if errA != nil || errB != nil {
			continue // a game that takes no such start position
		}
		if fmt.Sprint(ga.View(variant.AsWhite)) != fmt.Sprint(gb.View(variant.AsWhite)) {
			continue // White sees Black's men at the start: the twins may differ for him
		}
		hidden++
		t.Run(gm.key+map[bool]string{true: "+fog"}[gm.flags["fog"] == "true"], func(t *testing.T) {
			a, b := newHarness(t), newHarness(t)
			ida, err := a.ref.NewGame(gm.key, ann, bob, variant.Options{FEN: fenA, Flags: gm.flags})
			if err != nil {
				t.Fatal(err)
			}
			idb, err := b.ref.NewGame(gm.key, ann, bob, variant.Options{FEN: fenB, Flags: gm.flags})
			if err != nil {
				t.Fatal(err)
			}
			type step struct {
				side chess.Color
				body string
			}
			steps := []step{{W, "PGN\nHISTORY\nBOARD"}}
			if m, ok := moves[gm.key]; ok {
				steps = append(steps, step{W, m[0]}, step{B, m[1]}, step{W, "PGN\nBOARD"})
			}
			attached, blackDiffered := false, false
			compare := func(i int) {
				ma, mb := a.outbox(), b.outbox()
				blackDiffered = blackDiffered || fmt.Sprint(rawTo(ma, bob)) != fmt.Sprint(rawTo(mb, bob))
				wa, wb := rawTo(ma, ann), rawTo(mb, ann)
				if len(wa) != len(wb) {
					t.Fatalf("step %d: White got %d mails in world a, %d in world b", i, len(wa), len(wb))
				}
				for j := range wa {
					if !bytes.Equal(wa[j], wb[j]) {
						t.Fatalf("step %d: White's mail differs\n--- a\n%s\n--- b\n%s", i, wa[j], wb[j])
					}
					attached = attached || strings.Contains(string(wa[j]), "application/x-chess-pgn")
				}
			}
			compare(-1) // the opening mails
			for i, s := range steps {
				a.deliver(a.reply(ida, s.side, s.body))
				b.deliver(b.reply(idb, s.side, s.body))
				compare(i)
			}
			if !attached {
				t.Fatal("White's PGN was never attached: the attachment was not put to the test")
			}
			if !blackDiffered {
				t.Fatal("Black's own mails were the same in both worlds: the test varied nothing")
			}
		})
	}
	if hidden < 3 {
		t.Fatalf("only %d games hide the start position from White: Kriegspiel, Progressive Kriegspiel and PSC under fog do", hidden)
	}
}
