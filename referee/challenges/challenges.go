// Package challenges is what a challenge by mail is (issue 37): who may make one (Policy),
// how its terms are read (ParseTerms: the game, the challenger's colour, the time control and
// the game's own options, as `refereed new` takes them and with its errors) and the bounds on
// them; and the lobby that runs them (Lobby, lobby.go: CHALLENGE, ACCEPT, DECLINE,
// CHALLENGES, NO and ALLOW CHALLENGES at the referee's bare address, the invitations, the
// expiry), keeping the challenges in the store (store.Challenge).
//
// Decisions the issue leaves open:
//   - A challenge names the challenger's colour (white or black) or leaves it to lot, drawn
//     when the game is made.
//   - DECLINE stops the challenger from inviting that address again; NO CHALLENGES stops
//     every invitation to it (and declines those waiting); ALLOW CHALLENGES undoes both.
//   - An invitation is mail to someone who did not ask for it: one address has at most
//     MaxInvitations waiting, from everyone together, and InvitationsAMonth in 30 days from
//     any one challenger (not from everyone together: one player could then stop everyone
//     else's); a challenger has at most MaxOpen open and Daily made in a day, counted only
//     for challenges made. An address with a +tag is not invited (it would reach the same
//     mailbox past its NO CHALLENGES, declines and bounds), and a challenger under a +tag is
//     himself: he cannot challenge or accept his own.
//   - An option is given once: "white black" or "deadline=3d time=30d+3d" is refused, not
//     settled by the last word.
//   - An expired challenge is closed by the deadline check; its challenger is told, the
//     invited player is not (he was told once).
//   - A deadline is between a day and 30 days (`refereed new`, run by the operator, takes
//     any): a player's challenge may not forfeit a game in minutes.
package challenges

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/refereed/refereed/clock"
	"github.com/refereed/refereed/lang"

	"github.com/refereed/refereed/templates"
	"github.com/refereed/refereed/variant"
)

// Who may challenge (Policy.From).
const (
	FromAnyone  = "anyone"  // any address the mail system delivers (the built-in server: a mailbox holder)
	FromDomains = "domains" // addresses of Policy.Domains, and players who have a game here
	FromPlayers = "players" // only players who have a game here: the default
)

// Whether games made by challenge are rated (Policy.Rated).
const (
	RatedChoice = "choice" // as the challenge says ("rated"); unrated by default
	RatedAlways = "always"
	RatedNever  = "never"
)

// Bounds, by default.
const (
	DefaultExpire            = 7 * 24 * time.Hour
	DefaultMaxOpen           = 5  // open challenges of one challenger
	DefaultDaily             = 10 // challenges one challenger makes in a day
	DefaultMaxInvitations    = 3  // invitations waiting for one address, from everyone
	DefaultInvitationsAMonth = 3  // invitations from one challenger to one address in 30 days
	MaxListed                = 50 // challenges one CHALLENGES answer lists
)

// Policy is the organizer's word on challenges (the config's [challenges]).
type Policy struct {
	Off      bool
	From     string   // FromAnyone, FromDomains or FromPlayers ("": FromPlayers)
	Domains  []string // for FromDomains, in lower case
	Variants []string // the games one may challenge to (keys); none: every game
	Rated    string   // RatedChoice, RatedAlways or RatedNever ("": RatedChoice)
	Auth     string   // the auth policy of the games made, and of the mail that makes them
	Expire   time.Duration
	// Bounds; 0 for the defaults above.
	MaxOpen, Daily, MaxInvitations, InvitationsAMonth int
}

// Admits reports whether address may make or take a challenge; player says he has a game here.
func (p Policy) Admits(address string, player bool) bool {
	if p.Off {
		return false
	}
	switch p.From {
	case FromAnyone:
		return true
	case FromDomains:
		_, domain, _ := strings.Cut(strings.ToLower(address), "@")
		return player || slices.Contains(p.Domains, domain)
	}
	return player
}

// ExpireAfter is how long a challenge waits for an answer.
func (p Policy) ExpireAfter() time.Duration { return or(p.Expire, DefaultExpire) }

// Limits are the bounds in force.
func (p Policy) Limits() (maxOpen, daily, maxInvitations, aMonth int) {
	return or(p.MaxOpen, DefaultMaxOpen), or(p.Daily, DefaultDaily), or(p.MaxInvitations, DefaultMaxInvitations),
		or(p.InvitationsAMonth, DefaultInvitationsAMonth)
}

func or[T comparable](v, d T) T {
	var zero T
	if v == zero {
		return d
	}
	return v
}

