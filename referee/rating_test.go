package referee

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/rating"
	"github.com/refereed/refereed/referee/organizer"
	"github.com/refereed/refereed/referee/play"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/variant"
)

// textTo is every mail to addr in mails, its lines joined (the text of a mail is wrapped).
func textTo(t *testing.T, mails []store.OutMail, addr string) string {
	return strings.Join(strings.Fields(strings.Join(mailsTo(t, mails, addr), "\n")), " ")
}

// ratingsOf reads addr's stored rating in variant key.
func (h *harness) ratingsOf(addr, key string) *store.PlayerRating {
	h.t.Helper()
	var r *store.PlayerRating
	if err := h.db.View(func(tx *store.Tx) error {
		rec, err := tx.PlayerRecord(addr)
		if err == nil {
			r = rec.Rating(key)
		}
		return err
	}); err != nil {
		h.t.Fatal(err)
	}
	return r
}

// A rated tournament of four played by mail, over weeks: a win, a draw, an adjudication, and
// games after days without play; then a withdrawal, whose games are not rated. The final
// ratings are those worked out by hand from the results, one game a period, each side's RD
// grown first by the days since his last rated game. The game-over mail says both new
// ratings, and RATING answers with them.
func TestRatedTournamentByMail(t *testing.T) {
	h := newHarness(t)
	id, err := h.ref.Tournaments().New(organizer.Options{Name: "Rated Cup", Variant: "orthodox", Players: quartet, Rated: true})
	if err != nil {
		t.Fatal(err)
	}
	tr := h.tournament(id)
	opening := h.outbox()
	mustContain(t, "an opening", textTo(t, mailsTo2(opening, tr.Rounds[0].Games[0].Game), quartet[0]), "This game is rated: when it ends, your rating in Orthodox chess and your opponent's change with its result.")
	g := func(round, board int) uint64 { return tr.Rounds[round-1].Games[board].Game }

	// By hand: each player's rating and the day of his last game; τ is the referee's (as
	// rating_tau in the config sets it).
	c := rating.Config{Tau: 0.9}
	h.ref.Rating = c
	type held struct {
		r    rating.Rating
		last time.Time
	}
	hand := map[string]*held{}
	byHand := func(id uint64, score float64) {
		w, b := h.player(id, chess.White).Address, h.player(id, chess.Black).Address
		now := func(a string) rating.Rating {
			x := hand[a]
			if x == nil {
				return rating.New()
			}
			return c.Age(x.r, h.now.Sub(x.last).Hours()/24)
		}
		rw, rb := c.Game(now(w), now(b), score)
		hand[w], hand[b] = &held{rw, h.now}, &held{rb, h.now}
	}

	// Round 1: a win by resignation, and a draw agreed.
	h.deliver(h.reply(g(1, 0), chess.White, "e4"))
	h.deliver(h.reply(g(1, 0), chess.Black, "RESIGN"))
	byHand(g(1, 0), 1)
	end := h.outbox()
	white, black := h.player(g(1, 0), chess.White).Address, h.player(g(1, 0), chess.Black).Address
	wr, br := hand[white].r, hand[black].r
	mustContain(t, "the winner's game-over mail", textTo(t, end, white),
		fmt.Sprintf("This game was rated. Your rating in Orthodox chess is now %d (+%d from 1500, where every player starts), provisional until more rated games make it surer; %s's is now %d (-%d). Send RATING to any of your games for all your ratings.",
			int(math.Round(wr.Rating)), int(math.Round(wr.Rating-1500)), black, int(math.Round(br.Rating)), int(math.Round(1500-br.Rating))))
	mustContain(t, "the loser's game-over mail", textTo(t, end, black), fmt.Sprintf("Your rating in Orthodox chess is now %d (-%d", int(math.Round(br.Rating)), int(math.Round(1500-br.Rating))))

	h.now = h.now.Add(3 * 24 * time.Hour)
	h.deliver(h.reply(g(1, 1), chess.White, "d4\nDRAW OFFER"))
	h.deliver(h.reply(g(1, 1), chess.Black, "DRAW ACCEPT"))
	byHand(g(1, 1), 0.5)
	h.outbox()

	// Round 2, three weeks on: one game adjudicated by the organizer (rated), one won.
	h.now = h.now.Add(21 * 24 * time.Hour)
	h.deliver(h.reply(g(2, 0), chess.White, "e4"))
	h.deliver(h.reply(g(2, 0), chess.Black, "e5"))
	if _, err := h.ref.Tournaments().Organize(id, fmt.Sprintf("ADJUDICATE %d 0-1 White's position is lost", g(2, 0))); err != nil {
		t.Fatal(err)
	}
	byHand(g(2, 0), 0)
	adj := h.outbox()
	mustContain(t, "the adjudicated game's mail", textTo(t, adj, h.player(g(2, 0), chess.Black).Address), "This game was rated. Your rating in Orthodox chess is now")
	h.now = h.now.Add(100 * 24 * time.Hour)
	h.deliver(h.reply(g(2, 1), chess.White, "Nf3"))
	h.deliver(h.reply(g(2, 1), chess.Black, "d5"))
	h.deliver(h.reply(g(2, 1), chess.White, "RESIGN"))
	byHand(g(2, 1), 0)
	h.outbox()

	// Round 3: one game played; then a player withdraws and his game still going ends unrated.
	h.now = h.now.Add(24 * time.Hour)
	h.deliver(h.reply(g(3, 0), chess.White, "c4"))
	h.deliver(h.reply(g(3, 0), chess.Black, "RESIGN"))
	byHand(g(3, 0), 1)
	h.outbox()
	h.now = h.now.Add(24 * time.Hour)
	h.deliver(h.reply(g(3, 1), chess.White, "e4"))
	quitter := h.player(g(3, 1), chess.Black).Address
	before := *h.ratingsOf(quitter, "orthodox")
	if err := h.ref.Tournaments().Withdraw(id, quitter); err != nil {
		t.Fatal(err)
	}
	if sg := h.outcome(g(3, 1)); !sg.Over() {
		t.Fatalf("the withdrawn player's game goes on")
	}
	if after := *h.ratingsOf(quitter, "orthodox"); after.Games != before.Games || after.Rating != before.Rating {
		t.Errorf("a withdrawal's game was rated: %+v, was %+v", after, before)
	}
	for _, m := range h.outbox() {
		if strings.Contains(string(m.Raw), "This game was rated") {
			t.Errorf("a withdrawal's mail speaks of ratings:\n%s", m.Raw)
		}
	}

	// Every stored rating is the one worked out by hand.
	for _, a := range quartet {
		got, want := h.ratingsOf(a, "orthodox"), hand[a]
		if got == nil || want == nil {
			t.Fatalf("%s: stored %v, by hand %v", a, got, want)
		}
		if math.Abs(got.Rating-want.r.Rating) > 1e-9 || math.Abs(got.RD-want.r.RD) > 1e-9 || math.Abs(got.Vol-want.r.Vol) > 1e-12 || !got.Last.Equal(want.last) {
			t.Errorf("%s: stored %.4f/%.4f/%.6f, by hand %.4f/%.4f/%.6f", a, got.Rating, got.RD, got.Vol, want.r.Rating, want.r.RD, want.r.Vol)
		}
		if len(got.History) != got.Games || got.Games < 2 {
			t.Errorf("%s: %d games, %d points of history", a, got.Games, len(got.History))
		}
	}

	// RATING by mail answers with the player's ratings (and counts as a query: a short subject).
	asker := h.player(g(1, 0), chess.White).Address
	h.deliver(h.reply(g(1, 0), chess.White, "RATING"))
	answer := textTo(t, h.outbox(), asker)
	r := h.ratingsOf(asker, "orthodox")
	now := c.Age(rating.Rating{Rating: r.Rating, RD: r.RD, Vol: r.Vol}, h.now.Sub(r.Last).Hours()/24)
	mustContain(t, "the answer to RATING", answer, "Your ratings (Glicko-2;",
		fmt.Sprintf("- Orthodox chess: %d, deviation %d", int(math.Round(now.Rating)), int(math.Round(now.RD))),
		fmt.Sprintf("after %d rated games, the last on %s.", r.Games, r.Last.Format("2006-01-02")))
}

