package organizer_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/refereed/refereed/archive"
	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/referee/clocks"
	"github.com/refereed/refereed/referee/organizer"
	"github.com/refereed/refereed/referee/refereetest"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/tournament"
	"github.com/refereed/refereed/variant"
)

// A four-player Progressive tournament played to the end by mail: every game's opening names
// the tournament and round, each game's end sends the standings to all four, STANDINGS
// answers a player, and the last standings are the final crosstable.
func TestTournamentByMail(t *testing.T) {
	h := refereetest.New(t)
	id, err := h.Ref.Tournaments().New(organizer.Options{Name: "Progressive Open 2027", Variant: "progressive", Players: quartet})
	if err != nil {
		t.Fatal(err)
	}
	tr := h.Tournament(id)
	if len(tr.Rounds) != 3 || len(tr.Rounds[0].Games) != 2 {
		t.Fatalf("rounds %+v", tr.Rounds)
	}
	openings := h.Outbox()
	if len(openings) != 12 {
		t.Fatalf("%d opening mails, want 12", len(openings))
	}
	for _, m := range openings {
		if !strings.Contains(string(m.Raw), "This is a game of Progressive Open 2027, round") {
			t.Fatalf("an opening mail does not name the tournament:\n%s", m.Raw)
		}
	}
	// Round 1: alice-dora, bruno-chen (Berger: 1-4, 2-3).
	g := func(round, board int) uint64 { return tr.Rounds[round-1].Games[board].Game }
	if w := h.Game(g(1, 0)).Players[chess.White].Address; w != "alice@example.com" {
		t.Fatalf("round 1 board 1 White is %s", w)
	}
	mustContain(t, "alice's opening", refereetest.BodyTo(t, mailsTo2(openings, g(1, 0)), "alice@example.com"), "round 1 of 3", "4 players")

	// STANDINGS from a player before anything is decided.
	h.Deliver(h.Reply(g(1, 1), chess.Black, "STANDINGS"))
	m := h.Outbox()
	if len(m) != 1 {
		t.Fatalf("%d mails for STANDINGS", len(m))
	}
	mustContain(t, "the answer to STANDINGS", refereetest.BodyTo(t, m, "chen@example.org"), "0 of 6 games", "    1 alice                * . . .", ". . .")

	h.Deliver(h.Reply(g(1, 1), chess.White, "HELP"))
	mustContain(t, "HELP in a tournament game", refereetest.BodyTo(t, h.Outbox(), "bruno@example.net"), "STANDINGS", "the tournament's crosstable")

	whiteWins := func(id uint64) {
		h.Deliver(h.Reply(id, chess.White, "e4"))
		h.Deliver(h.Reply(id, chess.Black, "RESIGN"))
	}
	blackWins := func(id uint64) { h.Deliver(h.Reply(id, chess.White, "RESIGN")) }
	draw := func(id uint64) {
		h.Deliver(h.Reply(id, chess.White, "DRAW OFFER"))
		h.Deliver(h.Reply(id, chess.Black, "DRAW ACCEPT"))
	}
	_ = blackWins
	whiteWins(g(1, 0)) // alice beats dora
	m = h.Outbox()
	for _, p := range quartet {
		found := false
		for _, mail := range m {
			if mail.To[0] != p || !strings.Contains(string(mail.Raw), "Progressive Open 2027: standings") {
				continue
			}
			found = true
			refereetest.Says(t, p+"'s standings", refereetest.BodyTo(t, []store.OutMail{mail}, p), "ended: 1-0", "1 of 6 games")
			mustContain(t, p+"'s standings, in HTML", string(mail.Raw), "<pre style") // the crosstable keeps its columns
		}
		if !found {
			t.Fatalf("%s got no standings after the first game ended", p)
		}
	}
	draw(g(1, 1))      // bruno-chen drawn
	whiteWins(g(2, 0)) // dora beats chen
	draw(g(2, 1))      // alice-bruno drawn
	whiteWins(g(3, 0)) // bruno beats dora
	h.Outbox()
	blackWins(g(3, 1)) // chen resigns to alice
	m = h.Outbox()
	final := refereetest.BodyTo(t, onlyStandings(m), "dora@example.com")
	// alice 1+½+1 = 2½, SB 1 (dora) + 1 (½ of bruno's 2) + ½ (chen) = 2.5
	// bruno ½+½+1 = 2, SB ¼ (chen) + 1¼ (alice) + 1 (dora) = 2.5
	// dora 0+1+0 = 1, SB ½ (chen); chen ½+0+0 = ½, SB 1 (½ of bruno)
	want := strings.Join([]string{
		"    # Player               1 2 3 4    Pts      SB   W",
		"    1 alice                * = 1 1    2.5    2.50   2",
		"    2 bruno                = * 1 =      2    2.50   1",
		"    3 dora                 0 0 * 1      1    0.50   1",
		"    4 chen                 0 = 0 *    0.5       1   0",
	}, "\n")
	mustContain(t, "the final standings", final, want, "6 of 6 games", "these are the final")
}

