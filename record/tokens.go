package record

import (
	"fmt"
	"strconv"
	"strings"
)

// TokenKind classifies a movetext token.
type TokenKind uint8

const (
	Symbol  TokenKind = iota + 1 // a move or label as written: e4, Nxc7+, T1:, 0-0, Kd8
	Number                       // a move or series number: "12.", "12...", "4"
	Comma                        // "," between the moves of a series
	Paren                        // a one-word parenthesis kept as a token: "(C)", "(R)", "(Q)+"
	Comment                      // {text} or ; to end of line (Text holds the inside)
	NAG                          // $12, or a free-standing !, ?, !!, ?!
	Result                       // 1-0, 0-1, 1/2-1/2, *
)

// Token is one piece of movetext; Offset is its byte position in the movetext.
type Token struct {
	Kind   TokenKind
	Text   string
	Offset int
}

// Tokenize splits movetext into tokens, appending to buf. Variations (parenthesised move
// sequences, nested) are skipped. A parenthesis holding a single word of at most three
// letters, such as (C), (R) or (Q), is not a variation but a Paren token: the literature
// writes Transactional commits and promotions that way. Check and mate marks and
// annotations written right after it belong to it: "(Q)+" is one Paren token.
//
// "e.p." (or "ep") written apart from the move before it, "exd6 e.p.", is part of that move's
// Symbol, spaces and all (the notation reader drops it).
//
// A promotion piece in parentheses written against its move, with no space (cxd1(Q)+,
// c:d8(Q)#, the Conditional branch g7?a8(Q)/Kc2), stays inside the Symbol with whatever
// follows it: the letters Q, R, B, N and T (rook, Portuguese torre), either case. Whether
// "(R)" there means a rook or a rollback is the variant's to say (rules.md 0.3a).
func Tokenize(movetext string, buf []Token) ([]Token, error) {
	s := movetext
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '{':
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				return buf, At(i, "a comment opened here is not closed with }")
			}
			buf = append(buf, Token{Comment, s[i+1 : i+end], i})
			i += end + 1
		case c == ';':
			end := strings.IndexByte(s[i:], '\n')
			if end < 0 {
				end = len(s) - i
			}
			buf = append(buf, Token{Comment, s[i+1 : i+end], i})
			i += end
		case c == '(':
			if w := parenWord(s[i:]); w > 0 {
				for i+w < len(s) && isMark(s[i+w]) {
					w++
				}
				buf = append(buf, Token{Paren, s[i : i+w], i})
				i += w
				continue
			}
			depth, j := 0, i
			for ; j < len(s); j++ {
				switch s[j] {
				case '(':
					depth++
				case ')':
					depth--
				case '{':
					if k := strings.IndexByte(s[j:], '}'); k >= 0 {
						j += k
					}
				}
				if depth == 0 {
					break
				}
			}
			if depth != 0 {
				return buf, At(i, "a variation opened here is not closed with )")
			}
			i = j + 1
		case c == ')':
			return buf, At(i, "a ) closes no variation")
		case c == ',':
			buf = append(buf, Token{Comma, ",", i})
			i++
		case c == '$':
			j := i + 1
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			buf = append(buf, Token{NAG, s[i:j], i})
			i = j
		default:
			j := i
			for j < len(s) {
				if s[j] == '(' && j > i && isPromotionParen(s[j:]) {
					j += 3 // "(Q)" against its move: part of the word
					continue
				}
				if endsWord[s[j]] {
					break
				}
				j++
			}
			if j == i { // a lone } or other stray byte
				return buf, At(i, "unexpected %q", s[i])
			}
			word := s[i:j]
			if n := len(buf); (word == "e.p." || word == "ep") && n > 0 && buf[n-1].Kind == Symbol &&
				strings.TrimSpace(s[buf[n-1].Offset+len(buf[n-1].Text):i]) == "" {
				// "exd6 e.p.", as the literature writes it: the mark belongs to its move.
				buf[n-1].Text = s[buf[n-1].Offset:j]
				i = j
				continue
			}
			buf = append(buf, Token{classify(word), word, i})
			i = j
		}
	}
	return buf, nil
}

// endsWord holds the bytes that end a word of movetext: " \t\r\n{};(),$".
var endsWord = func() (t [256]bool) {
	for _, c := range []byte(" \t\r\n{};(),$") {
		t[c] = true
	}
	return t
}()

// parenWord returns the length of "(X)" with X one to three letters, else 0.
func parenWord(s string) int {
	for j := 1; j < len(s) && j <= 4; j++ {
		c := s[j]
		if c == ')' {
			if j == 1 {
				return 0
			}
			return j + 1
		}
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z') {
			return 0
		}
	}
	return 0
}

// isPromotionParen reports whether s starts with a promotion piece in parentheses: "(Q)",
// "(R)", "(B)", "(N)" or "(T)", either case.
func isPromotionParen(s string) bool {
	if len(s) < 3 || s[0] != '(' || s[2] != ')' {
		return false
	}
	switch s[1] {
	case 'Q', 'R', 'B', 'N', 'T', 'q', 'r', 'b', 'n', 't':
		return true
	}
	return false
}

