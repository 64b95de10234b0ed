package clocks

import (
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/refereed/refereed/clock"
	"github.com/refereed/refereed/lang"

	"github.com/refereed/refereed/archive"
	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/rating"
	"github.com/refereed/refereed/referee/outbox"
	"github.com/refereed/refereed/referee/play"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/templates"
	"github.com/refereed/refereed/variant"
)

// Keeper keeps the clocks: the deadline check (a reminder, then the loss) and the leave a
// player or an organizer asks for. It changes games through the aggregate (package play) and
// is given what it needs of the rest of the referee.
type Keeper struct {
	DB        *store.DB
	LeaveDays int           // a player's leave a year outside tournaments that set theirs (DefaultLeaveDays when 0)
	Rating    rating.Config // the rating system's, for a game a forfeit ends
	Out       *outbox.Writer
	// TellOrganizer tells the organizer of sg's tournament, if it has one, text; it returns
	// how many mails it queued.
	TellOrganizer func(tx *store.Tx, sg *store.Game, text string) (int, error)
	// GameOver is what follows the end of a game (its tournament's standings).
	GameOver func(tx *store.Tx, sg *store.Game) error
	// Prefs is each player's settings in sg, his language among them (nil: the defaults).
	Prefs func(tx *store.Tx, sg *store.Game) [2]play.Prefs
	Log   *slog.Logger
	// Loads counts the games the deadline check replayed (tests); nil: not counted.
	Loads *atomic.Int64
}

func (k *Keeper) prefs(tx *store.Tx, sg *store.Game) [2]play.Prefs {
	if k.Prefs == nil {
		return [2]play.Prefs{play.Prefs{}.With(""), play.Prefs{}.With("")}
	}
	return k.Prefs(tx, sg)
}

func (k *Keeper) log() *slog.Logger {
	if k.Log != nil {
		return k.Log
	}
	return slog.Default()
}

// Leave, granted (what is due when, and in what words, is package clocks'). A player's leave
// stops the clocks (and the simple deadlines) of all his games on those days, and a
// tournament's pause stops all of its games'. Both are read from the store whenever a game is
// loaded, so a clock is always the pure result of the game's log, the leave granted and the
// pauses. Leave can be asked for from today on, never for the past: what a clock charged
// before it was granted stays charged.

// leaveAllowance is the leave addr may take in a year: the least of the allowances of the
// tournaments he plays in, ts (a leave stops all his games), else the referee's.
func (k *Keeper) leaveAllowance(ts []store.Tournament, addr string) int {
	allow := -1
	for _, t := range ts {
		if t.LeaveDays > 0 && slices.Contains(t.Players, addr) && (allow < 0 || t.LeaveDays < allow) {
			allow = t.LeaveDays
		}
	}
	switch {
	case allow >= 0:
		return allow
	case k.LeaveDays > 0:
		return k.LeaveDays
	}
	return DefaultLeaveDays
}

