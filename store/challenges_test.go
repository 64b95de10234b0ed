package store

import (
	"errors"
	"slices"
	"testing"
	"time"
)

func TestChallenges(t *testing.T) { each(t, testChallenges) }

// The store keeps every challenge, and lists the open ones only: to anyone, by address (made
// or invited to, in any case), by expiry; a closed one leaves every list, and Copy carries all.
func testChallenges(t *testing.T, db *DB, _ string) {
	day := 24 * time.Hour
	base := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
	make := []Challenge{
		{From: "ann@x", To: "bob@x", Variant: "kriegspiel", Terms: "Kriegspiel", Expires: base.Add(3 * day)},
		{From: "ann@x", Variant: "orthodox", Terms: "orthodox chess", Expires: base.Add(1 * day)},
		{From: "Carl@X", Variant: "progressive", Terms: "Progressive Chess", Expires: base.Add(2 * day), Flags: map[string]string{"rated": "true"}},
	}
	err := db.Update(func(tx *Tx) error {
		for i := range make {
			if err := tx.CreateChallenge(&make[i]); err != nil {
				return err
			}
		}
		return tx.PutTokenRef("tok", GameRef{Challenge: make[0].ID})
	})
	if err != nil {
		t.Fatal(err)
	}
	ids := func(cs []Challenge) []uint64 {
		var out []uint64
		for _, c := range cs {
			out = append(out, c.ID)
		}
		return out
	}
	check := func(when string, anyWant, annWant, carlWant, dueWant []uint64) {
		t.Helper()
		db.View(func(tx *Tx) error {
			open, n, err := tx.OpenChallenges(0, 10)
			if err != nil || n != len(anyWant) || !slices.Equal(ids(open), anyWant) {
				t.Errorf("%s: open to anyone %v (%d), %v; want %v", when, ids(open), n, err, anyWant)
			}
			ann, err := tx.ChallengesOf("ANN@x")
			if err != nil || !slices.Equal(ids(ann), annWant) {
				t.Errorf("%s: ann's %v, %v; want %v", when, ids(ann), err, annWant)
			}
			carl, _ := tx.ChallengesOf("carl@x")
			if !slices.Equal(ids(carl), carlWant) {
				t.Errorf("%s: carl's %v; want %v", when, ids(carl), carlWant)
			}
			due, err := tx.ExpiredChallenges(base.Add(2*day), 10)
			if err != nil || !slices.Equal(due, dueWant) {
				t.Errorf("%s: expired %v, %v; want %v", when, due, err, dueWant)
			}
			return nil
		})
	}
	check("made", []uint64{2, 3}, []uint64{1, 2}, []uint64{3}, []uint64{2, 3})
	db.View(func(tx *Tx) error {
		page, n, _ := tx.OpenChallenges(1, 1)
		if n != 2 || !slices.Equal(ids(page), []uint64{3}) {
			t.Errorf("second page of one: %v of %d", ids(page), n)
		}
		c, err := tx.Challenge(3)
		if err != nil || c.From != "Carl@X" || c.Flags["rated"] != "true" || !c.Open() || c.Created.IsZero() {
			t.Errorf("challenge 3 read back as %+v, %v", c, err)
		}
		if ref, err := tx.TokenRef("tok"); err != nil || ref.Challenge != 1 || ref.Game != 0 {
			t.Errorf("token of the invitation: %+v, %v", ref, err)
		}
		if _, err := tx.Challenge(9); !errors.Is(err, ErrNotFound) {
			t.Errorf("challenge 9: %v, want not found", err)
		}
		return nil
	})
	err = db.Update(func(tx *Tx) error {
		c, err := tx.Challenge(2)
		if err != nil {
			return err
		}
		c.State, c.Closed, c.Game, c.By = ChallengeAccepted, tx.Now, 7, "dan@x"
		return tx.PutChallenge(c)
	})
	if err != nil {
		t.Fatal(err)
	}
	check("2 accepted", []uint64{3}, []uint64{1}, []uint64{3}, []uint64{3})
	n := 0
	db.View(func(tx *Tx) error {
		return tx.EachChallenge(func(c *Challenge) error {
			n++
			if c.ID == 2 && (c.State != ChallengeAccepted || c.Game != 7) {
				t.Errorf("closed challenge read back as %+v", c)
			}
			return nil
		})
	})
	if n != 3 {
		t.Errorf("EachChallenge: %d challenges, want 3", n)
	}
}
