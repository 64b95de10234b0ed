package parser

import (
	"bytes"
	"fmt"

	"github.com/emersion/go-message"
	"github.com/emersion/go-message/mail"
	"github.com/emersion/go-message/textproto"
)

// ParseEnvelope reads the fields of Message that say whom a mail is from and for and whether
// a machine sent it (From, FromError, FromName, To, and what Automatic reads) exactly as
// ParseHeader reads them, and no other field. It is for a mail that is most likely a
// stranger's (the published address's spam), whose other fields are never looked at: it
// scans the header's lines in place and keeps only the fields it needs, where ParseHeader
// copies every field. A header ParseHeader refuses, it refuses (FuzzEnvelope holds the two to
// the same answers).
func ParseEnvelope(raw []byte) (*Message, error) {
	fields, err := scanHeader(raw, envelopeFields)
	if err != nil {
		return nil, err
	}
	var h textproto.Header
	// textproto.ReadHeader keeps the fields last first; so must h, for Get and Values.
	for i := len(fields) - 1; i >= 0; i-- {
		h.AddRaw(fields[i])
	}
	return envelope(mail.Header{Header: message.Header{Header: h}}), nil
}

// envelopeFields are the fields envelope reads.
var envelopeFields = []string{"From", "To", "Cc", "Delivered-To", "X-Original-To", "Return-Path",
	"Auto-Submitted", "Precedence", "Content-Type", "X-Autoreply", "X-Autorespond"}

// scanHeader returns the fields of raw's header named in keep (any case), each whole ("Key:
// value" with its continuation lines, each line ended by CRLF), in order. It splits lines
// and refuses a header as textproto.ReadHeader does: a first line that begins with a space,
// a line without a colon, a field name with a byte outside 33-126.
func scanHeader(raw []byte, keep []string) ([][]byte, error) {
	if len(raw) > 0 && (raw[0] == ' ' || raw[0] == '\t') {
		return nil, fmt.Errorf("parser: read header: malformed initial line")
	}
	var out [][]byte
	rest := raw
	for len(rest) > 0 {
		line, next := cutLine(rest)
		if len(line) == 0 {
			break // the blank line that ends the header
		}
		start := len(raw) - len(rest)
		n := len(line)
		for len(next) > 0 && (next[0] == ' ' || next[0] == '\t') {
			var more []byte
			more, next = cutLine(next)
			n += len(more)
		}
		end := len(raw) - len(next)
		colon := bytes.IndexByte(line, ':')
		if colon < 0 {
			return nil, fmt.Errorf("parser: read header: malformed header line")
		}
		key := bytes.Trim(line[:colon], " \t")
		for _, c := range key {
			if c < 33 || c > 126 {
				return nil, fmt.Errorf("parser: read header: malformed header key")
			}
		}
		rest = next
		if len(key) == 0 || !named(key, keep) {
			continue
		}
		out = append(out, field(raw[start:end]))
	}
	return out, nil
}

// cutLine splits off s's first line as bufio.Reader.ReadLine reads it: without its "\n" or
// "\r\n".
func cutLine(s []byte) (line, rest []byte) {
	i := bytes.IndexByte(s, '\n')
	if i < 0 {
		return s, nil
	}
	line, rest = s[:i], s[i+1:]
	if len(line) > 0 && line[len(line)-1] == '\r' {
		line = line[:len(line)-1]
	}
	return line, rest
}

// field is one field's lines as textproto.ReadHeader joins them: each ended by CRLF.
func field(lines []byte) []byte {
	out := make([]byte, 0, len(lines)+2)
	for len(lines) > 0 {
		var line []byte
		line, lines = cutLine(lines)
		out = append(append(out, line...), '\r', '\n')
	}
	return out
}

func named(key []byte, names []string) bool {
	for _, n := range names {
		if len(n) == len(key) && bytes.EqualFold(key, []byte(n)) {
			return true
		}
	}
	return false
}
