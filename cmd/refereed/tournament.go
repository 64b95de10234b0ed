package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/refereed/refereed/lang"

	"github.com/refereed/refereed/archive"
	"github.com/refereed/refereed/referee/organizer"
	"github.com/refereed/refereed/referee/senders"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/tournament"
	"github.com/refereed/refereed/variant"
)

// runTournament dispatches "refereed tournament new|list|show|export|withdraw".
func (m *Main) runTournament(ctx context.Context, args []string) int {
	usage := func(w io.Writer) {
		fmt.Fprintln(w, "Usage: refereed tournament new --name NAME --variant V --players ADDR,ADDR,... [--double] [--time 30d+3d] [--organizer ADDR] [--withdraw-rule forfeit|half]\n"+
			"       refereed tournament list\n"+
			"       refereed tournament show ID\n"+
			"       refereed tournament export ID\n"+
			"       refereed tournament withdraw ID ADDR\n"+
			"       refereed tournament organize ID COMMAND...   an organizer's command, as by mail:\n"+
			"                   STANDINGS, GAMES, ADJUDICATE GAME RESULT [WHY],\n"+
			"                   EXTEND GAME DAYS [white|black], REPLACE OLD NEW, WITHDRAW ADDR,\n"+
			"                   PAUSE, RESUME, LEAVE ADDR FIRST [LAST], SHOW GAME, HELP\n"+
			"       refereed tournament games|pause|resume|adjudicate|extend|replace|leave ID ...\n"+
			"                   the same, shorter: 'refereed tournament pause 1'\n\n"+
			"A tournament is a round-robin section (Berger tables, 3 to 20 players): all its games\n"+
			"start at once. Run 'refereed tournament new -h' for its options.")
	}
	if len(args) == 0 {
		usage(m.Stderr)
		return exitUsage
	}
	switch args[0] {
	case "new":
		return m.tournamentNew(ctx, args[1:])
	case "list":
		return m.tournamentList(ctx, args[1:])
	case "show":
		return m.tournamentShow(ctx, args[1:])
	case "export":
		return m.tournamentExport(ctx, args[1:])
	case "withdraw":
		return m.tournamentWithdraw(ctx, args[1:])
	case "organize":
		return m.tournamentOrganize(ctx, "", args[1:])
	case "adjudicate", "extend", "replace", "pause", "resume", "leave", "games":
		return m.tournamentOrganize(ctx, strings.ToUpper(args[0]), args[1:])
	case "-h", "-help", "--help", "help":
		usage(m.Stdout)
		return exitOK
	}
	fmt.Fprintf(m.Stderr, "refereed tournament: unknown command %q\n\n", args[0])
	usage(m.Stderr)
	return exitUsage
}

