package referee

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"math/rand"
	"mime"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/refereed/refereed/mailer"
	"github.com/refereed/refereed/mailer/localmail"
	"github.com/refereed/refereed/parser"
	"github.com/refereed/refereed/referee/organizer"
	"github.com/refereed/refereed/referee/senders"
	"github.com/refereed/refereed/store"
)

// The people of TestSeasonByMail, all at the local mail server's domain.
const (
	seasonReferee = "referee@localhost"
	seasonTD      = "td@localhost"
	seasonName    = "Winter Season 2026"
	seasonPW      = "pw"
)

// seasonPlayers are the players of TestSeasonByMail, in table order.
var seasonPlayers = []string{"alice@localhost", "bruno@localhost", "chen@localhost", "dora@localhost"}

// seasonClock is the one clock of the store and the sender. The intake writes to the store
// from its own goroutine, so the clock is read under a lock.
type seasonClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *seasonClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *seasonClock) set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

// seasonMail is one mail as its reader's mail client fetched it over IMAP.
type seasonMail struct {
	to   string
	uid  imap.UID
	msg  *parser.Message
	game uint64 // the game whose reply address it carries (0: none)
	text string // subject and body, whitespace collapsed, as mustSay reads them
}

func (m *seasonMail) String() string {
	return fmt.Sprintf("mail %d to %s: %s\n%s", m.uid, m.to, m.msg.Subject, m.msg.Body)
}

// says reports whether the mail says want, its words compared apart from line breaks.
func (m *seasonMail) says(want string) bool {
	return strings.Contains(m.text, strings.Join(strings.Fields(want), " "))
}

// seasonWorld is the referee, the local mail server and the mail clients of the players and
// the organizer.
type seasonWorld struct {
	t       *testing.T
	h       *harness
	clock   *seasonClock
	lm      *localmail.Server
	sender  *mailer.Sender
	readers []string // every address that reads mail, players first
	imap    map[string]*imapclient.Client
	seen    map[string]imap.UID
	latest  map[string]map[uint64]*seasonMail // each reader's latest mail of each game
	orgMail *seasonMail                       // the organizer's latest mail with his reply address
	sent    int                               // mails the people sent, to number their Message-IDs
	// standings is the last standings mail each reader received.
	standings map[string]*seasonMail
}

var seasonGameAddr = regexp.MustCompile(`^referee\+g(\d+)-([wb])-[a-z2-7]+@localhost$`)

// seasonClockLine is the clocks paragraph every mail of a game with a time control carries.
var seasonClockLine = regexp.MustCompile(`Clocks \(10d\+1d, whole days\): White \d+ days? left, Black \d+ days? left\.`)

// read fetches the new mail of addr over IMAP, in the order it arrived.
func (w *seasonWorld) read(addr string) []*seasonMail {
	w.t.Helper()
	c := w.imap[addr]
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		w.t.Fatalf("imap select for %s: %v", addr, err)
	}
	res, err := c.UIDSearch(&imap.SearchCriteria{}, nil).Wait()
	if err != nil {
		w.t.Fatalf("imap search for %s: %v", addr, err)
	}
	var fresh []imap.UID
	for _, uid := range res.AllUIDs() {
		if uid > w.seen[addr] {
			fresh = append(fresh, uid)
		}
	}
	if len(fresh) == 0 {
		return nil
	}
	body := &imap.FetchItemBodySection{Peek: true}
	msgs, err := c.Fetch(imap.UIDSetNum(fresh...), &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{body}}).Collect()
	if err != nil {
		w.t.Fatalf("imap fetch for %s: %v", addr, err)
	}
	slices.SortFunc(msgs, func(a, b *imapclient.FetchMessageBuffer) int { return int(a.UID) - int(b.UID) })
	var out []*seasonMail
	for _, fm := range msgs {
		p, err := parser.Parse(fm.FindBodySection(body))
		if err != nil {
			w.t.Fatalf("mail %d to %s: %v", fm.UID, addr, err)
		}
		m := &seasonMail{to: addr, uid: fm.UID, msg: p, text: strings.Join(strings.Fields("Subject: "+p.Subject+"\n"+p.Body), " ")}
		if sub := seasonGameAddr.FindStringSubmatch(p.ReplyTo); sub != nil {
			if m.game, err = strconv.ParseUint(sub[1], 10, 64); err != nil {
				w.t.Fatal(err)
			}
			// The reply address is the reader's own, for his side of the game.
			side := W
			if sub[2] == "b" {
				side = B
			}
			if pl := w.h.player(m.game, side); pl.Address != addr || !strings.Contains(p.ReplyTo, "-"+pl.Token+"@") {
				w.t.Errorf("mail %d to %s carries the reply address of %s in game %d: %s", fm.UID, addr, pl.Address, m.game, p.ReplyTo)
			}
		}
		w.seen[addr] = max(w.seen[addr], fm.UID)
		out = append(out, m)
	}
	return out
}

