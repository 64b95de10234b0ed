package parser

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Line is one line of a mail body that may hold a command.
type Line struct {
	N    int    // 1-based line number in the body
	Text string // trimmed
	// Aside marks a line that may be a greeting or a sign-off rather than a command ("Thanks,
	// Ann", "Best regards", "Sent from my phone" in any language): a short paragraph of its
	// own after the commands (or a one-line greeting before them) with nothing in it that
	// looks like a move. The reader tries it like any line; one the game refuses is said to
	// have been not read, instead of being refused.
	Aside bool
}

// What the person wrote is found by structure; these word lists only add to it, for the
// shapes that have no structure to go by (a separator with nothing quoted after it).
var (
	// Attribution lines that open a quoted reply, in the languages mail clients write them.
	attribution = regexp.MustCompile(`(?i)^(on\b.*\bwrote:?|le\b.*\ba écrit ?:?|am\b.*\bschrieb.*:|el\b.*\bescribió:?|il\b.*\bha scritto:?|em\b.*\bescreveu:?|op\b.*\bschreef.*:|.*\b(wrote|a écrit|schrieb|escribió|ha scritto|escreveu|schreef)\s*:)$`)
	// Outlook's separators: "-----Original Message-----" and its translations.
	originalMessage = regexp.MustCompile(`(?i)^-{2,}\s*(original message|ursprüngliche nachricht|message d'origine|messaggio originale|mensaje original|mensagem original|oorspronkelijk bericht|forwarded message|message transféré|weitergeleitete nachricht)\s*-{2,}$`)
	// A separator in any language: words between runs of dashes, equals signs or underscores
	// ("-------- Исходное сообщение --------", "----- Oryginalna wiadomość -----").
	separator = regexp.MustCompile(`^[-=_]{3,}\s*[^-=_\s](.{0,200}[^-=_\s])?\s*[-=_]{3,}$`)
	// The header block Outlook puts above the quoted mail: "From: ...", then "Sent: ...".
	outlookFrom = regexp.MustCompile(`(?i)^(from|de|von|da|van)\s*:\s*\S`)
	outlookSent = regexp.MustCompile(`(?i)^(sent|date|envoyé|gesendet|inviato|enviado|verzonden|datum)\s*:\s*\S`)
	// A "Name: value" line of a header block in any language ("Od: ...", "Отправлено: ...",
	// "发件人: ...", "*From:* ..."): a name of one to three words of letters, then a value.
	headerLine = regexp.MustCompile(`^\*?\pL[\pL\pM'.-]*( [\pL\pM'.-]+){0,2}\*?\s*[:：]\*?\s*\S`)
	// What marks a line as naming a mail: an address, or a date or time of day.
	hasAddress = regexp.MustCompile(`[^\s<>()\[\]@]+@[^\s<>()\[\]@]+\.[^\s<>()\[\]@]+`)
	hasDate    = regexp.MustCompile(`(^|[^0-9])((19|20)[0-9][0-9]|[0-9]{1,2}:[0-9][0-9]|[0-9]{1,2}[./-][0-9]{1,2}[./-][0-9]{2,4})([^0-9]|$)`)
	// Trailers phones and web clients add: skipped without a word (none looks like a move).
	trailer = regexp.MustCompile(`(?i)^(sent from my\b|sent from (mail|outlook) for\b|(get|télécharger|descargar|scarica|baixe( o)?) outlook\b|outlook für \w+ (herunterladen|beziehen)|envoyé de mon\b|von meinem\b.*\bgesendet|gesendet von\b.*\b(mail|iphone|ipad|outlook)\b|enviado desde mi\b|enviado do meu\b|inviato da\b|(verzonden|verstuurd) (vanaf|met) mijn\b|wysłane z\b|отправлено (с|из)\b|skickat från min\b|sendt fra min\b)`)
	// What may be a move: anything with a digit, or castling. Such a line is never taken
	// for quoted text on the strength of the sent lines alone.
	moveLike = regexp.MustCompile(`[0-9]|\b[Oo0]-[Oo0]\b`)
	// What looks like a move in a line that may be a sign-off: a square, castling, a move
	// number, ICCF numeric notation. "Sent from Mail for Windows 10" may be an aside; a line
	// with "Nf3" in it is not.
	squareLike = regexp.MustCompile(`[a-hA-H]x?[1-8]|\b[Oo0]-[Oo0]\b|^[0-9]+\.|\b[1-8]{4}[1-4]?\b`)
)