// GrantLeave records leave for addr after checking it: from today on, not overlapping leave
// he has, and (unless the organizer of tournament organizer grants it) within his allowance in every
// calendar year it touches. Then every opponent in his games still going is told the dates,
// and nothing more, except the opponent in game except, who hears of it in the caller's mail.
// It returns what the requester is told.
//
// t is the requester's language.
func (k *Keeper) GrantLeave(tx *store.Tx, addr string, lr LeaveRequest, by string, organizer *store.Tournament, except uint64, t lang.Tag) (string, error) {
	say := func(kind string, args templates.Args) string { return templates.SayIn(t, "", kind, args) }
	byOrganizer := organizer != nil
	today := tx.Now.UTC().Truncate(clock.Day)
	if lr.From.Before(today) {
		return "", variant.Refuse("leave-past", templates.Args{"Today": today.Format(archive.DateLayout)})
	}
	if horizon := today.AddDate(1, 0, 0); lr.From.After(horizon) {
		return "", variant.Refuse("leave-too-early", templates.Args{"Latest": horizon.Format(archive.DateLayout)})
	}
	rec, err := tx.PlayerRecord(addr)
	if err != nil {
		return "", err
	}
	// His games and tournaments, read once (by the store's index of players).
	games, err := tx.GamesOf(addr)
	if err != nil {
		return "", err
	}
	ts, err := tournamentsOf(tx, addr, games)
	if err != nil {
		return "", err
	}
	allow := k.leaveAllowance(ts, addr)
	for _, lv := range rec.Leaves {
		s, ok := archive.LeaveStop(lv)
		if ok && s.From.Before(lr.To.AddDate(0, 0, 1)) && lr.From.Before(s.To) {
			return "", variant.Refuse("leave-overlaps", templates.Args{"From": lv.From, "To": lv.To})
		}
	}
	if periods := LeavesStartingIn(rec, lr.From.Year()); periods >= MaxLeavePeriods && !byOrganizer {
		return "", variant.Refuse("leave-too-many", templates.Args{"Year": lr.From.Year(), "Max": MaxLeavePeriods})
	}
	if Going(games, addr) == 0 {
		return "", variant.Refuse("leave-no-games", nil)
	}
	var notes []string
	for y := lr.From.Year(); y <= lr.To.Year(); y++ {
		taken := 0
		for _, lv := range rec.Leaves {
			if s, ok := archive.LeaveStop(lv); ok {
				taken += DaysIn(s.From, s.To.AddDate(0, 0, -1), y)
			}
		}
		asked := DaysIn(lr.From, lr.To, y)
		if taken+asked > allow {
			if !byOrganizer {
				return "", variant.Refuse("leave-over-allowance", templates.Args{"Year": y, "Allowance": allow, "Taken": taken, "Asked": asked})
			}
			notes = append(notes, say("leave-beyond-allowance", templates.Args{"Year": y, "Allowance": allow, "Days": taken + asked}))
		}
	}
	rec.Leaves = append(rec.Leaves, store.Leave{From: lr.From.Format(archive.DateLayout), To: lr.To.Format(archive.DateLayout), Granted: tx.Now, By: by})
	if err := tx.PutPlayerRecord(rec); err != nil {
		return "", err
	}
	// His games are not marked due (store.Tx.MarkDue): leave only stops clocks, so each
	// game's next moment in the due index is, if anything, early. The deadline check looks
	// then, finds nothing due yet (it reads the leave with the game), and files the game
	// under its later moment. A LEAVE thus rewrites no index entry of his games, which in a
	// large league lie far apart.
	// Each of his tournaments logs it (the organizer's own, which the caller holds, in place).
	for i := range ts {
		t := &ts[i]
		if organizer != nil && t.ID == organizer.ID {
			t = organizer
		}
		if !slices.Contains(t.Players, addr) {
			continue
		}
		t.Log = append(t.Log, store.TournamentEvent{At: tx.Now, By: by, Text: "leave " + addr + " " + lr.String()})
		if err := tx.PutTournament(t); err != nil {
			return "", err
		}
	}
	args := templates.Args{"From": lr.From.Format(archive.DateLayout), "To": lr.To.Format(archive.DateLayout), "Days": lr.Days()}
	n := 0
	for i := range games {
		sg := &games[i]
		if sg.Over() {
			continue
		}
		for side, p := range sg.Players {
			if p.Address != addr {
				continue
			}
			n++
			v, err := variant.Lookup(sg.Variant)
			if err != nil {
				return "", err
			}
			if sg.ID == except {
				continue // this game's opponent hears of it in the caller's mail
			}
			// The opponent is told the dates and nothing more; the player himself is told once,
			// in the answer.
			s := chess.Color(side).Other()
			a := templates.Args{"From": args["From"], "To": args["To"], "Days": args["Days"], "Side": chess.Color(side)}
			ts := k.prefs(tx, sg)[s].Lang
			if err := play.Mail(k.Out, tx, sg, v.Name, outbox.Letter{Side: s, Kind: "update", Lang: ts, What: templates.SayIn(ts, "", "subject/leave-news", nil), Paras: []string{templates.SayIn(ts, "", "leave-told", a)}}); err != nil {
				return "", err
			}
		}
	}
	args["Games"] = n
	args["For"] = ""
	if byOrganizer {
		args["For"] = addr
	}
	args["Left"] = allow - DaysTakenIn(rec, lr.From.Year())
	args["Year"] = lr.From.Year()
	return strings.Join(append([]string{say("leave-granted", args)}, notes...), "\n"), nil
}