// seasonNews is what every reader found in his mailbox after one step, by address.
type seasonNews map[string][]*seasonMail

// only returns the one mail to addr, failing if there is not exactly one.
func (n seasonNews) only(t *testing.T, addr string) *seasonMail {
	t.Helper()
	if len(n[addr]) != 1 {
		t.Fatalf("%d new mails to %s, want 1:\n%v", len(n[addr]), addr, n[addr])
	}
	return n[addr][0]
}

// of returns the new mail to addr of game g (0: mail of no game) that says want.
func (n seasonNews) of(t *testing.T, addr string, g uint64, want string) *seasonMail {
	t.Helper()
	for _, m := range n[addr] {
		if m.game == g && m.says(want) {
			return m
		}
	}
	t.Fatalf("no new mail to %s of game %d that says %q; the new mail:\n%v", addr, g, want, n[addr])
	return nil
}

// summary lists the mails by reader, subject and first line.
func (n seasonNews) summary() string {
	var b strings.Builder
	for _, a := range slices.Sorted(maps.Keys(n)) {
		for _, m := range n[a] {
			first, _, _ := strings.Cut(m.msg.Body, "\n")
			fmt.Fprintf(&b, "  to %s: %s: %s\n", a, m.msg.Subject, first)
		}
	}
	return b.String()
}

func (n seasonNews) count() int {
	c := 0
	for _, ms := range n {
		c += len(ms)
	}
	return c
}

// deliver drains the outbox over SMTP and reads every mailbox over IMAP. Every mail the
// sender delivered is found by its reader, and each passes the checks of every mail.
func (w *seasonWorld) deliver() seasonNews {
	w.t.Helper()
	sent, next, err := w.sender.Drain(context.Background())
	if err != nil || !next.IsZero() {
		w.t.Fatalf("drain: %d sent, next try %v, %v", sent, next, err)
	}
	got := seasonNews{}
	for _, a := range w.readers {
		for _, m := range w.read(a) {
			got[a] = append(got[a], m)
			w.check(m)
		}
	}
	if got.count() != sent {
		w.t.Fatalf("%d mails delivered, %d read", sent, got.count())
	}
	return got
}

// gameOver reports whether game id is over in the store.
func (w *seasonWorld) gameOver(id uint64) bool {
	w.t.Helper()
	var over bool
	if err := w.h.db.View(func(tx *store.Tx) error {
		sg, err := tx.Game(id)
		if err == nil {
			over = sg.Over()
		}
		return err
	}); err != nil {
		w.t.Fatal(err)
	}
	return over
}

var seasonDiagram = regexp.MustCompile(`(?m)^ *8 \|`)

// check holds for every mail read. A player's mail of a game shows both clocks, and, while
// the game goes on, whose clock runs and when his flag falls; Progressive hides nothing, so
// that is what every mail of a game in progress must carry. The organizer never sees a game
// whole (its record, its log, its board) before it is over.
func (w *seasonWorld) check(m *seasonMail) {
	w.t.Helper()
	if m.game != 0 {
		if m.to == seasonTD {
			w.t.Errorf("the organizer got a player's mail of game %d:\n%s", m.game, m)
		}
		if !seasonClockLine.MatchString(m.text) {
			w.t.Errorf("a mail of game %d without the clocks:\n%s", m.game, m)
		}
		switch runs, over := m.says("'s clock runs since"), w.gameOver(m.game); {
		case over && runs:
			w.t.Errorf("a mail of game %d, over, says a clock runs:\n%s", m.game, m)
		case !over && !runs:
			w.t.Errorf("a mail of game %d, in progress, does not say whose clock runs:\n%s", m.game, m)
		}
		w.latest[m.to][m.game] = m
		return
	}
	if m.says(seasonName + ": standings") {
		w.standings[m.to] = m
	}
	if m.to != seasonTD {
		return
	}
	if senders.OrganizerAddr.MatchString(m.msg.ReplyTo) {
		w.orgMail = m
	}
	if m.says("The whole game:") || m.says("my log: every command I accepted") || seasonDiagram.MatchString(m.msg.Body) {
		// Only the answer to SHOW, of a game that is over.
		var id uint64
		i := strings.Index(m.msg.Body, "Game #")
		if i < 0 {
			w.t.Errorf("the organizer was shown a game:\n%s", m)
		} else if _, err := fmt.Sscanf(m.msg.Body[i:], "Game #%d of", &id); err != nil || !w.gameOver(id) {
			w.t.Errorf("the organizer was shown game %d in progress:\n%s", id, m)
		}
	}
}

