package trainwreck

import (
	"strings"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/variant"
)

// The moves of Train Wreck, from the chess core's general generator (chess.Generate: no
// king safety, forward-only quiet moves, captures of the other colour only, no e.p.) plus the
// queens' castling, which the core does not know.

// rules are the core's rules for the men of one colour, whoever moves them.
func rules(c chess.Color, own bool) chess.MoveRules {
	// Castling with the king is a king move (rule 2), so only the king's owner may castle it.
	return chess.MoveRules{Color: c, Pseudo: true, ForwardOnly: true, NoEnPassant: true, NoCastling: !own}
}

// ownMoves appends the moves of c's own men for c's part 1 (TW-D7): every man, the king
// included, with king castling (TW-D4) and queen castling (TW-D5).
func ownMoves(buf []chess.Move, p *chess.Position, c chess.Color, unmoved chess.Bitboard) []chess.Move {
	buf = p.Generate(buf, rules(c, true))
	return queenCastles(buf, p, c, unmoved)
}

// otherMoves appends the moves of c's men that their opponent may make in his part 2
// (TW-D8): every man but the king, the queen's castling included (TW-D5).
func otherMoves(buf []chess.Move, p *chess.Position, c chess.Color, unmoved chess.Bitboard) []chess.Move {
	start := len(buf)
	buf = p.Generate(buf, rules(c, false))
	out := buf[:start]
	for _, m := range buf[start:] {
		if p.At(m.From).Role() != chess.King {
			out = append(out, m)
		}
	}
	return queenCastles(out, p, c, unmoved)
}

// hasOwnMove reports whether c has a move for his own men (TW-D7).
func hasOwnMove(p *chess.Position, c chess.Color, unmoved chess.Bitboard) bool {
	var buf [128]chess.Move
	return len(ownMoves(buf[:0], p, c, unmoved)) > 0
}

// queenHome is c's queen's square in the array, and the rank of c's men's first row.
func queenHome(c chess.Color) chess.Square {
	if c == chess.White {
		return chess.D1
	}
	return chess.D8
}

// queenCastles appends the castlings of c's queen (TW-D5): queen and rook unmoved (by
// either player), the squares between them empty; attacked squares do not matter. The
// queen moves two squares towards the rook, which goes to the square she crossed:
// d1-b1 with a1-c1, d1-f1 with h1-e1 (the king gone from e1).
func queenCastles(buf []chess.Move, p *chess.Position, c chess.Color, unmoved chess.Bitboard) []chess.Move {
	home := queenHome(c)
	if !unmoved.Has(home) || p.At(home) != chess.MakePiece(c, chess.Queen) {
		return buf
	}
	occ := p.Occupied()
	rook := chess.MakePiece(c, chess.Rook)
	for _, to := range [2]chess.Square{home - 2, home + 2} {
		m := chess.Move{From: home, To: to, Kind: chess.Castle}
		corner := m.CastlingRook()
		if unmoved.Has(corner) && p.At(corner) == rook && chess.Between(home, corner)&occ == 0 {
			buf = append(buf, m)
		}
	}
	return buf
}

// homeMen are the squares of the queens and rooks standing where the array puts them: the
// men whose castling rights a position set up from a FEN is taken to keep (the FEN cannot
// say whether they moved).
func homeMen(p *chess.Position) chess.Bitboard {
	var b chess.Bitboard
	for _, c := range [2]chess.Color{chess.White, chess.Black} {
		home := queenHome(c)
		if p.At(home) == chess.MakePiece(c, chess.Queen) {
			b |= home.Bit()
		}
		for _, s := range [2]chess.Square{home &^ 7, home | 7} {
			if p.At(s) == chess.MakePiece(c, chess.Rook) {
				b |= s.Bit()
			}
		}
	}
	return b
}

