package challenges_test

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	_ "github.com/refereed/refereed/variant/all" // every game, as the daemon has them

	"github.com/refereed/refereed/parser"
	"github.com/refereed/refereed/referee"
	"github.com/refereed/refereed/referee/challenges"
	"github.com/refereed/refereed/referee/refereetest"
	"github.com/refereed/refereed/referee/senders"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/templates/mailcheck"
	"github.com/refereed/refereed/variant"
)

const carl = "carl@example.com"

// lobby is a harness of the referee's, which mails the bare address too.
type lobby struct {
	*refereetest.Harness
	n int // the mails it sent there
}

// challengeHarness is a harness whose referee takes challenges from anyone.
func challengeHarness(t *testing.T) *lobby {
	h := newHarness(t)
	h.Ref.Challenges = challenges.Policy{From: challenges.FromAnyone}
	return h
}

// newHarness is a harness with the default policy (players only).
func newHarness(t *testing.T) *lobby { return &lobby{Harness: refereetest.New(t)} }

// bare mails body from from to the referee's bare address.
func (h *lobby) bare(from, body string) {
	h.T.Helper()
	h.n++ // a mail of its own
	h.Deliver(mailText(from, refereetest.Address, "x", body, fmt.Sprintf("X-N: %d\r\n", h.n)))
}

// mailText is a plain-text mail from from to to, as a mail client writes it, with extra
// header lines.
func mailText(from, to, subject, body, extra string) []byte {
	return []byte(fmt.Sprintf("From: Player <%s>\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <m@%s>\r\nDate: Sun, 22 Nov 2026 11:00:00 +0000\r\nMIME-Version: 1.0\r\n%sContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n",
		from, to, subject, from[strings.LastIndex(from, "@")+1:], extra, strings.ReplaceAll(body, "\n", "\r\n")))
}

// mustContain checks that got holds each of wants, as it is.
func mustContain(t *testing.T, what, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, got)
		}
	}
}

const (
	ann = refereetest.White
	bob = refereetest.Black
)

// mailTo is the one mail of mails to addr, parsed.
func mailTo(t *testing.T, mails []store.OutMail, addr string) *parser.Message {
	t.Helper()
	var found *parser.Message
	for _, m := range mails {
		if m.To[0] == addr {
			if found != nil {
				t.Fatalf("two mails to %s", addr)
			}
			p, err := parser.Parse(m.Raw)
			if err != nil {
				t.Fatal(err)
			}
			found = p
		}
	}
	if found == nil {
		t.Fatalf("no mail to %s among %d", addr, len(mails))
	}
	return found
}

func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

