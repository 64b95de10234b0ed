package synchronous

import (
	"fmt"
	"github.com/refereed/refereed/lang"
	"math/rand"
	"strings"
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/templates"
	"github.com/refereed/refereed/variant"
	"github.com/refereed/refereed/variant/varianttest"
)

// PS-D9 as a property of everything a player under fog is told: random twin worlds, whose
// opponent's moves differ only where the observer cannot see, give the observer the same
// words, views and refusals. Twins are found, not written: from a random position, every
// move the opponent could make is played in each world, and two of them make twins when the
// observer's view after the turn is the same in both (his men, what they see, the turn). The
// opponent's move then differs in what it took, what it froze and where it stands; the
// observer's own probes (every move his men's patterns allow, in coordinates and in SAN with
// and without the man's file, queries, nonsense) are answered in both worlds, and so is the
// turn. A probe accepted in one world and refused in the other is the one thing the rules
// accept (PS-D9: that a move was refused cannot be hidden), and it must then be refused as
// "not possible now", with no reason.
func TestFogTwinWorlds(t *testing.T) {
	rng := rand.New(rand.NewSource(2811))
	v := variant.MustLookup(Key)
	var st twinStats
	for trial := 0; trial < 300; trial++ {
		fen := randomFogFEN(rng)
		opts := variant.Options{FEN: fen, Flags: map[string]string{OptionFog: "true"}}
		if g, err := v.New(opts); err != nil || g.Outcome().Over() {
			continue
		}
		observer := chess.Color(rng.Intn(2))
		tw := &twins{t: t, v: v, opts: opts, observer: observer, rng: rng, st: &st}
		for turn := 0; turn < 4 && tw.turn(); turn++ {
		}
	}
	t.Logf("%+v", st)
	// The property is only as strong as what it met: each kind of hidden difference the
	// issue found must have come up many times.
	for what, n := range map[string]int{
		"twin turns":                                        st.turns,
		"twins whose opponent moves differ":                 st.differ,
		"observer's men captured by different men":          st.capturedByOther,
		"observer's men frozen in one world only":           st.frozenDiffers,
		"probes refused in both worlds":                     st.refusedBoth,
		"probes refused in one world only (not possible)":   st.refusedOne,
		"observer's moves written with the man's file/rank": st.disambiguated,
	} {
		if n < 20 {
			t.Errorf("only %d cases of %s", n, what)
		}
	}
}

type twinStats struct {
	turns, differ, capturedByOther, frozenDiffers, refusedBoth, refusedOne, disambiguated int
}

// twins are two worlds of one game, each its log.
type twins struct {
	t        *testing.T
	v        *variant.Variant
	opts     variant.Options
	observer chess.Color
	rng      *rand.Rand
	st       *twinStats
	a, b     []variant.Command
}

func (tw *twins) replay(log []variant.Command) *Game {
	tw.t.Helper()
	g, fail, err := variant.Replay(tw.v, tw.opts, log)
	if err != nil || fail != nil {
		tw.t.Fatalf("replay: %v %v", err, fail)
	}
	return g.(*Game)
}

// seenBy is what the observer is shown of g: his view, whose action it waits for and how it
// stands.
func (tw *twins) seenBy(g *Game) string {
	return fmt.Sprintf("%s\nto act %v; outcome %+v; %s", varianttest.Seen(g, variant.ViewerOf(tw.observer)), g.ToAct(), g.Outcome(), g.TurnName(tw.observer))
}

// told is the words of the notices the observer may read.
func (tw *twins) told(ns []variant.Notice) string {
	var sb strings.Builder
	for _, n := range ns {
		if n.To.Has(tw.observer) {
			fmt.Fprintf(&sb, "%s|%s|%d|%v\n", n.Kind, templates.NoticeText(n.Kind, n.Words, n.Text, n.Args), n.Show, n.Stop)
		}
	}
	return sb.String()
}

