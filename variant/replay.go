package variant

import (
	"errors"
	"fmt"
	"strings"

	"github.com/refereed/refereed/record"
)

// Failure is the first command of a log or record that could not be applied.
type Failure struct {
	Index int    // 0-based index in the log or the record's steps
	Where string // how the record names it ("ply 14", "T5")
	Text  string // the command as written
	Err   error
	Line  int // records: the line of the file the step is written on (0: not known)
}

func (f *Failure) Error() string {
	if f.Where == "" {
		return fmt.Sprintf("command %d (%s): %v", f.Index+1, f.Text, f.Err)
	}
	return fmt.Sprintf("%s (%s): %v", f.Where, f.Text, f.Err)
}

func (f *Failure) Unwrap() error { return f.Err }

// Replay rebuilds a game from its log: the state is a pure function of the log (scalachess
// Replay). It returns the game reached so far and, if some entry failed, the first failure.
func Replay(v *Variant, opts Options, log []Command) (Game, *Failure, error) {
	return ReplayWith(v, opts, log, Watch{})
}

// Watch is a look at every step of a replay.
type Watch struct {
	// Notices asks for the notices of each step (a replay is otherwise quiet: nobody reads
	// them, and writing them costs).
	Notices bool
	// Each is called first with i == -1 and the game as it starts, then after entry i was
	// applied, with the game as it then stands and the notices the entry caused; an error
	// from it stops the replay and is returned.
	Each func(i int, g Game, notices []Notice) error
}

// ReplayWith is Replay with a Watch. It is the one way the daemon, its deadlines, the
// players' history and the exports rebuild a game.
func ReplayWith(v *Variant, opts Options, log []Command, w Watch) (Game, *Failure, error) {
	g, err := v.New(opts)
	if err != nil {
		return nil, nil, err
	}
	if !w.Notices {
		g.SetQuiet(true)
		defer g.SetQuiet(false)
	}
	if w.Each != nil {
		if err := w.Each(-1, g, nil); err != nil {
			return g, nil, err
		}
	}
	for i, cmd := range log {
		notices, err := g.Submit(cmd)
		if err != nil {
			return g, &Failure{Index: i, Text: cmd.String(), Err: err}, nil
		}
		if w.Each != nil {
			if err := w.Each(i, g, notices); err != nil {
				return g, nil, err
			}
		}
	}
	return g, nil, nil
}

// Noter is implemented by games that find notes on a record while its steps are applied
// (Conditional: a starred branch that the rules do not play). Each note names the place in
// the record it is about, which need not be the step being applied.
type Noter interface {
	TakeNotes() []string
}

// Skip is what a game's ResolveRecord returns for a record's annotation that does not fit the
// game (a Kriegspiel umpire's comment saying No to a legal move): the replay skips the step
// and keeps Why as a warning, as it does a wrong check mark. A move that cannot be played is
// never skipped: it is an error.
type Skip struct{ Why string }

func (s *Skip) Error() string { return s.Why }

// PlyCounter is implemented by games whose records count plies otherwise than one per step
// (Conditional: a step states an A-move with its C-move, and the record has a C ply after
// each B-move).
type PlyCounter interface {
	Plies() int
}

// Replayed is a game record played through its variant.
type Replayed struct {
	Variant  *Variant
	Game     Game
	Plies    int      // plies applied, as the record counts them
	Result   string   // the record's result ("*" when it has none)
	Warnings []string // notes on accepted but sloppy notation, each naming its step
	// WarningLines is, for each warning, the line of the file its step is written on (0:
	// not known, or the warning is of the whole record).
	WarningLines []int
	Failure      *Failure // the first step that failed, or a result that contradicts the game
}

// ReplayRecord plays a record: the [Variant] tag selects the game (no tag is orthodox
// chess), [FEN] gives a start position where the variant allows one. The error is for a
// record that cannot be started at all (unknown variant, bad FEN, unreadable movetext); a
// record that starts but goes wrong comes back with Failure set.
func ReplayRecord(rec *record.Record) (*Replayed, error) {
	var r Replayer
	return r.Replay(rec)
}

// Replayer replays many records, reusing its buffers between them. The zero value is ready.
// It is not safe for concurrent use: give each goroutine its own.
type Replayer struct {
	tokens []record.Token
	steps  []Step
}

