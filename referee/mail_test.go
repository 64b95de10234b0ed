package referee

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/refereed/refereed/parser"
	"github.com/refereed/refereed/referee/clocks"
	"github.com/refereed/refereed/referee/outbox"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/variant"
	"github.com/refereed/refereed/variant/orthodox"
)

// numberedKey is a test variant: orthodox chess whose game names its turns (TurnNamer).
const numberedKey = "test-numbered"

type numbered struct{ *orthodox.Game }

func (n numbered) TurnName(s variant.Side) string {
	return fmt.Sprintf("move %d", n.Position().Fullmove)
}

func init() {
	registerOrthodoxLike(numberedKey, "Numbered chess", func(g *orthodox.Game) variant.Game { return numbered{g} })
}

// registerOrthodoxLike registers a test variant: orthodox chess wrapped by wrap.
func registerOrthodoxLike(key, name string, wrap func(*orthodox.Game) variant.Game) {
	o := variant.MustLookup("orthodox")
	variant.Register(&variant.Variant{Key: key, Name: name, Commands: o.Commands,
		New: func(opts variant.Options) (variant.Game, error) {
			g, err := orthodox.New(opts)
			if err != nil {
				return nil, err
			}
			return wrap(g), nil
		},
		WriteMovetext: func(g variant.Game) string { return g.(interface{ Movetext() string }).Movetext() },
	})
}

// design.md: the subject names the game, says what happened, and numbers the turn where the
// game names its turns: "[refereed #42] Transactional: your move (T5)".
func TestSubjectsNameTheTurn(t *testing.T) {
	h := newHarness(t)
	id := h.newGame(numberedKey)
	m := h.outbox()
	mustContain(t, "White's opening", bodyTo(t, m, ann), "Subject: [refereed #1] Numbered: your move (move 1), new game")
	mustContain(t, "Black's opening", bodyTo(t, m, bob), "Subject: [refereed #1] Numbered: new game: you play Black\n")
	h.deliver(h.reply(id, W, "e4"))
	m = h.outbox()
	mustContain(t, "White's answer", bodyTo(t, m, ann), "Subject: [refereed #1] Numbered: accepted\n")
	mustContain(t, "Black's news", bodyTo(t, m, bob), "Subject: [refereed #1] Numbered: your move (move 1)")
	h.deliver(h.reply(id, B, "e5\nDRAW OFFER"))
	m = h.outbox()
	mustContain(t, "White's news", bodyTo(t, m, ann), "Subject: [refereed #1] Numbered: your move (move 2); draw offered", "Black offers a draw. Reply DRAW ACCEPT")
	mustContain(t, "Black's answer", bodyTo(t, m, bob), "Subject: [refereed #1] Numbered: draw offer sent", "You offer a draw.")
	if strings.Contains(bodyTo(t, m, bob), "DRAW ACCEPT") {
		t.Errorf("the offerer is asked to accept his own offer:\n%s", bodyTo(t, m, bob))
	}
	h.deliver(h.reply(id, W, "DRAW DECLINE"))
	m = h.outbox()
	mustContain(t, "Black's news", bodyTo(t, m, bob), "Subject: [refereed #1] Numbered: draw declined", "White declined your draw offer.")
	mustContain(t, "White's answer", bodyTo(t, m, ann), "Subject: [refereed #1] Numbered: your move (move 2)", "You declined the draw offer.")
	h.deliver(h.reply(id, W, "HELP\nBOARD"))
	mustContain(t, "White's answer", bodyTo(t, h.outbox(), ann), "Subject: [refereed #1] Numbered: your move (move 2); as asked")
	h.deliver(h.reply(id, B, "HELP"))
	mustContain(t, "Black's answer", bodyTo(t, h.outbox(), bob), "Subject: [refereed #1] Numbered: what you asked for")
}

