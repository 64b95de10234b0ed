package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/refereed/refereed/rating"
	"github.com/refereed/refereed/referee"
	"github.com/refereed/refereed/store"
)

// The paper's example (Glickman 2013) through refereed rate: "me" (1500, RD 200) beats a
// 1400/30 and loses to a 1550/100 and a 1700/300 in one month, and comes out 1464.06 /
// 151.52 / 0.05999. The opponents' ratings come from --initial, one of them under a
// variant's other name.
func TestRatePaperExample(t *testing.T) {
	dir := t.TempDir()
	pgn := filepath.Join(dir, "paper.pgn")
	game := func(date, white, black, result, moves string) string {
		return fmt.Sprintf("[Event \"p\"]\n[Date %q]\n[White %q]\n[Black %q]\n[Result %q]\n\n%s %s\n\n", date, white, black, result, moves, result)
	}
	os.WriteFile(pgn, []byte(game("2027.01.05", "me", "a", "1-0", "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#")+
		game("2027.01.20", "b", "me", "1-0", "1. e4 e5")+game("2027.01.31", "me", "c", "0-1", "1. d4 d5")), 0o644)
	initial := filepath.Join(dir, "initial.csv")
	os.WriteFile(initial, []byte("player,variant,rating,rd,volatility\nme,orthodox,1500,200,0.06\na,Chess,1400,30,0.06\nb,orthodox,1550,100,0.06\nc,orthodox,1700,300,0.06\n"), 0o644)

	code, out, errs := run(t, "rate", "--csv", "--initial", initial, pgn)
	if code != exitOK || errs != "" {
		t.Fatalf("%d %s", code, errs)
	}
	list, err := rating.ReadCSV(strings.NewReader(out))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	me := list[rating.Key{Player: "me", Game: "orthodox"}]
	if math.Abs(me.Rating-1464.06) > 0.01 || math.Abs(me.RD-151.52) > 0.005 || math.Abs(me.Vol-0.05999) > 0.00001 {
		t.Fatalf("me: %v\n%s", me, out)
	}
	if !strings.Contains(out, "me,orthodox,1464.05,151.52,0.059996,3\n") {
		t.Errorf("the line of me:\n%s", out)
	}
	// Weekly periods: three periods, not the paper's one.
	if _, out, _ := run(t, "rate", "--csv", "--period", "week", "--initial", initial, pgn); strings.Contains(out, "me,orthodox,1464.05") {
		t.Errorf("weeks rated as one period:\n%s", out)
	}
	// The list as people read it.
	code, out, _ = run(t, "rate", "--initial", initial, pgn)
	for _, want := range []string{"3 games, 3 valid, 0 invalid; 3 rated", "Orthodox chess", "rank  player  rating  RD   volatility  games", "3     me      1464?   152  0.06000     3", "?: provisional"} {
		if code != exitOK || !strings.Contains(out, want) {
			t.Errorf("no %q:\n%s", want, out)
		}
	}
}

