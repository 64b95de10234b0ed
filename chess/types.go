package chess

import (
	"errors"
	"fmt"
	"math/bits"
)

// Color is the colour of a man, and the side to move.
type Color uint8

const (
	White Color = 0
	Black Color = 1
)

// Other returns the opposing colour.
func (c Color) Other() Color { return c ^ 1 }

func (c Color) String() string {
	if c == White {
		return "White"
	}
	return "Black"
}

// Role is the kind of a man regardless of colour. NoRole marks an empty square.
type Role uint8

const (
	NoRole Role = iota
	Pawn
	Knight
	Bishop
	Rook
	Queen
	King
)

// Letter is the upper-case English SAN letter of the role ("" for a pawn in SAN, but
// "P" here, which the Transactional announcements need).
func (r Role) Letter() string {
	return string(" PNBRQK"[r])
}

func (r Role) String() string {
	return [...]string{"none", "pawn", "knight", "bishop", "rook", "queen", "king"}[r]
}

// roleFromLetter reads an upper-case piece letter; 'T' (Portuguese torre) is not read here.
func roleFromLetter(b byte) Role {
	switch b {
	case 'P':
		return Pawn
	case 'N':
		return Knight
	case 'B':
		return Bishop
	case 'R':
		return Rook
	case 'Q':
		return Queen
	case 'K':
		return King
	}
	return NoRole
}

// Piece is a man of one colour: the zero Piece is "no piece".
type Piece uint8

// MakePiece builds a Piece; r must not be NoRole.
func MakePiece(c Color, r Role) Piece { return Piece(uint8(r) | uint8(c)<<3) }

// NoPiece is the content of an empty square.
const NoPiece Piece = 0

func (p Piece) Role() Role   { return Role(p & 7) }
func (p Piece) Color() Color { return Color(p >> 3) }

// FENChar is the FEN letter: upper case for White, lower case for Black, '.' for none.
func (p Piece) FENChar() byte {
	if p == NoPiece {
		return '.'
	}
	c := " PNBRQK"[p.Role()]
	if p.Color() == Black {
		c += 'a' - 'A'
	}
	return c
}

func (p Piece) String() string { return string(p.FENChar()) }

// Square is one of the 64 squares, a1 = 0, b1 = 1, ..., h8 = 63. NoSquare marks none.
type Square int8

const NoSquare Square = -1

// Named squares used by the rules of castling and by tests.
const (
	A1 Square = iota
	B1
	C1
	D1
	E1
	F1
	G1
	H1
)

const (
	A8 Square = 56 + iota
	B8
	C8
	D8
	E8
	F8
	G8
	H8
)

// SquareAt returns the square at file (0 = a) and rank (0 = 1).
func SquareAt(file, rank int) Square { return Square(rank*8 + file) }

func (s Square) File() int { return int(s) & 7 }
func (s Square) Rank() int { return int(s) >> 3 }

// Bit is the one-square bitboard of s.
func (s Square) Bit() Bitboard { return 1 << uint(s) }

// Valid reports whether s is on the board.
func (s Square) Valid() bool { return s >= 0 && s < 64 }

func (s Square) String() string {
	if !s.Valid() {
		return "-"
	}
	return string([]byte{byte('a' + s.File()), byte('1' + s.Rank())})
}

// ParseSquare reads "e4".
func ParseSquare(s string) (Square, error) {
	if len(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' {
		return NoSquare, fmt.Errorf("chess: %q is not a square (write a file a-h and a rank 1-8, like e4)", s)
	}
	return SquareAt(int(s[0]-'a'), int(s[1]-'1')), nil
}

// Bitboard is a set of squares, bit i for square i.
type Bitboard uint64

const (
	FileA Bitboard = 0x0101010101010101
	FileH Bitboard = FileA << 7
	Rank1 Bitboard = 0xff
	Rank2 Bitboard = Rank1 << 8
	Rank4 Bitboard = Rank1 << 24
	Rank5 Bitboard = Rank1 << 32
	Rank7 Bitboard = Rank1 << 48
	Rank8 Bitboard = Rank1 << 56
)

func (b Bitboard) Has(s Square) bool { return b&(1<<uint(s)) != 0 }
func (b Bitboard) Count() int        { return bits.OnesCount64(uint64(b)) }

// First returns the lowest square of b, NoSquare if b is empty.
func (b Bitboard) First() Square {
	if b == 0 {
		return NoSquare
	}
	return Square(bits.TrailingZeros64(uint64(b)))
}

// Squares lists the squares of b from a1 to h8.
func (b Bitboard) Squares() []Square {
	out := make([]Square, 0, b.Count())
	for ; b != 0; b &= b - 1 {
		out = append(out, Square(bits.TrailingZeros64(uint64(b))))
	}
	return out
}

// pop removes and returns the lowest square; b must not be empty.
func (b *Bitboard) pop() Square {
	s := Square(bits.TrailingZeros64(uint64(*b)))
	*b &= *b - 1
	return s
}

