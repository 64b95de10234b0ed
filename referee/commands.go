package referee

import (
	"strings"

	"github.com/refereed/refereed/referee/command"
	"github.com/refereed/refereed/referee/ifmoves"
	"github.com/refereed/refereed/referee/play"
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
			Help: "BOARD            your current view"},
		&cmd{Word: "HISTORY", Bare: true, Who: command.Player, Query: true, Handle: (*Referee).historyCommand,
			Help: "HISTORY          everything you have been told in this game"},
		&cmd{Word: "RESIGN", Who: command.Player, // the game's (variant.ResolveCommon)
			Help: "RESIGN           resign the game"},
		&cmd{Word: "DRAW", Args: "OFFER|ACCEPT|DECLINE|WITHDRAW", Who: command.Player, // the game's
			Help: "DRAW OFFER       offer a draw; it stands until answered, or DRAW WITHDRAW\n" +
				"DRAW ACCEPT      accept your opponent's offer; DRAW DECLINE declines it"},
		&cmd{Word: "RATING", Aliases: []string{"RATINGS"}, Bare: true, Who: command.Player, Query: true, Handle: (*Referee).ratingCommand,
			Help: "RATING           your ratings: one for each variant you played rated games of"},
		&cmd{Word: "SET", Args: "[NOTATION|BOARD value]", Who: command.Player, Handle: (*Referee).setCommand,
			Help: "SET              your settings, in all your games: SET NOTATION numeric shows\n" +
				"                 moves in ICCF numeric notation (5254 is e2-e4), SET BOARD\n" +
				"                 unicode draws boards with figurines"},
		&cmd{Word: "PGN", Bare: true, Who: command.Player, Query: true, Handle: (*Referee).pgnCommand,
			Help: "PGN              the game so far, as you know it, as a PGN file"},
		&cmd{Word: "LEAVE", Args: "first-day [last-day]", Who: command.Player, OneAMail: "leave-one-a-mail", Handle: (*Referee).leaveCommand,
			Help: "LEAVE d1 d2      leave: the clocks of all your games stop from day d1 to d2\n" +
				"                 (LEAVE 2027-01-02 2027-01-10), within your yearly allowance"},
		&cmd{Word: "TAKEBACK", Aliases: []string{"UNDO"}, Args: "[OFFER|ACCEPT|DECLINE|WITHDRAW]", Who: command.Player,
			Match: func(line string) bool { return takebackVerb(line) != "" }, Handle: (*Referee).takebackCommand,
			In: func(v *variant.Variant, _ bool) bool { return v.Open },
			Help: "TAKEBACK         ask to take back your last turn, before your opponent\n" +
				"                 replies; TAKEBACK ACCEPT, DECLINE or WITHDRAW answer it"},
		&cmd{Word: "IF", Args: "moves...|LIST|CLEAR", Who: command.Player,
			Match: func(line string) bool { _, _, ok := ifmoves.Parse(line); return ok }, Handle: (*Referee).ifCommand,
			In: func(v *variant.Variant, _ bool) bool { return v.Conditionals },
			Help: "IF Nf6 e5        after your move: if your opponent plays Nf6, e5 is played\n" +
				"                 at once; more pairs may follow (IF Nf6 e5 d6 exd6), and\n" +
				"                 several IF lines are alternatives. IF LIST shows them,\n" +
				"                 IF CLEAR drops them; your opponent is not told of them"},
		&cmd{Word: "STANDINGS", Bare: true, Who: command.Player, Query: true, Handle: (*Referee).standingsCommand,
			In:   func(_ *variant.Variant, inTournament bool) bool { return inTournament },
			Help: "STANDINGS        the tournament's crosstable"},

		// An organizer's, from his tournament's organizer address (or the command line).
		&cmd{Word: "STANDINGS", Who: command.Organizer, Handle: (*Referee).organizerStandings,
			Help: "STANDINGS  the crosstable"},
		&cmd{Word: "GAMES", Who: command.Organizer, Handle: (*Referee).gamesCommand,
			Help: "GAMES  the games by round, with their numbers"},
		&cmd{Word: "ADJUDICATE", Args: "<game> 1-0|0-1|1/2-1/2 <reason>", Who: command.Organizer, Handle: (*Referee).adjudicateCommand,
			Help: "ADJUDICATE 12 1-0 why  end game 12: 1-0, 0-1 or 1/2-1/2, with your reason"},
		&cmd{Word: "EXTEND", Args: "<game> <days> [white|black]", Who: command.Organizer, Handle: (*Referee).extendCommand,
			Help: "EXTEND 12 5 [white|black]  5 days more in game 12 (by default for the player to move)"},
		&cmd{Word: "REPLACE", Args: "<old address> <new address>", Who: command.Organizer, Handle: (*Referee).replaceCommand,
			Help: "REPLACE old new  a new player takes over the old one's games still going"},
		&cmd{Word: "WITHDRAW", Args: "<player address>", Who: command.Organizer, Handle: (*Referee).withdrawCommand,
			Help: "WITHDRAW player  the player leaves the tournament"},
		&cmd{Word: "PAUSE", Aliases: []string{"RESUME"}, Who: command.Organizer, Handle: (*Referee).pauseCommand,
			Help: "PAUSE, RESUME  stop, then start again, every clock of the tournament"},
		&cmd{Word: "LEAVE", Args: "<player address> <first day> <last day>", Who: command.Organizer, Handle: (*Referee).organizerLeaveCommand,
			Help: "LEAVE player 2027-01-02 2027-01-10  leave for a player, beyond his allowance if need be"},
		&cmd{Word: "SHOW", Args: "<game>", Who: command.Organizer, Handle: (*Referee).showCommand,
			Help: "SHOW 12  the whole of game 12, once it is over"},
		&cmd{Word: "HELP", Aliases: []string{"?"}, Who: command.Organizer, Lists: true,
			Help: "HELP  this list"},

		// Anyone's, at the referee's bare address (bare.go, challenge.go).
		&cmd{Word: "GAMES", Bare: true, Who: command.Anyone, Query: true, Handle: (*Referee).bareGamesCommand,
			Help: "GAMES                your games, each with the address that plays it"},
		&cmd{Word: "CHALLENGE", Args: "<address>|ANY <game> [options] | CANCEL <number>", Who: command.Anyone, Handle: (*Referee).challengeCommand,
			Help: "CHALLENGE bob@example.org kriegspiel  invite a player to a game; options\n" +
				"                     follow the game: white or black, rated, time=30d+3d or\n" +
				"                     deadline=3d, the game's own as NAME=VALUE\n" +
				"CHALLENGE ANY orthodox  an open challenge: anyone may take it\n" +
				"CHALLENGE CANCEL 12  withdraw your challenge #12"},
		&cmd{Word: "CHALLENGES", Bare: true, Who: command.Anyone, Query: true, Handle: (*Referee).challengesCommand,
			Help: "CHALLENGES           the open challenges, yours, and those to you"},
		&cmd{Word: "ACCEPT", Args: "[number]", Who: command.Anyone, Handle: (*Referee).acceptCommand,
			Help: "ACCEPT 12            take challenge #12: the game begins"},
		&cmd{Word: "DECLINE", Args: "[number]", Who: command.Anyone, Handle: (*Referee).declineCommand,
			Help: "DECLINE 12           refuse challenge #12 to you"},
		&cmd{Word: "NO", Args: "CHALLENGES", Who: command.Anyone, Match: isWords("NO", "CHALLENGES"), Handle: (*Referee).noChallengesCommand,
			Help: "NO CHALLENGES        no more invitations to you; ALLOW CHALLENGES undoes it"},
		&cmd{Word: "ALLOW", Args: "CHALLENGES", Who: command.Anyone, Match: isWords("ALLOW", "CHALLENGES"), Handle: (*Referee).allowChallengesCommand,
			Help: "ALLOW CHALLENGES     invitations to you again, from everyone"},
		&cmd{Word: "HELP", Aliases: []string{"?"}, Bare: true, Who: command.Anyone, Query: true, Lists: true,
			Help: "HELP                 this list"},
	}
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
	return ask(c, "board", say("board", nil), variant.ShowView), nil
}