// MaxSent bounds the lines a Sent set holds.
const MaxSent = 2048

// Sent is what the referee sent to one player in one game, as hashes of its lines (see
// SentLines): a line of a reply found among them is quoted text, whatever the client did
// to mark it (or did not). The zero value and nil are the empty set.
type Sent struct{ set map[uint32]struct{} }

// NewSent is the set of the hashes given (at most MaxSent of them: the last ones).
func NewSent(hashes []uint32) *Sent {
	if len(hashes) > MaxSent {
		hashes = hashes[len(hashes)-MaxSent:]
	}
	s := &Sent{set: make(map[uint32]struct{}, len(hashes))}
	for _, h := range hashes {
		s.set[h] = struct{}{}
	}
	return s
}

// Has reports whether line, quote marks and whitespace aside, is one the referee sent.
func (s *Sent) Has(line string) bool {
	if s == nil || len(s.set) == 0 {
		return false
	}
	h, ok := lineHash(line)
	if !ok {
		return false
	}
	_, found := s.set[h]
	return found
}

// SentLines are the hashes of the distinct lines of body, a text the referee sent, that a
// reply may quote: at most max of them, in order. The referee's own quotes of the player's
// unread lines ("> Nf3") are left out: they are the player's, and he may send them again.
func SentLines(body string, max int) []uint32 {
	var out []uint32
	seen := map[uint32]bool{}
	for _, line := range strings.Split(body, "\n") {
		if len(out) >= max {
			break
		}
		if strings.HasPrefix(strings.TrimSpace(line), ">") {
			continue
		}
		if h, ok := lineHash(line); ok && !seen[h] {
			seen[h] = true
			out = append(out, h)
		}
	}
	return out
}

// normal is a line as it is compared with the sent lines: without quote marks, with its
// white space (no-break spaces too) made single spaces.
func normal(line string) string {
	line = strings.TrimLeft(line, " \t\u00a0\ufeff>")
	return strings.Join(strings.FieldsFunc(line, func(r rune) bool { return unicode.IsSpace(r) || r == '\u00a0' }), " ")
}

// lineHash is the 32-bit FNV-1a hash of normal(line), and false for a line that is empty or
// "--" once normal: worked out as the line is read, without building normal(line) (every
// line of every mail sent is hashed).
func lineHash(line string) (uint32, bool) {
	const offset, prime = 2166136261, 16777619
	line = strings.TrimLeft(line, " \t\u00a0\ufeff>")
	h := uint32(offset)
	n, dashes, gap := 0, true, false
	for i := 0; i < len(line); {
		r, w := utf8.DecodeRuneInString(line[i:])
		if unicode.IsSpace(r) || r == '\u00a0' {
			gap, i = n > 0, i+w
			continue
		}
		if gap {
			h, n, dashes, gap = (h^' ')*prime, n+1, false, false
		}
		for _, b := range []byte(line[i : i+w]) {
			h = (h ^ uint32(b)) * prime
			dashes = dashes && b == '-'
		}
		n, i = n+w, i+w
	}
	if n == 0 || (n == 2 && dashes) {
		return 0, false
	}
	return h, true
}

// kinds of line, as Read sorts them.
const (
	kText   = iota // what the person wrote
	kBlank         // an empty line
	kQuote         // a quoted line: "> ...", or a line the referee sent
	kAttrib        // an attribution or a header block that opens a quote
	kSkip          // a signature, a trailer: not read, nothing quoted
)

// CommandLines is Read without the lines the referee sent.
func CommandLines(body string) []Line { return Read(body, nil) }

