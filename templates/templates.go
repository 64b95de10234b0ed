// Package templates renders every mail refereed sends. The wording lives in embedded template
// files (mail/*.txt and mail/*.html); this package fills them and builds the message: a
// multipart/alternative with a UTF-8 text/plain part of at most 72 columns and an HTML part
// with the same diagram in <pre>, a subject naming the game, threading headers, and
// Auto-Submitted so that no vacation responder answers it.
//
// Templates are only ever given what one recipient may read: the referee fills Mail from a
// single player's notices and view.
//
// The sentences are said in each language of package lang: words/*.tmpl in English,
// words/<tag>/*.tmpl, with the same names and fields, in the others (SayIn); a test keeps
// every language complete.
package templates

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	htmltemplate "html/template"
	"mime/quotedprintable"
	"regexp"
	"slices"
	"strings"
	"sync"
	texttemplate "text/template"
	"time"
	"unicode/utf8"

	"github.com/emersion/go-message"
	"github.com/emersion/go-message/mail"
	"github.com/emersion/go-message/textproto"

	"github.com/refereed/refereed/lang"
)

//go:embed mail/* words/*
var files embed.FS

// Width is the longest line of the text part, but for a FEN's (FENLine).
const Width = 72

// fenLine is a line that gives a position's FEN after its label: "FEN: <six fields>".
var fenLine = regexp.MustCompile(`^FEN: [1-8pnbrqkPNBRQK/]+ [wb] [-KQkqA-Ha-h]+ [-a-h1-8]+ \d+ \d+ ?$`)

// FENLine reports whether line gives a FEN: it is never broken (a reader copies it whole,
// issue 33), so it may be longer than Width, up to 100 columns.
func FENLine(line string) bool { return len(line) <= 100 && fenLine.MatchString(line) }

var (
	textTmpl = sync.OnceValue(func() *texttemplate.Template {
		return texttemplate.Must(texttemplate.New("game.txt").Funcs(texttemplate.FuncMap{"wrap": Wrap, "quote": quote, "wrapLong": wrapLong}).ParseFS(files, "mail/game.txt"))
	})
	htmlTmpl = sync.OnceValue(func() *htmltemplate.Template {
		return htmltemplate.Must(htmltemplate.New("game.html").Funcs(htmltemplate.FuncMap{"lines": htmlLines, "table": isTable}).ParseFS(files, "mail/game.html"))
	})
)

// Mail is one message to one recipient.
type Mail struct {
	From       string // "refereed <referee@example.org>"
	ReplyTo    string // the recipient's tokenized reply address
	To         string
	Subject    string // full subject line
	MessageID  string // without <>
	InReplyTo  string
	References []string
	Date       time.Time
	// AutoSubmitted is "auto-replied" for answers to a player's mail, "auto-generated" for
	// everything else.
	AutoSubmitted string

	Paragraphs []string // the text, one notice or sentence per paragraph
	Diagram    string   // the recipient's view, if any
	Quoted     []string // the unprocessed rest of the player's mail
	Footer     string
	// Attachments go after the text and HTML parts, in a multipart/mixed mail.
	Attachments []Attachment
	// Lang is the language of the mail's words ("" for English): its own words (the heading
	// of the unprocessed lines) are said in it, and the HTML part says it.
	Lang lang.Tag
}

// frame is a Mail as its templates read it: the fields they use, and no embedded struct (a
// field of an embedded struct is looked up by a search that allocates, at every action).
type frame struct {
	Subject      string
	Paragraphs   []string
	Diagram      string
	Quoted       []string
	Footer       string
	Lang         lang.Tag
	NotProcessed string
	NotEnglish   bool
}

// Attachment is a file a mail carries: a game in PGN.
type Attachment struct {
	Name        string // the file name offered: "game-42.pgn"
	ContentType string // "application/x-chess-pgn"
	Data        []byte
}