// design.md: replies thread under the game. Every mail to a player after his opening mail,
// the opponent's news included, refers to that opening mail; an answer also to the mail it
// answers, and to the references that mail carried (a bounded number of them).
func TestMailsThreadUnderTheGame(t *testing.T) {
	h := newHarness(t)
	id := h.newGame("orthodox")
	open := map[string]string{}
	for _, m := range h.outbox() {
		open[m.To[0]] = m.MessageID
		if p, _ := parser.Parse(m.Raw); len(p.References) > 0 || len(p.InReplyTo) > 0 {
			t.Errorf("the opening mail refers to %v %v", p.References, p.InReplyTo)
		}
	}
	raw := string(h.reply(id, W, "e4"))
	var many []string
	for i := 0; i < 20; i++ {
		many = append(many, fmt.Sprintf("<old%d@example.com>", i))
	}
	raw = strings.Replace(raw, "Subject:", "References: <"+open[ann]+"> "+strings.Join(many, " ")+"\r\nSubject:", 1)
	h.deliver([]byte(raw))
	for _, m := range h.outbox() {
		checkMail(t, m)
		p, _ := parser.Parse(m.Raw)
		if p.References[0] != open[m.To[0]] {
			t.Errorf("mail to %s: References %v do not start at the opening %s", m.To[0], p.References, open[m.To[0]])
		}
		if m.To[0] == ann {
			if p.InReplyTo[0] != "0.1.m@example.com" || p.References[len(p.References)-1] != "0.1.m@example.com" || len(p.References) > outbox.MaxReferences+2 {
				t.Errorf("White's answer: In-Reply-To %v, References %v", p.InReplyTo, p.References)
			}
			if !strings.Contains(string(m.Raw), "Auto-Submitted: auto-replied") {
				t.Error("an answer not marked auto-replied")
			}
		} else if p.InReplyTo[0] != open[bob] || !strings.Contains(string(m.Raw), "Auto-Submitted: auto-generated") {
			t.Errorf("Black's news: In-Reply-To %v", p.InReplyTo)
		}
	}
}