// Read returns the lines of body that a person wrote, which may hold commands: above the
// quoted text, between its blocks and below it, in order. Left out are quoted lines ("> ..."
// and lines of what the referee sent, sent), attribution lines and header blocks that open a
// quote (recognised by their shape, in any language: a line that ends with a colon or names
// an address or a date, right before quoted lines; a few "Name: value" lines naming an
// address or a date), everything after a separator or header block that opens an unquoted
// original ("-----Original Message-----", Outlook's "From: / Sent:"), signatures (from "-- "
// to the next quoted line), blank lines and phone trailers. Greetings and sign-offs are kept,
// marked Aside.
// printable is s with each control character but the tab, and each byte that is not UTF-8,
// shown as U+FFFD: a line is said back to its sender (refused, quoted), and a NUL or an
// escape in a mail is refused by some servers and acted on by some terminals.
func printable(s string) string {
	bad := func(r rune) bool { return r == utf8.RuneError || r < 0x20 && r != '\t' || r >= 0x7f && r < 0xa0 }
	if strings.IndexFunc(s, bad) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if bad(r) {
			return utf8.RuneError
		}
		return r
	}, s)
}

func Read(body string, sent *Sent) []Line {
	raw := strings.Split(body, "\n")
	text := make([]string, len(raw))
	kind := make([]int, len(raw))
	for i, l := range raw {
		l = printable(strings.TrimRight(l, " \t\r"))
		t := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "\ufeff"))
		text[i] = t
		switch {
		case t == "":
			kind[i] = kBlank
		case strings.HasPrefix(t, ">"):
			kind[i] = kQuote
		default:
			kind[i] = kText
		}
		raw[i] = l
	}
	// The lines the referee sent are quoted text: beside other quoted text, or standing
	// alone when they are sentences (four words or more, nothing like a move). A player may
	// write what the referee once wrote on a line of its own ("1. e4", "RESIGN"): that is read.
	if sent != nil {
		has := make([]bool, len(raw))
		for i := range raw {
			has[i] = kind[i] == kText && sent.Has(text[i])
		}
		for i := range raw {
			if !has[i] {
				continue
			}
			if !moveLike.MatchString(text[i]) && len(strings.Fields(text[i])) >= 4 {
				kind[i] = kQuote
				continue
			}
			for _, j := range []int{prevNonBlank(kind, i), nextNonBlank(kind, i)} {
				if j >= 0 && (strings.HasPrefix(text[j], ">") || has[j]) {
					kind[i] = kQuote
					break
				}
			}
		}
	}
	// A quoted line that a client wrapped leaves its end unmarked, between two quoted lines:
	// it is quoted text when the two make a line the referee sent, or when the quoted line
	// before it is long (it was wrapped) and it is words, nothing like a move.
	for i := 1; i+1 < len(raw); i++ {
		if kind[i] != kText || !strings.HasPrefix(text[i-1], ">") || !strings.HasPrefix(text[i+1], ">") {
			continue
		}
		if sent.Has(normal(text[i-1])+" "+text[i]) ||
			utf8.RuneCountInString(text[i-1]) >= 60 && len(strings.Fields(text[i])) >= 3 && !squareLike.MatchString(text[i]) {
			kind[i] = kQuote
		}
	}
	// Attributions: the lines of a paragraph right before a quoted block, by their shape.
	for i := range raw {
		if kind[i] != kQuote || (i > 0 && kind[i-1] == kQuote) {
			continue
		}
		k := prevNonBlank(kind, i)
		if k < 0 || kind[k] != kText || !attributionShape(text[k], true) {
			continue
		}
		kind[k] = kAttrib
		for j := k - 1; j >= 0 && j >= k-2 && kind[j] == kText && attributionShape(text[j], false); j-- {
			kind[j] = kAttrib
		}
	}
	var out []Line
	inSig := false
	for i := 0; i < len(raw); i++ {
		line, t := raw[i], text[i]
		if inSig {
			if kind[i] == kQuote {
				inSig = false
			}
			continue
		}
		if kind[i] != kText {
			continue
		}
		switch {
		case line == "-- " || line == "--" || t == "—":
			inSig = true
			continue
		case originalMessage.MatchString(t), isUnderscoreRule(t), separator.MatchString(t):
			return asides(out)
		case attribution.MatchString(t), unquotedAttribution(t):
			// An attribution with no quoted block after it: an unquoted original follows.
			return asides(out)
		case i+1 < len(raw) && strings.HasPrefix(strings.ToLower(t), "on ") && attribution.MatchString(t+" "+text[i+1]):
			return asides(out) // "On Mon, 1 Jan ... Ann <a@b>" / "wrote:" split over two lines
		case outlookFrom.MatchString(t) && i+1 < len(raw) && outlookSent.MatchString(text[i+1]):
			if j, quoted := headerBlockEnd(raw, text, kind, i); quoted {
				i = j - 1
				continue
			}
			return asides(out)
		case headerLine.MatchString(t):
			if j := headerBlock(text, kind, i); j > i {
				if _, quoted := headerBlockEnd(raw, text, kind, i); quoted {
					i = j - 1
					continue
				}
				return asides(out)
			}
		case trailer.MatchString(t):
			kind[i] = kSkip
			continue
		}
		out = append(out, Line{N: i + 1, Text: t})
	}
	return asides(out)
}

