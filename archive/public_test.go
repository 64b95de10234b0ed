package archive

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/refereed/refereed/store"
)

// TestPublic: the public projection shows of a game in progress only what its variant
// declares (a Kriegspiel game: no board, no moves), of a finished one the whole truth at the
// step asked for, and no step its log does not have.
func TestPublic(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "p.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ids := map[string]uint64{}
	err = db.Update(func(tx *store.Tx) error {
		for _, c := range []struct {
			name, key string
			status    store.Status
			moves     []string
		}{
			{"krieg", "kriegspiel", store.Active, []string{"move e2e4"}},
			{"ortho", "orthodox", store.Active, []string{"move e2e4"}},
			{"over", "orthodox", store.Over, []string{"move e2e4", "move e7e5", "resign"}},
		} {
			sg := &store.Game{Variant: c.key, Status: c.status, Players: [2]store.Player{{Address: "a@x", Token: c.name + "a"}, {Address: "b@x", Token: c.name + "b"}}}
			if c.status == store.Over {
				sg.Result, sg.Reason = "0-1", "White resigned"
			}
			if err := tx.CreateGame(sg); err != nil {
				return err
			}
			for i, m := range c.moves {
				if _, err := tx.AppendEvent(sg.ID, store.Event{Side: i % 2, Text: m}); err != nil {
					return err
				}
			}
			ids[c.name] = sg.ID
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	name := func(s string) string { return s }
	err = db.View(func(tx *store.Tx) error {
		p, err := Public(tx, ids["krieg"], -1, name)
		if err != nil {
			return err
		}
		if p.Finished || !p.Hidden || p.Movetext != "" || len(p.Steps) != 0 {
			t.Errorf("Kriegspiel in progress shows too much: %+v", p)
		}
		for _, b := range p.Boards {
			if b.Title == "" {
				t.Errorf("Kriegspiel in progress shows the position")
			}
		}
		p, err = Public(tx, ids["ortho"], 0, name)
		if err != nil {
			return err
		}
		if p.Hidden || len(p.Boards) != 1 || !strings.Contains(p.Movetext, "e4") || p.Turn == "" {
			t.Errorf("orthodox in progress: %+v", p)
		}
		p, err = Public(tx, ids["over"], 1, name)
		if err != nil {
			return err
		}
		if !p.Finished || p.Step != 1 || len(p.Steps) != 3 || p.Result != "0-1" || len(p.Boards) == 0 {
			t.Errorf("finished game at step 1: %+v", p)
		}
		if _, err := Public(tx, ids["over"], 4, name); !errors.Is(err, ErrNoStep) {
			t.Errorf("step 4 of 3: %v, want ErrNoStep", err)
		}
		if _, err := Public(tx, 999, -1, name); !errors.Is(err, ErrNoGame) {
			t.Errorf("no game: %v, want ErrNoGame", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
