package store

import (
	"fmt"
	"time"
)

// A player's ratings live in his PlayerRecord (Ratings), one per game key (the variant's
// registry key), each with its history; the rating system is package rating's. The referee
// updates them in the transaction that ends a rated game.

// PlayerRating is a player's Glicko-2 rating in one game, and how it came to be.
type PlayerRating struct {
	Variant string  `json:"variant"` // registry key
	Rating  float64 `json:"rating"`
	RD      float64 `json:"rd"`
	Vol     float64 `json:"volatility"`
	Games   int     `json:"games"` // rated games
	// Last is when his last rated game ended: the RD grows with the days since.
	Last    time.Time     `json:"last"`
	History []RatingPoint `json:"history,omitempty"`
}

// RatingPoint is a rating after one rated game.
type RatingPoint struct {
	At     time.Time `json:"at"`
	Game   uint64    `json:"game"`
	Rating float64   `json:"rating"`
	RD     float64   `json:"rd"`
}

// RatedEntry is one line of a rating list: a player's rating in one game, without its
// history.
type RatedEntry struct {
	Address string
	PlayerRating
}

// Rating returns the player's rating in variant, nil when he has none.
func (p *PlayerRecord) Rating(variant string) *PlayerRating {
	for i := range p.Ratings {
		if p.Ratings[i].Variant == variant {
			return &p.Ratings[i]
		}
	}
	return nil
}

// EachRatedPlayer calls fn with the record of every player who has a rating, by address. It
// reads those players only, by an index (bbolt: bRated; PostgreSQL: players_rated): the cost
// of a rating list grows with the rated players, not with the games or every player.
func (t *Tx) EachRatedPlayer(fn func(*PlayerRecord) error) error {
	if err := t.ops.eachRated(fn); err != nil {
		return fmt.Errorf("store: list rated players: %w", err)
	}
	return nil
}
