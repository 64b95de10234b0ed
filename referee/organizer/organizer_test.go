package organizer_test

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	_ "github.com/refereed/refereed/variant/all" // every game, as the daemon has them

	"github.com/refereed/refereed/archive"
	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/referee/organizer"
	"github.com/refereed/refereed/referee/refereetest"
	"github.com/refereed/refereed/referee/senders"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/tournament"
	"github.com/refereed/refereed/variant"
)

const td = "td@example.org"

// toOrganizer is a sender of mail to the organizer's address addr: from whom, and what, with a
// Message-ID of its own; it returns the mails it caused.
func toOrganizer(h *refereetest.Harness, addr string) func(from, body string) []store.OutMail {
	n := 0
	return func(from, body string) []store.OutMail {
		n++
		h.Deliver(refereetest.Mail(from, addr, "Re: Winter Cup", fmt.Sprintf("<o%d@%s>", n, from[strings.LastIndex(from, "@")+1:]), body))
		return h.Outbox()
	}
}

// organizerReplyTo finds the reply address in the organizer's welcome mail.
func organizerReplyTo(t *testing.T, mails []store.OutMail) string {
	t.Helper()
	for _, m := range mails {
		if m.To[0] != td {
			continue
		}
		for _, line := range strings.Split(string(m.Raw), "\r\n") {
			if rest, ok := strings.CutPrefix(line, "Reply-To: "); ok {
				a := rest[strings.Index(rest, "<")+1 : strings.Index(rest, ">")]
				if !senders.OrganizerAddr.MatchString(a) {
					t.Fatalf("the organizer's reply address %q", a)
				}
				return a
			}
		}
	}
	t.Fatal("no mail to the organizer with a reply address")
	return ""
}

