package referee

import (
	"github.com/refereed/refereed/parser"
	"github.com/refereed/refereed/store"
)

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

// authPolicy is the game's policy: its "auth" flag (refereed new --auth), else AuthPrefer.
func authPolicy(g *store.Game) string {
	if p := g.Flags["auth"]; p != "" {
		return p
	}
	return AuthPrefer
}

// authentic judges the sender of the mail key under g's policy; why says what the mail system
// said. The verdict was reached before the mail's transaction began (prejudge), so that DNS
// look-ups for DKIM keys never hold the store's writer.
func (r *Referee) authentic(key store.InboxKey, g *store.Game, raw []byte, from string) (ok bool, why string) {
	policy := authPolicy(g)
	if policy == AuthNone {
		return true, "not checked"
	}
	r.judgedMu.Lock()
	j, found := r.judged[key]
	r.judgedMu.Unlock()
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

// prejudge parses ms and asks the mail system about their senders before they are handled,
// outside any store transaction (DKIM keys come from DNS, which can take seconds); the
// returned function forgets what it found once it was used.
func (r *Referee) prejudge(ms ...store.InboundMail) (forget func()) {
	verdicts := map[store.InboxKey]judgement{}
	tokens := map[store.InboxKey]string{}
	for _, m := range ms {
		if m.Oversize > 0 {
			continue // only its head is kept: read says so
		}
		msg, err := r.stranger(m.Raw, parser.ParseHeader)
		if msg == nil {
			msg, err = parser.Parse(m.Raw)
		}
		verdicts[m.Key] = judgement{msg: msg, parseErr: err}
		if err != nil || msg.From == "" {
			continue
		}
		if token, bounce := r.tokenOf(msg); token != "" && !bounce {
			tokens[m.Key] = token
		}
	}
	// What each game asks of its senders, in one reader for all (it holds nobody up).
	policies := map[store.InboxKey]string{}
	if len(tokens) > 0 {
		r.DB.View(func(tx *store.Tx) error {
			for k, token := range tokens {
				if ref, err := tx.TokenRef(token); err == nil {
					if g, err := tx.Game(ref.Game); err == nil {
						policies[k] = authPolicy(g)
					}
				}
			}
			return nil
		})
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
	r.judgedMu.Lock()
	if r.judged == nil {
		r.judged = map[store.InboxKey]judgement{}
	}
	for k, j := range verdicts {
		r.judged[k] = j
	}
	r.judgedMu.Unlock()
	return func() {
		r.judgedMu.Lock()
		for k := range verdicts {
			delete(r.judged, k)
		}
		r.judgedMu.Unlock()
	}
}

// parsed is mail key as prejudge parsed it, if it did.
func (r *Referee) parsed(key store.InboxKey) (msg *parser.Message, ok bool, err error) {
	r.judgedMu.Lock()
	defer r.judgedMu.Unlock()
	j, ok := r.judged[key]
	return j.msg, ok, j.parseErr
}

// Ignorable says why a fetched mail needs no handling at all (the intake then records it as
// processed without storing it, mailer.Intake.Ignore): a stranger's ordinary mail, which is
// never answered; "" for any other mail, automatic mail (bounces, reports) included.
func (r *Referee) Ignorable(raw []byte) string {
	msg, _ := r.stranger(raw, parser.ParseEnvelope) // its subject and ids are never read
	if msg == nil || msg.Automatic() != "" {
		return ""
	}
	return "a stranger's mail (no reply token, a sender who plays no game here): not answered"
}

// stranger is the header of a mail from a stranger (no reply token in its addresses, a sender
// who plays no game here), read without its body; nil for any other mail, which is read
// whole. A stranger's mail is never answered (no backscatter), so nothing in its body can
// matter: reading only its header (with parse) keeps the cost of a published address's spam low.
func (r *Referee) stranger(raw []byte, parse func([]byte) (*parser.Message, error)) (*parser.Message, error) {
	msg, err := parse(raw)
	if err != nil || msg.From == "" {
		return nil, nil
	}
	if token, _ := r.tokenOf(msg); token != "" {
		return nil, nil
	}
	known := true
	r.DB.View(func(tx *store.Tx) error { // a reader: it holds nobody up
		games, err := tx.GamesOf(msg.From)
		known = err != nil || len(games) > 0
		return nil
	})
	if known {
		return nil, nil
	}
	return msg, nil
}
