package organizer

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/refereed/refereed/archive"
	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/clock"
	"github.com/refereed/refereed/lang"
	"github.com/refereed/refereed/parser"
	"github.com/refereed/refereed/referee/command"
	"github.com/refereed/refereed/referee/outbox"
	"github.com/refereed/refereed/referee/play"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/templates"
	"github.com/refereed/refereed/tournament"
	"github.com/refereed/refereed/variant"
)

// withdrawnReason is the Reason of a game ended by a player's withdrawal (archive.WithdrawnReason).
const withdrawnReason = archive.WithdrawnReason

// Options are the settings of a new tournament.
type Options struct {
	Name      string
	Variant   string   // registry key or alias
	Players   []string // addresses, in table order (the Berger tables' player 1 first)
	Double    bool     // each pair plays both colours
	Organizer string   // optional address
	// WithdrawRule is tournament.WithdrawForfeit (the default) or tournament.WithdrawHalf.
	WithdrawRule string
	// Time is the games' time control ("30d+3d", "50d/10"; "" for the simple deadline), and
	// LeaveDays the leave a player may take in a calendar year (clocks.DefaultLeaveDays when 0).
	Time      string
	LeaveDays int
	Game      variant.Options // each game's options
	// Rated: the games count for their players' ratings (`refereed tournament new` rates
	// them unless told --rated=false).
	Rated bool
	// Language is the language of its players' mail who set none (lang.Tag; "": the server's).
	Language string
}

// New creates a round-robin section and all its games at once, in one transaction,
// and queues every game's opening mails (which name the tournament and the round).
func (d *Desk) New(o Options) (uint64, error) {
	v, err := variant.Lookup(o.Variant)
	if err != nil {
		return 0, err
	}
	name := strings.TrimSpace(o.Name)
	if name == "" {
		return 0, fmt.Errorf("a tournament needs a name")
	}
	if !command.PlainText(name) || len(name) > 200 {
		return 0, fmt.Errorf("tournament name %q: at most 200 characters, with no control characters or direction overrides", command.Clip(name))
	}
	rule := o.WithdrawRule
	switch rule {
	case "":
		rule = tournament.WithdrawForfeit
	case tournament.WithdrawForfeit, tournament.WithdrawHalf:
	default:
		return 0, fmt.Errorf("withdraw rule %q: it is %q or %q", rule, tournament.WithdrawHalf, tournament.WithdrawForfeit)
	}
	var players []string
	seen := map[string]bool{}
	for _, a := range o.Players {
		addr, err := d.CheckAddress(a)
		if err != nil {
			return 0, fmt.Errorf("player: %w", err)
		}
		if seen[addr] {
			return 0, fmt.Errorf("%s is named twice", addr)
		}
		seen[addr] = true
		players = append(players, addr)
	}
	organizer := ""
	if o.Organizer == "" {
		o.Organizer = d.Organizer
	}
	if o.Organizer != "" {
		if organizer, err = d.CheckAddress(o.Organizer); err != nil {
			return 0, fmt.Errorf("organizer: %w", err)
		}
	}
	if o.Time != "" {
		tc, err := clock.ParseTimeControl(o.Time)
		if err != nil {
			return 0, err
		}
		o.Time = tc.String()
		flags := map[string]string{}
		for k, v := range o.Game.Flags {
			flags[k] = v
		}
		flags["time"] = o.Time
		o.Game.Flags = flags
	}
	if o.LeaveDays < 0 || o.LeaveDays > 366 {
		return 0, fmt.Errorf("leave days %d: from 0 to 366 a year", o.LeaveDays)
	}
	rounds, err := tournament.Schedule(len(players), o.Double)
	if err != nil {
		return 0, err
	}
	if _, err := v.New(o.Game); err != nil {
		return 0, fmt.Errorf("cannot start %s: %w", v.Name, err)
	}
	var id uint64
	err = d.DB.Update(func(tx *store.Tx) error {
		t := &store.Tournament{Name: name, Variant: v.Key, Players: players, Double: o.Double, Organizer: organizer, WithdrawRule: rule, Language: o.Language,
			Time: o.Time, LeaveDays: o.LeaveDays, Rated: o.Rated}
		if organizer != "" {
			tok, err := d.Out.NewToken()
			if err != nil {
				return err
			}
			t.OrganizerToken = tok
		}
		if err := tx.CreateTournament(t); err != nil {
			return err
		}
		id = t.ID
		if organizer != "" {
			if err := tx.PutTokenRef(t.OrganizerToken, store.GameRef{Tournament: t.ID}); err != nil {
				return err
			}
		}
		for _, rd := range rounds {
			tr := store.TournamentRound{Number: rd.Number, Bye: rd.Bye}
			for _, p := range rd.Games {
				sg, err := d.StartGame(tx, v, [2]string{players[p.White], players[p.Black]}, o.Game, t, rd.Number, len(rounds))
				if err != nil {
					return err
				}
				tr.Games = append(tr.Games, store.TournamentGame{White: p.White, Black: p.Black, Game: sg.ID})
			}
			t.Rounds = append(t.Rounds, tr)
		}
		if err := tx.PutTournament(t); err != nil {
			return err
		}
		if organizer == "" {
			return nil
		}
		games := 0
		for _, rd := range t.Rounds {
			games += len(rd.Games)
		}
		list, err := gamesList(tx, t)
		if err != nil {
			return err
		}
		return d.toOrganizer(tx, t, say("subject/organizer-welcome", templates.Args{"Name": t.Name}),
			[]string{say("organizer-welcome", templates.Args{"Name": t.Name, "Variant": v.Name, "Players": len(t.Players), "Games": games, "Time": t.Time}), list, d.Help()}, nil, nil)
	})
	if err != nil {
		return 0, err
	}
	return id, nil
}

