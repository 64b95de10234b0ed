package referee

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/refereed/refereed/archive"
	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/variant"
)

// send delivers body from side and returns what each player was mailed (empty for none).
func (h *harness) send(id uint64, side chess.Color, body string) (toAnn, toBob string) {
	h.t.Helper()
	h.deliver(h.reply(id, side, body))
	m := h.outbox()
	return bodyTo(h.t.(*testing.T), m, ann), bodyTo(h.t.(*testing.T), m, bob)
}

// log is game id's event log.
func (h *harness) log(id uint64) []store.Event {
	var events []store.Event
	if err := h.db.View(func(tx *store.Tx) (err error) { events, err = tx.Events(id); return err }); err != nil {
		h.t.Fatal(err)
	}
	return events
}

// A conditional sequence of three move pairs fires in full by mail (issue 25): each of
// Black's moves is answered at once, Black's mail says so with the game so far and the FEN,
// and it is his turn again.
func TestConditionalFiresInFull(t *testing.T) {
	h := newHarness(t)
	id := h.newGame("orthodox")
	h.outbox()
	h.send(id, W, "e4")
	h.send(id, B, "e5")
	a, b := h.send(id, W, "Nf3\nIF Nc6 Bb5 a6 Ba4 Nf6 O-O")
	mustSay(t, "stated (White)", a, "Conditional sequence stated: IF 2... Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O. Your opponent is not told of it. You have 1 standing")
	if strings.Contains(b, "onditional") || strings.Contains(b, "Bb5") {
		t.Errorf("Black is told of the sequence:\n%s", b)
	}
	for _, c := range []struct{ black, white, score, fen string }{
		{"Nc6", "3. Bb5", "1. e4 e5 2. Nf3 Nc6 3. Bb5", "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"},
		{"a6", "4. Ba4", "3. Bb5 a6 4. Ba4", "r1bqkbnr/1ppp1ppp/p1n5/4p3/B3P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 1 4"},
		{"Nf6", "5. O-O", "4. Ba4 Nf6 5. O-O", "r1bqkb1r/1ppp1ppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 3 5"},
	} {
		h.now = h.now.Add(30 * time.Hour)
		a, b := h.send(id, B, c.black)
		mustSay(t, c.black+" (Black)", b, "White had stated his reply in advance, as a conditional move: it was played at once.",
			"White played "+c.white, "The game so far:", c.score, "FEN: "+c.fen, "your move")
		mustSay(t, c.black+" (White)", a, "Your conditional sequence answered at once:", "White played "+c.white)
	}
	// The sequence is spent: Black's next move is not answered.
	_, b = h.send(id, B, "Be7")
	if strings.Contains(b, "White played") {
		t.Errorf("a spent sequence answered:\n%s", b)
	}
	// The replies are White's moves from the source "conditional", at the time of Black's:
	// no time passes on White's clock.
	var replies int
	var prev store.Event
	for _, e := range h.log(id) {
		if e.Source == store.SourceIf {
			replies++
			if !e.At.Equal(prev.At) {
				t.Errorf("reply %s at %v, Black's move at %v", e.Text, e.At, prev.At)
			}
		}
		if e.IsCommand() {
			prev = e
		}
	}
	if replies != 3 {
		t.Errorf("%d replies logged, want 3", replies)
	}
	// White's HISTORY tells what he was told; Black's says nothing of the statement.
	a, _ = h.send(id, W, "HISTORY")
	mustSay(t, "White's HISTORY", a, "Conditional sequence stated: IF 2... Nc6 3. Bb5", "Your conditional sequence answered at once:")
	_, b = h.send(id, B, "HISTORY")
	mustSay(t, "Black's HISTORY", b, "White had stated his reply in advance")
	if strings.Contains(b, "stated: IF") {
		t.Errorf("Black's HISTORY tells the statement:\n%s", b)
	}
	// The end-of-game reveal and the export leave the sequence out.
	a, b = h.send(id, W, "RESIGN")
	for _, m := range []string{a, b} {
		if strings.Contains(m, "if move") || strings.Contains(m, "IF ") {
			t.Errorf("the reveal shows the sequence:\n%s", m)
		}
	}
	var pgn bytes.Buffer
	if err := h.db.View(func(tx *store.Tx) error { return archive.Export(tx, id, &pgn, archive.LiveHidden) }); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(pgn.String(), "if move") || !strings.Contains(pgn.String(), "White: move f1b5") {
		t.Errorf("the export:\n%s", pgn.String())
	}
}

