package organizer

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/refereed/refereed/archive"
	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/lang"
	"github.com/refereed/refereed/referee/clocks"
	"github.com/refereed/refereed/referee/command"
	"github.com/refereed/refereed/referee/play"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/templates"
	"github.com/refereed/refereed/variant"
)

// The organizer's commands, each a row of the referee's command table (package command).

// logOrganizer logs an organizer's command in his tournament's log.
func logOrganizer(c *command.Call, text string) error {
	t := c.Tournament
	t.Log = append(t.Log, store.TournamentEvent{At: c.Tx.Now, By: c.By, Text: text})
	return c.Tx.PutTournament(t)
}

// Crosstable is the organizer's STANDINGS: the crosstable.
func (d *Desk) Crosstable(c *command.Call) (command.Result, error) {
	paras, err := standingsParas(c.Tx, c.Tournament, lang.EN)
	return command.Result{Paras: paras}, err
}

// Games is GAMES: the games by round.
func (d *Desk) Games(c *command.Call) (command.Result, error) {
	games, err := gamesList(c.Tx, c.Tournament)
	return command.Result{Paras: []string{games}}, err
}

// Adjudicate is ADJUDICATE: the organizer ends a game in progress.
func (d *Desk) Adjudicate(c *command.Call) (command.Result, error) {
	if len(c.Args) < 2 {
		return command.Result{}, variant.Refuse("organizer-usage", templates.Args{"Usage": "ADJUDICATE <game> 1-0|0-1|1/2-1/2 <reason>"})
	}
	sg, err := d.gameOf(c.Tx, c.Tournament, c.Args[0])
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
	if !command.PlainText(reason) {
		return command.Result{}, variant.Refuse("organizer-reason-plain", nil)
	}
	if rs := []rune(reason); len(rs) > maxReason {
		reason = string(rs[:maxReason]) + "..."
	}
	if err := d.adjudicate(c.Tx, sg, result, reason); err != nil {
		return command.Result{}, err
	}
	if err := logOrganizer(c, fmt.Sprintf("adjudicate #%d %s %s", sg.ID, result, reason)); err != nil {
		return command.Result{}, err
	}
	return command.Result{Paras: []string{say("organizer-adjudicated", templates.Args{"Game": sg.ID, "Result": result})}}, nil
}

// Extend is EXTEND: more time for a player.
func (d *Desk) Extend(c *command.Call) (command.Result, error) {
	if len(c.Args) < 2 || len(c.Args) > 3 {
		return command.Result{}, variant.Refuse("organizer-usage", templates.Args{"Usage": "EXTEND <game> <days> [white|black]"})
	}
	sg, err := d.gameOf(c.Tx, c.Tournament, c.Args[0])
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
	if err := d.extend(c.Tx, sg, n, sides); err != nil {
		return command.Result{}, err
	}
	if err := logOrganizer(c, strings.TrimSpace(fmt.Sprintf("extend #%d %d %s", sg.ID, n, strings.Join(c.Args[2:], " ")))); err != nil {
		return command.Result{}, err
	}
	return command.Result{Paras: []string{say("organizer-extended", templates.Args{"Game": sg.ID, "Days": n})}}, nil
}

// Replace is REPLACE: a new player takes over the games still going.
func (d *Desk) Replace(c *command.Call) (command.Result, error) {
	if len(c.Args) != 2 {
		return command.Result{}, variant.Refuse("organizer-usage", templates.Args{"Usage": "REPLACE <old address> <new address>"})
	}
	n, err := d.replace(c.Tx, c.Tournament, c.Args[0], c.Args[1])
	if err != nil {
		return command.Result{}, err
	}
	if err := logOrganizer(c, "replace "+c.Args[0]+" "+c.Args[1]); err != nil {
		return command.Result{}, err
	}
	return command.Result{Paras: []string{say("organizer-replaced", templates.Args{"Old": c.Args[0], "New": c.Args[1], "Games": n})}}, nil
}

// Withdrawal is WITHDRAW: a player leaves the tournament.
func (d *Desk) Withdrawal(c *command.Call) (command.Result, error) {
	if len(c.Args) != 1 {
		return command.Result{}, variant.Refuse("organizer-usage", templates.Args{"Usage": "WITHDRAW <player address>"})
	}
	if err := d.withdraw(c.Tx, c.Tournament, c.Args[0]); err != nil {
		return command.Result{}, variant.Reject("%v", err)
	}
	if err := logOrganizer(c, "withdraw "+c.Args[0]); err != nil {
		return command.Result{}, err
	}
	return command.Result{Paras: []string{say("organizer-withdrawn", templates.Args{"Player": c.Args[0]})}}, nil
}

// Pause is PAUSE and RESUME: every clock of the tournament stops, or goes on.
func (d *Desk) Pause(c *command.Call) (command.Result, error) {
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
		if err := d.note(c.Tx, c.Tournament, p, text); err != nil {
			return command.Result{}, err
		}
	}
	return command.Result{Paras: []string{say("tournament-paused", templates.Args{"Name": c.Tournament.Name, "Paused": c.Word == "PAUSE", "Organizer": true})}}, nil
}

// Leave is the organizer's LEAVE: leave for a player, beyond his allowance if need be.
func (d *Desk) Leave(c *command.Call) (command.Result, error) {
	if len(c.Args) < 2 {
		return command.Result{}, variant.Refuse("organizer-usage", templates.Args{"Usage": "LEAVE <player address> <first day> <last day>"})
	}
	addr, err := d.CheckAddress(c.Args[0])
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
	granted, err := d.Keeper().GrantLeave(c.Tx, addr, lr, c.By, c.Tournament, 0, lang.EN)
	if err != nil {
		return command.Result{}, err
	}
	if err := d.note(c.Tx, c.Tournament, addr, say("leave-by-organizer", templates.Args{"From": lr.From.Format(archive.DateLayout), "To": lr.To.Format(archive.DateLayout), "Days": lr.Days()})); err != nil {
		return command.Result{}, err
	}
	return command.Result{Paras: []string{granted}}, nil
}

// Show is SHOW: the whole of a finished game.
func (d *Desk) Show(c *command.Call) (command.Result, error) {
	if len(c.Args) != 1 {
		return command.Result{}, variant.Refuse("organizer-usage", templates.Args{"Usage": "SHOW <game>"})
	}
	sg, err := d.gameIn(c.Tx, c.Tournament, c.Args[0])
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
func (d *Desk) gameOf(tx *store.Tx, t *store.Tournament, s string) (*store.Game, error) {
	sg, err := d.gameIn(tx, t, s)
	if err == nil && sg.Over() {
		return nil, variant.Refuse("organizer-game-over", templates.Args{"Game": sg.ID, "Result": sg.Result})
	}
	return sg, err
}

// gameIn finds a game of t named by the organizer, going or over.
func (d *Desk) gameIn(tx *store.Tx, t *store.Tournament, s string) (*store.Game, error) {
	id, err := command.ParseGameID(s)
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
