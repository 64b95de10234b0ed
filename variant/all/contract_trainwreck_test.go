package all_test

import (
	"fmt"
	"math/rand"
	"strings"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/variant"
)

// Line writers for Train Wreck and Three-Move Train Wreck: whole turns drawn from the moves
// the rules allow (own men forward-only, then an opposing man other than the king), written
// in the forms players use, with a wrong part count, a player out of turn or junk now and
// then.
func init() {
	lines["trainwreck"] = trainWreckLines
	lines["trainwreck-three"] = trainWreckLines
}

func trainWreckLines(g variant.Game, by chess.Color, rng *rand.Rand) string {
	if rng.Intn(8) == 0 {
		return []string{"O-O", "QO-O-O", "O-O-O / a6", "e2-e4 / e2-e3", "Ke2 / Ke7", "e4 / e5 / e6"}[rng.Intn(6)]
	}
	if rng.Intn(8) == 0 {
		return junk[rng.Intn(len(junk))]
	}
	p := g.Position()
	own := 1
	if g.Key() == "trainwreck-three" && !(by == chess.White && p.Fullmove == 1) {
		own = 2
	}
	if rng.Intn(10) == 0 {
		own += rng.Intn(3) - 1 // a turn of the wrong shape
	}
	write := func(m chess.Move) string {
		switch rng.Intn(3) {
		case 0:
			return m.UCI()
		case 1:
			s := m.From.String() + "-" + m.To.String()
			if m.Promotion != chess.NoRole {
				s += "=" + m.Promotion.Letter()
			}
			return s
		}
		letter := strings.TrimSpace(strings.Replace(p.At(m.From).Role().Letter(), "P", "", 1))
		s := letter + m.From.String() + "-" + m.To.String()
		if m.Promotion != chess.NoRole {
			s += "=" + m.Promotion.Letter()
		}
		return s
	}
	pick := func(c chess.Color, ownMen bool) (chess.Move, bool) {
		ms := p.Generate(nil, chess.MoveRules{Color: c, Pseudo: true, ForwardOnly: true, NoEnPassant: true, NoCastling: !ownMen})
		if !ownMen {
			kept := ms[:0]
			for _, m := range ms {
				if p.At(m.From).Role() != chess.King {
					kept = append(kept, m)
				}
			}
			ms = kept
		}
		if len(ms) == 0 {
			return chess.NullMove, false
		}
		return ms[rng.Intn(len(ms))], true
	}
	var words []string
	for k := 0; k < own; k++ {
		m, ok := pick(by, true)
		if !ok {
			break
		}
		words = append(words, write(m))
		turn, no := p.Turn, p.Fullmove
		if p.Play(m).Role() == chess.King {
			return strings.Join(words, ", ")
		}
		p.Turn, p.Fullmove = turn, no
	}
	line := strings.Join(words, ", ")
	if m, ok := pick(by.Other(), false); ok {
		line += " / " + write(m)
	}
	if rng.Intn(5) == 0 {
		line = fmt.Sprintf("TURN %d: %s", p.Fullmove, line)
	}
	return line
}
