package templates

import (
	"fmt"
	"io/fs"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	texttemplate "text/template"
	"time"

	"github.com/refereed/refereed/lang"
)

// The words in other languages: words/<tag>/*.tmpl define the same sentences as words/*.tmpl,
// by the same names and with the same fields. A sentence a language lacks is said in
// English (TestLanguagesComplete fails on it first).
//
// Every language's sentences, English's too, may call:
//
//	join    strings.Join
//	plural  {{plural .N "ход" "хода" "ходов"}}: the form for the number by the CLDR rules,
//	        the forms in the order of the categories the language's whole numbers have:
//	        one, other (en, de, fr, es, it, nl, pt); one, few, many (pl, ru). See lang.Tag.Plural.
//	side    {{side .Side}}: "White" or "Black" (a chess.Color, or its name) in the language
//	        ("Weiß", "белые"); {{side .By "gen"}} a case where the language declines it
//	        (gen, ins, dat, acc: Polish, Russian); any other value is printed as it is.
//	when    {{when .Due}}: a moment (a time.Time, or the English "Mon 2006-01-02 15:04 UTC")
//	        with the weekday in the language; any other text is printed as it is.
//	        {{when .Due "date"}} gives the day alone: "Fr 2026-01-02".
//	capital the text with its first letter upper-case: {{capital (side .By)}} opens a sentence.
//	span    {{span .Waited}}: a duration (a time.Duration, a number of days, or the English
//	        "3 days", "1 day 2 hours", "less than a minute" the clocks write) in the
//	        language, as a subject or after a colon ("3 Tage", "3 дня"); other text as it is.
//	dates   {{dates .Stops}}: a span of days, or a list of them, written "2027-01-02 to
//	        2027-01-10" in English, as "2027-01-02 – 2027-01-10"; other text as it is.
var langWords = sync.OnceValue(func() map[lang.Tag]*texttemplate.Template {
	out := map[lang.Tag]*texttemplate.Template{}
	for _, t := range lang.All() {
		if t == lang.EN {
			continue
		}
		glob := "words/" + string(t) + "/*.tmpl"
		if m, _ := fs.Glob(files, glob); len(m) == 0 {
			continue
		}
		out[t] = texttemplate.Must(texttemplate.New("words").Option("missingkey=error").Funcs(funcs(t)).ParseFS(files, glob))
	}
	return out
}) // parsed at the first use: a command that writes no mail starts without them (45 ms)

// funcs are the template functions of t's sentences.
func funcs(t lang.Tag) texttemplate.FuncMap {
	return texttemplate.FuncMap{
		"join": strings.Join,
		"plural": func(n any, forms ...string) (string, error) {
			k, err := count(n)
			if err != nil {
				return "", err
			}
			return t.Plural(k, forms...), nil
		},
		"side": func(v any, form ...string) string {
			f := ""
			if len(form) > 0 {
				f = form[0]
			}
			return t.Side(fmt.Sprint(v), f)
		},
		"when": func(v any, form ...string) string {
			at, ok := v.(time.Time)
			if s, isText := v.(string); isText {
				var err error
				at, err = time.Parse("Mon 2006-01-02 15:04 UTC", s)
				if ok = err == nil; !ok {
					return s
				}
			}
			if !ok {
				return fmt.Sprint(v)
			}
			if len(form) > 0 && form[0] == "date" {
				return t.Date(at)
			}
			return t.When(at)
		},
		"capital": lang.Capital,
		"span": func(v any) string {
			switch x := v.(type) {
			case time.Duration:
				return t.Span(x)
			case string:
				return t.SpanText(x)
			}
			if n, err := count(v); err == nil {
				return t.Days(n)
			}
			return fmt.Sprint(v)
		},
		"dates": func(v any) any {
			switch x := v.(type) {
			case string:
				return dateRange.ReplaceAllString(x, "$1 – $2")
			case []string:
				out := make([]string, len(x))
				for i, s := range x {
					out[i] = dateRange.ReplaceAllString(s, "$1 – $2")
				}
				return out
			}
			return v
		},
	}
}

// dateRange is a span of days as the referee writes it in English: "2027-01-02 to 2027-01-10".
var dateRange = regexp.MustCompile(`^(\d{4}-\d{2}-\d{2}) to (\d{4}-\d{2}-\d{2})$`)

// count reads a template's number: any integer kind.
func count(n any) (int, error) {
	v := reflect.ValueOf(n)
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return int(v.Int()), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return int(v.Uint()), nil
	case reflect.String:
		if k, err := strconv.Atoi(v.String()); err == nil {
			return k, nil
		}
	}
	return 0, fmt.Errorf("plural: %v is not a whole number", n)
}

// set is t's sentences, nil for English (and for a language with none).
func set(t lang.Tag) *texttemplate.Template { return langWords()[t] }

// SayIn is Say in t: the sentence in t's words, or in English when t has none of that name
// (or lacks a field of it). In English it is Say.
func SayIn(t lang.Tag, key, kind string, args Args) string {
	ws := set(t)
	if ws == nil {
		return Say(key, kind, args)
	}
	name := kind
	if key != "" && (ws.Lookup(key+"/"+kind) != nil || words().Lookup(key+"/"+kind) != nil) {
		name = key + "/" + kind
	}
	text, ok := SayWordsIn(t, name, args)
	if !ok {
		return fmt.Sprintf("[%s]", kind)
	}
	return strings.TrimSpace(text)
}

// SayWordsIn is SayWords in t: the sentence named name in t's words, untrimmed, or in
// English when t has no such sentence or it fails.
func SayWordsIn(t lang.Tag, name string, args map[string]any) (text string, ok bool) {
	if ws := set(t); ws != nil && ws.Lookup(name) != nil {
		var sb strings.Builder
		if err := ws.ExecuteTemplate(&sb, name, args); err == nil {
			return sb.String(), true
		}
	}
	return SayWords(name, args)
}

// NoticeTextIn is NoticeText in t.
func NoticeTextIn(t lang.Tag, kind, words, text string, args map[string]any) string {
	if text != "" || (args == nil && words == "") {
		return text
	}
	if words == "" {
		words = kind
	}
	return SayIn(t, "", words, args)
}

// HasWordsIn reports whether a sentence named kind exists (for key's game, or shared) in
// any language: SayIn says it, in t's words or else in English's. HasWordsOwn tells the two
// apart.
func HasWordsIn(t lang.Tag, key, kind string) bool {
	return HasWords(key, kind) || HasWordsOwn(t, key, kind)
}

// HasWordsOwn reports whether t itself has the sentence named kind (for key's game, or
// shared), not by falling back to English. English has all its own.
func HasWordsOwn(t lang.Tag, key, kind string) bool {
	ws := set(t)
	if t == lang.EN || !t.Known() {
		return HasWords(key, kind)
	}
	if ws == nil {
		return false
	}
	return (key != "" && ws.Lookup(key+"/"+kind) != nil) || ws.Lookup(kind) != nil
}

// WordNamesIn lists the names of every sentence t has of its own.
func WordNamesIn(t lang.Tag) []string {
	ws := set(t)
	if t == lang.EN || ws == nil {
		if t == lang.EN {
			return WordNames()
		}
		return nil
	}
	var out []string
	for _, tm := range ws.Templates() {
		out = append(out, tm.Name())
	}
	return out
}