// rate verifies first: an invalid game is reported as verify reports it and not rated, and
// so are games it cannot rate, each with why.
func TestRateReports(t *testing.T) {
	dir := t.TempDir()
	pgn := filepath.Join(dir, "a.pgn")
	os.WriteFile(pgn, []byte(`[Date "2027.02.01"]
[White "ann"]
[Black "bob"]

1. e4 e5 2. Ke3 1-0

[Date "2027.02.01"]
[White "ann"]
[Black "bob"]

1. e4 *

[Date "2027.02.01"]
[White "ann"]
[Black "bob"]

0-1

[Date "2027.??.??"]
[White "ann"]
[Black "?"]

1. e4 e5 1-0

[Date "2027.??.??"]
[White "ann"]
[Black "cid"]
[Variant "Progressive"]

1 e4 2 e5 d5 1/2-1/2

[Date "2027.03.02"]
[White "cid"]
[Black "bob"]
[Variant "Progressive"]

1 e4 2 e5 d5 0-1

[Date "2027.03.02"]
[White "cid"]
[Black "bob"]
[Termination "abandoned"]

1. e4 e5 0-1
`), 0o644)
	code, out, _ := run(t, "rate", "--period", "month", pgn)
	for _, want := range []string{
		"game 1 (line 1) [White ann, Black bob, Date 2027.02.01]: move 2 Ke3: ",
		"game 2 (line 7): not rated: unfinished",
		"game 3 (line 13): not rated: decided without a move",
		"game 4 (line 19): not rated: the White and Black tags do not name both players",
		`game 5 (line 25): not rated: its Date tag ("2027.??.??") does not give the month`,
		"game 7 (line 39): not rated: ended by a withdrawal (Termination abandoned)",
		"7 games, 6 valid, 1 invalid; 1 rated",
		"Progressive Chess",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q:\n%s", want, out)
		}
	}
	if code != exitInvalid {
		t.Errorf("exit %d", code)
	}
	// With --period all the date does not matter.
	if _, out, _ := run(t, "rate", "--period", "all", "--csv", pgn); !strings.Contains(out, "cid,progressive,") || !strings.Contains(out, "ann,progressive,") {
		t.Errorf("--period all:\n%s", out)
	}
	// Options and files that cannot be used.
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("player,variant,rating,rd,volatility\nann,nosuchgame,1500,50,0.06\n"), 0o644)
	for _, args := range [][]string{{"--period", "year", pgn}, {"--tau", "-1", pgn}, {"--initial", bad, pgn}, {"--initial", filepath.Join(dir, "none.csv"), pgn}, {filepath.Join(dir, "none.pgn")}} {
		if code, _, errs := run(t, append([]string{"rate"}, args...)...); code != exitUsage || !strings.Contains(errs, "refereed rate:") {
			t.Errorf("%v: %d %q", args, code, errs)
		}
	}
}

// The order of the files does not change a list when their games fall on different days;
// rating with --period game follows the dates, not the files.
func TestRatePeriodGameOrder(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.pgn"), filepath.Join(dir, "b.pgn")
	os.WriteFile(a, []byte("[Date \"2027.05.01\"]\n[White \"x\"]\n[Black \"y\"]\n\n1. e4 1-0\n"), 0o644)
	os.WriteFile(b, []byte("[Date \"2027.01.01\"]\n[White \"y\"]\n[Black \"z\"]\n\n1. e4 1/2-1/2\n"), 0o644)
	o := rateOptions{period: "game", workers: 1}
	one := rateArchives(context.Background(), o, []string{a, b}, os.Stderr, os.Stderr)
	two := rateArchives(context.Background(), o, []string{b, a}, os.Stderr, os.Stderr)
	if fmt.Sprint(one.list) != fmt.Sprint(two.list) || one.rated != 2 {
		t.Fatalf("%v\n%v", one.list, two.list)
	}
	// By hand: y and z draw as newcomers; 120 days later x beats y, y's RD grown by the days.
	c := rating.Config{}
	y, _ := c.Game(rating.New(), rating.New(), 0.5)
	x, y := c.Game(rating.New(), c.Age(y, 120), 1)
	for _, s := range one.list {
		if s.Player == "x" && s.Rating != x || s.Player == "y" && s.Rating != y {
			t.Fatalf("%s: %v (want x %v, y %v)", s.Player, s.Rating, x, y)
		}
	}
}

// A player is one whatever the case of his name: "Ann" against "ann" is a player against
// himself, and his games under both spellings make one rating, listed as first spelled.
func TestRateNamesIgnoreCase(t *testing.T) {
	pgn := filepath.Join(t.TempDir(), "a.pgn")
	os.WriteFile(pgn, []byte(`[Date "2027.02.01"]
[White "Ann@x.org"]
[Black "ann@x.org"]

1. e4 e5 1-0

[Date "2027.02.01"]
[White "Ann@x.org"]
[Black "bob"]

1. e4 e5 1-0

[Date "2027.02.02"]
[White "bob"]
[Black "ANN@X.ORG"]

1. e4 e5 0-1
`), 0o644)
	code, out, errs := run(t, "rate", "--period", "all", pgn)
	if code != exitOK || !strings.Contains(out+errs, "game 1 (line 1): not rated: a player against himself") {
		t.Fatalf("rate: %d\n%s%s", code, out, errs)
	}
	if strings.Count(out, "Ann@x.org") != 1 || strings.Contains(strings.ToLower(strings.ReplaceAll(out, "Ann@x.org", "")), "ann@x.org") {
		t.Errorf("Ann listed under several names:\n%s", out)
	}
}