// send mails a reply to m from its reader, as a mail client writes it: to its Reply-To,
// threaded under it, the original quoted below the commands.
func (w *seasonWorld) send(m *seasonMail, body string) {
	w.t.Helper()
	w.sent++
	from := m.to
	name := strings.ToUpper(from[:1]) + from[1:strings.Index(from, "@")]
	refs := append(slices.Clone(m.msg.References), m.msg.MessageID)
	for i := range refs {
		refs[i] = "<" + refs[i] + ">"
	}
	var quoted strings.Builder
	for _, l := range strings.Split(strings.TrimRight(m.msg.Body, "\n"), "\n") {
		quoted.WriteString(strings.TrimRight("> "+l, " ") + "\r\n")
	}
	now := w.clock.Now()
	raw := fmt.Sprintf("From: %s <%s>\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <%s.%d@localhost>\r\nIn-Reply-To: <%s>\r\nReferences: %s\r\nDate: %s\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n%s\r\n\r\nOn %s, refereed <%s> wrote:\r\n%s",
		name, from, m.msg.ReplyTo, mime.QEncoding.Encode("utf-8", "Re: "+m.msg.Subject), name, w.sent, m.msg.MessageID, strings.Join(refs, " "),
		now.Format(time.RFC1123Z), strings.ReplaceAll(body, "\n", "\r\n"), now.Format("Mon, 2 Jan 2006 at 15:04"), seasonReferee, quoted.String())
	c, err := smtp.Dial(w.lm.SMTPListen())
	if err != nil {
		w.t.Fatal(err)
	}
	defer c.Close()
	if err := c.Auth(sasl.NewPlainClient("", from, seasonPW)); err != nil {
		w.t.Fatalf("smtp login %s: %v", from, err)
	}
	if err := c.SendMail(from, []string{m.msg.ReplyTo}, strings.NewReader(raw)); err != nil {
		w.t.Fatalf("smtp from %s: %v", from, err)
	}
	if err := c.Quit(); err != nil {
		w.t.Fatal(err)
	}
}

// process waits for the intake to store the one mail sent, has the referee process it, and
// delivers what it sent.
func (w *seasonWorld) process() seasonNews {
	w.t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		var n int
		if err := w.h.db.View(func(tx *store.Tx) error {
			p, err := tx.PendingInbound()
			n = len(p)
			return err
		}); err != nil {
			w.t.Fatal(err)
		}
		if n > 0 {
			break
		}
		if time.Now().After(deadline) {
			w.t.Fatal("the intake did not store the mail in 10 s")
		}
	}
	if n, err := w.h.ref.ProcessInbox(); err != nil || n != 1 {
		w.t.Fatalf("ProcessInbox: %d handled, %v", n, err)
	}
	return w.deliver()
}

// play sends body from player addr, as a reply to his latest mail of game g, at the time at.
func (w *seasonWorld) play(at time.Time, addr string, g uint64, body string) seasonNews {
	w.t.Helper()
	w.clock.set(at)
	m := w.latest[addr][g]
	if m == nil {
		w.t.Fatalf("%s has no mail of game %d to reply to", addr, g)
	}
	w.send(m, body)
	return w.process()
}

// organize sends body from the organizer, as a reply to his latest mail, at the time at.
func (w *seasonWorld) organize(at time.Time, body string) seasonNews {
	w.t.Helper()
	w.clock.set(at)
	if w.orgMail == nil {
		w.t.Fatal("the organizer has no mail to reply to")
	}
	w.send(w.orgMail, body)
	return w.process()
}

// deadlines runs the deadline check at the time at, as the daemon does every minute, and
// delivers what it sent.
func (w *seasonWorld) deadlines(at time.Time) seasonNews {
	w.t.Helper()
	w.clock.set(at)
	if _, err := w.h.ref.CheckDeadlines(); err != nil {
		w.t.Fatal(err)
	}
	return w.deliver()
}