// A named challenge, by mail from end to end: the challenger is told what he made, the
// invited player gets an invitation whose reply address is his own; ACCEPT there makes the
// game with the terms asked (colour, time control), and its first mails say who challenged
// whom.
func TestChallengeAccepted(t *testing.T) {
	h := challengeHarness(t)
	h.bare(ann, "Hi Bob!\n\nCHALLENGE bob@example.net kriegspiel white time=30d+3d\n\nAnn")
	out := h.Outbox()
	if len(out) != 2 {
		t.Fatalf("%d mails, want the answer to Ann and Bob's invitation", len(out))
	}
	mustContain(t, "Ann's answer", flat(mailTo(t, out, ann).Body),
		"Challenge #1 sent to bob@example.net: Kriegspiel, time control 30d+3d; you play White. It waits for an answer until Sun 2026-11-29 12:00 UTC; CHALLENGE CANCEL 1 withdraws it.")
	inv := mailTo(t, out, bob)
	mustContain(t, "Bob's invitation", flat(inv.Subject+"\n"+inv.Body), "ann@example.com challenges you: Kriegspiel",
		"ann@example.com challenges you to a game of Kriegspiel, time control 30d+3d; you play Black.", "reply ACCEPT", "NO CHALLENGES")
	if !senders.ChallengeAddr.MatchString(inv.ReplyTo) {
		t.Fatalf("the invitation's Reply-To %q is not an invitation's address", inv.ReplyTo)
	}
	// Someone else at Bob's invitation address is not Bob.
	h.Deliver(mailText(carl, inv.ReplyTo, "Re", "ACCEPT", ""))
	mustContain(t, "Carl at Bob's address", flat(mailTo(t, h.Outbox(), carl).Body), "there is no open challenge #1")

	h.Deliver(mailText(bob, inv.ReplyTo, "Re: challenge", "Accepted, see you on the board!\n\n> ann@example.com challenges you", ""))
	out = h.Outbox()
	if len(out) != 2 {
		t.Fatalf("%d mails after ACCEPT, want the game's two first mails", len(out))
	}
	mustContain(t, "Ann's first mail", flat(mailTo(t, out, ann).Body), "bob@example.net accepted your challenge #1.", "A game of Kriegspiel begins: you play White against bob@example.net")
	mustContain(t, "Bob's first mail", flat(mailTo(t, out, bob).Body), "You accepted challenge #1 from ann@example.com.", "you play Black against ann@example.com")
	h.DB.View(func(tx *store.Tx) error {
		g, err := tx.Game(1)
		if err != nil || g.Variant != "kriegspiel" || g.Flags["time"] != "30d+3d" || g.Players[0].Address != ann || g.Rated {
			t.Errorf("the game made: %+v, %v", g, err)
		}
		c, _ := tx.Challenge(1)
		if c.State != store.ChallengeAccepted || c.Game != 1 || c.By != bob {
			t.Errorf("the challenge after ACCEPT: %+v", c)
		}
		return nil
	})
	// Accepting again is told there is nothing open.
	h.Deliver(mailText(bob, inv.ReplyTo, "Re", "ACCEPT", ""))
	mustContain(t, "a second ACCEPT", flat(mailTo(t, h.Outbox(), bob).Body), "challenge #1 is closed: it was accepted, and game #1 is under way")
}

// DECLINE tells the challenger, and he cannot invite that player again; NO CHALLENGES stops
// every invitation and declines those waiting; ALLOW CHALLENGES undoes both.
func TestChallengeDeclined(t *testing.T) {
	h := challengeHarness(t)
	h.bare(ann, "CHALLENGE bob@example.net orthodox")
	inv := mailTo(t, h.Outbox(), bob)
	h.Deliver(mailText(bob, inv.ReplyTo, "Re", "DECLINE", ""))
	out := h.Outbox()
	mustContain(t, "Ann told", flat(mailTo(t, out, ann).Body), "bob@example.net declined your challenge #1 (Orthodox chess, 3 days a move).")
	mustContain(t, "Bob's answer", flat(mailTo(t, out, bob).Body), "You declined challenge #1 from ann@example.com")
	h.bare(ann, "CHALLENGE bob@example.net orthodox black")
	mustContain(t, "Ann again", flat(mailTo(t, h.Outbox(), ann).Body), "bob@example.net declined a challenge of yours before")

	h.bare(carl, "CHALLENGE bob@example.net orthodox")
	h.Outbox()
	h.bare(bob, "NO CHALLENGES")
	out = h.Outbox()
	mustContain(t, "Bob's stop", flat(mailTo(t, out, bob).Body), "the referee sends you no invitations any more. The one waiting is declined.")
	mustContain(t, "Carl told", flat(mailTo(t, out, carl).Body), "bob@example.net declined your challenge #2")
	h.bare("dan@example.com", "CHALLENGE bob@example.net orthodox")
	mustContain(t, "Dan refused", flat(mailTo(t, h.Outbox(), "dan@example.com").Body), "bob@example.net takes no challenges here")
	h.bare(bob, "ALLOW CHALLENGES")
	h.Outbox()
	h.bare(ann, "CHALLENGE bob@example.net orthodox")
	if out := h.Outbox(); len(out) != 2 {
		t.Errorf("after ALLOW CHALLENGES: %d mails, want Ann's answer and Bob's invitation", len(out))
	}
}

