package chess

// All is every square: the mask that leaves a move generator unrestricted.
const All = ^Bitboard(0)

// LegalMoves appends the orthodox legal moves of the side to move to buf and returns it.
// It is the fast path (pins and check masks, no make/unmake except for en passant). A side
// without a king has no king to keep safe: its pseudo-legal moves are legal.
func (p *Position) LegalMoves(buf []Move) []Move { return p.legalMoves(buf, All, All, false) }

// LegalMovesTo appends the legal moves of the side to move that go from a square of from to
// the square to, in the order LegalMoves gives them, without generating the others: the
// moves a written move can name (shakmaty's san_candidates). A castling move goes to the
// king's square (g1 for e1-g1).
func (p *Position) LegalMovesTo(buf []Move, from Bitboard, to Square) []Move {
	if !to.Valid() {
		return buf
	}
	return p.legalMoves(buf, p.reaching(from, to), to.Bit(), false)
}

// HasLegalMove reports whether the side to move has a legal move (whether LegalMoves would
// give any), stopping at the first one found: the test of mate and stalemate.
func (p *Position) HasLegalMove() bool {
	us := p.Turn
	if king := p.King(us); king != NoSquare && p.AttackersTo(king, us.Other(), p.Occupied()) == 0 {
		// Out of check, a man on no line through his king is not pinned: each of his moves
		// is legal. A pawn's step, a knight's or a piece's move is nearly always there.
		ours := p.colors[us]
		free := ours &^ (rookRays[king] | bishopRays[king])
		steps := p.ByPiece(us, Pawn) & free
		if us == White {
			steps <<= 8
		} else {
			steps >>= 8
		}
		if steps&^p.Occupied() != 0 {
			return true
		}
		for fb := p.ByPiece(us, Knight) & free; fb != 0; {
			if knightAttacks[fb.pop()]&^ours != 0 {
				return true
			}
		}
		occ := p.Occupied()
		for fb := (p.ByPiece(us, Bishop) | p.ByPiece(us, Rook) | p.ByPiece(us, Queen)) & free; fb != 0; {
			from := fb.pop()
			if Attacks(p.squares[from], from, occ)&^ours != 0 {
				return true
			}
		}
	}
	var buf [64]Move
	return len(p.legalMoves(buf[:0], All, All, true)) > 0
}

// reaching returns the men of the side to move on from that might move to to: those
// attacking it, the pawns behind it on its file, and the king (castling goes two squares).
func (p *Position) reaching(from Bitboard, to Square) Bitboard {
	us := p.Turn
	from &= p.colors[us]
	occ := p.Occupied()
	r := from & p.roles[King]
	if m := from & p.roles[Pawn]; m != 0 {
		steps := to.Bit()>>8 | to.Bit()>>16 // White's pawns step up
		if us == Black {
			steps = to.Bit()<<8 | to.Bit()<<16
		}
		r |= m & (pawnAttacks[us.Other()][to] | steps)
	}
	if m := from & p.roles[Knight]; m != 0 {
		r |= m & knightAttacks[to]
	}
	if m := from & (p.roles[Bishop] | p.roles[Queen]); m != 0 {
		r |= m & BishopAttacks(to, occ)
	}
	if m := from & (p.roles[Rook] | p.roles[Queen]); m != 0 {
		r |= m & RookAttacks(to, occ)
	}
	return r
}

