package templates

import (
	"fmt"
	"strings"
	"sync"
	texttemplate "text/template"

	"github.com/refereed/refereed/lang"
)

// The words: every sentence the referee and the games say to a player is a named template in
// words/*.tmpl, keyed by what it says ("line-refused", "draw-offer"); a game's own are named
// "<variant key>/<kind>" and may stand beside the shared ones. Code says which sentence and
// with what fields; the wording lives here.
// English's are words/*.tmpl; other languages' are words/<tag>/*.tmpl (languages.go).
var words = sync.OnceValue(func() *texttemplate.Template {
	return texttemplate.Must(texttemplate.New("words").Option("missingkey=error").Funcs(funcs(lang.EN)).ParseFS(files, "words/*.tmpl"))
})

// Args are the fields of a sentence.
type Args map[string]any

// Say renders the sentence named kind (a game's "<key>/<kind>" first, when key is given) with
// args. A sentence that does not exist is a mistake of ours: Say then names it instead of
// failing the mail, and HasWords lets a test find it first.
func Say(key, kind string, args Args) string {
	name := kind
	if key != "" && words().Lookup(key+"/"+kind) != nil {
		name = key + "/" + kind
	}
	text, ok := SayWords(name, args)
	if !ok {
		return fmt.Sprintf("[%s]", kind)
	}
	return strings.TrimSpace(text)
}

// SayWords renders the sentence named name with args, exactly as its fields make it (Say
// trims it); ok is false when there is no such sentence or a field it needs is missing. It
// words a game's refusals (variant.Rejection reads it; templates imports nothing of ours but lang).
func SayWords(name string, args map[string]any) (text string, ok bool) {
	var sb strings.Builder
	if err := words().ExecuteTemplate(&sb, name, args); err != nil {
		return "", false
	}
	return sb.String(), true
}

// NoticeText is the words of a notice: its own text when it has one, else the sentence named
// words (its kind when words is empty), filled from args.
func NoticeText(kind, words, text string, args map[string]any) string {
	if text != "" || (args == nil && words == "") {
		return text
	}
	if words == "" {
		words = kind
	}
	return Say("", words, args)
}

// HasWords reports whether a sentence named kind exists (for key's game, or shared).
func HasWords(key, kind string) bool {
	return (key != "" && words().Lookup(key+"/"+kind) != nil) || words().Lookup(kind) != nil
}

// WordNames lists the names of every sentence.
func WordNames() []string {
	var out []string
	for _, t := range words().Templates() {
		out = append(out, t.Name())
	}
	return out
}