// An open challenge: listed by CHALLENGES, taken by ACCEPT N; withdrawn by its challenger
// with CHALLENGE CANCEL, which tells an invited player.
func TestChallengeOpenAndCancel(t *testing.T) {
	h := challengeHarness(t)
	h.bare(ann, "CHALLENGE ANY progressive rated black")
	mustContain(t, "Ann's open challenge", flat(mailTo(t, h.Outbox(), ann).Body), "Challenge #1 is open to anyone: Progressive Chess, 3 days a move, rated; you play Black. Anyone may take it with ACCEPT 1")
	h.bare(carl, "challenges")
	mustContain(t, "Carl's list", flat(mailTo(t, h.Outbox(), carl).Body), "Open challenges (ACCEPT N takes one): - #1 from ann@example.com: Progressive Chess, 3 days a move, rated; you play White;")
	h.bare(ann, "ACCEPT 1")
	mustContain(t, "Ann's own", flat(mailTo(t, h.Outbox(), ann).Body), "challenge #1 is your own")
	h.bare(carl, "accept #1")
	out := h.Outbox()
	mustContain(t, "Carl's game", flat(mailTo(t, out, carl).Body), "You accepted challenge #1 from ann@example.com.", "you play White against ann@example.com", "rated")
	h.DB.View(func(tx *store.Tx) error {
		if g, err := tx.Game(1); err != nil || !g.Rated || g.Variant != "progressive" {
			t.Errorf("the game made: %+v, %v", g, err)
		}
		return nil
	})

	h.bare(ann, "CHALLENGE bob@example.net transactional")
	inv := mailTo(t, h.Outbox(), bob)
	h.bare(ann, "CHALLENGE CANCEL 2")
	out = h.Outbox()
	mustContain(t, "Ann's cancel", flat(mailTo(t, out, ann).Body), "Challenge #2 (to bob@example.net: Transactional Chess, 3 days a move) is withdrawn.")
	told := mailTo(t, out, bob)
	mustContain(t, "Bob told", flat(told.Body), "ann@example.com withdrew challenge #2")
	if len(told.References) == 0 || told.References[0] != inv.MessageID {
		t.Errorf("the withdrawal is not threaded under the invitation: %v", told.References)
	}
	h.bare(carl, "CHALLENGE CANCEL 1")
	mustContain(t, "Carl cancels a closed one", flat(mailTo(t, h.Outbox(), carl).Body), "there is no open challenge #1")
}

// Refused challenges say what was wrong, with `refereed new`'s words for the game's options;
// the organizer's policy turns challenges off, limits the games, forbids rated ones.
func TestChallengeRefusals(t *testing.T) {
	h := challengeHarness(t)
	for _, c := range []struct{ line, want string }{
		{"CHALLENGE", "write CHALLENGE address game [options]"},
		{"CHALLENGE bob@example.net", "name the game after the opponent"},
		{"CHALLENGE bob@example.net chess960", `there is no game "chess960" here (games: `},
		{"CHALLENGE bob@example.net kriegspiel fog=on", `Kriegspiel has no option "fog" (it has none)`},
		{"CHALLENGE bob@example.net synchronous fog=maybe", `cannot start Synchronous Chess (PSC): option fog="maybe": want true or false`},
		{"CHALLENGE bob@example.net orthodox time=soon", `time control "soon": write days and an increment like 30d+3d`},
		{"CHALLENGE bob@example.net orthodox deadline=1h", `deadline "1h": write the days for a move, from 1d to 30d`},
		{"CHALLENGE bob@example.net orthodox purple", `"purple" is not an option of a challenge`},
		{"CHALLENGE ann@example.com orthodox", "you cannot challenge yourself"},
		{"CHALLENGE not-an-address orthodox", `"not-an-address" is not an email address`},
		{"ACCEPT", "you have no invitation waiting"},
		{"ACCEPT twelve", `"twelve" is not a challenge number`},
		{"DECLINE 9", "there is no open challenge #9"},
	} {
		from := ann
		if !strings.Contains(c.line, "ann@") {
			from = fmt.Sprintf("p%d@example.com", h.n) // refusals to one address are limited
		}
		h.bare(from, c.line)
		mustContain(t, c.line, flat(mailTo(t, h.Outbox(), from).Body), "was refused: "+c.want)
	}
	h.Ref.Challenges = challenges.Policy{From: challenges.FromAnyone, Variants: []string{"orthodox"}, Rated: challenges.RatedNever}
	h.bare(carl, "CHALLENGE ANY kriegspiel\nCHALLENGE ANY orthodox rated")
	body := flat(mailTo(t, h.Outbox(), carl).Body)
	mustContain(t, "limited", body, "challenges here are to orthodox, not to Kriegspiel", `games made by challenge are not rated here`)
	h.Ref.Challenges.Off = true
	h.bare(ann, "CHALLENGE ANY orthodox")
	if out := h.Outbox(); len(out) != 0 {
		t.Errorf("challenges off: a stranger's mail was answered (%d mails)", len(out))
	}
}