// unquotedAttribution: a line that names an address and a date and ends with a colon is an
// attribution in any language even with no quote marks after it (what follows is the
// original, unquoted); no command looks so.
func unquotedAttribution(t string) bool {
	return (strings.HasSuffix(t, ":") || strings.HasSuffix(t, "：")) && hasAddress.MatchString(t) && hasDate.MatchString(t)
}

// attributionShape reports whether a line may be (the last line of, when last) an attribution:
// it names an address or a date, or, for the last line, ends with a colon and holds no digit.
func attributionShape(t string, last bool) bool {
	if hasAddress.MatchString(t) || hasDate.MatchString(t) {
		return true
	}
	if !last {
		return strings.HasPrefix(strings.ToLower(t), "on ") && len(t) > 3
	}
	return (strings.HasSuffix(t, ":") || strings.HasSuffix(t, "：")) && !strings.ContainsAny(t, "0123456789") && utf8.RuneCountInString(t) > 2
}

// headerBlock is the end (exclusive) of a header block starting at i: two to eight
// "Name: value" lines, one of them naming an address or a date; i when there is none. A
// value a client wrapped goes on on the next line (an address alone, "<a@b.org>").
func headerBlock(text []string, kind []int, i int) int {
	j, n, named := i, 0, false
	for j < len(text) && n < 8 && kind[j] == kText {
		switch {
		case headerLine.MatchString(text[j]):
			n++
		case j > i && headerContinued(text[j]):
		default:
			return headerEnd(i, j, n, named)
		}
		named = named || hasAddress.MatchString(text[j]) || hasDate.MatchString(text[j])
		j++
	}
	return headerEnd(i, j, n, named)
}

func headerEnd(i, j, n int, named bool) int {
	if n < 2 || !named {
		return i
	}
	return j
}

// headerContinued: a line that only goes on with the value above it (an address).
func headerContinued(t string) bool {
	return strings.HasPrefix(t, "<") && strings.HasSuffix(strings.TrimSpace(t), ">") && hasAddress.MatchString(t) && !strings.Contains(t, " ")
}

// headerBlockEnd is where a header block that starts at i ends (the "Name: value" lines
// and their continuations), and whether quoted lines follow it: then it is an attribution,
// and what comes after the quote is the person's again.
func headerBlockEnd(raw, text []string, kind []int, i int) (int, bool) {
	j := i
	for j < len(text) && kind[j] == kText && (headerLine.MatchString(text[j]) || j > i && (raw[j][0] == ' ' || raw[j][0] == '\t' || headerContinued(text[j]))) {
		j++
	}
	k := j
	for k < len(text) && kind[k] == kBlank {
		k++
	}
	return j, k < len(text) && kind[k] == kQuote
}

func prevNonBlank(kind []int, i int) int {
	for j := i - 1; j >= 0; j-- {
		if kind[j] != kBlank {
			return j
		}
	}
	return -1
}

