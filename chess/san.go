package chess

import (
	"fmt"
	"strings"
)

// Notation is a move as written, before any position is consulted (shakmaty's San): SAN in
// its tolerant forms (rules.md 0.3a) and coordinate notation. Resolve turns it into a Move
// against the candidates a variant offers.
type Notation struct {
	Role      Role // NoRole: any man (coordinate notation without a letter)
	FromFile  int8 // -1 when not given
	FromRank  int8 // -1 when not given
	To        Square
	Capture   bool // written with x or :
	Promotion Role
	Castle    int8   // 0 none, 1 short (O-O), 2 long (O-O-O)
	Check     int8   // marks written: 0 none, 1 "+", 2 "#" or "++"
	Annotate  string // "!", "?", "!?", ... as written
	RookT     bool   // the rook was written T (Portuguese torre): accepted with a warning
	// Numeric: written in ICCF numeric notation (5254 for e2-e4, 57581 for e7-e8=Q),
	// which names squares as file and rank digits and is read as coordinate notation.
	Numeric bool
}

const (
	CastleShort int8 = 1
	CastleLong  int8 = 2
)

// ParseNotation reads one move written by a person. It accepts SAN (Nf3, exd5, Raxd1, O-O,
// 0-0-0, e8=Q) with ':' for captures, promotion as =Q, (Q) or a bare Q, T for rook, optional
// and possibly wrong check marks and annotations, coordinate or long algebraic notation
// (e2e4, e2-e4, Ng1-f3, e7e8q, e7-e8=N), and ICCF numeric notation (5254, 57581; castling is
// the king's move, 5171). It says what is wrong when it cannot read the move; a line of
// words ("hello there") is not a command at all (ErrWords).
func ParseNotation(text string) (Notation, error) {
	n := Notation{FromFile: -1, FromRank: -1, To: NoSquare}
	s := strings.TrimSpace(text)
	if s == "" {
		return n, fmt.Errorf("empty move")
	}
	if isWords(s) {
		return n, &WordsError{Text: clip(s)}
	}
	if len(s) > 16 {
		return n, errorf("too-long", "%q is too long to be a move", clip(s))
	}
	// Marks and annotations at the end, in any order: + ++ # ! ? and "e.p.".
	s = strings.TrimSuffix(strings.TrimSuffix(s, "e.p."), "ep")
	for len(s) > 0 {
		c := s[len(s)-1]
		if c == '+' {
			if n.Check == 0 {
				n.Check = 1
			} else {
				n.Check = 2
			}
		} else if c == '#' {
			n.Check = 2
		} else if c == '!' || c == '?' {
			n.Annotate = string(c) + n.Annotate
		} else if c != ' ' {
			break
		}
		s = s[:len(s)-1]
	}
	if s == "" {
		return n, errorf("not-a-move", "%q is not a move", clip(text))
	}
	if c := s[0]; c == 'O' || c == '0' || c == 'o' {
		switch strings.ToUpper(strings.ReplaceAll(s, "0", "O")) {
		case "O-O", "OO":
			n.Castle, n.Role = CastleShort, King
			return n, nil
		case "O-O-O", "OOO":
			n.Castle, n.Role = CastleLong, King
			return n, nil
		}
	}
	if num, ok, err := parseNumeric(s); ok || err != nil {
		num.Check, num.Annotate = n.Check, n.Annotate
		return num, err
	}
	orig := s
	// Promotion suffix: =Q, (Q), /Q, or a bare letter after the rank digit.
	if k := len(s); k >= 3 {
		if s[k-1] == ')' && k >= 4 && s[k-3] == '(' {
			n.Promotion = promotionRole(s[k-2])
			if n.Promotion == NoRole {
				return n, errorf("not-promotion", "%q: %q is not a piece to promote to (Q, R, B or N)", orig, s[k-2])
			}
			s = s[:k-3]
		} else if s[k-2] == '=' || s[k-2] == '/' {
			n.Promotion = promotionRole(s[k-1])
			if n.Promotion == NoRole {
				return n, errorf("not-promotion", "%q: %q is not a piece to promote to (Q, R, B or N)", orig, s[k-1])
			}
			n.RookT = s[k-1] == 'T'
			s = s[:k-2]
		} else if s[k-2] >= '1' && s[k-2] <= '8' && promotionRole(s[k-1]) != NoRole {
			n.Promotion = promotionRole(s[k-1])
			n.RookT = s[k-1] == 'T'
			s = s[:k-1]
		}
		// (T) stays unwarned: it is how Transactional writes a rook promotion, (R) being a
		// rollback there (rules.md 0.3a).
	}
	// Piece letter.
	if len(s) > 0 {
		switch c := s[0]; {
		case c == 'T':
			n.Role, n.RookT = Rook, true
			s = s[1:]
		case c >= 'A' && c <= 'Z':
			n.Role = roleFromLetter(c)
			if n.Role == NoRole {
				if f := strings.Fields(text); isWord(f[0]) {
					return n, &WordsError{Text: clip(strings.TrimSpace(text))} // "SHOW 2": a word, not a piece
				}
				return n, errorf("not-piece-letter", "%q: %q is not a piece letter (K, Q, R, B, N)", orig, c)
			}
			s = s[1:]
		case c == 'n' || c == 'r' || c == 'q' || c == 'k':
			n.Role = roleFromLetter(c - ('a' - 'A'))
			s = s[1:]
		}
	}
	// Destination: the last two characters.
	if len(s) < 2 {
		return n, errorf("no-destination", "%q has no destination square", orig)
	}
	to, err := ParseSquare(s[len(s)-2:])
	if err != nil {
		return n, errorf("must-end", "%q: the move must end on a square like e4", orig)
	}
	n.To = to
	s = s[:len(s)-2]
	// Optional separator: x or : for a capture, - for a plain move.
	if k := len(s); k > 0 {
		switch s[k-1] {
		case 'x', 'X', ':':
			n.Capture = true
			s = s[:k-1]
		case '-':
			s = s[:k-1]
		}
	}
	// Optional origin: file, rank or square.
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'h' && n.FromFile < 0 && n.FromRank < 0:
			n.FromFile = int8(c - 'a')
		case c >= '1' && c <= '8' && n.FromRank < 0:
			n.FromRank = int8(c - '1')
		default:
			return n, errorf("cannot-read", "%q: cannot read %q before the destination", orig, s)
		}
	}
	if n.Role == NoRole {
		if n.FromFile >= 0 && n.FromRank >= 0 {
			// Coordinate notation: the man on the from-square, whatever it is.
		} else {
			n.Role = Pawn
		}
	}
	if n.Role == Pawn && n.Capture && n.FromFile < 0 {
		return n, errorf("pawn-capture-file", "%q: a pawn capture names the pawn's file, like exd5", orig)
	}
	if n.Promotion != NoRole && n.Role != Pawn && n.Role != NoRole {
		return n, errorf("only-pawn-promotes", "%q: only a pawn can promote", orig)
	}
	return n, nil
}

