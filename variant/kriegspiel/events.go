package kriegspiel

import (
	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/variant"
)

// event is one announced answer of the umpire's log: a "No", the answer to "Any?", or a move
// played with what was announced of it. Impossible attempts are not events: nothing was
// announced.
type event struct {
	by       chess.Color
	kind     eventKind
	move     chess.Move // the attempt (evNo) or the move played (evPlayed)
	answer   anyAnswer  // evAny
	captured chess.Square
	ep       bool
	checks   checks
	tries    tries   // Progressive Kriegspiel: the next mover's pawn tries (PK-D1)
	end      endKind // the move mated or stalemated
	fullmove int     // Kriegspiel: the move number of the turn
	k, n     int     // Progressive Kriegspiel: move k of series n (evNo: the move tried for)
}

type eventKind uint8

const (
	evNo eventKind = iota
	evAny
	evPlayed
)

type anyAnswer uint8

const (
	anyNo anyAnswer = iota
	anyTry
	anyNonsense
)

// String is the umpire's word for the answer.
func (a anyAnswer) String() string { return [...]string{"No", "Try", "Nonsense"}[a] }

// word is the answer as a record's canonical command gives it.
func (a anyAnswer) word() string { return [...]string{"no", "try", "nonsense"}[a] }

type tries uint8

const (
	triesNone tries = iota // Kriegspiel, or the move ended the game
	triesNo
	triesYes
)

type endKind uint8

const (
	endNone endKind = iota
	endMate
	endStalemate
)

// direction is the way a man gives check, as the umpire names it (KR-D6).
type direction uint8

const (
	dirRank direction = iota
	dirFile
	dirLong
	dirShort
	dirKnight
)

var directionNames = [...]string{"rank", "file", "long diagonal", "short diagonal", "knight"}

// checks are the directions of the checks one move gave, one per checking man, in the
// order of direction.
type checks struct {
	n uint8
	d [4]direction
}

func (c checks) names() []string {
	out := make([]string, 0, c.n)
	for _, d := range c.d[:c.n] {
		out = append(out, directionNames[d])
	}
	return out
}

// checkDirections names the checks on c's king (KR-D6): a rook or queen on its rank or file,
// a bishop, queen or pawn on the long or short diagonal through the king's square (the two
// diagonals through a square never have one length: 7 is odd), a knight.
func checkDirections(b *chess.Board, c chess.Color) checks {
	var out checks
	king := b.King(c)
	if king == chess.NoSquare {
		return out
	}
	kf, kr := king.File(), king.Rank()
	// The lengths of the diagonal a1-h8 way and of the anti-diagonal a8-h1 way through the king.
	diag, anti := 8-abs(kf-kr), 8-abs(kf+kr-7)
	for att := b.AttackersTo(king, c.Other(), b.Occupied()); att != 0 && out.n < uint8(len(out.d)); {
		s := att.First()
		att &= att - 1
		var d direction
		switch f, r := s.File(), s.Rank(); {
		case b.At(s).Role() == chess.Knight:
			d = dirKnight
		case r == kr:
			d = dirRank
		case f == kf:
			d = dirFile
		case (f-r == kf-kr) == (diag > anti):
			d = dirLong
		default:
			d = dirShort
		}
		// Insert in order.
		i := out.n
		for i > 0 && out.d[i-1] > d {
			out.d[i] = out.d[i-1]
			i--
		}
		out.d[i] = d
		out.n++
	}
	return out
}

// moveOf is which move of its series e was ("move k of n"), or 0, 0 when a turn is one
// move.
func (g *Game) moveOf(e event) (k, n int) {
	if g.rules.series {
		return e.k, e.n
	}
	return 0, 0
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

var _ variant.Announcer = (*Game)(nil)

// Announcements lists what the umpire announced of every move played, in order.
func (g *Game) Announcements() []variant.Announcement {
	out := make([]variant.Announcement, 0, g.plies)
	yes, no := true, false
	for _, e := range g.events {
		if e.kind != evPlayed {
			continue
		}
		a := variant.Announcement{By: []string{"white", "black"}[e.by], EnPassant: e.ep, Checks: e.checks.names()}
		if e.captured != chess.NoSquare {
			a.Captured = e.captured.String()
		}
		switch e.tries {
		case triesYes:
			a.PawnTries = &yes
		case triesNo:
			a.PawnTries = &no
		}
		out = append(out, a)
	}
	return out
}
