package archive

import (
	"cmp"
	"math"
	"slices"
	"time"

	"github.com/refereed/refereed/rating"
	"github.com/refereed/refereed/store"
)

// RatedPlayer is one player's rating in one game as it stands now, with its history.
type RatedPlayer struct {
	Address string
	Variant string // registry key
	rating.Rating
	Games   int
	Last    time.Time
	History []store.RatingPoint
}

// RatingNow is a stored rating as it stands at now: its RD grown by the days since the
// player's last rated game (rating.Config.Age).
func RatingNow(c rating.Config, r store.PlayerRating, now time.Time) rating.Rating {
	return c.Age(rating.Rating{Rating: r.Rating, RD: r.RD, Vol: r.Vol}, math.Max(now.Sub(r.Last).Hours()/24, 0))
}

// RatingsOf is rec's ratings as they stand at now, in the order he first got them.
func RatingsOf(rec *store.PlayerRecord, c rating.Config, now time.Time) []RatedPlayer {
	out := make([]RatedPlayer, 0, len(rec.Ratings))
	for _, r := range rec.Ratings {
		out = append(out, RatedPlayer{Address: rec.Address, Variant: r.Variant, Rating: RatingNow(c, r, now), Games: r.Games, Last: r.Last, History: r.History})
	}
	return out
}

// RatingList is the rating list of variant (every game's for ""), as it stands at tx.Now:
// by game, then best rating first, then address. It reads every player's record.
func RatingList(tx *store.Tx, variant string, c rating.Config) ([]RatedPlayer, error) {
	var out []RatedPlayer
	err := tx.EachRatedPlayer(func(rec *store.PlayerRecord) error {
		for _, r := range RatingsOf(rec, c, tx.Now) {
			if variant == "" || r.Variant == variant {
				r.History = nil
				out = append(out, r)
			}
		}
		return nil
	})
	slices.SortFunc(out, func(a, b RatedPlayer) int {
		return cmp.Or(cmp.Compare(a.Variant, b.Variant), cmp.Compare(b.Rating.Rating, a.Rating.Rating), cmp.Compare(a.Address, b.Address))
	})
	return out, err
}

// RatingPage is a page of variant's rating list as it stands at tx.Now, best first: skip of
// it skipped, at most limit players (from the store's rating order, no record read), and the
// list's length.
func RatingPage(tx *store.Tx, variant string, c rating.Config, skip, limit int) ([]RatedPlayer, int, error) {
	lines, n, err := tx.RatedPage(variant, skip, limit)
	if err != nil {
		return nil, 0, err
	}
	return RatedNow(tx, c, lines), n, nil
}

// RatedNow is lines of a rating list (the store's, as they were last rated) as they stand at
// tx.Now.
func RatedNow(tx *store.Tx, c rating.Config, lines []store.RatedEntry) []RatedPlayer {
	out := make([]RatedPlayer, 0, len(lines))
	for _, l := range lines {
		out = append(out, RatedPlayer{Address: l.Address, Variant: l.Variant, Rating: RatingNow(c, l.PlayerRating, tx.Now), Games: l.Games, Last: l.Last})
	}
	return out
}
