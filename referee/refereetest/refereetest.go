// Package refereetest plays games by mail through a Referee on a real bbolt store with its own
// clock (fixed until a test moves it), for the tests of any game, wherever it lives: Harness
// (make a game, send a player's reply, take the outbox), Golden (every mail of a scripted game
// against its golden file; Script for a script with a forged mail, a wait for the deadlines, a
// setup or an -update flag) and Contract (what every game owes its players by mail); every
// mail they see passes templates/mailcheck. A new game's package runs them from its own tests:
// nothing outside its folder needs a line for it.
package refereetest

import (
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/refereed/refereed/archive"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/parser"
	"github.com/refereed/refereed/referee"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/store/storetest"
	"github.com/refereed/refereed/templates/mailcheck"
	"github.com/refereed/refereed/variant"
)

// The players of every game a Harness makes, and the referee's address.
const (
	White   = "ann@example.com"
	Black   = "bob@example.net"
	Address = "referee@example.org"
)

// Now is the clock of every Harness: mails must not depend on when tests run.
var Now = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// Harness is a Referee on a fresh store in a test's temporary directory.
type Harness struct {
	T   testing.TB
	DB  *store.DB
	Ref *referee.Referee
	// Clock is the store's clock: Now at first; Wait moves it on (a test may set it).
	Clock time.Time
	// MessageID writes the Message-ID of the players' replies; nil is GameMessageID.
	MessageID func(id uint64, side chess.Color, n int, from string) string
	uid       uint32
	// sent numbers each player's mails, so that their Message-IDs differ.
	sent [2]int
}

