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
//     (no king safety, king capture allowed), forward-only movement (Train Wreck), captures of
//     one's own men (Korolev), and the moves possible judged from one's own men alone
//     (Kriegspiel's "Impossible"). LegalMovesEP takes the e.p. squares from the variant
//     (Progressive, Transactional); KingAttacked asks about either king, whoever is to move.
//   - A castling move names its man's squares; its rook is the one in the corner it moves
//     towards (Move.CastlingRook), so a Train Wreck queen castles as a king does.
//   - FindUCI finds a move written in coordinates (a log's canonical form) among candidates.
//   - Notation is parsed apart from the rules: ParseNotation reads text into a position-free
//     Notation, and Resolve matches it against whatever candidate moves a variant offers.
//     For orthodox legality, Candidates generates only the moves a notation may name
//     (LegalMovesTo: onto one square, from the men that can reach it), and HasLegalMove
//     stops at the first legal move: a replay's ply needs no full move list.
//
// Squares run a1 = 0 to h8 = 63. Positions are values: copy one to keep it.
package chess
