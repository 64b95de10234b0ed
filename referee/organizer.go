package referee

import (
	"fmt"
	"github.com/refereed/refereed/lang"
	"log/slog"
	"slices"
	"strconv"
	"strings"

	"github.com/refereed/refereed/archive"
	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/parser"
	"github.com/refereed/refereed/referee/clocks"
	"github.com/refereed/refereed/referee/command"
	"github.com/refereed/refereed/referee/outbox"
	"github.com/refereed/refereed/referee/play"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/templates"
	"github.com/refereed/refereed/variant"
)

// The organizer of a tournament (issue: tournaments, item 5). Each tournament's organizer has
// a reply address of his own (referee+t3-o-<token>@host, on every mail he is sent), and from
// it, or through the command line (Organize), may send one command a line:
//
//	STANDINGS                          the crosstable
//	GAMES                              the games by round, with their numbers
//	ADJUDICATE <game> <result> [why]   end a game in progress: 1-0, 0-1 or 1/2-1/2
//	EXTEND <game> <days> [white|black] more time for a player (default: the one to move)
//	REPLACE <old> <new>                a new player takes over the games still going
//	WITHDRAW <player>                  the player leaves: see the tournament's rule
//	PAUSE, RESUME                      stop and start again every clock of the tournament
//	LEAVE <player> <first> [<last>]    leave for a player, beyond his allowance if need be
//	SHOW <game>                        the whole of a finished game
//	HELP                               this list
//
// Each is logged (the tournament's log, and an adjudication or an extension in the game's
// own log, where replay finds it) and told to whoever it touches. The organizer is also told
// of every forfeit and every mail that could not be delivered. He sees a game whole only
// once it is over, never while it goes on: he may be a player elsewhere.

// organizerHelp is the answer to HELP from the organizer.
func organizerHelp() string { return commandTable.OrganizerHelp() }

// OrganizerAddress is the reply address of tournament t's organizer (it holds his token: it
// is his to use, nobody else's).
func (r *Referee) OrganizerAddress(t *store.Tournament) string {
	local, domain := r.local()
	return fmt.Sprintf("%s+t%d-o-%s@%s", local, t.ID, t.OrganizerToken, domain)
}

// organizerOf is who organizes game sg: its tournament's organizer, else the referee's.
func (r *Referee) organizerOf(tx *store.Tx, sg *store.Game) (string, *store.Tournament, error) {
	if sg.Tournament != 0 {
		t, err := tx.Tournament(sg.Tournament)
		if err != nil {
			return "", nil, err
		}
		if t.Organizer != "" {
			return t.Organizer, t, nil
		}
	}
	return r.Organizer, nil, nil
}

// tellOrganizer sends game sg's organizer (if it has one) a notice; it returns the mails
// queued.
func (r *Referee) tellOrganizer(tx *store.Tx, sg *store.Game, text string) (int, error) {
	to, t, err := r.organizerOf(tx, sg)
	if err != nil || to == "" {
		return 0, err
	}
	subject := say("subject/organizer-game", templates.Args{"Game": sg.ID})
	if t != nil {
		return 1, r.enqueueOrganizer(tx, t, subject, []string{text}, nil, nil)
	}
	return 1, r.enqueueNotice(tx, to, subject, []string{text}, say("footer-organizer", nil), nil)
}

// enqueueOrganizer sends tournament t's organizer a mail with his reply address.
// His mails are numbered, and thread under the first (the welcome).
func (r *Referee) enqueueOrganizer(tx *store.Tx, t *store.Tournament, subject string, paras, quoted []string, answers *parser.Message) error {
	paras, quoted = outbox.CapText(paras, quoted, lang.EN) // an organizer's mail is in English
	n, err := tx.Next(fmt.Sprintf("organizer-mails/%d", t.ID))
	if err != nil {
		return err
	}
	return r.notice(tx, outbox.Notice{To: t.Organizer, Subject: subject, Paras: paras, Quoted: quoted, ReplyTo: r.OrganizerAddress(t),
		Footer: say("footer-organizer-tournament", templates.Args{"Name": t.Name}), Answers: answers,
		MessageID: r.organizerMessageID(t, n), Root: r.organizerMessageID(t, 1), Lang: lang.EN})
}

