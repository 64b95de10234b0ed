package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/refereed/refereed/archive"
	"github.com/refereed/refereed/record"
	"github.com/refereed/refereed/variant"
)

// replayReport is the --json output of replay.
type replayReport struct {
	Game        int      `json:"game"`  // which game of the file was replayed
	Games       int      `json:"games"` // how many the file holds
	Variant     string   `json:"variant"`
	Result      string   `json:"result"`
	Termination string   `json:"termination"`
	Reason      string   `json:"reason,omitempty"`
	FEN         string   `json:"fen"`
	Plies       int      `json:"plies"`
	Warnings    []string `json:"warnings"`
	// Announcements are the umpire's public announcements of every move, for the games
	// that have an umpire (variant.Announcer: Kriegspiel); absent for the others.
	Announcements *[]variant.Announcement `json:"announcements,omitempty"`
	Error         *struct {
		Where  string `json:"where"`
		Move   string `json:"move"`
		Reason string `json:"reason"`
	} `json:"error,omitempty"`
}

func (m *Main) runReplay(ctx context.Context, args []string) int {
	fs := m.flagSet("replay", "Usage: refereed replay [--json] [--game N] FILE\n\nPrints the final position (diagram and FEN), the result and how the game ended.\nExit status: 0 replayed, 1 the record has an illegal move, 2 unreadable input.")
	asJSON := fs.Bool("json", false, "print one JSON object")
	gameNo := fs.Int("game", 1, "which game of the file to replay")
	if err := fs.Parse(args); err != nil {
		return usageCode(err)
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return exitUsage
	}
	rec, games, err := readGame(m.Stdin, fs.Arg(0), *gameNo)
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed replay: %v\n", err)
		return exitUsage
	}
	r, err := variant.ReplayRecord(rec)
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed replay: %s: game %d: %v\n", fs.Arg(0), rec.Number, err)
		return exitUsage
	}
	out := r.Game.Outcome()
	pos := r.Game.Position()
	rep := replayReport{Game: rec.Number, Games: games, Variant: r.Variant.Key, Result: out.Result, Termination: out.Termination, Reason: out.Reason,
		FEN: pos.FEN(), Plies: r.Plies, Warnings: r.Warnings}
	if rep.Warnings == nil {
		rep.Warnings = []string{}
	}
	if a, ok := r.Game.(variant.Announcer); ok {
		list := a.Announcements()
		rep.Announcements = &list
	}
	if f := r.Failure; f != nil {
		rep.Error = &struct {
			Where  string `json:"where"`
			Move   string `json:"move"`
			Reason string `json:"reason"`
		}{f.Where, f.Text, f.Err.Error()}
	}
	if *asJSON {
		enc := json.NewEncoder(m.Stdout)
		enc.SetIndent("", "  ")
		enc.Encode(rep)
	} else {
		view := r.Game.View(variant.AsReferee)
		if games > 1 {
			fmt.Fprintf(m.Stdout, "%s holds %d games; this is game %d (--game N replays another).\n\n", fs.Arg(0), games, rec.Number)
		}
		fmt.Fprintf(m.Stdout, "%s, after %d plies\n\n", r.Variant.Name, r.Plies)
		fmt.Fprint(m.Stdout, view.Diagram())
		if len(r.Game.Log()) > 0 {
			fmt.Fprintln(m.Stdout)
		}
		fmt.Fprintf(m.Stdout, "\nFEN: %s\n", rep.FEN)
		if rep.Error != nil {
			fmt.Fprintf(m.Stdout, "Illegal: %s %s: %s\n", rep.Error.Where, rep.Error.Move, rep.Error.Reason)
		} else {
			fmt.Fprintf(m.Stdout, "Result: %s (%s", rep.Result, rep.Termination)
			if rep.Reason != "" && rep.Reason != rep.Termination {
				fmt.Fprintf(m.Stdout, ": %s", rep.Reason)
			}
			fmt.Fprintln(m.Stdout, ")")
		}
		for _, w := range rep.Warnings {
			fmt.Fprintf(m.Stdout, "Warning: %s\n", w)
		}
	}
	if rep.Error != nil {
		if !*asJSON {
			fmt.Fprintf(m.Stderr, "refereed replay: %s: %s %s: %s\n", fs.Arg(0), rep.Error.Where, rep.Error.Move, rep.Error.Reason)
		}
		return exitInvalid
	}
	return exitOK
}

// readGame returns game n (1-based) of a PGN file ("-" is standard input) and the number of
// games the file holds.
func readGame(stdin io.Reader, name string, n int) (*record.Record, int, error) {
	r, done, err := archive.OpenRecords(stdin, name)
	if errors.Is(err, archive.ErrBinary) {
		return nil, 0, fmt.Errorf("%s %w", name, err)
	} else if err != nil {
		return nil, 0, err
	}
	defer done()
	rd := record.NewReader(r)
	var found *record.Record
	var foundErr error
	games := 0
	for {
		rec, err := rd.Next()
		var syn *record.SyntaxError
		switch {
		case err == io.EOF:
			switch {
			case games == 0:
				return nil, 0, fmt.Errorf("%s %w", name, archive.ErrNoGames)
			case found == nil && foundErr == nil:
				return nil, games, fmt.Errorf("%s has no game %d (it holds %d)", name, n, games)
			}
			return found, games, foundErr
		case errors.As(err, &syn):
			games = syn.Number
			if syn.Number == n {
				foundErr = fmt.Errorf("%s: %v", name, syn)
			}
			continue
		case err != nil:
			return nil, games, err
		}
		games = rec.Number
		if rec.Number == n {
			found = rec
		}
	}
}
