package referee

import (
	"errors"
	"github.com/refereed/refereed/lang"
	"log/slog"
	"slices"
	"strings"

	"github.com/refereed/refereed/archive"
	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/parser"
	"github.com/refereed/refereed/referee/challenges"
	"github.com/refereed/refereed/referee/command"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/templates"
	"github.com/refereed/refereed/variant"
)

// Mail to the referee's bare address (no reply token) and to an invitation's address: the
// rows of the command table for command.Anyone (GAMES, CHALLENGE, CHALLENGES, ACCEPT,
// DECLINE, NO CHALLENGES, ALLOW CHALLENGES, HELP).
//
// Who is answered (no backscatter): a player who has a game here; an address the
// challenges' policy admits (challenges.Policy.Admits); an address with an invitation
// waiting. Anyone else's mail is not read (senders.Reader.Ignorable). The mail system's word
// on the sender is asked as for a game, under the challenges' auth policy
// (senders.Reader.BareAuth): a challenge or an ACCEPT in someone else's name is not made.
// Answers that only refuse are limited like a game's (limitNoGame).

// maxListed is the most games one answer to a mail without a game lists.
const maxListed = 50

// answerBare reads a mail to the bare address (invitation 0) or to invitation's address.
func (r *Referee) answerBare(tx *store.Tx, log *slog.Logger, key store.InboxKey, raw []byte, msg *parser.Message, invitation uint64) error {
	from := strings.ToLower(msg.From)
	games, err := tx.GamesOf(from) // by index: a stranger's mail reads no game at all
	if err != nil {
		return err
	}
	player := len(games) > 0
	say := r.sayer(tx, from)
	invited := false
	if !player {
		cs, err := tx.ChallengesOf(from)
		if err != nil {
			return err
		}
		invited = slices.ContainsFunc(cs, func(c store.Challenge) bool { return c.To == from })
	}
	if !player && !invited && !r.Challenges.Admits(from, false) {
		log.Info("mail for no game from an unknown sender: not answered")
		return nil
	}
	if ok, why := r.senders().Authentic(key, r.senders().BareGame(), raw, msg.From); !ok {
		log.Warn("mail to the bare address not confirmed by the mail system: not answered", "why", why)
		return nil
	}
	var paras []string
	// acted counts the commands that did something; an answer to nothing else (refusals,
	// queries) is limited like a refusal: a loop with an auto-responder stops.
	subject, refused, cmds, acted := "", 0, 0, 0
	lines := parser.CommandLines(msg.Body)
	for i, line := range lines {
		if i == MaxCommands {
			paras = append(paras, say("too-many-lines", templates.Args{"Max": MaxCommands}))
			break
		}
		text := line.Text
		if invitation != 0 {
			text = answerWord(text)
		}
		c, call := commandTable.Find(command.Anyone, text)
		if c == nil {
			continue // words around the commands: a greeting, a signature
		}
		cmds++
		call.Tx, call.By, call.Invitation = tx, from, invitation
		var res command.Result
		if c.Lists {
			res.Paras = []string{commandTable.AnyoneHelp(r.langOf(tx, from))}
			res.Subject = say("subject/commands", nil)
			if player && invitation == 0 { // a player who lost his game's address finds it here
				games, err := r.gamesParas(tx, from, games)
				if err != nil {
					return err
				}
				res.Paras = append(res.Paras, games...)
			}
		} else {
			res, err = c.Handle(r, call)
		}
		var ce *challenges.Error
		var rej *variant.Rejection
		switch {
		case errors.As(err, &ce), errors.As(err, &rej):
			paras = append(paras, say("bare-refused", templates.Args{"N": line.N, "Line": clip(line.Text), "Why": whyIn(err, r.langOf(tx, from))}))
			if refused == 0 {
				refused = line.N
			}
			continue
		case err != nil:
			return err
		}
		if !c.Query {
			acted++
		}
		paras = append(paras, res.Paras...)
		if subject == "" && res.Subject != "" {
			subject = res.Subject
		}
	}
	if cmds == 0 {
		switch {
		case invitation != 0:
			paras = []string{say("bare-invitation-no-command", nil)}
		case player:
			games, err := r.gamesParas(tx, from, games)
			if err != nil {
				return err
			}
			paras = append(append([]string{say("no-game", templates.Args{"Referee": r.Address})}, games...),
				say("bare-no-command", templates.Args{"Referee": r.Address}))
			subject = say("subject/your-games", nil)
		default:
			log.Info("mail for no game with no command, from a sender who may challenge: not answered")
			return nil
		}
	}
	if len(paras) == 0 {
		return nil // done, and told otherwise (an accepted challenge: the game's first mails)
	}
	log.Info("mail to the bare address answered", "commands", cmds, "refused", refused)
	if acted == 0 {
		if ok, err := r.allowRefusal(tx, from, limitNoGame); !ok || err != nil {
			return err
		}
	}
	if refused > 0 {
		subject = say("subject/bare-answer", templates.Args{"Refused": true, "N": refused})
	} else if subject == "" {
		subject = say("subject/bare-answer", templates.Args{"Refused": false, "N": 0})
	}
	return r.enqueuePlain(tx, from, subject, paras, msg)
}