// Subject builds "[refereed #42] Transactional: what", the game's name short (without
// "Chess"): a mail list shows a subject's start, so what the player must do comes first in
// what, and the whole stays short (issue 33: subjects ran to 97 characters).
func Subject(game uint64, variant, what string) string {
	if game == 0 {
		return "[refereed] " + what
	}
	return fmt.Sprintf("[refereed #%d] %s: %s", game, ShortName(variant), what)
}

// ShortName is a game's name as a subject gives it: "Transactional Chess" is
// "Transactional", "Synchronous Chess (PSC)" "Synchronous (PSC)", "Orthodox chess"
// "Orthodox".
func ShortName(variant string) string {
	for _, c := range []string{" Chess", " chess"} {
		variant = strings.Replace(variant, c, "", 1)
	}
	return variant
}

// ruleRef is a rule's ID in parentheses, as the rules' authors cite them: " (TX-D15)",
// " (rules.md 0.4c)". Players are told rules in words; Render drops such citations.
var ruleRef = regexp.MustCompile(` ?\((?:[A-Z]{2}-D\d+[a-z]?|rules\.md[^)]*)\)`)

// Render builds the complete RFC 5322 message.
func Render(m Mail) ([]byte, error) {
	raw, _, err := RenderText(m)
	return raw, err
}

// part is one part of a multipart body: its header (ending with its blank line) and its
// body, written quoted-printable unless raw (a multipart body, written as it is).
type part struct {
	header []byte
	body   []byte
	raw    bool
}

// The headers of the text and HTML parts of every mail.
var textPartHeader, htmlPartHeader = textHeader("text/plain"), textHeader("text/html")

func textHeader(contentType string) []byte {
	var ph message.Header
	ph.SetContentType(contentType, map[string]string{"charset": "utf-8"})
	ph.Set("Content-Transfer-Encoding", "quoted-printable")
	return headerBytes(ph)
}

// headerBytes is h as go-message writes it, its blank line included.
func headerBytes(h message.Header) []byte {
	var b bytes.Buffer
	textproto.WriteHeader(&b, h.Header) // a bytes.Buffer takes every write
	return b.Bytes()
}

// writeParts writes parts to buf as the body of a multipart entity with boundary (RFC 2046
// 5.1.1), byte for byte as go-message's multipart writer does.
func writeParts(buf *bytes.Buffer, boundary string, parts []part) {
	for i, p := range parts {
		if i > 0 {
			buf.WriteString("\r\n")
		}
		buf.WriteString("--")
		buf.WriteString(boundary)
		buf.WriteString("\r\n")
		buf.Write(p.header)
		if p.raw {
			buf.Write(p.body)
			continue
		}
		qp := quotedprintable.NewWriter(buf)
		qp.Write(p.body) // a bytes.Buffer takes every write
		qp.Close()
	}
	buf.WriteString("\r\n--")
	buf.WriteString(boundary)
	buf.WriteString("--\r\n")
}

// dropRuleRefs is s without its rules' citations (ruleRef); the regexp runs only where one
// may stand.
func dropRuleRefs(s string) string {
	if !strings.Contains(s, "-D") && !strings.Contains(s, "rules.md") {
		return s
	}
	return ruleRef.ReplaceAllString(s, "")
}

