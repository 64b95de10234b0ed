package web

import (
	"cmp"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/templates"
	"github.com/refereed/refereed/variant"
)

// The list of games (/): filtered by variant, player, tournament and status, newest first, a
// page at a time.

// gameRow is one line of a games list.
type gameRow struct {
	ID           uint64
	Variant      string
	White, Black string
	Status       string
	Result       string
	Tournament   uint64
	Round        int
}

func rowOf(sg *store.Game) gameRow {
	r := gameRow{ID: sg.ID, Variant: sg.Variant, White: Name(sg.Players[0].Address), Black: Name(sg.Players[1].Address),
		Status: "in progress", Result: "*", Tournament: sg.Tournament, Round: sg.Round}
	if finished(sg) {
		r.Status, r.Result = "finished", sg.Result
		if r.Result == "" {
			r.Result = "*"
		}
	}
	return r
}

type gamesPage struct {
	Title                               string
	Problem                             string // a filter that matches nothing, explained
	Variant, Player, Tournament, Status string
	Variants                            []string
	Rows                                []gameRow
	Total, Page, Pages                  int
	First, Prev, Next, Last             string
}

// rows reads the games of ids into pg's rows.
func (h *Handler) rows(tx *store.Tx, pg *gamesPage, ids []uint64) error {
	for _, id := range ids {
		sg, err := tx.Game(id)
		if err != nil {
			return err
		}
		pg.Rows = append(pg.Rows, rowOf(sg))
	}
	return nil
}

// games is the list: / ?variant= &player= &tournament= &status=active|over &page=N.
func (h *Handler) games(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	text := func(k string) string { return strings.ToValidUTF8(q.Get(k), "\uFFFD") } // (as the form shows it back)
	pg := gamesPage{Title: say(r, "nav-games", nil), Variant: text("variant"), Player: text("player"), Tournament: text("tournament"), Status: text("status"), Variants: variant.Keys()}
	// A game's key as its name or any spelling the registry knows; a filter no game could
	// match (no game's key, no player's name) matches none, without asking the store.
	none := false
	if pg.Variant != "" {
		if v, err := variant.Lookup(pg.Variant); err == nil {
			pg.Variant = v.Key
		} else { // (as an unknown status: say so, not a silent empty list)
			pg.Problem = say(r, "no-variant", templates.Args{"Variant": pg.Variant})
			pg.Variant, pg.Page, pg.Pages = "", 1, 1
			return render(w, r, "games", pg)
		}
	}
	if pg.Player != "" && !playerName(pg.Player) {
		none = true
	}
	var tour uint64
	if pg.Tournament != "" {
		id, err := parseID(pg.Tournament)
		if err != nil {
			id = ^uint64(0) // matches nothing
		}
		tour = id
	}
	page := pageNumber(q.Get("page"))
	// The candidates come from the narrowest index: a tournament's own games, a player's
	// (by the index of players), else the index of status and variant; only the games of the
	// page shown are read whole (issue 23: a page costs the same at 100 games and 100,000).
	status := store.Status(pg.Status)
	if status != store.Active && status != store.Over {
		if status != "" {
			// Not a silent list of every game (issue 33): say which statuses there are.
			pg.Problem = say(r, "no-status", templates.Args{"Status": pg.Status})
			pg.Status, pg.Page, pg.Pages = "", 1, 1
			return render(w, r, "games", pg)
		}
		status = ""
	}
	fits := func(sg *store.Game) bool {
		return (pg.Variant == "" || sg.Variant == pg.Variant) && (tour == 0 || sg.Tournament == tour) &&
			(status == "" || sg.Status == status) &&
			(pg.Player == "" || Name(sg.Players[0].Address) == pg.Player || Name(sg.Players[1].Address) == pg.Player)
	}
	// The links keep the filters; a page reached from its neighbour carries where that
	// one ended: before= (older than that game) or after= (newer).
	link := func(n int, point string, id uint64) string {
		v := url.Values{}
		for _, k := range []string{"variant", "player", "tournament", "status"} {
			if s := q.Get(k); s != "" {
				v.Set(k, s)
			}
		}
		v.Set("page", strconv.Itoa(n))
		if point != "" {
			v.Set(point, strconv.FormatUint(id, 10))
		}
		return "/?" + v.Encode()
	}
	if none {
		pg.Page, pg.Pages = 1, 1
		return render(w, r, "games", pg)
	}
	if err := h.db.View(func(tx *store.Tx) error {
		var ids []uint64
		var few []store.Game // candidates read whole already (a tournament's, a player's)
		switch {
		case tour != 0:
			t, err := tx.Tournament(tour)
			if errors.Is(err, store.ErrNotFound) {
				break
			} else if err != nil {
				return err
			}
			for _, rd := range t.Rounds {
				for _, tg := range rd.Games {
					ids = append(ids, tg.Game)
				}
			}
			slices.SortFunc(ids, func(a, b uint64) int { return cmp.Compare(b, a) })
			for _, id := range ids {
				sg, err := tx.Game(id)
				if err != nil {
					return err
				}
				few = append(few, *sg)
			}
			ids = nil
		case pg.Player != "":
			games, err := tx.GamesOfLocal(pg.Player)
			if err != nil {
				return err
			}
			for i := len(games) - 1; i >= 0; i-- { // newest first
				few = append(few, games[i])
			}
		default:
			// Every game, or those of a status and variant: the page's ids from an index.
			return h.listPage(tx, &pg, status, q, page, link)
		}
		for i := range few {
			if fits(&few[i]) {
				ids = append(ids, few[i].ID)
			}
		}
		pg.Total = len(ids)
		pg.Pages = max((len(ids)+PageSize-1)/PageSize, 1)
		page = min(page, pg.Pages)
		pg.Page = page
		lo := (page - 1) * PageSize
		hi := min(lo+PageSize, len(ids))
		if page > 1 {
			pg.First, pg.Prev = link(1, "", 0), link(page-1, "", 0)
		}
		if page < pg.Pages {
			pg.Next, pg.Last = link(page+1, "", 0), link(pg.Pages, "", 0)
		}
		return h.rows(tx, &pg, ids[lo:hi])
	}); err != nil {
		return err
	}
	return render(w, r, "games", pg)
}

