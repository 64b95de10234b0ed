// Package bench measures refereed beside the peers its issues name, in the same run on the
// same machine: `refereed verify` against pgn-extract and corentings/chess's Scanner on
// big_big.pgn, and `refereed perft 6` against fairy-stockfish's "go perft 6". It is a module of
// its own so that the peers never become dependencies of refereed. Run it with ./run.
package bench