// The bounds: open challenges per challenger, challenges a day, invitations waiting for one
// address; each refusal says which, and no invitation goes out beyond them.
func TestChallengeBounds(t *testing.T) {
	h := challengeHarness(t)
	maxOpen, daily, maxInv, _ := h.Ref.Challenges.Limits()
	for i := 0; i < maxOpen; i++ {
		h.bare(ann, fmt.Sprintf("CHALLENGE p%d@example.com orthodox", i))
	}
	h.Outbox()
	h.bare(ann, "CHALLENGE ANY orthodox")
	mustContain(t, "Ann over the open limit", flat(mailTo(t, h.Outbox(), ann).Body), fmt.Sprintf("you have %d challenges open, the most one player may have", maxOpen))
	for i := 0; i < maxOpen; i++ {
		h.bare(ann, fmt.Sprintf("CHALLENGE CANCEL %d", i+1))
	}
	h.Outbox()
	for i := maxOpen; i < daily; i++ {
		h.bare(ann, fmt.Sprintf("CHALLENGE p%d@example.com orthodox\nCHALLENGE CANCEL %d", i, i+1))
	}
	h.Outbox()
	h.bare(ann, "CHALLENGE ANY orthodox")
	mustContain(t, "Ann over the daily limit", flat(mailTo(t, h.Outbox(), ann).Body), fmt.Sprintf("you have made %d challenges in the last day", daily))

	for i := 0; i < maxInv; i++ {
		h.bare(fmt.Sprintf("x%d@example.com", i), "CHALLENGE bob@example.net orthodox")
	}
	if n := len(h.Outbox()); n != 2*maxInv {
		t.Fatalf("%d mails, want %d answers and invitations", n, 2*maxInv)
	}
	h.bare("y@example.com", "CHALLENGE bob@example.net orthodox")
	out := h.Outbox()
	if len(out) != 1 {
		t.Fatalf("over the invitations limit: %d mails, want the refusal alone", len(out))
	}
	mustContain(t, "over Bob's invitations", flat(mailTo(t, out, "y@example.com").Body), "bob@example.net has too many invitations waiting")
	h.bare("x0@example.com", "CHALLENGE bob@example.net orthodox")
	mustContain(t, "twice to Bob", flat(mailTo(t, h.Outbox(), "x0@example.com").Body), "your challenge #")
}