// mailsTo2 keeps the mails of one game.
func mailsTo2(mails []store.OutMail, game uint64) []store.OutMail {
	var out []store.OutMail
	for _, m := range mails {
		if m.Game == game {
			out = append(out, m)
		}
	}
	return out
}

// onlyStandings keeps the standings mails.
func onlyStandings(mails []store.OutMail) []store.OutMail {
	var out []store.OutMail
	for _, m := range mails {
		if m.Game == 0 && strings.Contains(string(m.Raw), ": standings") {
			out = append(out, m)
		}
	}
	return out
}

// A withdrawal ends the player's games; by the half rule, having finished none, his games
// count for nobody.
func TestTournamentWithdraw(t *testing.T) {
	h := refereetest.New(t)
	id, err := h.Ref.Tournaments().New(organizer.Options{Name: "Cup", Variant: "orthodox", Players: quartet[:3], WithdrawRule: tournament.WithdrawHalf})
	if err != nil {
		t.Fatal(err)
	}
	h.Outbox()
	if err := h.Ref.Tournaments().Withdraw(id, "Chen@example.org"); err != nil {
		t.Fatal(err)
	}
	m := h.Outbox()
	mustContain(t, "alice's news", strings.Join(refereetest.MailsTo(t, m, "alice@example.com"), "\n"), "The organizer has withdrawn chen@example.org from Cup", "none of his", "Subject: [refereed] Cup: standings")
	if err := h.Ref.Tournaments().Withdraw(id, "chen@example.org"); err == nil {
		t.Error("withdrew twice")
	}
	if err := h.Ref.Tournaments().Withdraw(id, "zed@example.org"); err == nil {
		t.Error("a stranger withdrew")
	}
	text, err := h.Ref.Tournaments().Standings(id)
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, "the standings", text, "chen (w)", "2 of 3 games decided")
}

