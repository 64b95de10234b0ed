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

// authentic judges the sender of raw under g's policy; why says what the mail system said.
func (r *Referee) authentic(g *store.Game, raw []byte, from string) (ok bool, why string) {
	policy := authPolicy(g)
	if policy == AuthNone {
		return true, "not checked"
	}
	verdict, why := parser.Authenticate(raw, from, r.Auth)
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