// Leave is a player's LEAVE in game sg: granted for all his games, his opponent here
// told in this mail's news, the others by mail of their own.
func (k *Keeper) Leave(tx *store.Tx, sg *store.Game, side chess.Color, args []string) ([]variant.Notice, error) {
	lr, err := ParseLeave(args)
	if err != nil {
		return nil, err
	}
	addr := sg.Players[side].Address
	prefs := k.prefs(tx, sg)
	granted, err := k.GrantLeave(tx, addr, lr, addr, nil, sg.ID, prefs[side].Lang)
	if err != nil {
		return nil, err
	}
	notices := []variant.Notice{{To: variant.To(side), Kind: "leave", Text: granted}}
	if !sg.Over() {
		args := templates.Args{"From": lr.From.Format(archive.DateLayout), "To": lr.To.Format(archive.DateLayout), "Days": lr.Days(), "Side": side}
		notices = append(notices, variant.Notice{To: variant.To(side.Other()), Kind: "leave-told", Words: "leave-told", Args: args})
	}
	return notices, nil
}

// tournamentsOf are the tournaments addr plays in, found through his games (tx.GamesOf: by
// the store's index of players), not by reading every tournament.
func tournamentsOf(tx store.Tournaments, addr string, games []store.Game) ([]store.Tournament, error) {
	var ids []uint64
	for _, g := range games {
		if g.Tournament != 0 && !slices.Contains(ids, g.Tournament) {
			ids = append(ids, g.Tournament)
		}
	}
	slices.Sort(ids)
	var out []store.Tournament
	for _, id := range ids {
		t, err := tx.Tournament(id)
		if err != nil {
			return nil, err
		}
		if slices.ContainsFunc(t.Players, func(p string) bool { return strings.EqualFold(p, addr) }) {
			out = append(out, *t)
		}
	}
	return out, nil
}

// CheckDeadlines applies rules.md 0.4a to every active game, one transaction per game: a
// player whose action has waited one deadline gets a reminder, which names the time of the
// second deadline, one deadline later; if nothing has come from him by then he forfeits,
// which is logged like any command (CmdForfeit), so that replaying the log gives the same
// result. A forfeit always follows a reminder, however short the deadline or long the daemon
// was down. An action starts when the turn passed to the player (see actionStart): no query,
// of his or his opponent's, restarts it. A simultaneous game (one whose ToAct names both players) waits for
// both players at the start of each turn: then no clock runs. Once one of them has chosen,
// the game waits for the other alone, and his clock runs from the moment his opponent chose
// (rules.md 0.4a), with the same reminder and forfeit. It
// returns how many mails it queued.
func (k *Keeper) CheckDeadlines() (int, error) {
	queued := 0
	for {
		var ids []uint64
		if err := k.DB.View(func(tx *store.Tx) (err error) {
			ids, err = tx.DueGames(tx.Now, dueBatch)
			return err
		}); err != nil {
			return queued, err
		}
		for _, id := range ids {
			err := k.DB.Update(func(tx *store.Tx) error {
				n, err := k.checkDeadline(tx, id)
				queued += n
				return err
			})
			if err != nil {
				return queued, fmt.Errorf("clocks: deadline of game %d: %w", id, err)
			}
		}
		if len(ids) < dueBatch {
			return queued, nil
		}
	}
}

// dueBatch is how many due games the deadline check reads at a time.
const dueBatch = 256

// MarkDue asks the deadline check to look again at the games still going among ids: leave,
// a pause or a new player moved when they are due (what their logs say marks them itself).
func MarkDue(tx store.Games, ids ...uint64) error {
	for _, id := range ids {
		if err := tx.MarkDue(id); err != nil {
			return err
		}
	}
	return nil
}

