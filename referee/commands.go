package referee

import (
	"strings"

	"github.com/refereed/refereed/referee/challenges"
	"github.com/refereed/refereed/referee/command"
	"github.com/refereed/refereed/referee/ifmoves"
	"github.com/refereed/refereed/referee/organizer"
	"github.com/refereed/refereed/referee/play"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/variant"
)

// cmd is a row of the referee's command table.
type cmd = command.Command[*Referee]

// commandTable is the referee's command table: the players' commands (each game adds its own,
// variant.Variant.Commands), in the order of a player's HELP, then the organizers'. It is
// made in init: some handlers answer with a HELP list (a replaced player's welcome), which
// reads the table.
var commandTable *command.Table[*Referee]

func init() { commandTable = command.New(rows()...) }

// rows are the referee's commands, each sender's in the order of his HELP.
func rows() []*cmd {
	return []*cmd{
		// A player's, from his reply address.
		&cmd{Word: "HELP", Aliases: []string{"?"}, Bare: true, Who: command.Player, Query: true, Lists: true},
		&cmd{Word: "BOARD", Bare: true, Who: command.Player, Query: true, Handle: (*Referee).boardCommand,
			Help: "help/player/BOARD"},
		&cmd{Word: "HISTORY", Bare: true, Who: command.Player, Query: true, Handle: (*Referee).historyCommand,
			Help: "help/player/HISTORY"},
		&cmd{Word: "RESIGN", Who: command.Player, // the game's (variant.ResolveCommon)
			Help: "help/player/RESIGN"},
		&cmd{Word: "DRAW", Args: "OFFER|ACCEPT|DECLINE|WITHDRAW", Who: command.Player, // the game's
			Help: "help/player/DRAW"},
		&cmd{Word: "RATING", Aliases: []string{"RATINGS"}, Bare: true, Who: command.Player, Query: true, Handle: (*Referee).ratingCommand,
			Help: "help/player/RATING"},
		&cmd{Word: "SET", Args: "[NOTATION|BOARD value]", Who: command.Player, Handle: (*Referee).setCommand,
			Help: "help/player/SET"},
		&cmd{Word: "PGN", Bare: true, Who: command.Player, Query: true, Handle: (*Referee).pgnCommand,
			Help: "help/player/PGN"},
		&cmd{Word: "LEAVE", Args: "first-day [last-day]", Who: command.Player, OneAMail: "leave-one-a-mail", Handle: (*Referee).leaveCommand,
			Help: "help/player/LEAVE"},
		&cmd{Word: "TAKEBACK", Aliases: []string{"UNDO"}, Args: "[OFFER|ACCEPT|DECLINE|WITHDRAW]", Who: command.Player,
			Match: func(line string) bool { return takebackVerb(line) != "" }, Handle: (*Referee).takebackCommand,
			In:   func(v *variant.Variant, _ bool) bool { return v.Open },
			Help: "help/player/TAKEBACK"},
		&cmd{Word: "IF", Args: "moves...|LIST|CLEAR", Who: command.Player,
			Match: func(line string) bool { _, _, ok := ifmoves.Parse(line); return ok }, Handle: (*Referee).ifCommand,
			In:   func(v *variant.Variant, _ bool) bool { return v.Conditionals },
			Help: "help/player/IF"},
		&cmd{Word: "STANDINGS", Bare: true, Who: command.Player, Query: true, Handle: (*Referee).standingsCommand,
			In:   func(_ *variant.Variant, inTournament bool) bool { return inTournament },
			Help: "help/player/STANDINGS"},

		// An organizer's, from his tournament's organizer address (or the command line).
		&cmd{Word: "STANDINGS", Who: command.Organizer, Handle: onDesk((*organizer.Desk).Crosstable),
			Help: "help/organizer/STANDINGS"},
		&cmd{Word: "GAMES", Who: command.Organizer, Handle: onDesk((*organizer.Desk).Games),
			Help: "help/organizer/GAMES"},
		&cmd{Word: "ADJUDICATE", Args: "<game> 1-0|0-1|1/2-1/2 <reason>", Who: command.Organizer, Handle: onDesk((*organizer.Desk).Adjudicate),
			Help: "help/organizer/ADJUDICATE"},
		&cmd{Word: "EXTEND", Args: "<game> <days> [white|black]", Who: command.Organizer, Handle: onDesk((*organizer.Desk).Extend),
			Help: "help/organizer/EXTEND"},
		&cmd{Word: "REPLACE", Args: "<old address> <new address>", Who: command.Organizer, Handle: onDesk((*organizer.Desk).Replace),
			Help: "help/organizer/REPLACE"},
		&cmd{Word: "WITHDRAW", Args: "<player address>", Who: command.Organizer, Handle: onDesk((*organizer.Desk).Withdrawal),
			Help: "help/organizer/WITHDRAW"},
		&cmd{Word: "PAUSE", Aliases: []string{"RESUME"}, Who: command.Organizer, Handle: onDesk((*organizer.Desk).Pause),
			Help: "help/organizer/PAUSE"},
		&cmd{Word: "LEAVE", Args: "<player address> <first day> <last day>", Who: command.Organizer, Handle: onDesk((*organizer.Desk).Leave),
			Help: "help/organizer/LEAVE"},
		&cmd{Word: "SHOW", Args: "<game>", Who: command.Organizer, Handle: onDesk((*organizer.Desk).Show),
			Help: "help/organizer/SHOW"},
		&cmd{Word: "HELP", Aliases: []string{"?"}, Who: command.Organizer, Lists: true,
			Help: "help/organizer/HELP"},

		// Anyone's, at the referee's bare address (bare.go; the challenges' lobby, package challenges).
		&cmd{Word: "GAMES", Bare: true, Who: command.Anyone, Query: true, Handle: (*Referee).bareGamesCommand,
			Help: "help/anyone/GAMES"},
		&cmd{Word: "CHALLENGE", Args: "<address>|ANY <game> [options] | CANCEL <number>", Who: command.Anyone, Handle: inLobby((*challenges.Lobby).Challenge),
			Help: "help/anyone/CHALLENGE"},
		&cmd{Word: "CHALLENGES", Bare: true, Who: command.Anyone, Query: true, Handle: inLobby((*challenges.Lobby).List),
			Help: "help/anyone/CHALLENGES"},
		&cmd{Word: "ACCEPT", Args: "[number]", Who: command.Anyone, Handle: inLobby((*challenges.Lobby).Accept),
			Help: "help/anyone/ACCEPT"},
		&cmd{Word: "DECLINE", Args: "[number]", Who: command.Anyone, Handle: inLobby((*challenges.Lobby).Decline),
			Help: "help/anyone/DECLINE"},
		&cmd{Word: "NO", Args: "CHALLENGES", Who: command.Anyone, Match: isWords("NO", "CHALLENGES"), Handle: inLobby((*challenges.Lobby).NoChallenges),
			Help: "help/anyone/NO"},
		&cmd{Word: "ALLOW", Args: "CHALLENGES", Who: command.Anyone, Match: isWords("ALLOW", "CHALLENGES"), Handle: inLobby((*challenges.Lobby).AllowChallenges),
			Help: "help/anyone/ALLOW"},
		&cmd{Word: "HELP", Aliases: []string{"?"}, Bare: true, Who: command.Anyone, Query: true, Lists: true,
			Help: "help/anyone/HELP"},
	}
}