// An unrated game changes nobody's rating and its mails say nothing of ratings; RATING with
// no rating says how one comes.
func TestUnratedGame(t *testing.T) {
	h := newHarness(t)
	id := h.newGame("orthodox")
	open := h.outbox()
	for _, m := range open {
		if strings.Contains(string(m.Raw), "This game is rated") {
			t.Fatalf("an unrated game's opening speaks of ratings:\n%s", m.Raw)
		}
	}
	h.deliver(h.reply(id, chess.White, "e4"))
	h.deliver(h.reply(id, chess.Black, "RESIGN"))
	for _, m := range h.outbox() {
		if strings.Contains(string(m.Raw), "was rated") || strings.Contains(string(m.Raw), "Your rating") {
			t.Fatalf("an unrated game's end speaks of ratings:\n%s", m.Raw)
		}
	}
	if r := h.ratingsOf("ann@example.com", "orthodox"); r != nil {
		t.Fatalf("rated: %+v", r)
	}
	h.deliver(h.reply(id, chess.White, "RATING"))
	mustContain(t, "RATING without a rating", textTo(t, h.outbox(), "ann@example.com"), "You have no rating yet")

	rid, err := h.ref.NewGame("orthodox", "ann@example.com", "bob@example.net", variant.Options{Flags: map[string]string{RatedFlag: "true"}})
	if err != nil {
		t.Fatal(err)
	}
	var sg *store.Game
	h.db.View(func(tx *store.Tx) (err error) { sg, err = tx.Game(rid); return err })
	if !sg.Rated || sg.Flags[RatedFlag] != "" {
		t.Fatalf("a rated game: %+v", sg)
	}
}

