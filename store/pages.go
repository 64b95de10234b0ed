package store

import "math"

// The long lists (every game, the games of a status or variant, a game's rating list) are read
// a page at a time. A page found by its number skips the lines before it; a page found from
// where the page beside it ended seeks that point by an index and reads its own lines only,
// so that the web archive's links to the next and the previous page cost the page at any depth
// (GameIDsFrom, RatedFrom).

// RatedAt is a point in a game's rating list, between two of its lines: every line rated
// above Rating comes before it and, of the lines rated Rating exactly, the first Ties in the
// order of their addresses. It names no player: a link may carry it.
type RatedAt struct {
	Rating float64
	Ties   int
}

// RatedStart and RatedEnd are the points before a rating list's first line and after its
// last.
var (
	RatedStart = RatedAt{Rating: math.Inf(1)}
	RatedEnd   = RatedAt{Rating: math.Inf(-1)}
)

// RatedSlice is a run of a rating list's lines, best first, with the points before its first
// line (Start) and after its last (End); More says whether the list goes on past the run in
// the direction it was read.
type RatedSlice struct {
	Lines      []RatedEntry
	Start, End RatedAt
	More       bool
}

// tieIndexes numbers the lines of a run read best first: each line's place among the lines of
// its rating, the first line's being first.
func tieIndexes(lines []ratedLine, first int) []int {
	idx := make([]int, len(lines))
	for i := range lines {
		switch {
		case i == 0:
			idx[i] = first
		case lines[i].rating == lines[i-1].rating:
			idx[i] = idx[i-1] + 1
		}
	}
	return idx
}

// ratedLine is a line read with the rating it is ordered by.
type ratedLine struct {
	RatedEntry
	rating float64
}

// slice makes the run of lines (best first) read forward from at, or back to it.
func ratedSlice(lines []ratedLine, at RatedAt, back bool, firstTie int, more bool) RatedSlice {
	s := RatedSlice{Start: at, End: at, More: more}
	if len(lines) == 0 {
		return s
	}
	idx := tieIndexes(lines, firstTie)
	first, last := 0, len(lines)-1
	if back {
		s.Start = RatedAt{Rating: lines[first].rating, Ties: idx[first]}
	} else {
		s.End = RatedAt{Rating: lines[last].rating, Ties: idx[last] + 1}
	}
	for _, l := range lines {
		s.Lines = append(s.Lines, l.RatedEntry)
	}
	return s
}
