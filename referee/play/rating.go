package play

import (
	"github.com/refereed/refereed/lang"
	"math"
	"strconv"
	"strings"

	"github.com/refereed/refereed/archive"
	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/rating"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/templates"
	"github.com/refereed/refereed/variant"
)

// How a rated game changes its players' ratings (package rating: Glicko-2, the period one
// game). When a rated game ends (End), both players' ratings in its variant are updated in
// the same transaction: each side's RD first grows with the days since his last rated game
// (rating.Config.Age), then the game is rated as a period of its own. Not rated: a game
// decided without play, that is a withdrawal's (the tournament's rule scores it), and a
// forfeit (deadline or time) by a player who never made a move of his own in the game, and
// any game that ended before a move was played (a resignation or a draw agreed at once: the
// archivist's refereed rate skips such a game too). An adjudicated game is rated: it was
// played, and the organizer judged how it stood.

// RatingChange is one player's rating before and after a rated game.
type RatingChange struct {
	Before, After rating.Rating
	New           bool // his first rated game in this variant
}

// Rated reports whether a game that ended with out, after log, counts for its players'
// ratings.
func Rated(sg *store.Game, out variant.Outcome, log []variant.Command) bool {
	if !sg.Rated {
		return false
	}
	if _, ok := rating.Score(out.Result); !ok {
		return false
	}
	if !movedIn(log, chess.White) && !movedIn(log, chess.Black) && !adjudicated(log) {
		return false // decided before a move was played, however: nothing was played to rate
	}
	switch out.Termination {
	case "abandoned":
		return false
	case "forfeit", "time forfeit":
		loser := chess.White
		if out.Result == "1-0" {
			loser = chess.Black
		}
		return movedIn(log, loser)
	}
	return true
}

// adjudicated reports whether the organizer judged the game (log holds his adjudication).
func adjudicated(log []variant.Command) bool {
	for _, c := range log {
		if strings.HasPrefix(c.Text, variant.CmdAdjudicate+" ") {
			return true
		}
	}
	return false
}

// movedIn reports whether side made a move of his own in log (not a draw offer, a
// resignation, nor the referee's or organizer's doing).
func movedIn(log []variant.Command, side chess.Color) bool {
	for _, c := range log {
		if c.By != side {
			continue
		}
		switch c.Text {
		case variant.CmdResign, variant.CmdDrawOffer, variant.CmdDrawAccept, variant.CmdDrawDecline, variant.CmdDrawWithdraw,
			variant.CmdDrawAgreed, variant.CmdForfeit, variant.CmdTimeForfeit, variant.CmdAbandon:
			continue
		}
		if strings.HasPrefix(c.Text, variant.CmdAdjudicate+" ") {
			continue
		}
		return true
	}
	return false
}

// rate updates the ratings of the players of the game that just ended with result, when it
// is rated, and keeps the changes for the mail that says it ended; a rated game that is not
// rated after all (decided without play) keeps NotRated, for that mail to say so.
func (a *Game) rate(result string) error {
	sg := a.game.Stored
	out := a.game.Live.Outcome()
	out.Result = result
	if !Rated(sg, out, a.game.Live.Log()) {
		a.notRated = sg.Rated
		return nil
	}
	score, _ := rating.Score(result)
	var recs [2]*store.PlayerRecord
	var now [2]rating.Rating
	var changes [2]RatingChange
	for i := range recs {
		rec, err := a.tx.PlayerRecord(sg.Players[i].Address)
		if err != nil {
			return err
		}
		recs[i] = rec
		now[i] = rating.New()
		if r := rec.Rating(sg.Variant); r != nil {
			now[i] = archive.RatingNow(a.rating, *r, a.tx.Now)
			changes[i].Before = rating.Rating{Rating: r.Rating, RD: r.RD, Vol: r.Vol}
		} else {
			changes[i].Before, changes[i].New = now[i], true
		}
	}
	after := [2]rating.Rating{}
	after[0], after[1] = a.rating.Game(now[0], now[1], score)
	for i, rec := range recs {
		r := rec.Rating(sg.Variant)
		if r == nil {
			rec.Ratings = append(rec.Ratings, store.PlayerRating{Variant: sg.Variant})
			r = &rec.Ratings[len(rec.Ratings)-1]
		}
		r.Rating, r.RD, r.Vol = after[i].Rating, after[i].RD, after[i].Vol
		r.Games++
		r.Last = a.tx.Now
		r.History = append(r.History, store.RatingPoint{At: a.tx.Now, Game: sg.ID, Rating: r.Rating, RD: r.RD})
		if err := a.tx.PutPlayerRecord(rec); err != nil {
			return err
		}
		changes[i].After = after[i]
	}
	a.changes = &changes
	return nil
}

// ratingPara is the paragraph of the game-over mail to s that says the players' new
// ratings.
func ratingPara(sg *store.Game, v *variant.Variant, ch *[2]RatingChange, s chess.Color, t lang.Tag) string {
	me, other := ch[s], ch[s.Other()]
	return sayIn(t, "rating-changed", templates.Args{
		"Variant": v.Name, "Rating": round(me.After.Rating), "Change": signed(me.After.Rating - me.Before.Rating), "New": me.New,
		"Provisional": me.After.Provisional(), "Opponent": sg.Players[s.Other()].Address,
		"OpponentRating": round(other.After.Rating), "OpponentChange": signed(other.After.Rating - other.Before.Rating)})
}

func round(x float64) int { return int(math.Round(x)) }

// signed writes a change of rating as people read it: "+12", "-7", "+0".
func signed(d float64) string {
	n := round(d)
	switch {
	case n > 0:
		return "+" + strconv.Itoa(n)
	case n < 0:
		return strconv.Itoa(n)
	}
	return "+0"
}

// RatingsAnswer is the answer to RATING: the player's ratings per game as they stand now
// (each RD grown by the days since his last rated game).
// It is in language t.
func RatingsAnswer(tx *store.Tx, c rating.Config, address string, t lang.Tag) (string, error) {
	say := func(kind string, args templates.Args) string { return sayIn(t, kind, args) }
	rec, err := tx.PlayerRecord(address)
	if err != nil {
		return "", err
	}
	if len(rec.Ratings) == 0 {
		return say("ratings-none", nil), nil
	}
	lines := []string{say("ratings", nil)}
	for _, r := range rec.Ratings {
		now := archive.RatingNow(c, r, tx.Now)
		name := r.Variant
		if v, err := variant.Lookup(r.Variant); err == nil {
			name = v.Name
		}
		lines = append(lines, say("rating-line", templates.Args{"Variant": name, "Rating": round(now.Rating), "RD": round(now.RD),
			"Provisional": now.Provisional(), "Games": r.Games, "Last": r.Last.UTC().Format("2006-01-02")}))
	}
	return strings.Join(lines, "\n"), nil
}
