package parser

import (
	"strings"
	"testing"
)

// largeInputs are outside inputs that could make a careless parser slow: a 10 MB attachment,
// a 256 KB single-line body, deeply nested HTML, many attribution-like lines.
var largeInputs = map[string]string{
	"attachment10MB": "From: a@x\r\nContent-Type: multipart/mixed; boundary=B\r\n\r\n--B\r\nContent-Type: text/plain\r\n\r\ne4\r\n--B\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n\r\n" + strings.Repeat("QUJDRA==\r\n", 10<<20/10) + "--B--\r\n",
	"longLine":       "From: a@x\r\n\r\n" + strings.Repeat("on wrote ", 256<<10/9),
	"nestedHTML":     "From: a@x\r\nContent-Type: text/html\r\n\r\n" + strings.Repeat("<div><blockquote>", 20000) + "e4",
	"manyLines":      "From: a@x\r\n\r\n" + strings.Repeat("On x\r\n", 40000),
}

func TestLargeInputs(t *testing.T) {
	m, err := Parse([]byte(largeInputs["attachment10MB"]))
	if err != nil || m.Attachments != 1 || texts(CommandLines(m.Body)) != "e4" {
		t.Errorf("10 MB attachment: %v %+v", err, m)
	}
	m, err = Parse([]byte(largeInputs["nestedHTML"]))
	if err != nil || texts(CommandLines(m.Body)) != "" {
		t.Errorf("text inside quotes must be dropped: %v %q", err, m.Body)
	}
	m, _ = Parse([]byte(largeInputs["longLine"]))
	if len(m.Body) > MaxBodyBytes {
		t.Errorf("body of %d bytes read, more than MaxBodyBytes", len(m.Body))
	}
}

// BenchmarkParseLarge: each large input parses in time linear in its size.
func BenchmarkParseLarge(b *testing.B) {
	for name, raw := range largeInputs {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(raw)))
			for i := 0; i < b.N; i++ {
				if m, err := Parse([]byte(raw)); err == nil {
					CommandLines(m.Body)
				}
			}
		})
	}
}
