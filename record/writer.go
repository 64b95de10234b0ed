package record

import (
	"io"
	"strings"
)

// sevenTagRoster is PGN's required tag order.
var sevenTagRoster = []string{"Event", "Site", "Date", "Round", "White", "Black", "Result"}

// Write writes one game as PGN: the seven tag roster first (with "?" for missing values and
// the result from result), the other tags in their order, a blank line, the movetext
// wrapped at 79 columns, and a blank line.
func Write(w io.Writer, tags []Tag, movetext, result string) error {
	var sb strings.Builder
	seen := map[string]bool{}
	for _, name := range sevenTagRoster {
		val := "?"
		if name == "Result" {
			val = result
		} else if name == "Date" {
			val = "????.??.??"
		}
		for _, t := range tags {
			if t.Name == name && name != "Result" {
				val = t.Value
			}
		}
		writeTag(&sb, name, val)
		seen[name] = true
	}
	for _, t := range tags {
		if !seen[t.Name] {
			writeTag(&sb, t.Name, t.Value)
		}
	}
	sb.WriteByte('\n')
	text := strings.TrimSpace(movetext)
	if text != "" {
		text += " "
	}
	sb.WriteString(Wrap(text+result, 79))
	sb.WriteString("\n\n")
	_, err := io.WriteString(w, sb.String())
	return err
}

func writeTag(sb *strings.Builder, name, val string) {
	sb.WriteByte('[')
	sb.WriteString(name)
	sb.WriteString(" \"")
	sb.WriteString(strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(val))
	sb.WriteString("\"]\n")
}

// Wrap breaks text at spaces into lines of at most width columns, keeping any line break
// already in text.
func Wrap(text string, width int) string {
	var out strings.Builder
	for i, para := range strings.Split(text, "\n") {
		if i > 0 {
			out.WriteByte('\n')
		}
		col := 0
		for j, word := range strings.Fields(para) {
			if j > 0 {
				if col+1+len(word) > width {
					out.WriteByte('\n')
					col = 0
				} else {
					out.WriteByte(' ')
					col++
				}
			}
			out.WriteString(word)
			col += len(word)
		}
	}
	return out.String()
}