// standingsParas are the paragraphs of a standings mail: what it is, the crosstable, the key.
// In language l (the crosstable itself is the same in all).
func standingsParas(tx *store.Tx, t *store.Tournament, l lang.Tag) ([]string, error) {
	say := func(kind string, args templates.Args) string { return templates.SayIn(l, "", kind, args) }
	s, err := archive.Section(tx, t)
	if err != nil {
		return nil, err
	}
	done := 0
	for _, g := range s.Scored() {
		if g.Result != tournament.Pending {
			done++
		}
	}
	v, err := variant.Lookup(t.Variant)
	name := t.Variant
	if err == nil {
		name = v.Name
	}
	return []string{
		say("tournament-standings", templates.Args{"Name": t.Name, "Variant": name, "Done": done, "Games": len(s.Games)}),
		strings.TrimRight(s.Crosstable(), "\n"),
		say("tournament-key", templates.Args{"Double": t.Double}),
	}, nil
}

// Standings is tournament id's crosstable, with its heading and key, as a mail gives it.
func (d *Desk) Standings(id uint64) (string, error) {
	var text string
	err := d.DB.View(func(tx *store.Tx) error {
		t, err := tx.Tournament(id)
		if err != nil {
			return err
		}
		paras, err := standingsParas(tx, t, lang.EN) // the operator's
		text = strings.Join(paras, "\n\n") + "\n"
		return err
	})
	return text, err
}

// GameOver tells every player of sg's tournament that sg ended, with the
// standings. It is called in the transaction that ended the game.
func (d *Desk) GameOver(tx *store.Tx, sg *store.Game) error {
	if sg.Tournament == 0 {
		return nil
	}
	t, err := tx.Tournament(sg.Tournament)
	if err != nil {
		return err
	}
	return d.sendStandings(tx, t, func(l lang.Tag) string {
		return templates.SayIn(l, "", "tournament-game-ended", templates.Args{"Game": sg.ID, "Name": t.Name, "White": sg.Players[0].Address, "Black": sg.Players[1].Address, "Result": sg.Result})
	})
}

// sendStandings mails the standings of t, under head (in a language), to its players, each in
// his language, and its organizer.
func (d *Desk) sendStandings(tx *store.Tx, t *store.Tournament, head func(lang.Tag) string) error {
	s, err := archive.Section(tx, t)
	if err != nil {
		return err
	}
	in := map[lang.Tag][]string{}
	parasIn := func(l lang.Tag) ([]string, error) {
		if p, ok := in[l]; ok {
			return p, nil
		}
		paras, err := standingsParas(tx, t, l)
		if err != nil {
			return nil, err
		}
		paras = append([]string{head(l)}, paras...)
		if s.Over() {
			paras = append(paras, templates.SayIn(l, "", "tournament-over", templates.Args{"Name": t.Name}))
		}
		in[l] = paras
		return paras, nil
	}
	def := d.Language
	if l := lang.Tag(t.Language); l.Known() {
		def = l
	}
	for _, p := range t.Players {
		paras, err := parasIn(play.PrefsOf(tx, p).With(def).Lang)
		if err != nil {
			return err
		}
		if err := d.toPlayer(tx, t, p, paras, nil); err != nil {
			return err
		}
	}
	if t.Organizer == "" || slices.Contains(t.Players, t.Organizer) {
		return nil // an organizer who plays has had the standings as a player
	}
	paras, err := parasIn(lang.EN)
	if err != nil {
		return err
	}
	return d.toOrganizer(tx, t, say("subject/standings", templates.Args{"Name": t.Name}), paras, nil, nil)
}