// New makes a Harness; the store is closed when the test ends.
func New(t testing.TB) *Harness {
	t.Helper()
	db, err := store.OpenURL(storetest.Location(t, storetest.Default()), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	h := &Harness{T: t, DB: db, Clock: Now, Ref: &referee.Referee{DB: db, Address: Address, Rand: rand.New(rand.NewSource(1))}}
	db.Now = func() time.Time { return h.Clock }
	return h
}

// NewGame makes a game of variant key between White and Black.
func (h *Harness) NewGame(key string, opts variant.Options) uint64 {
	h.T.Helper()
	id, err := h.Ref.NewGame(key, White, Black, opts)
	if err != nil {
		h.T.Fatalf("new %s: %v", key, err)
	}
	return id
}

// Reply is a plain-text reply from side's player to game id, as a mail client writes it.
func (h *Harness) Reply(id uint64, side chess.Color, body string) []byte {
	h.T.Helper()
	g := h.game(id)
	h.sent[side]++
	msgid := h.MessageID
	if msgid == nil {
		msgid = GameMessageID
	}
	from := g.Players[side].Address
	return Mail(from, h.Ref.ReplyAddress(g, side), "Re: your move", msgid(id, side, h.sent[side], from), body)
}

// ReplyAddress is the address side's player of game id replies to (with his token).
func (h *Harness) ReplyAddress(id uint64, side chess.Color) string {
	h.T.Helper()
	return h.Ref.ReplyAddress(h.game(id), side)
}

// Game is game id's record as the store holds it (its players, status, result).
func (h *Harness) Game(id uint64) *store.Game { h.T.Helper(); return h.game(id) }

// Tournament is tournament id's record as the store holds it.
func (h *Harness) Tournament(id uint64) *store.Tournament {
	h.T.Helper()
	var t *store.Tournament
	if err := h.DB.View(func(tx *store.Tx) (err error) { t, err = tx.Tournament(id); return err }); err != nil {
		h.T.Fatal(err)
	}
	return t
}

func (h *Harness) game(id uint64) *store.Game {
	h.T.Helper()
	var g *store.Game
	if err := h.DB.View(func(tx *store.Tx) (err error) { g, err = tx.Game(id); return err }); err != nil {
		h.T.Fatal(err)
	}
	return g
}

// GameMessageID is the Message-ID of the nth reply (from 1) of side's player in game id:
// "<id.side.n@example.com>".
func GameMessageID(id uint64, side chess.Color, n int, from string) string {
	return fmt.Sprintf("<%d.%d.%d@example.com>", id, side, n)
}

// SenderMessageID is the Message-ID of the nth reply of side's player, in the domain of his
// address from: "<side.n.m@domain>", the form of the package referee's own tests (and of the
// golden mails first written there).
func SenderMessageID(id uint64, side chess.Color, n int, from string) string {
	return fmt.Sprintf("<%d.%d.m@%s>", side, n, from[strings.LastIndex(from, "@")+1:])
}

// Mail is a plain-text mail from address from (named "Player") to address to, as a mail client
// writes it: for a reply forged or otherwise not a player's own (Reply writes those).
func Mail(from, to, subject, messageID, body string) []byte {
	return []byte(fmt.Sprintf("From: Player <%s>\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: %s\r\n"+
		"Date: Sun, 22 Nov 2026 11:00:00 +0000\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n",
		from, to, subject, messageID, strings.ReplaceAll(body, "\n", "\r\n")))
}

// Wait moves the clock on by d and runs the deadline check; it returns the number of mails
// the check queued.
func (h *Harness) Wait(d time.Duration) int {
	h.T.Helper()
	h.Clock = h.Clock.Add(d)
	n, err := h.Ref.CheckDeadlines()
	if err != nil {
		h.T.Fatalf("CheckDeadlines: %v", err)
	}
	return n
}

// Deliver hands raw to the referee under the next inbox key.
func (h *Harness) Deliver(raw []byte) {
	h.T.Helper()
	h.uid++
	if err := h.Ref.Handle(store.InboxKey{Mailbox: "INBOX", UIDValidity: 7, UID: h.uid}, raw); err != nil {
		h.T.Fatalf("Handle: %v", err)
	}
}

// Outbox takes the mails queued so far (as delivery would).
func (h *Harness) Outbox() []store.OutMail {
	h.T.Helper()
	var out []store.OutMail
	if err := h.DB.Update(func(tx *store.Tx) error {
		mails, err := tx.Outbox()
		for _, m := range mails {
			if err == nil {
				err = tx.Done(m)
			}
		}
		out = mails
		return err
	}); err != nil {
		h.T.Fatal(err)
	}
	return out
}

// Log is game id's event log as the store holds it.
func (h *Harness) Log(id uint64) []store.Event {
	h.T.Helper()
	var events []store.Event
	if err := h.DB.View(func(tx *store.Tx) (err error) { events, err = tx.Events(id); return err }); err != nil {
		h.T.Fatal(err)
	}
	return events
}

// Outcome is how game id stands, replayed from its log.
func (h *Harness) Outcome(id uint64) variant.Outcome {
	h.T.Helper()
	var out variant.Outcome
	if err := h.DB.View(func(tx *store.Tx) error {
		l, err := archive.Load(tx, id)
		if err == nil {
			out = l.Live.Outcome()
		}
		return err
	}); err != nil {
		h.T.Fatal(err)
	}
	return out
}

// BodyTo is the subject and text of the one mail to addr in mails ("" if none); each mail
// passes templates/mailcheck.
func BodyTo(t testing.TB, mails []store.OutMail, addr string) string {
	t.Helper()
	var found []string
	for _, m := range mails {
		mailcheck.Check(t, m)
		if m.To[0] == addr {
			p, err := parser.Parse(m.Raw)
			if err != nil {
				t.Fatal(err)
			}
			found = append(found, "Subject: "+p.Subject+"\n"+p.Body)
		}
	}
	if len(found) > 1 {
		t.Fatalf("%d mails to %s in one round", len(found), addr)
	}
	if len(found) == 0 {
		return ""
	}
	return found[0]
}

// MailsTo is the subject and text of every mail to addr in mails, in order; each mail passes
// templates/mailcheck.
func MailsTo(t testing.TB, mails []store.OutMail, addr string) []string {
	t.Helper()
	var found []string
	for _, m := range mails {
		mailcheck.Check(t, m)
		if m.To[0] != addr {
			continue
		}
		p, err := parser.Parse(m.Raw)
		if err != nil {
			t.Fatal(err)
		}
		found = append(found, "Subject: "+p.Subject+"\n"+p.Body)
	}
	return found
}

// Says checks that got says each of wants as a reader takes it: a mail's lines are wrapped,
// so words are compared apart from the spaces and line breaks between them.
func Says(t testing.TB, what, got string, wants ...string) {
	t.Helper()
	flat := strings.Join(strings.Fields(got), " ")
	for _, w := range wants {
		if !strings.Contains(flat, strings.Join(strings.Fields(w), " ")) {
			t.Errorf("%s lacks %q:\n%s", what, w, got)
		}
	}
}

// Step is one mail of a scripted game: Side's reply with Body, its mails named Name. With Raw
// set, the mail Raw makes is delivered instead (a forged sender); with Wait set, no mail: the
// clock moves on by Wait and the deadline check runs.
type Step struct {
	Name string
	Side chess.Color
	Body string
	Raw  func(h *Harness, id uint64) []byte
	Wait time.Duration
}

// update is -update in the tests of every package that uses refereetest: golden mails
// written instead of compared.
var update = flag.Bool("update", false, "rewrite the golden mails in testdata/golden")

// Update reports whether golden mails are to be written instead of compared: -update, or
// REFEREED_UPDATE_GOLDEN=1 in the environment.
func Update() bool { return *update || os.Getenv("REFEREED_UPDATE_GOLDEN") != "" }

// Golden plays steps in a game of variant key and compares every mail it causes with the file
// dir/<game>-NN-<name>-<white|black>.eml; a golden file no step produced fails too. With
// Update it writes the files instead (and removes the unproduced ones).
func Golden(t *testing.T, dir, game, key string, opts variant.Options, steps []Step) {
	t.Helper()
	Script{Dir: dir, Game: game, Key: key, Options: opts, Steps: steps}.Run(t)
}

// GameGolden is Golden for a game's own golden mails, in testdata/golden of its package, the
// players' Message-IDs in the form the files were first written with (SenderMessageID, in
// package referee).
func GameGolden(t *testing.T, game, key string, opts variant.Options, steps []Step) {
	t.Helper()
	Script{Dir: filepath.Join("testdata", "golden"), Game: game, Key: key, Options: opts, Steps: steps,
		Setup: func(h *Harness) { h.MessageID = SenderMessageID }}.Run(t)
}

// Script is a scripted game for Golden, with what some scripts need more.
type Script struct {
	Dir, Game, Key string
	Options        variant.Options
	Steps          []Step
	// Setup, if set, runs on the Harness before the game is made (players' settings, the
	// form of their Message-IDs).
	Setup func(h *Harness)
	// Update writes the golden files instead of comparing them, whatever Update() says.
	Update bool
}

// Run plays the script as Golden does.
func (s Script) Run(t *testing.T) {
	t.Helper()
	golden := mailcheck.Golden{Dir: s.Dir, Game: s.Game, Black: Black, Update: s.Update || Update()}
	h := New(t)
	if s.Setup != nil {
		s.Setup(h)
	}
	id := h.NewGame(s.Key, s.Options)
	golden.Check(t, 0, "opening", h.Outbox())
	for i, st := range s.Steps {
		switch {
		case st.Wait > 0:
			h.Wait(st.Wait)
		case st.Raw != nil:
			h.Deliver(st.Raw(h, id))
		default:
			h.Deliver(h.Reply(id, st.Side, st.Body))
		}
		golden.Check(t, i+1, st.Name, h.Outbox())
	}
	golden.Done(t)
}

// Contract holds a game of variant key, made with opts, to what every game owes its players
// by mail: both are told the game began; HELP lists the game's commands in two columns;
// nonsense is refused to its sender alone and changes nothing in the game's log; White's
// first move (found among the usual ways to write e2-e4) is accepted; a draw offer reaches
// the opponent and can be declined; a resignation ends the game and both players get the
// whole record and the final position. Every mail passes mailcheck.Check.
func Contract(t *testing.T, key string, opts variant.Options) {
	t.Helper()
	h := New(t)
	id := h.NewGame(key, opts)
	mails := func(want int, what string) []store.OutMail {
		t.Helper()
		out := h.Outbox()
		for _, m := range out {
			mailcheck.Check(t, m)
		}
		if want >= 0 && len(out) != want {
			t.Fatalf("%s: %d mails, want %d", what, len(out), want)
		}
		return out
	}
	body := func(m store.OutMail) string {
		p, _ := parser.Parse(m.Raw)
		return p.Body
	}
	mails(2, "the opening")

	h.Deliver(h.Reply(id, chess.White, "HELP"))
	help := body(mails(1, "HELP")[0])
	if !strings.Contains(help, "RESIGN") || !strings.Contains(help, "DRAW OFFER") {
		t.Errorf("HELP lacks the common commands:\n%s", help)
	}

	before := len(h.Log(id))
	h.Deliver(h.Reply(id, chess.White, "Zz9 nonsense"))
	if m := mails(1, "a refused line"); m[0].To[0] != White || !strings.Contains(body(m[0]), "was refused") {
		t.Errorf("a refused line's answer:\n%s", body(m[0]))
	}
	if len(h.Log(id)) != before {
		t.Errorf("a refused line changed the game's log")
	}

	moved := false
	for _, first := range []string{"e4", "e2e4", "e2-e4", "A: e4", "T1: e4 (C)", "e2-e4 / b8-c6", "e4 / Nc6"} {
		h.Deliver(h.Reply(id, chess.White, first))
		mails(-1, "a first move")
		if len(h.Log(id)) > before {
			moved = true
			break
		}
	}
	if !moved {
		t.Fatalf("no first move of White's was accepted")
	}

	h.Deliver(h.Reply(id, chess.White, "DRAW OFFER"))
	offer := mails(-1, "a draw offer")
	told := false
	for _, m := range offer {
		told = told || m.To[0] == Black && strings.Contains(strings.ToLower(body(m)), "draw")
	}
	if !told {
		t.Errorf("Black was not told of the draw offer")
	}
	h.Deliver(h.Reply(id, chess.Black, "DRAW DECLINE"))
	mails(-1, "a declined draw")

	h.Deliver(h.Reply(id, chess.Black, "RESIGN"))
	end := mails(2, "the resignation")
	for _, m := range end {
		b := body(m)
		if !strings.Contains(b, "resigned") || !strings.Contains(b, "my log: every command I accepted") || !strings.Contains(b, "The final position") {
			t.Errorf("the end of the game, to %s:\n%s", m.To[0], b)
		}
	}
}