// onDesk runs an organizer's command on the referee's tournaments' office (package organizer).
func onDesk(f func(*organizer.Desk, *command.Call) (command.Result, error)) func(*Referee, *command.Call) (command.Result, error) {
	return func(r *Referee, c *command.Call) (command.Result, error) { return f(r.Tournaments(), c) }
}

// inLobby runs a command of the challenges' lobby (package challenges).
func inLobby(f func(*challenges.Lobby, *command.Call) (command.Result, error)) func(*Referee, *command.Call) (command.Result, error) {
	return func(r *Referee, c *command.Call) (command.Result, error) { return f(r.Lobby(), c) }
}

// organize runs one organizer's command line on t through the table; a refusal is a variant
// rejection (it says what was wrong), and changes nothing.
func (r *Referee) organize(tx *store.Tx, t *store.Tournament, by, line string) ([]string, error) {
	c, call := commandTable.Find(command.Organizer, line)
	if c == nil {
		return nil, variant.Refuse("organizer-unknown", nil)
	}
	if c.Lists {
		return []string{commandTable.OrganizerHelp()}, nil
	}
	call.Tx, call.Tournament, call.By = tx, t, by
	res, err := c.Handle(r, call)
	return res.Paras, err
}

// isWords matches a line that is exactly words, in any case.
func isWords(words ...string) func(line string) bool {
	return func(line string) bool {
		return strings.EqualFold(strings.Join(strings.Fields(line), " "), strings.Join(words, " "))
	}
}