// The organizer by mail: his own reply address, a mail from anyone else refused (to him),
// SHOW refused for a game in progress, ADJUDICATE, EXTEND, PAUSE/RESUME, REPLACE (the old
// token stops working), WITHDRAW, and each logged in the tournament.
func TestOrganizerByMail(t *testing.T) {
	h := refereetest.New(t)
	id, err := h.Ref.Tournaments().New(organizer.Options{Name: "Winter Cup", Variant: "orthodox", Players: quartet[:3], Organizer: td, Time: "10d"})
	if err != nil {
		t.Fatal(err)
	}
	open := h.Outbox()
	welcome := refereetest.BodyTo(t, open, td)
	refereetest.Says(t, "the welcome", welcome, "You organize Winter Cup: Orthodox chess, 3 players, 3 games", "time control 10d", "ADJUDICATE 12 1-0 why end game 12")
	addr := organizerReplyTo(t, open)
	tr := h.Tournament(id)
	g := func(round int) uint64 { return tr.Rounds[round-1].Games[0].Game }
	org := toOrganizer(h, addr)

	// Someone else at the organizer's address: nothing done, the organizer told.
	m := org("mallory@example.net", "ADJUDICATE 1 0-1")
	if len(m) != 1 || m[0].To[0] != td {
		t.Fatalf("a forged organizer's mail: %d mails, first to %v", len(m), m[0].To)
	}
	refereetest.Says(t, "the forgery report", refereetest.BodyTo(t, m, td), "came from mallory@example.net, not from you: nothing in it was done")
	if out := h.Outcome(1); out.Over() {
		t.Fatal("a forged adjudication was applied")
	}

	m = org(td, "STANDINGS\nSHOW "+itoa(g(1)))
	reply := refereetest.BodyTo(t, m, td)
	refereetest.Says(t, "STANDINGS, SHOW", reply, "The standings of Winter Cup", "Line 2 (SHOW", "is in progress: an organizer sees a game whole once it is over")

	// ADJUDICATE: both players told, with the reason; every player gets the standings.
	m = org(td, "ADJUDICATE "+itoa(g(1))+" 1-0 Black left the game in a lost position")
	refereetest.Says(t, "the answer and the standings", strings.Join(refereetest.MailsTo(t, m, td), "\n"), "adjudicated 1-0", "The standings of Winter Cup (Orthodox chess), 1 of 3 games decided")
	white, black := h.Game(g(1)).Players[chess.White].Address, h.Game(g(1)).Players[chess.Black].Address
	for _, who := range []string{white, black} {
		var game string
		for _, b := range refereetest.MailsTo(t, m, who) {
			if strings.Contains(b, "adjudicated") {
				game = b
			}
		}
		refereetest.Says(t, "a player of the adjudicated game", game, "The organizer adjudicated the game: White wins (1-0).", "The organizer's reason: Black left the game in a lost position")
	}
	if out := h.Outcome(g(1)); out.Result != "1-0" || out.Termination != "adjudication" {
		t.Fatalf("adjudicated game: %+v", out)
	}
	m = org(td, "SHOW "+itoa(g(1)))
	refereetest.Says(t, "SHOW of a finished game", refereetest.BodyTo(t, m, td), "ended: 1-0. How: adjudicated by the organizer: Black left the game in a lost position.", "organizer: adjudicate 1-0")
	m = org(td, "GAMES")
	refereetest.Says(t, "GAMES", refereetest.BodyTo(t, m, td), "The games of Winter Cup:", "round 1, game #"+itoa(g(1))+": ", "1-0 (adjudicated by the organizer: Black left the game in a lost position)", "round 2, game #"+itoa(g(2))+": ", "in progress")

	// EXTEND: the player to move gets the days, both are told, his clock shows them.
	m = org(td, "EXTEND "+itoa(g(2))+" 5")
	w2 := h.Game(g(2)).Players[chess.White].Address
	refereetest.Says(t, "the extension", refereetest.BodyTo(t, m, w2), "The organizer gives White 5 days more on the clock.", "White 15 days left, Black 10 days left.")

	// PAUSE and RESUME: every player told; no time runs in between.
	m = org(td, "PAUSE")
	for _, p := range quartet[:3] {
		refereetest.Says(t, "the pause", refereetest.BodyTo(t, m, p), "has stopped every clock of Winter Cup")
	}
	h.Deliver(h.Reply(g(2), chess.White, "BOARD"))
	board := refereetest.BodyTo(t, h.Outbox(), w2)
	refereetest.Says(t, "a clock while paused", board, "White 15 days left, Black 10 days left. The organizer stopped every clock of the tournament on Sun 2026-11-22 12:00 UTC: no time runs, and no flag falls, until he starts them again.")
	if strings.Contains(board, "flag falls") && !strings.Contains(strings.Join(strings.Fields(board), " "), "no flag falls") || strings.Contains(board, "clock runs") {
		t.Fatalf("a paused clock shows a flag:\n%s", board)
	}
	h.Clock = h.Clock.Add(30 * day)
	if n := h.Wait(0); n != 0 {
		t.Fatalf("%d mails while paused", n)
	}
	refereetest.Says(t, "a second PAUSE", refereetest.BodyTo(t, org(td, "PAUSE"), td), "already stopped: RESUME starts them")
	m = org(td, "RESUME\nRESUME")
	refereetest.Says(t, "a second RESUME", refereetest.BodyTo(t, m, td), "started the clocks of Winter Cup again", "Line 2 (RESUME) was refused: the tournament's clocks are running")

	// REPLACE: the new player gets each game as it stands; the old token no longer plays.
	old := quartet[2]
	var oldGame uint64
	var oldSide chess.Color
	for _, rd := range tr.Rounds {
		for _, tg := range rd.Games {
			sg := h.Game(tg.Game).Players[chess.White]
			if h.Outcome(tg.Game).Over() {
				continue
			}
			if sg.Address == old {
				oldGame, oldSide = tg.Game, chess.White
			} else if h.Game(tg.Game).Players[chess.Black].Address == old {
				oldGame, oldSide = tg.Game, chess.Black
			}
		}
	}
	if oldGame == 0 {
		t.Fatal("no game in progress for the player to be replaced")
	}
	stale := h.Reply(oldGame, oldSide, "HELP")
	m = org(td, "REPLACE "+old+" erin@example.net")
	refereetest.Says(t, "the answer", refereetest.BodyTo(t, m, td), "erin@example.net takes over from "+old)
	refereetest.Says(t, "the new player", strings.Join(refereetest.MailsTo(t, m, "erin@example.net"), "\n"), "You take over", "from "+old)
	refereetest.Says(t, "the old player", refereetest.BodyTo(t, m, old), "has given your games still in progress to erin@example.net")
	h.Deliver(stale)
	// The old token no longer plays, but his mail is answered with who took over and when
	// (issue 20: it was dropped unseen).
	if m := h.Outbox(); len(m) != 1 || m[0].To[0] != old {
		t.Fatalf("the old player's stale mail: %d mails", len(m))
	} else {
		refereetest.Says(t, "the replaced player's answer", refereetest.BodyTo(t, m, old), "the organizer of Winter Cup gave your place in it to erin@example.net",
			"nothing in your mail was done", h.Clock.UTC().Format("2006-01-02"), "--\nThis is the refereed play-by-email referee.") // issue 33: it was signed "--" and nothing
	}
	if got := h.Tournament(id).Players[2]; got != "erin@example.net" {
		t.Fatalf("the table's player 3 is %s", got)
	}
	// The seat's row is erin's "for chen": all the seat's games, shown as whose they are
	// (issue 21: not chen's results folded silently into erin's name).
	if rp := h.Tournament(id).Replacements; len(rp) != 1 || rp[0].Old != old || rp[0].New != "erin@example.net" || rp[0].Seat != 2 {
		t.Fatalf("replacements %+v", rp)
	}
	refereetest.Says(t, "the standings after REPLACE", refereetest.BodyTo(t, org(td, "STANDINGS"), td), "erin (for chen)")

	m = org(td, "WITHDRAW "+quartet[0])
	refereetest.Says(t, "the withdrawal", strings.Join(refereetest.MailsTo(t, m, td), "\n"), quartet[0]+" is withdrawn")
	tr = h.Tournament(id)
	var log []string
	for _, e := range tr.Log {
		log = append(log, e.Text)
	}
	want := "adjudicate #" + itoa(g(1)) + " 1-0 Black left the game in a lost position|extend #" + itoa(g(2)) + " 5|pause|resume|replace " + old + " erin@example.net|withdraw " + quartet[0]
	if strings.Join(log, "|") != want {
		t.Fatalf("tournament log:\n%s\nwant\n%s", strings.Join(log, "|"), want)
	}
	s, err := section(h, tr)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Over() {
		t.Fatalf("after the withdrawal every game is decided: %+v", s.Games)
	}
}

