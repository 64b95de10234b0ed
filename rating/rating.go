// Package rating is Glicko-2 as Mark Glickman describes it in "Example of the Glicko-2
// system" (2013): ratings with their deviation (RD) and volatility, updated once a rating
// period from the games of the period. It is pure (no store, no mail): the referee keeps the
// ratings of its players in the store and calls Game when a rated game ends; `refereed rate`
// rates an archive with a List.
//
// What the paper leaves to whoever runs a rating system, decided here:
//
//   - A new player starts at 1500, RD 350, volatility 0.06 (New). τ, the system constant,
//     is 0.5 unless configured (Config.Tau); the paper suggests 0.3 to 1.2.
//   - RD never grows beyond 350, the RD of a new player: someone who has not played for
//     years is as uncertain as a newcomer, not more.
//   - A player who sits out a rating period has his RD grow as the paper's step 6 says:
//     φ' = √(φ² + σ²) (Config.Idle, several empty periods at once).
//   - Where the period is one game (the referee's service, `refereed rate --period game`),
//     the RD grows instead with the days since the player's last rated game, as Glicko
//     does between periods: RD' = √(RD² + c²·days), c = Config.C. The default c is 10.47:
//     the RD of a settled player (50) is back to 350 after three years (1,095 days) without
//     a rated game, c = √((350² − 50²) / 1095). Correspondence players play a few dozen
//     games a year; a year away takes such a player from 50 to about 190, provisional again.
//   - A rating is provisional while its RD is above 110 (Provisional), as lichess marks it.
//
// What is rated together is a game key, chosen by the caller: the referee and `refereed
// rate` use the variant's registry key (options such as strict-forfeit and a start position
// do not make another game).
package rating

import (
	"fmt"
	"math"
)

// Rating is one player's Glicko-2 rating on the Glicko scale: rating, rating deviation and
// volatility.
type Rating struct {
	Rating float64 `json:"rating"`
	RD     float64 `json:"rd"`
	Vol    float64 `json:"volatility"`
}

// The new player's rating, and the RD beyond which nothing grows.
const (
	Initial    = 1500
	InitialRD  = 350
	InitialVol = 0.06
	// ProvisionalRD is the RD above which a rating is provisional.
	ProvisionalRD = 110
)

// New is the rating of a player who has not played yet.
func New() Rating { return Rating{Initial, InitialRD, InitialVol} }

// Provisional reports whether r is too uncertain to be taken at its word (RD above 110).
func (r Rating) Provisional() bool { return r.RD > ProvisionalRD }

func (r Rating) String() string { return fmt.Sprintf("%.0f (RD %.0f)", r.Rating, r.RD) }

// Config is the system's constants. The zero value is the defaults.
type Config struct {
	// Tau constrains the change of volatility; 0 means 0.5.
	Tau float64
	// C is the RD growth per day without a rated game, where the period is one game; 0 means
	// DefaultC.
	C float64
}

// DefaultC is the RD growth constant per day: 50 grows back to 350 in 1,095 days.
var DefaultC = math.Sqrt((InitialRD*InitialRD - 50*50) / 1095.0)

func (c Config) tau() float64 {
	if c.Tau <= 0 {
		return 0.5
	}
	return c.Tau
}

func (c Config) c() float64 {
	if c.C <= 0 {
		return DefaultC
	}
	return c.C
}

// Check says what is wrong with a configuration given by an operator.
func (c Config) Check() error {
	if math.IsNaN(c.Tau) || math.IsInf(c.Tau, 0) || c.Tau < 0 || c.Tau > 5 {
		return fmt.Errorf("tau %v: want a positive number, 0.3 to 1.2 as Glickman advises (at most 5)", c.Tau)
	}
	return nil
}

// scale is the Glicko-2 scale's unit in Glicko rating points (step 2 of the paper).
const scale = 173.7178

// epsilon is the convergence tolerance of the volatility iteration (the paper's ε).
const epsilon = 0.000001

// Result is one game of a rating period, from one player's side: the opponent's rating at
// the start of the period and the player's score (1, 1/2 or 0).
type Result struct {
	Opponent Rating
	Score    float64
}

// Update is the paper's steps 1 to 8: r's rating after a rating period in which he played
// results. With no result he sat the period out and only his RD grows (step 6 alone). The
// order of results does not matter.
func (c Config) Update(r Rating, results []Result) Rating {
	if len(results) == 0 {
		return c.Idle(r, 1)
	}
	mu := (r.Rating - Initial) / scale
	phi := r.RD / scale
	sigma := r.Vol
	// Steps 3 and 4: the estimated variance v and improvement Δ.
	var vinv, sum float64
	for _, res := range results {
		muj, phij := (res.Opponent.Rating-Initial)/scale, res.Opponent.RD/scale
		g := gOf(phij)
		e := 1 / (1 + math.Exp(-g*(mu-muj)))
		vinv += g * g * e * (1 - e)
		sum += g * (res.Score - e)
	}
	v := 1 / vinv
	delta := v * sum
	// Step 5: the new volatility, by the Illinois algorithm.
	tau := c.tau()
	a := math.Log(sigma * sigma)
	phi2 := phi * phi
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi2 + v + ex
		return ex*(delta*delta-phi2-v-ex)/(2*d*d) - (x-a)/(tau*tau)
	}
	A := a
	var B float64
	if delta*delta > phi2+v {
		B = math.Log(delta*delta - phi2 - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 {
			k++
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > epsilon && i < 100; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	sigma2 := math.Exp(A / 2)
	// Steps 6 to 8: the new RD and rating, back on the Glicko scale.
	phiStar := math.Sqrt(phi2 + sigma2*sigma2)
	phi1 := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	mu1 := mu + phi1*phi1*sum
	return Rating{Rating: mu1*scale + Initial, RD: min(phi1*scale, InitialRD), Vol: sigma2}
}

func gOf(phi float64) float64 { return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi)) }

// Idle is r after n rating periods without a game: φ' = √(φ² + n·σ²), at most 350.
func (c Config) Idle(r Rating, n int) Rating {
	if n <= 0 {
		return r
	}
	phi := r.RD / scale
	r.RD = min(math.Sqrt(phi*phi+float64(n)*r.Vol*r.Vol)*scale, InitialRD)
	return r
}

// Age is r after days without a rated game, where the period is one game: RD' =
// √(RD² + c²·days), at most 350.
func (c Config) Age(r Rating, days float64) Rating {
	if days <= 0 {
		return r
	}
	cc := c.c()
	r.RD = min(math.Sqrt(r.RD*r.RD+cc*cc*days), InitialRD)
	return r
}

// Game rates one game as a rating period of its own: white and black as they stand (each
// aged already, see Age), score White's (1, 1/2 or 0). It returns both new ratings.
func (c Config) Game(white, black Rating, score float64) (Rating, Rating) {
	return c.Update(white, []Result{{black, score}}), c.Update(black, []Result{{white, 1 - score}})
}

// Score is White's score in a game result ("1-0", "0-1", "1/2-1/2"); ok is false for any
// other result (a game still going, a forfeit without play).
func Score(result string) (score float64, ok bool) {
	switch result {
	case "1-0":
		return 1, true
	case "0-1":
		return 0, true
	case "1/2-1/2":
		return 0.5, true
	}
	return 0, false
}