// RenderText is Render, with the text of its plain part as a reader's client decodes it
// (line ends \n): what the referee remembers of a mail sent, without parsing it back.
func RenderText(m Mail) (raw []byte, plain string, err error) {
	m.Paragraphs = slices.Clone(m.Paragraphs)
	for i, p := range m.Paragraphs {
		m.Paragraphs[i] = dropRuleRefs(p)
	}
	m.Diagram = dropRuleRefs(m.Diagram)
	var text, html bytes.Buffer
	if m.Lang == "" {
		m.Lang = lang.EN
	}
	f := frame{Subject: m.Subject, Paragraphs: m.Paragraphs, Diagram: m.Diagram, Quoted: m.Quoted, Footer: m.Footer,
		Lang: m.Lang, NotProcessed: SayIn(m.Lang, "", "not-processed", nil), NotEnglish: m.Lang != lang.EN}
	if err := textTmpl().Execute(&text, f); err != nil {
		return nil, "", fmt.Errorf("templates: text: %w", err)
	}
	if err := htmlTmpl().Execute(&html, f); err != nil {
		return nil, "", fmt.Errorf("templates: html: %w", err)
	}
	for i, line := range strings.Split(text.String(), "\n") {
		if len(line) > Width && utf8.RuneCountInString(line) > Width && !FENLine(line) {
			return nil, "", fmt.Errorf("templates: line %d is longer than %d columns: %q", i+1, Width, line)
		}
	}
	var h mail.Header
	h.SetDate(m.Date)
	h.SetSubject(m.Subject)
	if m.Lang != lang.EN {
		h.Set("Content-Language", string(m.Lang))
	}
	from, err := mail.ParseAddress(m.From)
	if err != nil {
		return nil, "", fmt.Errorf("templates: from %q: %w", m.From, err)
	}
	h.SetAddressList("From", []*mail.Address{from})
	h.SetAddressList("To", []*mail.Address{{Address: m.To}})
	if m.ReplyTo != "" {
		h.SetAddressList("Reply-To", []*mail.Address{{Name: from.Name, Address: m.ReplyTo}})
	}
	h.SetMessageID(m.MessageID)
	if m.InReplyTo != "" {
		h.SetMsgIDList("In-Reply-To", []string{m.InReplyTo})
	}
	if len(m.References) > 0 {
		h.SetMsgIDList("References", m.References)
	}
	auto := m.AutoSubmitted
	if auto == "" {
		auto = "auto-generated"
	}
	h.Set("Auto-Submitted", auto)
	h.Set("X-Auto-Response-Suppress", "All")
	h.Set("MIME-Version", "1.0")
	// The boundary comes from the Message-ID: unique per mail, and the same bytes every time
	// the same mail is rendered (golden files, noninterference).
	sum := sha256.Sum256([]byte(m.MessageID))
	boundary := "refereed-" + hex.EncodeToString(sum[:12])
	var buf bytes.Buffer
	buf.Grow(text.Len() + html.Len()*11/10 + 1<<10) // headers, and quoted-printable's escapes
	// The header as go-message writes it; the body's parts are written here, as its
	// multipart writer would write them, without its copies and parses of each part's header.
	alternative := []part{{header: textPartHeader, body: text.Bytes()}, {header: htmlPartHeader, body: html.Bytes()}}
	if len(m.Attachments) == 0 {
		h.SetContentType("multipart/alternative", map[string]string{"boundary": boundary})
		if err := textproto.WriteHeader(&buf, h.Header.Header); err != nil {
			return nil, "", fmt.Errorf("templates: header: %w", err)
		}
		writeParts(&buf, boundary, alternative)
		return buf.Bytes(), text.String(), nil
	}
	// The text and HTML parts, as one alternative, then the files.
	h.SetContentType("multipart/mixed", map[string]string{"boundary": boundary + "-mixed"})
	if err := textproto.WriteHeader(&buf, h.Header.Header); err != nil {
		return nil, "", fmt.Errorf("templates: header: %w", err)
	}
	var ah message.Header
	ah.SetContentType("multipart/alternative", map[string]string{"boundary": boundary})
	var nested bytes.Buffer
	writeParts(&nested, boundary, alternative)
	parts := []part{{header: headerBytes(ah), body: nested.Bytes(), raw: true}}
	for _, a := range m.Attachments {
		var ph message.Header
		ph.SetContentType(a.ContentType, map[string]string{"charset": "utf-8"})
		ph.SetContentDisposition("attachment", map[string]string{"filename": a.Name})
		ph.Set("Content-Transfer-Encoding", "quoted-printable")
		parts = append(parts, part{header: headerBytes(ph), body: a.Data})
	}
	writeParts(&buf, boundary+"-mixed", parts)
	return buf.Bytes(), text.String(), nil
}