// checkDeadline looks at a game the index says is due: it reminds or forfeits the player it
// waits for when his moment has come, and records when to look again (never, for a game
// over or a simultaneous turn nobody has chosen yet: a command marks it again).
func (k *Keeper) checkDeadline(tx *store.Tx, id uint64) (queued int, err error) {
	if k.Loads != nil {
		k.Loads.Add(1)
	}
	a, err := play.Open(tx, id, k.Rating)
	if err != nil {
		return 0, err
	}
	l := a.Read()
	sg, v, g := l.Stored, l.Variant, l.Live
	act := g.ToAct()
	if g.Outcome().Over() || len(act) != 1 {
		// Over, or a simultaneous turn that neither player has chosen yet: no clock runs
		// (0.4a). It starts for the one who has not chosen when the other has, which
		// load's since records as the moment the game began to wait for him alone.
		return 0, tx.SetDue(id, time.Time{})
	}
	waiting := act[0]
	start := l.Since[waiting]
	dl := DueOf(l, waiting)
	next := dl.Remind
	if Reminded(sg, start) || dl.OnTime {
		next = dl.Lose
		if !Reminded(sg, start) && dl.Remind.Before(next) {
			next = dl.Remind
		}
	}
	defer func() {
		if err == nil {
			err = tx.SetDue(id, next)
		}
	}()
	switch {
	case !dl.Lose.IsZero() && !tx.Now.Before(dl.Lose):
		forfeit := variant.CmdForfeit
		if dl.OnTime {
			forfeit = variant.CmdTimeForfeit
		}
		notices, err := a.Submit(variant.Command{By: waiting, Text: forfeit}, "deadline")
		if err != nil {
			return 0, err
		}
		if _, err := a.Settle(""); err != nil {
			return 0, err
		}
		res := g.Outcome()
		var out play.Outcome
		out.SetPrefs(k.prefs(tx, sg))
		for _, n := range notices {
			out.Add(n)
		}
		if err := play.Finish(k.Out, a, &out, nil, true, "deadline", k.GameOver); err != nil {
			return 0, err
		}
		next = time.Time{} // over: nothing falls due any more
		queued = 2
		if n, err := k.TellOrganizer(tx, sg, say("organizer-forfeit", templates.Args{"Game": sg.ID, "Player": sg.Players[waiting].Address, "Reason": res.Reason, "Result": res.Result, "OnTime": dl.OnTime})); err != nil {
			return 0, err
		} else {
			queued += n
		}
		k.log().Info("forfeit", "game", id, "side", waiting, "reason", res.Reason)
		return queued, nil
	case !dl.Remind.IsZero() && !Reminded(sg, start) && !tx.Now.Before(dl.Remind):
		if err := a.Reminded(); err != nil {
			return 0, err
		}
		p := k.prefs(tx, sg)[waiting]
		say := func(kind string, args templates.Args) string { return templates.SayIn(p.Lang, "", kind, args) }
		var text, subject string
		if dl.OnTime {
			text = say("reminder-clock", templates.Args{"Left": l.Clock.Left(int(waiting), tx.Now), "Due": When(dl.Lose)})
			subject = say("subject/reminder", templates.Args{"Turn": play.TurnLabelIn(g, waiting, p.Lang), "Due": When(dl.Lose)})
		} else {
			d := DeadlineOf(sg)
			due := clock.After(tx.Now, d, l.Stops)
			text = say("reminder", templates.Args{"Waited": Span(clock.Running(start, tx.Now, l.Stops)), "Deadline": Span(d), "Due": When(due)})
			subject = say("subject/reminder", templates.Args{"Turn": play.TurnLabelIn(g, waiting, p.Lang), "Due": When(due)})
		}
		lt := outbox.Letter{Side: waiting, Kind: "reminder", What: subject, Paras: []string{text}, Diagram: play.Diagram(v, g, waiting, variant.ShowView, p), Lang: p.Lang}
		if err := play.Mail(k.Out, tx, sg, v.Name, lt); err != nil {
			return 0, err
		}
		next = dl.Lose
		if next.IsZero() {
			next = clock.After(tx.Now, DeadlineOf(sg), l.Stops)
		}
		return 1, nil
	}
	return 0, nil
}

// TournamentGames are the ids of t's games.
func TournamentGames(t *store.Tournament) []uint64 {
	var ids []uint64
	for _, rd := range t.Rounds {
		for _, tg := range rd.Games {
			ids = append(ids, tg.Game)
		}
	}
	return ids
}
