package web

import (
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/refereed/refereed/archive"
	"github.com/refereed/refereed/rating"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/templates"
	"github.com/refereed/refereed/variant"
)

// The ratings (package rating, Glicko-2, from the rated games): /ratings?variant= lists
// them, a player's page shows his with their history drawn as a small SVG chart.

type ratingsPage struct {
	Title       string
	Variant     string
	VariantName string // the variant's name for people, when the list is of one
	Variants    []string
	Lists       []ratingList
	Problem     string // a game no list could be of, explained
}

// ratingList is one game's list, or a page of it.
type ratingList struct {
	Name        string // the game's name
	Rows        []ratingRow
	Total       int    // players in the whole list
	More        string // the link to the whole list, when only its head is shown
	Page, Pages int
	First, Prev string
	Next, Last  string
}

// RatingsPageSize is the most players one page of a game's rating list shows; the list of
// every game shows the first RatingsHead of each.
const RatingsPageSize, RatingsHead = 100, 20

type ratingRow struct {
	Rank        int
	Player      string
	Rating, RD  int
	Provisional bool
	Games       int
}

// ratings is /ratings?variant=&page=N: a game's list, best first, a page at a time; without
// a game, the head of each game's list with the way to the rest. A rating whose RD is above
// 110 is marked provisional. A page reads its players only (the store's rating order).
func (h *Handler) ratings(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	key := q.Get("variant")
	pg := ratingsPage{Title: say(r, "nav-ratings", nil), Variant: key, Variants: variant.Keys()}
	if key != "" {
		v, err := variant.Lookup(key)
		if err != nil { // (as the list of games says it: not a bare 404)
			pg.Problem = say(r, "no-variant", templates.Args{"Variant": strings.ToValidUTF8(key, "\uFFFD")})
			pg.Variant = ""
			return render(w, r, "ratings", pg)
		}
		key, pg.Variant, pg.VariantName = v.Key, v.Key, v.Name
	}
	if err := h.db.View(func(tx *store.Tx) error {
		if key != "" {
			l, err := h.ratingPage(tx, key, q)
			if l.Total > 0 {
				pg.Lists = append(pg.Lists, l)
			}
			return err
		}
		keys, err := tx.RatedVariants()
		if err != nil {
			return err
		}
		for _, k := range keys {
			s, err := tx.RatedFrom(k, store.RatedStart, false, RatingsHead)
			if err != nil {
				return err
			}
			_, n, err := tx.RatedPage(k, 0, 0) // (its count)
			if err != nil || n == 0 {
				return err
			}
			l := ratingList{Name: variantName(k), Total: n, Rows: ratingRows(tx, s.Lines, 1)}
			if s.More {
				l.More = "/ratings?variant=" + url.QueryEscape(k)
			}
			pg.Lists = append(pg.Lists, l)
		}
		return nil
	}); err != nil {
		return err
	}
	return render(w, r, "ratings", pg)
}

