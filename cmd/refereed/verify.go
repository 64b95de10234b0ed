package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"github.com/refereed/refereed/record"
	"github.com/refereed/refereed/variant"
)

// verdict is the outcome of verifying one game that is invalid or has warnings.
type verdict struct {
	File     string            `json:"file"`
	Game     int               `json:"game"`
	Line     int               `json:"line"`
	Tags     map[string]string `json:"tags,omitempty"`
	Where    string            `json:"where,omitempty"` // "move 12...", "result"
	Move     string            `json:"move,omitempty"`  // the text as written
	Reason   string            `json:"reason,omitempty"`
	Warnings []string          `json:"warnings,omitempty"`
}

// invalid reports whether v is an invalid game (strict: a game with warnings too).
func (v *verdict) invalid(strict bool) bool { return v.Reason != "" || strict && len(v.Warnings) > 0 }

func (m *Main) runVerify(ctx context.Context, args []string) int {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(m.Stderr)
	asJSON := fs.Bool("json", false, "print one JSON object per invalid game or game with warnings, then a summary object")
	strict := fs.Bool("strict", false, "a game with warnings (a wrong check mark or move number, an annotation that does not fit) is invalid")
	workers := fs.Int("j", runtime.GOMAXPROCS(0), "games replayed in parallel")
	fs.Usage = func() {
		fmt.Fprintln(m.Stderr, "Usage: refereed verify [--json] [--strict] [-j N] FILE...\n\nReplays every game; reports each invalid one with its number, tags, move and reason,\nand the warnings of the valid ones (--strict: a game with warnings is invalid).\nExit status: 0 all valid, 1 some invalid, 2 unreadable input.")
		fs.PrintDefaults()
	}
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
		n, err := verifyFile(ctx, name, *workers, func(v verdict) {
			bad := v.invalid(*strict)
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
					verdict
				}{kind, v})
				return
			}
			head := fmt.Sprintf("%s: game %d (line %d)%s: ", v.File, v.Game, v.Line, describeTags(v.Tags))
			if v.Reason != "" {
				fmt.Fprintf(m.Stdout, "%s%s%s\n", head, where(v), v.Reason)
			}
			for _, w := range v.Warnings {
				fmt.Fprintf(m.Stdout, "%swarning: %s\n", head, w)
			}
		})
		total += n
		if err != nil {
			unreadable = true
			if errors.Is(err, errNoGame) || errors.Is(err, errBinary) {
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

func where(v verdict) string {
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

// errNoGame and errBinary say why a file holds nothing to verify or replay.
var (
	errNoGame = errors.New("holds no game: it is empty, or has no tags and no moves")
	errBinary = errors.New("is not a PGN text file (it holds binary data)")
)

// openRecords opens a PGN file ("-" is standard input) for reading, after a look at its
// start: a file with binary data in its first bytes is refused (errBinary).
func openRecords(stdin io.Reader, name string) (io.Reader, func(), error) {
	var r io.Reader = stdin
	done := func() {}
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, nil, err
		}
		r, done = f, func() { f.Close() }
	}
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(8 << 10)
	if looksBinary(head) {
		done()
		return nil, nil, errBinary
	}
	return br, done, nil
}

// looksBinary reports whether b is not text: a NUL byte, or many control bytes. Bytes of
// other encodings than UTF-8 (Latin-1 names in old archives) are text.
func looksBinary(b []byte) bool {
	if bytes.IndexByte(b, 0) >= 0 {
		return true
	}
	control := 0
	for _, c := range b {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' || c == 0x7f {
			control++
		}
	}
	return control > len(b)/20
}

// verifyFile streams one file's games through workers and reports, in file order, each one
// that is invalid or has warnings. It returns the number of games read; a file without any
// game is an error (errNoGame), and so is a binary one.
func verifyFile(ctx context.Context, name string, workers int, report func(verdict)) (games int, err error) {
	r, done, err := openRecords(os.Stdin, name)
	if err != nil {
		return 0, err
	}
	defer done()
	defer func() {
		if err == nil && games == 0 {
			err = errNoGame
		}
	}()
	rd := record.NewReader(r)
	// Games go to the workers in batches of consecutive games, and their verdicts come back
	// so: handed over one by one, each game cost goroutine wake-ups.
	type item struct {
		rec *record.Record
		syn *record.SyntaxError
	}
	type job struct {
		items []item
		out   chan []*verdict
	}
	jobs := make(chan job, 2*workers)
	order := make(chan chan []*verdict, 4*workers)
	var readErr error
	go func() {
		defer close(jobs)
		defer close(order)
		var batch []item
		send := func() {
			if len(batch) > 0 {
				j := job{items: batch, out: make(chan []*verdict, 1)}
				order <- j.out
				jobs <- j
				batch = nil
			}
		}
		defer send()
		for ctx.Err() == nil {
			rec, err := rd.Next()
			var syn *record.SyntaxError
			if err == io.EOF {
				return
			} else if errors.As(err, &syn) {
			} else if err != nil {
				readErr = err
				return
			}
			batch = append(batch, item{rec: rec, syn: syn})
			if len(batch) == verifyBatch {
				send()
			}
		}
	}()
	for i := 0; i < workers; i++ {
		go func() {
			var rp variant.Replayer
			for j := range jobs {
				vs := make([]*verdict, len(j.items))
				for k, it := range j.items {
					if it.syn != nil {
						vs[k] = &verdict{File: name, Game: it.syn.Number, Line: it.syn.Line, Reason: it.syn.Msg}
						continue
					}
					vs[k] = verifyRecord(&rp, name, it.rec)
				}
				j.out <- vs
			}
		}()
	}
	for out := range order {
		for _, v := range <-out {
			games++
			if v != nil {
				report(*v)
			}
		}
	}
	if readErr == nil && ctx.Err() != nil {
		readErr = ctx.Err()
	}
	return games, readErr
}

// verifyBatch is how many consecutive games a worker replays at a time.
const verifyBatch = 32

// verifyRecord replays one game; nil means valid without a warning.
func verifyRecord(rp *variant.Replayer, file string, rec *record.Record) *verdict {
	fail := func(where, move, reason string, warnings []string) *verdict {
		tags := map[string]string{}
		for _, t := range rec.Tags {
			tags[t.Name] = t.Value
		}
		return &verdict{File: file, Game: rec.Number, Line: rec.Line, Tags: tags, Where: where, Move: move, Reason: reason, Warnings: warnings}
	}
	r, err := rp.Replay(rec)
	if err != nil {
		return fail("", "", err.Error(), nil)
	}
	if f := r.Failure; f != nil {
		move := f.Text
		if f.Where == "result" {
			move = ""
		}
		return fail(f.Where, move, f.Err.Error(), r.Warnings)
	}
	if len(r.Warnings) > 0 {
		return fail("", "", "", r.Warnings)
	}
	return nil
}
