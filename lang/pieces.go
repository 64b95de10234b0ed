package lang

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// english are the SAN letters the chess parser reads, in the order of info.pieces.
var english = [5]string{"K", "Q", "R", "B", "N"}

// Letters are t's piece letters: king, queen, rook, bishop, knight.
func (t Tag) Letters() [5]string { return t.info().pieces }

// ReadMove turns one move written with t's piece letters into the English SAN letters the
// chess parser reads: in German Sf3 is Nf3, Lxb5 Bxb5, e8=D e8=Q; in French Rg1 is Kg1
// and Tg1 Rg1; in Russian Крg1 is Kg1. Castling, coordinate and numeric moves and figurines
// have no letter to turn and come back as they are, and so does a token that is not a move
// in t's letters: the parser then says what is wrong with it. The result is never longer
// than token.
func ReadMove(t Tag, token string) string {
	l := t.info()
	if l.tag == EN {
		return token
	}
	body, marks := splitMarks(token)
	if body == "" {
		return token
	}
	// The piece letter, if any: the longest of t's letters the token starts with, followed
	// by what may follow a piece letter (a file, a rank, a capture sign or a dash).
	piece, rest, native := "", body, 0
	for i := 0; i < 5; i++ {
		if p := l.pieces[i]; len(p) > native && hasLetter(body, p, l.tag == RU) && startsMoveBody(body[len(p):]) {
			piece, rest, native = english[i], body[len(p):], len(p)
		}
	}
	if piece == "" {
		if !startsMoveBody(body) || !isFileOrRankStart(body) {
			return token
		}
	}
	// The promotion letter, if any, at the end of the rest.
	promo := ""
	for i := 1; i < 5; i++ { // a pawn becomes a queen, rook, bishop or knight
		p := l.pieces[i]
		for _, form := range [...][2]string{{"=", ""}, {"/", ""}, {"(", ")"}, {"", ""}} {
			suffix := form[0] + p + form[1]
			if k, ok := cutSuffix(rest, suffix, l.tag == RU); ok && k >= 2 && isRank(rest[k-1]) {
				if form[0] == "" && form[1] == "" && !isFile(rest[k-2]) {
					continue
				}
				promo, rest = form[0]+english[i]+form[1], rest[:k]
				break
			}
		}
		if promo != "" {
			break
		}
	}
	if piece == "" && promo == "" {
		return token
	}
	// What is left must be made of squares and signs only and end on a square: anything
	// else is not a move in t's letters, and the parser shall see it as written.
	if k := len(rest); k < 2 || !isFile(rest[k-2]) || !isRank(rest[k-1]) {
		return token
	}
	for i := 0; i < len(rest); i++ {
		if c := rest[i]; !(isFile(c) || isRank(c) || c == 'x' || c == 'X' || c == ':' || c == '-') {
			return token
		}
	}
	return piece + rest + promo + marks
}

// WriteMove writes san, a move in English SAN (Nf3, exd8=Q+, Ng1-f3), with t's piece
// letters: Sf3, exd8=D+ in German. Castling and check or mate marks are kept; a token that
// is not SAN comes back as it is.
func WriteMove(t Tag, san string) string {
	l := t.info()
	if l.tag == EN {
		return san
	}
	body, marks := splitMarks(san)
	if body == "" {
		return san
	}
	piece, rest := "", body
	for i, e := range english {
		if body[0] == e[0] {
			piece, rest = l.pieces[i], body[1:]
		}
	}
	if piece == "" && !isFile(body[0]) {
		return san
	}
	promo := ""
	for i := 1; i < 5; i++ {
		for _, form := range [...][2]string{{"=", ""}, {"/", ""}, {"(", ")"}} {
			if k, ok := cutSuffix(rest, form[0]+english[i]+form[1], false); ok {
				promo, rest = form[0]+l.pieces[i]+form[1], rest[:k]
			}
		}
	}
	for i := 0; i < len(rest); i++ {
		if c := rest[i]; !(isFile(c) || isRank(c) || c == 'x' || c == ':' || c == '-') {
			return san
		}
	}
	return piece + rest + promo + marks
}

// WriteMoves writes each move of a list ("e4, Nf3 Nc6") with WriteMove, keeping what
// separates them.
func WriteMoves(t Tag, list string) string { return eachToken(t, list, WriteMove) }

// ReadMoves reads each token of a line with ReadMove, keeping what separates them (spaces,
// commas, semicolons): "SERIES 3: e4, Sf3, Lb5" is "SERIES 3: e4, Nf3, Bb5" in German.
// Command words and numbers are no moves and stay as they are.
func ReadMoves(t Tag, line string) string { return eachToken(t, line, ReadMove) }

// eachToken applies f to each token of text, keeping the separators.
func eachToken(t Tag, text string, f func(Tag, string) string) string {
	if t.info().tag == EN {
		return text
	}
	var sb strings.Builder
	start := -1
	for i, r := range text {
		if r == ',' || r == ';' || unicode.IsSpace(r) {
			if start >= 0 {
				sb.WriteString(f(t, text[start:i]))
				start = -1
			}
			sb.WriteRune(r)
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		sb.WriteString(f(t, text[start:]))
	}
	return sb.String()
}

// splitMarks cuts the check marks and annotations off a move: "Sf3+!" is "Sf3" and "+!".
func splitMarks(s string) (body, marks string) {
	k := len(s)
	for k > 0 && strings.IndexByte("+#!?", s[k-1]) >= 0 {
		k--
	}
	return s[:k], s[k:]
}

// hasLetter reports whether s starts with the piece letter p; anyCase lets a Cyrillic
// letter be written in either case.
func hasLetter(s, p string, anyCase bool) bool {
	if strings.HasPrefix(s, p) {
		return true
	}
	if !anyCase || len(s) < len(p) {
		return false
	}
	return strings.EqualFold(s[:len(p)], p) && utf8.ValidString(s[:len(p)])
}

// cutSuffix reports whether s ends with suffix, and where.
func cutSuffix(s, suffix string, anyCase bool) (int, bool) {
	if len(s) < len(suffix) {
		return 0, false
	}
	k := len(s) - len(suffix)
	if s[k:] == suffix || (anyCase && strings.EqualFold(s[k:], suffix) && utf8.ValidString(s[k:])) {
		return k, true
	}
	return 0, false
}

// startsMoveBody reports whether what follows a piece letter could be a move's rest: a
// file, a rank, a capture sign or a dash.
func startsMoveBody(s string) bool {
	if s == "" {
		return false
	}
	c := s[0]
	return isFile(c) || isRank(c) || c == 'x' || c == 'X' || c == ':' || c == '-'
}

// isFileOrRankStart: a pawn's move starts with its file.
func isFileOrRankStart(s string) bool { return s != "" && isFile(s[0]) }

func isFile(c byte) bool { return c >= 'a' && c <= 'h' }
func isRank(c byte) bool { return c >= '1' && c <= '8' }
