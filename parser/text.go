package parser

import (
	"regexp"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Line is one line of a mail body that may hold a command.
type Line struct {
	N    int    // 1-based line number in the body
	Text string // trimmed
}

var (
	// Attribution lines that open a quoted reply, in the languages mail clients write them.
	attribution = regexp.MustCompile(`(?i)^(on\b.*\bwrote:?|le\b.*\ba écrit ?:?|am\b.*\bschrieb.*:|el\b.*\bescribió:?|il\b.*\bha scritto:?|em\b.*\bescreveu:?|op\b.*\bschreef.*:|.*\b(wrote|a écrit|schrieb|escribió|ha scritto|escreveu|schreef)\s*:)$`)
	// Outlook's separators: "-----Original Message-----" and its translations.
	originalMessage = regexp.MustCompile(`(?i)^-{2,}\s*(original message|ursprüngliche nachricht|message d'origine|messaggio originale|mensaje original|mensagem original|oorspronkelijk bericht|forwarded message|message transféré|weitergeleitete nachricht)\s*-{2,}$`)
	// The header block Outlook puts above the quoted mail: "From: ...", then "Sent: ...".
	outlookFrom = regexp.MustCompile(`(?i)^(from|de|von|da|van)\s*:\s*\S`)
	outlookSent = regexp.MustCompile(`(?i)^(sent|date|envoyé|gesendet|inviato|enviado|verzonden|datum)\s*:\s*\S`)
	// Trailers phones and web clients add.
	trailer = regexp.MustCompile(`(?i)^(sent from my \w+|sent from (mail|outlook) for \w+|get outlook for \w+|envoyé de mon \w+|von meinem \w+ gesendet|enviado desde mi \w+|inviato da \w+)`)
)

// CommandLines returns the lines of body that may hold commands: everything above the first
// quoted reply, attribution line, Outlook separator or signature delimiter, without quoted
// lines, blank lines and phone trailers.
func CommandLines(body string) []Line {
	raw := strings.Split(body, "\n")
	var out []Line
	for i := 0; i < len(raw); i++ {
		line := strings.TrimRight(raw[i], " \t\r")
		trimmed := strings.TrimSpace(strings.TrimPrefix(line, "\ufeff"))
		switch {
		case line == "-- " || line == "--" || trimmed == "—":
			return out // signature
		case strings.HasPrefix(trimmed, ">"):
			continue
		case originalMessage.MatchString(trimmed), isUnderscoreRule(trimmed):
			return out
		case attribution.MatchString(trimmed):
			return out
		case i+1 < len(raw) && attribution.MatchString(trimmed+" "+strings.TrimSpace(raw[i+1])) && strings.HasPrefix(strings.ToLower(trimmed), "on "):
			return out // "On Mon, 1 Jan ... Ann <a@b>" / "wrote:" split over two lines
		case outlookFrom.MatchString(trimmed) && i+1 < len(raw) && outlookSent.MatchString(strings.TrimSpace(raw[i+1])):
			return out
		case trimmed == "" || trailer.MatchString(trimmed):
			continue
		}
		out = append(out, Line{N: i + 1, Text: trimmed})
	}
	return out
}

func isUnderscoreRule(s string) bool {
	return len(s) >= 10 && strings.Trim(s, "_") == ""
}

// HTMLToText converts an HTML body to plain text: block elements end lines, <br> breaks
// them, scripts, styles and the head are dropped, and quoted parts (<blockquote>, Gmail's and
// Outlook's reply containers) are dropped, since commands are never inside them.
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
			isQuote := false
			if tt == html.StartTagToken && a == atom.Div && hasAttr {
				for {
					k, v, more := z.TagAttr()
					key, val := string(k), string(v)
					if (key == "class" && (strings.Contains(val, "gmail_quote") || strings.Contains(val, "yahoo_quoted") || strings.Contains(val, "moz-cite-prefix"))) ||
						(key == "id" && (val == "divRplyFwdMsg" || val == "appendonsend" || strings.HasPrefix(val, "mail-editor-reference-message"))) {
						isQuote = true
					}
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
					quoted++
				} else if tt == html.EndTagToken && quoted > 0 {
					quoted--
				}
				newline()
			case atom.Div:
				if tt == html.StartTagToken {
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
			case atom.Br, atom.P, atom.Tr, atom.Li, atom.H1, atom.H2, atom.H3, atom.H4, atom.Pre, atom.Table, atom.Ul, atom.Ol, atom.Hr:
				newline()
			}
		}
	}
}