// listPage reads the page of every game, or of those of a status and variant, into pg: by
// ?page=N, or the page after the game a link carries (before=, older games) or before it
// (after=, newer). A page from a game seeks it in an index (its cost is its rows, however
// deep); a page by its number alone skips the games before it, but for the first and the last
// (read from their end of the list). A game past either end gives that end's page. A page read
// from a game is numbered as its link says (page=), kept within the pages there are: a list of
// games has no ranks, and the walk from page to page goes on from where the visitor is, however
// the list changed since.
func (h *Handler) listPage(tx *store.Tx, pg *gamesPage, status store.Status, q url.Values, page int, link func(int, string, uint64) string) error {
	v := pg.Variant
	var n int
	var err error
	if status == "" && v == "" {
		n, err = tx.GameCount()
	} else {
		_, n, err = tx.GameIDPage(status, v, 0, 0) // (its count, from the counts kept)
	}
	if err != nil {
		return err
	}
	pg.Total, pg.Pages = n, max((n+PageSize-1)/PageSize, 1)
	page = min(max(page, 1), pg.Pages)
	var ids []uint64
	newer, older := false, false // games before and after the page
	for _, dir := range []string{"before", "after"} {
		id, ok := pointID(q.Get(dir))
		if !ok {
			continue
		}
		back := dir == "after"
		var more bool
		if ids, more, err = tx.GameIDsFrom(status, v, id, back, PageSize); err != nil {
			return err
		}
		if len(ids) == 0 { // past an end: that end's page, by number
			page = pg.Pages
			if back {
				page = 1
			}
			break
		}
		if back {
			newer = more
			older, err = anyGame(tx, status, v, ids[len(ids)-1], false)
		} else {
			older = more
			newer, err = anyGame(tx, status, v, ids[0], true)
		}
		if err != nil {
			return err
		}
		switch {
		case !newer:
			page = 1
		case !older:
			page = pg.Pages
		case pg.Pages > 2:
			page = min(max(page, 2), pg.Pages-1)
		}
		break
	}
	if len(ids) == 0 { // by number
		switch {
		case page == 1:
			ids, _, err = tx.GameIDsFrom(status, v, 0, false, PageSize)
		case page == pg.Pages:
			ids, _, err = tx.GameIDsFrom(status, v, 0, true, n-(pg.Pages-1)*PageSize)
		case status == "" && v == "":
			ids, err = tx.LatestGameIDs((page-1)*PageSize, PageSize)
		default:
			ids, _, err = tx.GameIDPage(status, v, (page-1)*PageSize, PageSize)
		}
		if err != nil {
			return err
		}
		newer, older = page > 1, page < pg.Pages
	}
	pg.Page = page
	if newer && len(ids) > 0 {
		pg.Prev = link(max(page-1, 1), "after", ids[0])
	}
	if older && len(ids) > 0 {
		pg.Next = link(min(page+1, pg.Pages), "before", ids[len(ids)-1])
	}
	if page > 2 { // (the first and last pages a link away, when not the page beside)
		pg.First = link(1, "", 0)
	}
	if page < pg.Pages-1 {
		pg.Last = link(pg.Pages, "", 0)
	}
	return h.rows(tx, pg, ids)
}

// pointID reads a game's id from a link's before= or after=.
func pointID(s string) (uint64, bool) {
	id, err := parseID(s)
	return id, err == nil
}

// anyGame says whether a game of status and variant is older than id (or, newer, newer).
func anyGame(tx *store.Tx, status store.Status, variant string, id uint64, newer bool) (bool, error) {
	ids, _, err := tx.GameIDsFrom(status, variant, id, newer, 1)
	return len(ids) > 0, err
}
