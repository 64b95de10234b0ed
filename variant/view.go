package variant

import (
	"strings"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/lang"
	"github.com/refereed/refereed/templates"
)

// View is what one viewer may know, ready for a template: one or more boards, each with a
// title, and status lines.
type View struct {
	Bottom Side
	Panels []Panel
	Lines  []Line // status lines: whose move, transaction number, checks ...
	FEN    string // only where the viewer may know the whole position
}

// Panel is one board of a view.
type Panel struct {
	// Title is the sentence that names the board ("view/your-men"; a text as it is where
	// there is no such sentence); may be empty for the only board.
	Title      string
	Board      chess.Board
	Marked     chess.Bitboard // e.g. the viewer's own locked squares
	MarkLegend string         // the sentence that says what the marks are, as Title
}

// Line is a status line under a view: a sentence (Words, with Args) said in the reader's
// language, or a text as it is (Text).
type Line struct {
	Words string
	Args  map[string]any
	Text  string
}

// Says is the line that says the sentence words with args.
func Says(words string, args map[string]any) Line { return Line{Words: words, Args: args} }

// Text is a line of text as it is.
func Text(s string) Line { return Line{Text: s} }

// In is the line in language t.
func (l Line) In(t lang.Tag) string {
	if l.Words == "" {
		return l.Text
	}
	return templates.SayIn(t, "", l.Words, l.Args)
}

// String is the line in English.
func (l Line) String() string { return l.In(lang.EN) }

// sayOrText is the sentence named s in language t where there is one, else s itself.
func sayOrText(t lang.Tag, s string) string {
	if s == "" || !templates.HasWords("", s) {
		return s
	}
	return templates.SayIn(t, "", s, nil)
}

// Diagram draws every board of the view, each under its title, then the status lines, in
// English.
func (v View) Diagram() string { return v.Drawn(false, lang.EN) }

// Drawn is Diagram, with the men as Unicode figurines when figurine, its words in language t.
func (v View) Drawn(figurine bool, t lang.Tag) string {
	var sb strings.Builder
	for i, p := range v.Panels {
		if i > 0 {
			sb.WriteByte('\n')
		}
		if p.Title != "" {
			sb.WriteString(sayOrText(t, p.Title))
			sb.WriteString(":\n")
		}
		sb.WriteString(p.Board.Diagram(chess.DiagramOptions{Bottom: v.Bottom, Marked: p.Marked, MarkLegend: sayOrText(t, p.MarkLegend), Figurine: figurine,
			Legend: templates.SayIn(t, "", "view/legend", map[string]any{"Figurine": figurine})}))
	}
	if len(v.Lines) > 0 {
		sb.WriteByte('\n')
	}
	for _, l := range v.Lines {
		sb.WriteString(l.In(t))
		sb.WriteByte('\n')
	}
	return sb.String()
}