func itoa(n uint64) string { return strconv.FormatUint(n, 10) }

// section is tournament tr's section as the store holds it.
func section(h *refereetest.Harness, tr *store.Tournament) (s tournament.Section, err error) {
	err = h.DB.View(func(tx *store.Tx) error { s, err = archive.Section(tx, tr); return err })
	return s, err
}

// The organizer is told of forfeits and of mail that could not be delivered; a game without a
// tournament tells the referee's organizer (the config's), if there is one.
func TestOrganizerTold(t *testing.T) {
	h := refereetest.New(t)
	h.Ref.Organizer = td
	id := h.NewGame("orthodox", variant.Options{})
	h.Outbox()
	var mail store.OutMail
	mail.Game, mail.Side = id, 1
	if err := h.Ref.RecordDeliveryFailure(mail, errors.New("550 5.1.1 no such user")); err != nil {
		t.Fatal(err)
	}
	refereetest.Says(t, "the failed delivery", refereetest.BodyTo(t, h.Outbox(), td), "Mail to bob@example.net (Black in game #1) could not be delivered: 550 5.1.1 no such user")
	h.Clock = h.Clock.Add(72 * time.Hour)
	h.Wait(0)
	h.Outbox()
	h.Clock = h.Clock.Add(72 * time.Hour)
	if n := h.Wait(0); n != 3 {
		t.Fatalf("%d mails for a forfeit, want both players and the organizer", n)
	}
	refereetest.Says(t, "the forfeit", refereetest.BodyTo(t, h.Outbox(), td), "Game #1 is over: ann@example.com forfeits (White let the deadline pass twice and forfeits), 0-1.")
}

// REPLACE refuses an address its mail might never reach (non-ASCII needs SMTPUTF8).
func TestReplaceASCII(t *testing.T) {
	h := refereetest.New(t)
	id, err := h.Ref.Tournaments().New(organizer.Options{Name: "Cup", Variant: "orthodox", Players: quartet[:3], Organizer: td})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Ref.Tournaments().Organize(id, "REPLACE "+quartet[0]+" Ünï@example.org"); err == nil || !strings.Contains(err.Error(), "only ASCII") {
		t.Fatalf("a non-ASCII replacement: %v", err)
	}
	if _, err := h.Ref.NewGame("orthodox", "zoë@example.org", refereetest.Black, variant.Options{}); err == nil {
		t.Fatal("a non-ASCII player's address was taken")
	}
}

