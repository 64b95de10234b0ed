package chess

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// CastlingRights is a set of the four orthodox castling rights.
type CastlingRights uint8

const (
	WhiteShort CastlingRights = 1 << iota
	WhiteLong
	BlackShort
	BlackLong
)

// Position is a board with the state orthodox rules need: side to move, castling rights,
// the en passant square (set after every double step, as FEN writes it), and the clocks.
type Position struct {
	Board
	Turn      Color
	Castling  CastlingRights
	EnPassant Square // the square passed over by the last double step, or NoSquare
	Halfmove  int    // plies since the last capture or pawn move
	Fullmove  int    // starts at 1, incremented after Black's move
}

// StartFEN is the orthodox initial position.
const StartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// Start returns the orthodox initial position.
func Start() Position { return start }

// start is StartFEN read once, after the Zobrist keys (init).
var start Position

// ParseFEN reads a FEN. The placement is required; missing trailing fields default to
// "w - - 0 1". It does not require kings or any other material: use Validate for that.
func ParseFEN(fen string) (Position, error) {
	p := Position{EnPassant: NoSquare, Fullmove: 1}
	fields := strings.Fields(fen)
	if len(fields) == 0 {
		return p, errors.New("chess: empty FEN")
	}
	if len(fields) > 6 {
		return p, fmt.Errorf("chess: FEN has %d fields, at most 6", len(fields))
	}
	if err := p.Board.setPlacement(fields[0]); err != nil {
		return p, err
	}
	if len(fields) > 1 {
		switch fields[1] {
		case "w":
			p.Turn = White
		case "b":
			p.Turn = Black
		default:
			return p, fmt.Errorf("chess: FEN side to move %q, want w or b", fields[1])
		}
	}
	if len(fields) > 2 && fields[2] != "-" {
		for i := 0; i < len(fields[2]); i++ {
			var r CastlingRights
			switch fields[2][i] {
			case 'K':
				r = WhiteShort
			case 'Q':
				r = WhiteLong
			case 'k':
				r = BlackShort
			case 'q':
				r = BlackLong
			default:
				return p, fmt.Errorf("chess: FEN castling field %q: unknown letter %q", fields[2], fields[2][i])
			}
			p.Castling |= r
		}
	}
	p.Castling &= p.possibleCastling()
	if len(fields) > 3 && fields[3] != "-" {
		s, err := ParseSquare(fields[3])
		if err != nil {
			return p, fmt.Errorf("chess: FEN en passant field: %w", err)
		}
		if s.Rank() != 2 && s.Rank() != 5 {
			return p, fmt.Errorf("chess: FEN en passant square %v is not on rank 3 or 6", s)
		}
		p.EnPassant = s
	}
	if len(fields) > 4 {
		n, err := strconv.Atoi(fields[4])
		if err != nil || n < 0 || n > 10000 {
			return p, fmt.Errorf("chess: FEN halfmove clock %q is not a small number", fields[4])
		}
		p.Halfmove = n
	}
	if len(fields) > 5 {
		n, err := strconv.Atoi(fields[5])
		if err != nil || n < 1 || n > 100000 {
			return p, fmt.Errorf("chess: FEN move number %q is not a number from 1", fields[5])
		}
		p.Fullmove = n
	}
	return p, nil
}

// setPlacement reads the first FEN field.
func (b *Board) setPlacement(s string) error {
	*b = Board{}
	ranks := strings.Split(s, "/")
	if len(ranks) != 8 {
		return fmt.Errorf("chess: FEN placement %q has %d ranks, want 8", s, len(ranks))
	}
	for i, row := range ranks {
		rank := 7 - i
		file := 0
		for j := 0; j < len(row); j++ {
			c := row[j]
			if c >= '1' && c <= '8' {
				file += int(c - '0')
				if file > 8 {
					return fmt.Errorf("chess: FEN rank %d is longer than 8 squares", rank+1)
				}
				continue
			}
			col := White
			if c >= 'a' && c <= 'z' {
				col = Black
				c -= 'a' - 'A'
			}
			r := roleFromLetter(c)
			if r == NoRole {
				return fmt.Errorf("chess: FEN placement: unknown piece letter %q", row[j])
			}
			if file > 7 {
				return fmt.Errorf("chess: FEN rank %d is longer than 8 squares", rank+1)
			}
			b.Put(SquareAt(file, rank), MakePiece(col, r))
			file++
		}
		if file != 8 {
			return fmt.Errorf("chess: FEN rank %d has %d squares, want 8", rank+1, file)
		}
	}
	return nil
}

