package parser

import (
	"reflect"
	"slices"
	"testing"
)

// envelopeOf is the part of m that ParseEnvelope reads.
func envelopeOf(m *Message) Message {
	return Message{From: m.From, FromError: m.FromError, FromName: m.FromName, To: m.To, ReturnPath: m.ReturnPath,
		AutoSubmitted: m.AutoSubmitted, Precedence: m.Precedence, Report: m.Report}
}

var envelopeSeeds = []string{
	"From: Ann <ann@example.com>\r\nTo: referee+g1-w-abcdefgh@example.org\r\nSubject: e4\r\n\r\ne4\r\n",
	"From: a@x\r\nFrom: b@x\r\nTo: r@x\r\n\r\n",
	"From: a@x, b@x\r\n\r\n",
	"From: =?ISO-8859-1?Q?J=F6rg?= <J@X>\r\nCc: c@x,\r\n d@x\r\nDelivered-To: r+g2-b-aaaaaaaa@x\r\n\r\n",
	"Received: from x\r\n\tby y\r\nfrom: a@x\nto: r@x\nAuto-Submitted: auto-replied\nAuto-Submitted: no\n\n",
	"Return-Path: <>\r\nFrom: MAILER-DAEMON@x\r\nContent-Type: multipart/report; report-type=delivery-status; boundary=B\r\n\r\n",
	"Precedence: Bulk\r\nX-Autoreply: yes\r\nFrom: a@x\r\n",
	" From: a@x\r\n\r\n",
	"From a@x\r\n\r\n",
	"Fr om: a@x\r\n\r\n",
	"From: a@x\r\nTo: r@x",
	"From: a@x\r\n\r",
	"\r\nFrom: a@x\r\n",
	"From : a@x\r\n: empty\r\nTo:\r\n\r\n",
	"From: a@x\r\nBad\r\n line: x\r\n\r\n",
	"From: <a@x>\rTo: r@x\r\n\r\n",
	"From: a@x\r\nTo: Bob <b@x>, referee+g1-w-abcdefgh@x, <<broken@\r\nTo: second@x\r\n\r\n",
}

// TestEnvelope: the seeds read alike both ways (the fuzz target runs them too).
func TestEnvelope(t *testing.T) {
	for _, s := range envelopeSeeds {
		checkEnvelope(t, []byte(s))
	}
	m, err := ParseEnvelope([]byte(envelopeSeeds[3]))
	if err != nil || m.From != "j@x" || m.FromName != "Jörg" || len(m.To) != 3 || m.To[2] != "r+g2-b-aaaaaaaa@x" {
		t.Errorf("envelope %+v %v", m, err)
	}
	// A To field with one broken address keeps the others (the reply address among them), and
	// a second To field counts too.
	m, err = ParseEnvelope([]byte(envelopeSeeds[len(envelopeSeeds)-1]))
	if want := []string{"b@x", "referee+g1-w-abcdefgh@x", "second@x"}; err != nil || !slices.Equal(m.To, want) {
		t.Errorf("recipients %q %v, want %q", m.To, err, want)
	}
}

// FuzzEnvelope: ParseEnvelope refuses what ParseHeader refuses and reads what it reads.
// A stranger's mail is judged by ParseEnvelope alone: any difference could take a player's
// move for a stranger's.
func FuzzEnvelope(f *testing.F) {
	for _, s := range envelopeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(checkEnvelope)
}

func checkEnvelope(t *testing.T, raw []byte) {
	h, herr := ParseHeader(raw)
	e, eerr := ParseEnvelope(raw)
	if (herr != nil) != (eerr != nil) {
		t.Fatalf("%q: ParseHeader error %v, ParseEnvelope error %v", raw, herr, eerr)
	}
	if herr != nil {
		return
	}
	if want, got := envelopeOf(h), envelopeOf(e); !reflect.DeepEqual(want, got) {
		t.Fatalf("%q:\nParseHeader   %+v\nParseEnvelope %+v", raw, want, got)
	}
	if !reflect.DeepEqual(*e, envelopeOf(e)) {
		t.Fatalf("%q: ParseEnvelope read more than the envelope: %+v", raw, *e)
	}
}
