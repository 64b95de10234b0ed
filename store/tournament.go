package store

import "time"

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
	// Language is the language of its players' mail who set none (lang.Tag; "": the server's).
	Language string `json:"language,omitempty"`
	// WithdrawRule is what a withdrawal does to the player's games: "forfeit" or "half".
	WithdrawRule string            `json:"withdraw_rule"`
	Rounds       []TournamentRound `json:"rounds"`
	// Withdrawn lists the players (indices into Players) who withdrew, in order.
	Withdrawn []Withdrawal `json:"withdrawn,omitempty"`
	// Replacements lists who took over whose seat (the organizer's REPLACE), in order:
	// Players holds the seat's present player.
	Replacements []Replacement `json:"replacements,omitempty"`
	// Time is the games' time control ("30d+3d"; "" for the simple deadline), LeaveDays the
	// leave a player may take in a calendar year.
	Time      string `json:"time,omitempty"`
	LeaveDays int    `json:"leave_days,omitempty"`
	// OrganizerToken is the secret in the reply address of the organizer's mail.
	OrganizerToken string  `json:"organizer_token,omitempty"`
	Pauses         []Pause `json:"pauses,omitempty"`
	// Restores counts the times the store was put back from a backup since the tournament
	// began: the organizer's mail numbers come back with it, so his Message-IDs carry it.
	Restores int               `json:"restores,omitempty"`
	Log      []TournamentEvent `json:"log,omitempty"`
	Created  time.Time         `json:"created"`
	Updated  time.Time         `json:"updated"`

	// Rated: its games count for their players' ratings.
	Rated bool `json:"rated,omitempty"`
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

// Replacement is one REPLACE: New took over from Old, at At, seat Seat of a tournament (an
// index into its Players; a game's retired token says only who and when).
type Replacement struct {
	Seat int       `json:"seat,omitempty"`
	Old  string    `json:"old"`
	New  string    `json:"new"`
	At   time.Time `json:"at"`
}

// TournamentEvent is one entry of a tournament's log: what its organizer (or a player, for
// a leave) did to it, in the words of the command ("pause", "replace a@x b@y" ...).
type TournamentEvent struct {
	At   time.Time `json:"at"`
	By   string    `json:"by"` // the address it came from, or "admin"
	Text string    `json:"text"`
}

// Pause is a span in which a tournament's clocks stood still; To is zero while it lasts.
type Pause struct {
	From time.Time `json:"from"`
	To   time.Time `json:"to,omitzero"`
}

// Paused reports whether tr's clocks stand still now.
func (tr *Tournament) Paused() bool {
	return len(tr.Pauses) > 0 && tr.Pauses[len(tr.Pauses)-1].To.IsZero()
}

// PlayerRecord is what the referee keeps of an address across its games: its leave, its
// ratings (store/ratings.go), and how it asked to be shown moves and boards (SET NOTATION,
// SET BOARD).
type PlayerRecord struct {
	Address string  `json:"address"`
	Leaves  []Leave `json:"leaves,omitempty"`

	Ratings []PlayerRating `json:"ratings,omitempty"`
	// Notation is "numeric" for ICCF numeric notation, "" for the games' own.
	Notation string `json:"notation,omitempty"`
	// Board is "unicode" for figurine diagrams, "" for ASCII letters.
	Board string `json:"board,omitempty"`
	// Language is the language of his mail (lang.Tag, SET LANGUAGE): "" for the tournament's
	// or the server's. Pieces is the piece letters of the moves he reads and writes (SET
	// PIECES): "" to follow his language, "en" for the English letters whatever his language.
	Language string `json:"language,omitempty"`
	Pieces   string `json:"pieces,omitempty"`
	// NoChallenges: he asked for no invitations (NO CHALLENGES). Declined is the challengers
	// whose challenge he declined, who may not invite him again (the latest MaxDeclined).
	NoChallenges bool     `json:"no_challenges,omitempty"`
	Declined     []string `json:"declined,omitempty"`
}

// MaxDeclined is how many challengers a PlayerRecord remembers as declined.
const MaxDeclined = 100

// Leave is a span of whole days (UTC, From and To included) in which the clocks of every game
// of a player stand still.
type Leave struct {
	From    string    `json:"from"` // 2006-01-02
	To      string    `json:"to"`
	Granted time.Time `json:"granted"`
	By      string    `json:"by"` // the player's address, or the organizer's
}
