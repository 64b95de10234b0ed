package parser

import (
	"encoding/binary"
	"hash/fnv"
	"reflect"
	"strings"
	"testing"
)

func texts(ls []Line) string {
	var s []string
	for _, l := range ls {
		s = append(s, l.Text)
	}
	return strings.Join(s, "|")
}

func TestCommandLines(t *testing.T) {
	cases := []struct{ name, body, want string }{
		{"plain", "e4\n\nNf3\n", "e4|Nf3"},
		{"gmail", "T5: Nc6 (C)\n\nOn Sun, Nov 22, 2026 at 11:00 AM refereed <referee@x.org> wrote:\n> Your move\n> e4", "T5: Nc6 (C)"},
		{"gmail two-line attribution", "e4\nOn Sun, Nov 22, 2026 at 11:00 AM refereed <referee+g1-w-abc@example.org>\nwrote:\n> old", "e4"},
		{"apple mail", "Nf3\n\n> On 22 Nov 2026, at 11:00, refereed <referee@x.org> wrote:\n> \n> old", "Nf3"},
		{"outlook plain", "d4\n\n-----Original Message-----\nFrom: refereed\nSent: Sunday\nSubject: x\n\nold text", "d4"},
		{"outlook header block", "d4\n\nFrom: refereed <referee@x.org>\nSent: Sunday, November 22, 2026 11:00\nTo: Ann", "d4"},
		{"outlook underscores", "c4\n________________________________\nFrom: refereed", "c4"},
		{"german", "e4\n\nAm So., 22. Nov. 2026 um 11:00 Uhr schrieb refereed <r@x.org>:\n> alt", "e4"},
		{"french", "e4\nLe dim. 22 nov. 2026 à 11:00, refereed <r@x.org> a écrit :\n> vieux", "e4"},
		{"localized separator", "e4\n-----Ursprüngliche Nachricht-----\nVon: x", "e4"},
		{"signature", "resign\n-- \nAnn Example\nChess club", "resign"},
		{"phone trailer", "Kd8\n\nSent from my iPhone", "Kd8"},
		{"quoted lines only", "> e4\n> e5", ""},
		{"crlf leftovers and bom", "\ufeffe4  \n\tNf3\t", "e4|Nf3"},
		{"bottom posting", "Ann wrote:\n> Your move\n\nNf3", "Nf3"},
		{"inline, a move right above a quote", "> Your move\ne4\n> old\nNf3", "e4|Nf3"},
		{"a command with a colon above a quote", "T5: Nc6 (C)\n> old", "T5: Nc6 (C)"},
		{"a line ending in a colon with a move is no attribution", "IF e5 THEN Nf3:\n> old", "IF e5 THEN Nf3:"},
		{"signature to the next quote", "e4\n-- \nAnn\n> old\nNf3", "e4|Nf3"},
		{"header block without address or date is read", "Name: Ann\nColour: white\ne4", "Name: Ann|Colour: white|e4"},
		{"separator in any language", "e4\n--------- Исходное сообщение ---------\nd4", "e4"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := texts(CommandLines(c.body)); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
	for body, want := range map[string]string{
		"e4\n\nOFFER DRAW":          "e4|OFFER DRAW",
		"e4\n\nresign":              "e4|resign",
		"e4\n\nNf3, thanks!":        "e4|Nf3, thanks!",
		"Hi,\n\ne4\n\nCheers,\nAnn": "~Hi,|e4|~Cheers,|~Ann",
		"e4\n\nBest regards\n\n谢谢":  "e4|~Best regards|~谢谢",
	} {
		if got := shown(Read(body, nil)); got != want {
			t.Errorf("%q: read %q, want %q (asides marked ~)", body, got, want)
		}
	}
	if l := CommandLines("\n\ne4"); l[0].N != 3 {
		t.Errorf("line numbers count from the body's first line: %+v", l)
	}
}

func TestHTMLToText(t *testing.T) {
	html := `<html><head><style>p{color:red}</style><title>x</title></head><body>
<div dir="ltr">T1: e4&nbsp;(C)<br>Nf3 &amp; more</div>
<div class="gmail_quote"><div>On Sun ... wrote:</div><blockquote>e5</blockquote></div>
<div id="divRplyFwdMsg"><b>From:</b> refereed</div>
<script>alert(1)</script></body></html>`
	got := texts(CommandLines(HTMLToText(html)))
	if got != "T1: e4\u00a0(C)|Nf3 & more" && got != "T1: e4 (C)|Nf3 & more" {
		t.Errorf("got %q", got)
	}
}

func TestParseMessages(t *testing.T) {
	latin1 := "From: =?ISO-8859-1?Q?J=F6rg?= <Jorg@Example.COM>\r\nTo: referee+g1-w-abcdefghij@x.org\r\nSubject: =?ISO-8859-1?Q?Z=FCge?=\r\nMessage-ID: <1@x>\r\nContent-Type: text/plain; charset=ISO-8859-1\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nT1: e4\r\nGr=FC=DFe\r\n"
	m, err := Parse([]byte(latin1))
	if err != nil {
		t.Fatal(err)
	}
	if m.From != "jorg@example.com" || m.FromName != "Jörg" || m.Subject != "Züge" || !strings.Contains(m.Body, "Grüße") || m.To[0] != "referee+g1-w-abcdefghij@x.org" {
		t.Errorf("latin-1: %+v", m)
	}
	alt := "From: a@x\r\nTo: r@x\r\nMessage-ID: <2@x>\r\nContent-Type: multipart/alternative; boundary=B\r\n\r\n--B\r\nContent-Type: text/html\r\n\r\n<p>html wins?</p>\r\n--B\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nplain wins\r\n--B--\r\n"
	if m, _ := Parse([]byte(alt)); m == nil || strings.TrimSpace(m.Body) != "plain wins" || m.FromHTML {
		t.Errorf("text/plain is preferred: %+v", m)
	}
	html := "From: a@x\r\nTo: r@x\r\nContent-Type: text/html; charset=windows-1252\r\n\r\n<p>Fran\x80ois e4</p>\r\n"
	if m, _ := Parse([]byte(html)); m == nil || !m.FromHTML || !strings.Contains(m.Body, "Fran€ois e4") {
		t.Errorf("html-only windows-1252: %+v", m)
	}
	attach := "From: a@x\r\nTo: r@x\r\nContent-Type: multipart/mixed; boundary=B\r\n\r\n--B\r\nContent-Type: text/plain\r\n\r\ne4\r\n--B\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename=big.bin\r\n\r\nAAAA\r\n--B--\r\n"
	if m, _ := Parse([]byte(attach)); m == nil || m.Attachments != 1 || strings.TrimSpace(m.Body) != "e4" {
		t.Errorf("attachment: %+v", m)
	}
}

func TestAutomatic(t *testing.T) {
	cases := map[string]string{
		"From: a@x\r\nAuto-Submitted: auto-replied\r\n\r\nx":                       "Auto-Submitted",
		"From: a@x\r\nAuto-Submitted: no\r\n\r\nx":                                 "",
		"From: a@x\r\nPrecedence: bulk\r\n\r\nx":                                   "Precedence",
		"From: MAILER-DAEMON@x\r\n\r\nx":                                           "bounce",
		"From: a@x\r\nReturn-Path: <>\r\n\r\nx":                                    "null sender",
		"From: a@x\r\nContent-Type: multipart/report; boundary=B\r\n\r\n--B--\r\n": "report",
		"From: a@x\r\nX-Autoreply: yes\r\n\r\nx":                                   "Auto-Submitted",
		"From: a@x\r\n\r\nx":                                                       "",
	}
	for raw, want := range cases {
		m, err := Parse([]byte(raw))
		if err != nil {
			t.Fatalf("%q: %v", raw, err)
		}
		got := m.Automatic()
		if (want == "") != (got == "") || !strings.Contains(got, want) {
			t.Errorf("%q: Automatic() = %q, want %q", raw, got, want)
		}
	}
}

// FuzzParse: any bytes give a message or an error, never a panic, and the command lines of
// whatever body comes out are well formed.
func FuzzParse(f *testing.F) {
	f.Add([]byte("From: a@x\r\nTo: r@x\r\nContent-Type: multipart/alternative; boundary=B\r\n\r\n--B\r\nContent-Type: text/html\r\n\r\n<p>e4</p><blockquote>x</blockquote>\r\n--B--\r\n"))
	f.Add([]byte("From: =?ISO-8859-1?Q?J=F6rg?= <j@x>\r\nContent-Type: text/plain; charset=ISO-8859-1\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nGr=FC=DFe\r\n"))
	f.Add([]byte("Content-Type: multipart/mixed; boundary=\"\"\r\n\r\n--\r\n"))
	f.Add([]byte(nestedMIME(150, "e4")))
	f.Add([]byte(manyParts(1200)))
	f.Fuzz(func(t *testing.T, raw []byte) {
		m, err := Parse(raw)
		if err != nil {
			return
		}
		// The header alone reads the same header (what decides whom a mail is from and for).
		if h, err := ParseHeader(raw); err == nil {
			m2 := *m
			m2.Body, m2.FromHTML, m2.BodyError, m2.Attachments = "", false, "", 0
			if !reflect.DeepEqual(*h, m2) {
				t.Fatalf("ParseHeader %+v, Parse %+v", *h, m2)
			}
		}
		m.Automatic()
		for _, l := range CommandLines(m.Body) {
			if l.N < 1 || strings.TrimSpace(l.Text) != l.Text || l.Text == "" {
				t.Fatalf("bad line %+v", l)
			}
		}
	})
}

// FuzzRead: any body and any sent text give well-formed lines in order, never a panic, and
// a line of the body that the referee did not send and that looks like a move is never
// taken for quoted text when it stands alone.
func FuzzRead(f *testing.F) {
	f.Add("Nc6\n\nW dniu pt., 27 lis 2026 o 10:00 r <r@x.org> napisał(a):\n> e4", "White played 1. e4\n1. e4")
	f.Add("Od: r <r@x.org>\nWysłano: 27.11.2026\n\nWhite played 1. e4\n1. e4\n\nNf3", "White played 1. e4\n1. e4")
	f.Add("> x\ne4\n\nThanks,\nAnn", "")
	f.Fuzz(func(t *testing.T, body, sentBody string) {
		sent := NewSent(SentLines(sentBody, MaxSent))
		last := 0
		for _, l := range Read(body, sent) {
			if l.N <= last || strings.TrimSpace(l.Text) != l.Text || l.Text == "" {
				t.Fatalf("bad line %+v after %d", l, last)
			}
			last = l.N
		}
	})
}

// A line the referee sent is quoted text beside other quoted text, or as a sentence; a short
// line of its own, or one like a move, is the player's: he may write what the referee wrote.
func TestSentLines(t *testing.T) {
	sent := NewSent(SentLines("White played 1. e4\nRESIGN\nBlack to play move 1.\nReply to this mail to send commands\n> Nf3", MaxSent))
	for body, want := range map[string]string{
		"RESIGN": "RESIGN",
		"1. e4":  "1. e4",
		"Nf3":    "Nf3",
		"e5\nReply to this mail to send commands":    "e5",
		"e5\n\nWhite played 1. e4\nRESIGN\n":         "e5",
		"e5\n\n> Your move\nBlack to play move 1.\n": "e5",
	} {
		if got := texts(Read(body, sent)); got != want {
			t.Errorf("%q: read %q, want %q", body, got, want)
		}
	}
	many := make([]uint32, 3*MaxSent)
	for i := range many {
		many[i] = uint32(i)
	}
	if n := len(NewSent(many).set); n != MaxSent {
		t.Errorf("a sent set holds %d hashes, want %d", n, MaxSent)
	}
}

// FuzzHTMLToText: any HTML gives text, never a panic.
func FuzzHTMLToText(f *testing.F) {
	f.Add("<div class=gmail_quote><blockquote><div>x</div></blockquote></div><p>e4")
	f.Fuzz(func(t *testing.T, s string) {
		CommandLines(HTMLToText(s))
	})
}

// The From field is read strictly: one address in one field, or no sender at all (issue: a
// malformed From was read as its last word, and a list as its first address).
func TestStrictFrom(t *testing.T) {
	for raw, want := range map[string]string{
		"From: Ann <ann@x.org>\r\n\r\ne4":               "ann@x.org|",
		"From: \"Ann, Jr.\" <Ann@X.org>\r\n\r\ne4":      "ann@x.org|",
		"From: ann@x.org, bob@x.org\r\n\r\ne4":          "|the From field names 2 addresses",
		"From: ann@x.org\r\nFrom: bob@x.org\r\n\r\ne4":  "|several From fields",
		"From: evil mallory@x.org <ann@x.org\r\n\r\ne4": "|unreadable",
		"From: bob@x.org (comment) ann@x.org\r\n\r\ne4": "|unreadable",
		"From: \r\n\r\ne4":                              "|",
	} {
		m, err := Parse([]byte(raw))
		if err != nil {
			t.Fatalf("%q: %v", raw, err)
		}
		got := m.From + "|" + m.FromError
		if wf, we, _ := strings.Cut(want, "|"); m.From != wf || !strings.HasPrefix(m.FromError, we) || (we == "" && m.FromError != "") {
			t.Errorf("%q: From %q", raw, got)
		}
	}
	m, _ := Parse([]byte("From: ann@x.org, bob@x.org\r\n\r\ne4"))
	if why := m.Automatic(); why != "" {
		t.Errorf("a malformed From is a person's mail without a sender, not %q", why)
	}
}

// HTML-only replies: written below Gmail's quote (inside its gmail_quote), an attribution in
// another language above a blockquote, Outlook's header block with the original after it.
func TestHTMLReplies(t *testing.T) {
	for html, want := range map[string]string{
		`<div dir="ltr"><br></div><div class="gmail_quote"><div dir="ltr" class="gmail_attr">W dniu pt., 27 lis 2026 o 10:00 refereed &lt;r@x.org&gt; napisał(a):<br></div><blockquote class="gmail_quote">Your move</blockquote><div>Nc6</div></div>`: "Nc6",
		`<div>Nc6</div><div class="gmail_quote">пт, 27 нояб. 2026 г. в 10:00, refereed &lt;r@x.org&gt;:<br><blockquote>White played 1. e4</blockquote></div>`:                                                                                          "Nc6",
		`<div>Nc6</div><div id="appendonsend"></div><hr><div id="divRplyFwdMsg"><b>Od:</b> refereed<br><b>Wysłano:</b> piątek</div><div>White played 1. e4<br>Black to play</div>`:                                                                     "Nc6",
	} {
		if got := texts(Read(HTMLToText(html), nil)); got != want {
			t.Errorf("read %q, want %q\n%s", got, want, HTMLToText(html))
		}
	}
}

// HTML-only replies in the shapes of Mailgun's talon (tests/fixtures/html_replies: Hotmail,
// mail.ru, Windows Mail; Apache-2.0), written anew with a move where the person's text
// stands: the sign-off after an empty line is an aside, nothing of the quote is read.
func TestHTMLClientReplies(t *testing.T) {
	for name, c := range map[string]struct{ html, want string }{
		"hotmail": {`<body class='hmmessage'><div dir='ltr'>Nc6<div><br></div><div>Thanks,</div><div>Alex<br><br><div><hr id="stopSpelling">Date: Thu, 26 Nov 2026 13:53:45 +0400<br>Subject: your move<br>From: referee@example.org<br>To: alex@example.org<br><br><div dir="ltr"><div>White played 1. e4</div><div><br></div><div>Black to play move 1.</div></div></div></div></div></body>`,
			"Nc6|~Thanks,|~Alex"},
		"mail.ru": {`<HTML><BODY><p>Nc6</p><p>Thanks,<br>Alex</p><br><br><br>Thu, 26 Nov 2026 14:00:51 +0400 от refereed &lt;referee@example.org&gt;:<br>
<blockquote style="border-left:1px solid #0857A6"><div>White played 1. e4</div><div>Black to play move 1.</div></blockquote><br></BODY></HTML>`,
			"Nc6|~Thanks,|~Alex"},
		"windows mail": {`<body dir="ltr"><div dir="ltr"><div>Nc6</div><div><br></div><div>Thanks,</div><div>Alex<br></div><div data-signatureblock="true"><div><br></div></div><div style="padding-top: 5px; border-top-style: solid;"><div><font><b>От:</b>&nbsp;<a href="mailto:referee@example.org">refereed</a><br><b>Отправлено:</b>&nbsp;четверг, 26 ноября 2026 г. 15:05<br><b>Кому:</b>&nbsp;<a href="mailto:alex@example.org">Alex</a></font></div></div><div><br></div><div dir=""><div>White played 1. e4</div><div><br></div><div>Black to play move 1.</div></div></div></body>`,
			"Nc6|~Thanks,|~Alex"},
		"comcast": {`<html><body><div>Nc6<br><br><hr id="zwchr"><b>From: </b>referee@example.org<br><b>To: </b>alex@example.org<br><b>Sent: </b>Monday, November 23, 2026 5:44:22 PM<br><b>Subject: </b>your move<br><br>White played 1. e4<br></div></body></html>`,
			"Nc6"},
	} {
		text := HTMLToText(c.html)
		if got := shown(Read(text, nil)); got != c.want {
			t.Errorf("%s: read %q, want %q\n%s", name, got, c.want, text)
		}
	}
}

// Found by review (issue 34): a greeting right above the move, a thanks right under it and a
// name in a paragraph of its own are asides (tried, never refused); a header block followed
// by the referee's mail unquoted is an attribution, and a move below it is read.
func TestAsidesAndUnquotedOriginal(t *testing.T) {
	aside := func(lines []Line) string {
		var out []string
		for _, l := range lines {
			if l.Aside {
				out = append(out, "("+l.Text+")")
			} else {
				out = append(out, l.Text)
			}
		}
		return strings.Join(out, "|")
	}
	for body, want := range map[string]string{
		"Hi,\nNf3":                  "(Hi,)|Nf3",
		"Hi referee,\nNf3\nThanks!": "(Hi referee,)|Nf3|(Thanks!)",
		"Nf3\n\nAnn":                "Nf3|(Ann)",
		"Nf3\n\nMfG":                "Nf3|(MfG)",
		"e4\nNf3":                   "e4|Nf3",
		"Nf3\n\nRESIGN":             "Nf3|RESIGN",
		"Nf3\n\nAny?":               "Nf3|Any?",
		"Nf3,":                      "Nf3,",
	} {
		if got := aside(Read(body, nil)); got != want {
			t.Errorf("%q: read %q, want %q", body, got, want)
		}
	}
	mail := "Your move: White played 1. e4\nBlack to play move 1.\nReply to this mail to send commands, one per line."
	sent := NewSent(SentLines(mail, MaxSent))
	body := "Od: refereed <referee@localhost>\nWysłano: piątek, 27 listopada 2026 10:00\nDo: ann@localhost\nTemat: [refereed #1] your move\n\n" + mail + "\n\nNc3\n"
	if got := texts(Read(body, sent)); got != "Nc3" {
		t.Errorf("a move below a header block and the referee's mail unquoted: read %q", got)
	}
}

// lineHash is the FNV-1a hash of the line made normal, and refuses the lines that are empty
// or "--" once normal: the hashes of lines sent are kept in the store, so they may not change.
func FuzzLineHash(f *testing.F) {
	for _, s := range []string{"", "--", " -- ", "> --", "---", "- -", "e4", "  White  played\u00a0e4. ", "\ufeff> Nf3\t", "\xff\xfe a", "\u2003x\u3000y ", "a\r"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		n := normal(line)
		sum := fnv.New32a()
		sum.Write([]byte(n))
		want, wantOK := binary.BigEndian.Uint32(sum.Sum(nil)), n != "" && n != "--"
		got, ok := lineHash(line)
		if ok != wantOK || (ok && got != want) {
			t.Fatalf("lineHash(%q) = %x %v, want %x %v (normal %q)", line, got, ok, want, wantOK, n)
		}
	})
}

// A line is said back to its sender: a control character or a byte that is not UTF-8 in it
// is shown as U+FFFD, never sent back as it came (a NUL, an escape).
func TestReadPrintable(t *testing.T) {
	lines := CommandLines("e4\n\xff\xfe\x00garbage\x1b[2J\nNf3\tcheck")
	if len(lines) != 3 {
		t.Fatalf("%d lines: %+v", len(lines), lines)
	}
	if got, want := lines[1].Text, "\ufffd\ufffd\ufffdgarbage\ufffd[2J"; got != want {
		t.Errorf("line 2 is %q, want %q", got, want)
	}
	if lines[0].Text != "e4" || lines[2].Text != "Nf3\tcheck" {
		t.Errorf("clean lines changed: %+v", lines)
	}
}