// legalMoves is LegalMoves restricted to the moves from a square of froms to a square of
// tos, in the same order. With first set it may stop once it has found a move (HasLegalMove).
func (p *Position) legalMoves(buf []Move, froms, tos Bitboard, first bool) []Move {
	us := p.Turn
	king := p.King(us)
	start := len(buf)
	if king == NoSquare {
		buf = p.Generate(buf, MoveRules{Color: us, Pseudo: true})
		if froms == All && tos == All {
			return buf
		}
		out := buf[:start]
		for _, m := range buf[start:] {
			if froms.Has(m.From) && tos.Has(m.To) {
				out = append(out, m)
			}
		}
		return out
	}
	them := us.Other()
	occ := p.Occupied()
	ours := p.colors[us]
	checkers := p.AttackersTo(king, them, occ)

	// King moves come first, in the loop written out here (perft's hot path). Looking for
	// any move (first), they come last, since each costs a look at its square's attackers.
	if froms.Has(king) && !first {
		occNoKing := occ &^ king.Bit()
		for tb := kingAttacks[king] &^ ours & tos; tb != 0; {
			to := tb.pop()
			if p.AttackersTo(to, them, occNoKing) == 0 {
				buf = append(buf, Move{From: king, To: to})
			}
		}
	} else if froms.Has(king) && checkers.Count() > 1 {
		buf = p.firstKingMove(buf, king, tos)
	}
	if checkers.Count() > 1 {
		return buf
	}

	target := ^ours & tos
	if checkers != 0 {
		c := checkers.First()
		target &= between[king][c] | checkers
	} else if froms.Has(king) {
		buf = p.castlingMoves(buf, us, king, occ, tos)
	}

	pinned := p.pinned(us, king, occ)

	// Knights (a pinned knight can never move).
	for fb := p.ByPiece(us, Knight) &^ pinned & froms; fb != 0; {
		from := fb.pop()
		for tb := knightAttacks[from] & target; tb != 0; {
			buf = append(buf, Move{From: from, To: tb.pop()})
		}
		if first && len(buf) > start {
			return buf
		}
	}
	// Sliders.
	for fb := (p.ByPiece(us, Bishop) | p.ByPiece(us, Rook) | p.ByPiece(us, Queen)) & froms; fb != 0; {
		from := fb.pop()
		att := Attacks(p.squares[from], from, occ) & target
		if pinned.Has(from) {
			att &= line[king][from]
		}
		for ; att != 0; buf = append(buf, Move{From: from, To: att.pop()}) {
		}
		if first && len(buf) > start {
			return buf
		}
	}
	// Pawns.
	pawns := p.ByPiece(us, Pawn)
	theirs := p.colors[them]
	for fb := pawns & froms; fb != 0; {
		from := fb.pop()
		mask := target
		if pinned.Has(from) {
			mask &= line[king][from]
		}
		buf = p.pawnMoves(buf, us, from, occ, theirs, mask)
		if first && len(buf) > start {
			return buf
		}
	}
	if ep := p.EnPassant; ep != NoSquare && tos.Has(ep) {
		buf = p.epCaptures(buf, us, ep, froms)
	}
	if first && len(buf) == start && froms.Has(king) {
		buf = p.firstKingMove(buf, king, tos)
	}
	return buf
}

// firstKingMove adds the first legal move of the side to move's king on king onto a square
// of tos, if it has one: a square no enemy man attacks, the king removed from the occupancy
// so that it cannot hide behind itself (as in legalMoves's own loop).
func (p *Position) firstKingMove(buf []Move, king Square, tos Bitboard) []Move {
	them := p.Turn.Other()
	occNoKing := p.Occupied() &^ king.Bit()
	for tb := kingAttacks[king] &^ p.colors[p.Turn] & tos; tb != 0; {
		to := tb.pop()
		if p.AttackersTo(to, them, occNoKing) == 0 {
			return append(buf, Move{From: king, To: to})
		}
	}
	return buf
}

// PassedOver is the e.p. squares a run of one side's moves leaves for LegalMovesEP: the square
// passed over by each double step whose pawn did not move again in the run (a Progressive
// series, rules.md §2 rule 6).
func PassedOver(run []Move) Bitboard {
	eps := Bitboard(0)
	for i, m := range run {
		if m.Kind != DoublePush {
			continue
		}
		again := false
		for _, later := range run[i+1:] {
			again = again || later.From == m.To
		}
		if !again {
			eps |= SquareAt(m.To.File(), (m.From.Rank()+m.To.Rank())/2).Bit()
		}
	}
	return eps
}

// LegalMovesEP is LegalMoves with the squares of eps as the en passant squares instead of
// p.EnPassant: Progressive Chess allows e.p. against every double step of the opponent's
// last series, Transactional Chess against those of his last commit. The e.p. captures come
// last, square by square from a1.
func (p *Position) LegalMovesEP(buf []Move, eps Bitboard) []Move {
	if eps == 0 && p.EnPassant == NoSquare {
		return p.LegalMoves(buf)
	}
	q := *p
	q.EnPassant = NoSquare
	buf = q.LegalMoves(buf)
	if eps == 0 {
		return buf
	}
	us := q.Turn
	if k := q.King(us); k != NoSquare && q.AttackersTo(k, us.Other(), q.Occupied()).Count() > 1 {
		return buf // double check: only the king moves (as LegalMoves)
	}
	for eps != 0 {
		buf = q.epCaptures(buf, us, eps.pop(), All)
	}
	return buf
}