func TestNewTournamentRefuses(t *testing.T) {
	h := refereetest.New(t)
	for _, o := range []organizer.Options{
		{Name: "x", Variant: "orthodox", Players: quartet[:2]},
		{Name: "x", Variant: "orthodox", Players: []string{"a@x", "b@x", "A@x"}},
		{Name: "x", Variant: "nosuch", Players: quartet},
		{Name: "", Variant: "orthodox", Players: quartet},
		{Name: "x", Variant: "orthodox", Players: []string{"a@x", "b@x", "referee@example.org"}},
		{Name: "x", Variant: "orthodox", Players: quartet, WithdrawRule: "never"},
	} {
		if _, err := h.Ref.Tournaments().New(o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}

// STANDINGS in a game of no tournament is refused.
func TestStandingsOutsideTournament(t *testing.T) {
	h := refereetest.New(t)
	id := h.NewGame("orthodox", variant.Options{})
	h.Outbox()
	h.Deliver(h.Reply(id, chess.White, "STANDINGS"))
	mustContain(t, "the refusal", refereetest.BodyTo(t, h.Outbox(), refereetest.White), "not part of a tournament")
}

// With the forfeit rule, a withdrawn player's games still going are lost by him; a game of a
// tournament lost on time sends the standings too; the export of the tournament gives each
// game with its Round, those ended with their logs.
func TestTournamentWithdrawalAndTimeForfeit(t *testing.T) {
	h := refereetest.New(t)
	id, err := h.Ref.Tournaments().New(organizer.Options{Name: "Autumn Cup", Variant: "orthodox", Players: quartet[:3], Double: true})
	if err != nil {
		t.Fatal(err)
	}
	tr := h.Tournament(id)
	if len(tr.Rounds) != 6 {
		t.Fatalf("%d rounds, want 6", len(tr.Rounds))
	}
	openings := h.Outbox()
	mustContain(t, "an opening", refereetest.BodyTo(t, mailsTo2(openings, tr.Rounds[5].Games[0].Game), quartet[0]), "Autumn Cup, round 6 of 6", "one with each colour")
	if err := h.Ref.Tournaments().Withdraw(id, quartet[1]); err != nil {
		t.Fatal(err)
	}
	m := h.Outbox()
	mustContain(t, "alice's news", strings.Join(refereetest.MailsTo(t, m, quartet[0]), "\n"), "The organizer has withdrawn bruno@example.net from Autumn Cup", "lost by him by forfeit", "4 of 6 games")
	// alice and chen play on: in one game White moves and Black lets the time run out, in
	// the other White does.
	var left []uint64
	for _, rd := range tr.Rounds {
		for _, tg := range rd.Games {
			if tg.White != 1 && tg.Black != 1 {
				left = append(left, tg.Game)
			}
		}
	}
	if len(left) != 2 {
		t.Fatalf("%d games without bruno, want 2", len(left))
	}
	h.Deliver(h.Reply(left[0], chess.White, "e4"))
	h.Outbox()
	for range 2 {
		h.Clock = h.Clock.Add(clocks.DefaultDeadline + time.Minute)
		if _, err := h.Ref.CheckDeadlines(); err != nil {
			t.Fatal(err)
		}
	}
	m = onlyStandings(h.Outbox())
	if len(m) != 6 {
		t.Fatalf("%d standings mails after two games lost on time, want 2 x 3", len(m))
	}
	final := refereetest.MailsTo(t, m, quartet[2])[1]
	// chen had White in the game where White moved, and Black in the other: he won both on
	// time. chen 2 + 2 (bruno's forfeits) = 4, SB 2 x 2 (alice) = 4; alice 2, SB 0 (bruno
	// has nothing); bruno last, as he withdrew.
	mustContain(t, "the final standings", final, "6 of 6 games", "these are the final",
		"    1 chen                 * 1 +      4       4   4\n      cycle 2              * 1 +",
		"    2 alice                0 * +      2       0   2",
		"    3 bruno (w)            - - *      0       0   0")
	var pgn strings.Builder
	if err := h.DB.View(func(tx *store.Tx) error { _, err := archive.ExportTournament(tx, id, &pgn); return err }); err != nil {
		t.Fatal(err)
	}
	mustContain(t, "the export", pgn.String(), `[Event "Autumn Cup"]`, `[Round "6"]`, `[Termination "abandoned"]`, "withdrawal from the tournament", `[Termination "forfeit"]`, "{refereed log:")
	if strings.Contains(pgn.String(), `[Result "*"]`) {
		t.Errorf("a game still going in a finished tournament:\n%s", pgn.String())
	}
}

// Every game refereed plays can be a tournament's, its simultaneous and hidden ones included;
// the largest section starts its 190 games at once.
func TestTournamentEveryVariant(t *testing.T) {
	h := refereetest.New(t)
	for _, key := range variant.Keys() {
		id, err := h.Ref.Tournaments().New(organizer.Options{Name: "Cup of " + key, Variant: key, Players: quartet[:3]})
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		if m := h.Outbox(); len(m) != 6 {
			t.Errorf("%s: %d opening mails, want 6", key, len(m))
		}
		if text, err := h.Ref.Tournaments().Standings(id); err != nil || !strings.Contains(text, "0 of 3 games") {
			t.Errorf("%s: standings %v\n%s", key, err, text)
		}
	}
	var players []string
	for i := range tournament.MaxPlayers {
		players = append(players, fmt.Sprintf("player%02d@example.org", i+1))
	}
	id, err := h.Ref.Tournaments().New(organizer.Options{Name: "Big", Variant: "orthodox", Players: players})
	if err != nil {
		t.Fatal(err)
	}
	if m := h.Outbox(); len(m) != 2*190 {
		t.Errorf("%d opening mails, want 380", len(m))
	}
	text, _ := h.Ref.Tournaments().Standings(id)
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, " ") && len(l) > tournament.Width {
			t.Errorf("a line of %d columns: %q", len(l), l)
		}
	}
	players = append(players, "one.too.many@example.org")
	if _, err := h.Ref.Tournaments().New(organizer.Options{Name: "Too big", Variant: "orthodox", Players: players}); err == nil {
		t.Error("21 players: no error")
	}
}

// mustContain checks that got holds each of wants, as it is (a crosstable's columns).
func mustContain(t *testing.T, what, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, got)
		}
	}
}

// The players of the tournaments of these tests, in table order.
var quartet = []string{"alice@example.com", "bruno@example.net", "chen@example.org", "dora@example.com"}

const day = 24 * time.Hour
