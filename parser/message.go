// Package parser turns a raw RFC 5322 message into what the referee needs: who sent it, what
// it answers, whether a machine sent it, and the command lines a person wrote (Read): found
// by structure, above, between and below quoted blocks, in any language and client, with
// quoted replies (and the lines the referee sent), attributions, header blocks, separators,
// signatures and mobile trailers removed, and greetings and sign-offs marked.
// text/plain is preferred; HTML-only mail is converted to text; every charset go-message knows
// is decoded to UTF-8. It reads outside input: any input gives a value or an error, never a
// panic (see the fuzz targets).
package parser

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/emersion/go-message"
	_ "github.com/emersion/go-message/charset" // decode Latin-1, Windows-1252, ... bodies
	"github.com/emersion/go-message/mail"
	"github.com/emersion/go-message/textproto"
)

// Bounds on what one message can make the parser do.
const (
	// MaxBodyBytes bounds the text read from one message; the rest is ignored.
	MaxBodyBytes = 256 << 10
	// MaxDepth bounds the nesting of MIME parts (Postfix's mime_nesting_limit is 100).
	MaxDepth = 100
	// MaxParts bounds the MIME parts read from one message.
	MaxParts = 1000
)

// Message is the part of an inbound mail the referee uses.
type Message struct {
	From          string   // the From address, lower-cased; "" when FromError is set
	FromName      string   // display name
	FromError     string   // why the From header was refused: unreadable, or not one address
	To            []string // To and Cc addresses, lower-cased
	ReplyTo       string   // the first Reply-To address
	Subject       string
	MessageID     string // without <>
	InReplyTo     []string
	References    []string
	ReturnPath    string // "" when absent; "<>" for the null sender
	AutoSubmitted string
	Precedence    string
	Report        bool   // multipart/report (delivery status notifications)
	Body          string // the chosen text, UTF-8, line ends \n
	FromHTML      bool   // Body was converted from HTML
	BodyError     string // why the body could not be read whole, if it could not
	Attachments   int
}

// Parse reads a raw message. Unknown charsets are not fatal: the raw bytes are used.
func Parse(raw []byte) (*Message, error) {
	e, err := message.Read(bytes.NewReader(raw))
	if err != nil && !message.IsUnknownCharset(err) {
		return nil, fmt.Errorf("parser: read message: %w", err)
	}
	if e == nil {
		return nil, errors.New("parser: read message: no header")
	}
	m := header(mail.Header{Header: e.Header})

	var plain, html string
	// The parts are walked depth first, as mail.Reader does, but no deeper than MaxDepth and
	// no further than MaxParts: every level of nesting wraps the reader of the level above,
	// so unbounded nesting costs time quadratic in the size of the mail.
	leaf := func(p *message.Entity) {
		ct, _, _ := p.Header.ContentType()
		disp, _, _ := p.Header.ContentDisposition()
		if disp != "inline" && (disp == "attachment" || (ct != "" && !strings.HasPrefix(ct, "text/"))) {
			m.Attachments++
			return // the reader of its level skips its bytes
		}
		if ct == "" {
			ct = "text/plain"
		}
		if ct == "text/plain" || ct == "text/html" {
			b, _ := io.ReadAll(io.LimitReader(p.Body, MaxBodyBytes))
			if ct == "text/plain" && plain == "" {
				plain = string(b)
			} else if ct == "text/html" && html == "" {
				html = string(b)
			}
		}
	}
	var stack []message.MultipartReader
	if top := e.MultipartReader(); top != nil {
		stack = append(stack, top)
	} else {
		leaf(e)
	}
	defer func() {
		for _, r := range stack {
			r.Close()
		}
	}()
	parts := 0
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		p, err := top.NextPart()
		if err == io.EOF {
			stack = stack[:len(stack)-1]
			continue
		}
		if err != nil && !message.IsUnknownCharset(err) {
			// A damaged or missing body (a header-only copy of an oversize mail): keep the
			// header and what was read, so that the sender can still be answered.
			m.BodyError = err.Error()
			break
		}
		if p == nil {
			break
		}
		if parts++; parts > MaxParts {
			m.BodyError = fmt.Sprintf("more than %d MIME parts: the rest was not read", MaxParts)
			break
		}
		if sub := p.MultipartReader(); sub != nil {
			if len(stack) >= MaxDepth {
				m.BodyError = fmt.Sprintf("MIME parts nested more than %d deep: the deeper ones were not read", MaxDepth)
				continue // its bytes are skipped by the reader of this level
			}
			stack = append(stack, sub)
			continue
		}
		leaf(p)
		if m.Report {
			m.Attachments++
		}
	}
	switch {
	case strings.TrimSpace(plain) != "":
		m.Body = plain
	case html != "":
		m.Body, m.FromHTML = HTMLToText(html), true
	}
	m.Body = strings.ReplaceAll(strings.ReplaceAll(m.Body, "\r\n", "\n"), "\r", "\n")
	return m, nil
}