// epCaptures adds us's legal en passant captures onto ep by the pawns on from. En passant is
// rare and has the horizontal-pin trap: each is tested by playing it.
func (p *Position) epCaptures(buf []Move, us Color, ep Square, from Bitboard) []Move {
	for fb := pawnAttacks[us.Other()][ep] & p.ByPiece(us, Pawn) & from; fb != 0; {
		m := Move{From: fb.pop(), To: ep, Kind: EnPassant}
		if p.epPlausible(us, ep) && p.leavesKingSafe(m, us) {
			buf = append(buf, m)
		}
	}
	return buf
}

// epPlausible checks that an enemy pawn stands where a double step would have put it.
func (p *Position) epPlausible(us Color, ep Square) bool {
	victim := ep - 8
	if us == Black {
		victim = ep + 8
	}
	return victim.Valid() && p.squares[victim] == MakePiece(us.Other(), Pawn) && p.squares[ep] == NoPiece
}

// pinned returns us's men pinned to the king on king.
func (p *Position) pinned(us Color, king Square, occ Bitboard) Bitboard {
	them := us.Other()
	snipers := (rookRays[king] & (p.ByPiece(them, Rook) | p.ByPiece(them, Queen))) |
		(bishopRays[king] & (p.ByPiece(them, Bishop) | p.ByPiece(them, Queen)))
	var pinned Bitboard
	for snipers != 0 {
		s := snipers.pop()
		b := between[king][s] & occ
		if b != 0 && b&(b-1) == 0 {
			pinned |= b & p.colors[us]
		}
	}
	return pinned
}

// pawnMoves adds a pawn's pushes and captures whose destinations lie in mask.
func (p *Position) pawnMoves(buf []Move, us Color, from Square, occ, theirs, mask Bitboard) []Move {
	fwd, startRank, lastRank := Square(8), 1, 7
	if us == Black {
		fwd, startRank, lastRank = -8, 6, 0
	}
	add := func(to Square, kind MoveKind) {
		if to.Rank() == lastRank {
			for _, r := range [...]Role{Queen, Rook, Bishop, Knight} {
				buf = append(buf, Move{From: from, To: to, Promotion: r})
			}
			return
		}
		buf = append(buf, Move{From: from, To: to, Kind: kind})
	}
	one := from + fwd
	if one.Valid() && !occ.Has(one) {
		if mask.Has(one) {
			add(one, Normal)
		}
		two := one + fwd
		if from.Rank() == startRank && !occ.Has(two) && mask.Has(two) {
			add(two, DoublePush)
		}
	}
	for tb := pawnAttacks[us][from] & theirs & mask; tb != 0; {
		add(tb.pop(), Normal)
	}
	return buf
}

// castlingMoves adds orthodox castling onto a square of to for a king on its home square that
// is not in check.
func (p *Position) castlingMoves(buf []Move, us Color, king Square, occ, to Bitboard) []Move {
	short, long, home := WhiteShort, WhiteLong, E1
	if us == Black {
		short, long, home = BlackShort, BlackLong, E8
	}
	if king != home || p.Castling&(short|long) == 0 {
		return buf
	}
	them := us.Other()
	safe := func(squares ...Square) bool {
		for _, s := range squares {
			if p.AttackersTo(s, them, occ) != 0 {
				return false
			}
		}
		return true
	}
	if p.Castling&short != 0 && to.Has(home+2) && occ&(between[home][home+3]) == 0 && safe(home+1, home+2) {
		buf = append(buf, Move{From: home, To: home + 2, Kind: Castle})
	}
	if p.Castling&long != 0 && to.Has(home-2) && occ&(between[home][home-4]) == 0 && safe(home-1, home-2) {
		buf = append(buf, Move{From: home, To: home - 2, Kind: Castle})
	}
	return buf
}

// leavesKingSafe plays m on a copy and reports whether c's king is unattacked afterwards
// (true when c has no king).
func (p *Position) leavesKingSafe(m Move, c Color) bool {
	q := *p
	q.Play(m)
	return !q.KingAttacked(c)
}

