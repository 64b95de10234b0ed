package command

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxLines is the most command lines read from one mail, a player's, an organizer's or a
// stranger's at the bare address: far more than anyone writes (a series of moves is one line).
const MaxLines = 100

// PlainText reports whether s may reach mail, terminals and web pages as it is: valid UTF-8
// with no control characters (an escape sequence rewrites a terminal; a NUL or a newline
// breaks a header or a log line) and no bidirectional overrides (which make text read
// otherwise than it is).
func PlainText(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if unicode.IsControl(r) || (r >= 0x200e && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			return false
		}
	}
	return true
}

// Clip is s cut to 40 characters, as an answer quotes a line back.
func Clip(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "..."
	}
	return s
}

// ParseGameID reads a game's number as people write it: "42" or "#42".
func ParseGameID(s string) (uint64, error) {
	id, err := strconv.ParseUint(strings.TrimPrefix(strings.TrimSpace(s), "#"), 10, 64)
	if err != nil || id == 0 {
		return 0, fmt.Errorf("%q is not a game number", s)
	}
	return id, nil
}