// turn plays one turn in both worlds, if a twin turn exists, checking the observer's probes
// first; it reports whether the turn was played.
func (tw *twins) turn() bool {
	t, obs := tw.t, tw.observer
	ga, gb := tw.replay(tw.a), tw.replay(tw.b)
	if ga.Outcome().Over() || gb.Outcome().Over() {
		return false
	}
	if x, y := tw.seenBy(ga), tw.seenBy(gb); x != y {
		t.Fatalf("twins that the observer can tell apart (%v):\n%s\n---\n%s", obs, x, y)
	}
	if len(tw.a) > 0 && frozenSet(ga, obs) != frozenSet(gb, obs) {
		tw.st.frozenDiffers++
	}
	// The observer's probes, answered in both worlds.
	var both []string
	for _, text := range tw.probes(ga) {
		ca, _, ea := ga.Resolve(obs, text)
		cb, _, eb := gb.Resolve(obs, text)
		switch {
		case ea != nil && eb != nil:
			tw.st.refusedBoth++
			if ea.Error() != eb.Error() {
				t.Fatalf("%s: %v %q is refused as %q in one world, %q in its twin", tw.opts.FEN, obs, text, ea, eb)
			}
		case ea != nil || eb != nil:
			tw.st.refusedOne++
			e := ea
			if e == nil {
				e = eb
			}
			if !strings.Contains(e.Error(), "is not possible now") {
				t.Fatalf("%s: %v %q is refused in one world only, with a reason (%q): it depends on what he cannot see", tw.opts.FEN, obs, text, e)
			}
		default:
			// The echo of a sealed move, in a copy of each world.
			na, erra := tw.replay(tw.a).Submit(ca)
			nb, errb := tw.replay(tw.b).Submit(cb)
			if erra != nil || errb != nil {
				t.Fatalf("%q resolved but was not submitted: %v %v", text, erra, errb)
			}
			if x, y := tw.told(na), tw.told(nb); x != y {
				t.Fatalf("%s: %v %q is echoed differently in twin worlds:\n%s---\n%s", tw.opts.FEN, obs, text, x, y)
			}
			if ca.Text == cb.Text {
				both = append(both, ca.Text)
			}
		}
	}
	if len(both) == 0 {
		return false
	}
	mine := variant.Command{By: obs, Text: both[tw.rng.Intn(len(both))]}
	if m, err := chess.FindUCI(ga.moves[obs], strings.TrimPrefix(mine.Text, "move ")); err == nil && m.Kind != chess.Castle {
		q := ga.pos
		q.EnPassant = ga.ep[obs.Other()]
		if len(q.SANAmong(m, q.Generate(nil, chess.MoveRules{Color: obs, Pseudo: true, NoCastling: true}))) > len(q.SANAmong(m, nil)) {
			tw.st.disambiguated++
		}
	}
	// The opponent's moves: every one in each world, keyed by what the observer sees after.
	opp := obs.Other()
	after := func(log []variant.Command, g *Game) map[string][]variant.Command {
		out := map[string][]variant.Command{}
		for _, m := range g.moves[opp] {
			c := variant.Command{By: opp, Text: "move " + m.UCI()}
			w := tw.replay(log)
			if _, err := w.Submit(mine); err != nil {
				t.Fatal(err)
			}
			if _, err := w.Submit(c); err != nil {
				t.Fatal(err)
			}
			if w.Outcome().Over() {
				continue // the game over shows both worlds whole
			}
			k := tw.seenBy(w)
			out[k] = append(out[k], c)
		}
		return out
	}
	ka, kb := after(tw.a, ga), after(tw.b, gb)
	type pair struct{ x, y variant.Command }
	var pairs, differing, captures []pair
	for k, xs := range ka {
		for _, x := range xs {
			for _, y := range kb[k] {
				p := pair{x, y}
				pairs = append(pairs, p)
				if x.Text != y.Text {
					differing = append(differing, p)
					if tw.capturesDiffer(ga, gb, mine, x, y) {
						captures = append(captures, p)
					}
				}
			}
		}
	}
	pick := pairs
	switch {
	case len(captures) > 0 && tw.rng.Intn(2) == 0:
		pick = captures
		tw.st.capturedByOther++
	case len(differing) > 0:
		pick = differing
	}
	if len(pick) == 0 {
		return false
	}
	p := pick[tw.rng.Intn(len(pick))]
	if p.x.Text != p.y.Text {
		tw.st.differ++
	}
	// The turn, in either order, told to the observer alike.
	steps := [][2]variant.Command{{mine, mine}, {p.x, p.y}}
	if tw.rng.Intn(2) == 0 {
		steps[0], steps[1] = steps[1], steps[0]
	}
	for _, s := range steps {
		na, erra := ga.Submit(s[0])
		nb, errb := gb.Submit(s[1])
		if erra != nil || errb != nil {
			t.Fatalf("%v %v", erra, errb)
		}
		if x, y := tw.told(na)+tw.seenBy(ga), tw.told(nb)+tw.seenBy(gb); x != y {
			t.Fatalf("%s after %v / %v: %v is told differently:\n%s\n---\n%s", tw.opts.FEN, tw.a, tw.b, obs, x, y)
		}
	}
	tw.a = append(tw.a, steps[0][0], steps[1][0])
	tw.b = append(tw.b, steps[0][1], steps[1][1])
	tw.st.turns++
	return true
}

