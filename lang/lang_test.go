package lang

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/refereed/refereed/chess"
)

func TestParse(t *testing.T) {
	for in, want := range map[string]Tag{"de": DE, "DE": DE, "de-AT": DE, "de_CH": DE, "german": DE, "Deutsch": DE, " fr ": FR, "français": FR,
		"pt-BR": PT, "Polski": PL, "русский": RU, "ru": RU, "en-GB": EN, "English": EN, "nl-BE": NL, "Italiano": IT, "es-419": ES} {
		if got, err := Parse(in); err != nil || got != want {
			t.Errorf("Parse(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "xx", "klingon", "zh", "de fr"} {
		_, err := Parse(in)
		if err == nil {
			t.Errorf("Parse(%q) accepted", in)
			continue
		}
		for _, l := range All() {
			if !strings.Contains(err.Error(), string(l)+" ("+l.Name()+")") {
				t.Errorf("Parse(%q): %v does not list %s", in, err, l)
			}
		}
	}
	if len(All()) != 9 || All()[0] != EN || DE.Name() != "Deutsch" || RU.Name() != "Русский" {
		t.Errorf("All, Name: %v", All())
	}
}

func TestReadMove(t *testing.T) {
	for _, c := range []struct {
		t      Tag
		in, to string
	}{
		{DE, "Sf3", "Nf3"}, {DE, "Lxb5", "Bxb5"}, {DE, "e8=D", "e8=Q"}, {DE, "e8D", "e8Q"}, {DE, "e8(S)", "e8(N)"}, {DE, "Dd1+", "Qd1+"},
		{DE, "Tad1", "Rad1"}, {DE, "Kg1", "Kg1"}, {DE, "Sg1-f3", "Ng1-f3"}, {DE, "S1:d2", "N1:d2"}, {DE, "exd8=T#", "exd8=R#"},
		{DE, "O-O", "O-O"}, {DE, "0-0-0", "0-0-0"}, {DE, "e2e4", "e2e4"}, {DE, "5254", "5254"}, {DE, "♘f3", "♘f3"}, {DE, "e4", "e4"},
		{DE, "Nf3", "Nf3"}, {DE, "Sieg", "Sieg"}, {DE, "AUFGEBEN", "AUFGEBEN"}, {DE, "S", "S"}, {DE, "Sf3x", "Sf3x"},
		{FR, "Rg1", "Kg1"}, {FR, "Tg1", "Rg1"}, {FR, "Fc4", "Bc4"}, {FR, "Cf3", "Nf3"}, {FR, "Dxd8+", "Qxd8+"}, {FR, "a1=C", "a1=N"},
		{ES, "Ab5", "Bb5"}, {ES, "Rxe2", "Kxe2"}, {ES, "Cc3", "Nc3"}, {ES, "h8=D", "h8=Q"},
		{IT, "Ac4", "Bc4"}, {IT, "Re1", "Ke1"}, {IT, "Te1", "Re1"},
		{NL, "Pf3", "Nf3"}, {NL, "Lb5", "Bb5"}, {NL, "e8=P", "e8=N"},
		{PT, "Bb5", "Bb5"}, {PT, "Rf1", "Kf1"}, {PT, "Tf1", "Rf1"}, {PT, "Cf3", "Nf3"},
		{PL, "Sf3", "Nf3"}, {PL, "Gb5", "Bb5"}, {PL, "Wa1", "Ra1"}, {PL, "Hd1", "Qd1"}, {PL, "e8=H", "e8=Q"},
		{RU, "Кр:g1", "K:g1"}, {RU, "Крg1", "Kg1"}, {RU, "Кf3", "Nf3"}, {RU, "Фd1", "Qd1"}, {RU, "Лa1", "Ra1"}, {RU, "Сb5", "Bb5"},
		{RU, "крg1", "Kg1"}, {RU, "e8=Ф", "e8=Q"}, {RU, "e8К", "e8N"}, {RU, "Nf3", "Nf3"}, {RU, "Кр", "Кр"},
		{EN, "Sf3", "Sf3"},
	} {
		got := ReadMove(c.t, c.in)
		if got != c.to {
			t.Errorf("ReadMove(%s, %q) = %q, want %q", c.t, c.in, got, c.to)
		}
		if got != c.in {
			if _, err := chess.ParseNotation(got); err != nil {
				t.Errorf("ReadMove(%s, %q) = %q, which the parser refuses: %v", c.t, c.in, got, err)
			}
		}
	}
}

func TestWriteMove(t *testing.T) {
	for _, c := range []struct {
		t      Tag
		in, to string
	}{
		{DE, "Nf3", "Sf3"}, {DE, "exd8=Q+", "exd8=D+"}, {DE, "O-O-O#", "O-O-O#"}, {DE, "Rxa1", "Txa1"}, {DE, "e4", "e4"},
		{FR, "Kg1", "Rg1"}, {FR, "Rg1", "Tg1"}, {RU, "Kg1", "Крg1"}, {RU, "Nxe5", "Кxe5"}, {EN, "Nf3", "Nf3"},
		{DE, "hello", "hello"}, {DE, "Ng1-f3", "Sg1-f3"},
	} {
		if got := WriteMove(c.t, c.in); got != c.to {
			t.Errorf("WriteMove(%s, %q) = %q, want %q", c.t, c.in, got, c.to)
		}
	}
	if got := WriteMoves(DE, "e4, Nf3 Bb5"); got != "e4, Sf3 Lb5" {
		t.Errorf("WriteMoves: %q", got)
	}
	for _, c := range []struct {
		t      Tag
		in, to string
	}{
		{DE, "SERIES 3: e4, Sf3, Lb5", "SERIES 3: e4, Nf3, Bb5"}, {DE, "IF Sf6 e5 d6 exd6", "IF Nf6 e5 d6 exd6"},
		{DE, "DRAW ACCEPT", "DRAW ACCEPT"}, {FR, "RESIGN", "RESIGN"}, {FR, "Rg1; Tf1", "Kg1; Rf1"}, {DE, "Lade", "Lade"},
		{RU, "Крg1  Фd1", "Kg1  Qd1"}, {EN, "Sf3", "Sf3"},
	} {
		if got := ReadMoves(c.t, c.in); got != c.to {
			t.Errorf("ReadMoves(%s, %q) = %q, want %q", c.t, c.in, got, c.to)
		}
	}
}

// Every legal move of many positions, written in any language, reads back as its SAN, and the
// parser reads that as the same move.
func TestRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(39, 1))
	fens := []string{chess.StartFEN, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"4k3/1P6/8/8/8/8/6p1/4K2R w K - 0 1", "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1"}
	seen := 0
	for _, fen := range fens {
		for game := 0; game < 12; game++ {
			p, err := chess.ParseFEN(fen)
			if err != nil {
				t.Fatal(err)
			}
			for ply := 0; ply < 80; ply++ {
				moves := p.LegalMoves(nil)
				if len(moves) == 0 {
					break
				}
				for _, m := range moves {
					san := p.SAN(m)
					seen++
					for _, l := range All() {
						w := WriteMove(l, san)
						if r := ReadMove(l, w); r != san {
							t.Fatalf("%s: %s: %q -> %q -> %q", fen, l, san, w, r)
						}
					}
				}
				q := p
				q.Play(moves[rng.IntN(len(moves))])
				p = q
			}
		}
	}
	if seen < 10000 {
		t.Errorf("only %d moves tried", seen)
	}
}

