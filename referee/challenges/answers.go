package challenges

import (
	"crypto/rand"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/refereed/refereed/referee/command"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/templates"
	"github.com/refereed/refereed/variant"
)

// The answers to a challenge: ACCEPT makes the game, DECLINE and NO CHALLENGES close it (and
// keep the challenger from inviting again), ALLOW CHALLENGES undoes both; and the expiry of
// the challenges nobody answered.

// answered is the challenge an ACCEPT or DECLINE answers: its number, else the invitation
// whose address the mail came to, else the one invitation waiting for the sender.
func (l *Lobby) answered(c *command.Call) (*store.Challenge, error) {
	switch {
	case len(c.Args) > 1:
		return nil, Refuse("number", templates.Args{"Text": command.Clip(strings.Join(c.Args, " "))})
	case len(c.Args) == 1:
		id, err := Number(c.Args[0])
		if err != nil {
			return nil, err
		}
		return open(c.Tx, id, c.By)
	case c.Invitation != 0:
		return open(c.Tx, c.Invitation, c.By)
	}
	own, err := c.Tx.ChallengesOf(c.By)
	if err != nil {
		return nil, err
	}
	var invited []store.Challenge
	for _, ch := range own {
		if ch.To == c.By {
			invited = append(invited, ch)
		}
	}
	switch len(invited) {
	case 0:
		return nil, Refuse("none-to-answer", nil)
	case 1:
		return &invited[0], nil
	}
	return nil, Refuse("which", templates.Args{"N": len(invited), "ID": invited[len(invited)-1].ID})
}

// Accept is ACCEPT [number]: the game is made, and its first mails say who challenged
// and who accepted.
func (l *Lobby) Accept(c *command.Call) (command.Result, error) {
	ch, err := l.answered(c)
	if err != nil {
		return command.Result{}, err
	}
	switch {
	case Canon(ch.From) == Canon(c.By): // under a +tag too: nobody plays himself
		return command.Result{}, Refuse("own", templates.Args{"ID": ch.ID})
	case ch.To != "" && ch.To != c.By:
		return command.Result{}, Refuse("not-for-you", templates.Args{"ID": ch.ID})
	case ch.To == "" && !l.May(c.Tx, c.By):
		return command.Result{}, Refuse("off", nil)
	}
	v, err := variant.Lookup(ch.Variant)
	if err != nil {
		return command.Result{}, err
	}
	addrs := [2]string{ch.From, c.By}
	swap := ch.Colour == "black"
	if ch.Colour == "" {
		var b [1]byte
		src := l.Rand
		if src == nil {
			src = rand.Reader
		}
		if _, err := io.ReadFull(src, b[:]); err != nil {
			return command.Result{}, err
		}
		swap = b[0]&1 == 1
	}
	if swap {
		addrs[0], addrs[1] = addrs[1], addrs[0]
	}
	if err := l.close(c.Tx, ch, store.ChallengeAccepted, c.By); err != nil {
		return command.Result{}, err
	}
	sg, err := l.StartGame(c.Tx, v, addrs, variant.Options{FEN: ch.FEN, Flags: maps.Clone(ch.Flags)}, ch)
	if err != nil {
		return command.Result{}, err
	}
	ch.Game = sg.ID
	if err := c.Tx.PutChallenge(ch); err != nil {
		return command.Result{}, err
	}
	l.log().Info("challenge accepted", "challenge", ch.ID, "by", c.By, "game", sg.ID)
	return command.Result{}, nil // the game's first mails say it
}

// Decline is DECLINE [number]: the challenger is told, and may not invite the sender
// again.
func (l *Lobby) Decline(c *command.Call) (command.Result, error) {
	say := l.Sayer(c.Tx, c.By)
	ch, err := l.answered(c)
	if err != nil {
		return command.Result{}, err
	}
	switch {
	case ch.From == c.By:
		return command.Result{}, Refuse("own", templates.Args{"ID": ch.ID})
	case ch.To == "":
		return command.Result{}, Refuse("open-no-decline", templates.Args{"ID": ch.ID})
	case ch.To != c.By:
		return command.Result{}, Refuse("not-for-you", templates.Args{"ID": ch.ID})
	}
	rec, err := c.Tx.PlayerRecord(c.By)
	if err != nil {
		return command.Result{}, err
	}
	if err := l.decline(c.Tx, rec, ch); err != nil {
		return command.Result{}, err
	}
	if err := c.Tx.PutPlayerRecord(rec); err != nil {
		return command.Result{}, err
	}
	return command.Result{Paras: []string{say("challenge/you-declined", l.args(c.Tx, ch, c.By))},
		Subject: say("subject/challenge-declined", templates.Args{"ID": ch.ID})}, nil
}