// Replay is ReplayRecord with the Replayer's buffers.
func (rp *Replayer) Replay(rec *record.Record) (*Replayed, error) {
	v, err := Lookup(rec.Tag("Variant"))
	if err != nil {
		return nil, err
	}
	g, err := v.New(Options{FEN: rec.Tag("FEN")})
	if err != nil {
		return nil, err
	}
	g.SetQuiet(true)
	defer g.SetQuiet(false)
	r := &Replayed{Variant: v, Game: g, Result: "*"}
	if cap(rp.tokens) < len(rec.Movetext)/4 {
		rp.tokens = make([]record.Token, 0, len(rec.Movetext)/4)
	}
	toks, err := record.Tokenize(rec.Movetext, rp.tokens[:0])
	rp.tokens = toks[:0]
	if err != nil {
		return nil, movetextError(rec, err)
	}
	resultToken := ""
	for i := len(toks) - 1; i >= 0; i-- {
		if toks[i].Kind == record.Result {
			resultToken = record.NormalizeResult(toks[i].Text)
			break
		}
	}
	tag := rec.Tag("Result")
	switch {
	case resultToken != "" && tag != "" && tag != "*" && tag != resultToken:
		r.Result = resultToken
		r.Failure = &Failure{Index: -1, Where: "result", Text: resultToken,
			Err: fmt.Errorf("the Result tag says %s but the movetext ends %s", tag, resultToken)}
		return r, nil
	case resultToken != "":
		r.Result = resultToken
	case tag != "":
		r.Result = tag
	}
	// A record that starts at another move than 1 and gives no position is read from the
	// start, which it may not mean (issue 33).
	for _, t := range toks {
		if t.Kind == record.Number || t.Kind == record.Symbol {
			if n, _, ok := leadingNumber(t.Text); ok && n != 1 && rec.Tag("FEN") == "" && (t.Kind == record.Number || strings.Contains(t.Text, ".")) {
				line, _ := rec.Position(t.Offset)
				r.warn(line, fmt.Sprintf("the record starts at move %d but gives no FEN: it is read from the start position", n))
			}
			break
		}
	}
	steps, err := v.Steps(g, toks, rp.steps[:0])
	if err != nil {
		return nil, movetextError(rec, err)
	}
	// Each step's line, found by its text among the tokens in order (a step no token
	// matches has none).
	next := 0
	lineOf := func(text string) int {
		for j := next; j < len(toks) && j < next+8; j++ {
			t := toks[j]
			if t.Kind != record.Symbol && t.Kind != record.Paren {
				continue
			}
			core := t.Text
			if _, rest, ok := record.NumberAndSymbol(core); ok {
				core = rest
			}
			if core != "" && (strings.Contains(text, core) || strings.Contains(core, text)) {
				next = j + 1
				line, _ := rec.Position(t.Offset)
				return line
			}
		}
		return 0
	}
	rp.steps = steps[:0]
	if res, ok := g.(Reserver); ok {
		res.Reserve(len(steps) + 1)
	}
	resolve := g.Resolve
	if rr, ok := g.(RecordResolver); ok {
		resolve = rr.ResolveRecord
	}
	for i, st := range steps {
		line := lineOf(st.Text)
		for _, w := range st.Warnings {
			r.warn(line, st.Place()+": "+w)
		}
		if f := strings.Fields(st.Text); len(f) > 1 && (f[len(f)-1] == "e.p." || f[len(f)-1] == "ep") {
			r.warn(line, fmt.Sprintf("%s (%s): \"%s\" written apart from its move; read as %s", st.Place(), st.Text, f[len(f)-1], strings.Join(f[:len(f)-1], " ")))
		}
		if g.Outcome().Over() {
			r.Failure = &Failure{Index: i, Where: st.Place(), Text: st.Text, Line: line,
				Err: fmt.Errorf("the game was already over (%s)", g.Outcome().Reason)}
			return r, nil
		}
		by := st.By
		if st.Auto {
			if act := g.ToAct(); len(act) > 0 {
				by = act[0]
			}
		}
		cmd, warns, err := resolve(by, st.Text)
		var skip *Skip
		if errors.As(err, &skip) {
			r.warn(line, fmt.Sprintf("%s (%s): %s; the annotation is skipped", st.Place(), st.Text, skip.Why))
			continue
		}
		if err == nil {
			_, err = g.Submit(cmd)
		}
		if err != nil {
			var rej *Rejection
			if errors.As(err, &rej) {
				err = rej.ForRecord()
			}
			r.Failure = &Failure{Index: i, Where: st.Place(), Text: st.Text, Err: err, Line: line}
			return r, nil
		}
		for _, w := range warns {
			r.warn(line, fmt.Sprintf("%s (%s): %s", st.Place(), st.Text, w.Text))
		}
		if n, ok := g.(Noter); ok {
			for _, note := range n.TakeNotes() {
				r.warn(line, note)
			}
		}
		r.Plies++
	}
	if pc, ok := g.(PlyCounter); ok {
		r.Plies = pc.Plies()
	}
	out := g.Outcome()
	switch {
	case out.Over() && r.Result == "*":
		r.warn(0, fmt.Sprintf("the game is over (%s, %s) but the record gives no result", out.Reason, out.Result))
	case out.Over() && r.Result != out.Result:
		r.Failure = &Failure{Index: len(steps), Where: "result", Text: r.Result,
			Err: fmt.Errorf("the record says %s but the final position says %s (%s)", r.Result, out.Result, out.Reason)}
	case !out.Over() && (r.Result == "1-0" || r.Result == "0-1"):
		// A decisive result on an undecided position means the loser resigned.
		loser := Side(0)
		if r.Result == "1-0" {
			loser = 1
		}
		if _, err := g.Submit(Command{By: loser, Text: CmdResign}); err != nil {
			return nil, fmt.Errorf("replay: resign: %w", err)
		}
	case !out.Over() && r.Result == "1/2-1/2":
		if _, err := g.Submit(Command{By: 0, Text: CmdDrawAgreed}); err != nil {
			return nil, fmt.Errorf("replay: draw: %w", err)
		}
	}
	return r, nil
}

// movetextError says where in the file a record's movetext went wrong: "line 12, column 7"
// for an error at a place in it.
func movetextError(rec *record.Record, err error) error {
	var at *record.OffsetError
	if errors.As(err, &at) {
		line, col := rec.Position(at.Offset)
		return fmt.Errorf("movetext, line %d, column %d: %s", line, col, at.Msg)
	}
	return fmt.Errorf("movetext: %w", err)
}

// warn adds a warning of the step written on line (0: of the whole record).
func (r *Replayed) warn(line int, text string) {
	r.Warnings = append(r.Warnings, text)
	r.WarningLines = append(r.WarningLines, line)
}

// leadingNumber reads the move number a movetext word starts with ("12.", "12...", "12.e4").
func leadingNumber(w string) (n int, rest string, ok bool) {
	i := 0
	for i < len(w) && w[i] >= '0' && w[i] <= '9' && i < 6 {
		n = n*10 + int(w[i]-'0')
		i++
	}
	if i == 0 || i < len(w) && w[i] != '.' {
		return 0, "", false
	}
	return n, strings.TrimLeft(w[i:], "."), true
}
