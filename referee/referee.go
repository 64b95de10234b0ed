// Package referee is the service between "an email arrived" and "these emails must go out".
// Handle takes one inbound message and, in one store transaction, parses it, finds the game
// and the player, checks that the sender is that player, submits each command line to the
// game, appends the accepted commands to the game's log, renders every notice into mail for
// the player(s) who may read it, queues the mail, and marks the message processed. Either all
// of that commits or none of it does.
//
// Trust (design.md): a command counts only with a valid reply token (in the recipient address,
// or in the Message-ID of the referee mail it answers) and a From address registered for that
// player. A refused sender gets a generic answer at the registered address, never at the
// sender's, and nothing about the game. Machine mail (auto-replies, bounces, lists) and the
// referee's own mail are never answered.
//
// Errors: a rejection is the player's (it says which line, why, what was kept, and quotes
// the rest back); anything else is an operator's error, wrapped with context, and rolls the
// whole message back so that it can be tried again.
package referee

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/mail"
	"regexp"
	"strconv"
	"strings"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/parser"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/templates"
	"github.com/refereed/refereed/variant"
)

// Referee handles inbound mail and creates games.
type Referee struct {
	DB      *store.DB
	Address string // the referee's mailbox, e.g. "referee@localhost"
	Name    string // display name in From; "refereed" when empty
	// Rand is the source of reply tokens and Message-ID suffixes (crypto/rand when nil).
	Rand io.Reader
	// Fault, when set, is called at each step of Handle; an error from it aborts the
	// message as an internal error would. Tests inject faults through it.
	Fault func(step string) error
	Log   *slog.Logger
	// MaxAttempts is how often a message that meets internal errors is tried before the
	// sender is told "internal error; your mail was kept" (3 when 0).
	MaxAttempts int
}