func nextNonBlank(kind []int, i int) int {
	for j := i + 1; j < len(kind); j++ {
		if kind[j] != kBlank {
			return j
		}
	}
	return -1
}

// asides marks greetings and sign-offs among the lines read: up to three trailing
// paragraphs of at most three short lines each, after at least one paragraph that stays,
// and a one-line greeting ending in "," or "!" before the rest; none with anything that
// looks like a move. Paragraphs are what blank or left-out lines separate.
func asides(out []Line) []Line {
	if len(out) < 2 {
		return out
	}
	// A greeting on the first line and a thanks or a name on the last, even with no blank
	// line between them and the commands ("Hi," / "Nf3" / "Thanks!"): tried like any line,
	// and not refused when the game will not take them.
	if greeting(out[0].Text) {
		out[0].Aside = true
	}
	if last := out[len(out)-1].Text; greeting(last) || nameLike(last) {
		out[len(out)-1].Aside = true
	}
	// paragraph starts: a line whose previous body line is not the previous line read
	var paras [][2]int // [from, to) indexes into out
	from := 0
	for i := 1; i <= len(out); i++ {
		if i == len(out) || out[i].N != out[i-1].N+1 {
			paras = append(paras, [2]int{from, i})
			from = i
		}
	}
	if len(paras) < 2 {
		return out
	}
	// small: a paragraph of at most three lines of at most eight words, none like a move,
	// not only single bare words and not in capitals only, in ASCII (BOARD, resign, OFFER
	// DRAW: commands, refused if wrong; "谢谢" is a sign-off).
	small := func(p [2]int) bool {
		if p[1]-p[0] > 3 {
			return false
		}
		bare, capitals := true, true
		for _, l := range out[p[0]:p[1]] {
			n := len(strings.Fields(l.Text))
			if squareLike.MatchString(l.Text) || n > 8 {
				return false
			}
			ascii := strings.IndexFunc(l.Text, func(r rune) bool { return r > unicode.MaxASCII }) < 0
			bare = bare && n == 1 && ascii && !strings.ContainsAny(l.Text, ",.!") && !nameLike(l.Text)
			capitals = capitals && ascii && strings.IndexFunc(l.Text, unicode.IsLower) < 0
		}
		return !bare && !capitals
	}
	first := 0
	if p := paras[0]; p[1]-p[0] == 1 && small(p) && (strings.HasSuffix(out[0].Text, ",") || strings.HasSuffix(out[0].Text, "!")) {
		out[0].Aside = true
		first = 1
	}
	for n, k := 0, len(paras)-1; n < 3 && k > first && small(paras[k]); n, k = n+1, k-1 {
		for i := paras[k][0]; i < paras[k][1]; i++ {
			out[i].Aside = true
		}
	}
	return out
}

// greeting: a short line ending in "," or "!" with nothing like a move ("Hi,", "Hallo Bob!",
// "Thanks!", "Cheers,").
func greeting(t string) bool {
	return len(strings.Fields(t)) <= 4 && (strings.HasSuffix(t, ",") || strings.HasSuffix(t, "!")) && !squareLike.MatchString(t)
}

// nameLike: one word that may be a name or an abbreviated sign-off ("Ann", "MfG", "Bob."):
// letters, a capital first, not in capitals only.
func nameLike(t string) bool {
	t = strings.TrimSuffix(t, ".")
	if t == "" || len(t) > 20 || strings.ContainsFunc(t, func(r rune) bool { return !unicode.IsLetter(r) }) {
		return false
	}
	first, _ := utf8.DecodeRuneInString(t)
	return unicode.IsUpper(first) && strings.ContainsFunc(t, unicode.IsLower)
}

func isUnderscoreRule(s string) bool {
	return len(s) >= 10 && strings.Trim(s, "_") == ""
}