// After a restore from a backup the organizer's mail numbers come back: his Message-IDs carry
// the restore count, so none is used again for another mail.
func TestOrganizerMailAfterRestore(t *testing.T) {
	h := refereetest.New(t)
	id, err := h.Ref.Tournaments().New(organizer.Options{Name: "Cup", Variant: "orthodox", Players: quartet[:3], Organizer: td})
	if err != nil {
		t.Fatal(err)
	}
	var welcome string
	for _, m := range h.Outbox() {
		if m.To[0] == td {
			welcome = m.MessageID
		}
	}
	if !strings.HasPrefix(welcome, "refereed.t1.o.") || !strings.HasSuffix(welcome, ".1@example.org") {
		t.Fatalf("the welcome's Message-ID %q", welcome)
	}
	if _, err := h.Ref.AfterRestore(refereetest.Now); err != nil {
		t.Fatal(err)
	}
	h.Outbox()
	if _, err := h.Ref.Tournaments().Organize(id, "PAUSE"); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Ref.Tournaments().Organize(id, "ADJUDICATE 1 1-0"); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range h.Outbox() {
		if m.To[0] == td {
			n++
			if !strings.Contains(m.MessageID, ".r1@") {
				t.Errorf("an organizer's mail after a restore: %s", m.MessageID)
			}
		}
	}
	if n == 0 {
		t.Fatal("no mail to the organizer after the adjudication (the standings)")
	}
}

// Issue 21: a pause names the moment the organizer stopped the clocks, even in a game whose
// player's leave began earlier that day (merged, the stop would begin at the leave's 00:00).
func TestPauseDuringLeave(t *testing.T) {
	h := refereetest.New(t)
	h.Clock = time.Date(2026, 11, 25, 16, 4, 0, 0, time.UTC)
	id, err := h.Ref.Tournaments().New(organizer.Options{Name: "Winter Cup", Variant: "orthodox", Players: quartet[:3], Organizer: td, Time: "10d"})
	if err != nil {
		t.Fatal(err)
	}
	addr := organizerReplyTo(t, h.Outbox())
	tr := h.Tournament(id)
	g := tr.Rounds[0].Games[0].Game
	h.Deliver(h.Reply(g, chess.White, "LEAVE 2026-11-25 2026-11-27"))
	h.Outbox()
	toOrganizer(h, addr)(td, "PAUSE")
	h.Outbox()
	h.Deliver(h.Reply(g, chess.White, "BOARD"))
	board := refereetest.BodyTo(t, h.Outbox(), h.Game(g).Players[chess.White].Address)
	refereetest.Says(t, "a clock paused during a leave", board, "The organizer stopped every clock of the tournament on Wed 2026-11-25 16:04 UTC")
}

// Issue 33: a withdrawn player gets no news of PAUSE and RESUME, and is told that the
// organizer withdrew him, not that he withdrew.
func TestWithdrawnPlayerNews(t *testing.T) {
	h := refereetest.New(t)
	id, err := h.Ref.Tournaments().New(organizer.Options{Name: "Spring Cup", Variant: "orthodox", Players: quartet[:3], Organizer: td})
	if err != nil {
		t.Fatal(err)
	}
	h.Outbox()
	if _, err := h.Ref.Tournaments().Organize(id, "WITHDRAW "+quartet[0]); err != nil {
		t.Fatal(err)
	}
	m := h.Outbox()
	out := strings.Join(refereetest.MailsTo(t, m, quartet[0]), "\n")
	refereetest.Says(t, "the withdrawn player", out, "The organizer has withdrawn you from Spring Cup", "game over: you are withdrawn")
	if strings.Contains(out, "You have withdrawn") {
		t.Errorf("the withdrawn player is told he withdrew:\n%s", out)
	}
	refereetest.Says(t, "his opponent", strings.Join(refereetest.MailsTo(t, m, quartet[1]), "\n"), "The organizer has withdrawn "+quartet[0]+" from Spring Cup")
	for _, verb := range []string{"PAUSE", "RESUME"} {
		if _, err := h.Ref.Tournaments().Organize(id, verb); err != nil {
			t.Fatal(err)
		}
		m := h.Outbox()
		for _, mail := range m {
			if mail.To[0] == quartet[0] {
				t.Errorf("%s: the withdrawn player is told", verb)
			}
		}
		if len(refereetest.MailsTo(t, m, quartet[1])) == 0 {
			t.Errorf("%s: a player still in is not told", verb)
		}
	}
}