// ratingPage is a page of key's rating list: ?page=N, or the page after the point a link
// carries (after=) or before it (before=). A page from a point seeks it (its cost is its rows,
// however deep); a page by its number alone skips the lines before it, but for the first and
// the last (read from their end of the list). Past the end is the last.
//
// A page from a point must know the rank of its first line. At either end of the list it
// does; else the link says (rank=), signed by the archive with the list's version, so that
// the rank is taken only from a link the archive made while the list stood as it stands now
// (links.go). Any other link (made elsewhere, before a restart, or before a rating changed)
// has the rank counted: exact, at the cost of a page by number.
func (h *Handler) ratingPage(tx *store.Tx, key string, q url.Values) (ratingList, error) {
	l := ratingList{Name: variantName(key)}
	_, n, err := tx.RatedPage(key, 0, 0) // (its count)
	if err != nil || n == 0 {
		return l, err
	}
	l.Total, l.Pages = n, (n+RatingsPageSize-1)/RatingsPageSize
	page := min(pageNumber(q.Get("page")), l.Pages)
	version, err := tx.RatedVersion(key)
	if err != nil {
		return l, err
	}
	var s store.RatedSlice
	rank, before, after := 0, false, false // the first line's rank; lines before and after the page
	for _, dir := range []string{"after", "before"} {
		at, ok := ratedPoint(q.Get(dir))
		if !ok {
			continue
		}
		back := dir == "before"
		if s, err = tx.RatedFrom(key, at, back, RatingsPageSize); err != nil {
			return l, err
		}
		if len(s.Lines) == 0 { // past an end of the list: that end's page, by number
			page = l.Pages
			if back {
				page = 1
			}
			break
		}
		behind := s.Start // the far side of the point
		if back {
			behind = s.End
		}
		other, err := ratedAny(tx, key, behind, !back)
		if err != nil {
			return l, err
		}
		before, after = other, s.More
		if back {
			before, after = s.More, other
		}
		signed, _ := strconv.Atoi(q.Get("rank"))
		switch {
		case !before:
			rank = 1
		case !after:
			rank = n - len(s.Lines) + 1
		case signed > 0 && h.signed(q.Get("sig"), "ratings", key, dir, q.Get(dir), q.Get("rank"), strconv.FormatUint(version, 10)):
			rank = signed
		default:
			c, err := tx.RatedRank(key, s.Start)
			if err != nil {
				return l, err
			}
			rank = c + 1
		}
		break
	}
	if rank == 0 { // by number
		switch {
		case page == 1:
			s, err = tx.RatedFrom(key, store.RatedStart, false, RatingsPageSize)
		case page == l.Pages:
			s, err = tx.RatedFrom(key, store.RatedEnd, true, n-(l.Pages-1)*RatingsPageSize)
		default:
			var at store.RatedAt
			if at, err = tx.RatedPlace(key, (page-1)*RatingsPageSize); err == nil {
				s, err = tx.RatedFrom(key, at, false, RatingsPageSize)
			}
		}
		if err != nil {
			return l, err
		}
		rank, before, after = (page-1)*RatingsPageSize+1, page > 1, page < l.Pages
	}
	l.Page = min((rank-1)/RatingsPageSize+1, l.Pages)
	link := func(p int, dir string, at store.RatedAt, rank int) string {
		s := "/ratings?variant=" + url.QueryEscape(key) + "&page=" + strconv.Itoa(p)
		if dir != "" {
			point := strconv.FormatFloat(at.Rating, 'g', -1, 64) + "~" + strconv.Itoa(at.Ties)
			r := strconv.Itoa(rank)
			s += "&" + dir + "=" + url.QueryEscape(point) + "&rank=" + r + "&sig=" + h.linkSig("ratings", key, dir, point, r, strconv.FormatUint(version, 10))
		}
		return s
	}
	if before {
		l.Prev = link(max(l.Page-1, 1), "before", s.Start, max(rank-RatingsPageSize, 1))
	}
	if after {
		l.Next = link(min(l.Page+1, l.Pages), "after", s.End, rank+len(s.Lines))
	}
	if l.Page > 2 { // (the first and last pages a link away, when not the page beside)
		l.First = link(1, "", s.Start, 0)
	}
	if l.Page < l.Pages-1 {
		l.Last = link(l.Pages, "", s.End, 0)
	}
	l.Rows = ratingRows(tx, s.Lines, rank)
	return l, nil
}

// ratedPoint reads a point of a rating list from a link: the rating, "~", the ties passed.
func ratedPoint(s string) (store.RatedAt, bool) {
	r, ties, ok := strings.Cut(s, "~")
	if !ok || len(s) > 64 {
		return store.RatedAt{}, false
	}
	f, err := strconv.ParseFloat(r, 64)
	n, err2 := strconv.Atoi(ties)
	if err != nil || err2 != nil || math.IsInf(f, 0) || math.IsNaN(f) || n < 0 || n > 1<<30 {
		return store.RatedAt{}, false
	}
	return store.RatedAt{Rating: f, Ties: n}, true
}

// ratedAny says whether key's list has a line after at (or, back, before it).
func ratedAny(tx *store.Tx, key string, at store.RatedAt, back bool) (bool, error) {
	s, err := tx.RatedFrom(key, at, back, 1)
	return len(s.Lines) > 0, err
}