// HTMLToText converts an HTML body to plain text: block elements end lines, <br> breaks
// them, scripts, styles and the head are dropped, and quoted parts are dropped, since
// commands are never inside them: a <blockquote> becomes one line ">" (so that Read knows
// the attribution above it by its shape), Gmail's, Yahoo's and Thunderbird's attributions go,
// and Outlook's header block becomes a rule of underscores, after which Read reads nothing.
func HTMLToText(s string) string {
	z := html.NewTokenizer(strings.NewReader(s))
	var sb strings.Builder
	skip := 0        // inside script/style/head/title
	quoted := 0      // inside a quoted part
	var stack []bool // per open div: whether it opened a quoted part
	newline := func() {
		str := sb.String()
		if len(str) > 0 && !strings.HasSuffix(str, "\n") {
			sb.WriteByte('\n')
		}
	}
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return strings.TrimSpace(sb.String()) + "\n"
		case html.TextToken:
			if skip == 0 && quoted == 0 {
				text := strings.Join(strings.Fields(string(z.Text())), " ")
				if text != "" {
					str := sb.String()
					if len(str) > 0 && !strings.HasSuffix(str, "\n") && !strings.HasSuffix(str, " ") {
						sb.WriteByte(' ')
					}
					sb.WriteString(text)
				}
			}
		case html.StartTagToken, html.SelfClosingTagToken, html.EndTagToken:
			name, hasAttr := z.TagName()
			a := atom.Lookup(name)
			isQuote, original := false, false
			if tt == html.StartTagToken && a == atom.Div && hasAttr {
				for {
					k, v, more := z.TagAttr()
					key, val := string(k), string(v)
					// Gmail's attribution (gmail_attr) is dropped, not its whole gmail_quote:
					// a reply written below the quote stands inside it, after the blockquote.
					if (key == "class" && (strings.Contains(val, "gmail_attr") || strings.Contains(val, "yahoo_quoted") || strings.Contains(val, "moz-cite-prefix"))) ||
						(key == "id" && (val == "divRplyFwdMsg" || strings.HasPrefix(val, "mail-editor-reference-message"))) {
						isQuote = true
					}
					// Outlook's header block: the original follows it unquoted, so the text says
					// where it begins, as Outlook's plain text does (a rule of underscores).
					original = original || key == "id" && val == "divRplyFwdMsg"
					if !more {
						break
					}
				}
			}
			switch a {
			case atom.Script, atom.Style, atom.Head, atom.Title:
				if tt == html.StartTagToken {
					skip++
				} else if tt == html.EndTagToken && skip > 0 {
					skip--
				}
			case atom.Blockquote:
				if tt == html.StartTagToken {
					if quoted == 0 && skip == 0 {
						// A quoted block stands as one quoted line: what introduces it is
						// then known by its shape, as in plain text.
						newline()
						sb.WriteString(">\n")
					}
					quoted++
				} else if tt == html.EndTagToken && quoted > 0 {
					quoted--
				}
				newline()
			case atom.Div:
				if tt == html.StartTagToken {
					if original && quoted == 0 && skip == 0 {
						newline()
						sb.WriteString("________________________________\n")
					}
					stack = append(stack, isQuote)
					if isQuote {
						quoted++
					}
				} else if tt == html.EndTagToken && len(stack) > 0 {
					if stack[len(stack)-1] && quoted > 0 {
						quoted--
					}
					stack = stack[:len(stack)-1]
				}
				newline()
			case atom.Br:
				// A break on an empty line is an empty line: "<div><br></div>" between two
				// paragraphs separates them, as a sign-off's paragraph needs.
				if str := sb.String(); skip == 0 && quoted == 0 && strings.HasSuffix(str, "\n") && !strings.HasSuffix(str, "\n\n") {
					sb.WriteByte('\n')
				} else {
					newline()
				}
			case atom.P:
				newline()
				if str := sb.String(); tt == html.EndTagToken && skip == 0 && quoted == 0 && str != "" && !strings.HasSuffix(str, "\n\n") {
					sb.WriteByte('\n') // a paragraph ends with an empty line
				}
			case atom.Tr, atom.Li, atom.H1, atom.H2, atom.H3, atom.H4, atom.Pre, atom.Table, atom.Ul, atom.Ol, atom.Hr:
				newline()
			}
		}
	}
}
