// Package record reads and writes game records: the PGN container (tags, movetext,
// comments, NAGs, variations, results) and the movetext tokens that the literature's
// notations share. It knows no rules and no variant: a variant reads the tokens of its own
// notation (orthodox SAN, Progressive series "4 Kxd8, e5", Transactional "7. T5: Nc6 (C)").
//
// Reader streams: it holds one game at a time, so a 1 GB archive is read in constant memory.
// A malformed game is reported as a *SyntaxError and the reader goes on with the next game.
package record

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Tag is one PGN tag pair.
type Tag struct {
	Name, Value string
}

// Record is one game as written: its tags and its raw movetext.
type Record struct {
	Number       int // 1-based position of the game in its file
	Line         int // line where the game starts
	MovetextLine int // line where its movetext starts (0: unknown)
	Tags         []Tag
	Movetext     string
}

// Position is where byte offset of the movetext stands in the file: line and column, from 1
// (columns count bytes). Without a known movetext line it is relative to the movetext.
func (r *Record) Position(offset int) (line, col int) {
	offset = min(max(offset, 0), len(r.Movetext))
	before := r.Movetext[:offset]
	line = max(r.MovetextLine, 1) + strings.Count(before, "\n")
	return line, offset - strings.LastIndexByte(before, '\n')
}

// Tag returns the value of the named tag, "" if absent.
func (r *Record) Tag(name string) string {
	for _, t := range r.Tags {
		if t.Name == name {
			return t.Value
		}
	}
	return ""
}

// SyntaxError is a game that could not be read. The reader has skipped it.
type SyntaxError struct {
	Number int // game number in the file
	Line   int
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("game %d (line %d): %s", e.Number, e.Line, e.Msg)
}

// DefaultMaxGameBytes bounds one game's size, so that a damaged file cannot make the reader
// hold it all in memory.
const DefaultMaxGameBytes = 4 << 20

// Reader reads records one at a time.
type Reader struct {
	MaxGameBytes int

	br       *bufio.Reader
	line     int
	number   int
	pending  []byte // a line read ahead that belongs to the next game
	havePend bool
	movetext bytes.Buffer
	tags     []Tag
	// carried are the games that followed a game's result in the same run of lines, each
	// without tags, with the line it starts on: cut all at once (one tokenizing of the run).
	carried []carried
}

// NewReader reads PGN from r.
func NewReader(r io.Reader) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, 64<<10), MaxGameBytes: DefaultMaxGameBytes}
}

// readLine returns the next line without its end-of-line, or io.EOF.
func (r *Reader) readLine() ([]byte, error) {
	if r.havePend {
		r.havePend = false
		return r.pending, nil
	}
	line, err := r.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		// A very long line: gather it (bounded by MaxGameBytes).
		long := append([]byte(nil), line...)
		for err == bufio.ErrBufferFull {
			if len(long) > r.MaxGameBytes {
				return nil, errLineTooLong
			}
			line, err = r.br.ReadSlice('\n')
			long = append(long, line...)
		}
		line = long
	}
	if err != nil && err != io.EOF {
		return nil, err
	}
	if len(line) == 0 && err == io.EOF {
		return nil, io.EOF
	}
	r.line++
	line = bytes.TrimRight(line, "\r\n")
	if r.line == 1 {
		line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf")) // UTF-8 byte order mark
	}
	return line, nil
}

var errLineTooLong = errors.New("record: line too long")

// unread pushes line back; it becomes the first line of the next game.
func (r *Reader) unread(line []byte) {
	r.pending = append(r.pending[:0], line...)
	r.havePend = true
}

// Next returns the next game, io.EOF after the last one, a *SyntaxError for a game it
// skipped (call Next again to go on), or another error when reading failed.
func (r *Reader) Next() (*Record, error) {
	if len(r.carried) > 0 {
		c := r.carried[0]
		r.carried = r.carried[1:]
		r.number++
		return &Record{Number: r.number, Line: c.line, MovetextLine: c.line, Movetext: c.text}, nil
	}
	r.movetext.Reset()
	r.tags = r.tags[:0]
	start, mtLine := 0, 0
	inMovetext := false
	commentDepth := 0 // inside { }
	var synErr *SyntaxError
	fail := func(format string, a ...any) {
		if synErr == nil {
			synErr = &SyntaxError{Line: r.line, Msg: fmt.Sprintf(format, a...)}
		}
	}
	for {
		line, err := r.readLine()
		if err == io.EOF {
			break
		}
		if err == errLineTooLong {
			fail("a line is longer than %d bytes", r.MaxGameBytes)
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("record: read: %w", err)
		}
		trimmed := bytes.TrimSpace(line)
		if commentDepth == 0 {
			if len(trimmed) == 0 {
				if inMovetext && endsWithResult(r.movetext.Bytes()) {
					break
				}
				continue
			}
			if line[0] == '%' { // PGN escape line
				continue
			}
			if trimmed[0] == '[' {
				if inMovetext {
					r.unread(line)
					break
				}
				if start == 0 {
					start = r.line
				}
				if err := r.parseTags(trimmed); err != nil {
					fail("%v", err)
				}
				continue
			}
		}
		if start == 0 {
			start = r.line
		}
		if mtLine == 0 {
			mtLine = r.line
		}
		inMovetext = true
		if r.movetext.Len()+len(line) > r.MaxGameBytes {
			fail("the game is longer than %d bytes", r.MaxGameBytes)
			continue
		}
		for _, c := range line {
			if c == '{' {
				commentDepth = 1
			} else if c == '}' {
				commentDepth = 0
			}
		}
		if r.movetext.Len() > 0 {
			r.movetext.WriteByte('\n')
		}
		r.movetext.Write(line)
	}
	if start == 0 {
		return nil, io.EOF
	}
	r.number++
	if synErr != nil {
		synErr.Number = r.number
		return nil, synErr
	}
	rec := &Record{Number: r.number, Line: start, MovetextLine: mtLine, Movetext: r.movetext.String()}
	rec.Tags = append([]Tag(nil), r.tags...)
	r.split(rec)
	return rec, nil
}

