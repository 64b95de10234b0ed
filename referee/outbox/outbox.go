// Package outbox writes the referee's mail: a letter to one player of a game (its subject,
// paragraphs, diagram and the quoted unread rest of his mail, threaded under his first mail of
// the game, with the game's clock and footer), and notices that belong to no one game. It
// numbers Message-IDs, builds the reply and bounce addresses (a player's token travels in the
// reply address only), cuts every mail to MaxReplyText, and puts it in the store's outbox in
// the caller's transaction. It decides nothing: what to say, and to whom, is the referee's.
package outbox

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/binary"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/lang"
	"github.com/refereed/refereed/parser"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/templates"
)

// Writer writes the mail of one referee.
type Writer struct {
	Address string // the referee's mailbox, e.g. "referee@localhost"
	Name    string // display name in From; "refereed" when empty
	// Rand is the source of reply tokens and Message-ID suffixes (crypto/rand when nil).
	Rand io.Reader
	// Clock, when set, is the clock paragraph of a mail of game g in language t ("" when it
	// has none).
	Clock func(tx *store.Tx, g *store.Game, t lang.Tag) (string, error)
}

func (w *Writer) clock(tx *store.Tx, g *store.Game, t lang.Tag) (string, error) {
	if w.Clock == nil {
		return "", nil
	}
	return w.Clock(tx, g, t)
}

func (w *Writer) local() (local, domain string) {
	local, domain, _ = strings.Cut(w.Address, "@")
	return local, domain
}

// say is one of the referee's own sentences (templates/words), in language t.
func say(t lang.Tag, kind string, args templates.Args) string {
	return templates.SayIn(t, "", kind, args)
}

// ReplyAddress is the address a player's replies go to: referee+g42-w-7hk2q@host.
func (w *Writer) ReplyAddress(game uint64, side chess.Color, token string) string {
	local, domain := w.local()
	return fmt.Sprintf("%s+g%d-%s-%s@%s", local, game, SideLetter(side), token, domain)
}

// PlayerAddress is the reply address of a player of game g, for the organizer (it holds the
// player's token: it is his to use, nobody else's).
func (w *Writer) PlayerAddress(g *store.Game, side chess.Color) string {
	return w.ReplyAddress(g.ID, side, g.Players[side].Token)
}

// BounceAddress is the envelope sender of mail to a player, so that a bounce names him. It
// carries the player's thread id, not his token: the token travels in the reply address only.
func (w *Writer) BounceAddress(game uint64, side chess.Color, token string) string {
	local, domain := w.local()
	return fmt.Sprintf("%s+bounce-g%d-%s-%s@%s", local, game, SideLetter(side), ThreadID(token), domain)
}

// ThreadID is the opaque id that stands for a player in the referee's Message-IDs and bounce
// address: derived from his token (so it depends on nothing he does not know) and useless
// without it. Mail clients copy thread headers and envelope senders around; a token there
// would be a password in the open.
func ThreadID(token string) string {
	mac := hmac.New(sha256.New, []byte(token))
	mac.Write([]byte("refereed thread id"))
	return strings.ToLower(base32.StdEncoding.EncodeToString(mac.Sum(nil)))[:10]
}

// SideLetter is how addresses and Message-IDs write a side: "w" or "b".
func SideLetter(c chess.Color) string {
	if c == chess.White {
		return "w"
	}
	return "b"
}

// NewToken is 10 random characters of base32 (a-z, 2-7): 50 bits.
func (w *Writer) NewToken() (string, error) {
	src := w.Rand
	if src == nil {
		src = rand.Reader
	}
	const alphabet = "abcdefghijklmnopqrstuvwxyz234567"
	b := make([]byte, 10)
	if _, err := io.ReadFull(src, b); err != nil {
		return "", fmt.Errorf("outbox: token: %w", err)
	}
	for i := range b {
		b[i] = alphabet[b[i]&31]
	}
	return string(b), nil
}

