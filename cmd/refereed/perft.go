package main

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"time"

	"github.com/refereed/refereed/chess"
)

func (m *Main) runPerft(ctx context.Context, args []string) int {
	fs := m.flagSet("perft", "Usage: refereed perft [--fen FEN] [--divide] DEPTH")
	fen := fs.String("fen", chess.StartFEN, "start position")
	divide := fs.Bool("divide", false, "print the count below each legal move")
	if err := fs.Parse(args); err != nil {
		return usageCode(err)
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return exitUsage
	}
	depth, err := strconv.Atoi(fs.Arg(0))
	if err != nil || depth < 0 || depth > 12 {
		fmt.Fprintf(m.Stderr, "refereed perft: depth %q: want a number from 0 to 12\n", fs.Arg(0))
		return exitUsage
	}
	p, err := chess.ParseFEN(*fen)
	if err == nil {
		err = p.Validate()
	}
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed perft: %v\n", err)
		return exitUsage
	}
	start := time.Now()
	var total uint64
	if *divide && depth > 0 {
		counts := p.Divide(depth)
		moves := make([]chess.Move, 0, len(counts))
		for mv := range counts {
			moves = append(moves, mv)
		}
		sort.Slice(moves, func(i, j int) bool { return moves[i].UCI() < moves[j].UCI() })
		for _, mv := range moves {
			fmt.Fprintf(m.Stdout, "%s: %d\n", mv.UCI(), counts[mv])
			total += counts[mv]
		}
		fmt.Fprintln(m.Stdout)
	} else {
		total = p.Perft(depth)
	}
	el := time.Since(start)
	fmt.Fprintf(m.Stdout, "nodes %d\ntime %s\nnps %.0f\n", total, el.Round(time.Millisecond), float64(total)/el.Seconds())
	return exitOK
}
