package play

import (
	"path/filepath"
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/rating"
	"github.com/refereed/refereed/referee/outbox"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/variant"
	_ "github.com/refereed/refereed/variant/orthodox"
)

// newGame is a store with one orthodox game in progress.
func newGame(t *testing.T) (*store.DB, uint64) {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "p.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	var id uint64
	err = db.Update(func(tx *store.Tx) error {
		sg := &store.Game{Variant: "orthodox", Players: [2]store.Player{{Address: "ann@example.com", Token: "aaaaaaaaaa"}, {Address: "bob@example.net", Token: "bbbbbbbbbb"}}}
		err := Create(tx, sg)
		id = sg.ID
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return db, id
}

// The aggregate plays and logs together: an accepted command is logged from its source, a
// refused one changes nothing; an event of its own is logged; the end is written to the
// stored game; a mail is counted and its lines kept; a bounce is counted.
func TestAggregate(t *testing.T) {
	db, id := newGame(t)
	err := db.Update(func(tx *store.Tx) error {
		a, err := Open(tx, id, rating.Config{})
		if err != nil {
			return err
		}
		if _, err := a.Submit(variant.Command{By: chess.White, Text: "move e2e4"}, "k1"); err != nil {
			return err
		}
		if _, err := a.Submit(variant.Command{By: chess.White, Text: "move d2d4"}, "k2"); !variant.IsRejection(err) {
			t.Errorf("White's second move: %v, want a rejection", err)
		}
		if err := a.Record(store.Event{Side: 0, Kind: store.EventExtend, Days: 2, Text: "extend white 2"}, "organizer"); err != nil {
			return err
		}
		events, err := tx.Events(id)
		if err != nil || len(events) != 2 || events[0].Text != "move e2e4" || events[0].Source != "k1" || events[1].Source != "organizer" {
			t.Errorf("log: %+v %v", events, err)
		}
		w := &outbox.Writer{Address: "referee@example.org"}
		if err := Mail(w, tx, a.Stored(), a.Variant().Name, outbox.Letter{Side: chess.Black, Kind: "update", What: "your move", Paras: []string{"White played e4."}}); err != nil {
			return err
		}
		if err := NoteBounce(tx, a.Stored(), chess.White, "550 no such user"); err != nil {
			return err
		}
		if err := a.End("0-1", "White resigned"); err != nil {
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	db.View(func(tx *store.Tx) error {
		sg, err := tx.Game(id)
		if err != nil {
			t.Fatal(err)
		}
		if !sg.Over() || sg.Result != "0-1" || sg.Reason != "White resigned" {
			t.Errorf("the end not written: %+v", sg)
		}
		if sg.Players[1].Mails != 1 || len(sg.Players[1].Sent) == 0 || sg.Players[0].Bounces != 1 {
			t.Errorf("mails %d, lines kept %d, bounces %d", sg.Players[1].Mails, len(sg.Players[1].Sent), sg.Players[0].Bounces)
		}
		if out, _ := tx.Outbox(); len(out) != 1 || out[0].To[0] != "bob@example.net" {
			t.Errorf("outbox: %v", out)
		}
		return nil
	})
}