func TestPlural(t *testing.T) {
	for _, c := range []struct {
		t    Tag
		n    int
		want string
	}{
		{RU, 1, "ход"}, {RU, 2, "хода"}, {RU, 5, "ходов"}, {RU, 11, "ходов"}, {RU, 21, "ход"}, {RU, 22, "хода"}, {RU, 0, "ходов"},
		{PL, 1, "ruch"}, {PL, 2, "ruchy"}, {PL, 5, "ruchów"}, {PL, 22, "ruchy"}, {PL, 12, "ruchów"}, {PL, 21, "ruchów"},
		{DE, 1, "Zug"}, {DE, 0, "Züge"}, {DE, 2, "Züge"}, {FR, 0, "coup"}, {FR, 1, "coup"}, {FR, 2, "coups"}, {EN, 1, "move"}, {EN, 7, "moves"},
	} {
		var got string
		switch c.t {
		case RU:
			got = c.t.Plural(c.n, "ход", "хода", "ходов")
		case PL:
			got = c.t.Plural(c.n, "ruch", "ruchy", "ruchów")
		case DE:
			got = c.t.Plural(c.n, "Zug", "Züge")
		case FR:
			got = c.t.Plural(c.n, "coup", "coups")
		default:
			got = c.t.Plural(c.n, "move", "moves")
		}
		if got != c.want {
			t.Errorf("%s %d: %q, want %q", c.t, c.n, got, c.want)
		}
	}
	if RU.PluralForms() != 3 || DE.PluralForms() != 2 {
		t.Error("PluralForms")
	}
}