// decline closes ch as declined by its invited player (rec: his record, saved by the caller)
// and tells the challenger.
func (l *Lobby) decline(tx *store.Tx, rec *store.PlayerRecord, ch *store.Challenge) error {
	if err := l.close(tx, ch, store.ChallengeDeclined, ch.To); err != nil {
		return err
	}
	if !slices.Contains(rec.Declined, Canon(ch.From)) {
		rec.Declined = append(rec.Declined, Canon(ch.From))
		if len(rec.Declined) > store.MaxDeclined {
			rec.Declined = rec.Declined[len(rec.Declined)-store.MaxDeclined:]
		}
	}
	l.log().Info("challenge declined", "challenge", ch.ID)
	return l.tellChallenger(tx, ch, "subject/challenge-declined", l.Sayer(tx, ch.From)("challenge/declined", l.args(tx, ch, ch.From)))
}

// NoChallenges is NO CHALLENGES: no more invitations to the sender, and those waiting
// declined.
func (l *Lobby) NoChallenges(c *command.Call) (command.Result, error) {
	say := l.Sayer(c.Tx, c.By)
	rec, err := c.Tx.PlayerRecord(c.By)
	if err != nil {
		return command.Result{}, err
	}
	rec.NoChallenges = true
	own, err := c.Tx.ChallengesOf(c.By)
	if err != nil {
		return command.Result{}, err
	}
	n := 0
	for i := range own {
		if own[i].To == c.By {
			n++
			if err := l.decline(c.Tx, rec, &own[i]); err != nil {
				return command.Result{}, err
			}
		}
	}
	if err := c.Tx.PutPlayerRecord(rec); err != nil {
		return command.Result{}, err
	}
	return command.Result{Paras: []string{say("challenge/no-more", templates.Args{"N": n})}, Subject: say("subject/no-challenges", nil)}, nil
}

// AllowChallenges is ALLOW CHALLENGES: NO CHALLENGES and every decline undone.
func (l *Lobby) AllowChallenges(c *command.Call) (command.Result, error) {
	say := l.Sayer(c.Tx, c.By)
	rec, err := c.Tx.PlayerRecord(c.By)
	if err != nil {
		return command.Result{}, err
	}
	rec.NoChallenges, rec.Declined = false, nil
	if err := c.Tx.PutPlayerRecord(rec); err != nil {
		return command.Result{}, err
	}
	return command.Result{Paras: []string{say("challenge/allowed", nil)}, Subject: say("subject/allow-challenges", nil)}, nil
}

// Expire closes the challenges whose time ran out, a few at a time, and tells each
// challenger. It returns how many it closed.
func (l *Lobby) Expire() (int, error) {
	n := 0
	for {
		var ids []uint64
		// Looked for in a reader: most rounds find none, and write nothing.
		err := l.DB.View(func(tx *store.Tx) error {
			var err error
			ids, err = tx.ExpiredChallenges(tx.Now, 32)
			return err
		})
		if err != nil || len(ids) == 0 {
			return n, err
		}
		err = l.DB.Update(func(tx *store.Tx) error {
			for _, id := range ids {
				ch, err := tx.Challenge(id)
				if err != nil {
					return err
				}
				if !ch.Open() {
					continue
				}
				if err := l.close(tx, ch, store.ChallengeExpired, ""); err != nil {
					return err
				}
				if err := l.tellChallenger(tx, ch, "subject/challenge-expired", l.Sayer(tx, ch.From)("challenge/expired", l.args(tx, ch, ch.From))); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return n, fmt.Errorf("challenges: expire: %w", err)
		}
		n += len(ids)
		if len(ids) < 32 {
			return n, nil
		}
	}
}
