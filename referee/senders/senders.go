// Package senders reads who sent a mail and to what: the reply token in the address it came
// to (the one place a token travels), whether that address names the game and side (or the
// tournament) the token stands for, the bounce address a failure came back to, a stranger
// (no token, no game here) whose mail is never read further, and the mail system's word on
// the sender (DKIM, DMARC) under each game's policy, asked before the mail's transaction so
// that DNS never holds the store's writer.
package senders

import (
	"crypto/hmac"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/parser"
	"github.com/refereed/refereed/referee/outbox"
	"github.com/refereed/refereed/store"
)

// Reader reads the senders of mail to the referee's Address.
type Reader struct {
	DB      *store.DB
	Address string
	Auth    parser.AuthOptions // whose Authentication-Results to believe, how to find DKIM keys
	Judged  *Judged
	// Admits, when set, says whether an address that plays no game here may still write to
	// the bare address (to challenge): its mail is then read, not ignored as a stranger's.
	Admits func(address string) bool
	// BareAuth is the auth policy of mail to the bare address and to an invitation's address
	// (the challenges'; "" is AuthPrefer).
	BareAuth string
}

// Judged is what is known of mails before their transactions (Prejudge): kept by the
// referee, shared by every Reader of it.
type Judged struct {
	mu sync.Mutex
	m  map[store.InboxKey]judgement
}

// ChallengeAddr is the form of an invited player's reply address: referee+c12-<token>@host.
var ChallengeAddr = regexp.MustCompile(`^[^+@]+\+c(\d+)-([a-z2-7]{8,32})@`)

// OrganizerAddr is the form of an organizer's reply address.
var OrganizerAddr = regexp.MustCompile(`^[^+@]+\+t(\d+)-o-([a-z2-7]{8,32})@`)

func (r *Reader) domain() string {
	_, domain, _ := strings.Cut(r.Address, "@")
	return domain
}

var tokenAddr = regexp.MustCompile(`^[^+@]+\+(bounce-)?g(\d+)-([wb])-([a-z2-7]{8,32})@`)

// TokenOf finds a reply token in the recipient addresses: the one place a token travels.
// bounce reports that the mail came to a bounce address; token is then the thread id found
// there (see Bounced).
func (r *Reader) TokenOf(m *parser.Message) (token string, bounce bool) {
	domain := r.domain()
	for _, a := range m.To {
		if sub := tokenAddr.FindStringSubmatch(a); sub != nil && strings.HasSuffix(a, "@"+domain) {
			return sub[4], sub[1] != ""
		}
		if sub := OrganizerAddr.FindStringSubmatch(a); sub != nil && strings.HasSuffix(a, "@"+domain) {
			return sub[2], false
		}
		if sub := ChallengeAddr.FindStringSubmatch(a); sub != nil && strings.HasSuffix(a, "@"+domain) {
			return sub[2], false
		}
	}
	return "", false
}

// AddressedTo reports whether the address m came to that carries token names what the
// token stands for: the game and side of a player's token, the tournament of an
// organizer's. A reply address with another game's number or side is not taken.
func (r *Reader) AddressedTo(m *parser.Message, token string, ref store.GameRef) bool {
	domain := r.domain()
	for _, a := range m.To {
		if !strings.HasSuffix(a, "@"+domain) {
			continue
		}
		if sub := tokenAddr.FindStringSubmatch(a); sub != nil && sub[1] == "" && sub[4] == token {
			side := "w"
			if ref.Side == 1 {
				side = "b"
			}
			return ref.Tournament == 0 && sub[2] == strconv.FormatUint(ref.Game, 10) && sub[3] == side
		}
		if sub := OrganizerAddr.FindStringSubmatch(a); sub != nil && sub[2] == token {
			return ref.Tournament != 0 && sub[1] == strconv.FormatUint(ref.Tournament, 10)
		}
		if sub := ChallengeAddr.FindStringSubmatch(a); sub != nil && sub[2] == token {
			return ref.Challenge != 0 && sub[1] == strconv.FormatUint(ref.Challenge, 10)
		}
	}
	return false
}

