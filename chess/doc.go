// Package chess is the board every game refereed rests on: bitboards, attacks, legal moves,
// FEN, SAN and coordinate notation, and ASCII diagrams. It is pure (no I/O) and knows no variant
// by name.
//
// What variants build on (rules.md §10):
//   - A Board holds any set of men, so a player's view (only some men) is a Board too, and a
//     Position may lack a king: move generation then simply has no king to keep safe.
//   - Attacks are pure functions of square and occupancy (attacks.go); AttackCount counts the
//     attackers of a square (Synchronous chess control).
//   - Generate produces one colour's moves under a MoveRules value: orthodox legality, pseudo-legal
//     (no king safety, king capture allowed), and forward-only movement (Train Wreck).
//   - Notation is parsed apart from the rules: ParseNotation reads text into a position-free
//     Notation, and Resolve matches it against whatever candidate moves a variant offers.
//
// Squares run a1 = 0 to h8 = 63. Positions are values: copy one to keep it.
package chess
