package archive

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"time"

	"github.com/refereed/refereed/record"
	"github.com/refereed/refereed/variant"
)

// The verification of archives: every game of a PGN stream replayed through its variant, on
// all cores, in constant memory, its verdicts reported in file order.

// Verdict is the outcome of verifying one game that is invalid or has warnings.
type Verdict struct {
	File     string            `json:"file"`
	Game     int               `json:"game"`
	Line     int               `json:"line"`
	Tags     map[string]string `json:"tags,omitempty"`
	Where    string            `json:"where,omitempty"` // "move 12...", "result"
	Move     string            `json:"move,omitempty"`  // the text as written
	Reason   string            `json:"reason,omitempty"`
	Warnings []string          `json:"warnings,omitempty"`
	// MoveLine is the line the failing step is written on, and WarningLines that of each
	// warning's step (0: not known, or of the whole game).
	MoveLine     int   `json:"move_line,omitempty"`
	WarningLines []int `json:"warning_lines,omitempty"`
}

// Invalid reports whether v is an invalid game (strict: a game with warnings too).
func (v *Verdict) Invalid(strict bool) bool { return v.Reason != "" || strict && len(v.Warnings) > 0 }

// ErrNoGames and ErrBinary say why a file holds nothing to verify or replay.
var (
	ErrNoGames = errors.New("holds no game: it is empty, or has no tags and no moves")
	ErrBinary  = errors.New("is not a PGN text file (it holds binary data)")
)

// OpenRecords opens a PGN file ("-" is standard input) for reading, after a look at its
// start: a file with binary data in its first bytes is refused (ErrBinary).
func OpenRecords(stdin io.Reader, name string) (io.Reader, func(), error) {
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
		return nil, nil, ErrBinary
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

// VerifyFile streams one file's games through workers and reports, in file order, each one
// that is invalid or has warnings. It returns the number of games read; a file without any
// game is an error (ErrNoGames), and so is a binary one.
func VerifyFile(ctx context.Context, name string, workers int, report func(Verdict)) (games int, err error) {
	return VerifyFileEach(ctx, name, workers, report, nil)
}

// Played is what rating needs of a valid game: who played it, when, which game and how it
// ended.
type Played struct {
	File  string
	Game  int // its number in the file
	Line  int
	White string
	Black string
	Date  string // the Date tag, as written ("2027.03.??")
	// End is when the game ended, from refereed's EndDate and EndTime tags (EndOf); zero
	// when the record does not say.
	End     time.Time
	Variant string // the variant's registry key
	Result  string // how the replayed game ended: "1-0", "0-1", "1/2-1/2", or "*"
	Plies   int    // plies played (0: decided without a move)
	// Termination is the Termination tag ("abandoned": refereed's export of a game a
	// withdrawal ended).
	Termination string
	// Rated is the Rated tag: refereed's export says "yes" or "no"; other archives say
	// nothing (every game counts).
	Rated string
}

// VerifyFileEach is VerifyFile that also hands each valid game (one without a Verdict, or
// with warnings only), in file order, to played when it is not nil.
func VerifyFileEach(ctx context.Context, name string, workers int, report func(Verdict), played func(Played)) (games int, err error) {
	r, done, err := OpenRecords(os.Stdin, name)
	if err != nil {
		return 0, err
	}
	defer done()
	defer func() {
		if err == nil && games == 0 {
			err = ErrNoGames
		}
	}()
	rd := record.NewReader(r)
	// Games go to the workers in batches of consecutive games, and their verdicts come back
	// so: handed over one by one, each game cost goroutine wake-ups.
	type item struct {
		rec *record.Record
		syn *record.SyntaxError
	}
	type verdict struct {
		v *Verdict
		p *Played // a valid game, when played is wanted
	}
	type job struct {
		items []item
		out   chan []verdict
	}
	jobs := make(chan job, 2*workers)
	order := make(chan chan []verdict, 4*workers)
	var readErr error
	go func() {
		defer close(jobs)
		defer close(order)
		var batch []item
		send := func() {
			if len(batch) > 0 {
				j := job{items: batch, out: make(chan []verdict, 1)}
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
				vs := make([]verdict, len(j.items))
				for k, it := range j.items {
					if it.syn != nil {
						vs[k].v = &Verdict{File: name, Game: it.syn.Number, Line: it.syn.Line, Reason: it.syn.Msg}
						continue
					}
					if played == nil {
						vs[k].v = VerifyRecord(&rp, name, it.rec)
						continue
					}
					vs[k].v, vs[k].p = verifyPlayed(&rp, name, it.rec)
				}
				j.out <- vs
			}
		}()
	}
	for out := range order {
		for _, d := range <-out {
			games++
			if d.v != nil {
				report(*d.v)
			}
			if d.p != nil {
				played(*d.p)
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

// VerifyRecord replays one game; nil means valid without a warning.
func VerifyRecord(rp *variant.Replayer, file string, rec *record.Record) *Verdict {
	v, _ := verify(rp, file, rec)
	return v
}

// verifyPlayed is VerifyRecord that also says, for a game that is valid (warnings allowed),
// what rating needs of it.
func verifyPlayed(rp *variant.Replayer, file string, rec *record.Record) (*Verdict, *Played) {
	v, r := verify(rp, file, rec)
	if v != nil && v.Reason != "" || r == nil {
		return v, nil
	}
	return v, &Played{File: file, Game: rec.Number, Line: rec.Line, White: rec.Tag("White"), Black: rec.Tag("Black"),
		Date: rec.Tag("Date"), Variant: r.Variant.Key, Result: r.Game.Outcome().Result, Plies: r.Plies,
		Termination: rec.Tag("Termination"), Rated: rec.Tag("Rated"), End: EndOf(rec.Tag("EndDate"), rec.Tag("EndTime"))}
}

func verify(rp *variant.Replayer, file string, rec *record.Record) (*Verdict, *variant.Replayed) {
	fail := func(where, move, reason string, warnings []string) *Verdict {
		tags := map[string]string{}
		for _, t := range rec.Tags {
			tags[t.Name] = t.Value
		}
		return &Verdict{File: file, Game: rec.Number, Line: rec.Line, Tags: tags, Where: where, Move: move, Reason: reason, Warnings: warnings}
	}
	lines := func(v *Verdict, r *variant.Replayed) *Verdict {
		if len(r.Warnings) > 0 {
			v.WarningLines = r.WarningLines
		}
		if r.Failure != nil {
			v.MoveLine = r.Failure.Line
		}
		return v
	}
	r, err := rp.Replay(rec)
	if err != nil {
		return fail("", "", err.Error(), nil), nil
	}
	if f := r.Failure; f != nil {
		move := f.Text
		if f.Where == "result" {
			move = ""
		}
		return lines(fail(f.Where, move, f.Err.Error(), r.Warnings), r), r
	}
	if len(r.Warnings) > 0 {
		return lines(fail("", "", "", r.Warnings), r), r
	}
	return nil, r
}