// A challenge nobody answers closes when its time runs out, at the deadline check; its
// challenger is told, the invited player not again.
func TestChallengeExpires(t *testing.T) {
	h := challengeHarness(t)
	h.bare(ann, "CHALLENGE bob@example.net orthodox")
	inv := mailTo(t, h.Outbox(), bob)
	h.Clock = h.Clock.Add(challenges.DefaultExpire - time.Minute)
	h.Ref.CheckDeadlines()
	if out := h.Outbox(); len(out) != 0 {
		t.Fatalf("before its time: %d mails", len(out))
	}
	h.Clock = h.Clock.Add(2 * time.Minute)
	h.Ref.CheckDeadlines()
	out := h.Outbox()
	if len(out) != 1 {
		t.Fatalf("at its time: %d mails, want Ann's", len(out))
	}
	mustContain(t, "Ann told", flat(mailTo(t, out, ann).Body), "Your challenge #1 (to bob@example.net: Orthodox chess, 3 days a move) had no answer by Sun 2026-11-29 12:00 UTC, and is closed.")
	h.Deliver(mailText(bob, inv.ReplyTo, "Re", "ACCEPT", ""))
	mustContain(t, "Bob late", flat(mailTo(t, h.Outbox(), bob).Body), "challenge #1 is closed: nobody answered it in time")
}

// Who is answered at the bare address: by default only players who have a game here; a
// stranger's CHALLENGE is not read, nor answered.
func TestChallengeFromStrangers(t *testing.T) {
	h := newHarness(t) // the default policy: players only
	h.bare("eve@example.com", "CHALLENGE bob@example.net orthodox")
	if out := h.Outbox(); len(out) != 0 {
		t.Fatalf("a stranger's challenge: %d mails", len(out))
	}
	if h.Ref.Ignorable(mailText("eve@example.com", "referee@example.org", "x", "CHALLENGE bob@example.net orthodox", "")) == "" {
		t.Error("a stranger's challenge is read at the intake")
	}
	h.NewGame("orthodox", variant.Options{})
	h.Outbox()
	h.bare(ann, "CHALLENGE carl@example.com orthodox")
	if out := h.Outbox(); len(out) != 2 {
		t.Fatalf("a player's challenge: %d mails, want 2", len(out))
	}
	// Carl, invited, may answer at the bare address though he plays no game here.
	if h.Ref.Ignorable(mailText(carl, "referee@example.org", "x", "DECLINE", "")) != "" {
		t.Error("an invited address's mail to the bare address is ignored")
	}
	h.bare(carl, "DECLINE")
	mustContain(t, "Carl declines", flat(mailTo(t, h.Outbox(), carl).Body), "You declined challenge #1")
}

// Every mail of a challenge, as its reader gets it.
func TestGoldenChallenges(t *testing.T) {
	h := challengeHarness(t)
	g := mailcheck.Golden{Dir: filepath.Join("testdata", "golden"), Game: "challenge", Update: refereetest.Update(),
		Names: map[string]string{ann: "ann", bob: "bob", carl: "carl"}}
	n := 0
	step := func(name string, send func()) {
		t.Helper()
		send()
		n++
		g.Check(t, n, name, h.Outbox())
	}
	var inv *parser.Message
	step("help", func() { h.bare(ann, "HELP") })
	step("challenge", func() { h.bare(ann, "CHALLENGE bob@example.net kriegspiel white time=30d+3d") })
	step("open", func() { h.bare(carl, "CHALLENGE ANY orthodox deadline=5d") })
	step("list", func() { h.bare(bob, "CHALLENGES") })
	step("accept", func() {
		h.DB.View(func(tx *store.Tx) error {
			c, _ := tx.Challenge(1)
			inv = &parser.Message{ReplyTo: h.Ref.Lobby().InvitationAddress(c)}
			return nil
		})
		h.Deliver(mailText(bob, inv.ReplyTo, "Re", "ACCEPT", ""))
	})
	step("invite-carl", func() { h.bare(ann, "CHALLENGE carl@example.com progressive") })
	step("decline", func() { h.bare(carl, "DECLINE 3") })
	step("refused", func() { h.bare(ann, "CHALLENGE carl@example.com orthodox") })
	step("invite-bob", func() { h.bare(ann, "CHALLENGE bob@example.net transactional black deadline=2d") })
	step("cancel", func() { h.bare(ann, "CHALLENGE CANCEL 4") })
	step("invite-bob-again", func() { h.bare(carl, "CHALLENGE bob@example.net orthodox") })
	step("no-challenges", func() { h.bare(bob, "NO CHALLENGES") })
	step("expired", func() {
		h.Clock = h.Clock.Add(challenges.DefaultExpire + time.Minute)
		h.Ref.CheckDeadlines()
	})
	g.Done(t)
}

