package web

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/refereed/refereed/archive"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/tournament"
)

// The tournament pages: /tournaments, a page of them, and /tournament/ID, one section's
// standings, crosstable and rounds.

type tournamentRow struct {
	ID       uint64
	Name     string
	Variant  string
	Players  int
	Rounds   int
	Finished bool
}

// TournamentPageSize is the most tournaments one page of /tournaments lists.
const TournamentPageSize = 50

type tournamentsPage struct {
	Title              string
	Rows               []tournamentRow
	Total, Page, Pages int
	Prev, Next         string
}

// tournaments is /tournaments ?page=N: the newest first, a page read by keys (issue 23: a page
// costs its tournaments' games, not every tournament's).
func (h *Handler) tournaments(w http.ResponseWriter, r *http.Request) error {
	page, err := strconv.Atoi(r.URL.Query().Get("page"))
	if err != nil || page < 1 {
		page = 1
	}
	pg := tournamentsPage{Title: say(r, "nav-tournaments", nil)}
	if err := h.db.View(func(tx *store.Tx) error {
		n, err := tx.TournamentCount()
		if err != nil {
			return err
		}
		pg.Total = n
		pg.Pages = max((pg.Total+TournamentPageSize-1)/TournamentPageSize, 1)
		page = min(page, pg.Pages)
		pg.Page = page
		ts, err := tx.LatestTournaments((page-1)*TournamentPageSize, TournamentPageSize)
		if err != nil {
			return err
		}
		for i := range ts {
			t := &ts[i]
			s, err := archive.Section(tx, t)
			if err != nil {
				return err
			}
			pg.Rows = append(pg.Rows, tournamentRow{ID: t.ID, Name: t.Name, Variant: t.Variant, Players: len(t.Players), Rounds: len(t.Rounds), Finished: s.Over()})
		}
		return nil
	}); err != nil {
		return err
	}
	if page > 1 {
		pg.Prev = "/tournaments?page=" + strconv.Itoa(page-1)
	}
	if page < pg.Pages {
		pg.Next = "/tournaments?page=" + strconv.Itoa(page+1)
	}
	return render(w, r, "tournaments", pg)
}

type standingRow struct {
	Rank        string
	Name        string
	For         string // whom he replaced in the seat ("dee"), if anyone
	Points, SB  string
	Wins, Games int
	Out         bool
}

type roundRows struct {
	Number int
	Bye    string
	Games  []gameRow
}

type tournamentPage struct {
	Title      string
	ID         uint64
	Name       string
	Variant    string
	Double     bool
	Finished   bool
	Crosstable string
	Standings  []standingRow
	Rounds     []roundRows
}

// tournament is /tournament/ID.
func (h *Handler) tournament(w http.ResponseWriter, r *http.Request, idText string) error {
	id, err := parseID(idText)
	if err != nil {
		return err
	}
	var pg tournamentPage
	if err := h.db.View(func(tx *store.Tx) error {
		t, err := tx.Tournament(id)
		if err != nil {
			return err
		}
		s, err := archive.Section(tx, t)
		if err != nil {
			return err
		}
		names := make([]string, len(t.Players))
		for i, a := range t.Players {
			names[i] = Name(a)
		}
		s.Players = names
		for i, was := range s.For {
			if was != "" {
				var local []string
				for _, a := range strings.Split(was, ", ") {
					local = append(local, Name(a))
				}
				s.For[i] = strings.Join(local, ", ")
			}
		}
		pg = tournamentPage{Title: t.Name, ID: t.ID, Name: t.Name, Variant: t.Variant, Double: t.Double, Finished: s.Over(), Crosstable: s.Crosstable()}
		st := s.Standings()
		for i, x := range st {
			var was string
			if x.Player < len(s.For) {
				was = s.For[x.Player]
			}
			pg.Standings = append(pg.Standings, standingRow{Rank: tournament.Place(st, i), Name: names[x.Player], For: was, Points: x.Points(), SB: x.SB(), Wins: x.Wins, Games: x.Games, Out: x.Out})
		}
		for _, rd := range t.Rounds {
			rr := roundRows{Number: rd.Number}
			if rd.Bye >= 0 && rd.Bye < len(names) {
				rr.Bye = names[rd.Bye]
			}
			for _, tg := range rd.Games {
				sg, err := tx.Game(tg.Game)
				if err != nil {
					return err
				}
				rr.Games = append(rr.Games, rowOf(sg))
			}
			pg.Rounds = append(pg.Rounds, rr)
		}
		return nil
	}); err != nil {
		return err
	}
	return render(w, r, "tournament", pg)
}
