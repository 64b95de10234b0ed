package web

import (
	"cmp"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/referee/organizer"
	"github.com/refereed/refereed/store"
)

// ratedCup plays a rated tournament of three to its end (White wins every game) and returns
// its games.
func (w *world) ratedCup(name string) []uint64 {
	w.t.Helper()
	tid, err := w.ref.Tournaments().New(organizer.Options{Name: name, Variant: "orthodox", Players: []string{ann, bob, "cy@example.org"}, Rated: true})
	if err != nil {
		w.t.Fatal(err)
	}
	var games []uint64
	w.db.View(func(tx *store.Tx) error {
		tr, err := tx.Tournament(tid)
		for _, r := range tr.Rounds {
			for _, p := range r.Games {
				games = append(games, p.Game)
			}
		}
		return err
	})
	for _, id := range games {
		w.mail(id, chess.White, "e4")
		w.mail(id, chess.Black, "RESIGN")
	}
	return games
}

// /ratings lists each game's ratings, best first, provisional ones marked; a player's page
// shows his ratings with their history as an SVG chart. No address appears.
func TestRatingsPages(t *testing.T) {
	w := newWorld(t)
	h := New(w.db)
	if code, _, body := get(t, h, "/ratings"); code != http.StatusOK || !strings.Contains(body, "No rated game has ended yet") {
		t.Fatalf("no ratings: %d\n%s", code, body)
	}
	w.ratedCup("Rated Cup")
	code, _, body := get(t, h, "/ratings")
	for _, want := range []string{"<h2>Orthodox chess</h2>", `<a href="/player/ann">ann</a>`, `class="provisional"`, "?</td>", `<a href="/ratings">Ratings</a>`} {
		if code != http.StatusOK || !strings.Contains(body, want) {
			t.Errorf("/ratings lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "@") {
		t.Errorf("an address on /ratings:\n%s", body)
	}
	if _, _, body := get(t, h, "/ratings?variant=progressive"); strings.Contains(body, "ann") || !strings.Contains(body, "No rated game") {
		t.Errorf("/ratings?variant=progressive:\n%s", body)
	}
	code, _, body = get(t, h, "/player/cy")
	for _, want := range []string{"<h2>Ratings</h2>", "Orthodox chess: ", "2 rated games", "<svg", "<polyline", "<circle", "Rating history: 2 rated games"} {
		if code != http.StatusOK || !strings.Contains(body, want) {
			t.Errorf("/player/cy lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "@") || strings.Contains(body, "<script") {
		t.Errorf("an address or a script on the player's page:\n%s", body)
	}
}

// A game's rating list is paged, best first, ranks running on; the list of every game shows
// the head of each and the way to the rest. The links to the next and the previous page carry
// where the page ended or began (a rating and how many of its ties were passed, no address),
// and walking them either way reads the whole list once, ties cut between two pages included.
func TestRatingsPaging(t *testing.T) {
	w := newWorld(t)
	const players = 330
	rated := func(i int) float64 { // ties of five around each page's end
		if i%100 >= 97 || i%100 <= 1 {
			return 2000 - float64(i/100*100) + 0.5
		}
		return 2000 - float64(i)
	}
	if err := w.db.Update(func(tx *store.Tx) error {
		for i := range players {
			rec := &store.PlayerRecord{Address: fmt.Sprintf("p%03d@example.com", i), Ratings: []store.PlayerRating{{Variant: "orthodox", Rating: rated(i), RD: 60, Games: 9}}}
			if err := tx.PutPlayerRecord(rec); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	h := New(w.db)
	rowRE := regexp.MustCompile(`<td>(\d+)</td><td><a href="/player/(p\d+)">`)
	type row struct {
		rank   int
		player string
	}
	rows := func(body string) (out []row) {
		for _, m := range rowRE.FindAllStringSubmatch(body, -1) {
			n, _ := strconv.Atoi(m[1])
			out = append(out, row{n, m[2]})
		}
		return out
	}
	// The whole list, best first: by rating, ties by address.
	var want []row
	{
		order := make([]int, players)
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(rated(b), rated(a)) })
		for r, i := range order {
			want = append(want, row{r + 1, fmt.Sprintf("p%03d", i)})
		}
	}
	_, _, body := get(t, h, "/ratings")
	if got := rows(body); len(got) != RatingsHead || got[0] != want[0] || !strings.Contains(body, `<a href="/ratings?variant=orthodox">All 330 players →</a>`) {
		t.Errorf("/ratings: %v\n%s", got, body)
	}
	// Forward from the first page by its links, then back from the last.
	var got []row
	u := "/ratings?variant=orthodox"
	for n := 1; ; n++ {
		code, _, body := get(t, h, u)
		if code != http.StatusOK || !strings.Contains(body, fmt.Sprintf("330 players; page %d of 4.", n)) {
			t.Fatalf("page %d (%s): %d\n%s", n, u, code, body)
		}
		if strings.Contains(body, "@") || (n == 1) != (linkIn(body, "better") == "") || (n <= 2) != (linkIn(body, "first page") == "") {
			t.Errorf("page %d: an address, or the links back wrong:\n%s", n, body)
		}
		got = append(got, rows(body)...)
		if u = linkIn(body, "next"); u == "" {
			if n != 4 || linkIn(body, "last page") != "" {
				t.Errorf("the last page is page %d, or links to a last page", n)
			}
			break
		}
		if l := linkIn(body, "last page"); (n < 3) != (l == "/ratings?variant=orthodox&page=4") || (n == 3) != (l == "") {
			t.Errorf("page %d: last page %q", n, l)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("forward by the links:\n%v\nwant\n%v", got, want)
	}
	got = nil
	u = "/ratings?variant=orthodox&page=4"
	for n := 4; ; n-- {
		_, _, body := get(t, h, u)
		if !strings.Contains(body, fmt.Sprintf("page %d of 4.", n)) {
			t.Fatalf("back, page %d (%s):\n%s", n, u, body)
		}
		got = append(rows(body), got...)
		if u = linkIn(body, "better"); u == "" {
			if n != 1 {
				t.Errorf("back: no link before page %d", n)
			}
			break
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("back by the links:\n%v\nwant\n%v", got, want)
	}
	// By number alone: each page, and past the end the last.
	for _, c := range []struct {
		page  string
		first int // the rank its first row has
		n     int
	}{{"1", 1, 100}, {"2", 101, 100}, {"3", 201, 100}, {"4", 301, 30}, {"7", 301, 30}, {"9223372036854775807", 301, 30}, {"99999999999999999999", 301, 30}, {"-3", 1, 100}} {
		code, _, body := get(t, h, "/ratings?variant=orthodox&page="+c.page)
		r := rows(body)
		if code != http.StatusOK || len(r) != c.n || !slices.Equal(r, want[c.first-1:c.first-1+c.n]) {
			t.Errorf("page %s: %d, %v", c.page, code, r)
		}
	}
	// A link's point is followed whoever made the link; the ranks are true whatever the link
	// says, but in a link the archive signed while the list stood as it stands.
	at := func(r float64, ties int) int { // the place of the first line after the point
		for i, w := range want {
			var p int
			fmt.Sscanf(w.player, "p%d", &p)
			if rated(p) < r || (rated(p) == r && ties == 0) {
				return i
			}
			if rated(p) == r {
				ties--
			}
		}
		return len(want)
	}
	for _, c := range []struct {
		page, dir, point string
		want             []row
	}{
		{"2", "after", "NaN~0", want[100:200]}, {"2", "after", "Inf~0", want[100:200]}, {"2", "after", "1500~-1", want[100:200]},
		{"2", "after", "1500", want[100:200]}, {"99999999999999999999", "after", "x", want[300:]},
		{"3", "after", "-100000~0", want[300:]}, {"1", "after", "-100000~0", want[300:]}, {"4", "before", "100000~0", want[:100]},
		{"2", "before", "2000.5~0", want[:100]}, {"1", "after", "1900.5~3", want[at(1900.5, 3) : at(1900.5, 3)+100]},
		{"3", "after", "1900.5~99", want[at(1900.5, 99) : at(1900.5, 99)+100]}, {"2", "after", "1800.5~2", want[at(1800.5, 2) : at(1800.5, 2)+100]},
		{"4", "before", "1900.5~2", want[at(1900.5, 2)-100 : at(1900.5, 2)]}, {"2", "before", "1700.5~1", want[at(1700.5, 1)-100 : at(1700.5, 1)]},
		{"1", "after", "-3~0", want[300:]}, {"1", "before", "-1e308~0", want[len(want)-100:]},
	} {
		q := "page=" + c.page + "&" + c.dir + "=" + url.QueryEscape(c.point)
		for _, q := range []string{q, q + "&rank=7&sig=forged", q + "&rank=7&sig=" + h.linkSig("ratings", "orthodox", c.dir, c.point, "8", "1")} {
			_, _, body := get(t, h, "/ratings?variant=orthodox&"+q)
			if r := rows(body); !slices.Equal(r, c.want) {
				t.Errorf("%s: %v..., want %v...", q, r[:min(len(r), 2)], c.want[:min(len(c.want), 2)])
			}
		}
	}
	// The rank a signed link gives is taken while the list stands as it did; then it is counted.
	var version uint64
	w.db.View(func(tx *store.Tx) (err error) { version, err = tx.RatedVersion("orthodox"); return err })
	point := "1800.5~2"
	signed := "/ratings?variant=orthodox&page=9&after=" + point + "&rank=777&sig=" + h.linkSig("ratings", "orthodox", "after", point, "777", strconv.FormatUint(version, 10))
	if _, _, body := get(t, h, signed); rows(body)[0].rank != 777 {
		t.Errorf("a signed link: ranked from %d", rows(body)[0].rank)
	}
	if err := w.db.Update(func(tx *store.Tx) error {
		return tx.PutPlayerRecord(&store.PlayerRecord{Address: "p329@example.com", Ratings: []store.PlayerRating{{Variant: "orthodox", Rating: 999, RD: 60, Games: 9}}})
	}); err != nil {
		t.Fatal(err)
	}
	if _, _, body := get(t, h, signed); rows(body)[0] != want[at(1800.5, 2)] {
		t.Errorf("the signed link once the list changed: from %v, want %v", rows(body)[0], want[at(1800.5, 2)])
	}
}

// A link made before the list changed is followed only where the page it names still lies
// between the first and the last: ranks stay true however the ratings moved since.
func TestRatingsLinksAfterAChange(t *testing.T) {
	w := newWorld(t)
	put := func(i int, r float64) {
		t.Helper()
		if err := w.db.Update(func(tx *store.Tx) error {
			return tx.PutPlayerRecord(&store.PlayerRecord{Address: fmt.Sprintf("k%03d@example.com", i), Ratings: []store.PlayerRating{{Variant: "kriegspiel", Rating: r, RD: 60, Games: 5}}})
		}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 230 {
		put(i, 1500) // all tied
	}
	h := New(w.db)
	next := regexp.MustCompile(`<a href="([^"]*)">next`)
	better := regexp.MustCompile(`<a href="([^"]*)">← better`)
	_, _, body := get(t, h, "/ratings?variant=kriegspiel")
	_, _, body = get(t, h, html.UnescapeString(next.FindStringSubmatch(body)[1]))
	_, _, body = get(t, h, html.UnescapeString(next.FindStringSubmatch(body)[1])) // page 3 of 3, 30 rows
	back := html.UnescapeString(better.FindStringSubmatch(body)[1])
	if !strings.Contains(body, "page 3 of 3") || !strings.Contains(back, "before=1500~200") {
		t.Fatalf("page 3 by link: %s\n%s", back, body)
	}
	for i := 200; i < 230; i++ { // the last page's players overtake everyone
		put(i, 1600)
	}
	// The page before the point, as the visitor walks back, with the ranks the players hold now.
	_, _, byLink := get(t, h, back)
	truth := map[string]string{}
	rowRE := regexp.MustCompile(`<tr[^>]*><td>(\d+)</td><td><a href="/player/(k\d+)">`)
	for p := 1; p <= 3; p++ {
		_, _, body := get(t, h, "/ratings?variant=kriegspiel&page="+strconv.Itoa(p))
		for _, m := range rowRE.FindAllStringSubmatch(body, -1) {
			truth[m[2]] = m[1]
		}
	}
	got := rowRE.FindAllStringSubmatch(byLink, -1)
	if len(got) != 100 || got[0][2] != "k100" || got[99][2] != "k199" || !strings.Contains(byLink, "page 2 of 3") {
		t.Errorf("the link back after the change: %d rows\n%s", len(got), byLink)
	}
	for _, m := range got {
		if truth[m[2]] != m[1] {
			t.Errorf("%s ranked %s, holds %s", m[2], m[1], truth[m[2]])
		}
	}
}