// organizerMessageID is the Message-ID of the n-th mail to t's organizer: stable, and
// carrying his thread id, never his token.
func (r *Referee) organizerMessageID(t *store.Tournament, n uint64) string {
	_, domain := r.local()
	restored := ""
	if t.Restores > 0 && n > 1 {
		restored = fmt.Sprintf(".r%d", t.Restores)
	}
	return fmt.Sprintf("refereed.t%d.o.%s.%d%s@%s", t.ID, outbox.ThreadID(t.OrganizerToken), n, restored, domain)
}

// organizerMail reads a mail to an organizer's address: from the organizer, each line a
// command; from anyone else, refused (to the organizer, never to the sender).
func (r *Referee) organizerMail(tx *store.Tx, key store.InboxKey, raw []byte, msg *parser.Message, ref store.GameRef, token string, log *slog.Logger) error {
	t, err := tx.Tournament(ref.Tournament)
	if err != nil || t.OrganizerToken != token || t.Organizer == "" {
		log.Info("mail to an organizer address that is not valid: ignored")
		return nil
	}
	if !strings.EqualFold(msg.From, t.Organizer) {
		log.Warn("sender is not the organizer: refused", "tournament", t.ID)
		if ok, err := r.allowRefusal(tx, t.Organizer, limitForged); !ok || err != nil {
			return err
		}
		return r.enqueueOrganizer(tx, t, say("subject/refused-sender", nil), []string{say("organizer-forged", templates.Args{"Name": t.Name, "From": msg.From})}, nil, nil)
	}
	if len(t.Rounds) > 0 && len(t.Rounds[0].Games) > 0 {
		if sg, err := tx.Game(t.Rounds[0].Games[0].Game); err == nil {
			if ok, why := r.senders().Authentic(key, sg, raw, msg.From); !ok {
				log.Warn("organizer's mail not confirmed by the mail system: refused", "tournament", t.ID, "why", why)
				if ok, err := r.allowRefusal(tx, t.Organizer, limitForged); !ok || err != nil {
					return err
				}
				return r.enqueueOrganizer(tx, t, say("subject/refused-sender", nil), []string{say("organizer-unconfirmed", templates.Args{"Why": why})}, nil, nil)
			}
		}
	}
	if seen, err := tx.SeenMessageID(t.ID, -1, msg.MessageID); err != nil || seen {
		return err
	}
	lines := parser.CommandLines(msg.Body)
	var paras, quoted []string
	if len(lines) == 0 {
		paras = append(paras, organizerHelp())
	}
	for i, line := range lines {
		if i == MaxCommands {
			paras = append(paras, say("too-many-lines", templates.Args{"Max": MaxCommands}))
			for _, rest := range lines[i:] {
				quoted = append(quoted, rest.Text)
			}
			break
		}
		answer, err := r.organize(tx, t, msg.From, line.Text)
		if err != nil {
			if !variant.IsRejection(err) {
				return fmt.Errorf("referee: tournament %d: organizer's line %d: %w", t.ID, line.N, err)
			}
			if line.Aside { // a greeting or a sign-off: said to be not read, not refused
				paras = append(paras, say("aside-unread", templates.Args{"N": line.N, "Line": clip(line.Text)}))
				continue
			}
			paras = append(paras, say("line-refused", templates.Args{"N": line.N, "Line": clip(line.Text), "Why": err.Error(), "First": i == 0, "Hint": true}))
			for _, rest := range lines[i:] {
				quoted = append(quoted, rest.Text)
			}
			break
		}
		paras = append(paras, answer...)
	}
	return r.enqueueOrganizer(tx, t, say("subject/organizer-answer", templates.Args{"Name": t.Name}), paras, quoted, msg)
}

// Organize runs one organizer's command on tournament id, as from the command line.
func (r *Referee) Organize(id uint64, line string) (string, error) {
	var out []string
	err := r.DB.Update(func(tx *store.Tx) error {
		t, err := tx.Tournament(id)
		if err != nil {
			return err
		}
		out, err = r.organize(tx, t, "admin", line)
		return err
	})
	return strings.Join(out, "\n\n"), err
}

