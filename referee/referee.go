// Package referee is the service between "an email arrived" and "these emails must go out".
// The daemon's entry is ProcessInbox: it takes the inbound mails the intake stored, a page at
// a time, and handles up to inbox.BatchSize of them in one store transaction (a batch that fails is
// handled again mail by mail, and a mail that keeps failing is quarantined). For each mail it
// parses it once, finds the game and the player, checks that the sender is that player,
// plays each command line through the game aggregate (package play: the only place a game
// changes or ends), renders every notice into mail for the player(s) who may read it, queues
// the mail, and marks the message processed: all of that commits, or none of it. Handle is
// one mail in its own transaction (tests and tools). What is only read (a game rebuilt from
// its log, exports, a tournament's section) is package archive's.
//
// The service is divided by idea, a package each, none of which imports this one: this
// package reads each mail through to its answer (handle.go), runs the command table's
// handlers (commands.go), the organizer and tournaments (organizer.go, organizer_acts.go,
// tournament.go) and takebacks; referee/command is the command table (every command one
// row: word, who may send it, query or act, HELP line, handler); referee/senders reads who
// sent a mail and to what (tokens, reply and bounce addresses, DKIM and DMARC);
// referee/play is the game aggregate (the only code that changes, ends or writes a game) and
// what its players are told; referee/clocks is time (deadlines, ICCF clocks, leave, the
// deadline check); referee/ifmoves is IF moves; referee/inbox runs the stored mail in
// batches and quarantines what keeps failing; referee/outbox writes and queues the mail.
//
// Trust (design.md): a command counts only with a valid reply token in the recipient address
// (the only place a token travels: Message-IDs and bounce addresses carry an opaque thread id
// derived from it), a From address registered for that player, and, as the game's auth
// policy asks, the mail system's word that the From address is the sender's (DKIM, DMARC). A mail from another address is refused and reported to the registered player (at
// his registered address, never at the sender's). Mail that names no game is answered only
// to a registered player, with the list of his games and their reply addresses. Machine mail
// (auto-replies, bounces, lists) and the referee's own mail are never answered.
//
// Mail to a player threads under his opening mail of the game, and its subject says what
// happened ("your move (T5)"). When a game ends, both players are sent the whole game, hidden
// moves included (rules.md 0.4b).
//
// Errors: a rejection is the player's (it says which line, why, what was kept, and quotes
// the rest back); anything else is an operator's error, wrapped with context, and rolls the
// whole message back so that it can be tried again.
//
// What every correspondence server gives a player (issue 25), with the decisions rules.md
// leaves open:
//   - Every mail that shows a player's view ends with the game so far as he may know it and
//     the FEN of the position he sees (play.Diagram, variant.ScoreOf): the record in the
//     games that hide nothing; in the others only his own moves and what was announced
//     (Transactional: the opponent's commits, without his T-numbers, which count his
//     rollbacks), and no FEN where he does not see the whole position. PGN attaches the
//     same, in SAN whatever notation he reads. The end-of-game reveal gives the final FEN.
//   - HISTORY replays the log mail by mail (the events one mail caused, one Source), with
//     what each mail left out as it did (Notice.Supersedes), takebacks and conditional
//     sequences where they came: see history.
//   - SET NOTATION and SET BOARD are kept per address, for all of a player's games
//     (settings.go); numeric notation is shown where a game writes it
//     (variant.NumericScorer: every game but Conditional Chess, whose C-moves are
//     conditions, not moves; the move news of orthodox chess, Progressive, Train Wreck and
//     Kriegspiel too) and read everywhere.
//   - Conditional moves (IF) are in orthodox chess only; their rules and why the other
//     games have none: package ifmoves.
package referee

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/refereed/refereed/archive"
	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/lang"
	"github.com/refereed/refereed/parser"
	"github.com/refereed/refereed/rating"
	"github.com/refereed/refereed/referee/challenges"
	"github.com/refereed/refereed/referee/clocks"
	"github.com/refereed/refereed/referee/organizer"
	"github.com/refereed/refereed/referee/outbox"
	"github.com/refereed/refereed/referee/play"
	"github.com/refereed/refereed/referee/senders"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/templates"
	"github.com/refereed/refereed/variant"
)