// ask is the answer to a player's query: one notice to him alone.
func ask(c *command.Call, kind, text string, show variant.Show) command.Result {
	return command.Result{Notices: []variant.Notice{{To: variant.To(c.Side), Kind: kind, Text: text, Show: show}}}
}

func (r *Referee) boardCommand(c *command.Call) (command.Result, error) {
	return command.Result{Notices: []variant.Notice{{To: variant.To(c.Side), Kind: "board", Words: "board", Show: variant.ShowView}}}, nil
}

func (r *Referee) historyCommand(c *command.Call) (command.Result, error) {
	h, err := r.history(c.Game, c.Side)
	if err != nil {
		return command.Result{}, err
	}
	return ask(c, "history", h, 0), nil
}

func (r *Referee) pgnCommand(c *command.Call) (command.Result, error) {
	return command.Result{Notices: []variant.Notice{{To: variant.To(c.Side), Kind: "pgn", Words: "pgn"}}}, nil
}

func (r *Referee) ratingCommand(c *command.Call) (command.Result, error) {
	a := c.Game
	text, err := play.RatingsAnswer(a.Tx(), a.Rating(), a.Stored().Players[c.Side].Address, r.prefsOf(a.Tx(), a.Stored())[c.Side].Lang)
	return ask(c, "rating", text, 0), err
}

func (r *Referee) standingsCommand(c *command.Call) (command.Result, error) {
	notices, err := r.Tournaments().StandingsAnswer(c.Game.Tx(), c.Game.Stored(), c.Side)
	return command.Result{Notices: notices}, err
}

func (r *Referee) ifCommand(c *command.Call) (command.Result, error) {
	verb, words, _ := ifmoves.Parse(c.Line)
	notices, err := ifmoves.Run(c.Game, c.Side, verb, words, c.Source, r.prefsOf(c.Game.Tx(), c.Game.Stored())[c.Side].Lang)
	return command.Result{Notices: notices}, err
}

// takebackCommand runs a TAKEBACK line; an accepted takeback takes commands out of the game,
// which is then what its log now replays to (Reloaded).
func (r *Referee) takebackCommand(c *command.Call) (command.Result, error) {
	a := c.Game
	notices, changed, err := r.takeback(a, c.Side, takebackVerb(c.Line), c.Source)
	res := command.Result{Notices: notices}
	if err == nil && changed {
		res.Reloaded, err = r.openGame(a.Tx(), a.Stored().ID)
	}
	return res, err
}

// leaveCommand is a player's LEAVE.
func (r *Referee) leaveCommand(c *command.Call) (command.Result, error) {
	notices, err := r.keeper().Leave(c.Game.Tx(), c.Game.Stored(), c.Side, c.Args)
	return command.Result{Notices: notices}, err
}