// Which endings are rated: a forfeit by a player who never moved is not, nor a withdrawal, nor
// any game decided before a move was played (as refereed rate skips it); a forfeit after
// moves, an adjudication and a resignation after a move are.
func TestRatedEndings(t *testing.T) {
	sg := &store.Game{Rated: true}
	w, b := chess.White, chess.Black
	cmd := func(by chess.Color, text string) variant.Command { return variant.Command{By: by, Text: text} }
	for _, c := range []struct {
		out  variant.Outcome
		log  []variant.Command
		want bool
	}{
		{variant.Outcome{Result: "1-0", Termination: "forfeit"}, []variant.Command{cmd(b, variant.CmdForfeit)}, false},
		{variant.Outcome{Result: "1-0", Termination: "time forfeit"}, []variant.Command{cmd(w, "e4"), cmd(b, variant.CmdDrawOffer), cmd(b, variant.CmdTimeForfeit)}, false},
		{variant.Outcome{Result: "0-1", Termination: "forfeit"}, []variant.Command{cmd(w, "e4"), cmd(b, "e5"), cmd(w, variant.CmdForfeit)}, true},
		{variant.Outcome{Result: "0-1", Termination: "abandoned"}, []variant.Command{cmd(w, "e4"), cmd(b, "e5"), cmd(w, variant.CmdAbandon)}, false},
		{variant.Outcome{Result: "1/2-1/2", Termination: "adjudication"}, []variant.Command{cmd(w, variant.Adjudication("1/2-1/2"))}, true},
		{variant.Outcome{Result: "0-1", Termination: "resignation"}, []variant.Command{cmd(w, variant.CmdResign)}, false},
		{variant.Outcome{Result: "1/2-1/2", Termination: "agreement"}, []variant.Command{cmd(w, variant.CmdDrawOffer), cmd(b, variant.CmdDrawAccept)}, false},
		{variant.Outcome{Result: "1-0", Termination: "resignation"}, []variant.Command{cmd(w, "e4"), cmd(b, variant.CmdResign)}, true},
		{variant.Outcome{Result: "*"}, nil, false},
	} {
		if got := play.Rated(sg, c.out, c.log); got != c.want {
			t.Errorf("%+v after %v: rated %v", c.out, c.log, got)
		}
	}
	if play.Rated(&store.Game{}, variant.Outcome{Result: "1-0", Termination: "resignation"}, nil) {
		t.Errorf("an unrated game rated")
	}
}

// A rated game decided before a move was played is not counted, and its end says so.
func TestRatedGameWithoutPlay(t *testing.T) {
	h := newHarness(t)
	id, err := h.ref.NewGame("orthodox", "ann@example.com", "bob@example.net", variant.Options{Flags: map[string]string{RatedFlag: "true"}})
	if err != nil {
		t.Fatal(err)
	}
	h.outbox()
	h.deliver(h.reply(id, chess.White, "RESIGN"))
	for _, m := range h.outbox() {
		if !strings.Contains(strings.Join(strings.Fields(string(m.Raw)), " "), "it is not counted for your ratings: it was decided without play") {
			t.Errorf("the game's end to %v does not say it is not rated:\n%s", m.To, m.Raw)
		}
	}
	h.db.View(func(tx *store.Tx) error {
		if rec, _ := tx.PlayerRecord("ann@example.com"); len(rec.Ratings) != 0 {
			t.Errorf("rated: %+v", rec.Ratings)
		}
		return nil
	})
}