// parseNumeric reads ICCF numeric notation: the from-square's file and rank digits (1-8,
// a = 1), the to-square's, and for a promotion a fifth digit, 1 queen, 2 rook, 3 bishop,
// 4 knight. ok is false when s is not all digits (another notation); a string of digits that
// is not a numeric move is an error saying why.
func parseNumeric(s string) (n Notation, ok bool, err error) {
	n = Notation{FromFile: -1, FromRank: -1, To: NoSquare, Numeric: true}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return n, false, nil
		}
	}
	if len(s) != 4 && len(s) != 5 {
		return n, false, errorf("numeric-digits", "%q: a move in numeric notation has 4 digits, or 5 for a promotion (5254, 57581)", clip(s))
	}
	for i := 0; i < 4; i++ {
		if s[i] < '1' || s[i] > '8' {
			return n, false, errorf("numeric-range", "%q: in numeric notation files and ranks are 1 to 8 (5254 is e2-e4)", s)
		}
	}
	n.FromFile, n.FromRank = int8(s[0]-'1'), int8(s[1]-'1')
	n.To = SquareAt(int(s[2]-'1'), int(s[3]-'1'))
	if len(s) == 5 {
		roles := [...]Role{'1': Queen, '2': Rook, '3': Bishop, '4': Knight}
		if s[4] < '1' || s[4] > '4' {
			return n, false, errorf("numeric-fifth", "%q: the fifth digit names the piece a pawn becomes: 1 queen, 2 rook, 3 bishop, 4 knight", s)
		}
		n.Promotion = roles[s[4]]
	}
	return n, true, nil
}

