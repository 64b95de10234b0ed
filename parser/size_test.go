package parser

import (
	"fmt"
	"strings"
	"testing"
)

// nestedMIME is a mail whose text part lies depth multipart levels down.
func nestedMIME(depth int, text string) string {
	var b strings.Builder
	b.WriteString("From: a@x\r\nContent-Type: multipart/mixed; boundary=b0\r\n\r\n")
	for i := 1; i <= depth; i++ {
		fmt.Fprintf(&b, "--b%d\r\nContent-Type: multipart/mixed; boundary=b%d\r\n\r\n", i-1, i)
	}
	fmt.Fprintf(&b, "--b%d\r\nContent-Type: text/plain\r\n\r\n%s\r\n", depth, text)
	for i := depth; i >= 0; i-- {
		fmt.Fprintf(&b, "--b%d--\r\n", i)
	}
	return b.String()
}

// manyParts is a mail of n sibling text parts.
func manyParts(n int) string {
	var b strings.Builder
	b.WriteString("From: a@x\r\nContent-Type: multipart/mixed; boundary=B\r\n\r\n")
	for i := 0; i < n; i++ {
		b.WriteString("--B\r\nContent-Type: application/octet-stream\r\n\r\nx\r\n")
	}
	b.WriteString("--B--\r\n")
	return b.String()
}

// largeInputs are outside inputs that could make a careless parser slow: a 10 MB attachment,
// a 256 KB single-line body, deeply nested HTML, many attribution-like lines.
var largeInputs = map[string]string{
	"attachment10MB":  "From: a@x\r\nContent-Type: multipart/mixed; boundary=B\r\n\r\n--B\r\nContent-Type: text/plain\r\n\r\ne4\r\n--B\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n\r\n" + strings.Repeat("QUJDRA==\r\n", 10<<20/10) + "--B--\r\n",
	"longLine":        "From: a@x\r\n\r\n" + strings.Repeat("on wrote ", 256<<10/9),
	"nestedHTML":      "From: a@x\r\nContent-Type: text/html\r\n\r\n" + strings.Repeat("<div><blockquote>", 20000) + "e4",
	"manyLines":       "From: a@x\r\n\r\n" + strings.Repeat("On x\r\n", 40000),
	"nestedMIME10000": nestedMIME(10000, "e4"),
	"parts100000":     manyParts(100000),
}

// MIME nesting and part counts are bounded: text within MaxDepth levels is read, deeper parts
// are skipped with a note, and no more than MaxParts parts are looked at.
func TestMIMEBounds(t *testing.T) {
	m, err := Parse([]byte(nestedMIME(MaxDepth-1, "e4")))
	if err != nil || strings.TrimSpace(m.Body) != "e4" || m.BodyError != "" {
		t.Errorf("text %d levels down: %v %q %q", MaxDepth-1, err, m.Body, m.BodyError)
	}
	m, err = Parse([]byte(nestedMIME(10000, "e4")))
	if err != nil || strings.TrimSpace(m.Body) != "" || !strings.Contains(m.BodyError, "nested more than 100 deep") {
		t.Errorf("text 10000 levels down: %v %q %q", err, m.Body, m.BodyError)
	}
	m, err = Parse([]byte(manyParts(100000)))
	if err != nil || m.Attachments != MaxParts || !strings.Contains(m.BodyError, "more than 1000 MIME parts") {
		t.Errorf("100000 parts: %v, %d read, %q", err, m.Attachments, m.BodyError)
	}
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