// Referee handles inbound mail and creates games.
type Referee struct {
	DB      *store.DB
	Address string // the referee's mailbox, e.g. "referee@localhost"
	Name    string // display name in From; "refereed" when empty
	// Rand is the source of reply tokens and Message-ID suffixes (crypto/rand when nil).
	Rand io.Reader
	// Fault, when set, is called at each step of Handle; an error from it aborts the
	// message as an internal error would. Tests inject faults through it.
	Fault func(step string) error
	Log   *slog.Logger
	// MaxAttempts is how often a message that meets internal errors is tried before it is
	// quarantined and its sender told "internal error; your mail was kept" (3 when 0).
	MaxAttempts int

	// Auth says whose Authentication-Results to believe and how to find DKIM keys; each
	// game's policy says how much to ask (see auth.go).
	Auth parser.AuthOptions

	// Organizer is the organizer of every game and tournament that names none of its own
	// (the config's "organizer"): he is told of forfeits and failed deliveries.
	Organizer string
	// LocalDomain, when set, is the one domain mail can reach (the built-in mail server's,
	// which relays nowhere): an address of another domain is refused where it enters.
	LocalDomain string
	// LeaveDays is the leave a player may take in a calendar year outside tournaments that
	// set their own (clocks.DefaultLeaveDays when 0).
	LeaveDays int

	// QueryLimit overrides the private queries answered per player per QueryWindow
	// (QueryLimit the constant when 0).
	QueryLimit int
	// Rating is the rating system's constants for the rated games (zero: the defaults).
	Rating rating.Config
	// Language is the language of the mail of players who set none (SET LANGUAGE), in games
	// whose tournament names none ("": English).
	Language lang.Tag
	// Challenges is the organizer's word on games players start by mail (the config's
	// [challenges]): who may, to which games, rated or not, and the bounds.
	Challenges challenges.Policy

	onHandle func(store.InboundMail) // tests: told of each mail before it is handled

	judged senders.Judged // senders judged before their mail's transaction

	// deadlineLoads counts the games the deadline check replayed (tests).
	deadlineLoads atomic.Int64
}

func (r *Referee) logger() *slog.Logger {
	if r.Log == nil {
		return slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return r.Log
}

func (r *Referee) fault(step string) error {
	if r.Fault == nil {
		return nil
	}
	if err := r.Fault(step); err != nil {
		return fmt.Errorf("referee: %s: %w", step, err)
	}
	return nil
}

func (r *Referee) local() (local, domain string) {
	local, domain, _ = strings.Cut(r.Address, "@")
	return local, domain
}

// Ignorable says why a fetched mail needs no handling at all (the intake then records it as
// processed without storing it): a stranger's ordinary mail (senders.Reader.Ignorable).
func (r *Referee) Ignorable(raw []byte) string { return r.senders().Ignorable(raw) }

// senders is this referee's reader of mail and senders (package senders).
func (r *Referee) senders() *senders.Reader {
	return &senders.Reader{DB: r.DB, Address: r.Address, Auth: r.Auth, Judged: &r.judged, BareAuth: r.Challenges.Auth,
		Admits: func(a string) bool { return r.Challenges.Admits(a, false) }}
}

// RatedFlag in opts.Flags set to "true" makes a game rated: its end updates both players'
// ratings (package rating). The game's record keeps it (store.Game.Rated), not its options.
const RatedFlag = "rated"

// NewGame creates a game between two addresses and queues the opening mails. It returns the
// game's ID. Errors say what was wrong with the request.
func (r *Referee) NewGame(variantKey, white, black string, opts variant.Options) (uint64, error) {
	v, err := variant.Lookup(variantKey)
	if err != nil {
		return 0, err
	}
	var addrs [2]string
	for i, a := range []string{white, black} {
		addr, err := r.CheckAddress(a)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", chess.Color(i), err)
		}
		addrs[i] = addr
	}
	if addrs[0] == addrs[1] {
		return 0, fmt.Errorf("the same address %s for both White and Black: a player cannot play himself", addrs[0])
	}
	if _, err := v.New(opts); err != nil {
		return 0, fmt.Errorf("cannot start %s: %w", v.Name, err)
	}
	var id uint64
	err = r.DB.Update(func(tx *store.Tx) error {
		sg, err := r.createGame(tx, v, addrs, opts, nil)
		if sg != nil {
			id = sg.ID
		}
		return err
	})
	if err != nil {
		return 0, err
	}
	return id, nil
}