// toPlayer sends a tournament's mail (the standings) to one address.
func (d *Desk) toPlayer(tx *store.Tx, t *store.Tournament, to string, paras []string, answers *parser.Message) error {
	return d.notice(tx, outbox.Notice{To: to, Subject: d.sayTo(tx, to, "subject/standings", templates.Args{"Name": t.Name}), Paras: paras,
		Footer: d.sayTo(tx, to, "tournament-footer", templates.Args{"Name": t.Name}), Answers: answers})
}

// StandingsAnswer is the answer to STANDINGS sent to a game's address.
func (d *Desk) StandingsAnswer(tx *store.Tx, sg *store.Game, side chess.Color) ([]variant.Notice, error) {
	if sg.Tournament == 0 {
		return nil, variant.Refuse("no-tournament", nil)
	}
	t, err := tx.Tournament(sg.Tournament)
	if err != nil {
		return nil, err
	}
	paras, err := standingsParas(tx, t, d.Prefs(tx, sg)[side].Lang)
	if err != nil {
		return nil, err
	}
	var out []variant.Notice
	for _, p := range paras {
		out = append(out, variant.Notice{To: variant.To(side), Kind: "standings", Text: p})
	}
	return out, nil
}

// Withdraw takes player addr out of tournament id (see withdraw), as from the command line.
func (d *Desk) Withdraw(id uint64, addr string) error {
	return d.DB.Update(func(tx *store.Tx) error {
		t, err := tx.Tournament(id)
		if err != nil {
			return err
		}
		if err := d.withdraw(tx, t, addr); err != nil {
			return err
		}
		t.Log = append(t.Log, store.TournamentEvent{At: tx.Now, By: "admin", Text: "withdraw " + addr})
		return tx.PutTournament(t)
	})
}

// withdraw takes player addr out of tournament t: each of his games still going ends, and
// the standings score his games by the tournament's rule. Both players of each game ended
// are told, and every player of the section gets the standings.
func (d *Desk) withdraw(tx *store.Tx, t *store.Tournament, addr string) error {
	addr, err := d.CheckAddress(addr)
	if err != nil {
		return err
	}
	id := t.ID
	p := -1
	for i, a := range t.Players {
		if a == addr {
			p = i
		}
	}
	if p < 0 {
		return fmt.Errorf("%s does not play in %s (tournament #%d)", addr, t.Name, id)
	}
	for _, w := range t.Withdrawn {
		if w.Player == p {
			return fmt.Errorf("%s has already withdrawn from %s (tournament #%d)", addr, t.Name, id)
		}
	}
	t.Withdrawn = append(t.Withdrawn, store.Withdrawal{Player: p, At: tx.Now})
	if err := tx.PutTournament(t); err != nil {
		return err
	}
	s, err := archive.Section(tx, t)
	if err != nil {
		return err
	}
	scored := s.Scored()
	annulled := false
	for _, g := range scored {
		if (g.White == p || g.Black == p) && g.Result == tournament.NotPlayed {
			annulled = true
		}
	}
	var ended []string
	for _, rd := range t.Rounds {
		for _, tg := range rd.Games {
			if tg.White != p && tg.Black != p {
				continue
			}
			a, err := d.open(tx, tg.Game)
			if err != nil {
				return err
			}
			sg, v, g := a.Stored(), a.Variant(), a.Live()
			if sg.Over() {
				continue
			}
			// The game's log says it ended, so that it takes no more moves, in replay too.
			side := chess.White
			if tg.Black == p {
				side = chess.Black
			}
			if _, err := a.Submit(variant.Command{By: side, Text: variant.CmdAbandon}, "organizer"); err != nil {
				return err
			}
			result := tournament.WhiteWins
			if tg.White == p {
				result = tournament.BlackWins
			}
			if err := a.End(result, withdrawnReason); err != nil {
				return err
			}
			prefs := d.Prefs(tx, sg)
			for _, s := range []chess.Color{chess.White, chess.Black} {
				revealed, err := play.Reveal(tx, a.Read(), prefs[s]) // the game is over: the whole of it (rules.md 0.4b)
				if err != nil {
					return err
				}
				say := func(kind string, args templates.Args) string { return templates.SayIn(prefs[s].Lang, "", kind, args) }
				args := templates.Args{"Player": addr, "Name": t.Name, "Annulled": annulled, "Me": s == side}
				l := outbox.Letter{Side: s, Kind: "update", Lang: prefs[s].Lang, What: say("subject/tournament-withdrawn", args),
					Paras: append([]string{say("tournament-withdrew", args)}, revealed...), Diagram: play.Diagram(v, g, s, variant.ShowReveal, prefs[s])}
				if err := d.mail(tx, sg, v, l); err != nil {
					return err
				}
			}
			ended = append(ended, "#"+strconv.FormatUint(sg.ID, 10))
		}
	}
	return d.sendStandings(tx, t, func(l lang.Tag) string {
		return templates.SayIn(l, "", "tournament-withdrawal", templates.Args{"Player": addr, "Name": t.Name, "Games": ended})
	})
}