// Letter is one mail to one player of a game.
type Letter struct {
	Side    chess.Color
	What    string // the subject after the game's name: "your move (T5)"
	Paras   []string
	Diagram string
	Quoted  []string        // the unprocessed rest of the player's mail
	Answers *parser.Message // the player's mail this answers; nil for news and the referee's own
	Kind    string          // the outbox kind: opening, reply, update, reminder, deadline, refusal
	// Attachments are files the mail carries (the game in PGN, asked for with PGN).
	Attachments []templates.Attachment
	// Lang is the language of the mail's own words (footer, clock); its paragraphs come in it.
	Lang lang.Tag
}

// MessageID is the Message-ID of the n-th mail to side in game g: unique, stable across
// retries, and dependent on nothing but what this player was sent (noninterference).
// After a restore from a backup the mail numbers go on from the backup's, so the Message-ID
// carries the game's restore count too: no ID comes back for another mail.
func (w *Writer) MessageID(g *store.Game, side chess.Color, n int) string {
	_, domain := w.local()
	restored := ""
	if g.Restores > 0 && n > 1 {
		restored = fmt.Sprintf(".r%d", g.Restores)
	}
	return fmt.Sprintf("refereed.g%d.%s.%s.%d%s@%s", g.ID, SideLetter(side), ThreadID(g.Players[side].Token), n, restored, domain)
}

// MaxReferences is how many of a player's References an answer carries on (after the game's
// own thread root): enough for any mail client to thread, and a bound on what a hostile
// mail can make the referee write.
const MaxReferences = 8

// threading is the In-Reply-To and References of the n-th mail to side: every mail threads
// under the player's opening mail of the game, and an answer also under the mail it answers.
func (w *Writer) threading(g *store.Game, side chess.Color, n int, answers *parser.Message) (inReplyTo string, refs []string) {
	if n > 1 {
		root := w.MessageID(g, side, 1)
		inReplyTo, refs = root, []string{root}
	}
	if answers == nil || answers.MessageID == "" {
		return inReplyTo, refs
	}
	theirs := answers.References
	if len(theirs) > MaxReferences {
		theirs = theirs[len(theirs)-MaxReferences:]
	}
	for _, id := range append(slices.Clone(theirs), answers.MessageID) {
		if id != "" && !slices.Contains(refs, id) {
			refs = append(refs, id)
		}
	}
	return answers.MessageID, refs
}

// maxQuoted is the most lines of a player's unread rest quoted back.
const maxQuoted = 50

// MaxReplyText bounds the text of one mail (its paragraphs and the quoted rest of the
// player's mail): far above a whole game's record, far below what a hostile mail could ask
// for (HISTORY a hundred times).
const MaxReplyText = 256 << 10

// CapText cuts paragraphs and quoted lines to MaxReplyText, saying so.
func CapText(paras, quoted []string, t lang.Tag) ([]string, []string) {
	budget := MaxReplyText
	cut := false
	var p2, q2 []string
	for _, p := range paras {
		if len(p)+2 > budget {
			cut = true
			break
		}
		budget -= len(p) + 2
		p2 = append(p2, p)
	}
	for _, q := range quoted {
		if cut || len(q)+4 > budget { // "> " and the line's end
			cut = true
			break
		}
		budget -= len(q) + 4
		q2 = append(q2, q)
	}
	if cut {
		p2 = append(p2, say(t, "answer-cut", templates.Args{"KB": MaxReplyText >> 10}))
	}
	if len(q2) > maxQuoted {
		q2 = append(q2[:maxQuoted], say(t, "more-lines", templates.Args{"N": len(q2) - maxQuoted}))
	}
	return p2, q2
}

