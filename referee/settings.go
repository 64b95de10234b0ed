package referee

import (
	"strings"

	"github.com/refereed/refereed/lang"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/referee/command"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/templates"
	"github.com/refereed/refereed/variant"
)

// A player's settings (issue 25), kept with his address across all his games
// (store.PlayerRecord): SET NOTATION numeric|algebraic chooses how moves are shown to him
// (ICCF numeric notation, 5254 for e2-e4, where the game writes it: the game so far of every
// game but Conditional Chess, and the move news of orthodox chess, Progressive, Train Wreck
// and Kriegspiel (his own moves); he may send moves in either
// notation whatever he chose), SET BOARD ascii|unicode how boards are drawn (letters, or
// figurines for mail clients that show them). SET alone says them. Only his own mail
// changes: his opponent's does not depend on them.

// settingValues are the values each setting takes, the default first, and what the store
// keeps of each ("" for the default).
var settingValues = map[string][2]string{"NOTATION": {"algebraic", "numeric"}, "BOARD": {"ascii", "unicode"}}

// setCommand runs a player's SET [NOTATION|BOARD value]: what comes after it in his mail is
// said as he now asks.
func (r *Referee) setCommand(c *command.Call) (command.Result, error) {
	notices, err := r.set(c.Game.Tx(), c.Game.Stored(), c.Side, c.Args)
	return command.Result{Notices: notices, Prefs: len(c.Args) > 0}, err
}

// set runs SET [NOTATION|BOARD|LANGUAGE|PIECES value] of side's in game sg.
func (r *Referee) set(tx *store.Tx, sg *store.Game, side chess.Color, args []string) ([]variant.Notice, error) {
	rec, err := tx.PlayerRecord(sg.Players[side].Address)
	if err != nil {
		return nil, err
	}
	answer := func(done bool) []variant.Notice {
		notation, board := "algebraic", "ascii"
		if rec.Notation == "numeric" {
			notation = "numeric"
		}
		if rec.Board == "unicode" {
			board = "unicode"
		}
		// Said in the language he now reads (the notice is worded when his mail is).
		p := r.prefsOf(tx, sg)[side]
		letters := p.Pieces.Letters()
		a := templates.Args{"Done": done, "Notation": notation, "Board": board, "Language": p.Lang.Name(),
			"Letters": strings.Join(letters[:], " ")}
		// One mail says the settings once, as they stand after its last SET.
		return []variant.Notice{{To: variant.To(side), Kind: "settings", Words: "settings-answer", Args: a, Supersedes: "settings"}}
	}
	if len(args) == 0 {
		return answer(false), nil
	}
	name := strings.ToUpper(args[0])
	if len(args) != 2 {
		return nil, variant.Refuse("set-form", nil)
	}
	switch name {
	case "LANGUAGE", "PIECES":
		value := strings.ToLower(args[1])
		if name == "PIECES" && (value == "language" || value == "default") {
			rec.Pieces = ""
			break
		}
		t, err := lang.Parse(value)
		if err != nil {
			known := make([]string, 0, len(lang.All()))
			for _, l := range lang.All() {
				known = append(known, string(l)+" ("+l.Name()+")")
			}
			return nil, variant.Refuse("set-language", templates.Args{"Value": args[1], "Known": strings.Join(known, ", ")})
		}
		if name == "LANGUAGE" {
			rec.Language = string(t)
		} else {
			rec.Pieces = string(t)
		}
	default:
		values, ok := settingValues[name]
		if !ok {
			return nil, variant.Refuse("set-form", nil)
		}
		value := strings.ToLower(args[1])
		if value != values[0] && value != values[1] {
			return nil, variant.Refuse("set-value", templates.Args{"Name": name, "A": values[0], "B": values[1]})
		}
		kept := value
		if value == values[0] {
			kept = ""
		}
		if name == "NOTATION" {
			rec.Notation = kept
		} else {
			rec.Board = kept
		}
	}
	if err := tx.PutPlayerRecord(rec); err != nil {
		return nil, err
	}
	return answer(true), nil
}