// Bounced finds the game and side of the bounce address m came to, checking its thread id.
func (r *Reader) Bounced(tx *store.Tx, m *parser.Message) (*store.Game, chess.Color, bool) {
	domain := r.domain()
	for _, a := range m.To {
		sub := tokenAddr.FindStringSubmatch(a)
		if sub == nil || sub[1] == "" || !strings.HasSuffix(a, "@"+domain) {
			continue
		}
		id, err := strconv.ParseUint(sub[2], 10, 64)
		if err != nil {
			continue
		}
		sg, err := tx.Game(id)
		if err != nil {
			continue
		}
		side := chess.White
		if sub[3] == "b" {
			side = chess.Black
		}
		if hmac.Equal([]byte(outbox.ThreadID(sg.Players[side].Token)), []byte(sub[4])) {
			return sg, side, true
		}
	}
	return nil, 0, false
}

// Auth policies of a game: how much the referee asks of the mail system about a sender whose
// From address and reply token are right. The token proves the sender has seen the referee's
// mail; DKIM and DMARC prove (where the sender's domain publishes them) that the From address
// is his.
const (
	AuthNone    = "none"    // the token and the registered From address are enough
	AuthPrefer  = "prefer"  // the default: a failed DMARC or DKIM check is refused as a forged From
	AuthRequire = "require" // only mail the mail system vouches for (DMARC or aligned DKIM pass)
)

// ValidAuth reports whether p names a policy ("" is the default).
func ValidAuth(p string) bool {
	return p == "" || p == AuthNone || p == AuthPrefer || p == AuthRequire
}

// Policy is the game's policy: its "auth" flag (refereed new --auth), else AuthPrefer.
func Policy(g *store.Game) string {
	if p := g.Flags["auth"]; p != "" {
		return p
	}
	return AuthPrefer
}

// Authentic judges the sender of the mail key under g's policy; why says what the mail system
// said. The verdict was reached before the mail's transaction began (Prejudge), so that DNS
// look-ups for DKIM keys never hold the store's writer.
func (r *Reader) Authentic(key store.InboxKey, g *store.Game, raw []byte, from string) (ok bool, why string) {
	policy := Policy(g)
	if policy == AuthNone {
		return true, "not checked"
	}
	r.Judged.mu.Lock()
	j, found := r.Judged.m[key]
	r.Judged.mu.Unlock()
	if !found || !j.asked {
		j.verdict, j.why = parser.Authenticate(raw, from, r.Auth)
	}
	verdict, why := j.verdict, j.why
	switch policy {
	case AuthRequire:
		if verdict == parser.AuthNone {
			why = "no signature or verdict to go by: " + why
		}
		return verdict == parser.AuthPass, why
	default:
		return verdict != parser.AuthFail, why
	}
}

// judgement is what is known of one mail before its transaction: the mail parsed (once: the
// transaction reads it from here), and the mail system's word on its sender, if asked.
type judgement struct {
	msg      *parser.Message
	parseErr error
	asked    bool // the game asks for the mail system's word: verdict and why are it
	verdict  parser.AuthVerdict
	why      string
}

// Prejudge parses ms and asks the mail system about their senders before they are handled,
// outside any store transaction (DKIM keys come from DNS, which can take seconds); the
// returned function forgets what it found once it was used.
func (r *Reader) Prejudge(ms ...store.InboundMail) (forget func()) {
	verdicts := map[store.InboxKey]judgement{}
	tokens := map[store.InboxKey]string{}
	bare := map[store.InboxKey]bool{}
	for _, m := range ms {
		if m.Oversize > 0 {
			continue // only its head is kept: read says so
		}
		// Who wrote is known from the envelope's fields alone (a cheap scan); then the mail
		// is read once: a stranger's header only, anyone else's whole.
		var msg *parser.Message
		var err error
		stranger := false
		if r.stranger(m.Raw) != nil {
			msg, err = parser.ParseHeader(m.Raw)
			stranger = err == nil
		}
		if !stranger {
			msg, err = parser.Parse(m.Raw)
		}
		verdicts[m.Key] = judgement{msg: msg, parseErr: err}
		if err != nil || msg.From == "" {
			continue
		}
		if token, bounce := r.TokenOf(msg); token != "" && !bounce {
			tokens[m.Key] = token
		} else if token == "" && !stranger && msg.Automatic() == "" {
			bare[m.Key] = true // to the bare address, from someone who may write there
		}
	}
	// What each game asks of its senders, in one reader for all (it holds nobody up).
	policies := map[store.InboxKey]string{}
	if len(tokens) > 0 {
		var ahead store.Ahead // the tokens' games, in one round trip on PostgreSQL
		for _, token := range tokens {
			ahead.Mails = append(ahead.Mails, store.AheadMail{Token: token})
		}
		r.DB.ViewAhead(ahead, func(tx *store.Tx) error {
			for k, token := range tokens {
				if ref, err := tx.TokenRef(token); err == nil && ref.Challenge != 0 {
					policies[k] = Policy(r.BareGame())
				} else if err == nil {
					if g, err := tx.Game(ref.Game); err == nil {
						policies[k] = Policy(g)
					}
				}
			}
			return nil
		})
	}
	for k := range bare {
		policies[k] = Policy(r.BareGame())
	}
	for _, m := range ms {
		j, ok := verdicts[m.Key]
		if policy := policies[m.Key]; !ok || policy == "" || policy == AuthNone {
			continue // no game to judge for, or one that asks nothing
		}
		j.asked = true
		j.verdict, j.why = parser.Authenticate(m.Raw, j.msg.From, r.Auth)
		verdicts[m.Key] = j
	}
	r.Judged.mu.Lock()
	if r.Judged.m == nil {
		r.Judged.m = map[store.InboxKey]judgement{}
	}
	for k, j := range verdicts {
		r.Judged.m[k] = j
	}
	r.Judged.mu.Unlock()
	return func() {
		r.Judged.mu.Lock()
		for k := range verdicts {
			delete(r.Judged.m, k)
		}
		r.Judged.mu.Unlock()
	}
}