// seat places a game in a tournament: which, and which round of how many.
type seat struct {
	t      *store.Tournament
	round  int
	rounds int
	// challenge, when set, is the challenge the game was made from (no tournament).
	challenge *store.Challenge
}

// createGame stores a new game between addrs (White, Black) in tx and queues its opening
// mails; a tournament's game (at not nil) says so in them.
func (r *Referee) createGame(tx *store.Tx, v *variant.Variant, addrs [2]string, opts variant.Options, at *seat) (*store.Game, error) {
	game, err := v.New(opts)
	if err != nil {
		return nil, fmt.Errorf("cannot start %s: %w", v.Name, err)
	}
	sg := &store.Game{Variant: v.Key, FEN: opts.FEN, Flags: opts.Flags}
	if _, ok := opts.Flags[RatedFlag]; ok {
		// Whether the game is rated is the game's record's, not one of its options.
		sg.Rated = opts.Flags[RatedFlag] == "true"
		sg.Flags = maps.Clone(opts.Flags)
		delete(sg.Flags, RatedFlag)
	}
	if at != nil && at.t != nil {
		sg.Tournament, sg.Round = at.t.ID, at.round
		sg.Rated = at.t.Rated
		if at.t.Language != "" {
			sg.Flags = maps.Clone(sg.Flags)
			if sg.Flags == nil {
				sg.Flags = map[string]string{}
			}
			sg.Flags[LanguageFlag] = at.t.Language
		}
	}
	for i := range sg.Players {
		tok, err := r.newToken()
		if err != nil {
			return nil, err
		}
		sg.Players[i] = store.Player{Address: addrs[i], Token: tok}
	}
	out := game.Outcome()
	if out.Over() {
		// A position that is already decided (a mate, a dead position): the game is
		// over before it begins, and says so everywhere.
		play.MarkOver(sg, out.Result, out.Reason)
	}
	if err := play.Create(tx, sg); err != nil {
		return nil, err
	}
	prefs := r.prefsOf(tx, sg)
	for _, side := range []chess.Color{chess.White, chess.Black} {
		t := prefs[side].Lang
		say := func(kind string, args templates.Args) string { return templates.SayIn(t, "", kind, args) }
		l := outbox.Letter{Side: side, Kind: "opening", Lang: t}
		other := sg.Players[side.Other()].Address
		if out.Over() {
			l.What = say("subject/game-over-at-start", templates.Args{"Result": out.Result})
			l.Paras = []string{
				say("opening-decided", templates.Args{"Variant": v.Name, "Side": side, "Opponent": other, "Reason": out.Reason, "Result": out.Result}),
				say("opening-nothing-to-play", nil),
			}
			l.Diagram = play.Diagram(v, game, side, variant.ShowReveal, prefs[side])
		} else {
			yours := slices.Contains(game.ToAct(), side)
			l.What = say("subject/new-game", templates.Args{"Side": side, "YourMove": yours, "Turn": play.TurnLabelIn(game, side, t)})
			l.Paras = []string{say("opening", templates.Args{"Variant": v.Name, "Side": side, "Opponent": other})}
			l.Diagram = play.Diagram(v, game, side, variant.ShowView, prefs[side])
			// Who moves first is said once: by the view's own status line when it has one
			// ("White to play move 1."), else here.
			says := strings.Contains(l.Diagram, " to play ")
			switch {
			case len(game.ToAct()) > 1:
				// Both move at once (the synchronous games): the view's turn line says so.
			case yours:
				if !says {
					l.Paras = append(l.Paras, say("you-move-first", nil))
				}
			case says:
				l.Paras = append(l.Paras, say("will-write", nil))
			default:
				l.Paras = append(l.Paras, say("other-moves-first", templates.Args{"First": side.Other()}))
			}
		}
		if sg.Rated && !out.Over() {
			l.Paras = append(l.Paras, say("rated-game", templates.Args{"Variant": v.Name}))
		}
		if at != nil && at.challenge != nil {
			ch := at.challenge
			kind := "challenge/you-accepted"
			if sg.Players[side].Address == ch.From {
				kind = "challenge/accepted-yours"
			}
			l.Paras = append([]string{say(kind, templates.Args{"ID": ch.ID, "From": ch.From, "By": ch.By})}, l.Paras...)
		}
		if at != nil && at.t != nil {
			l.Paras = append(l.Paras, say("tournament-game", templates.Args{"Name": at.t.Name, "Round": at.round, "Rounds": at.rounds, "Players": len(at.t.Players), "Double": at.t.Double}))
		}
		if err := r.enqueue(tx, sg, v, l); err != nil {
			return nil, err
		}
	}
	return sg, nil
}

