package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/refereed/refereed/archive"
	"github.com/refereed/refereed/rating"
	"github.com/refereed/refereed/variant"
)

const rateUsage = `Usage: refereed rate [--initial FILE.csv] [--period game|week|month|all] [--tau T] [--csv] [-j N] ARCHIVE.pgn...

Verifies every game of the archives (as verify does) and rates the valid ones with Glicko-2,
per player (the White and Black tags) and game (the variant): the games are put in rating
periods by the moment they ended (refereed's EndDate and EndTime tags, UTC) or else by their
Date tag. It prints, for each game, the list: rank, player, rating, RD,
volatility and games; a rating whose RD is above 110 is provisional, marked "?". With --csv
the columns are player,variant,rating,rd,volatility,games, and --initial reads such a file
(player,variant,rating,rd,volatility) as the ratings before the archives' first period.

Periods: week (Monday to Sunday) and month rate the games of a calendar period together, and
the RD of a player who sat periods out grows by them; all puts every game in one period; game
rates the games one at a time in the order they ended, the RD growing by the days since each
player's last game (as the referee rates its own games: rating refereed's exports this way
gives its ratings).

Games not rated: the invalid (reported as verify reports them), those unfinished, decided
without a move, ended by a withdrawal ([Termination "abandoned"], as refereed exports them),
without both players' names, or whose Date does not give the period.
Exit status: 0 all valid, 1 some invalid, 2 unreadable input or options.`

// rateOptions are refereed rate's options.
type rateOptions struct {
	period  string
	config  rating.Config
	initial map[rating.Key]rating.Rating
	workers int
}

// rated is the outcome of rating archives.
type rated struct {
	list       []rating.Standing
	games      int // games read
	invalid    int
	rated      int
	unreadable bool
}

func (m *Main) runRate(ctx context.Context, args []string) int {
	fs := m.flagSet("rate", rateUsage)
	initial := fs.String("initial", "", "ratings before the first period: a CSV file with the columns player,variant,rating,rd,volatility")
	period := fs.String("period", "month", "the rating period: game, week, month or all")
	tau := fs.Float64("tau", 0.5, "τ, the system constant: how much the volatility may change (0.3 to 1.2)")
	asCSV := fs.Bool("csv", false, "print the list as CSV (player,variant,rating,rd,volatility,games); reports go to standard error")
	workers := fs.Int("j", runtime.GOMAXPROCS(0), "games verified in parallel")
	if err := fs.Parse(args); err != nil {
		return usageCode(err)
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return exitUsage
	}
	o := rateOptions{period: *period, config: rating.Config{Tau: *tau}, workers: max(*workers, 1)}
	if !slices.Contains([]string{"game", "week", "month", "all"}, o.period) {
		fmt.Fprintf(m.Stderr, "refereed rate: --period %q: want game, week, month or all\n", o.period)
		return exitUsage
	}
	if err := o.config.Check(); err != nil || *tau == 0 {
		if err == nil { // 0 would mean the default to the package: refused as an operator's value
			err = fmt.Errorf("tau %v: want a positive number, 0.3 to 1.2 as Glickman advises (at most 5)", *tau)
		}
		fmt.Fprintf(m.Stderr, "refereed rate: --%v\n", err)
		return exitUsage
	}
	if *initial != "" {
		var err error
		if o.initial, err = readInitial(*initial); err != nil {
			fmt.Fprintf(m.Stderr, "refereed rate: --initial %v\n", err)
			return exitUsage
		}
	}
	reports := m.Stdout
	if *asCSV {
		reports = m.Stderr
	}
	res := rateArchives(ctx, o, fs.Args(), reports, m.Stderr)
	if *asCSV {
		if err := rating.WriteCSV(m.Stdout, res.list); err != nil {
			fmt.Fprintf(m.Stderr, "refereed rate: write: %v\n", err)
			return exitUsage
		}
	} else {
		fmt.Fprintf(m.Stdout, "%d games, %d valid, %d invalid; %d rated\n", res.games, res.games-res.invalid, res.invalid, res.rated)
		printRatings(m.Stdout, res.list)
	}
	switch {
	case res.unreadable:
		return exitUsage
	case res.invalid > 0:
		return exitInvalid
	}
	return exitOK
}

