package store

import "time"

// Challenge is a game one player offered another by mail (issue 37): to a named address, or
// open to anyone (To ""). It is open until it is accepted (and became Game), declined,
// cancelled by its challenger, or it expired; the store then keeps it, closed, for the
// record, and forgets it in its indexes of open challenges.
type Challenge struct {
	ID   uint64 `json:"id"`
	From string `json:"from"`         // the challenger's address, in lower case
	To   string `json:"to,omitempty"` // the invited address, in lower case; "" for anyone
	// The game: its variant, the challenger's colour ("white", "black"; "" by lot), its
	// start position and its options (the game's own, "deadline" or "time", "rated") as
	// variant.Options.Flags holds them, and the terms as people read them ("Kriegspiel,
	// 30d+3d, rated").
	Variant string            `json:"variant"`
	Colour  string            `json:"colour,omitempty"`
	FEN     string            `json:"fen,omitempty"`
	Flags   map[string]string `json:"flags,omitempty"`
	Terms   string            `json:"terms"`
	// Token is the invited player's reply token (a named challenge): the reply address of his
	// invitation carries it, and the token index maps it to the challenge (GameRef.Challenge).
	Token   string    `json:"token,omitempty"`
	Created time.Time `json:"created"`
	Expires time.Time `json:"expires"`
	// State is "" while open, else one of the Challenge* states; Closed is when it closed,
	// Game the game it became, By who accepted it.
	State  string    `json:"state,omitempty"`
	Closed time.Time `json:"closed,omitempty"`
	Game   uint64    `json:"game,omitempty"`
	By     string    `json:"by,omitempty"`
}

// How a challenge closed.
const (
	ChallengeAccepted  = "accepted"
	ChallengeDeclined  = "declined"
	ChallengeCancelled = "cancelled"
	ChallengeExpired   = "expired"
)

// Open reports whether c still waits for an answer.
func (c *Challenge) Open() bool { return c.State == "" }