// say is one of the referee's own sentences (templates/words/referee.tmpl), in English.
func say(kind string, args templates.Args) string { return templates.Say("", kind, args) }

// LanguageFlag in a game's flags is the language of its players who set none: their
// tournament's (store.Tournament.Language), or `refereed new --language`.
const LanguageFlag = "language"

// prefsOf is each player's settings in sg, with the language and piece letters he reads:
// his own, else the game's (LanguageFlag), else the server's.
func (r *Referee) prefsOf(tx *store.Tx, sg *store.Game) [2]play.Prefs {
	def := r.Language
	if l := lang.Tag(sg.Flags[LanguageFlag]); l.Known() {
		def = l
	}
	var p [2]play.Prefs
	for s := range sg.Players {
		p[s] = play.PrefsOf(tx, sg.Players[s].Address).With(def)
	}
	return p
}

// speaker is the sentences said to side's player of sg, in his language.
func (r *Referee) speaker(tx *store.Tx, sg *store.Game, side chess.Color) (lang.Tag, func(kind string, args templates.Args) string) {
	t := r.prefsOf(tx, sg)[side].Lang
	return t, func(kind string, args templates.Args) string { return templates.SayIn(t, "", kind, args) }
}

// langOf is the language of address's mail outside any one game.
func (r *Referee) langOf(tx *store.Tx, address string) lang.Tag {
	return play.PrefsOf(tx, address).With(r.Language).Lang
}

// sayTo is the sentence kind in address's language (mail outside any one game).
func (r *Referee) sayTo(tx *store.Tx, address, kind string, args templates.Args) string {
	return templates.SayIn(r.langOf(tx, address), "", kind, args)
}

// RecordDeliveryFailure notes a mail to a player that the mail server refused for good (a
// 5xx or too many tries): the player's bounce count, shown by "refereed show"; the game's
// organizer, if it has one, is told.
func (r *Referee) RecordDeliveryFailure(m store.OutMail, reason error) error {
	if m.Game == 0 {
		return nil
	}
	return r.DB.Update(func(tx *store.Tx) error {
		sg, err := tx.Game(m.Game)
		if err != nil {
			return err
		}
		p := &sg.Players[m.Side]
		if err := play.NoteBounce(tx, sg, chess.Color(m.Side), reason.Error()); err != nil {
			return err
		}
		_, err = r.tellOrganizer(tx, sg, say("organizer-undelivered", templates.Args{"Game": sg.ID, "Player": p.Address, "Side": chess.Color(m.Side), "Why": clip(reason.Error())}))
		return err
	})
}

