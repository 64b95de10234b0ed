package chess

// Board is the placement of men: any set of them, with or without kings. A player's view in
// a hidden-information game is a Board holding only what that player may know.
type Board struct {
	colors  [2]Bitboard
	roles   [7]Bitboard // indexed by Role; roles[NoRole] is unused
	squares [64]Piece
	hash    uint64 // Zobrist key of the placement alone
}

// At returns the man on s, or NoPiece.
func (b *Board) At(s Square) Piece { return b.squares[s] }

// Occupied returns every occupied square.
func (b *Board) Occupied() Bitboard { return b.colors[White] | b.colors[Black] }

// ByColor returns the squares of c's men.
func (b *Board) ByColor(c Color) Bitboard { return b.colors[c] }

// ByRole returns the squares of men of role r, both colours.
func (b *Board) ByRole(r Role) Bitboard { return b.roles[r] }

// ByPiece returns the squares of c's men of role r.
func (b *Board) ByPiece(c Color, r Role) Bitboard { return b.colors[c] & b.roles[r] }

// King returns c's king square, or NoSquare if c has no king (or several, the lowest).
func (b *Board) King(c Color) Square { return (b.colors[c] & b.roles[King]).First() }

// Put places p on s, replacing whatever stood there. Put(s, NoPiece) empties s.
func (b *Board) Put(s Square, p Piece) {
	b.Remove(s)
	if p == NoPiece {
		return
	}
	bit := s.Bit()
	b.colors[p.Color()] |= bit
	b.roles[p.Role()] |= bit
	b.squares[s] = p
	b.hash ^= zobristPiece[p][s]
}

// Remove empties s and returns what stood there.
func (b *Board) Remove(s Square) Piece {
	p := b.squares[s]
	if p == NoPiece {
		return NoPiece
	}
	bit := s.Bit()
	b.colors[p.Color()] &^= bit
	b.roles[p.Role()] &^= bit
	b.squares[s] = NoPiece
	b.hash ^= zobristPiece[p][s]
	return p
}

// Only returns a copy of the board holding only c's men.
func (b *Board) Only(c Color) Board {
	var out Board
	for bb := b.colors[c]; bb != 0; {
		s := bb.pop()
		out.Put(s, b.squares[s])
	}
	return out
}

// Merge returns a board with c's men taken from own and the other colour's from other.
// Where both boards put a man on one square, own wins (a view never shows two men there).
func Merge(c Color, own, other *Board) Board {
	var out Board
	for bb := other.colors[c.Other()] &^ own.colors[c]; bb != 0; {
		s := bb.pop()
		out.Put(s, other.squares[s])
	}
	for bb := own.colors[c]; bb != 0; {
		s := bb.pop()
		out.Put(s, own.squares[s])
	}
	return out
}

// AttackersTo returns c's men that attack s, with occ as the occupied squares.
func (b *Board) AttackersTo(s Square, c Color, occ Bitboard) Bitboard {
	rq := b.roles[Rook] | b.roles[Queen]
	bq := b.roles[Bishop] | b.roles[Queen]
	return b.colors[c] & ((RookAttacks(s, occ) & rq) |
		(BishopAttacks(s, occ) & bq) |
		(knightAttacks[s] & b.roles[Knight]) |
		(kingAttacks[s] & b.roles[King]) |
		(pawnAttacks[c.Other()][s] & b.roles[Pawn]))
}

// KingAttacked reports whether c's king is attacked by the other colour's men: false when c
// has no king (a view, or Korolev and Train Wreck after the king's capture).
func (b *Board) KingAttacked(c Color) bool {
	k := b.King(c)
	return k != NoSquare && b.AttackersTo(k, c.Other(), b.Occupied()) != 0
}

// AttackCount counts c's men that attack s, as a capture-geometry count (Synchronous chess
// control builds on this and adds its own pawn-push and own-square rules).
func (b *Board) AttackCount(s Square, c Color) int {
	return b.AttackersTo(s, c, b.Occupied()).Count()
}

// Equal reports whether two boards hold the same men on the same squares.
func (b *Board) Equal(o *Board) bool { return b.squares == o.squares }