// capturesDiffer reports whether the opponent's moves x (in a) and y (in b) capture a man of
// the observer on the same square with men of different kinds or from different squares.
func (tw *twins) capturesDiffer(a, b *Game, mine, x, y variant.Command) bool {
	mx, errx := chess.FindUCI(a.moves[tw.observer.Other()], strings.TrimPrefix(x.Text, "move "))
	my, erry := chess.FindUCI(b.moves[tw.observer.Other()], strings.TrimPrefix(y.Text, "move "))
	if errx != nil || erry != nil || mx.CaptureSquare() != my.CaptureSquare() {
		return false
	}
	if a.pos.At(mx.CaptureSquare()).Color() != tw.observer || a.pos.At(mx.CaptureSquare()) == chess.NoPiece {
		return false
	}
	return mx.From != my.From || a.pos.At(mx.From) != b.pos.At(my.From)
}

// probes are the lines the observer tries: each move his men's patterns allow, in
// coordinates, in SAN as the records write it and in SAN without the man's file or rank
// (ambiguous when two men of a kind could go), castling, a query and nonsense.
func (tw *twins) probes(g *Game) []string {
	obs := tw.observer
	q := g.pos
	q.EnPassant = g.ep[obs.Other()]
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, m := range q.Generate(nil, chess.MoveRules{Color: obs, Pseudo: true, NoCastling: true}) {
		add(m.UCI())
		add("MOVE " + q.SANAmong(m, q.Generate(nil, chess.MoveRules{Color: obs, Pseudo: true, NoCastling: true})))
		add(q.SANAmong(m, nil))
	}
	for _, s := range []string{"O-O", "O-O-O", "CONTROL", "Zz9", "e9", "Nxh9", "a1a1"} {
		add(s)
	}
	return out
}

// frozenSet is where c's frozen men stand in g.
func frozenSet(g *Game, c chess.Color) chess.Bitboard {
	var b chess.Bitboard
	for m := g.pos.ByColor(c); m != 0; m &= m - 1 {
		if g.att.frozen(c, m.First()) {
			b |= m.First().Bit()
		}
	}
	return b
}

