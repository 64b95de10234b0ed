// Package variant defines the Game interface every game refereed implements, and the
// registry that maps a stable lowercase key ("transactional", "progressive-italian") to a
// game. The key, never a type name, is what the store keeps.
//
// A game's state is a pure function of its log of accepted commands: Resolve reads what a
// player wrote into a canonical Command (coordinates, not the player's SAN) without changing
// anything, and Submit applies a canonical Command. Replaying a log is calling Submit on
// each entry; nothing in it depends on notation leniency.
//
// Hidden information lives here: Submit addresses each Notice to the players who may read
// it, a rejection is private to its sender and says nothing the sender may not know, and View
// renders one player's knowledge at a time.
package variant

import (
	"errors"
	"fmt"
	"github.com/refereed/refereed/lang"
	"github.com/refereed/refereed/templates"
	"maps"
	"sort"
	"strconv"
	"strings"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/record"
)

// Side is a player's colour.
type Side = chess.Color

// Audience is the set of players a notice is meant for.
type Audience uint8

const (
	ToWhite Audience = 1 << iota
	ToBlack
	ToBoth = ToWhite | ToBlack
)

// To is the audience of one player.
func To(s Side) Audience {
	if s == chess.White {
		return ToWhite
	}
	return ToBlack
}

// Has reports whether s is in the audience.
func (a Audience) Has(s Side) bool { return a&To(s) != 0 }

// Command is one accepted action in canonical form: what the log stores.
type Command struct {
	By   Side
	Text string // canonical: "move e2e4", "resign", "draw offer", ...
}

func (c Command) String() string { return c.By.String() + ": " + c.Text }

// Notice is something the referee tells one or both players, in the same words to each.
// Its words are the sentence of templates/words named Words (Kind when empty), filled from
// Args; a game's own sentences are named "<key>/<name>", e.g. "progressive/series". Text,
// when set, is used as it stands instead (texts a game builds itself).
type Notice struct {
	To    Audience
	Kind  string // what happened: "move", "your-turn", "commit", "game-over", ...
	Words string // the sentence that says it (Kind when empty)
	Args  map[string]any
	Text  string
	// Show asks for a board under the text: each recipient's own view (ShowView), or the
	// whole truth (ShowReveal, only once the game is over).
	Show Show
	// Supersedes is the Kind of an earlier notice that this one makes untrue ("you have not
	// stated a C-move" before "your C-move is stated", "your turn" before the batch line
	// that played it). A mail that would carry both leaves the earlier one out.
	Supersedes string
	// Stop tells the referee to read no further moves in the player's mail, although this
	// command was accepted: a Kriegspiel attempt list stops at the first success (KR-D9), a
	// Progressive Kriegspiel one at the first "No", capture, check or pawn try (PK-D6). The
	// notice's text, to the sender, says why; the referee returns the game's lines after it
	// untried, and still reads its own commands there (RESIGN, DRAW OFFER, queries).
	Stop bool
}

// Show selects what is drawn under a notice.
type Show uint8

const (
	ShowNothing Show = iota
	ShowView         // the recipient's own view, View(ViewerOf(recipient))
	ShowReveal       // the referee's view: only for the end-of-game reveal (rules.md 0.4b)
)

// Rejection is a command refused: private to its sender, revealing nothing hidden, saying
// what was wrong and what to send instead. Nothing changed. It says the sentence of
// templates/words named Words, filled from Args as a Notice's is, or else Reason as it stands.
// The sentences are the games' own words (templates/words/<key>.tmpl, common.tmpl), read
// from templates wherever a rejection is said: nothing needs to set them first.
type Rejection struct {
	Reason string
	Words  string
	Args   map[string]any
	// Err is the error Reason passes on (Reject("%v", err)): a chess.Error is said in the
	// reader's language.
	Err error
}

func (r *Rejection) Error() string {
	text, _ := r.Text()
	return text
}

// Text is the rejection in words; ok is false when its sentence is missing or cannot be
// filled (a mistake of ours, which a test finds), and the text then names the sentence.
func (r *Rejection) Text() (text string, ok bool) {
	if r.Words == "" {
		return r.Reason, true
	}
	text, ok = templates.SayWords(r.Words, r.Args)
	if !ok {
		text = fmt.Sprintf("[%s %v]", r.Words, r.Args)
	}
	return text, ok
}

