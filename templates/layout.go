package templates

import (
	htmltemplate "html/template"
	"strings"
)

// Wrap breaks text into lines of at most Width columns at spaces, keeping its line breaks.
// A line that fits is left as it is (a table keeps its columns). A longer line continues
// under its own indentation, or under the text of a list item ("- "). A word longer than a
// line is cut. A FEN's line is kept whole (FENLine).
func Wrap(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if (len([]rune(l)) > Width || strings.ContainsRune(l, '\t')) && !FENLine(l) {
			lines[i] = wrapLine(l, "")
		}
	}
	return strings.Join(lines, "\n")
}

// wrapLine wraps one line; its continuation lines are indented like it, or under the text of
// a list item ("- ").
func wrapLine(line, hang string) string {
	indent := line[:len(line)-len(strings.TrimLeft(line, " "))]
	if hang == "" {
		hang = indent
		if strings.HasPrefix(line[len(indent):], "- ") {
			hang += "  "
		}
	}
	return fill(indent, hang, line)
}

// fill writes the words of text after lead, wrapping at Width onto lines that begin with hang.
func fill(lead, hang, text string) string {
	room := Width - max(len([]rune(lead)), len(hang))
	fields := strings.Fields(text)
	for i := 0; i+1 < len(fields); i++ {
		// A move number stays with its move: "12. e4", "12... Nf6" are never broken (issue
		// 33: the game so far broke between them).
		if moveNumber(fields[i]) && len(fields[i])+1+len(fields[i+1]) <= room {
			fields[i] += " " + fields[i+1]
			fields = append(fields[:i+1], fields[i+2:]...)
		}
	}
	words := make([]string, 0, len(fields))
	for _, w := range fields {
		if len([]rune(w)) <= room { // counted, not converted
			words = append(words, w)
			continue
		}
		for r := []rune(w); ; r = r[room:] {
			if len(r) <= room {
				words = append(words, string(r))
				break
			}
			words = append(words, string(r[:room]))
		}
	}
	var out strings.Builder
	out.WriteString(lead)
	col := len([]rune(lead))
	for j, word := range words {
		n := len([]rune(word))
		switch {
		case j == 0:
		case col+1+n > Width:
			out.WriteByte('\n')
			out.WriteString(hang)
			col = len(hang)
		default:
			out.WriteByte(' ')
			col++
		}
		out.WriteString(word)
		col += n
	}
	return out.String()
}

// Columns lays out a command list such as a game's HELP text for a mail: each entry is a
// line "TERM<two or more spaces>DESCRIPTION", and a line that starts with spaces continues
// the description above it; any other line is prose. Descriptions are joined, then wrapped
// under a common column; a term too long for the column has its description on the lines
// below. Prose lines that follow one another are joined and wrapped as a paragraph.
func Columns(text string) string {
	type entry struct{ term, desc string }
	var entries []entry
	prose := false // the last entry is prose (term only)
	for _, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "":
			entries = append(entries, entry{})
			prose = false
		case strings.HasPrefix(line, "  ") && len(entries) > 0 && !prose:
			e := &entries[len(entries)-1]
			e.desc = strings.TrimSpace(e.desc + " " + trimmed)
		default:
			term, desc, ok := splitColumns(trimmed)
			switch {
			case ok:
				entries = append(entries, entry{term: term, desc: desc})
				prose = false
			case prose:
				entries[len(entries)-1].term += " " + trimmed
			default:
				entries = append(entries, entry{term: trimmed})
				prose = true
			}
		}
	}
	col := 0
	for _, e := range entries {
		if e.desc != "" && len([]rune(e.term)) <= 16 {
			col = max(col, len([]rune(e.term))+2)
		}
	}
	pad := strings.Repeat(" ", col)
	var out []string
	for _, e := range entries {
		switch {
		case e.desc == "":
			out = append(out, fill("", "", e.term))
		case len([]rune(e.term))+2 <= col:
			out = append(out, fill(e.term+strings.Repeat(" ", col-len([]rune(e.term))), pad, e.desc))
		default:
			out = append(out, e.term, fill(pad, pad, e.desc))
		}
	}
	return strings.Join(out, "\n")
}

// splitColumns cuts "TERM   DESCRIPTION" at its first run of two or more spaces.
func splitColumns(line string) (term, desc string, ok bool) {
	i := strings.Index(line, "  ")
	if i < 0 {
		return "", "", false
	}
	return line[:i], strings.TrimSpace(line[i:]), true
}

// isTable reports whether a paragraph is laid out in columns (two spaces inside a line), so
// that the HTML part keeps it in a <pre>.
func isTable(s string) bool {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(strings.TrimLeft(l, " "), "  ") {
			return true
		}
	}
	return false
}

func htmlLines(s string) htmltemplate.HTML {
	parts := strings.Split(s, "\n")
	for i, p := range parts {
		parts[i] = htmltemplate.HTMLEscapeString(p)
	}
	return htmltemplate.HTML(strings.Join(parts, "<br>\n"))
}

// quote wraps a line of the player's mail and puts "> " before each piece.
func quote(line string) string {
	var out []string
	for _, l := range strings.Split(Wrap(line), "\n") {
		if len([]rune(l)) > Width-2 {
			r := []rune(l)
			out = append(out, "> "+string(r[:Width-2]), "> "+string(r[Width-2:]))
			continue
		}
		out = append(out, "> "+l)
	}
	return strings.Join(out, "\n")
}

// wrapLong wraps only the lines longer than Width, leaving aligned lines (boards) alone.
func wrapLong(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if len([]rune(l)) > Width {
			lines[i] = Wrap(l)
		}
	}
	return strings.Join(lines, "\n")
}

// moveNumber reports whether w is a move number of a record: digits and one or more dots.
func moveNumber(w string) bool {
	d := strings.TrimRight(w, ".")
	if d == w || d == "" {
		return false
	}
	for _, c := range d {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
