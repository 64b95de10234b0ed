package chess

// InsufficientMaterial reports a position that no sequence of moves can bring to checkmate,
// by material: king against king, king and one knight or bishop against a lone king, and
// every man besides the kings a bishop, all on squares of one colour (any number, either
// side). King and knight against king and knight, or bishops on both colours, can mate.
func (p *Position) InsufficientMaterial() bool {
	if p.roles[Pawn]|p.roles[Rook]|p.roles[Queen] != 0 {
		return false
	}
	minors := p.roles[Knight] | p.roles[Bishop]
	switch minors.Count() {
	case 0, 1:
		return true
	}
	if p.roles[Knight] != 0 {
		return false
	}
	// Only bishops: dead if all stand on squares of one colour.
	const light Bitboard = 0x55AA55AA55AA55AA
	b := p.roles[Bishop]
	return b&light == 0 || b&^light == 0
}

// KingsAndOneMinorAtMost reports that besides the two kings at most one knight or one bishop
// stands on the board: king against king, or king and one minor piece against a lone king.
func (p *Position) KingsAndOneMinorAtMost() bool {
	if p.roles[Pawn]|p.roles[Rook]|p.roles[Queen] != 0 {
		return false
	}
	return (p.roles[Knight] | p.roles[Bishop]).Count() <= 1
}

// Perft counts the leaf nodes of the legal move tree to the given depth.
func (p *Position) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	var buf [256]Move
	moves := p.LegalMoves(buf[:0])
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		q := *p
		q.Play(m)
		n += q.Perft(depth - 1)
	}
	return n
}

// Divide returns, for each legal move, the perft count below it.
func (p *Position) Divide(depth int) map[Move]uint64 {
	out := make(map[Move]uint64)
	var buf [256]Move
	for _, m := range p.LegalMoves(buf[:0]) {
		q := *p
		q.Play(m)
		out[m] = q.Perft(depth - 1)
	}
	return out
}