func newSeasonWorld(t *testing.T) *seasonWorld {
	h := newHarness(t)
	w := &seasonWorld{t: t, h: h, clock: &seasonClock{now: fixedNow}, readers: append(slices.Clone(seasonPlayers), seasonTD),
		imap: map[string]*imapclient.Client{}, seen: map[string]imap.UID{}, latest: map[string]map[uint64]*seasonMail{},
		standings: map[string]*seasonMail{}}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	h.db.Now = w.clock.Now
	h.ref = &Referee{DB: h.db, Address: seasonReferee, Rand: rand.New(rand.NewSource(7)), Log: quiet}
	w.lm = &localmail.Server{Password: seasonPW, IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Referee: seasonReferee}
	if err := w.lm.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.lm.Close() })
	for _, a := range append([]string{seasonReferee}, w.readers...) {
		if _, err := w.lm.Mailbox(a); err != nil {
			t.Fatal(err)
		}
	}
	in := &mailer.Intake{IMAP: mailer.IMAP{Addr: w.lm.IMAPListen(), Security: "plain", Username: seasonReferee, Password: seasonPW},
		DB: h.db, PollInterval: 50 * time.Millisecond, Admit: h.ref.Admit, Log: quiet}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- in.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("intake: %v", err)
		}
	})
	w.sender = &mailer.Sender{DB: h.db, Transport: w.lm.Transport(), Now: w.clock.Now, Log: quiet,
		OnGiveUp: func(m store.OutMail, err error) {
			t.Errorf("delivery given up: %v: %v", m.To, err)
			if rerr := h.ref.RecordDeliveryFailure(m, err); rerr != nil {
				t.Error(rerr)
			}
		}}
	for _, a := range w.readers {
		c, err := imapclient.DialInsecure(w.lm.IMAPListen(), nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		if err := c.Login(a, seasonPW).Wait(); err != nil {
			t.Fatalf("imap login %s: %v", a, err)
		}
		w.imap[a] = c
		w.latest[a] = map[uint64]*seasonMail{}
	}
	return w
}

// seasonTime is a moment of the season, in UTC.
func seasonTime(month time.Month, day, hour, min int) time.Time {
	return time.Date(2026, month, day, hour, min, 0, 0, time.UTC)
}

