package web

// inProgress is what the archive shows of a game still going, by variant key (rules.md 0.4b):
// only what both players already know. A variant not listed shows only the public minimum.
var inProgress = map[string]policy{
	// Full information: the position and the moves are known to both players.
	"orthodox":            {Position: true, Moves: true, Turn: true},
	"progressive":         {Position: true, Moves: true, Turn: true},
	"progressive-italian": {Position: true, Moves: true, Turn: true},
	"trainwreck":          {Position: true, Moves: true, Turn: true},
	"trainwreck-three":    {Position: true, Moves: true, Turn: true},
	// Full information except the pending C-move, which is not yet played: the position is
	// the played one, and the move list drops any comment (a stated C-move).
	"conditional": {Position: true, Moves: true, Turn: true},
	// Kriegspiel: the move number is announced to both ("Played"), and every announcement.
	"kriegspiel": {Turn: true, Public: true},
	// Simultaneous moves: the number of the turn (both players learn when a turn resolves);
	// who is to act would tell whether one player has sealed his move.
	"synchronous": {Number: true},
	"korolev":     {Number: true},
	// Hidden information: players, status and the game's public view (the committed
	// position of Transactional Chess, Progressive Kriegspiel's announcements). Who is to
	// act, or the number of the transaction, would tell whether a player has a move pending.
	"progressive-kriegspiel": {Public: true},
	"transactional":          {Public: true},
}

// policy is what is shown of a game in progress besides its players and status.
type policy struct {
	Position bool // the board as it stands
	Moves    bool // the move list in the literature's notation
	Turn     bool // whose turn and its name ("move 12")
	Number   bool // the number of the turn being played, from the resolved position
	Public   bool // the game's public view (variant.PublicViewer): committed men, announcements
}

// policyOf is the policy of variant key; the public minimum for an unknown one.
func policyOf(key string) policy { return inProgress[key] }