// MoveRules selects which moves Generate produces. The zero value plus a Color is orthodox
// legality for that colour, whoever is to move.
type MoveRules struct {
	Color Color // whose men move

	// Pseudo drops the king-safety test: moves may leave the mover's king attacked, and a
	// capture of the enemy king is a move like any other (Korolev, Train Wreck).
	Pseudo bool

	// ForwardOnly limits non-capturing moves of pieces (not pawns) to squares farther from
	// their owner's first rank; captures keep the full geometry (Train Wreck).
	ForwardOnly bool

	// SelfCapture lets a man "capture" a man of its own colour other than the king, with
	// its capture geometry (Korolev, rules.md KO-D1 b). Without Pseudo the mover's king must
	// still be safe after the move.
	SelfCapture bool

	// OwnMenOnly judges from the mover's own men alone: the moves that could be legal in
	// some position holding these men of his, whatever the opponent's men are and wherever
	// they stand (Kriegspiel's "Impossible", rules.md KR-D2). Own men block and occupy;
	// every other square may hold an enemy man or none, so a pawn may always try its
	// diagonals, a slider runs until one of its own men, castling needs only the right and
	// the squares between free of own men, and no move is refused for the king's safety.
	OwnMenOnly bool

	NoCastling  bool
	NoEnPassant bool
}

// Generate appends the moves of r.Color's men allowed by r. It is the general, slower path
// that variants use; LegalMoves is the orthodox fast path for the side to move.
func (p *Position) Generate(buf []Move, r MoveRules) []Move {
	us := r.Color
	start := len(buf)
	ours := p.colors[us]
	occ, theirs := p.Occupied(), p.colors[us.Other()]
	if r.OwnMenOnly {
		occ, theirs = ours, ^ours // any square but ours may hold an enemy man
	}
	targets := theirs // where a capture may land
	if r.SelfCapture {
		targets |= ours &^ p.roles[King]
	}
	for fb := ours &^ p.roles[Pawn]; fb != 0; {
		from := fb.pop()
		att := Attacks(p.squares[from], from, occ)
		quiet := att &^ occ &^ targets
		if r.ForwardOnly {
			quiet &= forwardOf(us, from)
		}
		for tb := (att & targets) | quiet; tb != 0; {
			buf = append(buf, Move{From: from, To: tb.pop()})
		}
	}
	for fb := ours & p.roles[Pawn]; fb != 0; {
		buf = p.pawnMoves(buf, us, fb.pop(), occ, targets, ^Bitboard(0))
	}
	if !r.NoEnPassant && !r.OwnMenOnly && p.EnPassant != NoSquare && p.epPlausible(us, p.EnPassant) {
		for fb := pawnAttacks[us.Other()][p.EnPassant] & ours & p.roles[Pawn]; fb != 0; {
			buf = append(buf, Move{From: fb.pop(), To: p.EnPassant, Kind: EnPassant})
		}
	}
	switch k := p.King(us); {
	case r.NoCastling || k == NoSquare:
	case r.OwnMenOnly:
		// Judged on his men alone, where nothing attacks the king's path.
		own := Position{Board: p.Only(us), Castling: p.Castling}
		buf = own.castlingMoves(buf, us, k, occ, All)
	case p.AttackersTo(k, us.Other(), occ) == 0:
		buf = p.castlingMoves(buf, us, k, occ, All)
	}
	if r.Pseudo || r.OwnMenOnly {
		return buf
	}
	out := buf[:start]
	for _, m := range buf[start:] {
		if p.leavesKingSafe(m, us) {
			out = append(out, m)
		}
	}
	return out
}

// forwardOf returns the squares on ranks farther from c's first rank than s.
func forwardOf(c Color, s Square) Bitboard {
	if c == White {
		return ^Bitboard(0) << (uint(s.Rank()+1) * 8)
	}
	return ^Bitboard(0) >> (uint(8-s.Rank()) * 8)
}

// Play makes m on the position without any legality test: the mover is the man on m.From,
// and afterwards it is the other colour's turn. Castling moves the rook too; en passant
// removes the passed pawn. It returns the man captured (NoPiece if none).
func (p *Position) Play(m Move) Piece {
	piece := p.squares[m.From]
	mover := piece.Color()
	if piece == NoPiece {
		mover = p.Turn
	}
	captured := NoPiece
	switch m.Kind {
	case Castle:
		p.Remove(m.From)
		rookFrom := m.CastlingRook()
		rook := p.Remove(rookFrom)
		p.Put(m.To, piece)
		p.Put(m.RookTo(), rook)
		p.Castling &^= castlingLost[rookFrom]
	case EnPassant:
		captured = p.Remove(m.CaptureSquare())
		p.Remove(m.From)
		p.Put(m.To, piece)
	default:
		captured = p.Remove(m.To)
		p.Remove(m.From)
		if m.Promotion != NoRole {
			piece = MakePiece(mover, m.Promotion)
		}
		p.Put(m.To, piece)
	}
	p.Castling &^= castlingLost[m.From] | castlingLost[m.To]
	p.EnPassant = NoSquare
	if piece.Role() == Pawn || m.Promotion != NoRole {
		if d := int(m.To) - int(m.From); d == 16 || d == -16 {
			p.EnPassant = (m.From + m.To) / 2
		}
	}
	if captured != NoPiece || piece.Role() == Pawn || m.Promotion != NoRole {
		p.Halfmove = 0
	} else {
		p.Halfmove++
	}
	if mover == Black {
		p.Fullmove++
	}
	p.Turn = mover.Other()
	return captured
}