// renderCapped renders m within MaxReplyText bytes, the whole mail: its HTML alternative
// and the quoted unread lines included (issue 20: a mail of a few long lines, quoted back,
// made a 435 KB answer). What goes first is the quoted rest, from its end, then the last
// paragraphs, then the end of a last long one; the answer says it was cut.
func renderCapped(m templates.Mail, t lang.Tag) (raw []byte, text string, err error) {
	note := say(t, "answer-cut", templates.Args{"KB": MaxReplyText >> 10})
	for {
		raw, text, err := templates.RenderText(m)
		if err != nil || len(raw) <= MaxReplyText {
			return raw, text, err
		}
		paras := slices.DeleteFunc(slices.Clone(m.Paragraphs), func(p string) bool { return p == note })
		switch {
		case len(m.Quoted) > 0:
			m.Quoted = m.Quoted[:len(m.Quoted)/2]
		case len(paras) > 1:
			paras = paras[:len(paras)/2]
		case len(paras) == 1 && len(paras[0]) > 1:
			paras[0] = strings.ToValidUTF8(paras[0][:len(paras[0])/2], "")
		default:
			return raw, text, nil // nothing left to cut: the frame alone
		}
		m.Paragraphs = append(paras, note)
	}
}

// Game renders one mail to a player of game g (of the game named variant), for the outbox:
// numbered (the player's mails in g count it already: play.Mail counts, stores and queues
// it), threaded under the player's first mail of the game, with the game's clock paragraph
// (Clock) and footer, cut to MaxReplyText. text is the mail's plain text, for RememberSent.
func (w *Writer) Game(tx *store.Tx, g *store.Game, variant string, l Letter) (m store.OutMail, text string, err error) {
	side := l.Side
	if cp, err := w.clock(tx, g, l.Lang); err != nil {
		return store.OutMail{}, "", err
	} else if cp != "" {
		// Last, but before the words that lead into the final position.
		at := len(l.Paras)
		if at > 0 && l.Paras[at-1] == say(l.Lang, "final-position", nil) {
			at--
		}
		l.Paras = slices.Insert(slices.Clone(l.Paras), at, cp)
	}
	l.Paras, l.Quoted = CapText(l.Paras, l.Quoted, l.Lang)
	p := g.Players[side]
	mid := w.MessageID(g, side, p.Mails)
	inReplyTo, refs := w.threading(g, side, p.Mails, l.Answers)
	auto := "auto-generated"
	if l.Answers != nil {
		auto = "auto-replied"
	}
	args := templates.Args{"Game": g.ID, "Variant": variant, "Side": side, "Opponent": g.Players[side.Other()].Address, "Result": g.Result}
	footer := say(l.Lang, "footer", args)
	if g.Over() {
		footer = say(l.Lang, "footer-over", args)
	}
	raw, text, err := renderCapped(templates.Mail{
		From:          w.from(),
		ReplyTo:       w.ReplyAddress(g.ID, side, p.Token),
		To:            p.Address,
		Subject:       templates.Subject(g.ID, variant, l.What),
		MessageID:     mid,
		InReplyTo:     inReplyTo,
		References:    refs,
		Date:          tx.Now,
		AutoSubmitted: auto,
		Paragraphs:    l.Paras,
		Diagram:       l.Diagram,
		Quoted:        l.Quoted,
		Footer:        footer,
		Attachments:   l.Attachments,
		Lang:          l.Lang,
	}, l.Lang)
	if err != nil {
		return store.OutMail{}, "", fmt.Errorf("outbox: render mail for game %d: %w", g.ID, err)
	}
	return store.OutMail{MessageID: mid, From: w.BounceAddress(g.ID, side, p.Token), To: []string{p.Address},
		Raw: raw, Game: g.ID, Side: int(side), Kind: l.Kind}, text, nil
}

// Bounds on the sent lines kept for each player of a game (store.Player.Sent): the lines
// of his last few mails, enough to know what a reply quotes, a few kilobytes at most.
const (
	MaxSentLines     = 512 // kept in all
	MaxSentLinesMail = 160 // taken from one mail
)