func (r *Referee) logger() *slog.Logger {
	if r.Log == nil {
		return slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return r.Log
}

func (r *Referee) fault(step string) error {
	if r.Fault == nil {
		return nil
	}
	if err := r.Fault(step); err != nil {
		return fmt.Errorf("referee: %s: %w", step, err)
	}
	return nil
}

func (r *Referee) local() (local, domain string) {
	local, domain, _ = strings.Cut(r.Address, "@")
	return local, domain
}

// replyAddress is the address a player's replies go to: referee+g42-w-7hk2q@host.
func (r *Referee) replyAddress(game uint64, side chess.Color, token string) string {
	local, domain := r.local()
	return fmt.Sprintf("%s+g%d-%s-%s@%s", local, game, sideLetter(side), token, domain)
}

// bounceAddress is the envelope sender of mail to a player, so that a bounce names him.
func (r *Referee) bounceAddress(game uint64, side chess.Color, token string) string {
	local, domain := r.local()
	return fmt.Sprintf("%s+bounce-g%d-%s-%s@%s", local, game, sideLetter(side), token, domain)
}

func sideLetter(c chess.Color) string {
	if c == chess.White {
		return "w"
	}
	return "b"
}

var (
	tokenAddr = regexp.MustCompile(`^[^+@]+\+(bounce-)?g(\d+)-([wb])-([a-z2-7]{8,32})@`)
	tokenMID  = regexp.MustCompile(`^refereed\.g(\d+)\.([wb])\.([a-z2-7]{8,32})\.`)
)

// tokenOf finds a reply token in the recipient addresses, else in the referenced
// Message-IDs. bounce reports that it came from a bounce address.
func (r *Referee) tokenOf(m *parser.Message) (token string, bounce bool) {
	_, domain := r.local()
	for _, a := range m.To {
		if sub := tokenAddr.FindStringSubmatch(a); sub != nil && strings.HasSuffix(a, "@"+domain) {
			return sub[4], sub[1] != ""
		}
	}
	for _, ids := range [][]string{m.InReplyTo, m.References} {
		for i := len(ids) - 1; i >= 0; i-- {
			if sub := tokenMID.FindStringSubmatch(ids[i]); sub != nil {
				return sub[3], false
			}
		}
	}
	return "", false
}

// newToken is 10 random characters of base32 (a-z, 2-7): 50 bits.
func (r *Referee) newToken() (string, error) {
	src := r.Rand
	if src == nil {
		src = rand.Reader
	}
	const alphabet = "abcdefghijklmnopqrstuvwxyz234567"
	b := make([]byte, 10)
	if _, err := io.ReadFull(src, b); err != nil {
		return "", fmt.Errorf("referee: token: %w", err)
	}
	for i := range b {
		b[i] = alphabet[b[i]&31]
	}
	return string(b), nil
}

// NewGame creates a game between two addresses and queues the opening mails. It returns the
// game's ID. Errors say what was wrong with the request.
func (r *Referee) NewGame(variantKey, white, black string, opts variant.Options) (uint64, error) {
	v, err := variant.Lookup(variantKey)
	if err != nil {
		return 0, err
	}
	var addrs [2]string
	for i, a := range []string{white, black} {
		p, err := mail.ParseAddress(a)
		if err != nil {
			return 0, fmt.Errorf("%s address %q is not an email address", chess.Color(i), a)
		}
		addrs[i] = strings.ToLower(p.Address)
	}
	if addrs[0] == addrs[1] {
		return 0, fmt.Errorf("White and Black have the same address %s: a player cannot referee himself", addrs[0])
	}
	local, domain := r.local()
	for _, a := range addrs {
		l, d, _ := strings.Cut(a, "@")
		if base, _, _ := strings.Cut(l, "+"); strings.EqualFold(base, local) && strings.EqualFold(d, domain) {
			return 0, fmt.Errorf("%s is the referee's own address", a)
		}
	}
	game, err := v.New(opts)
	if err != nil {
		return 0, fmt.Errorf("cannot start %s: %w", v.Name, err)
	}
	var id uint64
	err = r.DB.Update(func(tx *store.Tx) error {
		sg := &store.Game{Variant: v.Key, FEN: opts.FEN, Flags: opts.Flags}
		for i := range sg.Players {
			tok, err := r.newToken()
			if err != nil {
				return err
			}
			sg.Players[i] = store.Player{Address: addrs[i], Token: tok}
		}
		if err := tx.CreateGame(sg); err != nil {
			return err
		}
		id = sg.ID
		for _, side := range []chess.Color{chess.White, chess.Black} {
			other := sg.Players[side.Other()].Address
			paras := []string{fmt.Sprintf("A game of %s begins: you play %s against %s. I am the referee: reply to this mail with your commands, one per line. HELP lists them.", v.Name, side, other)}
			waiting := false
			for _, s := range game.ToAct() {
				if s == side {
					paras = append(paras, "It is your move.")
					waiting = true
				}
			}
			if !waiting {
				paras = append(paras, fmt.Sprintf("%s moves first; I will write when it is your turn.", side.Other()))
			}
			what := "a new game; you play " + side.String()
			if err := r.enqueue(tx, sg, v, side, what, paras, game.View(variant.ViewerOf(side)).Diagram(), nil, "", nil, "opening"); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return id, nil
}

// enqueue renders one mail to a player of g and puts it in the outbox.
func (r *Referee) enqueue(tx *store.Tx, g *store.Game, v *variant.Variant, side chess.Color, what string, paras []string, diagram string, quoted []string, inReplyTo string, refs []string, kind string) error {
	// The Message-ID numbers the player's mails in this game: unique, stable across retries,
	// and it depends on nothing but what this player was sent (noninterference).
	g.Players[side].Mails++
	if err := tx.PutGame(g); err != nil {
		return err
	}
	p := g.Players[side]
	_, domain := r.local()
	mid := fmt.Sprintf("refereed.g%d.%s.%s.%d@%s", g.ID, sideLetter(side), p.Token, p.Mails, domain)
	auto := "auto-generated"
	if inReplyTo != "" {
		auto = "auto-replied"
	}
	refs = append(append([]string(nil), refs...), inReplyTo)
	if inReplyTo == "" {
		refs = nil
	}
	name := r.Name
	if name == "" {
		name = "refereed"
	}
	raw, err := templates.Render(templates.Mail{
		From:          fmt.Sprintf("%s <%s>", name, r.Address),
		ReplyTo:       r.replyAddress(g.ID, side, p.Token),
		To:            p.Address,
		Subject:       templates.Subject(g.ID, v.Name, what),
		MessageID:     mid,
		InReplyTo:     inReplyTo,
		References:    refs,
		Date:          tx.Now,
		AutoSubmitted: auto,
		Paragraphs:    paras,
		Diagram:       diagram,
		Quoted:        quoted,
		Footer:        fmt.Sprintf("Game #%d, %s. You play %s against %s. Reply to this mail to send commands, one per line; HELP lists them.", g.ID, v.Name, side, g.Players[side.Other()].Address),
	})
	if err != nil {
		return fmt.Errorf("referee: render mail for game %d: %w", g.ID, err)
	}
	_, err = tx.Enqueue(store.OutMail{MessageID: mid, From: r.bounceAddress(g.ID, side, p.Token), To: []string{p.Address},
		Raw: raw, Game: g.ID, Side: int(side), Kind: kind})
	return err
}

// enqueuePlain sends a mail that belongs to no game view (refused senders).
func (r *Referee) enqueuePlain(tx *store.Tx, to, subject string, paras []string) error {
	suffix, err := r.newToken()
	if err != nil {
		return err
	}
	_, domain := r.local()
	mid := fmt.Sprintf("refereed.notice.%s@%s", suffix, domain)
	name := r.Name
	if name == "" {
		name = "refereed"
	}
	raw, err := templates.Render(templates.Mail{
		From: fmt.Sprintf("%s <%s>", name, r.Address), To: to, Subject: templates.Subject(0, "", subject),
		MessageID: mid, Date: tx.Now, AutoSubmitted: "auto-generated", Paragraphs: paras,
		Footer: "This is the refereed play-by-email referee.",
	})
	if err != nil {
		return fmt.Errorf("referee: render notice: %w", err)
	}
	local, _ := r.local()
	_, err = tx.Enqueue(store.OutMail{MessageID: mid, From: local + "+bounce-notice@" + domain, To: []string{to}, Raw: raw, Kind: "notice"})
	return err
}

// ErrNoGame is returned by Load for an unknown game.
var ErrNoGame = errors.New("no such game")

// Load replays game id from its log.
func Load(tx *store.Tx, id uint64) (*store.Game, *variant.Variant, variant.Game, error) {
	sg, err := tx.Game(id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, nil, fmt.Errorf("game %d: %w", id, ErrNoGame)
	}
	if err != nil {
		return nil, nil, nil, err
	}
	v, err := variant.Lookup(sg.Variant)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("referee: game %d: %w", id, err)
	}
	events, err := tx.Events(id)
	if err != nil {
		return nil, nil, nil, err
	}
	log := make([]variant.Command, len(events))
	for i, e := range events {
		log[i] = variant.Command{By: chess.Color(e.Side), Text: e.Text}
	}
	g, fail, err := variant.Replay(v, variant.Options{FEN: sg.FEN, Flags: sg.Flags}, log)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("referee: game %d: start: %w", id, err)
	}
	if fail != nil {
		return nil, nil, nil, fmt.Errorf("referee: game %d: log does not replay: %w", id, fail)
	}
	return sg, v, g, nil
}

// ParseGameID reads "42" or "#42".
func ParseGameID(s string) (uint64, error) {
	id, err := strconv.ParseUint(strings.TrimPrefix(strings.TrimSpace(s), "#"), 10, 64)
	if err != nil || id == 0 {
		return 0, fmt.Errorf("%q is not a game number", s)
	}
	return id, nil
}

// RecordDeliveryFailure notes a mail to a player that the mail server refused for good (a
// 5xx or too many tries): the player's bounce count, shown by "refereed show".
func (r *Referee) RecordDeliveryFailure(m store.OutMail, reason error) error {
	if m.Game == 0 {
		return nil
	}
	return r.DB.Update(func(tx *store.Tx) error {
		sg, err := tx.Game(m.Game)
		if err != nil {
			return err
		}
		p := &sg.Players[m.Side]
		p.Bounces++
		p.LastBounce = fmt.Sprintf("%s: %v", tx.Now.UTC().Format("2006-01-02 15:04"), reason)
		return tx.PutGame(sg)
	})
}
