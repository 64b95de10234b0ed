package web

import (
	"strings"
	"testing"
	"time"

	"github.com/refereed/refereed/store"
)

// /challenges lists the open challenges to anyone, by the challenger's name (never his
// address), with their terms; a challenge to a named player, and a closed one, are not shown.
func TestChallengesPage(t *testing.T) {
	w := newWorld(t)
	if err := w.db.Update(func(tx *store.Tx) error {
		for _, c := range []store.Challenge{
			{From: ann, Variant: "kriegspiel", Terms: "Kriegspiel, 3 days a move", Colour: "white", Expires: fixedNow.Add(7 * 24 * time.Hour)},
			{From: bob, To: "carl@example.com", Variant: "orthodox", Terms: "Orthodox chess, secret terms", Expires: fixedNow.Add(time.Hour)},
			{From: "dan@example.com", Variant: "progressive", Terms: "Progressive Chess, closed", Expires: fixedNow.Add(time.Hour), State: store.ChallengeCancelled},
		} {
			if err := tx.CreateChallenge(&c); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	code, _, body := get(t, New(w.db), "/challenges")
	if code != 200 {
		t.Fatalf("/challenges: %d", code)
	}
	mustHave(t, body, `<td>1</td><td>ann</td><td>Kriegspiel, 3 days a move</td><td>White</td><td>Sun 2026-11-29 12:00 UTC</td>`, "ACCEPT")
	for _, not := range []string{"ann@", "secret terms", "carl", "closed", "bob"} {
		if strings.Contains(body, not) {
			t.Errorf("/challenges shows %q:\n%s", not, body)
		}
	}
	_, _, body = get(t, New(newWorld(t).db), "/challenges")
	mustHave(t, body, "No open challenge.")
}

func mustHave(t *testing.T, body string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(body, w) {
			t.Errorf("page lacks %q:\n%s", w, body)
		}
	}
}