// randomFogFEN is a random position in which the kinds of hidden difference meet often: the
// side to observe has two knights or two rooks (moves that need the man's file), both sides
// have sliders that reach far and freeze men, and a few pawns.
func randomFogFEN(rng *rand.Rand) string {
	var b [64]byte
	free := func() int {
		for {
			if s := rng.Intn(64); b[s] == 0 {
				return s
			}
		}
	}
	put := func(pc byte, pawn bool) {
		for {
			s := free()
			if pawn && (s < 8 || s >= 56) {
				continue
			}
			b[s] = pc
			return
		}
	}
	put('K', false)
	for {
		s := free()
		wk := strings.IndexByte(string(b[:]), 'K')
		if d := abs(s%8-wk%8) + abs(s/8-wk/8); d > 2 {
			b[s] = 'k'
			break
		}
	}
	for _, side := range []string{"NRBQP", "nrbqp"} {
		pair := side[0]
		if rng.Intn(2) == 0 {
			pair = side[1]
		}
		put(pair, false)
		put(pair, false)
		for i, n := 0, 1+rng.Intn(3); i < n; i++ {
			put(side[rng.Intn(4)], false)
		}
		for i, n := 0, rng.Intn(3); i < n; i++ {
			put(side[4], true)
		}
	}
	var sb strings.Builder
	for r := 7; r >= 0; r-- {
		empty := 0
		for f := 0; f < 8; f++ {
			pc := b[r*8+f]
			if pc == 0 {
				empty++
				continue
			}
			if empty > 0 {
				sb.WriteByte(byte('0' + empty))
				empty = 0
			}
			sb.WriteByte(pc)
		}
		if empty > 0 {
			sb.WriteByte(byte('0' + empty))
		}
		if r > 0 {
			sb.WriteByte('/')
		}
	}
	sb.WriteString(" w - - 0 1")
	return sb.String()
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// The two leaks the fog probe found, as the players met them (rules.md PS-D9).
func TestFogLeaksFound(t *testing.T) {
	fog := map[string]string{OptionFog: "true"}
	s := func(by chess.Color, text string) varianttest.Step { return varianttest.Step{By: by, Text: text} }
	W, B := chess.White, chess.Black
	t.Run("a captured man is reported by square and kind, not by its capturer", func(t *testing.T) {
		opts := variant.Options{FEN: "4r2b/8/8/4N3/8/7k/8/K7 w - - 0 1", Flags: fog}
		varianttest.Noninterference(t, variant.MustLookup(Key), opts, W,
			[]varianttest.Step{s(W, "Ka2"), s(B, "Bxe5"), s(W, "BOARD")},
			[]varianttest.Step{s(W, "Ka2"), s(B, "Rxe5"), s(W, "BOARD")})
		g, _ := New(opts, PSC)
		varianttest.Send(t, g, W, "Ka2")
		told := varianttest.TextsTo(varianttest.Send(t, g, B, "Bxe5"), W, false)
		if !strings.Contains(told, "Your knight on e5 was captured.") || strings.Contains(told, "bishop") {
			t.Errorf("White is told %q", told)
		}
	})
	t.Run("his own move is written alike whether his other man is frozen or not", func(t *testing.T) {
		opts := variant.Options{FEN: "5r1k/1b6/8/7K/8/8/8/1N3N2 w - - 0 1", Flags: fog}
		varianttest.Noninterference(t, variant.MustLookup(Key), opts, W,
			[]varianttest.Step{s(W, "Kh4"), s(B, "Ba6"), s(W, "MOVE b1d2"), s(B, "Kg8")},
			[]varianttest.Step{s(W, "Kh4"), s(B, "Bc8"), s(W, "MOVE b1d2"), s(B, "Kg8")})
		g, _ := New(opts, PSC)
		varianttest.Send(t, g, W, "Kh4")
		varianttest.Send(t, g, B, "Ba6")
		if told := varianttest.TextsTo(varianttest.Send(t, g, W, "b1d2"), W, false); !strings.Contains(told, "Nbd2") {
			t.Errorf("White is told %q, want Nbd2", told)
		}
		// Nd2 names two knights by their pattern, frozen or not: ambiguous in both worlds.
		varianttest.Refuse(t, g, W, "Nd2", "")
		// A move of the frozen knight is refused with no reason.
		h, _ := New(opts, PSC)
		varianttest.Send(t, h, W, "Kh4")
		varianttest.Send(t, h, B, "Ba6")
		varianttest.Refuse(t, h, W, "Nf1d2", "Nfd2 is not possible now; choose another move")
		if _, _, err := h.Resolve(W, "Nf1d2"); strings.Contains(err.Error(), "frozen") || strings.Contains(err.Error(), "attacked") {
			t.Errorf("the refusal gives a hidden reason: %v", err)
		}
	})
	t.Run("HELP under fog offers no CONTROL", func(t *testing.T) {
		g, _ := New(variant.Options{Flags: fog}, PSC)
		if h := variant.HelpOf(variant.MustLookup(Key), g, lang.EN); strings.Contains(h, "CONTROL") {
			t.Errorf("HELP under fog: %q", h)
		}
		g, _ = New(variant.Options{}, PSC)
		if h := variant.HelpOf(variant.MustLookup(Key), g, lang.EN); !strings.Contains(h, "CONTROL") {
			t.Errorf("HELP without fog: %q", h)
		}
	})
}