// Numeric writes m in ICCF numeric notation: 5254, 57581 (a promotion to a queen).
func Numeric(m Move) string {
	b := []byte{byte('1' + m.From.File()), byte('1' + m.From.Rank()), byte('1' + m.To.File()), byte('1' + m.To.Rank())}
	switch m.Promotion {
	case Queen:
		b = append(b, '1')
	case Rook:
		b = append(b, '2')
	case Bishop:
		b = append(b, '3')
	case Knight:
		b = append(b, '4')
	}
	return string(b)
}

// Error is a move that cannot be read or played, said in English (Text) and by its kind and
// the values it names (Args, in the order of the English text's verbs), so that a reader in
// another language is told it in his (the sentences "chess/<Kind>").
type Error struct {
	Kind string
	Args []any
	Text string
}

func (e *Error) Error() string { return e.Text }

// errorf is an Error of kind, its English text format with args.
func errorf(kind, format string, args ...any) error {
	return &Error{Kind: kind, Args: args, Text: fmt.Sprintf(format, args...)}
}

// WordsError is ParseNotation's answer to a line of words ("hello there", "thanks"): no
// notation has five letters in a row (Nbxd5 has four), so it is no move, and no command of a
// game either, since the games read theirs before any move.
type WordsError struct{ Text string }

func (e *WordsError) Error() string { return fmt.Sprintf("%q is not a command", e.Text) }

