package referee

import (
	"fmt"
	"strings"
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/referee/organizer"
	"github.com/refereed/refereed/variant"
)

// badAddresses are refused wherever an address enters: quoted local parts (the quotes are
// lost when sending, so they never receive mail), non-ASCII, control characters, address
// literals, and the referee's own address in any plus form (its mailbox holds every
// player's mail: issue 20).
var badAddresses = []string{
	`"q q"@example.org`, `"<img src=x>"@example.org`, `zoë@example.org`, "ann\x01@example.org",
	"ann@[127.0.0.1]", "ann..b@example.org", ".ann@example.org", "ann@-x.org", "ann@exa mple.org", "",
	"referee@example.org", "Referee+td@Example.org", "referee+@example.org", "<referee+g1-w-abc@example.org>",
}

func TestCheckAddress(t *testing.T) {
	for _, a := range badAddresses {
		if got, err := checkAddress(a, "referee@example.org"); err == nil {
			t.Errorf("%q taken as %q", a, got)
		}
	}
	for a, want := range map[string]string{
		"Ann@Example.org":              "ann@example.org",
		" ann+chess@example.org ":      "ann+chess@example.org",
		"Ann Smith <ann@example.org>":  "ann@example.org",
		`"ann"@example.org`:            "ann@example.org",
		"o'brien.x_y@mail.example.org": "o'brien.x_y@mail.example.org",
		"bob@localhost":                "bob@localhost",
		"referee2@example.org":         "referee2@example.org",
		"referee@example.net":          "referee@example.net",
	} {
		if got, err := checkAddress(a, "referee@example.org"); err != nil || got != want {
			t.Errorf("%q: %q, %v; want %q", a, got, err, want)
		}
	}
}

// Each entry point refuses each bad address (issue 20: --organizer and the config's
// organizer took referee+td@host, and quoted local parts passed everywhere).
func TestAddressRuleAtEveryEntry(t *testing.T) {
	for _, bad := range badAddresses {
		h := newHarness(t)
		if _, err := h.ref.NewGame("orthodox", bad, bob, variant.Options{}); err == nil {
			t.Errorf("new --white %q taken", bad)
		}
		if _, err := h.ref.NewGame("orthodox", "ann@example.com", bad, variant.Options{}); err == nil {
			t.Errorf("new --black %q taken", bad)
		}
		if _, err := h.ref.Tournaments().New(organizer.Options{Name: "Cup", Variant: "orthodox", Players: append([]string{bad}, quartet[:2]...)}); err == nil {
			t.Errorf("tournament new --players %q taken", bad)
		}
		if _, err := h.ref.Tournaments().New(organizer.Options{Name: "Cup", Variant: "orthodox", Players: quartet[:3], Organizer: bad}); err == nil && bad != "" {
			t.Errorf("tournament new --organizer %q taken", bad)
		}
		h.ref.Organizer = bad // the config's organizer, for a tournament that names none
		if _, err := h.ref.Tournaments().New(organizer.Options{Name: "Cup", Variant: "orthodox", Players: quartet[:3]}); err == nil && bad != "" {
			t.Errorf("config organizer %q taken", bad)
		}
		h.ref.Organizer = ""
		id, err := h.ref.Tournaments().New(organizer.Options{Name: "Cup", Variant: "orthodox", Players: quartet[:3], Organizer: td})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := h.ref.Tournaments().Organize(id, "REPLACE "+quartet[0]+" "+bad); err == nil && strings.TrimSpace(bad) != "" {
			t.Errorf("REPLACE by %q taken", bad)
		}
		if _, err := h.ref.Tournaments().Organize(id, "LEAVE "+bad+" 2027-01-02 2027-01-03"); err == nil && strings.TrimSpace(bad) != "" {
			t.Errorf("LEAVE for %q taken", bad)
		}
		if err := h.ref.Tournaments().Withdraw(id, bad); err == nil {
			t.Errorf("withdraw %q taken", bad)
		}
		if tr := h.tournament(id); tr.Players[0] != quartet[0] {
			t.Errorf("after REPLACE by %q the players are %v", bad, tr.Players)
		}
	}
	// A player's own plus address is his to use.
	h := newHarness(t)
	if _, err := h.ref.NewGame("orthodox", "Ann+Chess@Example.com", bob, variant.Options{}); err != nil {
		t.Fatal(err)
	}
	if p := h.player(1, chess.White); p.Address != "ann+chess@example.com" {
		t.Errorf("stored as %q", p.Address)
	}
}

// Control characters and direction overrides never reach mail, terminals or pages through a
// tournament's name or an adjudication's reason: they are refused (issue 20).
func TestControlCharactersRefused(t *testing.T) {
	for _, bad := range []string{"Cup\x1b[2J", "Cup\u202eevil", "Cup\x00", "Cup\x85", "Cup\xff"} {
		h := newHarness(t)
		if _, err := h.ref.Tournaments().New(organizer.Options{Name: bad, Variant: "orthodox", Players: quartet[:3]}); err == nil {
			t.Errorf("tournament name %q taken", bad)
		}
	}
	h := newHarness(t)
	id, err := h.ref.Tournaments().New(organizer.Options{Name: "Cup", Variant: "orthodox", Players: quartet[:3], Organizer: td})
	if err != nil {
		t.Fatal(err)
	}
	g := h.tournament(id).Rounds[0].Games[0].Game
	for _, reason := range []string{"lost\x1b]0;pwned\x07", "lost\u202e", "\x9b31m"} {
		if _, err := h.ref.Tournaments().Organize(id, fmt.Sprintf("ADJUDICATE %d 1-0 %s", g, reason)); err == nil || !strings.Contains(err.Error(), "plain words") {
			t.Errorf("reason %q: %v", reason, err)
		}
		if h.outcome(g).Over() {
			t.Fatalf("adjudicated with reason %q", reason)
		}
	}
}

// With the built-in mail server (LocalDomain) an address must be of its domain: mail to any
// other could never be delivered.
func TestAddressDeliverableLocally(t *testing.T) {
	h := newHarness(t)
	h.ref.LocalDomain = "example.org"
	if _, err := h.ref.NewGame("orthodox", "ann@example.org", "bob@gmail.example", variant.Options{}); err == nil || !strings.Contains(err.Error(), "@example.org only") {
		t.Errorf("another domain with the built-in server: %v", err)
	}
	if _, err := h.ref.NewGame("orthodox", "ann@example.org", "Bob@Example.org", variant.Options{}); err != nil {
		t.Error(err)
	}
}