// ratingRows are the rows of lines, ranked from rank on, their ratings as they stand now.
func ratingRows(tx *store.Tx, lines []store.RatedEntry, rank int) []ratingRow {
	var rows []ratingRow
	for i, p := range archive.RatedNow(tx, rating.Config{}, lines) {
		rows = append(rows, ratingRow{Rank: rank + i, Player: Name(p.Address), Rating: int(math.Round(p.Rating.Rating)),
			RD: int(math.Round(p.RD)), Provisional: p.Provisional(), Games: p.Games})
	}
	return rows
}

func variantName(key string) string {
	if v, err := variant.Lookup(key); err == nil {
		return v.Name
	}
	return key
}

// playerRating is one of a player's ratings on his page, with its chart.
type playerRating struct {
	Variant     string
	Rating, RD  int
	Provisional bool
	Games       int
	Chart       *chart
}

// chart is the history of a rating drawn as an SVG line: one point a rated game, the
// rating's span on the y axis.
type chart struct {
	Width, Height int
	Points        string // the polyline's points
	Dots          []dot
	Top, Bottom   int // the highest and lowest rating drawn
	TopY, BottomY int // where their labels stand
	Summary       string
}

type dot struct {
	X, Y   string
	Title  string
	GameID uint64
}

// The chart's size; the line starts right of chartLeft, where the scale's labels stand.
const chartWidth, chartHeight, chartPad, chartLeft = 320, 90, 8, 36

// chartOf draws history (oldest first); nil when there is nothing to draw.
func chartOf(history []store.RatingPoint) *chart {
	if len(history) == 0 {
		return nil
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range history {
		lo, hi = math.Min(lo, p.Rating), math.Max(hi, p.Rating)
	}
	if hi-lo < 20 { // a flat line sits in the middle of a band of 20 points
		mid := (hi + lo) / 2
		lo, hi = mid-10, mid+10
	}
	c := &chart{Width: chartWidth, Height: chartHeight, Top: int(math.Round(hi)), Bottom: int(math.Round(lo)), TopY: chartPad + 4, BottomY: chartHeight - chartPad + 4}
	var pts []string
	for i, p := range history {
		x := float64(chartLeft)
		if len(history) > 1 {
			x += float64(i) * float64(chartWidth-chartLeft-chartPad) / float64(len(history)-1)
		}
		y := chartPad + (hi-p.Rating)/(hi-lo)*float64(chartHeight-2*chartPad)
		xs, ys := fmt.Sprintf("%.1f", x), fmt.Sprintf("%.1f", y)
		pts = append(pts, xs+","+ys)
		c.Dots = append(c.Dots, dot{X: xs, Y: ys, GameID: p.Game,
			Title: fmt.Sprintf("%.0f after game #%d, %s", p.Rating, p.Game, p.At.UTC().Format("2006-01-02"))})
	}
	c.Points = strings.Join(pts, " ")
	first, last := history[0], history[len(history)-1]
	c.Summary = fmt.Sprintf("Rating history: %s, from %.0f (%s) to %.0f (%s), between %d and %d.",
		count(len(history), "rated game", "rated games"), first.Rating, first.At.UTC().Format("2006-01-02"), last.Rating, last.At.UTC().Format("2006-01-02"), int(math.Round(lo)), int(math.Round(hi)))
	return c
}

// count is n with the noun that fits it.
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// ratingsOfPlayer reads the ratings of the addresses whose name is the player's.
func ratingsOfPlayer(tx *store.Tx, name string, games []store.Game) ([]playerRating, error) {
	seen := map[string]bool{}
	var out []playerRating
	for _, sg := range games {
		for _, p := range sg.Players {
			if Name(p.Address) != name || seen[p.Address] {
				continue
			}
			seen[p.Address] = true
			rec, err := tx.PlayerRecord(p.Address)
			if err != nil {
				return nil, err
			}
			for _, r := range archive.RatingsOf(rec, rating.Config{}, tx.Now) {
				out = append(out, playerRating{Variant: variantName(r.Variant), Rating: int(math.Round(r.Rating.Rating)), RD: int(math.Round(r.RD)),
					Provisional: r.Provisional(), Games: r.Games, Chart: chartOf(r.History)})
			}
		}
	}
	return out, nil
}
