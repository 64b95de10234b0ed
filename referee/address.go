package referee

import (
	"fmt"
	"net/mail"
	"strings"
)

// CheckAddress is the one rule for an address that enters refereed as a person's: a player's
// (new, tournament new --players, REPLACE, LEAVE and WITHDRAW naming a player) or an
// organizer's (--organizer, the config's organizer). It returns the address as stored (the
// bare address, lower case) or an error that says what to give instead.
//
// The address must be deliverable by any mail server: a local part that is an ASCII
// dot-atom (RFC 5322: no quotes, spaces or control characters, which are lost or refused on
// the way), a domain of letters, digits, hyphens and dots, and at most 254 characters. It is
// never the referee's own address or a plus form of it (referee+td@host): the referee's
// mailbox holds every player's mail, and its password must not be anyone's. With the
// built-in mail server (LocalDomain) it is an address of its domain: mail goes nowhere else.
func (r *Referee) CheckAddress(a string) (string, error) {
	addr, err := checkAddress(a, r.Address)
	if err == nil && r.LocalDomain != "" && !strings.HasSuffix(addr, "@"+strings.ToLower(r.LocalDomain)) {
		return "", fmt.Errorf("%s: the built-in mail server delivers to addresses @%s only: give one of those (or run with real mail servers)", addr, strings.ToLower(r.LocalDomain))
	}
	return addr, err
}

func checkAddress(a, referee string) (string, error) {
	in := strings.TrimSpace(a)
	p, err := mail.ParseAddress(in)
	if err != nil || p.Address == "" {
		return "", fmt.Errorf("%q is not an email address: give one like ann@example.org", clip(in))
	}
	addr := strings.ToLower(p.Address)
	local, domain, _ := strings.Cut(addr, "@")
	if !dotAtom(local) || len(local) > 64 {
		return "", fmt.Errorf("%q: the part before @ may hold only ASCII letters, digits, dots and !#$%%&'*+-/=?^_`{|}~ (no quotes or spaces): mail to others may never arrive", clip(in))
	}
	if !hostName(domain) || len(addr) > 254 {
		return "", fmt.Errorf("%q: the part after @ must be a host name (letters, digits, hyphens and dots)", clip(in))
	}
	rl, rd, _ := strings.Cut(strings.ToLower(referee), "@")
	if base, _, _ := strings.Cut(local, "+"); rl != "" && (local == rl || base == rl) && domain == rd {
		return "", fmt.Errorf("%s is the referee's own address: give the person's own address", addr)
	}
	return addr, nil
}

// dotAtom reports whether s is an RFC 5322 dot-atom of ASCII atext.
func dotAtom(s string) bool {
	if s == "" || s[0] == '.' || s[len(s)-1] == '.' || strings.Contains(s, "..") {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '.':
		case strings.IndexByte("!#$%&'*+-/=?^_`{|}~", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// hostName reports whether s is a host name: dot-separated labels of letters, digits and
// inner hyphens (no address literals).
func hostName(s string) bool {
	if s == "" || len(s) > 253 {
		return false
	}
	for _, label := range strings.Split(s, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}
