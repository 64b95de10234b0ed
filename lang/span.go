package lang

import (
	"strconv"
	"strings"
	"time"
)

// units are a language's words for days, hours and minutes, each in its plural forms (the
// order of Tag.Plural), and its "less than a minute".
type units struct {
	day, hour, minute []string
	less              string
}

var spanWords = map[Tag]units{
	EN: {[]string{"day", "days"}, []string{"hour", "hours"}, []string{"minute", "minutes"}, "less than a minute"},
	DE: {[]string{"Tag", "Tage"}, []string{"Stunde", "Stunden"}, []string{"Minute", "Minuten"}, "weniger als eine Minute"},
	FR: {[]string{"jour", "jours"}, []string{"heure", "heures"}, []string{"minute", "minutes"}, "moins d'une minute"},
	ES: {[]string{"día", "días"}, []string{"hora", "horas"}, []string{"minuto", "minutos"}, "menos de un minuto"},
	IT: {[]string{"giorno", "giorni"}, []string{"ora", "ore"}, []string{"minuto", "minuti"}, "meno di un minuto"},
	NL: {[]string{"dag", "dagen"}, []string{"uur", "uur"}, []string{"minuut", "minuten"}, "minder dan een minuut"},
	PT: {[]string{"dia", "dias"}, []string{"hora", "horas"}, []string{"minuto", "minutos"}, "menos de um minuto"},
	PL: {[]string{"dzień", "dni", "dni"}, []string{"godzina", "godziny", "godzin"}, []string{"minuta", "minuty", "minut"}, "mniej niż minuta"},
	RU: {[]string{"день", "дня", "дней"}, []string{"час", "часа", "часов"}, []string{"минута", "минуты", "минут"}, "меньше минуты"},
}

func (t Tag) units() units {
	if u, ok := spanWords[t.info().tag]; ok {
		return u
	}
	return spanWords[EN]
}

// Days writes a number of days in t, as a subject or after a colon: "3 Tage", "1 день",
// "5 дней". A negative number (an overdrawn clock) is 0.
func (t Tag) Days(n int) string {
	n = max(n, 0)
	return strconv.Itoa(n) + " " + t.Plural(n, t.units().day...)
}

// Span writes a duration in t in days, hours and minutes, as far as they are not zero, as
// the referee's clocks do in English ("1 day 2 hours"): "1 Tag 2 Stunden", "1 день 2 часа".
// Under a minute it is "less than a minute" in t. Seconds are dropped.
func (t Tag) Span(d time.Duration) string {
	u := t.units()
	if d < time.Minute {
		return u.less
	}
	var parts []string
	for _, x := range []struct {
		forms []string
		size  time.Duration
	}{{u.day, 24 * time.Hour}, {u.hour, time.Hour}, {u.minute, time.Minute}} {
		n := int(d / x.size)
		d -= time.Duration(n) * x.size
		if n > 0 {
			parts = append(parts, strconv.Itoa(n)+" "+t.Plural(n, x.forms...))
		}
	}
	return strings.Join(parts, " ")
}

// SpanText rewrites in t a duration the referee wrote in English ("3 days", "1 day 2 hours",
// "less than a minute", as its clocks write them); any other text comes back as it is.
func (t Tag) SpanText(s string) string {
	if s == spanWords[EN].less {
		return t.units().less
	}
	f := strings.Fields(s)
	if len(f) == 0 || len(f)%2 != 0 {
		return s
	}
	var d time.Duration
	for i := 0; i < len(f); i += 2 {
		n, err := strconv.Atoi(f[i])
		if err != nil || n < 0 || n > 1e6 {
			return s
		}
		var size time.Duration
		switch strings.TrimSuffix(f[i+1], "s") {
		case "day":
			size = 24 * time.Hour
		case "hour":
			size = time.Hour
		case "minute":
			size = time.Minute
		default:
			return s
		}
		d += time.Duration(n) * size
	}
	if len(f) == 2 && strings.HasPrefix(f[1], "day") {
		n, _ := strconv.Atoi(f[0])
		return t.Days(n) // "0 days" stays 0 days, not "less than a minute"
	}
	return t.Span(d)
}