// readInitial reads an --initial file, its variants named as any [Variant] tag may name them.
func readInitial(name string) (map[rating.Key]rating.Rating, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	list, err := rating.ReadCSV(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	out := make(map[rating.Key]rating.Rating, len(list))
	for k, r := range list {
		v, err := variant.Lookup(k.Game)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", name, k.Player, err)
		}
		k.Game = v.Key
		if _, dup := out[k]; dup {
			return nil, fmt.Errorf("%s: %s has two ratings in %s", name, k.Player, v.Name)
		}
		out[k] = r
	}
	return out, nil
}

// rateArchives verifies files, reports their invalid games and those it cannot rate to
// reports (unreadable files to errs), and rates the rest.
func rateArchives(ctx context.Context, o rateOptions, files []string, reports, errs io.Writer) rated {
	var res rated
	type game struct {
		archive.Played
		file int     // the file's place in files
		when int     // the period's index (game: the day)
		day  float64 // days since 1970 (game)
	}
	var games []game
	for fi, name := range files {
		n, err := archive.VerifyFileEach(ctx, name, o.workers, func(v archive.Verdict) {
			if v.Reason == "" {
				return // warnings: verify's business; the game is valid and rated
			}
			res.invalid++
			fmt.Fprintf(reports, "%s: game %d (line %d)%s: %s%s\n", v.File, v.Game, v.Line, describeTags(v.Tags), where(v), v.Reason)
		}, func(p archive.Played) {
			why := ""
			when, day, ok := periodOf(o.period, p.Date, p.End)
			switch {
			case p.Result == "*" || p.Result == "":
				why = "unfinished"
			case strings.EqualFold(p.Rated, "no"):
				why = "not a rated game (its Rated tag)"
			case p.Plies == 0:
				why = "decided without a move"
			case strings.EqualFold(p.Termination, "abandoned"):
				why = "ended by a withdrawal (Termination abandoned)"
			case unnamed(p.White) || unnamed(p.Black):
				why = "the White and Black tags do not name both players"
			case strings.EqualFold(strings.TrimSpace(p.White), strings.TrimSpace(p.Black)):
				why = "a player against himself"
			case !ok:
				why = fmt.Sprintf("its Date tag (%q) does not give the %s", p.Date, map[string]string{"game": "day", "week": "day", "month": "month"}[o.period])
			}
			if why != "" {
				fmt.Fprintf(reports, "%s: game %d (line %d): not rated: %s\n", p.File, p.Game, p.Line, why)
				return
			}
			games = append(games, game{Played: p, file: fi, when: when, day: day})
		})
		res.games += n
		if err != nil {
			res.unreadable = true
			if errors.Is(err, archive.ErrNoGames) || errors.Is(err, archive.ErrBinary) {
				fmt.Fprintf(errs, "refereed rate: %s %v\n", name, err)
			} else {
				fmt.Fprintf(errs, "refereed rate: %s: %v\n", name, err)
			}
		}
	}
	// Date order (the moment each ended, where the record says); games of one day in the
	// order of the files.
	slices.SortStableFunc(games, func(a, b game) int {
		return cmp.Or(cmp.Compare(a.when, b.when), cmp.Compare(a.day, b.day), cmp.Compare(a.file, b.file), cmp.Compare(a.Game, b.Game))
	})
	// A player is one whatever the case of his name ("Ann@x.org" and "ann@x.org"), and is
	// listed under the spelling first met (--initial's first).
	spelled := map[string]string{}
	spell := func(name string) string {
		k := strings.ToLower(strings.Join(strings.Fields(name), " "))
		if s, ok := spelled[k]; ok {
			return s
		}
		spelled[k] = name
		return name
	}
	l := rating.NewList(o.config)
	for _, k := range slices.SortedFunc(maps.Keys(o.initial), func(a, b rating.Key) int { return cmp.Or(cmp.Compare(a.Player, b.Player), cmp.Compare(a.Game, b.Game)) }) {
		r := o.initial[k]
		k.Player = spell(k.Player)
		l.Set(k, r)
	}
	first, current := 0, 0
	if len(games) > 0 {
		first = games[0].when
	}
	for _, g := range games {
		score, _ := rating.Score(g.Result)
		w, b := rating.Key{Player: spell(g.White), Game: g.Variant}, rating.Key{Player: spell(g.Black), Game: g.Variant}
		if o.period == "game" {
			l.Game(w, b, score, g.day)
			continue
		}
		if p := g.when - first; p > current {
			l.Close(p)
			current = p
		}
		l.Add(w, b, score)
	}
	if o.period != "game" && len(games) > 0 {
		l.Close(current + 1)
	}
	res.rated = len(games)
	res.list = l.Standings()
	return res
}

