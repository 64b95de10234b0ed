package variant

import "github.com/refereed/refereed/chess"

// Announcement is what an umpire told both players after one successful move, in the fixed
// form of a Kriegspiel announcement: who played, where he captured, the check directions and,
// in Progressive Kriegspiel, whether the next mover has a pawn capture. `replay --json` lists
// a game's announcements under "announcements"; organizers and tests compare games with them.
type Announcement struct {
	By        string `json:"by"`         // "white" or "black"
	Captured  string `json:"captured"`   // the square of the man captured ("f7"; e.p. the pawn's), or ""
	EnPassant bool   `json:"en_passant"` // the capture was en passant
	// Checks are the directions of the checks given, one per checking man, in the order
	// "rank", "file", "long diagonal", "short diagonal", "knight"; empty when none.
	Checks []string `json:"checks"`
	// PawnTries is whether the player who moves next has a pawn capture (Progressive
	// Kriegspiel); nil where the game announces none (Kriegspiel, or the move ended the game).
	PawnTries *bool `json:"pawn_tries"`
}

// Announcer is implemented by games whose umpire announces every successful move to both
// players (Kriegspiel): Announcements lists them in order. Optional: replay reports them.
type Announcer interface {
	Announcements() []Announcement
}

// PublicViewer is implemented by games of hidden information that have a public part: what
// both players know of a game in progress, the same for both (the committed position of
// Transactional Chess, the umpire's announcements of Kriegspiel). The web archive shows it
// for games in progress; it must depend on nothing either player may not know. Optional.
type PublicViewer interface {
	PublicView() View
}

// RecordResolver is implemented by games whose records say more than a player may write: a
// Kriegspiel umpire log gives each attempt with the umpire's answer ("Nf3: No"), which a
// replay of the record checks. ReplayRecord reads a record's steps with ResolveRecord instead
// of Resolve; players' lines never reach it (an answer a player could ask to be checked would
// tell him what he may not know). Optional.
type RecordResolver interface {
	ResolveRecord(by Side, text string) (Command, []chess.Warning, error)
}