// whyIn is a refusal at the bare address in language t.
func whyIn(err error, t lang.Tag) string {
	var ce *challenges.Error
	if errors.As(err, &ce) {
		return ce.In(t)
	}
	return variant.WhyIn(err, t)
}

// answerWord reads an answer to an invitation as people write it: "Accept, thanks!" and
// "Declined." are ACCEPT and DECLINE (the invitation says which challenge).
func answerWord(line string) string {
	f := strings.Fields(line)
	if len(f) == 0 {
		return line
	}
	bare := strings.TrimRight(f[0], ".,;:!")
	switch strings.ToUpper(bare) {
	case "ACCEPT", "ACCEPTED":
		bare = "ACCEPT"
	case "DECLINE", "DECLINED":
		bare = "DECLINE"
	default:
		return line
	}
	if len(f) == 2 && !strings.ContainsAny(f[0], ".,;:!") {
		if _, err := challengeNumber(f[1]); err == nil {
			return line // ACCEPT 12: that one
		}
	}
	return bare
}

// bareGamesCommand is GAMES at the bare address: the sender's games, each with its address.
func (r *Referee) bareGamesCommand(c *command.Call) (command.Result, error) {
	games, err := c.Tx.GamesOf(c.By)
	if err != nil {
		return command.Result{}, err
	}
	paras, err := r.gamesParas(c.Tx, c.By, games)
	return command.Result{Paras: paras, Subject: r.sayer(c.Tx, c.By)("subject/your-games", nil)}, err
}

// gamesParas lists from's games, newest first: those in progress with the address that plays
// each, then those finished.
func (r *Referee) gamesParas(tx *store.Tx, from string, games []store.Game) ([]string, error) {
	say := r.sayer(tx, from)
	var active, over []string
	for i := len(games) - 1; i >= 0; i-- { // newest first
		sg := &games[i]
		for side, p := range sg.Players {
			if p.Address != from {
				continue
			}
			s := chess.Color(side)
			opp := sg.Players[s.Other()].Address
			if sg.Over() {
				over = append(over, say("game-finished", templates.Args{"Game": sg.ID, "Variant": variantName(sg.Variant), "Opponent": opp, "Result": sg.Result, "Reason": sg.Reason}))
				continue
			}
			l, err := archive.Load(tx, sg.ID)
			if err != nil {
				return nil, err
			}
			active = append(active, say("game-in-progress", templates.Args{"Game": sg.ID, "Variant": variantName(sg.Variant), "Side": s, "Opponent": opp,
				"YourMove": slices.Contains(l.Live.ToAct(), s), "Address": r.replyAddress(sg.ID, s, p.Token)}))
		}
	}
	var paras []string
	if len(active) == 0 {
		paras = append(paras, say("no-game-in-progress", nil))
	} else {
		if len(active) > maxListed {
			active = append(active[:maxListed], say("and-more", templates.Args{"N": len(active) - maxListed}))
		}
		paras = append(paras, say("games-in-progress", nil)+"\n"+strings.Join(active, "\n"))
		paras = append(paras, say("help-per-game", nil))
	}
	if len(over) > 0 {
		if len(over) > maxListed {
			over = append(over[:maxListed], say("and-more", templates.Args{"N": len(over) - maxListed}))
		}
		paras = append(paras, say("finished-games", nil)+"\n"+strings.Join(over, "\n"))
	}
	return paras, nil
}

// variantName is the name of a stored variant key for people, the key itself if unknown.
func variantName(key string) string {
	if v, err := variant.Lookup(key); err == nil {
		return v.Name
	}
	return key
}