func unnamed(s string) bool { s = strings.TrimSpace(s); return s == "" || s == "?" || s == "-" }

// periodOf is the index of the period a game falls in, by the moment it ended (end, from
// refereed's EndDate and EndTime tags) or else by its PGN Date ("2027.03.14", parts may be
// "??"): days since 1970 for game, weeks (from Monday) for week, months for month, 0 for all;
// day is the days since 1970 (game), to the millisecond when the end is known, as the
// service counts them. ok is false when the date lacks what the period needs.
func periodOf(period, date string, end time.Time) (when int, day float64, ok bool) {
	if period == "all" {
		return 0, 0, true
	}
	if !end.IsZero() {
		date = end.Format("2006.01.02")
		if period == "game" {
			days := float64(end.UnixMilli()) / (86400 * 1000)
			return int(days), days, true
		}
	}
	parts := strings.Split(strings.TrimSpace(date), ".")
	if len(parts) != 3 {
		return 0, 0, false
	}
	if period == "month" {
		t, err := time.Parse("2006.01", parts[0]+"."+parts[1])
		if err != nil {
			return 0, 0, false
		}
		return t.Year()*12 + int(t.Month()) - 1, 0, true
	}
	t, err := time.Parse("2006.01.02", date)
	if err != nil {
		return 0, 0, false
	}
	days := int(t.Unix() / 86400)
	if period == "week" {
		return (days + 3) / 7, 0, true // 1970-01-01 was a Thursday: weeks start on Mondays
	}
	return days, float64(days), true
}

// printRatings writes the list of each game: rank, player, rating, RD, volatility, games.
func printRatings(w io.Writer, list []rating.Standing) {
	for i := 0; i < len(list); {
		j := i
		for j < len(list) && list[j].Game == list[i].Game {
			j++
		}
		name := list[i].Game
		if v, err := variant.Lookup(name); err == nil {
			name = v.Name
		}
		fmt.Fprintf(w, "\n%s\n", name)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "rank\tplayer\trating\tRD\tvolatility\tgames")
		for k, s := range list[i:j] {
			mark := ""
			if s.Provisional() {
				mark = "?"
			}
			fmt.Fprintf(tw, "%d\t%s\t%.0f%s\t%.0f\t%.5f\t%d\n", k+1, s.Player, s.Rating.Rating, mark, s.RD, s.Vol, s.Games)
		}
		tw.Flush()
		i = j
	}
	if hasProvisional(list) {
		fmt.Fprintln(w, "\n?: provisional (RD above 110)")
	}
}

func hasProvisional(list []rating.Standing) bool {
	return slices.ContainsFunc(list, func(s rating.Standing) bool { return s.Provisional() })
}