// AfterRestore is run once the store was put back from a backup taken at taken: every game
// numbers its next mails apart from those sent since (see messageID), and each player of a
// game in progress is told that what he sent after the backup was lost, and shown where his
// game stands. It returns how many mails it queued. It works through the tournaments and
// games by id, restoreBatch to a transaction, so that a league's restore holds one batch in
// memory, not the store: one that fails half-way is begun again by restoring the backup again.
func (r *Referee) AfterRestore(taken time.Time) (int, error) {
	var tournaments, games int
	if err := r.DB.View(func(tx *store.Tx) error {
		var err error
		if tournaments, err = tx.TournamentCount(); err != nil {
			return err
		}
		games, err = tx.GameCount()
		return err
	}); err != nil {
		return 0, fmt.Errorf("after restore: %w", err)
	}
	for lo := 1; lo <= tournaments; lo += restoreBatch {
		err := r.DB.Update(func(tx *store.Tx) error {
			for id := lo; id < lo+restoreBatch && id <= tournaments; id++ {
				t, err := tx.Tournament(uint64(id))
				if errors.Is(err, store.ErrNotFound) {
					continue
				} else if err != nil {
					return err
				}
				t.Restores++
				if err := tx.PutTournament(t); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return 0, err
		}
	}
	queued := 0
	for lo := 1; lo <= games; lo += restoreBatch {
		n := 0
		err := r.DB.Update(func(tx *store.Tx) error {
			n = 0 // a transaction run again (PostgreSQL) counts again
			for id := lo; id < lo+restoreBatch && id <= games; id++ {
				sg, err := tx.Game(uint64(id))
				if errors.Is(err, store.ErrNotFound) {
					continue
				} else if err != nil {
					return err
				}
				q, err := r.restored(tx, sg, taken)
				if err != nil {
					return err
				}
				n += q
			}
			return nil
		})
		if err != nil {
			return queued, err
		}
		queued += n
	}
	return queued, nil
}

// restoreBatch is how many games (or tournaments) AfterRestore handles in one transaction.
const restoreBatch = 256

// restored numbers game sg's next mails apart from those sent since the backup taken at
// taken and, if it is in progress, tells both players: it returns how many mails it queued.
func (r *Referee) restored(tx *store.Tx, sg *store.Game, taken time.Time) (int, error) {
	if err := play.NoteRestored(tx, sg); err != nil {
		return 0, err
	}
	if sg.Over() {
		return 0, nil
	}
	l, err := archive.Load(tx, sg.ID)
	if err != nil {
		return 0, err
	}
	queued := 0
	prefs := r.prefsOf(tx, sg)
	for _, side := range []chess.Color{chess.White, chess.Black} {
		say := func(kind string, args templates.Args) string {
			return templates.SayIn(prefs[side].Lang, "", kind, args)
		}
		what := say("subject/restored", nil)
		if slices.Contains(l.Live.ToAct(), side) {
			what = say("subject/your-move", templates.Args{"Offered": false, "Turn": play.TurnLabelIn(l.Live, side, prefs[side].Lang)})
		}
		if err := r.enqueue(tx, l.Stored, l.Variant, outbox.Letter{Side: side, Kind: "update", What: what,
			Paras:   []string{say("restored", templates.Args{"When": clocks.When(taken)})},
			Diagram: play.Diagram(l.Variant, l.Live, side, variant.ShowView, prefs[side]), Lang: prefs[side].Lang}); err != nil {
			return 0, err
		}
		queued++
	}
	return queued, nil
}

// out is the referee's mail writer (package outbox): what to say is decided here, how it is
// written and queued there.
func (r *Referee) out() *outbox.Writer {
	return &outbox.Writer{Address: r.Address, Name: r.Name, Rand: r.Rand, Clock: clocks.Para}
}

// keeper is the clocks' keeper of this referee: its deadline check and leave.
func (r *Referee) keeper() *clocks.Keeper {
	return &clocks.Keeper{DB: r.DB, LeaveDays: r.LeaveDays, Rating: r.Rating, Out: r.out(),
		TellOrganizer: r.tellOrganizer, GameOver: r.tournamentGameOver, Log: r.logger(), Loads: &r.deadlineLoads, Prefs: r.prefsOf}
}

// Tournaments is the referee's tournaments' office (package organizer): tournaments, their
// standings and their organizers.
func (r *Referee) Tournaments() *organizer.Desk {
	return &organizer.Desk{DB: r.DB, Out: r.out(), Organizer: r.Organizer, Language: r.Language, Rating: r.Rating,
		Keeper: r.keeper, CheckAddress: r.CheckAddress, Prefs: r.prefsOf,
		StartGame: func(tx *store.Tx, v *variant.Variant, addrs [2]string, opts variant.Options, t *store.Tournament, round, rounds int) (*store.Game, error) {
			return r.createGame(tx, v, addrs, opts, &seat{t: t, round: round, rounds: rounds})
		},
		PlayerHelp: func(v *variant.Variant, g variant.Game, t lang.Tag) string {
			return commandTable.PlayerHelp(v, g, true, t)
		},
		Help: commandTable.OrganizerHelp, Run: r.organize,
		AllowRefusal: func(tx *store.Tx, address string) (bool, error) { return r.allowRefusal(tx, address, limitForged) },
		Authentic:    r.senders().Authentic}
}

// tellOrganizer tells the organizer of sg (organizer.Desk.Tell).
func (r *Referee) tellOrganizer(tx *store.Tx, sg *store.Game, text string) (int, error) {
	return r.Tournaments().Tell(tx, sg, text)
}

// tournamentGameOver is what follows the end of a game: its tournament's standings to all
// (organizer.Desk.GameOver).
func (r *Referee) tournamentGameOver(tx *store.Tx, sg *store.Game) error {
	return r.Tournaments().GameOver(tx, sg)
}

// CheckDeadlines runs the deadline check (clocks.Keeper.CheckDeadlines): a reminder to each
// player whose action has waited one deadline, the loss after the second. It returns how many
// mails it queued.
// Challenges whose time ran out are closed in the same round (ExpireChallenges).
func (r *Referee) CheckDeadlines() (int, error) {
	n, err := r.keeper().CheckDeadlines()
	if err != nil {
		return n, err
	}
	_, err = r.ExpireChallenges()
	return n, err
}

// enqueue writes l to a player of game g, of variant v, into the outbox.
// A letter in no language set is in its reader's.
func (r *Referee) enqueue(tx *store.Tx, g *store.Game, v *variant.Variant, l outbox.Letter) error {
	if l.Lang == "" {
		l.Lang = r.prefsOf(tx, g)[l.Side].Lang
	}
	return play.Mail(r.out(), tx, g, v.Name, l)
}

// enqueueNotice sends a mail that belongs to no one game, with its footer.
func (r *Referee) enqueueNotice(tx *store.Tx, to, subject string, paras []string, footer string, answers *parser.Message) error {
	return r.out().Notice(tx, outbox.Notice{To: to, Subject: subject, Paras: paras, Footer: footer, Answers: answers, Lang: r.langOf(tx, to)})
}

// notice writes n into the outbox.
func (r *Referee) notice(tx *store.Tx, n outbox.Notice) error {
	if n.Lang == "" {
		n.Lang = r.langOf(tx, n.To)
	}
	return r.out().Notice(tx, n)
}

// newToken is a new reply token (outbox.Writer.NewToken).
func (r *Referee) newToken() (string, error) { return r.out().NewToken() }

// replyAddress is the address a player's replies go to: referee+g42-w-7hk2q@host.
func (r *Referee) replyAddress(game uint64, side chess.Color, token string) string {
	return r.out().ReplyAddress(game, side, token)
}

// ReplyAddress is the reply address of a player of game g, for the organizer (it holds the
// player's token: it is his to use, nobody else's).
func (r *Referee) ReplyAddress(g *store.Game, side chess.Color) string {
	return r.out().PlayerAddress(g, side)
}

// openGame loads game id for playing in tx, with the referee's rating system.
func (r *Referee) openGame(tx *store.Tx, id uint64) (*play.Game, error) {
	return play.Open(tx, id, r.Rating)
}
