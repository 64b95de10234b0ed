package store

import (
	"fmt"
	"time"
)

// Game is one game: which variant, who plays, and how it stands. Its truth is its event log.
type Game struct {
	ID      uint64            `json:"id"`
	Variant string            `json:"variant"` // registry key, never a type name
	FEN     string            `json:"fen,omitempty"`
	Flags   map[string]string `json:"flags,omitempty"`
	Players [2]Player         `json:"players"` // [0] White, [1] Black
	Status  Status            `json:"status"`
	Result  string            `json:"result,omitempty"`
	// Reminded is when the last deadline reminder was sent (rules.md 0.4a): it counts for the
	// action waiting if it was sent after that action began.
	Reminded time.Time `json:"reminded,omitempty"`
	Reason   string    `json:"reason,omitempty"`
	// Restores counts the times the store was put back from a backup since the game began:
	// mail numbers sent after the backup are used again, so Message-IDs carry it.
	Restores int `json:"restores,omitempty"`
	// Tournament is the tournament this game is part of (0: none), and Round its round there.
	Tournament uint64    `json:"tournament,omitempty"`
	Round      int       `json:"round,omitempty"`
	Created    time.Time `json:"created"`
	Updated    time.Time `json:"updated"`

	// Rated: when the game ends, its players' ratings are updated (store/ratings.go).
	Rated bool `json:"rated,omitempty"`

	// Former lists, in order, who played a side before the organizer gave it to another
	// (REPLACE): the game stays his as far as he played it, and the index of players keeps
	// it under his address too.
	Former []Former `json:"former,omitempty"`
}

// Former is a player who played side Side of a game up to the organizer's REPLACE at At:
// the game's first Commands commands (as they stood then) were played before it, and Move
// is the number of the first move his successor plays.
type Former struct {
	Side     int       `json:"side"`
	Address  string    `json:"address"`
	Commands int       `json:"commands"`
	Move     int       `json:"move"`
	At       time.Time `json:"at"`
}

// Successor is who took over the side of the game's i-th replacement (Former[i]): the next
// replacement's former player of that side, or the side's player now.
func (g *Game) Successor(i int) string {
	f := g.Former[i]
	for _, later := range g.Former[i+1:] {
		if later.Side == f.Side {
			return later.Address
		}
	}
	return g.Players[f.Side&1].Address
}

// Indexed are the addresses a game is listed under: its players' and its former players'.
func (g *Game) Indexed() []string {
	out := []string{g.Players[0].Address, g.Players[1].Address}
	for _, f := range g.Former {
		out = append(out, f.Address)
	}
	return out
}

// Status is whether a game goes on. The game's log is its truth: Status is the log's outcome
// kept beside it (set by the referee when the game ends, in the same transaction) so that
// lists and pages need not replay the log to know it.
type Status string

const (
	Active Status = "active" // the game goes on
	Over   Status = "over"   // the game has ended: its result and reason are set
)

// begin gives a new game its id and times, and checks that each player has a token.
func (g *Game) begin(id uint64, now time.Time) error {
	g.ID = id
	g.Created, g.Updated = now, now
	if g.Status == "" {
		g.Status = Active
	}
	for side, p := range g.Players {
		if p.Token == "" {
			return fmt.Errorf("store: create game: player %d has no token", side)
		}
	}
	return nil
}

// Over reports whether the game has ended.
func (g *Game) Over() bool { return g.Status == Over }

// Player is a player of one game.
type Player struct {
	Address string `json:"address"` // the registered From address
	Token   string `json:"token"`   // secret; carried in the reply address only
	Mails   int    `json:"mails"`   // mails sent to this player in this game (numbers Message-IDs)
	Bounces int    `json:"bounces,omitempty"`
	// LastBounce is the last delivery failure reported for this player's address.
	LastBounce string `json:"last_bounce,omitempty"`
	// Sent holds hashes of the lines of the last mails sent to this player in this game
	// (parser.SentLines, 4 bytes each, oldest first, bounded by the referee): a reply's
	// lines found among them are quoted text. They tell nothing that the mails did not.
	Sent []byte `json:"sent,omitempty"`
}

// GameRef points from a token to its game and side, or, for an organizer's token, to his
// tournament (Game 0).
type GameRef struct {
	Game       uint64 `json:"game"`
	Side       int    `json:"side"` // 0 White, 1 Black
	Tournament uint64 `json:"tournament,omitempty"`
	// Challenge, when set, says the token is an invited player's, for his answer to
	// challenge Challenge (Game and Side are then 0).
	Challenge uint64 `json:"challenge,omitempty"`
	// Replaced, when set, says the token is no longer a player's: the organizer gave his
	// place to another (REPLACE). Mail with it is answered with who and when, never applied.
	Replaced *Replacement `json:"replaced,omitempty"`
}

// Event is one entry of a game's log: an accepted command in canonical form (Kind ""), or
// what the organizer did to the game's clocks (Kind EventExtend), which the game's rules
// never see.
type Event struct {
	Seq    uint64    `json:"seq"`
	Side   int       `json:"side"`
	Text   string    `json:"text"`
	At     time.Time `json:"at"`
	Source string    `json:"source"` // the inbound key, "admin", "deadline" or "organizer"
	Kind   string    `json:"kind,omitempty"`
	// Days is what an EventExtend gives Side.
	Days int `json:"days,omitempty"`
	// Undo is how many commands before it an accepted takeback took back.
	Undo int `json:"undo,omitempty"`
}

// The kinds of a game's events that are not commands of its rules.
const (
	// EventExtend is an organizer's extension of a player's time in a game.
	EventExtend = "extend"
	// EventReplace is the organizer's REPLACE of the player of Side (Text "replace <old>
	// <new>"): who plays the side from then on; the game's rules never see it.
	EventReplace = "replace"
	// EventTakeback is a step of a takeback (Text "takeback offer", "takeback accept" ...):
	// an accepted one takes its Undo commands out of the game.
	EventTakeback = "takeback"
)

// Effective is the game's commands as they stand: those of log, less those taken back.
func Effective(log []Event) []Event {
	out := make([]Event, 0, len(log))
	for _, e := range log {
		switch {
		case e.IsCommand():
			out = append(out, e)
		case e.Kind == EventTakeback && e.Undo > 0:
			out = out[:len(out)-min(e.Undo, len(out))]
		}
	}
	return out
}

// IsCommand reports whether e is a command of the game (what its rules replay).
func (e Event) IsCommand() bool { return e.Kind == "" }
