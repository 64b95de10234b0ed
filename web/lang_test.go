package web

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/lang"
	"github.com/refereed/refereed/templates"
)

// getWith fetches path with the request's headers set by prepare.
func getWith(t testing.TB, h http.Handler, path string, prepare func(*http.Request)) (*http.Response, string) {
	t.Helper()
	r := httptest.NewRequest(http.MethodGet, "http://archive.test"+path, nil)
	prepare(r)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	return rec.Result(), rec.Body.String()
}

var boardTable = regexp.MustCompile(`(?s)<table class="board">.*?</table>`)

// The archive speaks the browser's language (Accept-Language), or the one chosen with the
// switch under every page (kept in a cookie), else English; the language changes the words
// and nothing else: the same boards, moves and rows.
func TestArchiveLanguages(t *testing.T) {
	w := newWorld(t)
	id := w.newGame("orthodox")
	w.mail(id, chess.White, "e4")
	w.mail(id, chess.Black, "e5")
	w.mail(id, chess.White, "RESIGN")
	h := New(w.db)
	words := func(l lang.Tag, name string) string { return templates.SayIn(l, "", "web/"+name, nil) }

	_, en := getWith(t, h, "/game/1", func(*http.Request) {})
	if !strings.Contains(en, `<html lang="en">`) || !strings.Contains(en, ">"+words(lang.EN, "nav-games")+"<") {
		t.Fatalf("English page:\n%s", en)
	}
	_, de := getWith(t, h, "/game/1", func(r *http.Request) { r.Header.Set("Accept-Language", "de-AT,de;q=0.9,en;q=0.5") })
	if !strings.Contains(de, `<html lang="de">`) || !strings.Contains(de, ">"+words(lang.DE, "nav-games")+"<") {
		t.Errorf("Accept-Language de: not German:\n%s", de)
	}
	if a, b := boardTable.FindAllString(en, -1), boardTable.FindAllString(de, -1); len(a) == 0 || strings.Join(a, "") != strings.Join(b, "") {
		t.Errorf("the boards differ between English and German")
	}
	for _, part := range []string{"<pre>1. e4 e5", "0-1"} {
		if !strings.Contains(de, part) {
			t.Errorf("the German page lacks %q", part)
		}
	}
	res, fr := getWith(t, h, "/?lang=fr", func(r *http.Request) { r.Header.Set("Accept-Language", "de") })
	if !strings.Contains(fr, `<html lang="fr">`) {
		t.Errorf("?lang=fr over Accept-Language de: not French")
	}
	var cookie *http.Cookie
	for _, c := range res.Cookies() {
		if c.Name == langCookie {
			cookie = c
		}
	}
	if cookie == nil || cookie.Value != "fr" {
		t.Fatalf("the switch keeps no cookie: %v", res.Cookies())
	}
	_, again := getWith(t, h, "/tournaments", func(r *http.Request) { r.AddCookie(cookie); r.Header.Set("Accept-Language", "de") })
	if !strings.Contains(again, `<html lang="fr">`) {
		t.Errorf("the cookie's language is not kept")
	}
	_, other := getWith(t, h, "/ratings", func(r *http.Request) { r.Header.Set("Accept-Language", "ja, zh;q=0.8") })
	if !strings.Contains(other, `<html lang="en">`) {
		t.Errorf("a language the referee does not write: not English")
	}
	for _, l := range lang.All() {
		if !strings.Contains(en, `href="?lang=`+string(l)+`"`) {
			t.Errorf("the switch lacks %s", l)
		}
	}
	_, bad := getWith(t, h, "/?lang=klingon", func(*http.Request) {})
	if !strings.Contains(bad, `<html lang="en">`) {
		t.Errorf("?lang=klingon: not English")
	}
}
