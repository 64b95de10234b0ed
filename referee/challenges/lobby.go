package challenges

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/refereed/refereed/lang"
	"github.com/refereed/refereed/referee/clocks"
	"github.com/refereed/refereed/referee/command"
	"github.com/refereed/refereed/referee/outbox"
	"github.com/refereed/refereed/referee/play"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/templates"
	"github.com/refereed/refereed/variant"
)

// The lobby: the handlers of CHALLENGE, CHALLENGES, ACCEPT, DECLINE, NO CHALLENGES and ALLOW
// CHALLENGES at the bare address (rows of the referee's command table, package command), the
// invitation and what each side is told, and the expiry of challenges left unanswered.

// Lobby runs the challenges of one referee. What it needs of the referee are its fields: the
// referee makes one for each use (Referee.Lobby).
type Lobby struct {
	DB     *store.DB
	Out    *outbox.Writer
	Policy Policy // the organizer's word on challenges (the config's [challenges])
	// Language is the language of mail to an address that set none (the server's).
	Language lang.Tag
	// Rand draws the colours of a challenge that leaves them to lot (crypto/rand when nil).
	Rand io.Reader
	Log  *slog.Logger // nil: slog.Default()
	// CheckAddress says whether an address may play here, and writes it as stored.
	CheckAddress func(string) (string, error)
	// StartGame stores the game an accepted challenge ch makes between addrs (White, Black)
	// and queues its opening mails, which say whose challenge it was.
	StartGame func(tx *store.Tx, v *variant.Variant, addrs [2]string, opts variant.Options, ch *store.Challenge) (*store.Game, error)
}

func (l *Lobby) log() *slog.Logger {
	if l.Log != nil {
		return l.Log
	}
	return slog.Default()
}

// langOf is the language of address's mail.
func (l *Lobby) langOf(tx *store.Tx, address string) lang.Tag {
	return play.PrefsOf(tx, address).With(l.Language).Lang
}

// notice writes n, a mail that belongs to no game, in its reader's language.
func (l *Lobby) notice(tx *store.Tx, n outbox.Notice) error {
	if n.Lang == "" {
		n.Lang = l.langOf(tx, n.To)
	}
	return l.Out.Notice(tx, n)
}

// challengeArgs are the fields the challenge words read of c, for reader.
func (l *Lobby) args(tx *store.Tx, c *store.Challenge, reader string) templates.Args {
	terms := c.Terms
	if v, err := variant.Lookup(c.Variant); err == nil {
		terms = DescribeIn(l.langOf(tx, reader), v, c.Flags)
	}
	return templates.Args{"ID": c.ID, "From": c.From, "To": c.To, "Terms": terms, "Colour": c.Colour,
		"Mine": reader == c.From, "Expires": clocks.When(c.Expires), "By": c.By}
}

// Sayer says sentences in address's language.
func (l *Lobby) Sayer(tx *store.Tx, address string) func(kind string, args templates.Args) string {
	return play.SayerTo(tx, address, l.Language)
}

