package referee

import (
	"unicode"
	"unicode/utf8"
)

// plainText reports whether s may reach mail, terminals and web pages as it is: valid UTF-8
// with no control characters (an escape sequence rewrites a terminal; a NUL or a newline
// breaks a header or a log line) and no bidirectional overrides (which make text read
// otherwise than it is).
func plainText(s string) bool {
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