// Check says what is wrong with p, for the operator.
func (p Policy) Check() error {
	switch p.From {
	case "", FromAnyone, FromPlayers:
	case FromDomains:
		if len(p.Domains) == 0 {
			return fmt.Errorf("challenges from %q need the domains they may come from", p.From)
		}
	default:
		return fmt.Errorf("challenges from %q: want %s, %s or %s", p.From, FromAnyone, FromDomains, FromPlayers)
	}
	switch p.Rated {
	case "", RatedChoice, RatedAlways, RatedNever:
	default:
		return fmt.Errorf("challenges rated %q: want %s, %s or %s", p.Rated, RatedChoice, RatedAlways, RatedNever)
	}
	for _, k := range p.Variants {
		if _, err := variant.Lookup(k); err != nil {
			return fmt.Errorf("challenge variants: %w", err)
		}
	}
	if p.Expire < 0 || p.MaxOpen < 0 || p.Daily < 0 || p.MaxInvitations < 0 || p.InvitationsAMonth < 0 {
		return fmt.Errorf("challenge bounds must not be negative")
	}
	return nil
}

// Terms are a challenge's game.
type Terms struct {
	Variant *variant.Variant
	Colour  string            // the challenger's: "white", "black", or "" by lot
	Flags   map[string]string // variant.Options.Flags: deadline or time, auth, rated, the game's own
}

// Rated reports whether the game is rated.
func (t Terms) Rated() bool { return t.Flags["rated"] == "true" }

// Describe is the terms for people, without the colour (said apart, to each reader):
// "Kriegspiel, 30d+3d, rated, fog=on", in English (DescribeIn: in another language).
func Describe(v *variant.Variant, flags map[string]string) string {
	return DescribeIn(lang.EN, v, flags)
}

// DescribeIn is Describe in language t.
func DescribeIn(t lang.Tag, v *variant.Variant, flags map[string]string) string {
	say := func(kind string, args templates.Args) string { return templates.SayIn(t, "", "challenge/"+kind, args) }
	parts := []string{v.Name}
	if tc := flags["time"]; tc != "" {
		parts = append(parts, say("terms-time", templates.Args{"Time": tc}))
	} else if d, err := time.ParseDuration(flags["deadline"]); err == nil {
		parts = append(parts, say("terms-deadline", templates.Args{"Days": int(d.Hours()+12) / 24, "Hours": int(d.Hours())}))
	}
	if flags["rated"] == "true" {
		parts = append(parts, say("terms-rated", nil))
	}
	var own []string
	for name := range v.Options {
		if value, ok := flags[name]; ok {
			own = append(own, name+"="+value)
		}
	}
	slices.Sort(own)
	return strings.Join(append(parts, own...), ", ")
}

// Error is a challenge refused: its words are the player's.
type Error struct {
	Kind string         // its sentence, "challenge/<Kind>" ("": Text as it is)
	Args templates.Args // the sentence's fields
	Text string         // a text passed on from elsewhere (an option's error)
}

func (e *Error) Error() string { return e.In(lang.EN) }

// In is the refusal in language t.
func (e *Error) In(t lang.Tag) string {
	if e.Kind == "" {
		return e.Text
	}
	return templates.SayIn(t, "", "challenge/"+e.Kind, e.Args)
}

// Refuse is a challenge refused with the sentence "challenge/<kind>".
func Refuse(kind string, args templates.Args) error { return &Error{Kind: kind, Args: args} }

func refuse(kind string, args templates.Args) error { return Refuse(kind, args) }

