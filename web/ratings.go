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
}

// ratingList is one game's list, or a page of it.
type ratingList struct {
	Name        string // the game's name
	Rows        []ratingRow
	Total       int    // players in the whole list
	More        string // the link to the whole list, when only its head is shown
	Page, Pages int
	Prev, Next  string
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
		if err != nil {
			return errNotFound
		}
		key, pg.Variant, pg.VariantName = v.Key, v.Key, v.Name
	}
	page, err := strconv.Atoi(q.Get("page"))
	if err != nil || page < 1 {
		page = 1
	}
	page = min(page, math.MaxInt32) // (page-1)*RatingsPageSize stays an int; past the end is the last page, below
	if err := h.db.View(func(tx *store.Tx) error {
		keys := []string{key}
		if key == "" {
			var err error
			if keys, err = tx.RatedVariants(); err != nil {
				return err
			}
		}
		for _, k := range keys {
			skip, limit := (page-1)*RatingsPageSize, RatingsPageSize
			if key == "" {
				skip, limit = 0, RatingsHead
			}
			list, n, err := archive.RatingPage(tx, k, rating.Config{}, skip, limit)
			if err != nil {
				return err
			}
			if n == 0 {
				continue
			}
			if last := (n + RatingsPageSize - 1) / RatingsPageSize; key != "" && page > last {
				page = last // as /tournaments: a page past the end is the last
				skip = (page - 1) * RatingsPageSize
				if list, n, err = archive.RatingPage(tx, k, rating.Config{}, skip, limit); err != nil {
					return err
				}
			}
			l := ratingList{Name: variantName(k), Total: n}
			link := func(p int) string { return "/ratings?variant=" + url.QueryEscape(k) + "&page=" + strconv.Itoa(p) }
			if key == "" {
				if n > len(list) {
					l.More = "/ratings?variant=" + url.QueryEscape(k)
				}
			} else {
				l.Page, l.Pages = page, (n+RatingsPageSize-1)/RatingsPageSize
				if page > 1 {
					l.Prev = link(page - 1)
				}
				if page < l.Pages {
					l.Next = link(page + 1)
				}
			}
			for i, p := range list {
				l.Rows = append(l.Rows, ratingRow{Rank: skip + i + 1, Player: Name(p.Address), Rating: int(math.Round(p.Rating.Rating)),
					RD: int(math.Round(p.RD)), Provisional: p.Provisional(), Games: p.Games})
			}
			pg.Lists = append(pg.Lists, l)
		}
		return nil
	}); err != nil {
		return err
	}
	return render(w, r, "ratings", pg)
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
