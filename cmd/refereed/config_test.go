package main

import (
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/refereed/refereed/referee/challenges"
)

// The [challenges] section as the referee takes it: the default by mail servers (anyone with
// a mailbox on the built-in one, players only on real ones), the organizer's words over it,
// and what is wrong with them said for the operator.
func TestChallengesConf(t *testing.T) {
	if p, err := (*ChallengesConf)(nil).policy(true); err != nil || p.From != challenges.FromAnyone || p.Off {
		t.Errorf("built-in server, no section: %+v, %v", p, err)
	}
	if p, err := (*ChallengesConf)(nil).policy(false); err != nil || p.From != challenges.FromPlayers {
		t.Errorf("real servers, no section: %+v, %v", p, err)
	}
	var c Config
	if _, err := toml.Decode(`
[challenges]
enabled = false
from = "domains"
domains = ["@Club.example.org"]
variants = ["orthodox", "kriegspiel"]
rated = "always"
expire_days = 3
max_open = 2
`, &c); err != nil {
		t.Fatal(err)
	}
	p, err := c.Challenges.policy(true)
	if err != nil || !p.Off || p.From != challenges.FromDomains || p.Domains[0] != "club.example.org" || len(p.Variants) != 2 ||
		p.Rated != challenges.RatedAlways || p.ExpireAfter().Hours() != 72 || p.MaxOpen != 2 {
		t.Errorf("the section read as %+v, %v", p, err)
	}
	for conf, want := range map[string]string{
		`from = "everyone"`:       `challenges from "everyone"`,
		`from = "domains"`:        `need the domains`,
		`variants = ["chess960"]`: `unknown variant "chess960"`,
		`rated = "sometimes"`:     `challenges rated "sometimes"`,
		`auth = "maybe"`:          `[challenges] auth "maybe"`,
		`max_open = -1`:           `must not be negative`,
	} {
		var c Config
		if _, err := toml.Decode("[challenges]\n"+conf, &c); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Challenges.policy(false); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error saying %q", conf, err, want)
		}
	}
}