// RememberSent adds the lines of text, the plain text of a mail to a player (Game gives it),
// to kept (his store.Player.Sent) and drops the oldest beyond MaxSentLines.
func RememberSent(kept []byte, text string) []byte {
	out := slices.Clone(kept[:len(kept)/4*4])
	for _, h := range parser.SentLines(text, MaxSentLinesMail) {
		out = binary.BigEndian.AppendUint32(out, h)
	}
	if len(out) > 4*MaxSentLines {
		out = out[len(out)-4*MaxSentLines:]
	}
	return out
}

// SentSet is the set of a player's kept sent lines, for parser.Read.
func SentSet(kept []byte) *parser.Sent {
	hashes := make([]uint32, 0, len(kept)/4)
	for i := 0; i+4 <= len(kept); i += 4 {
		hashes = append(hashes, binary.BigEndian.Uint32(kept[i:]))
	}
	return parser.NewSent(hashes)
}

// from is the From header of every mail.
func (w *Writer) from() string {
	name := w.Name
	if name == "" {
		name = "refereed"
	}
	return fmt.Sprintf("%s <%s>", name, w.Address)
}

// Plain sends a mail that belongs to no game (the list of a player's games), as an
// answer to answers.
func (w *Writer) Plain(tx *store.Tx, to, subject string, paras []string, answers *parser.Message, t lang.Tag) error {
	return w.Notice(tx, Notice{To: to, Subject: subject, Paras: paras, Footer: say(t, "footer-no-game", nil), Answers: answers, Lang: t})
}

// Notice is a mail that belongs to no one game: a list of games, standings, a mail to
// an organizer (ReplyTo: his own reply address).
type Notice struct {
	To, Subject, Footer, ReplyTo string
	Paras, Quoted                []string
	Answers                      *parser.Message
	// MessageID and Root, when set, are the mail's Message-ID and the first mail of its
	// thread (an organizer's mails thread under his welcome).
	MessageID, Root string
	// Lang is the language of what the mail says itself (that it was cut).
	Lang lang.Tag
}

// Notice renders n and puts it in the outbox.
func (w *Writer) Notice(tx *store.Tx, n Notice) error {
	suffix, err := w.NewToken()
	if err != nil {
		return err
	}
	_, domain := w.local()
	mid := fmt.Sprintf("refereed.notice.%s@%s", suffix, domain)
	if n.MessageID != "" {
		mid = n.MessageID
	}
	m := templates.Mail{
		From: w.from(), To: n.To, ReplyTo: n.ReplyTo, Subject: templates.Subject(0, "", n.Subject),
		MessageID: mid, Date: tx.Now, AutoSubmitted: "auto-generated", Paragraphs: n.Paras,
		Quoted: n.Quoted, Footer: n.Footer, Lang: n.Lang,
	}
	if n.Root != "" && n.Root != mid {
		m.InReplyTo, m.References = n.Root, []string{n.Root}
	}
	if answers := n.Answers; answers != nil && answers.MessageID != "" {
		m.InReplyTo, m.AutoSubmitted = answers.MessageID, "auto-replied"
		refs := answers.References
		if len(refs) > MaxReferences {
			refs = refs[len(refs)-MaxReferences:]
		}
		for _, id := range append(slices.Clone(refs), answers.MessageID) {
			if !slices.Contains(m.References, id) {
				m.References = append(m.References, id)
			}
		}
	}
	m.Paragraphs, m.Quoted = CapText(m.Paragraphs, m.Quoted, n.Lang)
	raw, _, err := renderCapped(m, n.Lang)
	if err != nil {
		return fmt.Errorf("outbox: render notice: %w", err)
	}
	local, _ := w.local()
	_, err = tx.Enqueue(store.OutMail{MessageID: mid, From: local + "+bounce-notice@" + domain, To: []string{n.To}, Raw: raw, Kind: "notice"})
	return err
}
