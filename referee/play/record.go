package play

import (
	"fmt"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/referee/outbox"
	"github.com/refereed/refereed/store"
)

// The stored game's record besides its play: created, its players' mails counted and
// remembered, their bounces, a restore, a reminder sent, a player replaced. Each is written
// here, in the transaction of the mail or tick that does it; nothing outside this package
// writes a game (write_test.go in package referee checks it).

// Create stores the new game sg in tx.
func Create(tx store.Games, sg *store.Game) error { return tx.CreateGame(sg) }

// Mail writes l to a player of the stored game sg (of the game named variant) into the
// outbox through w: the game counts the mail (its number threads it) and remembers its
// lines (what a reply quotes).
func Mail(w *outbox.Writer, tx *store.Tx, sg *store.Game, variant string, l outbox.Letter) error {
	if err := queue(w, tx, sg, variant, l); err != nil {
		return err
	}
	return tx.PutGame(sg)
}

// queue is Mail but for storing sg: the caller does, once for all the mails it queues.
func queue(w *outbox.Writer, tx *store.Tx, sg *store.Game, variant string, l outbox.Letter) error {
	side := l.Side
	sg.Players[side].Mails++
	m, text, err := w.Game(tx, sg, variant, l)
	if err != nil {
		return err
	}
	sg.Players[side].Sent = outbox.RememberSent(sg.Players[side].Sent, text)
	_, err = tx.Enqueue(m)
	return err
}

// NoteBounce counts a mail to side's player of sg that came back (why: when and what).
func NoteBounce(tx *store.Tx, sg *store.Game, side chess.Color, why string) error {
	p := &sg.Players[side]
	p.Bounces++
	p.LastBounce = fmt.Sprintf("%s: %s", tx.Now.UTC().Format("2006-01-02 15:04"), why)
	return tx.PutGame(sg)
}

// NoteRestored numbers sg's next mails apart from those sent since the backup the store was
// put back from.
func NoteRestored(tx store.Games, sg *store.Game) error {
	sg.Restores++
	return tx.PutGame(sg)
}

// Record appends to the game's log an event that is not a command of the game's (an
// extension, an IF sequence stated, a takeback), from source.
func (a *Game) Record(e store.Event, source string) error {
	e.Source = source
	_, err := a.tx.AppendEvent(a.game.Stored.ID, e)
	return err
}

// Reminded notes that the player the game waits for was reminded of his deadline now.
func (a *Game) Reminded() error {
	a.game.Stored.Reminded = a.tx.Now
	return a.tx.PutGame(a.game.Stored)
}

// Replace hands side's place in the game, old's, to neu, who plays with the reply token tok:
// the game keeps who played it up to here (its log, its PGN, its pages), and logs the change.
func (a *Game) Replace(side chess.Color, old, neu, tok string) error {
	tx, sg := a.tx, a.game.Stored
	move := a.game.Live.Position().Fullmove
	if side == chess.White && !containsColor(a.game.Live.ToAct(), chess.White) {
		move++ // his successor's first move is White's of the next number
	}
	events, err := tx.Events(sg.ID)
	if err != nil {
		return err
	}
	commands := len(store.Effective(events))
	sg.Former = append(sg.Former, store.Former{Side: int(side), Address: sg.Players[side].Address, Commands: commands, Move: move, At: tx.Now})
	if err := a.Record(store.Event{Side: int(side), Kind: store.EventReplace, Text: "replace " + old + " " + neu}, "organizer"); err != nil {
		return err
	}
	sg.Players[side] = store.Player{Address: neu, Token: tok}
	return tx.PutGame(sg)
}

func containsColor(cs []chess.Color, c chess.Color) bool {
	for _, x := range cs {
		if x == c {
			return true
		}
	}
	return false
}
