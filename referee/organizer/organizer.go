// Package organizer is the tournaments' office of a referee: a round robin made with all its
// games (New), its standings sent to every player when a game of it ends, a player's
// withdrawal, and its organizer, who has a reply address of his own (referee+t3-o-<token>@host,
// on every mail he is sent) and from it, or through the command line (Organize), may send one
// command a line:
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
// of every forfeit and every mail that could not be delivered (Tell). He sees a game whole
// only once it is over, never while it goes on: he may be a player elsewhere. His mail is in
// English; each player's, in the player's language.
//
// The commands are rows of the referee's command table (package command), whose handlers are
// the Desk's methods; games change only through the game aggregate (package play).
package organizer

import (
	"fmt"
	"log/slog"
	"strings"

	"github.com/refereed/refereed/lang"
	"github.com/refereed/refereed/parser"
	"github.com/refereed/refereed/rating"
	"github.com/refereed/refereed/referee/clocks"
	"github.com/refereed/refereed/referee/command"
	"github.com/refereed/refereed/referee/outbox"
	"github.com/refereed/refereed/referee/play"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/templates"
	"github.com/refereed/refereed/variant"
)

// Desk is the tournaments' office of one referee. What it needs of the referee are its
// fields: the referee makes one for each use (Referee.Tournaments).
type Desk struct {
	DB  *store.DB
	Out *outbox.Writer
	// Organizer organizes the games of no tournament, and tournaments made without one of
	// their own ("": nobody).
	Organizer string
	// Language is the language of a player's mail who set none and plays no game that sets
	// one (the server's).
	Language lang.Tag
	Rating   rating.Config // the rating system's constants, for a game ended here
	// Keeper is the referee's keeper of clocks and leave.
	Keeper func() *clocks.Keeper
	// CheckAddress says whether an address given by the operator or the organizer may play
	// here, and writes it as stored.
	CheckAddress func(string) (string, error)
	// Prefs is each player's settings in sg, his language among them.
	Prefs func(tx *store.Tx, sg *store.Game) [2]play.Prefs
	// StartGame stores a new game of a tournament, round of rounds, and queues its opening
	// mails.
	StartGame func(tx *store.Tx, v *variant.Variant, addrs [2]string, opts variant.Options, t *store.Tournament, round, rounds int) (*store.Game, error)
	// PlayerHelp is what a player who takes over a game is told he may send, in language t.
	PlayerHelp func(v *variant.Variant, g variant.Game, t lang.Tag) string
	// Help is the organizer's HELP; Run runs one of his command lines (the command table's
	// dispatch): a refusal is a variant rejection, and changes nothing.
	Help func() string
	Run  func(tx *store.Tx, t *store.Tournament, by, line string) ([]string, error)
	// AllowRefusal counts a refusal sent to address for mail in his name that was not his;
	// false: do not send it.
	AllowRefusal func(tx *store.Tx, address string) (bool, error)
	// Authentic says whether the mail system vouches for a mail's sender (package senders).
	Authentic func(key store.InboxKey, sg *store.Game, raw []byte, from string) (bool, string)
}

// say is one of the referee's own sentences, in English (an organizer's mail, the operator's
// answers).
func say(kind string, args templates.Args) string { return templates.Say("", kind, args) }

// Address is the reply address of tournament t's organizer (it holds his token: it is his to
// use, nobody else's).
func (d *Desk) Address(t *store.Tournament) string {
	local, domain, _ := strings.Cut(d.Out.Address, "@")
	return fmt.Sprintf("%s+t%d-o-%s@%s", local, t.ID, t.OrganizerToken, domain)
}

// organizerOf is who organizes game sg: its tournament's organizer, else the referee's.
func (d *Desk) organizerOf(tx *store.Tx, sg *store.Game) (string, *store.Tournament, error) {
	if sg.Tournament != 0 {
		t, err := tx.Tournament(sg.Tournament)
		if err != nil {
			return "", nil, err
		}
		if t.Organizer != "" {
			return t.Organizer, t, nil
		}
	}
	return d.Organizer, nil, nil
}

// Tell sends game sg's organizer (if it has one) a notice; it returns the mails queued.
func (d *Desk) Tell(tx *store.Tx, sg *store.Game, text string) (int, error) {
	to, t, err := d.organizerOf(tx, sg)
	if err != nil || to == "" {
		return 0, err
	}
	subject := say("subject/organizer-game", templates.Args{"Game": sg.ID})
	if t != nil {
		return 1, d.toOrganizer(tx, t, subject, []string{text}, nil, nil)
	}
	return 1, d.notice(tx, outbox.Notice{To: to, Subject: subject, Paras: []string{text}, Footer: say("footer-organizer", nil)})
}

// toOrganizer sends tournament t's organizer a mail with his reply address. His mails are
// numbered, and thread under the first (the welcome).
func (d *Desk) toOrganizer(tx *store.Tx, t *store.Tournament, subject string, paras, quoted []string, answers *parser.Message) error {
	paras, quoted = outbox.CapText(paras, quoted, lang.EN) // an organizer's mail is in English
	n, err := tx.Next(fmt.Sprintf("organizer-mails/%d", t.ID))
	if err != nil {
		return err
	}
	return d.notice(tx, outbox.Notice{To: t.Organizer, Subject: subject, Paras: paras, Quoted: quoted, ReplyTo: d.Address(t),
		Footer: say("footer-organizer-tournament", templates.Args{"Name": t.Name}), Answers: answers,
		MessageID: d.messageID(t, n), Root: d.messageID(t, 1), Lang: lang.EN})
}

