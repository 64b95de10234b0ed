package lang

import (
	"golang.org/x/text/feature/plural"
)

// forms are the CLDR cardinal categories a language's whole numbers fall in, in CLDR's order:
// the order in which Plural takes its forms.
func (t Tag) forms() []plural.Form {
	switch t.info().tag {
	case PL, RU:
		return []plural.Form{plural.One, plural.Few, plural.Many}
	}
	return []plural.Form{plural.One, plural.Other}
}

// PluralForms is how many forms Plural takes for t: 2 (one, other) in en, de, fr, es, it,
// nl, pt; 3 (one, few, many) in pl and ru.
func (t Tag) PluralForms() int { return len(t.forms()) }

// Plural picks the form for n among forms, given in the order of the CLDR cardinal
// categories t's whole numbers have: one and other in most of ours ("Zug", "Züge"); one,
// few and many in Polish and Russian ("ход", "хода", "ходов": 1 ход, 2 хода, 5 ходов,
// 21 ход). The category comes from golang.org/x/text/feature/plural. A category t has but
// forms lacks (too few forms given) takes the last form given; a category outside t's list
// (French "many" for millions) takes the last one too.
func (t Tag) Plural(n int, forms ...string) string {
	if len(forms) == 0 {
		return ""
	}
	if n < 0 {
		n = -n
	}
	f := plural.Cardinal.MatchPlural(t.languageTag(), n, 0, 0, 0, 0)
	for i, c := range t.forms() {
		if c == f && i < len(forms) {
			return forms[i]
		}
	}
	return forms[len(forms)-1]
}
