package rating

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// A rating list as CSV: a header line naming the columns, then one rating a line. ReadCSV
// reads the columns player, variant, rating, rd and volatility in any order (others, such as
// the games column WriteCSV writes, are ignored), so that one run's output is the next
// run's --initial.

// CSVColumns are the columns WriteCSV writes.
var CSVColumns = []string{"player", "variant", "rating", "rd", "volatility", "games"}

// ReadCSV reads a rating list. A line that cannot be a rating (a number out of range, a
// player twice in one game) is an error naming its line; nothing of a faulty list is kept.
func ReadCSV(r io.Reader) (map[Key]Rating, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	cr.ReuseRecord = true
	head, err := cr.Read()
	if err == io.EOF {
		return nil, errors.New("empty: want a header line player,variant,rating,rd,volatility")
	}
	if err != nil {
		return nil, csvError(err)
	}
	col := map[string]int{}
	for i, name := range head {
		name = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(name, "\ufeff")))
		if _, dup := col[name]; dup {
			return nil, fmt.Errorf("line 1: the column %q twice", name)
		}
		col[name] = i
	}
	for _, need := range CSVColumns[:5] {
		if _, ok := col[need]; !ok {
			return nil, fmt.Errorf("line 1: no column %q (want a header line player,variant,rating,rd,volatility)", need)
		}
	}
	out := map[Key]Rating{}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, csvError(err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue // an empty line
		}
		field := func(name string) (string, error) {
			i := col[name]
			if i >= len(rec) {
				return "", fmt.Errorf("line %d: no %s (it has %d fields)", line, name, len(rec))
			}
			return strings.TrimSpace(rec[i]), nil
		}
		number := func(name string, lo, hi float64) (float64, error) {
			s, err := field(name)
			if err != nil {
				return 0, err
			}
			x, err := strconv.ParseFloat(s, 64)
			if err != nil || math.IsNaN(x) || x < lo || x > hi {
				return 0, fmt.Errorf("line %d: %s %q: want a number from %v to %v", line, name, s, lo, hi)
			}
			return x, nil
		}
		var k Key
		if k.Player, err = field("player"); err != nil {
			return nil, err
		}
		if k.Game, err = field("variant"); err != nil {
			return nil, err
		}
		if k.Player == "" || k.Game == "" {
			return nil, fmt.Errorf("line %d: a rating needs a player and a variant", line)
		}
		var r Rating
		if r.Rating, err = number("rating", -10000, 10000); err != nil {
			return nil, err
		}
		if r.RD, err = number("rd", 1, InitialRD); err != nil {
			return nil, err
		}
		if r.Vol, err = number("volatility", 0.0001, 1); err != nil {
			return nil, err
		}
		if _, dup := out[k]; dup {
			return nil, fmt.Errorf("line %d: %s has a rating in %s already", line, k.Player, k.Game)
		}
		out[k] = r
	}
}

func csvError(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return fmt.Errorf("line %d, column %d: %v", pe.StartLine, pe.Column, pe.Err)
	}
	return err
}

// WriteCSV writes standings with the columns CSVColumns: rating and RD to a hundredth,
// volatility to six places (enough to carry a list on without a visible change).
func WriteCSV(w io.Writer, list []Standing) error {
	cw := csv.NewWriter(w)
	cw.Write(CSVColumns)
	for _, s := range list {
		cw.Write([]string{s.Player, s.Game, strconv.FormatFloat(s.Rating.Rating, 'f', 2, 64),
			strconv.FormatFloat(s.RD, 'f', 2, 64), strconv.FormatFloat(s.Vol, 'f', 6, 64), strconv.Itoa(s.Games)})
	}
	cw.Flush()
	return cw.Error()
}