// TestSeasonByMail plays a four-player Progressive Chess tournament with a time control to
// its end by mail, through the local mail server: the players and the organizer send every
// command over SMTP, as replies to the referee's mail, and read the referee's mail over IMAP;
// the referee takes mail in through its IMAP intake and sends through its SMTP sender, all on
// one store whose clock the test moves. The six games end by mate, agreed draw,
// adjudication, resignation, loss on time (after a leave that moved the flag) and
// withdrawal; the last standings every player gets are the final crosstable, worked out by
// hand. Last, a finished game takes no more moves: the mated game and the game ended by the
// withdrawal alike.
func TestSeasonByMail(t *testing.T) {
	alice, bruno, chen, dora := seasonPlayers[0], seasonPlayers[1], seasonPlayers[2], seasonPlayers[3]
	at := seasonTime
	w := newSeasonWorld(t)
	id, err := w.h.ref.Tournaments().New(organizer.Options{Name: seasonName, Variant: "progressive", Players: seasonPlayers, Organizer: seasonTD, Time: "10d+1d"})
	if err != nil {
		t.Fatal(err)
	}
	tr := w.h.tournament(id)
	// The Berger tables for four: round 1 alice-dora, bruno-chen; round 2 dora-chen,
	// alice-bruno; round 3 bruno-dora, chen-alice (White first).
	game := map[[2]string]uint64{}
	for _, rd := range tr.Rounds {
		for _, tg := range rd.Games {
			game[[2]string{seasonPlayers[tg.White], seasonPlayers[tg.Black]}] = tg.Game
		}
	}
	g1, g2, g3 := game[[2]string{alice, dora}], game[[2]string{bruno, chen}], game[[2]string{dora, chen}]
	g4, g5, g6 := game[[2]string{alice, bruno}], game[[2]string{bruno, dora}], game[[2]string{chen, alice}]
	if len(game) != 6 || g1*g2*g3*g4*g5*g6 == 0 {
		t.Fatalf("pairings %v", game)
	}
	round := map[uint64]int{g1: 1, g2: 1, g3: 2, g4: 2, g5: 3, g6: 3}

	// The openings: three games for each player, naming the tournament and its round, with
	// both clocks, White's running from now; the organizer's welcome with his own address.
	got := w.deliver()
	for _, p := range seasonPlayers {
		if len(got[p]) != 3 {
			t.Fatalf("%s has %d opening mails, want 3:\n%v", p, len(got[p]), got[p])
		}
		for _, m := range got[p] {
			mustSay(t, p+"'s opening", m.text, fmt.Sprintf("This is a game of %s, round %d of 3: 4 players", seasonName, round[m.game]),
				"Clocks (10d+1d, whole days): White 10 days left, Black 10 days left. White's clock runs since Sun 2026-11-22 12:00 UTC; without a move his flag falls Thu 2026-12-03 12:00 UTC.")
		}
	}
	welcome := got.only(t, seasonTD)
	mustSay(t, "the welcome", welcome.text, "You organize "+seasonName+": Progressive Chess, 4 players, 6 games, all started now, time control 10d+1d (whole days).")
	if !senders.OrganizerAddr.MatchString(welcome.msg.ReplyTo) {
		t.Fatalf("the organizer's reply address %q", welcome.msg.ReplyTo)
	}

	// Game 1, alice-dora: mate in three series (1. e4 2. f6, g5 3. Qh5#; the check ends
	// White's series of three at its first move).
	got = w.play(at(11, 22, 13, 0), alice, g1, "e4")
	for _, p := range []string{alice, dora} {
		mustSay(t, p+" after 1. e4", got.only(t, p).text, "White 11 days left, Black 10 days left. Black's clock runs since Sun 2026-11-22 13:00 UTC")
	}
	// Game 3, dora-chen: chen's clock runs from 14:00; his flag would fall 11 days later.
	got = w.play(at(11, 22, 14, 0), dora, g3, "SERIES 1: e4")
	flagBefore := got.only(t, chen)
	mustSay(t, "chen's mail in game 3", flagBefore.text, "Black's clock runs since Sun 2026-11-22 14:00 UTC; without a move his flag falls Thu 2026-12-03 14:00 UTC.")
	w.play(at(11, 22, 15, 0), dora, g1, "f6, g5")
	got = w.play(at(11, 22, 16, 0), alice, g1, "Qh5#")
	for _, p := range []string{alice, dora} {
		mustSay(t, p+"'s end of game 1", got.of(t, p, g1, "game over: 1-0").text, "White played series 3: Qh5#", "White checkmated Black.", "The whole game: 1 e4 2 f6, g5 3 Qh5#")
	}
	for _, p := range w.readers {
		mustSay(t, p+"'s standings after game 1", got.of(t, p, 0, ": standings").text, "Game #"+itoa(g1)+" of "+seasonName+", alice@localhost against dora@localhost, ended: 1-0.", "1 of 6 games decided")
	}

	// Game 2, bruno-chen: Black offers a draw with his series, White accepts.
	w.play(at(11, 22, 17, 0), bruno, g2, "e4")
	got = w.play(at(11, 22, 18, 0), chen, g2, "e5, Nc6\nDRAW OFFER")
	mustSay(t, "bruno's offer", got.only(t, bruno).text, "your move (series 3); draw offered", "Black played series 2: e5, Nc6", "Black offers a draw. Reply DRAW ACCEPT to agree, or DRAW DECLINE.")
	got = w.play(at(11, 22, 19, 0), bruno, g2, "DRAW ACCEPT")
	for _, p := range []string{bruno, chen} {
		mustSay(t, p+"'s end of game 2", got.of(t, p, g2, "game over: 1/2-1/2").text, "Draw agreed.", "The whole game: 1 e4 2 e5, Nc6")
	}

	// Games 6 (chen-alice) and 4 (alice-bruno) begin.
	w.play(at(11, 22, 20, 0), chen, g6, "d4")
	w.play(at(11, 23, 9, 0), alice, g6, "d5, Nf6")
	w.play(at(11, 23, 10, 0), alice, g4, "d4")
	w.play(at(11, 23, 11, 0), bruno, g4, "Nf6, g6")

	// chen takes five days of leave, by mail in game 6, while his games 3 and 6 go on. He is
	// told his allowance; each opponent is told the dates in his own game, and nothing else:
	// not the other games, not the allowance.
	got = w.play(at(11, 23, 12, 0), chen, g6, "LEAVE 2026-11-25 2026-11-29")
	if got.count() != 3 || len(got[chen]) != 1 || len(got[alice]) != 1 || len(got[dora]) != 1 {
		t.Fatalf("the leave: %d mails, want chen's answer and one to each opponent:\n%s", got.count(), got.summary())
	}
	mustSay(t, "chen's leave", got.of(t, chen, g6, "Leave granted").text, "Leave granted from 2026-11-25 to 2026-11-29 (5 days): the clocks of your 2 games in progress stand still on those days",
		"Leave left for 2026: 40 days.")
	toldAlice, toldDora := got.of(t, alice, g6, "takes leave"), got.of(t, dora, g3, "takes leave")
	mustSay(t, "alice told of the leave", toldAlice.text, "White takes leave from 2026-11-25 to 2026-11-29 (5 days): the clocks of this game stand still on those days.",
		"Clocks stand still on leave: 2026-11-25 to 2026-11-29.")
	mustSay(t, "dora told of the leave", toldDora.text, "Black takes leave from 2026-11-25 to 2026-11-29 (5 days): the clocks of this game stand still on those days.",
		"Clocks stand still on leave: 2026-11-25 to 2026-11-29.")
	for _, m := range []*seasonMail{toldAlice, toldDora} {
		for _, secret := range []string{"Leave granted", "Leave left", "allowance", "40 days", "45 days", "2 games", "games in progress", "#" + itoa(g3+g6-m.game)} {
			if m.says(secret) {
				t.Errorf("%s, told of chen's leave, learns %q:\n%s", m.to, secret, m)
			}
		}
	}
	// Game 3's clock: chen's flag falls five days later than it did, the leave's length.
	flagAfter := toldDora
	mustSay(t, "dora's clock after the leave", flagAfter.text, "Black's clock runs since Sun 2026-11-22 14:00 UTC; without a move his flag falls Tue 2026-12-08 14:00 UTC.")
	if d := seasonFlag(t, flagAfter).Sub(seasonFlag(t, flagBefore)); d != 5*24*time.Hour {
		t.Errorf("the leave moved chen's flag by %v, want 5 days", d)
	}

	// The organizer: the standings, and SHOW of a game in progress, refused.
	got = w.organize(at(11, 23, 13, 0), "STANDINGS\nSHOW "+itoa(g3))
	if got.count() != 1 {
		t.Fatalf("%d mails for the organizer's STANDINGS and SHOW, want his answer:\n%s", got.count(), got.summary())
	}
	mustSay(t, "STANDINGS and SHOW", got.only(t, seasonTD).text, "The standings of "+seasonName+" (Progressive Chess), 2 of 6 games decided",
		"Line 2 (SHOW "+itoa(g3)+") was refused: game #"+itoa(g3)+" is in progress: an organizer sees a game whole once it is over")

	// Game 4, alice-bruno: the organizer adjudicates it, by mail, with his reason.
	got = w.organize(at(11, 23, 14, 0), "ADJUDICATE "+itoa(g4)+" 0-1 White's position is lost")
	for _, p := range []string{alice, bruno} {
		mustSay(t, p+"'s adjudicated game", got.of(t, p, g4, "adjudicated").text, "game over: 0-1", "The organizer adjudicated the game: Black wins (0-1).",
			"The organizer's reason: White's position is lost")
	}
	mustSay(t, "the organizer's answer", got.of(t, seasonTD, 0, "organizer's commands").text, "Game #"+itoa(g4)+" adjudicated 0-1")
	for _, p := range w.readers {
		mustSay(t, p+"'s standings after game 4", got.of(t, p, 0, ": standings").text, "3 of 6 games decided")
	}

	// Game 6, chen-alice: chen plays his series of three, alice resigns.
	w.play(at(11, 23, 15, 0), chen, g6, "3: Nc3, Nf3, Bf4")
	got = w.play(at(11, 23, 16, 0), alice, g6, "RESIGN")
	for _, p := range []string{alice, chen} {
		mustSay(t, p+"'s end of game 6", got.of(t, p, g6, "game over: 1-0").text, "resign", "The whole game: 1 d4 2 d5, Nf6 3 Nc3, Nf3, Bf4")
	}
	for _, p := range w.readers {
		mustSay(t, p+"'s standings after game 6", got.of(t, p, 0, ": standings").text, "4 of 6 games decided")
	}

	// Time passes. Games 3 (chen to move, on leave from the 25th to the 29th) and 5 (bruno to
	// move since the start) are left. The daemon checks the deadlines every minute; here at
	// the moments that matter. On the 30th bruno is reminded, 3 days before his flag; chen is
	// not: his clock stood still on his leave.
	got = w.deadlines(at(11, 30, 12, 0))
	if got.count() != 1 {
		t.Fatalf("%d mails on Nov 30, want bruno's reminder:\n%s", got.count(), got.summary())
	}
	mustSay(t, "bruno's reminder", got.of(t, bruno, g5, ", due ").text, "2 days left", "your flag falls Thu 2026-12-03 12:00 UTC")
	// Game 5, bruno-dora: bruno moves in time, 9 days and 2 hours after the start (9 days
	// charged); dora's clock runs from then.
	got = w.play(at(12, 1, 14, 0), bruno, g5, "e4")
	mustSay(t, "dora's move in game 5", got.of(t, dora, g5, "your move").text, "White 2 days left, Black 10 days left.",
		"Black's clock runs since Tue 2026-12-01 14:00 UTC; without a move his flag falls Sat 2026-12-12 14:00 UTC.")
	// Dec 3, 14:00: chen's flag would have fallen now without his leave. It does not.
	if got := w.deadlines(at(12, 3, 14, 0)); got.count() != 0 {
		t.Fatalf("%d mails when chen's flag would have fallen but for his leave:\n%s", got.count(), got.summary())
	}
	if w.gameOver(g3) {
		t.Fatal("game 3 lost on time though chen's clock stood still on his leave")
	}
	// Dec 5, 14:00: 8 days of chen's clock have run; 3 days before his flag he is reminded.
	got = w.deadlines(at(12, 5, 14, 0))
	if got.count() != 1 {
		t.Fatalf("%d mails on Dec 5, want chen's reminder:\n%s", got.count(), got.summary())
	}
	mustSay(t, "chen's reminder", got.of(t, chen, g3, ", due ").text, "2 days left", "your flag falls Tue 2026-12-08 14:00 UTC, and you lose on time",
		"Clocks (10d+1d, whole days): White 11 days left, Black 2 days left.")
	if got := w.deadlines(at(12, 8, 13, 59)); got.count() != 0 {
		t.Fatalf("%d mails a minute before chen's flag:\n%s", got.count(), got.summary())
	}
	// Dec 8, 14:00: chen's flag falls. Both players are told, the organizer is told of the
	// forfeit, and everyone gets the standings.
	got = w.deadlines(at(12, 8, 14, 0))
	for _, p := range []string{chen, dora} {
		mustSay(t, p+"'s loss on time", got.of(t, p, g3, "game over: 1-0").text, "Black's time ran out: Black loses on time. White wins.",
			"The whole game: 1 e4")
	}
	mustSay(t, "the organizer told of the forfeit", got.of(t, seasonTD, 0, "for the organizer").text,
		"Game #"+itoa(g3)+" is over: chen@localhost lost on time, 1-0: a game played, scored 1 and 0 in the standings.")
	for _, p := range w.readers {
		mustSay(t, p+"'s standings after game 3", got.of(t, p, 0, ": standings").text, "Game #"+itoa(g3)+" of "+seasonName+", dora@localhost against chen@localhost, ended: 1-0.", "5 of 6 games decided")
	}
	if n := got.count(); n != 2+1+5 {
		t.Errorf("%d mails for the loss on time, want 2 to the players, the forfeit to the organizer, the standings to all five", n)
	}
	if out := w.h.outcome(g3); out.Result != "1-0" || out.Termination != "time forfeit" {
		t.Errorf("game 3: %+v", out)
	}

	// Now that game 3 is over the organizer may see it whole.
	got = w.organize(at(12, 8, 15, 0), "SHOW "+itoa(g3))
	mustSay(t, "SHOW of the finished game", got.only(t, seasonTD).text, "Game #"+itoa(g3)+" of "+seasonName+", dora@localhost against chen@localhost, ended: 1-0.",
		"The whole game: 1 e4")

	// The organizer withdraws dora: her game still going (game 5) ends, lost by her by
	// forfeit (the tournament's rule); both players are told; the standings are final.
	got = w.organize(at(12, 8, 16, 0), "WITHDRAW dora@localhost")
	mustSay(t, "bruno's game 5", got.of(t, bruno, g5, "withdrawn").text, "The organizer has withdrawn dora@localhost from "+seasonName+": this game ends, lost by him by forfeit.", "The whole game: 1 e4")
	mustSay(t, "dora's game 5", got.of(t, dora, g5, "withdrawn").text, "The organizer has withdrawn you from "+seasonName+": this game ends, lost by you by forfeit.", "The whole game: 1 e4")
	mustSay(t, "the organizer's answer", got.of(t, seasonTD, 0, "organizer's commands").text, "dora@localhost is withdrawn; his games still going are ended")
	if tr = w.h.tournament(id); tr.WithdrawRule != "forfeit" {
		t.Errorf("withdraw rule %q, want the default forfeit", tr.WithdrawRule)
	}

	// The final crosstable, by hand (tournament/testdata/crosstable.txt is the layout).
	// Results: alice-dora 1-0 (mate), bruno-chen draw, dora-chen 1-0 (on time), alice-bruno
	// 0-1 (adjudicated), bruno-dora +/- (withdrawal), chen-alice 1-0 (resigned). Points:
	// bruno ½+1+1 = 2.5, chen ½+1 = 1.5, alice 1, dora 1. Sonneborn-Berger: bruno ½·1.5
	// (chen) + 1·1 (alice) + 1·1 (dora) = 2.75; chen ½·2.5 + 1·1 = 2.25; alice 1·1 (dora)
	// = 1; dora 1·1.5 (chen) = 1.5. Wins count the forfeit: bruno 2. dora withdrew: she
	// comes last, after alice on the same points, with no "=" (no tie).
	want := strings.Join([]string{
		"    # Player               1 2 3 4    Pts      SB   W",
		"    1 bruno                * = 1 +    2.5    2.75   2",
		"    2 chen                 = * 1 0    1.5    2.25   1",
		"    3 alice                0 0 * 1      1       1   1",
		"    4 dora (w)             - 1 0 *      1    1.50   1",
	}, "\n")
	for _, p := range w.readers {
		last := w.standings[p] // the last standings mail he received
		if !slices.Contains(got[p], last) {
			t.Fatalf("%s got no standings after the withdrawal:\n%v", p, got[p])
		}
		mustSay(t, p+"'s final standings", last.text, "6 of 6 games decided", "Every game of "+seasonName+" is decided: these are the final standings.")
		if table := seasonTable(last.msg.Body); table != want {
			t.Errorf("%s's final crosstable:\n%s\nwant\n%s", p, table, want)
		}
	}
	s, err := w.h.section(w.h.tournament(id))
	if err != nil {
		t.Fatal(err)
	}
	if !s.Over() {
		t.Errorf("the section is not over: %+v", s.Games)
	}
	if table := strings.TrimRight(s.Crosstable(), "\n"); table != want {
		t.Errorf("Section's crosstable:\n%s\nwant\n%s", table, want)
	}

	// A finished game takes no more moves: game 1, mated, refuses dora's series and tells
	// only her. Game 5, ended by her withdrawal, must refuse it alike; nothing may be added
	// to its log (a withdrawal is logged in the game, as an adjudication is).
	got = w.play(at(12, 8, 17, 0), dora, g1, "e5, Nc6")
	if got.count() != 1 {
		t.Errorf("%d mails for a series in a finished game, want dora's refusal:\n%s", got.count(), got.summary())
	}
	mustSay(t, "a series in game 1, over", got.only(t, dora).text, "Line 1 (e5, Nc6) was refused: the game is over (1-0). Nothing in your mail was done.")
	before := w.events(g5)
	got = w.play(at(12, 8, 17, 30), dora, g5, "e5, Nc6")
	if after := w.events(g5); after != before || got.count() != 1 || len(got[dora]) != 1 || !got[dora][0].says("was refused: the game is over") {
		t.Errorf("game %d, ended by dora's withdrawal, took her series after its end: %d events in its log before, %d after; %d mails (want only dora's refusal):\n%s",
			g5, before, after, got.count(), got.summary())
	}
	if s, err := w.h.section(w.h.tournament(id)); err != nil || !s.Over() || strings.TrimRight(s.Crosstable(), "\n") != want {
		t.Errorf("the final standings changed after the end (%v):\n%s", err, s.Crosstable())
	}
}