// A registered player who writes to the referee's bare address (no game, no token), or
// sends HELP there, gets the list of his games with the address that plays each, at his
// registered address; the address works. A stranger gets nothing. Rate-limited.
func TestMailWithoutGame(t *testing.T) {
	h := newHarness(t)
	id := h.newGame("orthodox")
	id2, err := h.ref.NewGame("transactional", "carl@example.com", ann, variant.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.ref.NewGame("orthodox", ann, "dora@example.com", variant.Options{FEN: "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"}); err != nil {
		t.Fatal(err)
	}
	h.outbox()
	h.deliver(mailText(ann, "referee@example.org", "lost", "Where are my games?", ""))
	m := h.outbox()
	if len(m) != 1 || m[0].To[0] != ann {
		t.Fatalf("mails %d, want one to Ann", len(m))
	}
	body := bodyTo(t, m, ann)
	mustContain(t, "Ann's list", strings.Join(strings.Fields(body), " "), "Subject: [refereed] your games", "names no game, so nothing in it was done",
		fmt.Sprintf("#%d Orthodox chess: you play White against bob@example.net. It is your move.", id),
		fmt.Sprintf("#%d Transactional Chess: you play Black against carl@example.com.", id2),
		"#3 Orthodox chess against dora@example.com: over, 1-0")
	addr := regexp.MustCompile(`referee\+g1-w-[a-z2-7]+@example\.org`).FindString(body)
	if addr == "" {
		t.Fatalf("no reply address for game 1 in:\n%s", body)
	}
	h.deliver(mailText(ann, addr, "move", "e4", ""))
	mustContain(t, "a move sent to the listed address", bodyTo(t, h.outbox(), ann), "White played 1. e4")

	// A stranger, and a stranger with a made-up token: nothing at all.
	h.deliver(mailText("eve@example.org", "referee@example.org", "hello", "HELP", ""))
	h.deliver(mailText("eve@example.org", "referee+g1-w-aaaaaaaaaa@example.org", "hello", "e5", ""))
	if m := h.outbox(); len(m) != 0 {
		t.Errorf("a stranger was answered: %d mails", len(m))
	}
	// This address reads every line: its subject counts the refused ones and the rest done.
	h.deliver(mailText(bob, "referee@example.org", "x", "Hi,\nACCEPT 99\nGAMES\nBOARD 1\nDECLINE 98\ne5\nLeave this to me.\nDraw\nBob", ""))
	body = bodyTo(t, h.outbox(), bob)
	mustContain(t, "two lines refused, one done, two for a game", body, "Subject: [refereed] 2 lines refused; your other commands done",
		"Not done here: BOARD 1, e5. A game's moves and commands go to that")
	if strings.Contains(body, "Hi,") || strings.Contains(body, "Bob.") || strings.Contains(body, "Leave") || strings.Contains(body, "Draw") {
		t.Errorf("a greeting or a name taken for a game's line:\n%s", body)
	}
	// Rate-limited like refusals.
	for i := 0; i < RefusalLimit+3; i++ {
		h.deliver(mailText(bob, "referee@example.org", "x", "e5", ""))
	}
	out := h.outbox()
	if n := len(out); n != RefusalLimit {
		t.Fatalf("%d answers to mail without a game, want %d", n, RefusalLimit)
	}
	// The last one says so: he is not left without an answer he was not told of.
	if body := bodyTo(t, out[len(out)-1:], bob); !strings.Contains(body, "In the last hour 10 of your mails to this address, this one included,") {
		t.Errorf("the last answer does not say it is the last:\n%s", body)
	}
	if body := bodyTo(t, out[:1], bob); strings.Contains(body, "not answered") {
		t.Errorf("the first answer speaks of the limit:\n%s", body)
	}
}

// rules.md 0.4a: however short the deadline, and however long the daemon was down, a
// reminder goes out before any forfeit; it names the forfeit's date and time and the time
// left, and the forfeit comes one deadline after it.
func TestReminderAlwaysBeforeForfeit(t *testing.T) {
	for _, tc := range []struct {
		deadline, late time.Duration
		left           string
	}{
		{time.Minute, 10 * time.Minute, "(1 minute from now)"},
		{90 * time.Minute, 3 * time.Hour, "(1 hour 30 minutes from now)"},
		{72 * time.Hour, 30 * 24 * time.Hour, "(3 days from now)"}, // the daemon was down a month
	} {
		h := newHarness(t)
		id, err := h.ref.NewGame("orthodox", ann, bob, variant.Options{Flags: map[string]string{"deadline": tc.deadline.String()}})
		if err != nil {
			t.Fatal(err)
		}
		h.outbox()
		h.now = h.now.Add(tc.late)
		if n, _ := h.ref.CheckDeadlines(); n != 1 {
			t.Fatalf("deadline %v, %v late: %d mails, want the reminder", tc.deadline, tc.late, n)
		}
		due := h.now.Add(tc.deadline)
		body := bodyTo(t, h.outbox(), ann)
		mustContain(t, "reminder", strings.Join(strings.Fields(body), " "), "by "+clocks.When(due)+" "+tc.left+", you forfeit", "your move (move 1), due "+clocks.When(due)[:14])
		if strings.Contains(body, "0 hours") {
			t.Errorf("reminder says 0 hours:\n%s", body)
		}
		if h.outcome(id).Over() {
			t.Fatal("forfeited with the reminder")
		}
		h.now = due.Add(-time.Second)
		if n, _ := h.ref.CheckDeadlines(); n != 0 {
			t.Errorf("deadline %v: %d mails before the time the reminder named", tc.deadline, n)
		}
		h.now = due
		if n, _ := h.ref.CheckDeadlines(); n != 2 || h.outcome(id).Termination != "forfeit" {
			t.Errorf("deadline %v: no forfeit at the time the reminder named", tc.deadline)
		}
	}
}

func TestSpan(t *testing.T) {
	for d, want := range map[time.Duration]string{
		30 * time.Second:                "less than a minute",
		time.Minute:                     "1 minute",
		59*time.Minute + 59*time.Second: "59 minutes",
		time.Hour:                       "1 hour",
		90 * time.Minute:                "1 hour 30 minutes",
		72 * time.Hour:                  "3 days",
		25*time.Hour + 2*time.Minute:    "1 day 1 hour 2 minutes",
	} {
		if got := clocks.Span(d); got != want {
			t.Errorf("clocks.Span(%v) = %q, want %q", d, got, want)
		}
	}
}

// HELP, for every variant, is a list in two columns: each description starts at the same
// column, and its continuation lines are indented to it (no line broken at the margin).
func TestHelpInColumns(t *testing.T) {
	for _, key := range variant.Keys() {
		h := newHarness(t)
		id := h.newGame(key)
		h.outbox()
		h.deliver(h.reply(id, B, "HELP"))
		body := bodyTo(t, h.outbox(), bob)
		_, help, ok := strings.Cut(body, "Commands, one per line:\n")
		if !ok {
			t.Errorf("%s: no command list:\n%s", key, body)
			continue
		}
		help, _, _ = strings.Cut(help, "\n\n")
		col := strings.Index(help[strings.Index(help, "BOARD"):], "your current view")
		for _, l := range strings.Split(help, "\n") {
			indent := len(l) - len(strings.TrimLeft(l, " "))
			if indent != 0 && indent != col {
				t.Errorf("%s: a line indented %d, not to the column %d: %q\n%s", key, indent, col, l, help)
			}
		}
		for _, term := range []string{"HISTORY", "RESIGN", "DRAW OFFER"} {
			i := strings.Index(help, "\n"+term)
			if i < 0 || strings.IndexFunc(help[i+1+col:], func(r rune) bool { return r != ' ' }) != 0 {
				t.Errorf("%s: %s's description is not at column %d:\n%s", key, term, col, help)
			}
		}
	}
}

// The deadline check, run every minute over every active game, replays a game only when its
// log changed or its reminder or forfeit may be due (issue: it replayed every game twice a
// minute).
func TestDeadlineCheckReplaysOnlyWhatChanged(t *testing.T) {
	h := newHarness(t)
	id := h.newGame("orthodox")
	h.outbox()
	check := func() int {
		t.Helper()
		n, err := h.ref.CheckDeadlines()
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	check()
	if got := h.ref.deadlineLoads.Load(); got != 1 {
		t.Fatalf("first check: %d replays, want 1", got)
	}
	for i := 0; i < 5; i++ {
		h.now = h.now.Add(time.Minute)
		check()
	}
	if got := h.ref.deadlineLoads.Load(); got != 1 {
		t.Errorf("five checks of an unchanged game: %d replays, want 1", got)
	}
	h.deliver(h.reply(id, W, "e4"))
	h.outbox()
	check()
	if got := h.ref.deadlineLoads.Load(); got != 2 {
		t.Errorf("after a move: %d replays, want 2", got)
	}
	h.now = h.now.Add(clocks.DefaultDeadline + time.Minute)
	if n := check(); n != 1 {
		t.Errorf("a deadline passed: %d mails, want the reminder", n)
	}
	if n := check(); n != 0 {
		t.Errorf("the reminder sent twice")
	}
	h.now = h.now.Add(clocks.DefaultDeadline)
	if n := check(); n != 2 || !h.outcome(id).Over() {
		t.Errorf("second deadline: %d mails, over %v", n, h.outcome(id).Over())
	}
}

// stopperKey is a test variant: orthodox chess in which every move ends the reading of the
// mail it came in (as a Kriegspiel attempt list stops at its first success).
const stopperKey = "test-stopper"

type stopper struct{ *orthodox.Game }

func (s stopper) Submit(cmd variant.Command) ([]variant.Notice, error) {
	ns, err := s.Game.Submit(cmd)
	if err == nil && strings.HasPrefix(cmd.Text, "move") {
		ns = append(ns, variant.Notice{To: variant.To(cmd.By), Kind: "stop", Text: "Your move was played, so I read no further.", Stop: true})
	}
	return ns, err
}

func init() {
	registerOrthodoxLike(stopperKey, "Stopper chess", func(g *orthodox.Game) variant.Game { return stopper{g} })
}

// The Submit contract: a game can end the reading of a mail without refusing anything; the
// rest comes back unread, and nothing after it is applied.
func TestGameStopsReading(t *testing.T) {
	h := newHarness(t)
	id := h.newGame(stopperKey)
	h.outbox()
	h.deliver(h.reply(id, W, "e4\nd4\nHELP\nNf3"))
	body := bodyTo(t, h.outbox(), ann)
	// The game's lines after the stop are not tried; the referee's commands are read.
	mustContain(t, "Ann's answer", body, "I read no further", "The moves after line 1 were not tried", "> d4\n> Nf3", "RESIGN")
	if strings.Contains(body, "> HELP") {
		t.Errorf("HELP after the stop was not read:\n%s", body)
	}
	if h.outcome(id).Over() {
		t.Fatal("a move after the stop was applied")
	}
	// A sign-off after the stop is a sign-off, not a move left untried.
	id2 := h.newGame(stopperKey)
	h.outbox()
	h.deliver(h.reply(id2, W, "Hi Bob,\ne4\nd4\n\nThanks!\nAnn"))
	body = bodyTo(t, h.outbox(), ann)
	mustContain(t, "Ann's answer with a sign-off", body, "> d4", "not read")
	if strings.Contains(body, "> Thanks!") || strings.Contains(body, "> Ann") {
		t.Errorf("a sign-off quoted as a move not tried:\n%s", body)
	}
	// RESIGN after a stopping move is read (KR-D9 discards attempts, not commands).
	h.deliver(h.reply(id, B, "e5"))
	h.outbox()
	h.deliver(h.reply(id, W, "Nf3\nRESIGN"))
	if !h.outcome(id).Over() {
		t.Fatal("RESIGN after a stopping move was not read")
	}
}

// After a restore from a backup, mail numbers go on from the backup's: the Message-IDs of
// the mails sent then must not be used again (a mail client that drops duplicates would hide
// the new mail), and each player of a game in progress is told what happened.
func TestRestoreNumbersMailApart(t *testing.T) {
	h := newHarness(t)
	id := h.newGame("orthodox")
	backup := h.outbox() // the opening mails; the backup is taken here
	h.deliver(h.reply(id, W, "e4"))
	sent := map[string]bool{}
	for _, m := range append(backup, h.outbox()...) {
		sent[m.MessageID] = true
	}
	// The store goes back to the backup: the mail counters with it.
	h.db.Update(func(tx *store.Tx) error {
		g, _ := tx.Game(id)
		g.Players[0].Mails, g.Players[1].Mails = 1, 1
		if _, err := tx.Events(id); err != nil {
			return err
		}
		return tx.PutGame(g)
	})
	n, err := h.ref.AfterRestore(fixedNow)
	if err != nil || n != 2 {
		t.Fatalf("after restore: %d mails, %v", n, err)
	}
	out := h.outbox()
	mustContain(t, "Ann after the restore", bodyTo(t, out, ann), "put back as they stood on", "Anything you sent after that time was lost")
	h.deliver(h.reply(id, W, "d4"))
	for _, m := range append(out, h.outbox()...) {
		if sent[m.MessageID] {
			t.Errorf("Message-ID %s used again after the restore", m.MessageID)
		}
		checkMail(t, m)
	}
}