// organize runs one organizer's command on t; a refusal is a variant rejection (it says
// what was wrong), and changes nothing.
func (r *Referee) organize(tx *store.Tx, t *store.Tournament, by, line string) ([]string, error) {
	c, call := commandTable.Find(command.Organizer, line)
	if c == nil {
		return nil, variant.Refuse("organizer-unknown", nil)
	}
	if c.Lists {
		return []string{organizerHelp()}, nil
	}
	call.Tx, call.Tournament, call.By = tx, t, by
	res, err := c.Handle(r, call)
	return res.Paras, err
}

// logOrganizer logs an organizer's command in his tournament's log.
func logOrganizer(c *command.Call, text string) error {
	t := c.Tournament
	t.Log = append(t.Log, store.TournamentEvent{At: c.Tx.Now, By: c.By, Text: text})
	return c.Tx.PutTournament(t)
}

func (r *Referee) organizerStandings(c *command.Call) (command.Result, error) {
	paras, err := standingsParas(c.Tx, c.Tournament, lang.EN)
	return command.Result{Paras: paras}, err
}

func (r *Referee) gamesCommand(c *command.Call) (command.Result, error) {
	games, err := gamesList(c.Tx, c.Tournament)
	return command.Result{Paras: []string{games}}, err
}

func (r *Referee) adjudicateCommand(c *command.Call) (command.Result, error) {
	if len(c.Args) < 2 {
		return command.Result{}, variant.Refuse("organizer-usage", templates.Args{"Usage": "ADJUDICATE <game> 1-0|0-1|1/2-1/2 <reason>"})
	}
	sg, err := r.gameOf(c.Tx, c.Tournament, c.Args[0])
	if err != nil {
		return command.Result{}, err
	}
	result := c.Args[1]
	if result == "½-½" || result == "1/2" || result == "=" {
		result = variant.Draw
	}
	if result != "1-0" && result != "0-1" && result != variant.Draw {
		return command.Result{}, variant.Refuse("organizer-usage", templates.Args{"Usage": "ADJUDICATE <game> 1-0|0-1|1/2-1/2 <reason>"})
	}
	reason := strings.Join(c.Args[2:], " ")
	if !plainText(reason) {
		return command.Result{}, variant.Refuse("organizer-reason-plain", nil)
	}
	if r := []rune(reason); len(r) > maxReason {
		reason = string(r[:maxReason]) + "..."
	}
	if err := r.adjudicate(c.Tx, sg, result, reason); err != nil {
		return command.Result{}, err
	}
	if err := logOrganizer(c, fmt.Sprintf("adjudicate #%d %s %s", sg.ID, result, reason)); err != nil {
		return command.Result{}, err
	}
	return command.Result{Paras: []string{say("organizer-adjudicated", templates.Args{"Game": sg.ID, "Result": result})}}, nil
}

func (r *Referee) extendCommand(c *command.Call) (command.Result, error) {
	if len(c.Args) < 2 || len(c.Args) > 3 {
		return command.Result{}, variant.Refuse("organizer-usage", templates.Args{"Usage": "EXTEND <game> <days> [white|black]"})
	}
	sg, err := r.gameOf(c.Tx, c.Tournament, c.Args[0])
	if err != nil {
		return command.Result{}, err
	}
	n, err := strconv.Atoi(strings.TrimSuffix(strings.ToLower(c.Args[1]), "d"))
	if err != nil || n < 1 || n > 365 {
		return command.Result{}, variant.Refuse("organizer-days", nil)
	}
	var sides []chess.Color
	if len(c.Args) == 3 {
		switch strings.ToLower(c.Args[2]) {
		case "white", "w":
			sides = []chess.Color{chess.White}
		case "black", "b":
			sides = []chess.Color{chess.Black}
		default:
			return command.Result{}, variant.Refuse("organizer-usage", templates.Args{"Usage": "EXTEND <game> <days> [white|black]"})
		}
	}
	if err := r.extend(c.Tx, sg, n, sides); err != nil {
		return command.Result{}, err
	}
	if err := logOrganizer(c, strings.TrimSpace(fmt.Sprintf("extend #%d %d %s", sg.ID, n, strings.Join(c.Args[2:], " ")))); err != nil {
		return command.Result{}, err
	}
	return command.Result{Paras: []string{say("organizer-extended", templates.Args{"Game": sg.ID, "Days": n})}}, nil
}