// Placement writes the first FEN field.
func (b *Board) Placement() string {
	var sb strings.Builder
	for rank := 7; rank >= 0; rank-- {
		empty := 0
		for file := 0; file < 8; file++ {
			p := b.squares[SquareAt(file, rank)]
			if p == NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				sb.WriteByte(byte('0' + empty))
				empty = 0
			}
			sb.WriteByte(p.FENChar())
		}
		if empty > 0 {
			sb.WriteByte(byte('0' + empty))
		}
		if rank > 0 {
			sb.WriteByte('/')
		}
	}
	return sb.String()
}

// FEN writes the position.
func (p *Position) FEN() string {
	var sb strings.Builder
	sb.WriteString(p.Placement())
	if p.Turn == White {
		sb.WriteString(" w ")
	} else {
		sb.WriteString(" b ")
	}
	if p.Castling == 0 {
		sb.WriteByte('-')
	}
	for i, c := range "KQkq" {
		if p.Castling&(1<<i) != 0 {
			sb.WriteRune(c)
		}
	}
	sb.WriteByte(' ')
	sb.WriteString(p.EnPassant.String())
	sb.WriteByte(' ')
	sb.WriteString(strconv.Itoa(p.Halfmove))
	sb.WriteByte(' ')
	sb.WriteString(strconv.Itoa(p.Fullmove))
	return sb.String()
}

// possibleCastling drops rights whose king or rook is not on its home square.
func (p *Position) possibleCastling() CastlingRights {
	var ok CastlingRights
	if p.At(E1) == MakePiece(White, King) {
		if p.At(H1) == MakePiece(White, Rook) {
			ok |= WhiteShort
		}
		if p.At(A1) == MakePiece(White, Rook) {
			ok |= WhiteLong
		}
	}
	if p.At(E8) == MakePiece(Black, King) {
		if p.At(H8) == MakePiece(Black, Rook) {
			ok |= BlackShort
		}
		if p.At(A8) == MakePiece(Black, Rook) {
			ok |= BlackLong
		}
	}
	return ok
}

// Validate reports why the position cannot arise in orthodox chess: a side without exactly
// one king, pawns on the first or last rank, or the side not to move in check.
func (p *Position) Validate() error {
	for _, c := range []Color{White, Black} {
		if n := p.ByPiece(c, King).Count(); n != 1 {
			return fmt.Errorf("chess: %v has %d kings, want 1", c, n)
		}
	}
	if p.ByRole(Pawn)&(Rank1|Rank8) != 0 {
		return errors.New("chess: a pawn stands on the first or last rank")
	}
	if p.KingAttacked(p.Turn.Other()) {
		return fmt.Errorf("chess: %v is in check but it is %v's move", p.Turn.Other(), p.Turn)
	}
	return nil
}

// Hash is the Zobrist key of the position for repetition: placement, side to move, castling
// rights, and the en passant file only when the capture there is legal (FIDE 9.2.3: a pawn
// beside, pinned or leaving its king in check, gives no right that makes the position other).
func (p *Position) Hash() uint64 {
	h := p.Board.hash ^ zobristCastling[p.Castling]
	if p.Turn == Black {
		h ^= zobristTurn
	}
	if p.EnPassant != NoSquare && pawnAttacks[p.Turn.Other()][p.EnPassant]&p.ByPiece(p.Turn, Pawn) != 0 && p.canTakeEP() {
		h ^= zobristEnPassant[p.EnPassant.File()]
	}
	return h
}

// canTakeEP reports whether a legal move of the side to move takes en passant.
func (p *Position) canTakeEP() bool {
	var buf [256]Move
	for _, m := range p.LegalMoves(buf[:0]) {
		if m.Kind == EnPassant {
			return true
		}
	}
	return false
}

// Zobrist keys come from a fixed splitmix64 stream so that hashes are stable across runs.
var (
	zobristPiece     [16][64]uint64
	zobristCastling  [16]uint64
	zobristEnPassant [8]uint64
	zobristTurn      uint64
)

func init() {
	state := uint64(0x2545F4914F6CDD1D)
	next := func() uint64 {
		state += 0x9E3779B97F4A7C15
		z := state
		z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
		z = (z ^ (z >> 27)) * 0x94D049BB133111EB
		return z ^ (z >> 31)
	}
	for p := range zobristPiece {
		for s := range zobristPiece[p] {
			zobristPiece[p][s] = next()
		}
	}
	var single [4]uint64
	for i := range single {
		single[i] = next()
	}
	for r := range zobristCastling {
		for i := 0; i < 4; i++ {
			if r&(1<<i) != 0 {
				zobristCastling[r] ^= single[i]
			}
		}
	}
	for i := range zobristEnPassant {
		zobristEnPassant[i] = next()
	}
	zobristTurn = next()
	var err error
	if start, err = ParseFEN(StartFEN); err != nil {
		panic(err) // a constant; cannot fail
	}
}
