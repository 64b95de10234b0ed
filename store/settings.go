package store

// EventIf is a player's IF move, a sequence of replies stated in advance (issue 25: IF <his
// move> <my reply> ...), or his dropping them all: Text is "if move e7e5;move g1f3" or "if
// clear". It is his secret: never shown to his opponent, and not part of the game's record
// (exports and the end-of-game reveal leave it out). The sequences standing are a replay of
// these events and of the moves logged after them, like everything else in a game. (Not
// Conditional Chess, a game of its own.)
const EventIf = "if"

// SourceIf is the Source of a move that a player's IF sequence played.
const SourceIf = "if"

// eventIfBefore is what stores of bbolt schema 7 and PostgreSQL migration 7 and older call
// EventIf and SourceIf: their events are renamed when the store is opened (bbolt's migration
// 7, the PostgreSQL migration 8).
const eventIfBefore = "conditional"
