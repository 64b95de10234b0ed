package web

import (
	"net/http"

	"github.com/refereed/refereed/referee/clocks"
	"github.com/refereed/refereed/store"
)

// /challenges: the open challenges to anyone (issue 37), oldest first: who made each (by
// name, as every page names players), the game and its terms, the challenger's colour, until
// when, and how to take it by mail. Challenges to a named player are between the two of them:
// not shown.

// ChallengePageSize is the most challenges /challenges lists.
const ChallengePageSize = 100

type challengeRow struct {
	ID      uint64
	From    string
	Terms   string
	Colour  string // the challenger's: "White", "Black" or "by lot"
	Expires string
}

type challengesPage struct {
	Title string
	Rows  []challengeRow
	Total int
}

func (h *Handler) challenges(w http.ResponseWriter, r *http.Request) error {
	pg := challengesPage{Title: say(r, "open-challenges", nil)}
	if err := h.db.View(func(tx *store.Tx) error {
		cs, n, err := tx.OpenChallenges(0, ChallengePageSize)
		pg.Total = n
		for _, c := range cs {
			colour := "by lot"
			switch c.Colour {
			case "white":
				colour = "White"
			case "black":
				colour = "Black"
			}
			pg.Rows = append(pg.Rows, challengeRow{ID: c.ID, From: Name(c.From), Terms: c.Terms, Colour: colour, Expires: clocks.When(c.Expires)})
		}
		return err
	}); err != nil {
		return err
	}
	return render(w, r, "challenges", pg)
}