func (m *Main) tournamentNew(ctx context.Context, args []string) int {
	fs := m.flagSet("tournament new", "Usage: refereed tournament new --name NAME --variant V --players ADDR,ADDR,...\n\nCreates a round-robin section and all its games, and queues their opening mails.")
	d := addDataFlags(fs)
	address := addressFlag(fs)
	name := fs.String("name", "", "the tournament's name, as its mails and records give it")
	v := fs.String("variant", "orthodox", "the game: "+strings.Join(variant.Keys(), ", "))
	players := fs.String("players", "", "the players' addresses, comma-separated, in table order (3 to 20)")
	double := fs.Bool("double", false, "each pair plays two games, one with each colour")
	rated := fs.Bool("rated", true, "the games count for the players' ratings (--rated=false: they do not)")
	language := fs.String("language", "", "the language of its players' mail where they set none (SET LANGUAGE): de, fr, es, it, nl, pt, pl, ru, en")
	organizerAddr := fs.String("organizer", "", "the organizer's address")
	rule := fs.String("withdraw-rule", tournament.WithdrawForfeit, "a withdrawn player's games: forfeit (those not finished are lost) or half (none counts if he finished fewer than half)")
	auth := fs.String("auth", "prefer", "what the mail system must say of a sender: none, prefer or require")
	deadline := fs.Duration("deadline", 72*time.Hour, "time for each action in every game: a reminder after it, a forfeit one more deadline later")
	timeControl := fs.String("time", "", "a correspondence time control for every game, in whole days, instead of --deadline: 30d+3d or 50d/10")
	leaveDays := fs.Int("leave-days", 0, "the leave a player may take in a calendar year (0: the config's leave_days, else 45)")
	if err := fs.Parse(args); err != nil {
		return usageCode(err)
	}
	if *name == "" || *players == "" || fs.NArg() > 0 {
		fs.Usage()
		return exitUsage
	}
	if !senders.ValidAuth(*auth) {
		fmt.Fprintf(m.Stderr, "refereed tournament new: --auth %q: want none, prefer or require\n", *auth)
		return exitUsage
	}
	if *deadline <= 0 {
		fmt.Fprintf(m.Stderr, "refereed tournament new: --deadline %v: want a positive duration like 72h\n", *deadline)
		return exitUsage
	}
	var tlang lang.Tag
	if *language != "" {
		t, err := lang.Parse(*language)
		if err != nil {
			fmt.Fprintf(m.Stderr, "refereed tournament new: --language: %v\n", err)
			return exitUsage
		}
		tlang = t
	}
	var addrs []string
	for _, a := range strings.Split(*players, ",") {
		if a = strings.TrimSpace(a); a != "" {
			addrs = append(addrs, a)
		}
	}
	db, closeDB, created, err := d.create(ctx, m)
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed tournament new: %v\n", err)
		return exitUsage
	}
	defer closeDB()
	if created {
		fmt.Fprintf(m.Stdout, "created a new store in %s\n", d.where(m))
	}
	if created || d.shared() {
		if err := d.makeMailSecret(m, db); err != nil {
			fmt.Fprintf(m.Stderr, "refereed %s: %v\n", fs.Name(), err)
			return exitInvalid
		}
	}
	id, err := refereeOf(db, *address).Tournaments().New(organizer.Options{
		Name: *name, Variant: *v, Players: addrs, Double: *double, Organizer: *organizerAddr, WithdrawRule: *rule, Time: *timeControl, LeaveDays: *leaveDays, Rated: *rated, Language: string(tlang),
		Game: variant.Options{Flags: map[string]string{"deadline": deadline.String(), "auth": *auth}},
	})
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed tournament new: %v\n", err)
		return exitInvalid
	}
	var t *store.Tournament
	if err := db.View(func(tx *store.Tx) (err error) { t, err = tx.Tournament(id); return err }); err != nil {
		fmt.Fprintf(m.Stderr, "refereed tournament new: %v\n", err)
		return exitInvalid
	}
	games := 0
	for _, rd := range t.Rounds {
		games += len(rd.Games)
	}
	ratedText := "rated"
	if !t.Rated {
		ratedText = "not rated"
	}
	fmt.Fprintf(m.Stdout, "tournament #%d created in %s: %s, %d players, %d rounds, %d games, %s; the opening mails are queued\n", id, d.where(m), printable(t.Name), len(t.Players), len(t.Rounds), games, ratedText)
	mailers := t.Players
	if t.Organizer != "" {
		mailers = append(slices.Clone(mailers), t.Organizer)
		fmt.Fprintf(m.Stdout, "the organizer, %s, was sent a welcome; he sends his commands to %s\n", t.Organizer, refereeOf(db, *address).Tournaments().Address(t))
	}
	printMailPasswords(m.Stdout, d.mailSecret(m, db), refereeOf(db, *address).Address, mailers...)
	if m.db == nil {
		fmt.Fprintln(m.Stdout, d.noDaemon(db))
	}
	return exitOK
}

func (m *Main) tournamentList(ctx context.Context, args []string) int {
	fs := m.flagSet("tournament list", "Usage: refereed tournament list [--data DIR]\n\nLists the tournaments of the store: variant, players, games decided, name.")
	d := addDataFlags(fs)
	if err := fs.Parse(args); err != nil {
		return usageCode(err)
	}
	db, closeDB, err := d.open(ctx, m)
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed tournament list: %v\n", err)
		return exitUsage
	}
	defer closeDB()
	err = db.View(func(tx *store.Tx) error {
		n := 0
		err := tx.EachTournament(func(t *store.Tournament) error {
			n++
			s, err := archive.Section(tx, t)
			if err != nil {
				return err
			}
			done := 0
			for _, g := range s.Scored() {
				if g.Result != tournament.Pending {
					done++
				}
			}
			kind := "single"
			if t.Double {
				kind = "double"
			}
			fmt.Fprintf(m.Stdout, "#%-4d %-14s %2d players  %s  %d/%d games decided  %s\n", t.ID, t.Variant, len(t.Players), kind, done, len(s.Games), printable(t.Name))
			return nil
		})
		if err == nil && n == 0 {
			fmt.Fprintf(m.Stdout, "no tournaments in %s\n", d.where(m))
		}
		return err
	})
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed tournament list: %v\n", err)
		return exitInvalid
	}
	return exitOK
}

// tournamentArgs parses the data flags and the n arguments of show, export, withdraw; code
// is -1 when they are right, else the exit code.
func (m *Main) tournamentArgs(name string, args []string, n int) (dataFlags, []string, int) {
	fs := m.flagSet("tournament "+name, "Usage: refereed tournament "+name+" ID ...")
	d := addDataFlags(fs)
	if err := parseInterspersed(fs, args); err != nil {
		return d, nil, usageCode(err)
	}
	if fs.NArg() != n {
		fmt.Fprintf(m.Stderr, "Usage: refereed tournament %s ID%s\n", name, map[bool]string{true: " ADDR"}[n == 2])
		return d, nil, exitUsage
	}
	return d, fs.Args(), -1
}

func parseTournamentID(s string) (uint64, error) {
	id, err := strconv.ParseUint(strings.TrimPrefix(s, "#"), 10, 64)
	if err != nil || id == 0 {
		return 0, fmt.Errorf("%q is not a tournament number", s)
	}
	return id, nil
}