func (r *Referee) historyCommand(c *command.Call) (command.Result, error) {
	h, err := r.history(c.Game, c.Side)
	if err != nil {
		return command.Result{}, err
	}
	return ask(c, "history", h, 0), nil
}

func (r *Referee) pgnCommand(c *command.Call) (command.Result, error) {
	return ask(c, "pgn", say("pgn", nil), 0), nil
}

func (r *Referee) ratingCommand(c *command.Call) (command.Result, error) {
	a := c.Game
	text, err := play.RatingsAnswer(a.Tx(), a.Rating(), a.Stored.Players[c.Side].Address)
	return ask(c, "rating", text, 0), err
}

func (r *Referee) standingsCommand(c *command.Call) (command.Result, error) {
	notices, err := r.standingsAnswer(c.Game.Tx(), c.Game.Stored, c.Side)
	return command.Result{Notices: notices}, err
}

func (r *Referee) ifCommand(c *command.Call) (command.Result, error) {
	verb, words, _ := ifmoves.Parse(c.Line)
	notices, err := ifmoves.Run(c.Game, c.Side, verb, words, c.Source)
	return command.Result{Notices: notices}, err
}

// takebackCommand runs a TAKEBACK line; an accepted takeback takes commands out of the game,
// which is then what its log now replays to (Reloaded).
func (r *Referee) takebackCommand(c *command.Call) (command.Result, error) {
	a := c.Game
	notices, changed, err := r.takeback(a, c.Side, takebackVerb(c.Line), c.Source)
	res := command.Result{Notices: notices}
	if err == nil && changed {
		res.Reloaded, err = r.openGame(a.Tx(), a.Stored.ID)
	}
	return res, err
}

// leaveCommand is a player's LEAVE.
func (r *Referee) leaveCommand(c *command.Call) (command.Result, error) {
	notices, err := r.keeper().Leave(c.Game.Tx(), c.Game.Stored, c.Side, c.Args)
	return command.Result{Notices: notices}, err
}
