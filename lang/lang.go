// Package lang holds what a player's language changes in refereed: the languages the referee
// writes (Tag, Parse), the letters of the pieces in each (ReadMove, WriteMove), plural forms
// by the CLDR rules (Tag.Plural, through golang.org/x/text/feature/plural), colours and dates
// in words (Tag.Side, Tag.When). The sentences themselves live in package templates
// (words/<tag>/*.tmpl); this package holds no sentence.
//
// # Piece letters
//
// Each language writes the pieces with the initials chess players of that language use in
// print and in correspondence play, as the FIDE Handbook (Laws of Chess, Appendix C.3: "each
// piece is indicated by an abbreviation ... in the language of the country") and the ICCF
// code tables list them:
//
//	        king  queen  rook  bishop  knight
//	en      K     Q      R     B       N
//	de      K     D      T     L       S       König Dame Turm Läufer Springer
//	fr      R     D      T     F       C       roi dame tour fou cavalier
//	es      R     D      T     A       C       rey dama torre alfil caballo
//	it      R     D      T     A       C       re donna torre alfiere cavallo
//	nl      K     D      T     L       P       koning dame toren loper paard
//	pt      R     D      T     B       C       rei dama torre bispo cavalo
//	pl      K     H      W     G       S       król hetman wieża goniec skoczek
//	ru      Кр    Ф      Л     С       К       король ферзь ладья слон конь
//
// Pawns have no letter in any of them. The letters collide between languages (R is a rook
// in English and a king in French; S a knight in German and Polish, C a bishop in Russian
// when the Cyrillic С is meant), so a move is read with one language's letters only: the
// player's setting says which. Decisions:
//
//   - Only upper-case letters are piece letters (lower-case b, c, d ... are files). Russian
//     letters are read in either case, since no file is Cyrillic.
//   - A token that is not a move in the language's letters (a word, an English letter the
//     language does not use, a figurine ♘f3, castling O-O or 0-0, coordinate e2e4 or ICCF
//     numeric 5254) is returned unchanged: the chess parser then reads it as ever, and says
//     what is wrong when it cannot. So figurine and numeric notation stay everyone's.
//   - Latin look-alikes of Russian letters (C for С) are not read as Russian: a player
//     who types Latin letters is taken to mean the English ones.
//   - Promotion is written with the language's letter after =, /, in parentheses or bare
//     (e8=D, e8D, e8(D)), as the chess parser takes English ones.
//
// # Plural forms
//
// Tag.Plural picks one of the forms given for the language's CLDR cardinal categories of
// whole numbers, in CLDR's order (one, few, many, other): see Tag.Plural.
package lang

import (
	"fmt"
	"strings"

	"golang.org/x/text/language"
)

// Tag is a language the referee writes, by its ISO 639-1 code: "de". It is what a player's
// setting stores.
type Tag string

// The languages.
const (
	EN Tag = "en"
	DE Tag = "de"
	FR Tag = "fr"
	ES Tag = "es"
	IT Tag = "it"
	NL Tag = "nl"
	PT Tag = "pt"
	PL Tag = "pl"
	RU Tag = "ru"
)

// info is one language's row: everything this package knows of it.
type info struct {
	tag     Tag
	name    string   // its own name
	aliases []string // names a player may write for it, lower case
	// pieces are the letters of king, queen, rook, bishop and knight.
	pieces [5]string
	// white and black are the sides' names, without an article: the sentence gives the
	// article its grammar needs ("les Blancs", "las blancas", "il Bianco").
	white, black string
	// days are the weekdays' short names, Sunday first.
	days [7]string
}

