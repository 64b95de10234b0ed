// Package play is a game being played: the aggregate (Game: the only way a game changes or
// ends, in the store transaction of the mail or tick that changes it) and what its players
// are told (Outcome: what one mail or tick does for each player; Send renders it into their
// mail through package outbox, with the whole game revealed to both when it ended). Which
// commands a mail holds and who may send them is the referee's. The end of a rated game
// updates its players' ratings in the same transaction (rating.go says which games are
// rated and how: one game a Glicko-2 period, the RD grown by the days between).
package play

import (
	"time"

	"github.com/refereed/refereed/chess"

	"github.com/refereed/refereed/archive"
	"github.com/refereed/refereed/parser"
	"github.com/refereed/refereed/rating"
	"github.com/refereed/refereed/referee/outbox"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/variant"
)

// Game is the aggregate: a game loaded for playing in one store transaction. Its stored
// record, its event log and the live game change together, and only here: Submit applies a
// command (a player's, the organizer's, the clock's) and logs what the game accepted;
// Settle and End record how the game ended; Finish tells the players. Everything else
// reads it.
//
// Its fields are its own: callers read the game through Read (the game as read: its stored
// record, variant, live game, clock) and its shorthands, and change it only through the
// methods here (write_test.go in package referee fails on any other code that writes a game).
type Game struct {
	game *archive.Game
	tx   *store.Tx
	// rating is the rating system's constants (the zero value: the defaults); changes, set
	// by End when the game was rated, the players' ratings before and after it.
	rating  rating.Config
	changes *[2]RatingChange
	// notRated says that the game, rated, ended in a way that is not rated (without play).
	notRated bool
}

// Open loads game id for playing in tx, rated (if it is) with the constants cfg.
func Open(tx *store.Tx, id uint64, cfg rating.Config) (*Game, error) {
	l, err := archive.Load(tx, id)
	if err != nil {
		return nil, err
	}
	return &Game{game: l, tx: tx, rating: cfg}, nil
}

// Read is the game as read in its transaction: its stored record, variant, live game, clock,
// takeback state. For reading: it changes through the aggregate's methods alone.
func (a *Game) Read() *archive.Game { return a.game }

// Stored is the game's stored record (Read().Stored), for reading.
func (a *Game) Stored() *store.Game { return a.game.Stored }

// Live is the live game its log replays to (Read().Live), for reading: commands go through
// Submit.
func (a *Game) Live() variant.Game { return a.game.Live }

// Variant is the game's variant (Read().Variant).
func (a *Game) Variant() *variant.Variant { return a.game.Variant }

// Tx is the store transaction the game is loaded in.
func (a *Game) Tx() *store.Tx { return a.tx }

// Rating is the rating system's constants the game is rated with.
func (a *Game) Rating() rating.Config { return a.rating }

// Submit applies cmd to the live game and appends to its event log what the game logged,
// from source (an inbox key, "organizer", "deadline"). A rejection changes nothing.
func (a *Game) Submit(cmd variant.Command, source string) ([]variant.Notice, error) {
	before := len(a.game.Live.Log())
	notices, err := a.game.Live.Submit(cmd)
	if err != nil {
		return nil, err
	}
	return notices, a.logSince(before, source)
}

// logSince appends to the event log the commands the live game accepted since its log held
// n of them.
func (a *Game) logSince(n int, source string) error {
	for _, cmd := range a.game.Live.Log()[n:] {
		if _, err := a.tx.AppendEvent(a.game.Stored.ID, store.Event{Side: int(cmd.By), Text: cmd.Text, Source: source}); err != nil {
			return err
		}
	}
	return nil
}

// Settle records in the store that the live game has ended, when it has and the store does
// not say so yet: its status, result and reason, with detail after the reason when given (the
// organizer's why). It reports whether the game ended now.
func (a *Game) Settle(detail string) (bool, error) {
	res := a.game.Live.Outcome()
	if !res.Over() || a.game.Stored.Over() {
		return false, nil
	}
	reason := res.Reason
	if detail != "" {
		reason += ": " + detail // the archive keeps why (export's Annotator, SHOW)
	}
	return true, a.End(res.Result, reason)
}

// End records that the game ended with result for reason, whatever the live game says (a
// withdrawal from a tournament is scored by the tournament's rule).
func (a *Game) End(result, reason string) error {
	MarkOver(a.game.Stored, result, reason)
	if err := a.rate(result); err != nil {
		return err
	}
	if err := a.tx.PutGame(a.game.Stored); err != nil {
		return err
	}
	return a.tx.SetDue(a.game.Stored.ID, time.Time{}) // nothing falls due in a game over

}

// MarkOver writes a game's end into its stored record: the one place a game's status changes.
func MarkOver(sg *store.Game, result, reason string) {
	sg.Status, sg.Result, sg.Reason = store.Over, result, reason
}

// Finish mails the players what out holds (msg: the sender's mail, nil for the referee's own
// doing; kind: "update", "deadline" ...): when the game ended now, the whole game to both,
// and then onEnd (its tournament's standings: they come after the mail that says the game
// ended). A rated game's mail says both players' new ratings.
func Finish(w *outbox.Writer, a *Game, out *Outcome, msg *parser.Message, endedNow bool, kind string, onEnd func(tx *store.Tx, sg *store.Game) error) error {
	if endedNow && a.changes != nil {
		for _, s := range []chess.Color{chess.White, chess.Black} {
			out.Paras[s] = append(out.Paras[s], ratingPara(a.game.Stored, a.game.Variant, a.changes, s, out.Lang[s]))
		}
	}
	if endedNow && a.notRated {
		for _, s := range []chess.Color{chess.White, chess.Black} {
			out.Tell(s, "not-rated", nil)
		}
	}
	if err := Send(w, a.tx, a.game, out, msg, endedNow, kind); err != nil {
		return err
	}
	if !endedNow || onEnd == nil {
		return nil
	}
	return onEnd(a.tx, a.game.Stored)
}