// A sequence that the opponent's move does not begin is dropped, and its author told; the
// opponent is told nothing; alternatives and IF LIST, IF CLEAR.
func TestConditionalDropped(t *testing.T) {
	h := newHarness(t)
	id := h.newGame("orthodox")
	h.outbox()
	h.send(id, W, "e4")
	h.send(id, B, "e5")
	h.send(id, W, "Nf3\nIF Nc6 Bb5 a6 Ba4\nIF Nc6 Bb5 d6 d4\nIF d6 d4")
	a, _ := h.send(id, W, "IF LIST")
	mustSay(t, "IF LIST", a, "- IF 2... Nc6 3. Bb5 a6 4. Ba4", "- IF 2... Nc6 3. Bb5 d6 4. d4", "- IF 2... d6 3. d4")
	a, b := h.send(id, B, "Nf6")
	mustSay(t, "dropped (White)", a, "Black played 2... Nf6", "Your opponent's move is not the one 3 of your conditional sequences began with: they are dropped.")
	if strings.Contains(b, "onditional") || strings.Contains(b, "White played") {
		t.Errorf("Black's mail:\n%s", b)
	}
	a, _ = h.send(id, W, "IF LIST")
	mustSay(t, "IF LIST after", a, "You have no conditional sequence standing.")
	h.send(id, W, "Nc3\nIF Nc6 Bb5")
	a, _ = h.send(id, W, "IF CLEAR\nIF LIST")
	mustSay(t, "IF CLEAR", a, "Your conditional sequences are dropped (1).", "You have no conditional sequence standing.")
}

// Each sequence is checked when stated, and refused with a reason.
func TestConditionalRefused(t *testing.T) {
	h := newHarness(t)
	game := func() uint64 {
		id, err := h.ref.NewGame("orthodox", ann, bob, variant.Options{FEN: "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"})
		if err != nil {
			t.Fatal(err)
		}
		h.outbox()
		return id
	}
	id := game()
	a, _ := h.send(id, W, "IF Kf8 Ra8")
	mustSay(t, "not now", a, "a conditional sequence is stated after your move, while your opponent is to move")
	for _, c := range []struct{ line, want string }{
		{"IF Kh7", "write IF, then your opponent's move and your reply"},
		{"IF h6 Ra9", `move 2 of the sequence (Ra9, yours): "Ra9"`},
		{"IF Kh8 Ra8 Kh7 Rb8", "move 2 of the sequence (Ra8) ends the game: nothing can follow it"},
		{"IF Qd8 Ra8", "move 1 of the sequence (Qd8, your opponent's): no queen can move to d8"},
	} {
		a, _ := h.send(game(), W, "Kf1\n"+c.line)
		mustSay(t, c.line, a, "White played 1. Kf1", c.want)
	}
	id = game()
	h.send(id, W, "Kf1\nIF h6 Ra8+")
	a, _ = h.send(id, W, "IF h6 Rb1")
	mustSay(t, "conflict", a, "it answers the same moves otherwise than your sequence IF 1... h6 2. Ra8+")
	a, _ = h.send(id, W, "IF 1... h6 2. Ra8")
	mustSay(t, "same", a, "you have stated that sequence already")
	// A word that is no move, in capitals, is a move refused, not a sentence.
	a, _ = h.send(id, W, "IF "+strings.Repeat("Q", 300)+" e5")
	mustSay(t, "garbage", a, "move 1 of the sequence (QQQ")
	// A sequence that is the beginning of one stated is refused; one that goes on from one
	// replaces it.
	id = game()
	h.send(id, W, "Kf1\nIF g6 Ra7 h5 Rb7")
	a, _ = h.send(id, W, "IF g6 Ra7")
	mustSay(t, "beginning", a, "you have stated it already, as the beginning of IF 1... g6 2. Ra7 h5 3. Rb7")
	a, _ = h.send(id, W, "IF g6 Ra7 h5 Rb7 Kg7 Rc7")
	mustSay(t, "extended", a, "Conditional sequence stated: IF 1... g6 2. Ra7 h5 3. Rb7 Kg7 4. Rc7, in place of the shorter one it goes on from.", "You have 1 standing")
	a, _ = h.send(id, W, "IF LIST")
	if strings.Count(a, "- IF ") != 1 {
		t.Errorf("IF LIST after the extension:\n%s", a)
	}

	k := h.newGame("kriegspiel")
	h.outbox()
	h.send(k, W, "e4")
	a, _ = h.send(k, W, "IF e5 Nf3")
	mustSay(t, "Kriegspiel", a, "there are no conditional moves in Kriegspiel")
}