// refereed's export says which games were rated: rate leaves the others out.
func TestRateHonoursRatedTag(t *testing.T) {
	pgn := filepath.Join(t.TempDir(), "a.pgn")
	os.WriteFile(pgn, []byte(`[Date "2027.02.01"]
[White "ann"]
[Black "bob"]
[Rated "no"]

1. e4 e5 1-0

[Date "2027.02.01"]
[White "ann"]
[Black "bob"]
[Rated "yes"]

1. e4 e5 1-0
`), 0o644)
	code, out, errs := run(t, "rate", "--period", "all", pgn)
	if code != exitOK || !strings.Contains(out+errs, "game 1 (line 1): not rated: not a rated game (its Rated tag)") || !strings.Contains(out+errs, "1 rated") {
		t.Fatalf("rate: %d\n%s%s", code, out, errs)
	}
}

// Rating a tournament's export with --period game gives the service's ratings (issue 33): the
// games all carry the day the tournament began as their Date, and they end in another order
// than the export's (round by round); the export's EndDate and EndTime say when each ended,
// and rate goes by them, the RD growing by the days between, as the service does.
func TestRateExportGivesTheServiceRatings(t *testing.T) {
	dir := t.TempDir()
	data := []string{"--data", dir}
	players := []string{"a@x.org", "b@x.org", "c@x.org", "d@x.org", "e@x.org"}
	if code, out, errs := run(t, append([]string{"tournament", "new", "--name", "Season", "--variant", "orthodox", "--players", strings.Join(players, ",")}, data...)...); code != exitOK {
		t.Fatalf("tournament new: %d %s %s", code, out, errs)
	}
	db, err := store.Open(filepath.Join(dir, "refereed.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	db.Now = func() time.Time { return now }
	r := &referee.Referee{DB: db, Address: "referee@localhost"}
	games := []struct {
		moves []string
	}{
		{[]string{"f3", "e5", "g4", "Qh4#"}},
		{[]string{"e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"}},
		{[]string{"e4", "e5", "RESIGN"}},
		{[]string{"d4", "d5", "c4", "RESIGN"}},
	}
	uid := uint32(0)
	// Ten games, played from the last to the first, days and hours apart.
	for id := uint64(10); id >= 1; id-- {
		var g *store.Game
		if err := db.View(func(tx *store.Tx) (err error) { g, err = tx.Game(id); return err }); err != nil {
			t.Fatal(err)
		}
		for i, mv := range games[id%4].moves {
			now = now.Add(time.Duration(id*7+uint64(i)) * time.Hour)
			p := g.Players[i%2]
			to := fmt.Sprintf("referee+g%d-%s-%s@localhost", id, []string{"w", "b"}[i%2], p.Token)
			uid++
			raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nMessage-ID: <%d@test>\r\nSubject: move\r\n\r\n%s\r\n", p.Address, to, uid, mv)
			if err := r.Handle(store.InboxKey{Mailbox: "INBOX", UIDValidity: 1, UID: uid}, []byte(raw)); err != nil {
				t.Fatal(err)
			}
		}
		now = now.Add(time.Duration(id%3) * 24 * time.Hour)
	}
	want := map[string]string{}
	if err := db.View(func(tx *store.Tx) error {
		for _, a := range players {
			rec, err := tx.PlayerRecord(a)
			if err != nil {
				return err
			}
			if r := rec.Rating("orthodox"); r != nil {
				want[a] = fmt.Sprintf("%.2f %.2f %.6f %d", r.Rating, r.RD, r.Vol, r.Games)
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if len(want) != len(players) {
		t.Fatalf("rated players: %v", want)
	}
	code, pgn, errs := run(t, append([]string{"tournament", "export", "1"}, data...)...)
	if code != exitOK || !strings.Contains(pgn, `[EndDate "`) || !strings.Contains(pgn, `[EndTime "`) {
		t.Fatalf("tournament export: %d %s\n%s", code, errs, pgn)
	}
	file := filepath.Join(dir, "season.pgn")
	os.WriteFile(file, []byte(pgn), 0o644)
	code, out, errs := run(t, "rate", "--period", "game", "--csv", file)
	if code != exitOK {
		t.Fatalf("rate: %d %s", code, errs)
	}
	got := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
		f := strings.Split(line, ",")
		got[f[0]] = strings.Join([]string{f[2], f[3], f[4], f[5]}, " ")
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("rate --period game over the export:\n got %v\nwant %v (the service's)", got, want)
	}
}
