package referee

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/refereed/refereed/archive"
	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/referee/clocks"
	"github.com/refereed/refereed/referee/outbox"
	"github.com/refereed/refereed/referee/play"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/templates"
	"github.com/refereed/refereed/variant"
)

// After a restore from a backup: the games' mails numbered apart, the players told.

// AfterRestore is run once the store was put back from a backup taken at taken: every game
// numbers its next mails apart from those sent since (see messageID), and each player of a
// game in progress is told that what he sent after the backup was lost, and shown where his
// game stands. It returns how many mails it queued. It works through the tournaments and
// games by id, restoreBatch to a transaction, so that a league's restore holds one batch in
// memory, not the store: one that fails half-way is begun again by restoring the backup again.
func (r *Referee) AfterRestore(taken time.Time) (int, error) {
	var tournaments, games int
	if err := r.DB.View(func(tx *store.Tx) error {
		var err error
		if tournaments, err = tx.TournamentCount(); err != nil {
			return err
		}
		games, err = tx.GameCount()
		return err
	}); err != nil {
		return 0, fmt.Errorf("after restore: %w", err)
	}
	for lo := 1; lo <= tournaments; lo += restoreBatch {
		err := r.DB.Update(func(tx *store.Tx) error {
			for id := lo; id < lo+restoreBatch && id <= tournaments; id++ {
				t, err := tx.Tournament(uint64(id))
				if errors.Is(err, store.ErrNotFound) {
					continue
				} else if err != nil {
					return err
				}
				t.Restores++
				if err := tx.PutTournament(t); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return 0, err
		}
	}
	queued := 0
	for lo := 1; lo <= games; lo += restoreBatch {
		n := 0
		err := r.DB.Update(func(tx *store.Tx) error {
			n = 0 // a transaction run again (PostgreSQL) counts again
			for id := lo; id < lo+restoreBatch && id <= games; id++ {
				sg, err := tx.Game(uint64(id))
				if errors.Is(err, store.ErrNotFound) {
					continue
				} else if err != nil {
					return err
				}
				q, err := r.restored(tx, sg, taken)
				if err != nil {
					return err
				}
				n += q
			}
			return nil
		})
		if err != nil {
			return queued, err
		}
		queued += n
	}
	return queued, nil
}

// restoreBatch is how many games (or tournaments) AfterRestore handles in one transaction.
const restoreBatch = 256

// restored numbers game sg's next mails apart from those sent since the backup taken at
// taken and, if it is in progress, tells both players: it returns how many mails it queued.
func (r *Referee) restored(tx *store.Tx, sg *store.Game, taken time.Time) (int, error) {
	if err := play.NoteRestored(tx, sg); err != nil {
		return 0, err
	}
	if sg.Over() {
		return 0, nil
	}
	l, err := archive.Load(tx, sg.ID)
	if err != nil {
		return 0, err
	}
	queued := 0
	prefs := r.prefsOf(tx, sg)
	for _, side := range []chess.Color{chess.White, chess.Black} {
		say := func(kind string, args templates.Args) string {
			return templates.SayIn(prefs[side].Lang, "", kind, args)
		}
		what := say("subject/restored", nil)
		if slices.Contains(l.Live.ToAct(), side) {
			what = say("subject/your-move", templates.Args{"Offered": false, "Turn": play.TurnLabelIn(l.Live, side, prefs[side].Lang)})
		}
		if err := r.enqueue(tx, l.Stored, l.Variant, outbox.Letter{Side: side, Kind: "update", What: what,
			Paras:   []string{say("restored", templates.Args{"When": clocks.When(taken)})},
			Diagram: play.Diagram(l.Variant, l.Live, side, variant.ShowView, prefs[side]), Lang: prefs[side].Lang}); err != nil {
			return 0, err
		}
		queued++
	}
	return queued, nil
}
