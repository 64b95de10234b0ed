package lang

import (
	"strings"
	"time"
)

// When writes a moment as the referee's clocks do, "Mon 2026-01-02 15:04 UTC", with the
// weekday in t: "Fr 2026-01-02 15:04 UTC" in German, "пт 2026-01-02 15:04 UTC" in Russian.
// The date stays ISO 8601 in every language: it is read alike everywhere, and a player
// copies it into LEAVE.
func (t Tag) When(at time.Time) string {
	at = at.UTC()
	return t.info().days[at.Weekday()] + " " + at.Format("2006-01-02 15:04 UTC")
}

// Date writes a day with its weekday in t: "Fr 2026-01-02".
func (t Tag) Date(at time.Time) string {
	at = at.UTC()
	return t.info().days[at.Weekday()] + " " + at.Format("2006-01-02")
}

// Weekday is the short name of d in t: "Mo", "lun.", "пн".
func (t Tag) Weekday(d time.Weekday) string { return t.info().days[d] }

// Side names a side, given as "White" or "Black" (a chess.Color's String), in t, in the
// grammatical form named (see SideForms); any other text comes back as it is.
func (t Tag) Side(side, form string) string {
	var i int
	switch side {
	case "White":
		i = 0
	case "Black":
		i = 1
	default:
		return side
	}
	l := t.info()
	if f, ok := sideForms[l.tag][form]; ok {
		return f[i]
	}
	if l.tag == EN {
		return side
	}
	return [2]string{l.white, l.black}[i]
}

// sideForms are the sides' names by case where a language declines them: "gen" (genitive:
// "ход белых"), "ins" (instrumental: "играете белыми"), "dat" (dative), "acc" (accusative).
// The form "" is the name as a subject. Languages without cases use one form for all.
var sideForms = map[Tag]map[string][2]string{
	PL: {"": {"białe", "czarne"}, "gen": {"białych", "czarnych"}, "ins": {"białymi", "czarnymi"}, "dat": {"białym", "czarnym"}, "acc": {"białe", "czarne"}},
	RU: {"": {"белые", "чёрные"}, "gen": {"белых", "чёрных"}, "ins": {"белыми", "чёрными"}, "dat": {"белым", "чёрным"}, "acc": {"белых", "чёрных"}},
}

// Capital writes s with its first letter upper-case: a side's name opening a sentence.
func Capital(s string) string {
	for i, r := range s {
		return strings.ToUpper(string(r)) + s[i+len(string(r)):]
	}
	return s
}