// TextIn is the rejection in language t: its sentence in t where it has one (a text passed
// on from another package stays as it is).
func (r *Rejection) TextIn(t lang.Tag) string {
	if r.Words == "" {
		if text, ok := chessIn(t, r.Err); ok {
			return text
		}
		return r.Reason
	}
	args := r.Args
	cloned := false
	for k, v := range r.Args { // a chess error in its fields ("Why"), in t too
		if err, ok := v.(error); ok {
			if text, ok := chessIn(t, err); ok {
				if !cloned {
					args, cloned = maps.Clone(r.Args), true
				}
				args[k] = text
			}
		}
	}
	if text, ok := templates.SayWordsIn(t, r.Words, args); ok {
		return text
	}
	return r.Error()
}

// chessIn is err, a chess.Error, in language t: the sentence "chess/<kind>", its values A, B,
// C in the order of the English text's; ok false for any other error.
func chessIn(t lang.Tag, err error) (string, bool) {
	var ce *chess.Error
	if !errors.As(err, &ce) || t == lang.EN {
		return "", false
	}
	args := map[string]any{}
	for i, v := range ce.Args {
		args[string(rune('A'+i))] = v
	}
	return templates.SayWordsIn(t, "chess/"+ce.Kind, args)
}

// WhyIn is err, a rejection, in language t.
func WhyIn(err error, t lang.Tag) string {
	var r *Rejection
	if errors.As(err, &r) {
		return r.TextIn(t)
	}
	return err.Error()
}

// ForRecord is the rejection as a record's reader says it: the sentence "record/<words>"
// where there is one, in the words of a record ("the record gives 1") rather than a
// player's ("you sent 1"; "wait for it"); else the rejection as it is.
func (r *Rejection) ForRecord() *Rejection {
	if r.Words == "" {
		return r
	}
	rec := &Rejection{Words: "record/" + r.Words, Args: r.Args}
	if _, ok := templates.SayWords(rec.Words, rec.Args); ok {
		return rec
	}
	return r
}

// Refuse builds a Rejection saying the sentence named words with args: a game's own are
// named "<key>/<name>", the shared ones "common/<name>".
func Refuse(words string, args map[string]any) error { return &Rejection{Words: words, Args: args} }

// Reject builds a Rejection from a text as it stands. It only passes on another package's
// error (chess.ParseNotation, chess.Resolve ...): Reject("%v", err). A game's own words are
// sentences, said with Refuse.
func Reject(format string, a ...any) error {
	r := &Rejection{Reason: fmt.Sprintf(format, a...)}
	if len(a) == 1 && (format == "%v" || format == "%s") {
		r.Err, _ = a[0].(error)
	}
	return r
}

// IsRejection reports whether err is a player's error rather than a fault.
func IsRejection(err error) bool {
	var r *Rejection
	return errors.As(err, &r)
}

// Outcome is how a game stands.
type Outcome struct {
	Result      string // "1-0", "0-1", "1/2-1/2", or "*" while the game goes on
	Termination string // "checkmate", "stalemate", "resignation", "draw", "unterminated", ...
	Reason      string // a sentence for people: "White checkmated Black"
}

// Over reports whether the game has ended.
func (o Outcome) Over() bool { return o.Result != "" && o.Result != "*" }

// Viewer is whose view is wanted: a player, or the referee (who sees everything).
type Viewer uint8

const (
	AsWhite Viewer = iota
	AsBlack
	AsReferee
)

// ViewerOf returns the viewer for a side.
func ViewerOf(s Side) Viewer { return Viewer(s) }

// Game is one game in progress. Methods are marked required (every variant writes them) or
// final (provided by Common, which every variant embeds; do not override). Optional methods
// are interfaces of their own, looked for where they are used: TurnNamer by the referee's
// subjects (every variant has it), Reserver by replay.
type Game interface {
	// Key is the registry key of the game's variant. Required.
	Key() string
	// Resolve reads one command line written by a player into a canonical command. It
	// changes nothing. Common commands (resign, draw) are resolved by ResolveCommon first.
	// Required.
	Resolve(by Side, text string) (Command, []chess.Warning, error)
	// Submit applies one canonical command and returns the notices it causes. A *Rejection
	// means nothing changed, in memory as in the log: the game is exactly as before (the
	// varianttest checks hold every game to it). A notice with Stop set ends the reading of
	// the player's mail without refusing anything. The end-of-game reveal (rules.md 0.4b) is
	// the referee's: a game only says that and how it ended. Required.
	Submit(cmd Command) ([]Notice, error)
	// View is what v may know now. Required.
	View(v Viewer) View
	// Outcome is how the game stands. Final (Common).
	Outcome() Outcome
	// ToAct lists the players whose action the game waits for. Required.
	ToAct() []Side
	// Position is the referee's full position. Required.
	Position() chess.Position
	// Log is the accepted commands so far. Final (Common).
	Log() []Command
	// SetQuiet turns notice texts off while replaying a log or record, where nobody reads
	// them; Submit then returns no notices. Final (Common).
	SetQuiet(on bool)
}