func (r *Referee) replaceCommand(c *command.Call) (command.Result, error) {
	if len(c.Args) != 2 {
		return command.Result{}, variant.Refuse("organizer-usage", templates.Args{"Usage": "REPLACE <old address> <new address>"})
	}
	n, err := r.replace(c.Tx, c.Tournament, c.Args[0], c.Args[1])
	if err != nil {
		return command.Result{}, err
	}
	if err := logOrganizer(c, "replace "+c.Args[0]+" "+c.Args[1]); err != nil {
		return command.Result{}, err
	}
	return command.Result{Paras: []string{say("organizer-replaced", templates.Args{"Old": c.Args[0], "New": c.Args[1], "Games": n})}}, nil
}

func (r *Referee) withdrawCommand(c *command.Call) (command.Result, error) {
	if len(c.Args) != 1 {
		return command.Result{}, variant.Refuse("organizer-usage", templates.Args{"Usage": "WITHDRAW <player address>"})
	}
	if err := r.withdraw(c.Tx, c.Tournament, c.Args[0]); err != nil {
		return command.Result{}, variant.Reject("%v", err)
	}
	if err := logOrganizer(c, "withdraw "+c.Args[0]); err != nil {
		return command.Result{}, err
	}
	return command.Result{Paras: []string{say("organizer-withdrawn", templates.Args{"Player": c.Args[0]})}}, nil
}

func (r *Referee) pauseCommand(c *command.Call) (command.Result, error) {
	if len(c.Args) != 0 {
		return command.Result{}, variant.Refuse("organizer-usage", templates.Args{"Usage": c.Word})
	}
	if (c.Word == "PAUSE") == c.Tournament.Paused() {
		return command.Result{}, variant.Refuse("organizer-pause-already", templates.Args{"Paused": c.Tournament.Paused()})
	}
	if c.Word == "PAUSE" {
		c.Tournament.Pauses = append(c.Tournament.Pauses, store.Pause{From: c.Tx.Now})
	} else {
		c.Tournament.Pauses[len(c.Tournament.Pauses)-1].To = c.Tx.Now
	}
	if err := logOrganizer(c, strings.ToLower(c.Word)); err != nil {
		return command.Result{}, err
	}
	if err := clocks.MarkDue(c.Tx, clocks.TournamentGames(c.Tournament)...); err != nil {
		return command.Result{}, err
	}
	text := say("tournament-paused", templates.Args{"Name": c.Tournament.Name, "Paused": c.Word == "PAUSE", "Organizer": false})
	for i, p := range c.Tournament.Players {
		if slices.ContainsFunc(c.Tournament.Withdrawn, func(w store.Withdrawal) bool { return w.Player == i }) {
			continue // a withdrawn player has no clock in it (issue 33: he was told)
		}
		if err := r.enqueueTournamentNote(c.Tx, c.Tournament, p, text); err != nil {
			return command.Result{}, err
		}
	}
	return command.Result{Paras: []string{say("tournament-paused", templates.Args{"Name": c.Tournament.Name, "Paused": c.Word == "PAUSE", "Organizer": true})}}, nil
}