// Challenge is CHALLENGE address|ANY game [options], or CHALLENGE CANCEL number.
func (l *Lobby) Challenge(c *command.Call) (command.Result, error) {
	say := l.Sayer(c.Tx, c.By)
	if l.Policy.Off {
		return command.Result{}, Refuse("off", nil)
	}
	if len(c.Args) == 0 {
		return command.Result{}, Refuse("form", nil)
	}
	if strings.EqualFold(c.Args[0], "CANCEL") {
		return l.cancel(c)
	}
	tx, from := c.Tx, c.By
	if !l.May(tx, from) {
		return command.Result{}, Refuse("off", nil)
	}
	to := ""
	if !strings.EqualFold(c.Args[0], "ANY") {
		addr, err := l.CheckAddress(c.Args[0])
		if err != nil {
			return command.Result{}, Refuse("bad-address", templates.Args{"Why": playerWords(err)})
		}
		if local, _, _ := strings.Cut(addr, "@"); strings.Contains(local, "+") {
			// A +tag reaches the same mailbox under another name: it would slip past his NO
			// CHALLENGES, his declines and the bounds on what he is sent.
			return command.Result{}, Refuse("plus", templates.Args{"To": addr, "Plain": Canon(addr)})
		}
		to = addr
	}
	terms, err := ParseTerms(c.Args[1:], l.Policy)
	if err != nil {
		return command.Result{}, err
	}
	maxOpen, daily, maxInvitations, aMonth := l.Policy.Limits()
	me := Canon(from) // the challenger under any +tag
	mine, err := tx.ChallengesOf(from)
	if err != nil {
		return command.Result{}, err
	}
	made := 0
	for _, o := range mine {
		if o.From != from {
			continue
		}
		made++
		if to != "" && o.To == to {
			return command.Result{}, Refuse("already", templates.Args{"ID": o.ID, "To": to})
		}
		if to == "" && o.To == "" && o.Variant == terms.Variant.Key && o.Colour == terms.Colour && maps.Equal(o.Flags, terms.Flags) {
			return command.Result{}, Refuse("already-open", templates.Args{"ID": o.ID})
		}
	}
	if made >= maxOpen {
		return command.Result{}, Refuse("too-many-open", templates.Args{"N": made})
	}
	if to != "" {
		if to == me {
			return command.Result{}, Refuse("self", nil)
		}
		rec, err := tx.PlayerRecord(to)
		if err != nil {
			return command.Result{}, err
		}
		if rec.NoChallenges {
			return command.Result{}, Refuse("opted-out", templates.Args{"To": to})
		}
		if slices.Contains(rec.Declined, me) {
			return command.Result{}, Refuse("declined-before", templates.Args{"To": to})
		}
		theirs, err := tx.ChallengesOf(to)
		if err != nil {
			return command.Result{}, err
		}
		waiting := 0
		for _, o := range theirs {
			if o.To == to {
				waiting++
			}
		}
		if waiting >= maxInvitations {
			return command.Result{}, Refuse("invitee-full", templates.Args{"To": to})
		}
	}
	// Counted only once nothing else refuses it: a refused challenge uses up nobody's bounds.
	if ok, err := tx.Allow("challenges/"+me, daily, 24*time.Hour); err != nil || !ok {
		if err == nil {
			err = Refuse("too-many-today", templates.Args{"N": daily})
		}
		return command.Result{}, err
	}
	if to != "" {
		// Per challenger and invited address: one player cannot use up what others may send.
		if ok, err := tx.Allow("invited/"+to+"/"+me, aMonth, 30*24*time.Hour); err != nil || !ok {
			if err == nil {
				err = Refuse("invitee-month", templates.Args{"To": to, "N": aMonth})
			}
			return command.Result{}, err
		}
	}
	ch := &store.Challenge{From: from, To: to, Variant: terms.Variant.Key, Colour: terms.Colour, Flags: terms.Flags,
		Terms: Describe(terms.Variant, terms.Flags), Expires: tx.Now.Add(l.Policy.ExpireAfter())}
	if to != "" {
		if ch.Token, err = l.Out.NewToken(); err != nil {
			return command.Result{}, err
		}
	}
	if err := tx.CreateChallenge(ch); err != nil {
		return command.Result{}, err
	}
	l.log().Info("challenge made", "challenge", ch.ID, "from", from, "to", to, "variant", ch.Variant)
	if to != "" {
		if err := tx.PutTokenRef(ch.Token, store.GameRef{Challenge: ch.ID}); err != nil {
			return command.Result{}, err
		}
		if err := l.invite(tx, ch, terms.Variant); err != nil {
			return command.Result{}, err
		}
	}
	return command.Result{Paras: []string{say("challenge/made", l.args(tx, ch, from))},
		Subject: say("subject/challenge-made", templates.Args{"ID": ch.ID, "To": to})}, nil
}

