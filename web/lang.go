package web

import (
	"context"
	"html/template"
	"net/http"
	"strings"

	"golang.org/x/text/language"

	"github.com/refereed/refereed/lang"
	"github.com/refereed/refereed/templates"
)

// The archive's language (issue 39): a page is said in the language its reader chose with the
// switch under every page (?lang=de, kept in a cookie for a year), else the first of his
// browser's Accept-Language the referee writes, else English. Only the words change: what a
// page shows is the same in every language. The words are sentences "web/<name>" of
// templates/words/web.tmpl; the names of games and what the store holds (a game's log, a
// reason) are shown as they are.

// langCookie keeps the language chosen with the switch.
const langCookie = "lang"

// matcher picks the referee's language closest to a browser's.
var matcher = func() language.Matcher {
	var tags []language.Tag
	for _, t := range lang.All() {
		tags = append(tags, language.Make(string(t)))
	}
	return language.NewMatcher(tags)
}()

type langKey struct{}

// pageLang is the language of the page r asks for, and r with it; a ?lang= choice is kept in
// a cookie.
func pageLang(w http.ResponseWriter, r *http.Request) (lang.Tag, *http.Request) {
	t := lang.Tag("")
	if q := r.URL.Query().Get("lang"); q != "" {
		if c, err := lang.Parse(q); err == nil {
			t = c
			http.SetCookie(w, &http.Cookie{Name: langCookie, Value: string(c), Path: "/", MaxAge: 365 * 24 * 3600, SameSite: http.SameSiteLaxMode})
		}
	}
	if t == "" {
		if c, err := r.Cookie(langCookie); err == nil {
			if p, err := lang.Parse(c.Value); err == nil {
				t = p
			}
		}
	}
	if t == "" {
		if h := r.Header.Get("Accept-Language"); h != "" && len(h) < 1000 {
			tag, _ := language.MatchStrings(matcher, h)
			base, _ := tag.Base()
			if p, err := lang.Parse(base.String()); err == nil {
				t = p
			}
		}
	}
	if t == "" {
		t = lang.EN
	}
	w.Header().Add("Vary", "Accept-Language, Cookie")
	return t, r.WithContext(context.WithValue(r.Context(), langKey{}, t))
}

// langOf is the language of r's page (English where none was chosen).
func langOf(r *http.Request) lang.Tag {
	if t, ok := r.Context().Value(langKey{}).(lang.Tag); ok {
		return t
	}
	return lang.EN
}

// say is the archive's sentence name in r's language.
func say(r *http.Request, name string, args templates.Args) string {
	return templates.SayIn(langOf(r), "", "web/"+name, args)
}

// pagesIn are the pages in each language: the same templates, their words said in it.
var pagesIn = func() map[lang.Tag]*template.Template {
	m := map[lang.Tag]*template.Template{}
	for _, t := range lang.All() {
		c := template.Must(pages.Clone())
		m[t] = c.Funcs(pageFuncs(t))
	}
	return m
}()

type langLink struct{ Tag, Name string }

// pageFuncs are the words of the pages in language t: w says a sentence, wa one with its
// fields given as name, value pairs; status and colour say what the store writes in English.
func pageFuncs(t lang.Tag) template.FuncMap {
	say := func(name string, args templates.Args) string { return templates.SayIn(t, "", "web/"+name, args) }
	var links []langLink
	for _, l := range lang.All() {
		links = append(links, langLink{string(l), l.Name()})
	}
	return template.FuncMap{
		"w": func(name string) string { return say(name, nil) },
		"wa": func(name string, kv ...any) string {
			args := templates.Args{}
			for i := 0; i+1 < len(kv); i += 2 {
				if k, ok := kv[i].(string); ok {
					args[k] = kv[i+1]
				}
			}
			return say(name, args)
		},
		"lang":  func() string { return string(t) },
		"langs": func() []langLink { return links },
		"status": func(s string) string {
			for _, k := range []string{"in progress", "finished"} {
				if rest, ok := strings.CutPrefix(s, k); ok {
					return say(strings.ReplaceAll(k, " ", "-"), nil) + rest
				}
			}
			return s
		},
		"colour": func(c string) string {
			switch c {
			case "White", "Black", "by lot":
				return say(strings.ToLower(strings.ReplaceAll(c, " ", "-")), nil)
			}
			return c
		},
	}
}