// isWords reports whether s holds five letters in a row: a word, not a move.
func isWords(s string) bool {
	run := 0
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c >= 'a' && c <= 'z' {
			if run++; run >= 5 {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}

// isWord reports whether s is three letters or more and letters only ("SHOW"): no move.
func isWord(s string) bool {
	if len(s) < 3 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

func promotionRole(c byte) Role {
	if c >= 'a' && c <= 'z' {
		c -= 'a' - 'A'
	}
	switch r := roleFromLetter(c); r {
	case Queen, Rook, Bishop, Knight:
		return r
	}
	if c == 'T' {
		return Rook
	}
	return NoRole
}

func clip(s string) string {
	if len(s) > 20 {
		return s[:20] + "..."
	}
	return s
}

// WarningCode says what Resolve accepted but a careful writer would not have written.
type WarningCode uint8

const (
	WarnRookT         WarningCode = iota + 1 // T for rook
	WarnCheckMark                            // +/# missing or wrong
	WarnCaptureMark                          // x written, but nothing is captured
	WarnFileCapture                          // f:d4 read as "the piece on the f-file" (0.3c)
	WarnMissingSymbol                        // capture written without x
	// WarnMateMark: a mate written with + (a check, which it is) or with no mark: a record's
	// careful writer writes #, but a player's game is over, and the note would help nobody
	// (issue 33).
	WarnMateMark
)

// Warning is a note on a move that was accepted.
type Warning struct {
	Code WarningCode
	Text string
}

func (w Warning) String() string { return w.Text }

// Resolve finds the one move among candidates that n describes, in position p (which
// gives the men on the from-squares). Candidates are whatever the variant allows this
// player; they need not be orthodox. A notation that fits none or several moves is an error
// naming squares ("no knight can move to e5", "Nd7 is ambiguous: Nb8-d7 or Nf6-d7").
// Check marks are not tested here: see CheckMarkWarning.
func Resolve(p *Position, n Notation, candidates []Move) (Move, []Warning, error) {
	var warns []Warning
	if n.RookT {
		warns = append(warns, Warning{WarnRookT, "T read as R (rook); write R"})
	}
	var found Move
	count := 0
	if n.Castle != 0 {
		for _, m := range candidates {
			if m.Kind == Castle && (m.To < m.From) == (n.Castle == CastleLong) {
				found, count = m, count+1
			}
		}
		if count == 0 {
			side := "kingside"
			if n.Castle == CastleLong {
				side = "queenside"
			}
			return NullMove, warns, errorf("castling", "castling %s is not possible now", side)
		}
		return found, warns, nil
	}
	var ambiguous []Move
	match := func(m Move, role Role, needPawnFile bool) bool {
		if m.To != n.To {
			return false
		}
		pc := p.At(m.From)
		if role != NoRole && pc.Role() != role {
			return false
		}
		if n.FromFile >= 0 && m.From.File() != int(n.FromFile) {
			return false
		}
		if !needPawnFile && n.FromRank >= 0 && m.From.Rank() != int(n.FromRank) {
			return false
		}
		return true
	}
	promotionUnsaid := false
	for _, m := range candidates {
		if !match(m, n.Role, false) {
			continue
		}
		if m.Promotion != n.Promotion {
			promotionUnsaid = promotionUnsaid || n.Promotion == NoRole
			continue
		}
		if count == 0 {
			found = m
		}
		count++
		ambiguous = append(ambiguous, m)
	}
	if count == 0 && promotionUnsaid {
		if n.Numeric { // his own notation's way: a fifth digit, 1 queen, 2 rook, 3 bishop, 4 knight
			return NullMove, warns, errorf("promote-numeric", "say which piece the pawn becomes, like %s1 for a queen (2 rook, 3 bishop, 4 knight)",
				fmt.Sprintf("%d%d%d%d", n.FromFile+1, n.FromRank+1, n.To.File()+1, n.To.Rank()+1))
		}
		return NullMove, warns, errorf("promote", "say which piece the pawn becomes, like %[2]s=Q", n.To.String(), n.To.String())
	}
	if count == 0 && n.Role == Pawn && n.FromFile >= 0 && n.FromRank < 0 {
		// DECISION 0.3c: f:d4 with no pawn capture fitting means the only piece standing on
		// that file that can capture on that square.
		var byFile []Move
		for _, m := range candidates {
			if match(m, NoRole, true) && p.At(m.From).Role() != Pawn && p.At(m.To) != NoPiece && m.Promotion == NoRole {
				byFile = append(byFile, m)
			}
		}
		if len(byFile) == 1 {
			warns = append(warns, Warning{WarnFileCapture, fmt.Sprintf("read as %s%v-%v; write standard SAN", p.At(byFile[0].From).Role().Letter(), byFile[0].From, byFile[0].To)})
			return byFile[0], warns, nil
		}
	}
	if count == 0 {
		if n.FromFile >= 0 && n.FromRank >= 0 {
			from := SquareAt(int(n.FromFile), int(n.FromRank)).String()
			if pc := p.At(SquareAt(int(n.FromFile), int(n.FromRank))); pc == NoPiece {
				return NullMove, warns, errorf("no-man-on", "there is no man of yours on %s", from)
			}
			return NullMove, warns, errorf("cannot-move", "the man on %s cannot move to %s", from, n.To.String())
		}
		role := "man"
		if n.Role != NoRole {
			role = n.Role.String()
		}
		return NullMove, warns, errorf("none-can-move", "no %s can move to %s", role, n.To.String())
	}
	if count > 1 {
		names := make([]string, 0, len(ambiguous))
		for _, m := range ambiguous {
			names = append(names, fmt.Sprintf("%s%v-%v", strings.TrimSpace(p.At(m.From).Role().Letter()), m.From, m.To))
		}
		return NullMove, warns, &Error{Kind: "ambiguous", Args: []any{names}, Text: fmt.Sprintf("ambiguous: %s; name the man's square", strings.Join(names, " or "))}
	}
	capture := p.IsCapture(found)
	if n.Capture && !capture {
		warns = append(warns, Warning{WarnCaptureMark, fmt.Sprintf("%v is empty: nothing is captured", n.To)})
	}
	if !n.Capture && capture && n.Role != NoRole {
		warns = append(warns, Warning{WarnMissingSymbol, "a capture is written with x"})
	}
	return found, warns, nil
}

// Candidates appends the orthodox legal moves of the side to move that n may name, in the
// order LegalMoves gives them, without generating the others (shakmaty's san_candidates):
// for castling the king's moves two squares along the rank, else the moves to n.To from the file and rank n gives, by
// men of n's role. Resolve finds the same move, warnings and errors among them as among all
// the legal moves.
func (p *Position) Candidates(buf []Move, n Notation) []Move {
	if n.Castle != 0 {
		// The castling moves: the king's moves two squares along its rank.
		king := p.ByPiece(p.Turn, King)
		return p.legalMoves(buf, king, (king<<2|king>>2)&(Rank1|Rank8), false)
	}
	froms := All
	if n.FromFile >= 0 {
		froms &= FileA << uint(n.FromFile)
	}
	if n.FromRank >= 0 {
		froms &= Rank1 << (8 * uint(n.FromRank))
	}
	switch {
	case n.Role == NoRole:
	case n.Role == Pawn && n.FromFile >= 0 && n.FromRank < 0:
		// Resolve may read f:d4 as the piece on the f-file (DECISION 0.3c): any man there.
	default:
		froms &= p.roles[n.Role]
	}
	return p.LegalMovesTo(buf, froms, n.To)
}

// CheckMarkWarning compares the check mark written in n with what the move m did: check
// and mate as computed on the position after the move. It returns nil when they agree, and
// for a move in numeric notation written without a mark (ICCF's players write none).
func CheckMarkWarning(n Notation, check, mate bool) *Warning {
	if n.Numeric && n.Check == 0 {
		return nil // numeric notation writes no marks: none is not a mistake
	}
	want := int8(0)
	if mate {
		want = 2
	} else if check {
		want = 1
	}
	if n.Check == want {
		return nil
	}
	var text string
	switch {
	case want == 2:
		return &Warning{WarnMateMark, "the move mates: write #"}
	case want == 1 && n.Check == 0:
		text = "the move gives check: write +"
	case want == 1:
		text = "the move gives check, not mate: write +"
	default:
		text = "the move gives no check"
	}
	return &Warning{WarnCheckMark, text}
}

// SAN writes m, legal in p, in standard algebraic notation with + or #.
func (p *Position) SAN(m Move) string {
	var buf [32]Move
	rivals := p.LegalMovesTo(buf[:0], All, m.To) // only moves to m.To can share its SAN
	return p.sanWith(m, rivals) + p.checkSuffix(m)
}

func (p *Position) sanWith(m Move, candidates []Move) string {
	if m.Kind == Castle {
		if m.To < m.From {
			return "O-O-O"
		}
		return "O-O"
	}
	pc := p.At(m.From)
	var sb strings.Builder
	capture := p.IsCapture(m)
	if pc.Role() == Pawn || pc == NoPiece {
		if capture {
			sb.WriteByte(byte('a' + m.From.File()))
			sb.WriteByte('x')
		}
	} else {
		sb.WriteString(pc.Role().Letter())
		sameFile, sameRank, others := false, false, false
		for _, o := range candidates {
			if o.To != m.To || o.From == m.From || p.At(o.From) != pc || o.Promotion != m.Promotion {
				continue
			}
			others = true
			if o.From.File() == m.From.File() {
				sameFile = true
			}
			if o.From.Rank() == m.From.Rank() {
				sameRank = true
			}
		}
		if others {
			if !sameFile {
				sb.WriteByte(byte('a' + m.From.File()))
			} else if !sameRank {
				sb.WriteByte(byte('1' + m.From.Rank()))
			} else {
				sb.WriteString(m.From.String())
			}
		}
		if capture {
			sb.WriteByte('x')
		}
	}
	sb.WriteString(m.To.String())
	if m.Promotion != NoRole {
		sb.WriteByte('=')
		sb.WriteString(m.Promotion.Letter())
	}
	return sb.String()
}

func (p *Position) checkSuffix(m Move) string {
	switch check, mate := p.Checks(m); {
	case mate:
		return "#"
	case check:
		return "+"
	}
	return ""
}

// ParseMove reads text and resolves it against the orthodox legal moves of p, with the
// warnings of Resolve: the one-call helper for orthodox chess. An error of resolution names
// the move ("Nd7: ambiguous: ..."). Check marks are not compared (see CheckMarkWarning).
func (p *Position) ParseMove(text string) (Move, []Warning, error) {
	n, err := ParseNotation(text)
	if err != nil {
		return NullMove, nil, err
	}
	var buf [32]Move
	m, warns, err := Resolve(p, n, p.Candidates(buf[:0], n))
	if err != nil {
		return m, warns, fmt.Errorf("%s: %w", strings.TrimSpace(text), err)
	}
	return m, warns, nil
}

// SANAmong writes m in standard algebraic notation without a check mark, disambiguated
// among candidates: the moves a variant offers the mover, which need not be orthodox
// (Synchronous chess judges both players' moves on one position).
func (p *Position) SANAmong(m Move, candidates []Move) string { return p.sanWith(m, candidates) }