// Canon is an address without the +tag of its local part: the mailbox it reaches.
func Canon(address string) string {
	a := strings.ToLower(address)
	local, domain, ok := strings.Cut(a, "@")
	if base, _, tagged := strings.Cut(local, "+"); ok && tagged && base != "" {
		return base + "@" + domain
	}
	return a
}

// May reports whether address may make or take a challenge under the policy.
func (l *Lobby) May(tx *store.Tx, address string) bool {
	if l.Policy.Off {
		return false
	}
	games, err := tx.GamesOf(address)
	return l.Policy.Admits(address, err == nil && len(games) > 0)
}

// playerWords is an address's error as a player reads it: what the operator is told to do
// instead is not his to do.
func playerWords(err error) string {
	s, _, _ := strings.Cut(err.Error(), " (or run with real mail servers)")
	s, _, _ = strings.Cut(s, ": give one of those")
	return s
}

// invite mails the invited player of ch his invitation, with the address of his answer.
func (l *Lobby) invite(tx *store.Tx, ch *store.Challenge, v *variant.Variant) error {
	say := l.Sayer(tx, ch.To)
	args := l.args(tx, ch, ch.To)
	return l.notice(tx, outbox.Notice{
		To:      ch.To,
		Subject: say("subject/challenge", templates.Args{"From": ch.From, "Variant": v.Name, "ID": ch.ID}),
		Paras: []string{say("challenge/invitation", args), say("challenge/invitation-answer", args),
			say("challenge/invitation-stop", args)},
		Footer:    say("footer-no-game", nil),
		ReplyTo:   l.InvitationAddress(ch),
		MessageID: l.invitationMessageID(ch),
	})
}

// InvitationAddress is the address of an invited player's answer: referee+c12-<token>@host.
func (l *Lobby) InvitationAddress(ch *store.Challenge) string {
	local, domain, _ := strings.Cut(l.Out.Address, "@")
	return fmt.Sprintf("%s+c%d-%s@%s", local, ch.ID, ch.Token, domain)
}

// invitationMessageID is the invitation's Message-ID: what is said of the challenge to the
// invited player threads under it. It carries the challenge's thread id, never its token.
func (l *Lobby) invitationMessageID(ch *store.Challenge) string {
	_, domain, _ := strings.Cut(l.Out.Address, "@")
	return fmt.Sprintf("refereed.c%d.%s@%s", ch.ID, outbox.ThreadID(ch.Token), domain)
}

// open is challenge id, open; a refusal names it otherwise.
// by is who asks: a challenge he made or was invited to, closed, is said to be closed and
// how; any other that is not open, or not his to see, is said not to be open (a number
// tells nobody else's challenges).
func open(tx *store.Tx, id uint64, by string) (*store.Challenge, error) {
	ch, err := tx.Challenge(id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return nil, Refuse("no-such", templates.Args{"ID": id})
	case err != nil:
		return nil, err
	case !ch.Open() && (ch.From == by || ch.To == by):
		return nil, Refuse("closed", templates.Args{"ID": id, "State": ch.State, "Game": ch.Game, "Mine": ch.From == by})
	case !ch.Open() || (ch.To != "" && ch.To != by && ch.From != by):
		return nil, Refuse("no-such", templates.Args{"ID": id})
	}
	return ch, nil
}

// Number reads "12" or "#12".
func Number(s string) (uint64, error) {
	id, err := strconv.ParseUint(strings.TrimPrefix(s, "#"), 10, 64)
	if err != nil || id == 0 {
		return 0, Refuse("number", templates.Args{"Text": command.Clip(s)})
	}
	return id, nil
}

