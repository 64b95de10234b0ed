package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"

	"github.com/refereed/refereed/archive"
)

func (m *Main) runVerify(ctx context.Context, args []string) int {
	fs := m.flagSet("verify", "Usage: refereed verify [--json] [--strict] [-j N] FILE...\n\nReplays every game; reports each invalid one with its number, tags, move and reason,\nand the warnings of the valid ones (--strict: a game with warnings is invalid).\nExit status: 0 all valid, 1 some invalid, 2 unreadable input.")
	asJSON := fs.Bool("json", false, "print one JSON object per invalid game or game with warnings, then a summary object")
	strict := fs.Bool("strict", false, "a game with warnings (a wrong check mark or move number, an annotation that does not fit) is invalid")
	workers := fs.Int("j", runtime.GOMAXPROCS(0), "games replayed in parallel")
	if err := fs.Parse(args); err != nil {
		return usageCode(err)
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return exitUsage
	}
	if *workers < 1 {
		*workers = 1
	}
	total, invalid, warned, warnings, unreadable := 0, 0, 0, 0, false
	enc := json.NewEncoder(m.Stdout)
	for _, name := range fs.Args() {
		n, err := archive.VerifyFile(ctx, name, *workers, func(v archive.Verdict) {
			bad := v.Invalid(*strict)
			if bad {
				invalid++
			}
			if len(v.Warnings) > 0 {
				warned++
				warnings += len(v.Warnings)
			}
			if *asJSON {
				kind := "warnings"
				if bad {
					kind = "invalid"
				}
				enc.Encode(struct {
					Type string `json:"type"`
					archive.Verdict
				}{kind, v})
				return
			}
			// Each message names the line of the step it is about (issue 33: it named the
			// game's first line), else the game's.
			head := func(line int) string {
				if line == 0 {
					line = v.Line
				}
				return fmt.Sprintf("%s: game %d (line %d)%s: ", v.File, v.Game, line, describeTags(v.Tags))
			}
			if v.Reason != "" {
				fmt.Fprintf(m.Stdout, "%s%s%s\n", head(v.MoveLine), where(v), v.Reason)
			}
			for i, w := range v.Warnings {
				line := 0
				if i < len(v.WarningLines) {
					line = v.WarningLines[i]
				}
				fmt.Fprintf(m.Stdout, "%swarning: %s\n", head(line), w)
			}
		})
		total += n
		if err != nil {
			unreadable = true
			if errors.Is(err, archive.ErrNoGames) || errors.Is(err, archive.ErrBinary) {
				fmt.Fprintf(m.Stderr, "refereed verify: %s %v\n", name, err)
			} else {
				fmt.Fprintf(m.Stderr, "refereed verify: %s: %v\n", name, err)
			}
		}
	}
	if *asJSON {
		enc.Encode(map[string]any{"type": "summary", "games": total, "valid": total - invalid, "invalid": invalid,
			"with_warnings": warned, "warnings": warnings, "strict": *strict, "unreadable": unreadable})
	} else {
		fmt.Fprintf(m.Stdout, "%d games, %d valid, %d invalid", total, total-invalid, invalid)
		if warned > 0 {
			fmt.Fprintf(m.Stdout, "; %d with warnings (%d warnings)", warned, warnings)
			if *strict {
				fmt.Fprint(m.Stdout, ", counted invalid (--strict)")
			}
		}
		fmt.Fprintln(m.Stdout)
	}
	switch {
	case unreadable:
		return exitUsage
	case invalid > 0:
		return exitInvalid
	}
	return exitOK
}

func where(v archive.Verdict) string {
	if v.Where == "" {
		return ""
	}
	if v.Move != "" {
		return fmt.Sprintf("%s %s: ", v.Where, v.Move)
	}
	return v.Where + ": "
}

func describeTags(tags map[string]string) string {
	var parts []string
	for _, k := range []string{"White", "Black", "Event", "Date", "Variant"} {
		if v := tags[k]; v != "" && v != "?" {
			parts = append(parts, k+" "+v)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " [" + strings.Join(parts, ", ") + "]"
}