func (r *Referee) organizerLeaveCommand(c *command.Call) (command.Result, error) {
	if len(c.Args) < 2 {
		return command.Result{}, variant.Refuse("organizer-usage", templates.Args{"Usage": "LEAVE <player address> <first day> <last day>"})
	}
	addr, err := r.CheckAddress(c.Args[0])
	if err != nil {
		return command.Result{}, variant.Reject("%v", err)
	}
	if !slices.Contains(c.Tournament.Players, addr) {
		return command.Result{}, variant.Refuse("organizer-not-player", templates.Args{"Player": addr, "Name": c.Tournament.Name})
	}
	lr, err := clocks.ParseLeave(c.Args[1:])
	if err != nil {
		return command.Result{}, err
	}
	granted, err := r.keeper().GrantLeave(c.Tx, addr, lr, c.By, c.Tournament, 0, lang.EN)
	if err != nil {
		return command.Result{}, err
	}
	if err := r.enqueueTournamentNote(c.Tx, c.Tournament, addr, say("leave-by-organizer", templates.Args{"From": lr.From.Format(archive.DateLayout), "To": lr.To.Format(archive.DateLayout), "Days": lr.Days()})); err != nil {
		return command.Result{}, err
	}
	return command.Result{Paras: []string{granted}}, nil
}

func (r *Referee) showCommand(c *command.Call) (command.Result, error) {
	if len(c.Args) != 1 {
		return command.Result{}, variant.Refuse("organizer-usage", templates.Args{"Usage": "SHOW <game>"})
	}
	sg, err := r.gameIn(c.Tx, c.Tournament, c.Args[0])
	if err != nil {
		return command.Result{}, err
	}
	if !sg.Over() {
		return command.Result{}, variant.Refuse("organizer-in-progress", templates.Args{"Game": sg.ID})
	}
	l, err := archive.Load(c.Tx, sg.ID)
	if err != nil {
		return command.Result{}, err
	}
	g := l.Live
	paras, err := play.Reveal(c.Tx, l, play.Prefs{}.With(lang.EN))
	if err != nil {
		return command.Result{}, err
	}
	head := say("tournament-game-ended", templates.Args{"Game": sg.ID, "Name": c.Tournament.Name, "White": sg.Players[0].Address, "Black": sg.Players[1].Address, "Result": sg.Result})
	head += " " + say("organizer-ended-why", templates.Args{"Reason": sg.Reason})
	return command.Result{Paras: append(append([]string{head}, paras...), play.Diagram(l.Variant, g, chess.White, variant.ShowReveal, play.Prefs{}.With(lang.EN)))}, nil
}

// gamesList is the tournament's games by round, with their numbers and how they stand (a
// game in progress says no more than that).
func gamesList(tx *store.Tx, t *store.Tournament) (string, error) {
	lines := []string{say("organizer-games", templates.Args{"Name": t.Name})}
	for _, rd := range t.Rounds {
		for _, tg := range rd.Games {
			sg, err := tx.Game(tg.Game)
			if err != nil {
				return "", err
			}
			args := templates.Args{"Round": rd.Number, "Game": sg.ID, "White": t.Players[tg.White], "Black": t.Players[tg.Black], "Result": "", "Reason": ""}
			if sg.Over() {
				args["Result"], args["Reason"] = sg.Result, sg.Reason
			}
			lines = append(lines, say("organizer-game-line", args))
		}
	}
	return strings.Join(lines, "\n"), nil
}

// maxReason bounds an adjudication's reason, which every mail of the game's end repeats.
const maxReason = 300

// gameOf finds a game of t named by the organizer ("12" or "#12") that is still going.
func (r *Referee) gameOf(tx *store.Tx, t *store.Tournament, s string) (*store.Game, error) {
	sg, err := r.gameIn(tx, t, s)
	if err == nil && sg.Over() {
		return nil, variant.Refuse("organizer-game-over", templates.Args{"Game": sg.ID, "Result": sg.Result})
	}
	return sg, err
}

// gameIn finds a game of t named by the organizer, going or over.
func (r *Referee) gameIn(tx *store.Tx, t *store.Tournament, s string) (*store.Game, error) {
	id, err := ParseGameID(s)
	if err != nil {
		return nil, variant.Reject("%v", err)
	}
	for _, rd := range t.Rounds {
		for _, tg := range rd.Games {
			if tg.Game != id {
				continue
			}
			return tx.Game(id)
		}
	}
	return nil, variant.Refuse("organizer-no-game", templates.Args{"Game": id, "Name": t.Name})
}