func (m *Main) tournamentShow(ctx context.Context, args []string) int {
	d, rest, code := m.tournamentArgs("show", args, 1)
	if code >= 0 {
		return code
	}
	id, err := parseTournamentID(rest[0])
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed tournament show: %v\n", err)
		return exitUsage
	}
	db, closeDB, err := d.open(ctx, m)
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed tournament show: %v\n", err)
		return exitUsage
	}
	defer closeDB()
	var head string
	err = db.View(func(tx *store.Tx) error {
		t, err := tx.Tournament(id)
		if err != nil {
			return err
		}
		head = fmt.Sprintf("Tournament #%d: %s, %s, withdrawals: %s", t.ID, printable(t.Name), t.Variant, t.WithdrawRule)
		if t.Time != "" {
			head += ", time " + t.Time
		}
		if t.Paused() {
			head += ", clocks stopped since " + t.Pauses[len(t.Pauses)-1].From.UTC().Format("2006-01-02 15:04 UTC")
		}
		if t.Organizer != "" {
			head += fmt.Sprintf(",\norganizer %s (replies to %s)", t.Organizer, refereeOf(db, "").Tournaments().Address(t))
		}
		for _, e := range t.Log {
			head += fmt.Sprintf("\n  %s %s: %s", e.At.UTC().Format("2006-01-02 15:04"), e.By, printable(e.Text))
		}
		return nil
	})
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed tournament show: %v\n", err)
		return exitInvalid
	}
	text, err := refereeOf(db, "").Tournaments().Standings(id)
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed tournament show: %v\n", err)
		return exitInvalid
	}
	fmt.Fprintf(m.Stdout, "%s\n\n%s", head, text)
	return exitOK
}

func (m *Main) tournamentExport(ctx context.Context, args []string) int {
	d, rest, code := m.tournamentArgs("export", args, 1)
	if code >= 0 {
		return code
	}
	id, err := parseTournamentID(rest[0])
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed tournament export: %v\n", err)
		return exitUsage
	}
	db, closeDB, err := d.open(ctx, m)
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed tournament export: %v\n", err)
		return exitUsage
	}
	defer closeDB()
	err = db.View(func(tx *store.Tx) error {
		n, err := archive.ExportTournament(tx, id, m.Stdout)
		if err == nil {
			fmt.Fprintf(m.Stderr, "refereed tournament export: %d game(s) of tournament #%d from %s\n", n, id, d.where(m))
		}
		return err
	})
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed tournament export: %v\n", err)
		return exitInvalid
	}
	return exitOK
}

func (m *Main) tournamentWithdraw(ctx context.Context, args []string) int {
	d, rest, code := m.tournamentArgs("withdraw", args, 2)
	if code >= 0 {
		return code
	}
	id, err := parseTournamentID(rest[0])
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed tournament withdraw: %v\n", err)
		return exitUsage
	}
	db, closeDB, err := d.open(ctx, m)
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed tournament withdraw: %v\n", err)
		return exitUsage
	}
	defer closeDB()
	if err := refereeOf(db, "").Tournaments().Withdraw(id, rest[1]); err != nil {
		fmt.Fprintf(m.Stderr, "refereed tournament withdraw: %v\n", err)
		return exitInvalid
	}
	fmt.Fprintf(m.Stdout, "%s withdrawn from tournament #%d: his games still going are over, and the players are told\n", rest[1], id)
	return exitOK
}

// tournamentOrganize runs an organizer's command, as he would send it by mail: "organize ID
// COMMAND ...", or, with verb, "pause ID", "extend ID GAME DAYS" ...
func (m *Main) tournamentOrganize(ctx context.Context, verb string, args []string) int {
	name := "organize"
	if verb != "" {
		name = strings.ToLower(verb)
	}
	fs := m.flagSet("tournament "+name, "Usage: refereed tournament "+name+" ID ...")
	d := addDataFlags(fs)
	if err := parseInterspersed(fs, args); err != nil {
		return usageCode(err)
	}
	rest := fs.Args()
	if verb != "" && len(rest) > 0 {
		rest = append([]string{rest[0], verb}, rest[1:]...)
	}
	if len(rest) < 2 {
		if verb != "" {
			fmt.Fprintf(m.Stderr, "Usage: refereed tournament %s ID ...  (refereed tournament organize ID HELP lists the commands)\n", name)
		} else {
			fmt.Fprintln(m.Stderr, "Usage: refereed tournament organize ID COMMAND...  (HELP lists the commands)")
		}
		return exitUsage
	}
	id, err := parseTournamentID(rest[0])
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed tournament %s: %v\n", name, err)
		return exitUsage
	}
	db, closeDB, err := d.open(ctx, m)
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed tournament organize: %v\n", err)
		return exitUsage
	}
	defer closeDB()
	out, err := refereeOf(db, "").Tournaments().Organize(id, strings.Join(rest[1:], " "))
	if err != nil {
		fmt.Fprintf(m.Stderr, "refereed tournament %s: %v\n", name, err)
		return exitInvalid
	}
	fmt.Fprintln(m.Stdout, out)
	return exitOK
}