// play makes m in p for the player whose turn it is: p.Turn and the turn number stay (a turn
// has several moves, of men of both colours), there is no e.p. square, and the castling
// rights of every man that moved or was taken go, the queens' in unmoved with them; no
// move clock runs (TW-D9). It returns the man taken.
func play(p *chess.Position, unmoved *chess.Bitboard, m chess.Move) chess.Piece {
	turn, no := p.Turn, p.Fullmove
	gone := m.From.Bit() | m.To.Bit()
	if m.Kind == chess.Castle {
		gone |= m.CastlingRook().Bit()
	}
	*unmoved &^= gone
	taken := p.Play(m)
	p.Turn, p.Fullmove, p.EnPassant = turn, no, chess.NoSquare
	p.Halfmove = 0 // no move count in this game (TW-D9)
	return taken
}

// manOf names a man for a player: "White's knight".
func manOf(pc chess.Piece) string { return pc.Color().String() + "'s " + pc.Role().String() }

// longMove writes m, about to be made in p, in long algebraic notation with the man's
// letter: "Ng1-f3", "e4xd5", "e7-e8=N", "O-O" for a king's castling, "QO-O-O" for a queen's.
func longMove(p *chess.Position, m chess.Move) string {
	pc := p.At(m.From)
	if m.Kind == chess.Castle {
		side := "O-O"
		if m.To < m.From {
			side = "O-O-O"
		}
		if pc.Role() == chess.Queen {
			return "Q" + side
		}
		return side
	}
	var sb strings.Builder
	if pc.Role() != chess.Pawn {
		sb.WriteString(pc.Role().Letter())
	}
	sb.WriteString(m.From.String())
	if p.At(m.To) != chess.NoPiece {
		sb.WriteByte('x')
	} else {
		sb.WriteByte('-')
	}
	sb.WriteString(m.To.String())
	if m.Promotion != chess.NoRole {
		sb.WriteByte('=')
		sb.WriteString(m.Promotion.Letter())
	}
	return sb.String()
}

// readMove reads one move written by the player whose turn it is, for the men of colour c
// (his own in part 1, his opponent's in part 2), and finds it among cands. The whole board
// is in sight: a capture sign on a move that takes nothing is refused as a probable mistake
// (rules.md 0.3b). There is no check, so check marks are read as annotations and ignored.
// A refusal says why in the game's terms: a backward move, a capture of a man of the
// moving man's own colour, a man of the wrong colour, the opponent's king.
func readMove(p *chess.Position, text string, c chess.Color, own bool, cands []chess.Move, unmoved chess.Bitboard) (chess.Move, []chess.Warning, error) {
	t := strings.TrimSpace(text)
	// A castling that names its man: QO-O-O, KO-O (rules.md 9.4).
	if len(t) >= 4 && (t[0] == 'Q' || t[0] == 'K') && (t[1] == 'O' || t[1] == '0' || t[1] == 'o') {
		role := chess.Queen
		if t[0] == 'K' {
			role = chess.King
		}
		n, err := chess.ParseNotation(t[1:])
		if err != nil || n.Castle == 0 {
			return chess.NullMove, nil, variant.Refuse("trainwreck/castling-form", map[string]any{"Text": t})
		}
		for _, m := range cands {
			if m.Kind == chess.Castle && p.At(m.From).Role() == role && (m.To < m.From) == (n.Castle == chess.CastleLong) {
				return m, nil, nil
			}
		}
		return chess.NullMove, nil, variant.Refuse("trainwreck/cannot-castle", map[string]any{"Side": c, "Man": role, "Long": n.Castle == chess.CastleLong})
	}
	n, err := chess.ParseNotation(t)
	if err != nil {
		return chess.NullMove, nil, err
	}
	if n.FromFile >= 0 && n.FromRank >= 0 {
		from := chess.SquareAt(int(n.FromFile), int(n.FromRank))
		pc := p.At(from)
		switch {
		case pc == chess.NoPiece:
			return chess.NullMove, nil, variant.Refuse("trainwreck/no-man", map[string]any{"Square": from})
		case pc.Color() != c && own:
			return chess.NullMove, nil, variant.Refuse("trainwreck/not-own-man", map[string]any{"Square": from, "Side": pc.Color()})
		case pc.Color() != c:
			return chess.NullMove, nil, variant.Refuse("trainwreck/own-man-in-part-2", map[string]any{"Square": from, "Side": c})
		case !own && pc.Role() == chess.King:
			return chess.NullMove, nil, variant.Refuse("trainwreck/not-his-king", map[string]any{"Side": c})
		}
	}
	if !own && n.Role == chess.King && n.Castle == 0 {
		return chess.NullMove, nil, variant.Refuse("trainwreck/not-his-king", map[string]any{"Side": c})
	}
	if n.Castle != 0 && !own {
		// Only a queen castles in part 2.
		for _, m := range cands {
			if m.Kind == chess.Castle && (m.To < m.From) == (n.Castle == chess.CastleLong) {
				return m, nil, nil
			}
		}
		return chess.NullMove, nil, variant.Refuse("trainwreck/queen-cannot-castle", map[string]any{"Side": c, "Long": n.Castle == chess.CastleLong})
	}
	m, warns, err := chess.Resolve(p, n, cands)
	if err != nil {
		return m, warns, explain(p, n, c, own, unmoved, err)
	}
	kept := warns[:0]
	for _, w := range warns {
		switch w.Code {
		case chess.WarnCaptureMark:
			return chess.NullMove, warns, variant.Refuse("common/capture-mark", map[string]any{"Warning": w.Text})
		case chess.WarnMissingSymbol:
		default:
			kept = append(kept, w)
		}
	}
	return m, kept, nil
}