var castlingLost [64]CastlingRights

// CastlingRightsOf returns the castling rights that need the man on s unmoved: both of a
// colour's on its king's home square, one on a rook's corner, none elsewhere. A move from or
// to s ends them.
func CastlingRightsOf(s Square) CastlingRights { return castlingLost[s] }

func init() {
	castlingLost[E1] = WhiteShort | WhiteLong
	castlingLost[H1] = WhiteShort
	castlingLost[A1] = WhiteLong
	castlingLost[E8] = BlackShort | BlackLong
	castlingLost[H8] = BlackShort
	castlingLost[A8] = BlackLong
}

// InCheck reports whether the side to move's king is attacked.
func (p *Position) InCheck() bool { return p.KingAttacked(p.Turn) }

// IsCapture reports whether m takes a man in this position.
func (p *Position) IsCapture(m Move) bool {
	return m.Kind == EnPassant || (m.Kind != Castle && p.squares[m.To] != NoPiece)
}

// GivesCheck reports whether playing m attacks the opposing king.
func (p *Position) GivesCheck(m Move) bool {
	q := *p
	q.Play(m)
	return q.InCheck()
}

// Checks reports whether playing m attacks the opposing king and whether it mates: the
// opponent, in check, has no legal move. It is what a check mark written after m claims.
func (p *Position) Checks(m Move) (check, mate bool) {
	if p.checksNot(m) {
		return false, false
	}
	q := *p
	q.Play(m)
	if !q.InCheck() {
		return false, false
	}
	return true, !q.HasLegalMove()
}

// checksNot reports, without playing it, that the plain move m (no castling, en passant or
// promotion) leaves the opposing king unattacked; false means "play it and see". The board
// after m differs only on m.From (empty) and m.To (the mover): the king's attackers are then
// the mover, judged from m.To, and the others, judged with that occupancy.
func (p *Position) checksNot(m Move) bool {
	pc := p.squares[m.From]
	if pc == NoPiece || (m.Kind != Normal && m.Kind != DoublePush) || m.Promotion != NoRole {
		return false
	}
	us := pc.Color()
	if p.squares[m.To] != NoPiece && p.squares[m.To].Color() == us {
		return false
	}
	them := us.Other()
	k := p.King(them)
	if k == NoSquare {
		return true
	}
	occ := p.Occupied()&^m.From.Bit() | m.To.Bit()
	if emptyBoardAttacks(pc, m.To).Has(k) && Attacks(pc, m.To, occ).Has(k) {
		return false
	}
	others := p.colors[us] &^ m.From.Bit()
	if others&((knightAttacks[k]&p.roles[Knight])|(kingAttacks[k]&p.roles[King])|(pawnAttacks[them][k]&p.roles[Pawn])) != 0 {
		return false
	}
	// A slider's table is looked up only when one stands on a line through the king.
	if rq := others & (p.roles[Rook] | p.roles[Queen]); rq&rookRays[k] != 0 && RookAttacks(k, occ)&rq != 0 {
		return false
	}
	if bq := others & (p.roles[Bishop] | p.roles[Queen]); bq&bishopRays[k] != 0 && BishopAttacks(k, occ)&bq != 0 {
		return false
	}
	return true
}

// emptyBoardAttacks returns the squares a piece on s attacks on an otherwise empty board.
func emptyBoardAttacks(p Piece, s Square) Bitboard {
	switch p.Role() {
	case Bishop:
		return bishopRays[s]
	case Rook:
		return rookRays[s]
	case Queen:
		return bishopRays[s] | rookRays[s]
	}
	return Attacks(p, s, 0)
}