// Mail to the bare address is judged by the challenges' auth policy: under "require", a
// challenge the mail system does not vouch for is not made, nor answered (its From may not
// be its sender's).
func TestChallengeUnconfirmedSender(t *testing.T) {
	h := newHarness(t)
	h.Ref.Challenges = challenges.Policy{From: challenges.FromAnyone, Auth: senders.AuthRequire}
	h.bare(ann, "CHALLENGE bob@example.net orthodox")
	if out := h.Outbox(); len(out) != 0 {
		t.Fatalf("an unconfirmed challenge: %d mails", len(out))
	}
	h.DB.View(func(tx *store.Tx) error {
		if cs, _ := tx.ChallengesOf(ann); len(cs) != 0 {
			t.Errorf("an unconfirmed challenge was made: %+v", cs)
		}
		return nil
	})
}

// What the review found: a +tag reaches the same mailbox, so it is neither invited (past NO
// CHALLENGES, declines, bounds) nor a way to play oneself; a challenge refused for any reason
// uses up nobody's bounds; a closed challenge says how it closed to its players only.
func TestChallengeReviewFixes(t *testing.T) {
	h := challengeHarness(t)
	h.bare(bob, "NO CHALLENGES")
	h.Outbox()
	h.bare(ann, "CHALLENGE bob+x@example.net orthodox")
	mustContain(t, "a +tag", flat(mailTo(t, h.Outbox(), ann).Body), "invite bob@example.net without the +tag")
	h.bare(ann, "CHALLENGE ANY orthodox rated")
	h.Outbox()
	h.bare("ann+alt@example.com", "ACCEPT 1")
	mustContain(t, "Ann under a +tag", flat(mailTo(t, h.Outbox(), "ann+alt@example.com").Body), "challenge #1 is your own")
	h.bare("ann+alt@example.com", "CHALLENGE ann@example.com orthodox")
	mustContain(t, "Ann challenging herself", flat(mailTo(t, h.Outbox(), "ann+alt@example.com").Body), "you cannot challenge yourself")

	// A challenger at his daily bound uses up nothing of the address he names.
	_, daily, _, aMonth := h.Ref.Challenges.Limits()
	for i := 0; i < daily; i++ {
		h.bare("eve@example.com", fmt.Sprintf("CHALLENGE x%d@example.com orthodox\nCHALLENGE CANCEL %d", i, i+2))
	}
	h.Outbox()
	for i := 0; i < 2*aMonth; i++ {
		h.bare("eve@example.com", "CHALLENGE dan@example.com orthodox")
	}
	h.Outbox()
	h.bare(carl, "CHALLENGE dan@example.com orthodox")
	if out := h.Outbox(); len(out) != 2 {
		t.Fatalf("Carl's invitation to Dan after Eve's refused ones: %d mails, want 2", len(out))
	}
	// One challenger, one address: at most aMonth invitations in 30 days.
	for i := 0; i < aMonth; i++ {
		h.bare("fay@example.com", "CHALLENGE gus@example.com orthodox")
		var id uint64
		h.DB.View(func(tx *store.Tx) error {
			cs, _ := tx.ChallengesOf("fay@example.com")
			id = cs[0].ID
			return nil
		})
		h.bare("fay@example.com", fmt.Sprintf("CHALLENGE CANCEL %d", id))
	}
	h.Outbox()
	h.bare("fay@example.com", "CHALLENGE gus@example.com orthodox")
	mustContain(t, "Fay's fourth", flat(mailTo(t, h.Outbox(), "fay@example.com").Body), fmt.Sprintf("you have invited gus@example.com %d times in the last 30 days", aMonth))

	// Closed: its players hear how; anyone else that there is none.
	h.bare(bob, "ALLOW CHALLENGES")
	h.Outbox()
	h.bare(ann, "CHALLENGE bob@example.net kriegspiel")
	inv := mailTo(t, h.Outbox(), bob)
	mustContain(t, "the invitation's number", inv.Subject, "(#")
	id := regexp.MustCompile(`#(\d+)\)`).FindStringSubmatch(inv.Subject)[1]
	h.bare(ann, "CHALLENGE CANCEL "+id)
	h.Outbox()
	h.Deliver(mailText(bob, inv.ReplyTo, "Re", "ACCEPT", ""))
	mustContain(t, "Bob after the withdrawal", flat(mailTo(t, h.Outbox(), bob).Body), "challenge #"+id+" is closed: its challenger withdrew it")
	h.bare(carl, "ACCEPT "+id)
	mustContain(t, "Carl", flat(mailTo(t, h.Outbox(), carl).Body), "there is no open challenge #"+id)
	h.bare(carl, "DECLINE 1")
	mustContain(t, "declining an open one", flat(mailTo(t, h.Outbox(), carl).Body), "challenge #1 is open to anyone: it needs no answer")
	h.bare(ann, "CHALLENGE ANY orthodox rated")
	mustContain(t, "the same open challenge twice", flat(mailTo(t, h.Outbox(), ann).Body), "your open challenge #1 is the same and still waiting")
}