// isMark reports whether c is a check or mate mark or an annotation sign.
func isMark(c byte) bool { return c == '+' || c == '#' || c == '!' || c == '?' }

func classify(w string) TokenKind {
	switch w {
	case "1-0", "0-1", "1/2-1/2", "*", "½-½":
		return Result
	case "!", "?", "!!", "??", "!?", "?!":
		return NAG
	}
	digits := 0
	for digits < len(w) && w[digits] >= '0' && w[digits] <= '9' {
		digits++
	}
	if digits > 0 && strings.Trim(w[digits:], ".") == "" && !IsNumericMove(w) {
		return Number
	}
	return Symbol
}

// IsNumericMove reports whether w is a move in ICCF numeric notation (5254, 57581, and with
// check marks): four digits 1 to 8 and a fifth 1 to 4 for a promotion. Such a word is a
// Symbol, not a move number: a move number written bare (no dot) of 1111 or more and made of
// those digits would read as a move, which no record of a real game has.
func IsNumericMove(w string) bool {
	w = strings.TrimRight(w, "+#!?")
	if len(w) != 4 && len(w) != 5 {
		return false
	}
	for i := 0; i < len(w); i++ {
		if w[i] < '1' || w[i] > '8' || (i == 4 && w[i] > '4') {
			return false
		}
	}
	return true
}

// NumberAndSymbol splits a symbol like "12.e4" or "3...Nf6" that omits the space after
// the move number. It returns ok=false when w does not start with a number and dots.
func NumberAndSymbol(w string) (num, rest string, ok bool) {
	d := 0
	for d < len(w) && w[d] >= '0' && w[d] <= '9' {
		d++
	}
	e := d
	for e < len(w) && w[e] == '.' {
		e++
	}
	if d == 0 || e == d || e == len(w) {
		return "", w, false
	}
	return w[:e], w[e:], true
}

// MoveText reads a Number or Symbol token of movetext: the move number it carries ("12.",
// "3...", or "" when none) and the move written after it ("" for a bare number). Games'
// record readers take both kinds of token with it: "12. e4" and "12.e4" read alike.
func MoveText(t Token) (number, move string) {
	if t.Kind == Number {
		return t.Text, ""
	}
	if num, rest, ok := NumberAndSymbol(t.Text); ok {
		return num, rest
	}
	return "", t.Text
}

// NormalizeResult maps the result tokens to PGN's: "½-½" becomes "1/2-1/2".
func NormalizeResult(r string) string {
	if r == "½-½" {
		return "1/2-1/2"
	}
	return r
}

// NumberFits compares a move number written in a record ("12.", "3...", "7") with the one a
// reader counts: due is the number of the turn to come and black whether Black is to write it
// (alternating games write "N." before White's move and "N..." before Black's; a number
// without dots fits either side, as series and turns are numbered). It returns a warning for
// a number that does not fit, "" for one that does. A record's numbers are labels: a reader
// warns and keeps its own count.
func NumberFits(written string, due int, black bool) string {
	digits := strings.TrimRight(written, ".…")
	dots := written[len(digits):]
	n, err := strconv.Atoi(digits)
	want := strconv.Itoa(due)
	switch {
	case dots == "":
	case black:
		want += "..."
	default:
		want += "."
	}
	fits := err == nil && n == due
	switch {
	case dots == "":
	case black:
		fits = fits && dots != "."
	default:
		fits = fits && dots == "."
	}
	if fits {
		return ""
	}
	return fmt.Sprintf("the move number %s does not fit: %s is due here", written, want)
}

// Counter counts the turns of a record of alternating turns (White's, then Black's, one
// number for both) and checks the numbers written in it.
type Counter struct {
	No       int  // the number of the turn to come
	Black    bool // the turn to come is Black's
	numbered bool
	warn     []string
}

// Number reads a move number written before a turn ("12.", "12..."). The first one sets where
// the count starts, as a record of a game set up from a position numbers from there; any
// other that does not fit the count is a warning for the next turn (see Warnings), and the
// count goes on.
func (c *Counter) Number(written string) {
	if !c.numbered {
		c.numbered = true
		if n, err := strconv.Atoi(strings.TrimRight(written, ".…")); err == nil && n >= 1 {
			c.No = n
			c.Black = strings.HasSuffix(written, "..") || strings.HasSuffix(written, "…")
			return
		}
	}
	if w := NumberFits(written, c.No, c.Black); w != "" {
		c.warn = append(c.warn, w)
	}
}

// Warnings takes the warnings for the turn about to be read.
func (c *Counter) Warnings() []string {
	w := c.warn
	c.warn = nil
	return w
}

// Next counts one turn read.
func (c *Counter) Next() {
	if c.Black {
		c.No++
	}
	c.Black = !c.Black
}

// OffsetError is an error at a place in a record's movetext: Offset is the byte there, which
// Record.Position turns into the file's line and column.
type OffsetError struct {
	Offset int
	Msg    string
}

func (e *OffsetError) Error() string {
	return fmt.Sprintf("%s (byte %d of the movetext)", e.Msg, e.Offset)
}

// At is an OffsetError at offset, its message formatted as by fmt.Sprintf.
func At(offset int, format string, a ...any) error {
	return &OffsetError{Offset: offset, Msg: fmt.Sprintf(format, a...)}
}