// messageID is the Message-ID of the n-th mail to t's organizer: stable, and carrying his
// thread id, never his token.
func (d *Desk) messageID(t *store.Tournament, n uint64) string {
	_, domain, _ := strings.Cut(d.Out.Address, "@")
	restored := ""
	if t.Restores > 0 && n > 1 {
		restored = fmt.Sprintf(".r%d", t.Restores)
	}
	return fmt.Sprintf("refereed.t%d.o.%s.%d%s@%s", t.ID, outbox.ThreadID(t.OrganizerToken), n, restored, domain)
}

// Read reads a mail to an organizer's address (ref: what its token names): from the
// organizer, each line a command; from anyone else, refused (to the organizer, never to the
// sender).
func (d *Desk) Read(tx *store.Tx, key store.InboxKey, raw []byte, msg *parser.Message, ref store.GameRef, token string, log *slog.Logger) error {
	t, err := tx.Tournament(ref.Tournament)
	if err != nil || t.OrganizerToken != token || t.Organizer == "" {
		log.Info("mail to an organizer address that is not valid: ignored")
		return nil
	}
	if !strings.EqualFold(msg.From, t.Organizer) {
		log.Warn("sender is not the organizer: refused", "tournament", t.ID)
		if ok, err := d.AllowRefusal(tx, t.Organizer); !ok || err != nil {
			return err
		}
		return d.toOrganizer(tx, t, say("subject/refused-sender", nil), []string{say("organizer-forged", templates.Args{"Name": t.Name, "From": msg.From})}, nil, nil)
	}
	if len(t.Rounds) > 0 && len(t.Rounds[0].Games) > 0 {
		if sg, err := tx.Game(t.Rounds[0].Games[0].Game); err == nil {
			if ok, why := d.Authentic(key, sg, raw, msg.From); !ok {
				log.Warn("organizer's mail not confirmed by the mail system: refused", "tournament", t.ID, "why", why)
				if ok, err := d.AllowRefusal(tx, t.Organizer); !ok || err != nil {
					return err
				}
				return d.toOrganizer(tx, t, say("subject/refused-sender", nil), []string{say("organizer-unconfirmed", templates.Args{"Why": why})}, nil, nil)
			}
		}
	}
	if seen, err := tx.SeenMessageID(t.ID, -1, msg.MessageID); err != nil || seen {
		return err
	}
	lines := parser.CommandLines(msg.Body)
	var paras, quoted []string
	if len(lines) == 0 {
		paras = append(paras, d.Help())
	}
	for i, line := range lines {
		if i == command.MaxLines {
			paras = append(paras, say("too-many-lines", templates.Args{"Max": command.MaxLines}))
			for _, rest := range lines[i:] {
				quoted = append(quoted, rest.Text)
			}
			break
		}
		answer, err := d.Run(tx, t, msg.From, line.Text)
		if err != nil {
			if !variant.IsRejection(err) {
				return fmt.Errorf("organizer: tournament %d: organizer's line %d: %w", t.ID, line.N, err)
			}
			if line.Aside { // a greeting or a sign-off: said to be not read, not refused
				paras = append(paras, say("aside-unread", templates.Args{"N": line.N, "Line": command.Clip(line.Text)}))
				continue
			}
			paras = append(paras, say("line-refused", templates.Args{"N": line.N, "Line": command.Clip(line.Text), "Why": err.Error(), "First": i == 0, "Hint": true}))
			for _, rest := range lines[i:] {
				quoted = append(quoted, rest.Text)
			}
			break
		}
		paras = append(paras, answer...)
	}
	return d.toOrganizer(tx, t, say("subject/organizer-answer", templates.Args{"Name": t.Name}), paras, quoted, msg)
}

// Organize runs one organizer's command on tournament id, as from the command line.
func (d *Desk) Organize(id uint64, line string) (string, error) {
	var out []string
	err := d.DB.Update(func(tx *store.Tx) error {
		t, err := tx.Tournament(id)
		if err != nil {
			return err
		}
		out, err = d.Run(tx, t, "admin", line)
		return err
	})
	return strings.Join(out, "\n\n"), err
}

// The referee's ways of writing, for the players' mail (each in his language).

// langOf is the language of address's mail outside any one game.
func (d *Desk) langOf(tx *store.Tx, address string) lang.Tag {
	return play.PrefsOf(tx, address).With(d.Language).Lang
}

// sayTo is the sentence kind in address's language (mail outside any one game).
func (d *Desk) sayTo(tx *store.Tx, address, kind string, args templates.Args) string {
	return templates.SayIn(d.langOf(tx, address), "", kind, args)
}

// mail writes l to a player of game sg, of variant v; a letter in no language set is in its
// reader's.
func (d *Desk) mail(tx *store.Tx, sg *store.Game, v *variant.Variant, l outbox.Letter) error {
	if l.Lang == "" {
		l.Lang = d.Prefs(tx, sg)[l.Side].Lang
	}
	return play.Mail(d.Out, tx, sg, v.Name, l)
}

// notice writes n, a mail that belongs to no one game, in its reader's language unless it
// says its own.
func (d *Desk) notice(tx *store.Tx, n outbox.Notice) error {
	if n.Lang == "" {
		n.Lang = d.langOf(tx, n.To)
	}
	return d.Out.Notice(tx, n)
}

// note sends one player of t a short notice of the tournament.
func (d *Desk) note(tx *store.Tx, t *store.Tournament, to, text string) error {
	return d.notice(tx, outbox.Notice{To: to, Subject: d.sayTo(tx, to, "subject/tournament-note", templates.Args{"Name": t.Name}), Paras: []string{text},
		Footer: d.sayTo(tx, to, "tournament-footer", templates.Args{"Name": t.Name})})
}

// open loads game id for playing in tx.
func (d *Desk) open(tx *store.Tx, id uint64) (*play.Game, error) { return play.Open(tx, id, d.Rating) }
