package senders

import (
	"testing"

	"github.com/refereed/refereed/parser"
	"github.com/refereed/refereed/store"
)

// The reply token is read from the address a mail came to, on the referee's domain only; the
// address names the game and side (or tournament) the token stands for, or it is not taken.
func TestTokenOf(t *testing.T) {
	r := &Reader{Address: "referee@example.org", Judged: &Judged{}}
	for _, c := range []struct {
		to     string
		token  string
		bounce bool
	}{
		{"referee+g42-w-abcdefgh23@example.org", "abcdefgh23", false},
		{"referee+bounce-g42-b-abcdefgh23@example.org", "abcdefgh23", true},
		{"referee+t3-o-abcdefgh23@example.org", "abcdefgh23", false},
		{"referee+g42-w-abcdefgh23@elsewhere.org", "", false},
		{"referee@example.org", "", false},
	} {
		token, bounce := r.TokenOf(&parser.Message{To: []string{c.to}})
		if token != c.token || bounce != c.bounce {
			t.Errorf("%s: %q %v, want %q %v", c.to, token, bounce, c.token, c.bounce)
		}
	}
	m := &parser.Message{To: []string{"referee+g42-w-abcdefgh23@example.org"}}
	if !r.AddressedTo(m, "abcdefgh23", store.GameRef{Game: 42, Side: 0}) {
		t.Errorf("its own game and side: not taken")
	}
	if r.AddressedTo(m, "abcdefgh23", store.GameRef{Game: 43, Side: 0}) || r.AddressedTo(m, "abcdefgh23", store.GameRef{Game: 42, Side: 1}) {
		t.Errorf("another game's or side's address: taken")
	}
	o := &parser.Message{To: []string{"referee+t3-o-abcdefgh23@example.org"}}
	if !r.AddressedTo(o, "abcdefgh23", store.GameRef{Tournament: 3}) || r.AddressedTo(o, "abcdefgh23", store.GameRef{Tournament: 4}) {
		t.Errorf("an organizer's address names his tournament only")
	}
}

// A game's policy is its auth flag, else prefer; the policies are the three named.
func TestPolicy(t *testing.T) {
	if p := Policy(&store.Game{}); p != AuthPrefer {
		t.Errorf("default %q", p)
	}
	if p := Policy(&store.Game{Flags: map[string]string{"auth": AuthRequire}}); p != AuthRequire {
		t.Errorf("flag %q", p)
	}
	for _, p := range []string{"", AuthNone, AuthPrefer, AuthRequire} {
		if !ValidAuth(p) {
			t.Errorf("%q not valid", p)
		}
	}
	if ValidAuth("strict") {
		t.Errorf("strict is valid")
	}
	r := &Reader{Judged: &Judged{}}
	if ok, why := r.Authentic(store.InboxKey{}, &store.Game{Flags: map[string]string{"auth": AuthNone}}, nil, "a@x"); !ok || why != "not checked" {
		t.Errorf("policy none: %v %q", ok, why)
	}
}