// ParseTerms reads a challenge's game from its words after the opponent ("kriegspiel white
// time=30d+3d rated fog=on"), under p. The options are `refereed new`'s, written as words:
// white, black or random; rated (or unrated); time=30d+3d or deadline=3d (days, or a
// duration like 48h); the game's own NAME=VALUE (a true/false option alone: NAME); each may
// be written with -- in front, and with a space for = after time, deadline and colour.
func ParseTerms(words []string, p Policy) (Terms, error) {
	if len(words) == 0 {
		return Terms{}, refuse("no-variant", templates.Args{"Known": strings.Join(allowed(p), ", ")})
	}
	v, err := variant.Lookup(strings.ToLower(words[0]))
	if err != nil {
		return Terms{}, refuse("unknown-variant", templates.Args{"Variant": words[0], "Known": strings.Join(allowed(p), ", ")})
	}
	if len(p.Variants) > 0 && !slices.Contains(p.Variants, v.Key) {
		return Terms{}, refuse("variant-not-here", templates.Args{"Variant": v.Name, "Known": strings.Join(allowed(p), ", ")})
	}
	t := Terms{Variant: v, Flags: map[string]string{"deadline": (72 * time.Hour).String()}}
	if p.Auth != "" {
		t.Flags["auth"] = p.Auth
	}
	rated := false
	rest := words[1:]
	given := map[string]string{} // what each option was set by: one word may not undo another
	once := func(what, word string) error {
		if prev, ok := given[what]; ok && !strings.EqualFold(prev, word) {
			return refuse("twice", templates.Args{"First": prev, "Second": word})
		}
		given[what] = word
		return nil
	}
	for i := 0; i < len(rest); i++ {
		w := strings.TrimLeft(rest[i], "-")
		name, value, hasValue := strings.Cut(w, "=")
		name = strings.ToLower(name)
		takesValue := name == "time" || name == "deadline" || name == "colour" || name == "color" || name == "option"
		if takesValue && !hasValue && i+1 < len(rest) {
			i++
			value, hasValue = rest[i], true
		}
		what := name
		switch {
		case name == "white" || name == "black" || name == "random" || name == "color":
			what = "colour"
		case name == "unrated":
			what = "rated"
		case name == "deadline":
			what = "time"
		case name == "option":
			what, _, _ = strings.Cut(value, "=")
			if what == "" {
				what = value
			}
		}
		if err := once(what, w); err != nil {
			return Terms{}, err
		}
		switch {
		case !hasValue && (name == "white" || name == "black"):
			t.Colour = name
		case !hasValue && name == "random":
			t.Colour = ""
		case name == "colour" || name == "color":
			switch c := strings.ToLower(value); c {
			case "white", "black":
				t.Colour = c
			case "random", "":
				t.Colour = ""
			default:
				return Terms{}, refuse("bad-colour", templates.Args{"Value": value})
			}
		case !hasValue && name == "rated":
			rated = true
		case !hasValue && name == "unrated":
			rated = false
		case name == "time":
			tc, err := clock.ParseTimeControl(value)
			if err != nil {
				return Terms{}, &Error{Text: err.Error()}
			}
			t.Flags["time"] = tc.String()
		case name == "deadline":
			d, ok := parseDeadline(value)
			if !ok {
				return Terms{}, refuse("bad-deadline", templates.Args{"Value": value})
			}
			t.Flags["deadline"] = d.String()
		case name == "option":
			n, val, _ := strings.Cut(value, "=")
			if err := v.SetOption(t.Flags, n, val); err != nil {
				return Terms{}, &Error{Text: err.Error()}
			}
		case hasValue || isOption(v, name):
			if err := v.SetOption(t.Flags, name, value); err != nil {
				return Terms{}, &Error{Text: err.Error()}
			}
		default:
			return Terms{}, refuse("bad-word", templates.Args{"Word": rest[i], "Variant": v.Name, "Options": optionNames(v)})
		}
	}
	switch p.Rated {
	case RatedAlways:
		rated = true
	case RatedNever:
		if rated {
			return Terms{}, refuse("no-rated", nil)
		}
	}
	if rated {
		t.Flags["rated"] = "true"
	}
	// A value that is not one (fog=maybe) is refused here, with New's words.
	flags := make(map[string]string, len(t.Flags))
	for k, val := range t.Flags {
		if k != "rated" {
			flags[k] = val
		}
	}
	if _, err := v.New(variant.Options{Flags: flags}); err != nil {
		return Terms{}, &Error{Text: fmt.Sprintf("cannot start %s: %v", v.Name, err)}
	}
	return t, nil
}

// parseDeadline reads "3d", "3 days" or a duration ("48h"), between a day and 30 days.
func parseDeadline(s string) (time.Duration, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	var d time.Duration
	if n, ok := strings.CutSuffix(s, "d"); ok {
		var days int
		if _, err := fmt.Sscanf(n, "%d", &days); err != nil || fmt.Sprint(days) != n {
			return 0, false
		}
		d = time.Duration(days) * 24 * time.Hour
	} else {
		var err error
		if d, err = time.ParseDuration(s); err != nil {
			return 0, false
		}
	}
	return d, d >= 24*time.Hour && d <= 30*24*time.Hour
}

func isOption(v *variant.Variant, name string) bool {
	o, ok := v.Options[name]
	return ok && o.Type == variant.Bool
}

func optionNames(v *variant.Variant) string {
	names := make([]string, 0, len(v.Options))
	for n := range v.Options {
		names = append(names, n)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// allowed is the keys of the games one may challenge to under p.
func allowed(p Policy) []string {
	if len(p.Variants) > 0 {
		return p.Variants
	}
	return variant.Keys()
}