// A reply to an invitation that went to the bare address answers that invitation: its thread
// says which.
func TestChallengeAnsweredInThread(t *testing.T) {
	h := challengeHarness(t)
	h.bare(ann, "CHALLENGE bob@example.net orthodox")
	h.bare(carl, "CHALLENGE bob@example.net kriegspiel")
	var first *parser.Message
	for _, m := range h.Outbox() {
		if p, _ := parser.Parse(m.Raw); m.To[0] == bob && strings.Contains(p.Subject, "ann@") {
			first = p
		}
	}
	raw := mailText(bob, "referee@example.org", "Re", "DECLINE", "In-Reply-To: <"+first.MessageID+">\r\n")
	h.Deliver(raw)
	out := h.Outbox()
	mustContain(t, "Bob's answer", flat(mailTo(t, out, bob).Body), "You declined challenge #1 from ann@example.com")
	mustContain(t, "Ann told", flat(mailTo(t, out, ann).Body), "declined your challenge #1")
}

// Questions at the bare address are limited as questions (and answered once a mail), not
// silenced as refusals; a mail with no command from someone who may challenge is answered on
// the built-in server, where he logged in to send it.
func TestBareQuestionsAndNothing(t *testing.T) {
	h := challengeHarness(t)
	for i := 0; i < referee.RefusalLimit+2; i++ {
		h.bare(ann, "CHALLENGES\nCHALLENGES")
	}
	out := h.Outbox()
	if len(out) != referee.RefusalLimit+2 {
		t.Fatalf("%d answers to %d CHALLENGES, want each answered", len(out), referee.RefusalLimit+2)
	}
	if n := strings.Count(flat(mailTo(t, out[len(out)-1:], ann).Body), "There is no open challenge"); n != 1 {
		t.Errorf("a question asked twice in a mail answered %d times", n)
	}
	h.bare(carl, "hello there")
	if out := h.Outbox(); len(out) != 0 {
		t.Errorf("real mail servers: a stranger's mail without a command answered")
	}
	h.Ref.LocalDomain = "example.com"
	h.bare(carl, "hello there")
	mustContain(t, "Carl on the built-in server", flat(mailTo(t, h.Outbox(), carl).Body), "I found no command in your mail to referee@example.org")
}