// TurnNamer is implemented by games that name a player's turn in their own terms: "T5" (his
// transaction), "move 12", "series 7", "cycle 4, A-move". The referee puts the name in the
// subject of every mail that asks the player to act: "[refereed #42] Transactional Chess:
// your move (T5)". Optional: a game without it gets subjects without a number.
type TurnNamer interface {
	// TurnName names the turn s is to play now, or is "" when the game does not wait for s.
	// Only s reads it, so it depends on nothing hidden from s (noninterference).
	TurnName(s Side) string
}

// Scorer is implemented by games that hide moves: the game so far as one viewer may know it,
// which is not their record. Optional: a game without it whose moves both players know
// (Variant.InProgress.Moves) is written by its WriteMovetext for each of them, and one
// whose moves are hidden shows none.
type Scorer interface {
	// Score is the game so far as v may know it, in the game's notation, with the name of the
	// templates/words sentence that introduces it ("kriegspiel/score": "Your moves so
	// far:"); moves is "" when there is nothing v may be shown. Only v reads it, so it
	// depends on nothing hidden from v (noninterference).
	Score(v Viewer) (words, moves string)
}

// NumericScorer is implemented by games that can write the game so far in ICCF numeric
// notation (5254 for e2-e4), for a player who asked to be shown moves so (SET NOTATION
// numeric): the same moves as Score, or the record, for the same viewer. Optional: the
// others show their own notation (Conditional Chess: a C-move is a condition, not a move).
type NumericScorer interface {
	NumericScore(v Viewer) string
}

// ScoreOf is the game so far, g being a game of v, as viewer may know it: the words that
// introduce it (a sentence of templates/words, "score" for the whole game) and the moves in
// the game's notation, or in ICCF numeric notation when numeric and the game writes it;
// moves is "" when viewer may be shown none.
func ScoreOf(v *Variant, g Game, viewer Viewer, numeric bool) (words, moves string) {
	if s, ok := g.(Scorer); ok {
		words, moves = s.Score(viewer)
	} else if (v.InProgress.Moves || viewer == AsReferee || g.Outcome().Over()) && v.WriteMovetext != nil {
		words, moves = "score", v.WriteMovetext(g)
	}
	if ns, ok := g.(NumericScorer); ok && numeric && moves != "" {
		moves = ns.NumericScore(viewer)
	}
	return words, moves
}

// Joiner is implemented by games one of whose commands may be written over two lines of a
// mail, and must then be checked and applied whole (Conditional Chess: an A-move on one line
// and its C-move on the next are one command, rules.md §6.4). Join reports whether next
// continues the command that line begins, for player by in the game as it stands, and gives
// the two as the one line Resolve reads. Optional: without it every line is a command.
type Joiner interface {
	Join(by Side, line, next string) (joined string, ok bool)
}

// Splitter is implemented by a game in which one line may hold several commands, each played
// on its own (a Transactional batch "T5: Ne5 / T5: Nc6 (C)", rules.md TX-D12). Split gives
// the commands of line in order; a line that holds one gives itself. Optional: without it
// every line is one command.
type Splitter interface {
	Split(line string) []string
}

// CommandRow is one of a game's own commands, as the referee's command table takes it in (a row
// of it; the referee's own commands are rows beside it): its first word, whether it only
// asks, and its lines in HELP. The game reads and applies it (Resolve, Submit); nothing
// outside the game's package lists its words.
type CommandRow struct {
	// Word is its first word in upper case ("VIEW", "ANY?"); "" for what has none: a move,
	// written as the game reads it.
	Word string
	// Query: it only asks. The game answers it to the asker alone with a notice of kind
	// KindView or KindAnswer, and the referee counts it against his hourly limit of queries
	// (a question that is a move of the game, like Kriegspiel's ANY?, is not a query).
	Query bool
	// Help is the sentence of its lines in the player's HELP (templates/words/help.tmpl:
	// "help/<game>/<n>"), in the layout of templates.Columns.
	Help string
	// Offered, when set, says whether game g offers it (PSC under fog has no CONTROL); nil:
	// every game of the variant does.
	Offered func(g Game) bool
}