// carried is a game cut from the movetext of the game before it (see split).
type carried struct {
	text string
	line int
}

// split cuts rec's movetext after each result that more movetext follows in the same run of
// lines ("1. e4 e5 1-0" and then "1. d4 *" on the next line, or "1-0 0-1"): rec keeps what
// comes up to its first result, and each piece after it is a game of its own, read by the
// next calls, never skipped without a word. The run is tokenized once, however many games
// it holds.
func (r *Reader) split(rec *Record) {
	m := rec.Movetext
	n := strings.Count(m, "1-0") + strings.Count(m, "0-1") + strings.Count(m, "1/2-1/2") + strings.Count(m, "*") + strings.Count(m, "½-½")
	if n == 0 || n == 1 && endsWithResult([]byte(m)) {
		return // the common case, decided without tokens
	}
	toks, err := Tokenize(m, nil)
	if err != nil {
		return // the replay reports the movetext's error
	}
	line, lineAt := max(rec.MovetextLine, 1), 0 // the line of byte lineAt of m
	lineOf := func(at int) int {
		line += strings.Count(m[lineAt:at], "\n")
		lineAt = at
		return line
	}
	cut := -1 // where the game being cut ends; -1 until the first result
	start := 0
	for i, t := range toks {
		if t.Kind != Result || i == len(toks)-1 {
			continue
		}
		end := t.Offset + len(t.Text)
		if cut < 0 {
			cut = end
		} else {
			r.carried = append(r.carried, carried{m[start:end], lineOf(start)})
		}
		rest := m[end:]
		start = end + len(rest) - len(strings.TrimLeft(rest, " \t\r\n"))
	}
	if cut < 0 {
		return
	}
	r.carried = append(r.carried, carried{m[start:], lineOf(start)})
	rec.Movetext = m[:cut]
}

// parseTags reads one or more [Name "Value"] pairs from one line.
func (r *Reader) parseTags(s []byte) error {
	for len(s) > 0 {
		if s[0] != '[' {
			return fmt.Errorf("tag line %q: expected [", clip(s))
		}
		s = bytes.TrimLeft(s[1:], " \t")
		i := 0
		for i < len(s) && s[i] != ' ' && s[i] != '\t' && s[i] != '"' && s[i] != ']' {
			i++
		}
		if i == 0 {
			return fmt.Errorf("tag line %q: no tag name", clip(s))
		}
		name := string(s[:i])
		s = bytes.TrimLeft(s[i:], " \t")
		if len(s) == 0 || s[0] != '"' {
			return fmt.Errorf("tag %s: the value must be in double quotes", name)
		}
		j, escaped := 1, false
		for ; j < len(s) && s[j] != '"'; j++ {
			if s[j] == '\\' && j+1 < len(s) {
				j++
				escaped = true
			}
		}
		if j >= len(s) {
			return fmt.Errorf("tag %s: value not closed with \"", name)
		}
		value := string(s[1:j])
		if escaped {
			var val strings.Builder
			for k := 1; k < j; k++ {
				if s[k] == '\\' && k+1 < j {
					k++
				}
				val.WriteByte(s[k])
			}
			value = val.String()
		}
		s = bytes.TrimLeft(s[j+1:], " \t")
		if len(s) == 0 || s[0] != ']' {
			return fmt.Errorf("tag %s: missing ]", name)
		}
		s = bytes.TrimLeft(s[1:], " \t")
		r.tags = append(r.tags, Tag{Name: name, Value: value})
	}
	return nil
}

func endsWithResult(b []byte) bool {
	b = bytes.TrimRight(b, " \t\r\n")
	for _, res := range [...]string{"1-0", "0-1", "1/2-1/2", "*"} {
		if bytes.HasSuffix(b, []byte(res)) {
			k := len(b) - len(res)
			return k == 0 || b[k-1] == ' ' || b[k-1] == '\n' || b[k-1] == '\t' || b[k-1] == '}' || b[k-1] == ')'
		}
	}
	return false
}

func clip(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "..."
	}
	return string(b)
}
