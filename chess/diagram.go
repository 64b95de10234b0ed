package chess

import "strings"

// DiagramOptions shapes a board diagram.
type DiagramOptions struct {
	// Bottom is the side drawn at the bottom: White gives rank 1 at the bottom.
	Bottom Color
	// Marked squares are drawn [x] instead of  x , e.g. a player's own locked squares.
	Marked Bitboard
	// MarkLegend explains the brackets; it is printed only when some square is marked.
	MarkLegend string
	// Legend, when set, is the line under the board that names the men (in the reader's
	// language); else the English one.
	Legend string
	// Figurine draws the men as Unicode chess figurines (♔ ♚ ...) instead of letters, for
	// mail clients that show them.
	Figurine bool
}

// figurines are the Unicode chess symbols of the men, by FEN letter.
var figurines = map[byte]string{'K': "♔", 'Q': "♕", 'R': "♖", 'B': "♗", 'N': "♘", 'P': "♙",
	'k': "♚", 'q': "♛", 'r': "♜", 'b': "♝", 'n': "♞", 'p': "♟"}

// Diagram draws the board as plain ASCII, 36 columns wide, with coordinates and a legend:
//
//	    a  b  c  d  e  f  g  h
//	  +------------------------+
//	8 | r  n  b  q  k  b  n  r | 8
//	...
//
// Upper case is White, lower case Black, '.' an empty square; with Figurine the men are the
// Unicode figurines.
func (b *Board) Diagram(o DiagramOptions) string {
	var sb strings.Builder
	files := "    a  b  c  d  e  f  g  h\n"
	if o.Bottom == Black {
		files = "    h  g  f  e  d  c  b  a\n"
	}
	border := "  +------------------------+\n"
	sb.WriteString(files)
	sb.WriteString(border)
	for i := 0; i < 8; i++ {
		rank, step, file := 7-i, 1, 0
		if o.Bottom == Black {
			rank, step, file = i, -1, 7
		}
		label := byte('1' + rank)
		sb.WriteByte(label)
		sb.WriteString(" |")
		for j := 0; j < 8; j, file = j+1, file+step {
			s := SquareAt(file, rank)
			l, r := byte(' '), byte(' ')
			if o.Marked.Has(s) {
				l, r = '[', ']'
			}
			sb.WriteByte(l)
			if f, ok := figurines[b.squares[s].FENChar()]; ok && o.Figurine {
				sb.WriteString(f)
			} else {
				sb.WriteByte(b.squares[s].FENChar())
			}
			sb.WriteByte(r)
		}
		sb.WriteString("| ")
		sb.WriteByte(label)
		sb.WriteByte('\n')
	}
	sb.WriteString(border)
	sb.WriteString(files)
	switch {
	case o.Legend != "":
		sb.WriteString("  " + o.Legend + "\n")
	case o.Figurine:
		sb.WriteString("  White: ♔ ♕ ♖ ♗ ♘ ♙   Black: ♚ ♛ ♜ ♝ ♞ ♟\n")
	default:
		sb.WriteString("  White: K Q R B N P   Black: k q r b n p\n")
	}
	if o.Marked != 0 && o.MarkLegend != "" {
		sb.WriteString("  [x] ")
		sb.WriteString(o.MarkLegend)
		sb.WriteByte('\n')
	}
	return sb.String()
}