// Automatic reports why a machine sent this mail ("" when a person did): auto-replies,
// bounces and lists are never answered, so that no mail loop can start.
func (m *Message) Automatic() string {
	switch {
	case m.Report:
		return "a delivery report (multipart/report)"
	case m.ReturnPath == "<>":
		return "a bounce (null sender)"
	}
	if m.AutoSubmitted != "" && m.AutoSubmitted != "no" {
		return "automatic mail (Auto-Submitted: " + m.AutoSubmitted + ")"
	}
	switch m.Precedence {
	case "bulk", "junk", "list", "auto_reply":
		return "automatic mail (Precedence: " + m.Precedence + ")"
	}
	local := m.From
	if i := strings.IndexByte(local, '@'); i >= 0 {
		local = local[:i]
	}
	switch {
	case local == "mailer-daemon" || local == "postmaster":
		return "a bounce (from " + m.From + ")"
	case local == "" && m.FromError == "":
		return "a bounce (no From)"
	}
	return ""
}

// header reads what the referee needs from a message's header.
func header(h mail.Header) *Message {
	m := envelope(h)
	if rt, err := h.AddressList("Reply-To"); err == nil && len(rt) > 0 {
		m.ReplyTo = rt[0].Address
	}
	m.Subject, _ = h.Subject()
	if id, err := h.MessageID(); err == nil && id != "" {
		m.MessageID = id
	} else {
		m.MessageID = strings.Trim(strings.TrimSpace(h.Get("Message-Id")), "<>") // malformed, but stable
	}
	m.InReplyTo, _ = h.MsgIDList("In-Reply-To")
	m.References, _ = h.MsgIDList("References")
	return m
}

// envelope reads the fields that say whom a mail is from and for, and whether a machine
// sent it (Automatic): all a stranger's mail is ever read for.
func envelope(h mail.Header) *Message {
	m := &Message{}
	// The From header is read strictly (RFC 5322 as net/mail reads it): exactly one
	// address in one field. Anything else has no sender rather than a guessed one.
	switch from, err := h.AddressList("From"); {
	case len(h.Values("From")) > 1:
		m.FromError = "several From fields"
	case err != nil:
		m.FromError = "unreadable From field: " + err.Error()
	case len(from) > 1:
		m.FromError = fmt.Sprintf("the From field names %d addresses", len(from))
	case len(from) == 1:
		m.From = strings.ToLower(from[0].Address)
		m.FromName = from[0].Name
	}
	for _, field := range []string{"To", "Cc", "Delivered-To", "X-Original-To"} {
		for _, v := range h.Values(field) { // every such field: a relay may add its own
			m.To = append(m.To, recipients(v)...)
		}
	}
	if h.Has("Return-Path") {
		m.ReturnPath = strings.TrimSpace(h.Get("Return-Path"))
	}
	m.AutoSubmitted = strings.ToLower(strings.TrimSpace(h.Get("Auto-Submitted")))
	m.Precedence = strings.ToLower(strings.TrimSpace(h.Get("Precedence")))
	if ct, _, err := h.ContentType(); err == nil && ct == "multipart/report" {
		m.Report = true
	}
	if h.Get("X-Autoreply") != "" || h.Get("X-Autorespond") != "" {
		if m.AutoSubmitted == "" {
			m.AutoSubmitted = "auto-replied"
		}
	}
	return m
}

// recipients reads the addresses of one recipient field, lower-cased. A field that does not
// parse whole (one broken address among good ones, as some clients write them) gives those
// of its comma-separated parts that parse: the reply address among them is still found.
func recipients(v string) []string {
	if strings.TrimSpace(v) == "" {
		return nil
	}
	list, err := mail.ParseAddressList(v)
	if err != nil {
		list = nil
		for _, part := range strings.Split(v, ",") {
			if a, err := mail.ParseAddress(strings.TrimSpace(part)); err == nil {
				list = append(list, a)
			}
		}
	}
	out := make([]string, 0, len(list))
	for _, a := range list {
		out = append(out, strings.ToLower(a.Address))
	}
	return out
}

// ParseHeader reads only the header of a raw message: every field of Message but the body's
// (Body, FromHTML, BodyError, Attachments). It is for deciding cheaply what a mail is (whom it
// is from and for) before reading it whole, if at all.
func ParseHeader(raw []byte) (*Message, error) {
	h, err := readHeader(raw)
	if err != nil {
		return nil, err
	}
	return header(h), nil
}

// readHeader reads the header of raw, through a small buffer (a long line is read in pieces).
// A last line without its line end is given one: textproto.ReadHeader refuses such a line
// when its length is a multiple of the buffer's.
func readHeader(raw []byte) (mail.Header, error) {
	r := io.Reader(bytes.NewReader(raw))
	if len(raw) > 0 && raw[len(raw)-1] != '\n' {
		r = io.MultiReader(r, strings.NewReader("\r\n"))
	}
	hdr, err := textproto.ReadHeader(bufio.NewReaderSize(r, 512))
	if err != nil {
		return mail.Header{}, fmt.Errorf("parser: read header: %w", err)
	}
	return mail.Header{Header: message.Header{Header: hdr}}, nil
}
