package referee

import (
	"github.com/refereed/refereed/referee/command"
	"slices"
	"strings"

	"github.com/refereed/refereed/archive"
	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/referee/clocks"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/templates"
	"github.com/refereed/refereed/tournament"
	"github.com/refereed/refereed/variant"
)

// Leave, granted (what is due when, and in what words, is package clocks'). A player's leave
// stops the clocks (and the simple deadlines) of all his games on those days, and a
// tournament's pause stops all of its games'. Both are read from the store whenever a game is
// loaded, so a clock is always the pure result of the game's log, the leave granted and the
// pauses. Leave can be asked for from today on, never for the past: what a clock charged
// before it was granted stays charged.

// leaveAllowance is the leave addr may take in a year: the least of the allowances of the
// tournaments he plays in, ts (a leave stops all his games), else the referee's.
func (r *Referee) leaveAllowance(ts []store.Tournament, addr string) int {
	allow := -1
	for _, t := range ts {
		if t.LeaveDays > 0 && slices.Contains(t.Players, addr) && (allow < 0 || t.LeaveDays < allow) {
			allow = t.LeaveDays
		}
	}
	switch {
	case allow >= 0:
		return allow
	case r.LeaveDays > 0:
		return r.LeaveDays
	}
	return clocks.DefaultLeaveDays
}

// grantLeave records leave for addr after checking it: from today on, not overlapping leave
// he has, and (unless the organizer of tournament organizer grants it) within his allowance in every
// calendar year it touches. Then every opponent in his games still going is told the dates,
// and nothing more, except the opponent in game except, who hears of it in the caller's mail.
// It returns what the requester is told.
func (r *Referee) grantLeave(tx *store.Tx, addr string, lr clocks.LeaveRequest, by string, organizer *store.Tournament, except uint64) (string, error) {
	byOrganizer := organizer != nil
	today := tx.Now.UTC().Truncate(tournament.Day)
	if lr.From.Before(today) {
		return "", variant.Reject("%s", say("leave-past", templates.Args{"Today": today.Format(archive.DateLayout)}))
	}
	if horizon := today.AddDate(1, 0, 0); lr.From.After(horizon) {
		return "", variant.Reject("%s", say("leave-too-early", templates.Args{"Latest": horizon.Format(archive.DateLayout)}))
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
	allow := r.leaveAllowance(ts, addr)
	for _, lv := range rec.Leaves {
		s, ok := archive.LeaveStop(lv)
		if ok && s.From.Before(lr.To.AddDate(0, 0, 1)) && lr.From.Before(s.To) {
			return "", variant.Reject("%s", say("leave-overlaps", templates.Args{"From": lv.From, "To": lv.To}))
		}
	}
	if periods := clocks.LeavesStartingIn(rec, lr.From.Year()); periods >= clocks.MaxLeavePeriods && !byOrganizer {
		return "", variant.Reject("%s", say("leave-too-many", templates.Args{"Year": lr.From.Year(), "Max": clocks.MaxLeavePeriods}))
	}
	if clocks.Going(games, addr) == 0 {
		return "", variant.Reject("%s", say("leave-no-games", nil))
	}
	var notes []string
	for y := lr.From.Year(); y <= lr.To.Year(); y++ {
		taken := 0
		for _, lv := range rec.Leaves {
			if s, ok := archive.LeaveStop(lv); ok {
				taken += clocks.DaysIn(s.From, s.To.AddDate(0, 0, -1), y)
			}
		}
		asked := clocks.DaysIn(lr.From, lr.To, y)
		if taken+asked > allow {
			if !byOrganizer {
				return "", variant.Reject("%s", say("leave-over-allowance", templates.Args{"Year": y, "Allowance": allow, "Taken": taken, "Asked": asked}))
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
			if err := r.enqueue(tx, sg, v, letter{Side: s, Kind: "update", What: say("subject/leave-news", nil), Paras: []string{say("leave-told", a)}}); err != nil {
				return "", err
			}
		}
	}
	args["Games"] = n
	args["For"] = ""
	if byOrganizer {
		args["For"] = addr
	}
	args["Left"] = allow - clocks.DaysTakenIn(rec, lr.From.Year())
	args["Year"] = lr.From.Year()
	return strings.Join(append([]string{say("leave-granted", args)}, notes...), "\n"), nil
}

// leaveCommand is a player's LEAVE.
func (r *Referee) leaveCommand(c *command.Call) (command.Result, error) {
	notices, err := r.leave(c.Game.Tx(), c.Game.Stored, c.Side, c.Args)
	return command.Result{Notices: notices}, err
}

// leave is a player's LEAVE in game sg: granted for all his games, his opponent here
// told in this mail's news, the others by mail of their own.
func (r *Referee) leave(tx *store.Tx, sg *store.Game, side chess.Color, args []string) ([]variant.Notice, error) {
	lr, err := clocks.ParseLeave(args)
	if err != nil {
		return nil, err
	}
	addr := sg.Players[side].Address
	granted, err := r.grantLeave(tx, addr, lr, addr, nil, sg.ID)
	if err != nil {
		return nil, err
	}
	notices := []variant.Notice{{To: variant.To(side), Kind: "leave", Text: granted}}
	if !sg.Over() {
		told := say("leave-told", templates.Args{"From": lr.From.Format(archive.DateLayout), "To": lr.To.Format(archive.DateLayout), "Days": lr.Days(), "Side": side})
		notices = append(notices, variant.Notice{To: variant.To(side.Other()), Kind: "leave-told", Text: told})
	}
	return notices, nil
}

// tournamentsOf are the tournaments addr plays in, found through his games (tx.GamesOf: by
// the store's index of players), not by reading every tournament.
func tournamentsOf(tx *store.Tx, addr string, games []store.Game) ([]store.Tournament, error) {
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