// BareGame stands for the games made at the bare address, whose policy (BareAuth) judges
// the mail sent there: Authentic(key, r.BareGame(), ...).
func (r *Reader) BareGame() *store.Game {
	return &store.Game{Flags: map[string]string{"auth": r.BareAuth}}
}

// Parsed is mail key as Prejudge parsed it, if it did.
// Ahead is what the transaction that handles ms will read for them, from their parses
// (Prejudge): each mail's key, token and Message-ID, and two letters a mail (a move's reply
// and the opponent's news).
func (r *Reader) Ahead(ms ...store.InboundMail) store.Ahead {
	a := store.Ahead{Letters: 2 * len(ms)}
	for _, m := range ms {
		am := store.AheadMail{Key: m.Key}
		if msg, ok, err := r.Parsed(m.Key); ok && err == nil && msg != nil {
			if token, bounce := r.TokenOf(msg); !bounce {
				am.Token, am.MessageID = token, msg.MessageID
			}
		}
		a.Mails = append(a.Mails, am)
	}
	return a
}

func (r *Reader) Parsed(key store.InboxKey) (msg *parser.Message, ok bool, err error) {
	r.Judged.mu.Lock()
	defer r.Judged.mu.Unlock()
	j, ok := r.Judged.m[key]
	return j.msg, ok, j.parseErr
}

// Ignorable says why a fetched mail needs no handling at all (the intake then records it as
// processed without storing it, mailer.Intake.Ignore): a stranger's ordinary mail, which is
// never answered; "" for any other mail, automatic mail (bounces, reports) included.
func (r *Reader) Ignorable(raw []byte) string {
	msg := r.stranger(raw) // its subject and ids are never read
	if msg == nil || msg.Automatic() != "" {
		return ""
	}
	return "a stranger's mail (no reply token, a sender who plays no game here): not answered"
}

// stranger is the envelope (parser.ParseEnvelope) of a mail from a stranger (no reply token in
// its addresses, a sender who plays no game here); nil for any other mail. A stranger's mail
// is never answered (no backscatter), so nothing in its body can matter: its header alone is
// read, and telling it from a player's by a scan of a few fields keeps the cost of a published
// address's spam low.
func (r *Reader) stranger(raw []byte) *parser.Message {
	msg, err := parser.ParseEnvelope(raw)
	if err != nil || msg.From == "" {
		return nil
	}
	if token, _ := r.TokenOf(msg); token != "" {
		return nil
	}
	if r.Admits != nil && r.Admits(msg.From) {
		return nil // he may challenge
	}
	known := true
	r.DB.View(func(tx *store.Tx) error { // a reader: it holds nobody up
		games, err := tx.GamesOf(msg.From)
		known = err != nil || len(games) > 0
		if !known { // invited to a game: he may answer at the bare address
			cs, err := tx.ChallengesOf(msg.From)
			known = err != nil || len(cs) > 0
		}
		return nil
	})
	if known {
		return nil
	}
	return msg
}