// Noninterference over random twins (issue 25): two orthodox games with the same moves, in
// one of which White states conditional sequences that never fire (each begins with a move
// Black does not play) and asked for numeric notation and figurines, give Black
// byte-identical mail; White's differ.
func TestConditionalNoninterference(t *testing.T) {
	for seed := int64(1); seed <= 6; seed++ {
		rng := rand.New(rand.NewSource(seed))
		a, b := newHarness(t), newHarness(t)
		ida, idb := a.newGame("orthodox"), b.newGame("orthodox")
		a.outbox()
		b.outbox()
		// White's settings are his alone too.
		b.deliver(b.reply(idb, W, "SET NOTATION numeric\nSET BOARD unicode"))
		b.outbox()
		a.sent[W]++ // the same Message-IDs in both worlds from now on
		pos := chess.Start()
		whiteDiffered := false
		forced := chess.NullMove // Black's next move, drawn when White stated what it is not
		for ply := 0; ply < 30; ply++ {
			moves := pos.LegalMoves(nil)
			if len(moves) == 0 || pos.InsufficientMaterial() {
				break
			}
			m := moves[rng.Intn(len(moves))]
			if forced != chess.NullMove {
				m, forced = forced, chess.NullMove
			}
			side := pos.Turn
			body := m.UCI()
			bodyB := body
			after := pos
			after.Play(m)
			if side == W && ply+1 < 30 {
				// A sequence that Black's next move will not begin: his next move is drawn
				// now, and the sequence starts with another of his moves.
				replies := after.LegalMoves(nil)
				if len(replies) > 1 {
					next := replies[rng.Intn(len(replies))]
					var other chess.Move
					for other = next; other == next; other = replies[rng.Intn(len(replies))] {
					}
					then := after
					then.Play(other)
					if mine := then.LegalMoves(nil); len(mine) > 0 {
						bodyB += "\nIF " + other.UCI() + " " + mine[rng.Intn(len(mine))].UCI()
					}
					forced = next
				}
			}
			a.deliver(a.reply(ida, side, body))
			b.deliver(b.reply(idb, side, bodyB))
			ma, mb := a.outbox(), b.outbox()
			var toA, toB [][]byte
			for _, x := range ma {
				if x.To[0] == bob {
					toA = append(toA, x.Raw)
				}
			}
			for _, x := range mb {
				if x.To[0] == bob {
					toB = append(toB, x.Raw)
				}
			}
			if len(toA) != len(toB) {
				t.Fatalf("seed %d ply %d: Black got %d and %d mails", seed, ply, len(toA), len(toB))
			}
			for j := range toA {
				if !bytes.Equal(toA[j], toB[j]) {
					t.Fatalf("seed %d ply %d: Black's mail differs\n--- a\n%s\n--- b\n%s", seed, ply, toA[j], toB[j])
				}
			}
			if bodyTo(t, ma, ann) != bodyTo(t, mb, ann) {
				whiteDiffered = true
			}
			pos = after
		}
		if !whiteDiffered {
			t.Errorf("seed %d: White's mails were the same in both worlds: nothing was stated", seed)
		}
	}
}