// cancelChallenge is CHALLENGE CANCEL number: the challenger withdraws it; an invited player
// is told.
func (l *Lobby) cancel(c *command.Call) (command.Result, error) {
	say := l.Sayer(c.Tx, c.By)
	if len(c.Args) != 2 {
		return command.Result{}, Refuse("form", nil)
	}
	id, err := Number(c.Args[1])
	if err != nil {
		return command.Result{}, err
	}
	ch, err := open(c.Tx, id, c.By)
	if err != nil {
		return command.Result{}, err
	}
	if ch.From != c.By {
		return command.Result{}, Refuse("not-yours", templates.Args{"ID": id})
	}
	if err := l.close(c.Tx, ch, store.ChallengeCancelled, ""); err != nil {
		return command.Result{}, err
	}
	if ch.To != "" {
		if err := l.tellInvited(c.Tx, ch, "subject/challenge-withdrawn", l.Sayer(c.Tx, ch.To)("challenge/withdrawn", l.args(c.Tx, ch, ch.To))); err != nil {
			return command.Result{}, err
		}
	}
	return command.Result{Paras: []string{say("challenge/cancelled", l.args(c.Tx, ch, c.By))},
		Subject: say("subject/challenge-withdrawn", templates.Args{"ID": id})}, nil
}

// close closes ch as state. The invited player's token stays: an answer after the
// close is told that there is no open challenge of that number.
func (l *Lobby) close(tx *store.Tx, ch *store.Challenge, state, by string) error {
	ch.State, ch.Closed, ch.By = state, tx.Now, by
	return tx.PutChallenge(ch)
}

// tellInvited mails the invited player of ch text, in the thread of his invitation.
func (l *Lobby) tellInvited(tx *store.Tx, ch *store.Challenge, subject, text string) error {
	say := l.Sayer(tx, ch.To)
	mid, err := l.Out.NewToken()
	if err != nil {
		return err
	}
	_, domain, _ := strings.Cut(l.Out.Address, "@")
	return l.notice(tx, outbox.Notice{
		To: ch.To, Subject: say(subject, templates.Args{"ID": ch.ID}), Paras: []string{text},
		Footer: say("footer-no-game", nil), MessageID: fmt.Sprintf("refereed.notice.%s@%s", mid, domain),
		Root: l.invitationMessageID(ch),
	})
}

// tellChallenger mails ch's challenger text.
func (l *Lobby) tellChallenger(tx *store.Tx, ch *store.Challenge, subject, text string) error {
	say := l.Sayer(tx, ch.From)
	return l.notice(tx, outbox.Notice{To: ch.From, Subject: say(subject, templates.Args{"ID": ch.ID}), Paras: []string{text}, Footer: say("footer-no-game", nil)})
}

// List is CHALLENGES: the open challenges to anyone, and the sender's own and
// those to him.
func (l *Lobby) List(c *command.Call) (command.Result, error) {
	say := l.Sayer(c.Tx, c.By)
	open, n, err := c.Tx.OpenChallenges(0, MaxListed)
	if err != nil {
		return command.Result{}, err
	}
	var paras []string
	list := func(head string, cs []store.Challenge, more int) {
		rows := []string{say(head, nil)}
		for i := range cs {
			rows = append(rows, say("challenge/row", l.args(c.Tx, &cs[i], c.By)))
		}
		if more > 0 {
			rows = append(rows, say("challenge/and-more", templates.Args{"N": more}))
		}
		paras = append(paras, strings.Join(rows, "\n"))
	}
	if n == 0 {
		paras = append(paras, say("challenge/list-none", nil))
	} else {
		list("challenge/list-open", open, n-len(open))
	}
	own, err := c.Tx.ChallengesOf(c.By)
	if err != nil {
		return command.Result{}, err
	}
	var mine, invited []store.Challenge
	for _, ch := range own {
		if ch.From == c.By {
			mine = append(mine, ch)
		} else {
			invited = append(invited, ch)
		}
	}
	if len(mine) > 0 {
		list("challenge/list-mine", mine, 0)
	}
	if len(invited) > 0 {
		list("challenge/list-invited", invited, 0)
	}
	return command.Result{Paras: paras, Subject: say("subject/challenges", nil)}, nil
}