func TestWhenAndSide(t *testing.T) {
	at := time.Date(2026, 1, 2, 15, 4, 0, 0, time.UTC)
	if got := EN.When(at); got != at.Format("Mon 2006-01-02 15:04 UTC") {
		t.Errorf("en: %q", got)
	}
	for l, want := range map[Tag]string{DE: "Fr 2026-01-02 15:04 UTC", RU: "пт 2026-01-02 15:04 UTC", FR: "ven. 2026-01-02 15:04 UTC"} {
		if got := l.When(at); got != want {
			t.Errorf("%s: %q", l, got)
		}
	}
	if DE.Side("White", "") != "Weiß" || RU.Side("Black", "gen") != "чёрных" || EN.Side("Black", "gen") != "Black" || DE.Side("x", "") != "x" {
		t.Error("Side")
	}
	if Capital("белые") != "Белые" || Capital("") != "" {
		t.Error("Capital")
	}
}

// FuzzReadMove: any token reads without panic, never longer than it came, and a token that
// reads to something else reads to text the move parser takes or refuses without panic.
func FuzzReadMove(f *testing.F) {
	for _, s := range []string{"Sf3", "e8=D", "Крg1", "кр:e1", "O-O", "5254", "♘f3", "Tg1+", "e8(Ф)", "", "К", "=", "Ф=Ф"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, l := range All() {
			got := ReadMove(l, s)
			if len(got) > len(s) {
				t.Fatalf("%s: %q grew to %q", l, s, got)
			}
			if utf8.ValidString(s) && !utf8.ValidString(got) {
				t.Fatalf("%s: %q read as invalid UTF-8 %q", l, s, got)
			}
			chess.ParseNotation(got)
			w := WriteMove(l, s)
			if len(w) > 4*len(s)+4 {
				t.Fatalf("%s: WriteMove(%q) grew to %q", l, s, w)
			}
		}
	})
}

func TestSpan(t *testing.T) {
	for _, c := range []struct {
		t    Tag
		in   string
		want string
	}{
		{DE, "3 days", "3 Tage"}, {DE, "1 day 2 hours", "1 Tag 2 Stunden"}, {RU, "2 days 5 hours 1 minute", "2 дня 5 часов 1 минута"},
		{RU, "21 days", "21 день"}, {PL, "less than a minute", "mniej niż minuta"}, {PL, "0 days", "0 dni"}, {EN, "3 days", "3 days"},
		{FR, "whatever it is", "whatever it is"}, {DE, "3 weeks", "3 weeks"}, {NL, "2 hours", "2 uur"},
	} {
		if got := c.t.SpanText(c.in); got != c.want {
			t.Errorf("%s %q: %q, want %q", c.t, c.in, got, c.want)
		}
	}
	if got := EN.Span(26*time.Hour + 30*time.Minute); got != "1 day 2 hours 30 minutes" {
		t.Errorf("en span: %q", got)
	}
}
