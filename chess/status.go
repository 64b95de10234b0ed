package chess

// InsufficientMaterial reports a dead position by material under FIDE rules: no sequence
// of legal moves can mate (K v K, K+minor v K, K+B v K+B with bishops on one colour).
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

// AtMostOneMinorEach reports that each side has at most a king plus one knight or one
// bishop: the dead-position rule of rules.md 0.4c.
func (p *Position) AtMostOneMinorEach() bool {
	if p.roles[Pawn]|p.roles[Rook]|p.roles[Queen] != 0 {
		return false
	}
	minors := p.roles[Knight] | p.roles[Bishop]
	return (minors&p.colors[White]).Count() <= 1 && (minors&p.colors[Black]).Count() <= 1
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