// explain says why n is not a move of c's men here, in the game's terms, or returns err as
// the core's resolver wrote it.
func explain(p *chess.Position, n chess.Notation, c chess.Color, own bool, unmoved chess.Bitboard, err error) error {
	// The moves the orthodox geometry would give c's men, backwards and onto their own
	// colour included: what a player who forgot a rule of the game meant.
	wide := p.Generate(nil, chess.MoveRules{Color: c, Pseudo: true, NoEnPassant: true, NoCastling: true, SelfCapture: true})
	if m, _, e := chess.Resolve(p, n, wide); e == nil {
		pc, victim := p.At(m.From), p.At(m.To)
		switch {
		case !own && pc.Role() == chess.King:
			return variant.Refuse("trainwreck/not-his-king", map[string]any{"Side": c})
		case victim != chess.NoPiece && victim.Color() == c:
			return variant.Refuse("trainwreck/own-colour-capture", map[string]any{"Man": manOf(pc), "From": m.From, "Victim": strings.ToLower(c.String()) + " " + victim.Role().String(), "To": m.To})
		case victim == chess.NoPiece && pc.Role() != chess.Pawn:
			return variant.Refuse("trainwreck/forward-only", map[string]any{"Man": manOf(pc), "From": m.From, "White": c == chess.White})
		}
	}
	if n.Role == chess.Pawn && n.Capture && n.To.Valid() && p.At(n.To) == chess.NoPiece {
		return variant.Refuse("trainwreck/pawn-takes-nothing", map[string]any{"Square": n.To})
	}
	// A move of the other colour's men: the wrong part.
	var others []chess.Move
	if own {
		others = otherMoves(nil, p, c.Other(), unmoved)
	} else {
		others = ownMoves(nil, p, c.Other(), unmoved)
	}
	if m, _, e := chess.Resolve(p, n, others); e == nil {
		if own {
			return variant.Refuse("trainwreck/not-own-move", map[string]any{"Side": c.Other(), "Square": m.From})
		}
		return variant.Refuse("trainwreck/own-move-in-part-2", map[string]any{"Square": m.From, "Side": c})
	}
	return err
}