// HelpOf is the commands of g, a game of v, for its player's HELP: the lines of the
// commands it offers, in order.
func HelpOf(v *Variant, g Game, t lang.Tag) string {
	var b strings.Builder
	for _, c := range v.Commands {
		if c.Offered != nil && !c.Offered(g) {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(templates.SayIn(t, "", c.Help, nil))
	}
	return b.String()
}

// IsQuery reports whether word (a line's first, in upper case) is one of v's queries.
func (v *Variant) IsQuery(word string) bool {
	for _, c := range v.Commands {
		if c.Query && c.Word == word {
			return true
		}
	}
	return false
}

// Reserver is implemented by games that can make room for n more commands in advance;
// replaying a long record calls it once instead of growing slices move by move.
type Reserver interface {
	Reserve(n int)
}

// Options configures a new game: a starting position and per-game options.
type Options struct {
	FEN   string            // start position, where the variant allows one
	Flags map[string]string // variant options such as "strict-forfeit"
}

// Bool reads the on/off option name, off when it is not given: "true", "on", "yes" or "1"
// turn it on, "false", "off", "no" or "0" off, in any case; any other value is an error that
// names the option. Every game reads its on/off options here.
func (o Options) Bool(name string) (bool, error) {
	switch v := o.Flags[name]; strings.ToLower(v) {
	case "", "false", "off", "no", "0":
		return false, nil
	case "true", "on", "yes", "1":
		return true, nil
	default:
		return false, fmt.Errorf("option %s=%q: want true or false (on/off, yes/no, 1/0)", name, v)
	}
}

// Option is a per-game option a game declares: its type and what it does.
type Option struct {
	Type OptionType
	Doc  string
}

// OptionType is the type of an option's value.
type OptionType string

// The types of options: Bool is read by Options.Bool, Number is a whole number the game
// reads itself (it refuses any other value when the game is made).
const (
	Bool   OptionType = "true/false"
	Number OptionType = "number"
)

// Spectator is what the web archive shows of a game in progress (Variant.InProgress).
type Spectator struct {
	Position bool // the board as it stands
	Moves    bool // the move list in the literature's notation
	Turn     bool // whose turn and its name ("move 12")
	Number   bool // the number of the turn being played, from the resolved position
	Public   bool // the game's public view (PublicViewer): committed men, announcements
}

// The kinds of notice the referee treats alike in every game (Notice.Kind): an answer to a
// query of the game's (Command.Query) is KindView when it shows the asker a view (it is
// not kept in his HISTORY, which is what he was told) and KindAnswer when it tells him a fact
// (kept).
const (
	KindView   = "view"
	KindAnswer = "answer"
)

// Variant is one registered game.
type Variant struct {
	Key     string   // stable lowercase key: stored in bbolt, written in [Variant] tags
	Name    string   // for people: "Transactional Chess"
	Aliases []string // other [Variant] tag spellings accepted, lowercase
	New     func(Options) (Game, error)
	// Steps reads a record's movetext tokens (the record package's Tokenize) into the
	// commands of the literature's notation, in order, appending to buf; start is the game as
	// New made it. Required for verify and replay.
	Steps func(start Game, tokens []record.Token, buf []Step) ([]Step, error)
	// WriteMovetext writes a game's log in the literature's notation (without result).
	WriteMovetext func(g Game) string
	// Options are the per-game options New reads from Options.Flags, each with its type and
	// what it does ("strict-forfeit": a Bool, "an early check forfeits the game instead of
	// being refused"). `refereed new --option NAME=VALUE` accepts exactly these, each value
	// of its type, and `refereed variants` lists them.
	Options map[string]Option
	// Commands are the game's own commands, in the order its players' HELP lists them: the
	// referee's command table takes them in beside its own (BOARD, HISTORY ...).
	Commands []CommandRow
	// InProgress is what a spectator (the web archive) may see of a game still going, besides
	// its players and status: only what both players already know (rules.md 0.4b). The zero
	// value shows nothing more. A finished game is shown whole.
	InProgress Spectator
	// Conditionals: a player may state conditional sequences (IF <his move> <my reply>
	// ...): the referee plays his reply at once when his opponent's move matches. Only for
	// games of alternating single moves that hide nothing, whose Position is the position
	// their moves are played on under orthodox rules (orthodox chess).
	Conditionals bool
	// Open: the game hides nothing from the players. Its players may take back their last
	// turn if the opponent agrees before replying (the referee's TAKEBACK); in a game with
	// hidden moves a takeback would show what the taken-back move was, or its absence.
	Open bool
}

// Step is one command read from a record: who, what as written, and where (for errors).
type Step struct {
	By Side
	// Auto: the player is whoever the game waits for (records that do not say who moves,
	// like Conditional Chess, whose skipped C-moves decide it).
	Auto bool
	Text string // as written, given to Game.Resolve
	// Where, Num and After name the step in errors: "move " 12 "..." reads "move 12...".
	// The number is kept apart so that reading a record formats nothing until needed.
	Where string
	Num   int
	After string
	// Warnings found while reading the notation (e.g. a transaction number that disagrees).
	Warnings []string
}

// Place is how errors name the step: "move 12...", "T5", "series 4".
func (s Step) Place() string {
	if s.Num == 0 {
		return s.Where
	}
	return s.Where + strconv.Itoa(s.Num) + s.After
}

var registry = map[string]*Variant{}

// Register adds a variant; it panics on a duplicate key (a programming error).
func Register(v *Variant) {
	// The name is a key too: export writes it in the [Variant] tag, and replay must read
	// what export writes.
	for _, k := range append([]string{v.Key, v.Name}, v.Aliases...) {
		k = normalizeKey(k)
		if k == "" {
			continue
		}
		if other, dup := registry[k]; dup {
			if other == v {
				continue
			}
			panic("variant: duplicate key " + k)
		}
		registry[k] = v
	}
}

// Lookup finds a variant by key, alias or [Variant] tag value ("" means orthodox chess).
func Lookup(name string) (*Variant, error) {
	k := normalizeKey(name)
	if k == "" {
		k = "orthodox"
	}
	if v, ok := registry[k]; ok {
		return v, nil
	}
	return nil, fmt.Errorf("unknown variant %q (known: %s)", name, strings.Join(Keys(), ", "))
}

// Keys lists the registered keys in order.
func Keys() []string {
	seen := map[string]bool{}
	var out []string
	for _, v := range registry {
		if !seen[v.Key] {
			seen[v.Key] = true
			out = append(out, v.Key)
		}
	}
	sort.Strings(out)
	return out
}

var keyReplacer = strings.NewReplacer(" ", "-", "_", "-")

func normalizeKey(s string) string {
	return keyReplacer.Replace(strings.ToLower(strings.TrimSpace(s)))
}

// MustLookup is Lookup for keys known to be registered (tests, constants).
func MustLookup(key string) *Variant {
	v, err := Lookup(key)
	if err != nil {
		panic(err)
	}
	return v
}

// StartPosition is the position a game starts from: the orthodox array, or opts.FEN, which
// must be a position orthodox chess could reach (kings, pawns, the side not to move not in
// check).
func StartPosition(opts Options) (chess.Position, error) {
	if opts.FEN == "" {
		return chess.Start(), nil
	}
	p, err := chess.ParseFEN(opts.FEN)
	if err != nil {
		return p, err
	}
	if err := p.Validate(); err != nil {
		return p, err
	}
	return p, nil
}

// Bottom is the side drawn at the bottom of v's boards: his own, White for the referee.
func Bottom(v Viewer) Side {
	if v == AsBlack {
		return chess.Black
	}
	return chess.White
}

// OverLine is the status line of a finished game: "Game over: 1-0 (White checkmated Black)."
func (o Outcome) OverLine() string { return o.Line().String() }

// Line is OverLine as a view's line, said in its reader's language.
func (o Outcome) Line() Line {
	return Says("view/game-over", map[string]any{"Result": o.Result, "Reason": o.Reason})
}

// SubmitPreamble is the start every variant's Submit shares: the common commands, then a
// refusal once the game is over. handled is true when the caller must return at once.
func (c *Common) SubmitPreamble(cmd Command) (notices []Notice, handled bool, err error) {
	if notices, ok, err := c.SubmitCommon(cmd); ok {
		return notices, true, err
	}
	if c.outcome.Over() {
		return nil, true, Refuse("common/over", map[string]any{"Result": c.outcome.Result})
	}
	return nil, false, nil
}

// SetOption puts the game's option name with value in flags, a Bool's empty value as "true":
// the one reading of `refereed new --option NAME=VALUE` and of a challenge's options. An
// option the game does not have is an error that lists those it has; a value is checked by
// New.
func (v *Variant) SetOption(flags map[string]string, name, value string) error {
	if _, ok := v.Options[name]; !ok {
		if len(v.Options) == 0 {
			return fmt.Errorf("%s has no option %q (it has none)", v.Name, name)
		}
		names := make([]string, 0, len(v.Options))
		for n := range v.Options {
			names = append(names, n)
		}
		sort.Strings(names)
		return fmt.Errorf("%s has no option %q (it has: %s)", v.Name, name, strings.Join(names, ", "))
	}
	if value == "" {
		value = "true"
	}
	flags[name] = value
	return nil
}