// MoveKind tells the rules how a move changes the board beyond from -> to.
type MoveKind uint8

const (
	Normal MoveKind = iota
	DoublePush
	EnPassant
	Castle // From/To are the castling man's squares; the rook is CastlingRook's
)

// Move is a move of one man. For castling From and To are the castling man's squares: the
// king's, or in Train Wreck a queen's (rules.md TW-D5). Its rook is the one in the corner it
// moves towards (CastlingRook), which goes to the square the man crossed (RookTo).
//
// Move keeps four fields on purpose: the compiler keeps such small structs in registers, and
// a fifth (say, the rook's square, as shakmaty's Castle { king, rook } carries it) cost
// perft 60%. On the 8x8 board with the orthodox array the rook's square follows from the
// move, for kings and Train Wreck queens alike.
type Move struct {
	From, To  Square
	Promotion Role
	Kind      MoveKind
}

// CastlingRook is the square of the rook a castling move takes along: the corner of the
// castling man's rank towards which it moves (h1 for e1-g1, a1 for e1-c1 and for a Train
// Wreck queen's d1-b1, h1 for its d1-f1).
func (m Move) CastlingRook() Square {
	if m.To > m.From {
		return m.From | 7
	}
	return m.From &^ 7
}

// CaptureSquare is the square whose man m takes, if any: To, or for en passant the square
// of the pawn passed by (beside From, on To's file).
func (m Move) CaptureSquare() Square {
	if m.Kind == EnPassant {
		return SquareAt(m.To.File(), m.From.Rank())
	}
	return m.To
}

// RookTo is where the rook of a castling move goes: the square its man crossed (f1 for
// e1-g1, d1 for e1-c1, c1 for d1-b1, e1 for d1-f1).
func (m Move) RookTo() Square { return (m.From + m.To) / 2 }

// NullMove is the zero-like move that marks "no move".
var NullMove = Move{From: NoSquare, To: NoSquare}

// UCI writes the move in coordinate notation: e2e4, e7e8q, e1g1.
func (m Move) UCI() string {
	if !m.From.Valid() || !m.To.Valid() {
		return "0000"
	}
	b := [5]byte{byte('a' + m.From.File()), byte('1' + m.From.Rank()), byte('a' + m.To.File()), byte('1' + m.To.Rank())}
	if m.Promotion != NoRole {
		b[4] = " pnbrqk"[m.Promotion]
		return string(b[:])
	}
	return string(b[:4])
}

// ParseUCI reads coordinate notation (e2e4, e7e8q) into a Move whose Kind is not yet known:
// match it against generated moves with SameSquares.
func ParseUCI(s string) (Move, error) {
	if len(s) != 4 && len(s) != 5 {
		return NullMove, fmt.Errorf("chess: %q is not a coordinate move like e2e4", s)
	}
	from, err1 := ParseSquare(s[:2])
	to, err2 := ParseSquare(s[2:4])
	if err1 != nil || err2 != nil {
		return NullMove, fmt.Errorf("chess: %q is not a coordinate move like e2e4", s)
	}
	m := Move{From: from, To: to}
	if len(s) == 5 {
		if m.Promotion = promotionRole(s[4]); m.Promotion == NoRole {
			return NullMove, fmt.Errorf("chess: %q: %q is not a piece to promote to", s, s[4])
		}
	}
	return m, nil
}

// SameSquares reports whether m and o move from and to the same squares with the same
// promotion, whatever their kinds.
func (m Move) SameSquares(o Move) bool {
	return m.From == o.From && m.To == o.To && m.Promotion == o.Promotion
}

func (m Move) String() string { return m.UCI() }

// FindMove returns the candidate that moves from and to want's squares with want's
// promotion (SameSquares): a move read from coordinates or from a log becomes the move a
// variant generated, with its kind.
func FindMove(candidates []Move, want Move) (Move, bool) {
	for _, m := range candidates {
		if m.SameSquares(want) {
			return m, true
		}
	}
	return NullMove, false
}

// ErrNoMove is FindUCI's answer when no candidate has the squares written.
var ErrNoMove = errors.New("not a legal move here")

// FindUCI reads coordinate notation (e2e4, e7e8q) and finds that move among candidates. Its
// error is ParseUCI's, or ErrNoMove.
func FindUCI(candidates []Move, uci string) (Move, error) {
	want, err := ParseUCI(uci)
	if err != nil {
		return NullMove, err
	}
	if m, ok := FindMove(candidates, want); ok {
		return m, nil
	}
	return NullMove, ErrNoMove
}

// FindLegalUCI is FindUCI among the orthodox legal moves of p, of which it generates only
// those between the two squares written.
func (p *Position) FindLegalUCI(uci string) (Move, error) {
	want, err := ParseUCI(uci)
	if err != nil {
		return NullMove, err
	}
	var buf [8]Move
	if m, ok := FindMove(p.LegalMovesTo(buf[:0], want.From.Bit(), want.To), want); ok {
		return m, nil
	}
	return NullMove, ErrNoMove
}
