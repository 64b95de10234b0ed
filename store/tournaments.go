package store

import (
	"fmt"
	"sort"
	"time"
)

// Tournament is a round-robin section: its players in table order (the Berger tables' player
// 1 first) and the game of every pairing. Standings are not stored: they are worked out from
// the games' results and the withdrawals each time (package tournament).
type Tournament struct {
	ID        uint64   `json:"id"`
	Name      string   `json:"name"`
	Variant   string   `json:"variant"` // registry key
	Players   []string `json:"players"` // addresses, in table order
	Double    bool     `json:"double,omitempty"`
	Organizer string   `json:"organizer,omitempty"`
	// WithdrawRule is what a withdrawal does to the player's games: "forfeit" or "half".
	WithdrawRule string            `json:"withdraw_rule"`
	Rounds       []TournamentRound `json:"rounds"`
	// Withdrawn lists the players (indices into Players) who withdrew, in order.
	Withdrawn []Withdrawal `json:"withdrawn,omitempty"`
	Created   time.Time    `json:"created"`
	Updated   time.Time    `json:"updated"`
}

// TournamentRound is one round's games; Bye is the index of the player who sits out, or -1.
type TournamentRound struct {
	Number int              `json:"number"`
	Games  []TournamentGame `json:"games"`
	Bye    int              `json:"bye"`
}

// TournamentGame is one pairing and the game that plays it.
type TournamentGame struct {
	White int    `json:"white"` // index into Tournament.Players
	Black int    `json:"black"`
	Game  uint64 `json:"game"`
}

// Withdrawal is a player's leaving the tournament.
type Withdrawal struct {
	Player int       `json:"player"`
	At     time.Time `json:"at"`
}

// CreateTournament stores a new tournament, assigning its ID. Its games are created apart
// (CreateGame) in the same transaction, and linked with PutTournament.
func (t *Tx) CreateTournament(tr *Tournament) error {
	b := t.tx.Bucket(bTournaments)
	id, err := b.NextSequence()
	if err != nil {
		return fmt.Errorf("store: create tournament: %w", err)
	}
	tr.ID = id
	tr.Created, tr.Updated = t.Now, t.Now
	if err := putJSON(b, u64(id), tr); err != nil {
		return fmt.Errorf("store: create tournament: %w", err)
	}
	return nil
}

// PutTournament saves tr.
func (t *Tx) PutTournament(tr *Tournament) error {
	tr.Updated = t.Now
	if err := putJSON(t.tx.Bucket(bTournaments), u64(tr.ID), tr); err != nil {
		return fmt.Errorf("store: put tournament %d: %w", tr.ID, err)
	}
	return nil
}

// Tournament returns tournament id.
func (t *Tx) Tournament(id uint64) (*Tournament, error) {
	var tr Tournament
	b := t.tx.Bucket(bTournaments)
	if b == nil {
		return nil, fmt.Errorf("store: tournament %d: %w", id, ErrNotFound)
	}
	if err := getJSON(b, u64(id), &tr); err != nil {
		return nil, fmt.Errorf("store: tournament %d: %w", id, err)
	}
	return &tr, nil
}

// Tournaments lists every tournament by ID.
func (t *Tx) Tournaments() ([]Tournament, error) {
	b := t.tx.Bucket(bTournaments)
	if b == nil {
		return nil, nil
	}
	out, err := decodeAll[Tournament](b)
	if err != nil {
		return nil, fmt.Errorf("store: list tournaments: %w", err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}
