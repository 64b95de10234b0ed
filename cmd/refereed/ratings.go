package main

import (
	"context"
	"fmt"

	"github.com/refereed/refereed/archive"
	"github.com/refereed/refereed/rating"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/variant"
)

func (m *Main) runRatings(ctx context.Context, args []string) int {
	fs := m.flagSet("ratings", "Usage: refereed ratings [--data DIR] [--variant V] [--csv]\n\nLists the ratings of the players of rated games, per game: rank, player, rating, RD\n(grown by the days since the player's last rated game), volatility, rated games. A rating\nwhose RD is above 110 is provisional, marked \"?\". --csv writes the columns of refereed\nrate --csv, which rate --initial reads.")
	d := addDataFlags(fs)
	v := fs.String("variant", "", "only this game's list (a name of `refereed variants`)")
	asCSV := fs.Bool("csv", false, "print the list as CSV: player,variant,rating,rd,volatility,games")
	if err := fs.Parse(args); err != nil {
		return usageCode(err)
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return exitUsage
	}
	key, name := "", ""
	if *v != "" {
		va, err := variant.Lookup(*v)
		if err != nil {
			fmt.Fprintf(m.Stderr, "refereed ratings: --variant: %v\n", err)
			return exitUsage
		}
		key, name = va.Key, " of "+va.Name
	}
	db, closeDB, err := d.open(ctx, m)
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed ratings: %v\n", err)
		return exitUsage
	}
	defer closeDB()
	var list []archive.RatedPlayer
	if err := db.View(func(tx *store.Tx) (err error) {
		list, err = archive.RatingList(tx, key, rating.Config{})
		return err
	}); err != nil {
		fmt.Fprintf(m.Stderr, "refereed ratings: %v\n", err)
		return exitUsage
	}
	standings := make([]rating.Standing, len(list))
	for i, p := range list {
		standings[i] = rating.Standing{Key: rating.Key{Player: p.Address, Game: p.Variant}, Rating: p.Rating, Games: p.Games}
	}
	if *asCSV {
		if err := rating.WriteCSV(m.Stdout, standings); err != nil {
			fmt.Fprintf(m.Stderr, "refereed ratings: write: %v\n", err)
			return exitUsage
		}
		return exitOK
	}
	if len(list) == 0 {
		fmt.Fprintf(m.Stdout, "no rated game%s has ended yet in %s\n", name, d.where(m))
		return exitOK
	}
	fmt.Fprintf(m.Stdout, "%d rating(s); data in %s\n", len(list), d.where(m))
	printRatings(m.Stdout, standings)
	return exitOK
}
