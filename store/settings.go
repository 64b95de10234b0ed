package store

// EventConditional is a player's conditional sequence (issue 25: IF <his move> <my reply>
// ...), or his dropping them all: Text is "if move e7e5;move g1f3" or "if clear". It is his
// secret: never shown to his opponent, and not part of the game's record (exports and the
// end-of-game reveal leave it out). The sequences standing are a replay of these events
// and of the moves logged after them, like everything else in a game.
const EventConditional = "conditional"
