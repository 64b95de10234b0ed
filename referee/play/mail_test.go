package play

import (
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/lang"
	"github.com/refereed/refereed/templates"
	"github.com/refereed/refereed/variant"
)

// named is a game whose turn is named name.
type named struct {
	variant.Game
	name string
}

func (n named) TurnName(variant.Side) string { return n.name }

// Every turn name a game gives in words is said in the player's language, the long ones
// (a Progressive Kriegspiel series in its middle, a Conditional cycle's step) too.
func TestTurnLabelIn(t *testing.T) {
	for _, c := range []struct {
		name string
		l    lang.Tag
		want string
	}{
		{"move 12", lang.EN, " (move 12)"},
		{"move 12", "de", " (Zug 12)"},
		{"series 3, move 2 of 3", "de", " (Serie 3, Zug 2 von 3)"},
		{"series 3, move 2 of 3", "fr", " (série 3, coup 2 sur 3)"},
		{"cycle 4, A-move", "de", " (Zyklus 4, A-Zug)"},
		{"cycle 4, C-move", "it", " (ciclo 4, mossa C)"},
		{"T5", "de", " (T5)"},
		{"", "de", ""},
	} {
		if got := TurnLabelIn(named{name: c.name}, chess.White, c.l); got != c.want {
			t.Errorf("%q in %s: %q, want %q", c.name, c.l, got, c.want)
		}
	}
}

// The judge's own words at a game's end, a mate and a stalemate, are said in the player's
// language; in English as before.
func TestOverWordsInLanguages(t *testing.T) {
	for _, c := range []struct {
		reason string
		l      lang.Tag
		want   string
	}{
		{"Black checkmated White", lang.EN, "Black checkmated White."},
		{"Black checkmated White", "de", "Schwarz hat Weiß mattgesetzt."},
		{"White checkmated Black", "ru", "Белые поставили мат чёрным."},
		{"White has no legal move", "fr", "Les Blancs n'ont aucun coup légal."},
		{"White has no legal move", "pl", "Białe nie mają żadnego legalnego ruchu."},
		{"both kings frozen", "de", "Both kings frozen."}, // a game's own words, as it gives them
	} {
		g := variant.NewCommon()
		g.End("1-0", "x", c.reason)
		n := g.OverNotice()
		if got := templates.SayIn(c.l, "", n.Words, n.Args); got != c.want {
			t.Errorf("%q in %s: %q, want %q", c.reason, c.l, got, c.want)
		}
	}
}