var table = []info{
	{EN, "English", []string{"english", "englisch", "anglais", "inglés", "ingles", "inglese", "engels", "inglês", "angielski", "английский"},
		[5]string{"K", "Q", "R", "B", "N"}, "White", "Black",
		[7]string{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"}},
	{DE, "Deutsch", []string{"german", "deutsch", "allemand", "alemán", "aleman", "tedesco", "duits", "alemão", "niemiecki", "немецкий"},
		[5]string{"K", "D", "T", "L", "S"}, "Weiß", "Schwarz",
		[7]string{"So", "Mo", "Di", "Mi", "Do", "Fr", "Sa"}},
	{FR, "Français", []string{"french", "français", "francais", "französisch", "francés", "frances", "francese", "frans", "francês", "francuski", "французский"},
		[5]string{"R", "D", "T", "F", "C"}, "Blancs", "Noirs",
		[7]string{"dim.", "lun.", "mar.", "mer.", "jeu.", "ven.", "sam."}},
	{ES, "Español", []string{"spanish", "español", "espanol", "castellano", "spanisch", "espagnol", "spagnolo", "spaans", "espanhol", "hiszpański", "hiszpanski", "испанский"},
		[5]string{"R", "D", "T", "A", "C"}, "blancas", "negras",
		[7]string{"dom", "lun", "mar", "mié", "jue", "vie", "sáb"}},
	{IT, "Italiano", []string{"italian", "italiano", "italienisch", "italien", "italiaans", "włoski", "wloski", "итальянский"},
		[5]string{"R", "D", "T", "A", "C"}, "Bianco", "Nero",
		[7]string{"dom", "lun", "mar", "mer", "gio", "ven", "sab"}},
	{NL, "Nederlands", []string{"dutch", "nederlands", "niederländisch", "niederlandisch", "holländisch", "néerlandais", "neerlandais", "neerlandés", "olandese", "holandês", "holenderski", "нидерландский"},
		[5]string{"K", "D", "T", "L", "P"}, "Wit", "Zwart",
		[7]string{"zo", "ma", "di", "wo", "do", "vr", "za"}},
	{PT, "Português", []string{"portuguese", "português", "portugues", "portugiesisch", "portugais", "portugués", "portoghese", "portugees", "portugalski", "португальский"},
		[5]string{"R", "D", "T", "B", "C"}, "brancas", "pretas",
		[7]string{"dom", "seg", "ter", "qua", "qui", "sex", "sáb"}},
	{PL, "Polski", []string{"polish", "polski", "polnisch", "polonais", "polaco", "polacco", "pools", "polonês", "польский"},
		[5]string{"K", "H", "W", "G", "S"}, "białe", "czarne",
		[7]string{"niedz.", "pon.", "wt.", "śr.", "czw.", "pt.", "sob."}},
	{RU, "Русский", []string{"russian", "русский", "russisch", "russe", "ruso", "russo", "rosyjski", "russkij"},
		[5]string{"Кр", "Ф", "Л", "С", "К"}, "белые", "чёрные",
		[7]string{"вс", "пн", "вт", "ср", "чт", "пт", "сб"}},
}

func (t Tag) info() *info {
	for i := range table {
		if table[i].tag == t {
			return &table[i]
		}
	}
	return &table[0]
}

// All lists the languages, English first.
func All() []Tag {
	out := make([]Tag, len(table))
	for i, l := range table {
		out[i] = l.tag
	}
	return out
}

// Known reports whether t is one of All.
func (t Tag) Known() bool {
	for _, l := range table {
		if l.tag == t {
			return true
		}
	}
	return false
}

// Name is the language's name in itself: "Deutsch".
func (t Tag) Name() string { return t.info().name }

// String is the tag: "de".
func (t Tag) String() string { return string(t) }

// Parse reads a language as a player names it: a code ("de", "DE", "de-AT", "de_CH") or a
// name in English, in the language itself or in another of ours ("german", "Deutsch",
// "allemand"). Any other is refused with the list of those there are.
func Parse(s string) (Tag, error) {
	w := strings.ToLower(strings.TrimSpace(s))
	for _, l := range table {
		if w == string(l.tag) {
			return l.tag, nil
		}
		for _, a := range l.aliases {
			if w == a {
				return l.tag, nil
			}
		}
	}
	if w != "" && !strings.ContainsAny(w, " \t") {
		if bt, err := language.Parse(strings.ReplaceAll(w, "_", "-")); err == nil {
			base, _ := bt.Base()
			for _, l := range table {
				if base.String() == string(l.tag) {
					return l.tag, nil
				}
			}
		}
	}
	var names []string
	for _, l := range table {
		names = append(names, fmt.Sprintf("%s (%s)", l.tag, l.name))
	}
	return "", fmt.Errorf("%q is not a language I write; I write %s", clip(s), strings.Join(names, ", "))
}

func clip(s string) string {
	if r := []rune(s); len(r) > 20 {
		return string(r[:20]) + "..."
	}
	return s
}

// languageTag is t as x/text knows it.
func (t Tag) languageTag() language.Tag {
	if !t.Known() {
		return language.English
	}
	return language.MustParse(string(t))
}