// events is the length of game id's log.
func (w *seasonWorld) events(id uint64) int {
	w.t.Helper()
	var n int
	if err := w.h.db.View(func(tx *store.Tx) error {
		evs, err := tx.Events(id)
		n = len(evs)
		return err
	}); err != nil {
		w.t.Fatal(err)
	}
	return n
}

// seasonTable is the crosstable in a standings mail: its heading and rows.
func seasonTable(body string) string {
	var rows []string
	for _, l := range strings.Split(body, "\n") {
		switch {
		case strings.HasPrefix(l, "    # Player"):
			rows = []string{l}
		case len(rows) > 0 && strings.TrimSpace(l) == "":
			return strings.Join(rows, "\n")
		case len(rows) > 0:
			rows = append(rows, l)
		}
	}
	return strings.Join(rows, "\n")
}

var seasonFlagAt = regexp.MustCompile(`flag falls (\w{3} \d{4}-\d\d-\d\d \d\d:\d\d) UTC`)

// seasonFlag is when the mail says the running clock's flag falls.
func seasonFlag(t *testing.T, m *seasonMail) time.Time {
	t.Helper()
	sub := seasonFlagAt.FindStringSubmatch(m.text)
	if sub == nil {
		t.Fatalf("no flag in %s", m)
	}
	flag, err := time.Parse("Mon 2006-01-02 15:04", sub[1])
	if err != nil {
		t.Fatal(err)
	}
	return flag
}
