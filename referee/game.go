package referee

import (
	"github.com/refereed/refereed/archive"
	"github.com/refereed/refereed/parser"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/variant"
)

// game is the aggregate: a game loaded for playing in one store transaction. Its stored
// record, its event log and the live game change together, and only here: submit applies a
// command (a player's, the organizer's, the clock's) and logs what the game accepted;
// settle records how the game ended; finish tells the players, and a finished game's
// tournament its standings. Everything else reads it.
type game struct {
	*archive.Game
	tx *store.Tx
}

// openGame loads game id for playing in tx.
func openGame(tx *store.Tx, id uint64) (*game, error) {
	l, err := archive.Load(tx, id)
	if err != nil {
		return nil, err
	}
	return &game{Game: l, tx: tx}, nil
}

// submit applies cmd to the live game and appends to its event log what the game logged,
// from source (an inbox key, "organizer", "deadline"). A rejection changes nothing.
func (a *game) submit(cmd variant.Command, source string) ([]variant.Notice, error) {
	before := len(a.Live.Log())
	notices, err := a.Live.Submit(cmd)
	if err != nil {
		return nil, err
	}
	return notices, a.logSince(before, source)
}

// logSince appends to the event log the commands the live game accepted since its log held
// n of them.
func (a *game) logSince(n int, source string) error {
	for _, cmd := range a.Live.Log()[n:] {
		if _, err := a.tx.AppendEvent(a.Stored.ID, store.Event{Side: int(cmd.By), Text: cmd.Text, Source: source}); err != nil {
			return err
		}
	}
	return nil
}

// settle records in the store that the live game has ended, when it has and the store does
// not say so yet: its status, result and reason, with detail after the reason when given (the
// organizer's why). It reports whether the game ended now.
func (a *game) settle(detail string) (bool, error) {
	res := a.Live.Outcome()
	if !res.Over() || a.Stored.Over() {
		return false, nil
	}
	reason := res.Reason
	if detail != "" {
		reason += ": " + detail // the archive keeps why (export's Annotator, SHOW)
	}
	return true, a.end(res.Result, reason)
}

// end records that the game ended with result for reason, whatever the live game says (a
// withdrawal from a tournament is scored by the tournament's rule).
func (a *game) end(result, reason string) error {
	markOver(a.Stored, result, reason)
	return a.tx.PutGame(a.Stored)
}

// markOver writes a game's end into its stored record: the one place a game's status changes.
func markOver(sg *store.Game, result, reason string) {
	sg.Status, sg.Result, sg.Reason = store.Over, result, reason
}

// finish mails the players what out holds (msg: the sender's mail, nil for the referee's own
// doing; kind: "update", "deadline" ...): when the game ended now, the whole game to both,
// and then its tournament's standings (they come after the mail that says the game ended).
func (r *Referee) finish(a *game, out *outcome, msg *parser.Message, endedNow bool, kind string) error {
	if err := r.send(a.tx, a.Game, out, msg, endedNow, kind); err != nil {
		return err
	}
	if !endedNow {
		return nil
	}
	return r.tournamentGameOver(a.tx, a.Stored)
}
