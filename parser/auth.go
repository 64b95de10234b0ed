package parser

import (
	"bufio"
	"bytes"
	"strings"

	"github.com/emersion/go-message/textproto"
	"github.com/emersion/go-msgauth/authres"
	"github.com/emersion/go-msgauth/dkim"
)

// Sender authentication: does the mail system vouch that the From address is the sender's?
// A reply token proves that the sender has seen the referee's mail to a player; it does not
// prove who the sender is (mail clients copy addresses around). Where the mail system can
// tell, the referee asks it: the Authentication-Results header that a trusted receiving
// server added (its DMARC and DKIM verdicts), or, without one, the message's own DKIM
// signatures, verified here.

// AuthVerdict is what the mail system says of a sender.
type AuthVerdict int

const (
	AuthNone AuthVerdict = iota // nothing to go by: no signature, no trusted verdict
	AuthPass                    // DMARC passed, or a DKIM signature of the From domain verified
	AuthFail                    // DMARC failed, or the From domain's signature did not verify
)

func (v AuthVerdict) String() string {
	return [...]string{"none", "pass", "fail"}[v]
}

// AuthOptions says how to authenticate.
type AuthOptions struct {
	// TrustedServer is the authserv-id of the receiving server whose Authentication-Results
	// are believed (e.g. "mx.example.org"); "" trusts none and verifies DKIM here.
	TrustedServer string
	// LookupTXT resolves DKIM keys (net.LookupTXT when nil; tests pass a fake).
	LookupTXT func(domain string) ([]string, error)
}

// MaxSignatures bounds the DKIM signatures verified in one mail (each costs DNS and RSA).
const MaxSignatures = 5

// Authenticate judges the sender of raw, whose From address is from.
func Authenticate(raw []byte, from string, o AuthOptions) (AuthVerdict, string) {
	_, domain, ok := strings.Cut(strings.ToLower(from), "@")
	if !ok || domain == "" {
		return AuthFail, "no From domain"
	}
	if o.TrustedServer != "" {
		if v, why, found := trustedResults(raw, domain, o.TrustedServer); found {
			return v, why
		}
	}
	verifications, err := dkim.VerifyWithOptions(bytes.NewReader(raw), &dkim.VerifyOptions{LookupTXT: o.LookupTXT, MaxVerifications: MaxSignatures})
	if err != nil && len(verifications) == 0 {
		return AuthNone, "DKIM unreadable: " + err.Error()
	}
	verdict, why := AuthNone, "no DKIM signature of "+domain
	for _, v := range verifications {
		if !aligned(v.Domain, domain) {
			continue
		}
		if v.Err == nil {
			return AuthPass, "DKIM signature of " + v.Domain + " verified"
		}
		if dkim.IsTempFail(v.Err) {
			why = "DKIM of " + v.Domain + " could not be checked now: " + v.Err.Error()
			continue // a DNS hiccup is not a forgery
		}
		verdict, why = AuthFail, "DKIM signature of "+v.Domain+" does not verify: "+v.Err.Error()
	}
	return verdict, why
}

// trustedResults reads the topmost Authentication-Results field of the trusted server (a
// receiving server adds its own above whatever the sender wrote).
func trustedResults(raw []byte, domain, server string) (AuthVerdict, string, bool) {
	h, err := textproto.ReadHeader(bufio.NewReader(bytes.NewReader(raw)))
	if err != nil {
		return AuthNone, "", false
	}
	for _, value := range h.Values("Authentication-Results") {
		id, results, err := authres.Parse(value)
		if err != nil || !strings.EqualFold(id, server) {
			continue
		}
		dkimPass, dkimFail := false, false
		for _, r := range results {
			switch r := r.(type) {
			case *authres.DMARCResult:
				switch r.Value {
				case authres.ResultPass:
					return AuthPass, server + ": dmarc=pass", true
				case authres.ResultFail:
					return AuthFail, server + ": dmarc=fail", true
				}
			case *authres.DKIMResult:
				if r.Domain != "" && !aligned(r.Domain, domain) {
					continue
				}
				switch r.Value {
				case authres.ResultPass:
					dkimPass = true
				case authres.ResultFail, authres.ResultPermError:
					dkimFail = true
				}
			}
		}
		switch {
		case dkimPass:
			return AuthPass, server + ": dkim=pass", true
		case dkimFail:
			return AuthFail, server + ": dkim=fail", true
		}
		return AuthNone, server + ": no verdict on " + domain, true
	}
	return AuthNone, "", false
}

// aligned reports whether a signing domain stands for the From domain (relaxed alignment:
// the same domain, or one a parent of the other).
func aligned(signer, from string) bool {
	signer, from = strings.ToLower(strings.TrimSuffix(signer, ".")), strings.ToLower(from)
	if !strings.Contains(signer, ".") {
		return false // a top-level domain vouches for nobody
	}
	return signer == from || strings.HasSuffix(from, "."+signer) || strings.HasSuffix(signer, "."+from)
}
