package referee

import (
	"errors"
	"log/slog"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/refereed/refereed/lang"
	"github.com/refereed/refereed/referee/outbox"
	"github.com/refereed/refereed/referee/play"

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
	say := play.SayerTo(tx, from, r.Language)
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
	if invitation == 0 {
		invitation = r.threadedInvitation(tx, msg, from)
	}
	t := r.langOf(tx, from)
	var paras, quoted []string
	// acted counts the commands that did something or answered a question; an answer to
	// nothing else (refusals, no command) is limited like a refusal: a loop with an
	// auto-responder stops. Questions have their own hourly limit, as in a game.
	subject, firstRefused, refused, cmds, acted := "", 0, 0, 0, 0
	said := map[string]bool{} // a question asked twice in one mail is answered once
	var forGames []string     // lines a game would read (BOARD 2, e4): not done here, and said so
	lines := parser.CommandLines(msg.Body)
	for i, line := range lines {
		if i == MaxCommands {
			paras = append(paras, say("too-many-lines", templates.Args{"Max": MaxCommands}))
			for _, rest := range lines[i:] {
				quoted = append(quoted, rest.Text)
			}
			break
		}
		text := line.Text
		if invitation != 0 {
			text = answerWord(text)
		}
		c, call := commandTable.Find(command.Anyone, text)
		if c == nil {
			if forAGame(text) && len(forGames) < 5 {
				forGames = append(forGames, clip(text))
			}
			continue // words around the commands: a greeting, a signature
		}
		cmds++
		if c.Query {
			norm := strings.ToUpper(strings.Join(strings.Fields(text), " "))
			if said[norm] {
				continue
			}
			said[norm] = true
			ok, err := tx.Allow(from+"#queries", r.queryLimit(), QueryWindow)
			if err != nil {
				return err
			}
			if !ok {
				paras = append(paras, say("too-many-queries", templates.Args{"N": line.N, "Line": clip(line.Text), "Limit": r.queryLimit()}))
				for _, rest := range lines[i:] {
					quoted = append(quoted, rest.Text)
				}
				break
			}
		}
		call.Tx, call.By, call.Invitation = tx, from, invitation
		var res command.Result
		if c.Lists {
			res.Paras = []string{commandTable.AnyoneHelp(t)}
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
			paras = append(paras, say("bare-refused", templates.Args{"N": line.N, "Line": clip(line.Text), "Why": whyIn(err, t)}))
			refused++
			if firstRefused == 0 {
				firstRefused = line.N
			}
			continue
		case err != nil:
			return err
		}
		acted++
		paras = append(paras, res.Paras...)
		if subject == "" && res.Subject != "" {
			subject = res.Subject
		}
	}
	if len(forGames) > 0 && cmds > 0 {
		// (A mail with no command here is told that it names no game, and what this address takes.)
		paras = append(paras, say("bare-for-a-game", templates.Args{"Lines": strings.Join(forGames, ", ")}))
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
		case r.LocalDomain != "":
			// Someone who may challenge but wrote nothing this address reads: told what it
			// takes, once in a while (limitNoGame). Only where the mail server vouches for
			// the sender (the built-in one: he logged in): else it would answer spam.
			paras = []string{say("bare-nothing", templates.Args{"Referee": r.Address})}
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
		// Told at the last answer, as in a game: a person fumbling with the commands is never
		// left without an answer he was not told of.
		ok, last, err := r.allowTold(tx, from+"#"+limitNoGame, RefusalLimit)
		if !ok || err != nil {
			return err
		}
		if last {
			paras = append(paras, say("refusal-limit-last-bare", templates.Args{"Limit": RefusalLimit}))
		}
	}
	if refused > 0 || subject == "" {
		// (This address reads every line, refused or not: not a game's "lines above it done".)
		subject = say("subject/bare-answer", templates.Args{"Refused": refused, "N": firstRefused, "Done": acted > 0})
	}
	return r.notice(tx, outbox.Notice{To: from, Subject: subject, Paras: paras, Quoted: quoted,
		Footer: say("footer-no-game", nil), Answers: msg, Lang: t})
}

// forAGame reports whether line is one a game reads, sent here without one: a player's
// command word alone or with a game's number (BOARD, BOARD 2, HISTORY #2), or a lone move
// (e4). A sentence that begins with such a word ("Leave this to me.") is none.
func forAGame(line string) bool {
	f := strings.Fields(line)
	if len(f) == 0 || len(f) > 2 {
		return false
	}
	switch c, _ := commandTable.Find(command.Player, f[0]); {
	case c != nil && len(f) == 2:
		_, err := command.ParseGameID(f[1]) // BOARD 2
		return err == nil
	case c != nil:
		return f[0] == strings.ToUpper(f[0]) // BOARD, as commands are written ("Draw" may begin a sentence)
	case len(f) == 2 || len(f[0]) < 2:
		return false
	}
	_, err := chess.ParseNotation(f[0])
	return err == nil
}

// threadedInvitation is the invitation to from that msg answers by its thread (a reply to
// the invitation sent to the bare address), 0 for none.
func (r *Referee) threadedInvitation(tx *store.Tx, msg *parser.Message, from string) uint64 {
	for _, id := range append(slices.Clone(msg.InReplyTo), msg.References...) {
		m := invitationID.FindStringSubmatch(id)
		if m == nil {
			continue
		}
		n, err := strconv.ParseUint(m[1], 10, 64)
		if err != nil {
			continue
		}
		if ch, err := tx.Challenge(n); err == nil && ch.To == from {
			return n
		}
	}
	return 0
}

// invitationID is the form of an invitation's Message-ID (invitationMessageID).
var invitationID = regexp.MustCompile(`^refereed\.c(\d+)\.[a-z2-7]+@`)

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
		if _, err := challenges.Number(f[1]); err == nil {
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
	return command.Result{Paras: paras, Subject: play.SayerTo(c.Tx, c.By, r.Language)("subject/your-games", nil)}, err
}

// gamesParas lists from's games, newest first: those in progress with the address that plays
// each, then those finished.
func (r *Referee) gamesParas(tx *store.Tx, from string, games []store.Game) ([]string, error) {
	say := play.SayerTo(tx, from, r.Language)
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
