package challenges

import (
	"errors"
	"strings"
	"testing"

	_ "github.com/refereed/refereed/variant/all"
)

// ParseTerms reads `refereed new`'s options written as words, in any case and with or without
// dashes, and refuses the rest with what to write instead.
func TestParseTerms(t *testing.T) {
	for _, c := range []struct {
		words  string
		colour string
		flags  map[string]string // the flags to find, "" for absent
		terms  string
		err    string
	}{
		{words: "orthodox", flags: map[string]string{"deadline": "72h0m0s", "rated": ""}, terms: "Orthodox chess, 3 days a move"},
		{words: "Kriegspiel White rated", colour: "white", flags: map[string]string{"rated": "true"}, terms: "Kriegspiel, 3 days a move, rated"},
		{words: "kriegspiel --colour black --time 30d+3d", colour: "black", flags: map[string]string{"time": "30d+3d"}, terms: "Kriegspiel, time control 30d+3d"},
		{words: "orthodox random deadline=5d", flags: map[string]string{"deadline": "120h0m0s"}, terms: "Orthodox chess, 5 days a move"},
		{words: "orthodox deadline 48h", flags: map[string]string{"deadline": "48h0m0s"}, terms: "Orthodox chess, 2 days a move"},
		{words: "synchronous fog", flags: map[string]string{"fog": "true"}, terms: "Synchronous Chess (PSC), 3 days a move, fog=true"},
		{words: "synchronous --option fog=on", flags: map[string]string{"fog": "on"}},
		{words: "", err: "name the game after the opponent"},
		{words: "chess960", err: `there is no game "chess960" here`},
		{words: "orthodox fog=on", err: `Orthodox chess has no option "fog" (it has none)`},
		{words: "synchronous fog=maybe", err: `option fog="maybe"`},
		{words: "orthodox time=30x", err: `time control "30x"`},
		{words: "orthodox deadline=31d", err: `deadline "31d": write the days for a move, from 1d to 30d`},
		{words: "orthodox deadline=0d", err: `deadline "0d"`},
		{words: "orthodox colour=green", err: `colour "green": write white, black or random`},
		{words: "orthodox please", err: `"please" is not an option of a challenge`},
		{words: "orthodox white black", err: `"white" and "black" both set the same thing`},
		{words: "orthodox deadline=3d time=30d+3d", err: `"deadline=3d" and "time=30d+3d" both set the same thing`},
		{words: "synchronous fog=true --option fog=false", err: `both set the same thing`},
		{words: "orthodox rated rated", colour: "", flags: map[string]string{"rated": "true"}},
	} {
		terms, err := ParseTerms(strings.Fields(c.words), Policy{})
		if c.err != "" {
			var ce *Error
			if err == nil || !strings.Contains(err.Error(), c.err) || !errors.As(err, &ce) {
				t.Errorf("%q: error %v, want one saying %q", c.words, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.words, err)
			continue
		}
		if terms.Colour != c.colour {
			t.Errorf("%q: colour %q, want %q", c.words, terms.Colour, c.colour)
		}
		for k, want := range c.flags {
			if got := terms.Flags[k]; got != want {
				t.Errorf("%q: flag %s = %q, want %q", c.words, k, got, want)
			}
		}
		if got := Describe(terms.Variant, terms.Flags); c.terms != "" && got != c.terms {
			t.Errorf("%q: described as %q, want %q", c.words, got, c.terms)
		}
	}
}

// The organizer's policy: the games allowed, rated always or never, the auth policy carried
// to the game.
func TestParseTermsUnderPolicy(t *testing.T) {
	p := Policy{Variants: []string{"orthodox"}, Rated: RatedAlways, Auth: "require"}
	terms, err := ParseTerms([]string{"orthodox"}, p)
	if err != nil || !terms.Rated() || terms.Flags["auth"] != "require" {
		t.Errorf("under %+v: %+v, %v", p, terms, err)
	}
	if _, err := ParseTerms([]string{"kriegspiel"}, p); err == nil || !strings.Contains(err.Error(), "challenges here are to orthodox, not to Kriegspiel") {
		t.Errorf("a game not allowed: %v", err)
	}
	if _, err := ParseTerms([]string{"orthodox", "rated"}, Policy{Rated: RatedNever}); err == nil || !strings.Contains(err.Error(), "not rated here") {
		t.Errorf("rated where never: %v", err)
	}
}

func TestAdmits(t *testing.T) {
	for _, c := range []struct {
		p       Policy
		address string
		player  bool
		want    bool
	}{
		{Policy{}, "a@x.org", false, false},
		{Policy{}, "a@x.org", true, true},
		{Policy{From: FromAnyone}, "a@x.org", false, true},
		{Policy{From: FromAnyone, Off: true}, "a@x.org", true, false},
		{Policy{From: FromDomains, Domains: []string{"club.org"}}, "A@Club.org", false, true},
		{Policy{From: FromDomains, Domains: []string{"club.org"}}, "a@evil.org", false, false},
		{Policy{From: FromDomains, Domains: []string{"club.org"}}, "a@evil.org", true, true},
	} {
		if got := c.p.Admits(c.address, c.player); got != c.want {
			t.Errorf("%+v admits %s (player %v): %v, want %v", c.p, c.address, c.player, got, c.want)
		}
	}
	for _, bad := range []Policy{{From: "everyone"}, {From: FromDomains}, {Rated: "sometimes"}, {Variants: []string{"chess960"}}, {MaxOpen: -1}} {
		if bad.Check() == nil {
			t.Errorf("%+v passes Check", bad)
		}
	}
}

// No words make ParseTerms panic or keep more than it was given.
func FuzzParseTerms(f *testing.F) {
	for _, s := range []string{"orthodox", "kriegspiel white rated time=30d+3d", "synchronous --option fog=on", "x --time", "orthodox deadline 99999999999999d", "progressive colour"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		terms, err := ParseTerms(strings.Fields(s), Policy{})
		if err == nil && len(terms.Flags) > len(strings.Fields(s))+3 {
			t.Errorf("%q gave %d flags", s, len(terms.Flags))
		}
	})
}
