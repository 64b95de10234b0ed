package record

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

func readAll(t *testing.T, s string) ([]*Record, []error) {
	t.Helper()
	rd := NewReader(strings.NewReader(s))
	var recs []*Record
	var errs []error
	for i := 0; i < 100; i++ {
		rec, err := rd.Next()
		if err == io.EOF {
			return recs, errs
		}
		var syn *SyntaxError
		if errors.As(err, &syn) {
			errs = append(errs, err)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, rec)
	}
	t.Fatal("reader does not end")
	return nil, nil
}

func TestReaderGames(t *testing.T) {
	in := "\xef\xbb\xbf[Event \"A \\\"quoted\\\" event\"]\n[White \"X\"] [Black \"Y\"]\n\n1. e4 {a comment\n[not a tag]} e5 2. Nf3 (2. f4 exf4) Nc6 1-0\n\n" +
		"% escape line\n1. d4 d5 *\n\n" +
		"[Event \"no blank line between games\"]\n1. c4 0-1\n[Event \"next\"]\n1. e4 *\n"
	recs, errs := readAll(t, in)
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	if len(recs) != 4 {
		t.Fatalf("%d games, want 4", len(recs))
	}
	if got := recs[0].Tag("Event"); got != `A "quoted" event` {
		t.Errorf("escaped tag value %q", got)
	}
	if recs[0].Tag("Black") != "Y" || recs[0].Line != 1 {
		t.Errorf("two tags on one line: %+v", recs[0])
	}
	if !strings.Contains(recs[0].Movetext, "[not a tag]") {
		t.Errorf("a [ inside a comment ended the game: %q", recs[0].Movetext)
	}
	if recs[1].Movetext != "1. d4 d5 *" || recs[1].Number != 2 {
		t.Errorf("tagless game: %+v", recs[1])
	}
	if recs[3].Tag("Event") != "next" || recs[3].Number != 4 {
		t.Errorf("game 4: %+v", recs[3])
	}
}

func TestReaderSkipsBadGame(t *testing.T) {
	in := "[Event \"ok\"]\n1. e4 *\n\n[Event unquoted]\n1. d4 *\n\n[Event \"after\"]\n1. c4 *\n"
	recs, errs := readAll(t, in)
	if len(errs) != 1 || len(recs) != 2 {
		t.Fatalf("games %d, errors %v", len(recs), errs)
	}
	if !strings.Contains(errs[0].Error(), "game 2") || !strings.Contains(errs[0].Error(), "double quotes") {
		t.Errorf("error does not name the game and the fault: %v", errs[0])
	}
	if recs[1].Tag("Event") != "after" {
		t.Errorf("reader did not go on after the bad game")
	}
}

func TestReaderBoundsGameSize(t *testing.T) {
	rd := NewReader(strings.NewReader("[Event \"big\"]\n" + strings.Repeat("e4 e5 ", 2000) + "*\n\n[Event \"next\"]\n1. d4 *\n"))
	rd.MaxGameBytes = 1000
	_, err := rd.Next()
	var syn *SyntaxError
	if !errors.As(err, &syn) || !strings.Contains(syn.Msg, "longer than") {
		t.Fatalf("oversized game: %v", err)
	}
	rec, err := rd.Next()
	if err != nil || rec.Tag("Event") != "next" {
		t.Fatalf("after an oversized game: %v %v", rec, err)
	}
}

func TestTokenize(t *testing.T) {
	toks, err := Tokenize("1. e4 $1 e5!? {c} 2.Nf3 ; rest\n (2. f4 (2. d4)) 4 Kxd8, e5 Nxc7+(C) T2: Qxc7 (R) e8(Q) 1/2-1/2", nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tk := range toks {
		got = append(got, map[TokenKind]string{Symbol: "S", Number: "N", Comma: ",", Paren: "P", Comment: "C", NAG: "$", Result: "R"}[tk.Kind]+":"+tk.Text)
	}
	want := "N:1. S:e4 $:$1 S:e5!? C:c S:2.Nf3 C: rest N:4 S:Kxd8 ,:, S:e5 S:Nxc7+ P:(C) S:T2: S:Qxc7 P:(R) S:e8(Q) R:1/2-1/2"
	if g := strings.Join(got, " "); g != want {
		t.Errorf("tokens\n got %s\nwant %s", g, want)
	}
	// rules.md 0.3a: a promotion in parentheses against its move stays in the move, with the
	// marks after it; with a space before it, it is a Paren token that keeps its marks.
	for _, c := range []struct{ in, want string }{
		{"33... cxd1(Q)+ 34. Kxd1", "N:33... S:cxd1(Q)+ N:34. S:Kxd1"},                              // E:L989
		{"c:d8(Q)# a1(Q)+ bxa8(B) c8(N), Nxa7", "S:c:d8(Q)# S:a1(Q)+ S:bxa8(B) S:c8(N) ,:, S:Nxa7"}, // E:L1016, E:L1033
		{"T9: d1(Q)+(C) T10: a8(N)", "S:T9: S:d1(Q)+ P:(C) S:T10: S:a8(N)"},
		{"T9: d1 (Q)+ (C) e8 (q)", "S:T9: S:d1 P:(Q)+ P:(C) S:e8 P:(q)"},
		{"g7?a8(Q)/Kc2, e8(t) Nb4(R)", "S:g7?a8(Q)/Kc2 ,:, S:e8(t) S:Nb4(R)"},
		{"e4(e5 Nf3) d4(Nf3) d5 (C)", "S:e4 S:d4 S:d5 P:(C)"}, // variations stay variations
		// Issue 33: "e.p." apart from its move, as the literature writes it, is the move's.
		{"5. exd6 e.p. Qxd6 6. bxa3  ep {c} e.p.", "N:5. S:exd6 e.p. S:Qxd6 N:6. S:bxa3  ep C:c S:e.p."},
	} {
		toks, err := Tokenize(c.in, nil)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		var got []string
		for _, tk := range toks {
			got = append(got, map[TokenKind]string{Symbol: "S", Number: "N", Comma: ",", Paren: "P", Comment: "C", NAG: "$", Result: "R"}[tk.Kind]+":"+tk.Text)
		}
		if g := strings.Join(got, " "); g != c.want {
			t.Errorf("%q:\n got %s\nwant %s", c.in, g, c.want)
		}
	}
	for _, bad := range []string{"{open", "(1. e4", "e4 )"} {
		if _, err := Tokenize(bad, nil); err == nil {
			t.Errorf("Tokenize(%q) accepted", bad)
		}
	}
}

func TestWrite(t *testing.T) {
	var sb strings.Builder
	if err := Write(&sb, []Tag{{"White", "A"}, {"Variant", "Progressive"}}, strings.Repeat("1. e4 e5 ", 20), "1-0"); err != nil {
		t.Fatal(err)
	}
	out := sb.String()
	if !strings.HasPrefix(out, "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"A\"]\n[Black \"?\"]\n[Result \"1-0\"]\n[Variant \"Progressive\"]\n\n") {
		t.Errorf("tags:\n%s", out)
	}
	for _, l := range strings.Split(out, "\n") {
		if len(l) > 79 {
			t.Errorf("line over 79 columns: %q", l)
		}
	}
	recs, errs := readAll(t, out)
	if len(errs) != 0 || len(recs) != 1 || recs[0].Tag("Variant") != "Progressive" {
		t.Errorf("written record does not read back: %v %v", recs, errs)
	}
}

// FuzzReader: any input gives records or errors, never a panic or an endless loop.
func FuzzReader(f *testing.F) {
	f.Add("[Event \"x\"]\n1. e4 {c} e5 (1... c5) 1-0\n")
	f.Add("[A \"\\\"]\n\n1.")
	f.Add("{[\n[B \"c\"]\n}")
	f.Add("[Variant \"Transactional\"]\n1. T1: d1(Q)+(C) T2: a8 (N) T3: e8 (Q)+ (R) *\n")
	f.Add("33... cxd1(Q)+ 34. c:d8(Q)# a1(Q)+ 1-0\n")
	f.Add("[Variant \"Conditional\"]\n1. g8 Kb2 g7?a8(Q)/Kc2 *\n")
	f.Fuzz(func(t *testing.T, s string) {
		rd := NewReader(strings.NewReader(s))
		for i := 0; i <= len(s)+1; i++ {
			rec, err := rd.Next()
			if err == io.EOF {
				return
			}
			if rec != nil {
				Tokenize(rec.Movetext, nil)
			}
		}
		t.Fatalf("more games than bytes in %q", s)
	})
}

func FuzzTokenize(f *testing.F) {
	f.Add("1. e4 e5 2. Nf3 (2. f4 {x} exf4) Nc6 (C) $4 1-0")
	f.Add("cxd1(Q)+ c:d8(Q)# d1(Q)+(C) a8 (N)+ g7?a8(Q)/Kc2 e8(")
	f.Fuzz(func(t *testing.T, s string) {
		toks, err := Tokenize(s, nil)
		if err != nil {
			return
		}
		for _, tk := range toks {
			if tk.Offset < 0 || tk.Offset >= len(s) {
				t.Fatalf("token %+v outside input", tk)
			}
		}
	})
}

// A move number read from its own token or glued to the move reads alike.
func TestMoveText(t *testing.T) {
	for _, c := range []struct {
		tok       Token
		num, move string
	}{
		{Token{Kind: Number, Text: "12."}, "12.", ""},
		{Token{Kind: Symbol, Text: "12.e4"}, "12.", "e4"},
		{Token{Kind: Symbol, Text: "3...Nf6"}, "3...", "Nf6"},
		{Token{Kind: Symbol, Text: "e4"}, "", "e4"},
		{Token{Kind: Symbol, Text: "12."}, "", "12."},
	} {
		if num, move := MoveText(c.tok); num != c.num || move != c.move {
			t.Errorf("%+v: %q %q, want %q %q", c.tok, num, move, c.num, c.move)
		}
	}
}

// Issue 21: what follows a result in the same run of lines is the next game, never skipped;
// a game's line is right when its tags follow a result line directly; positions in the
// movetext are lines and columns of the file.
func TestAfterTheResult(t *testing.T) {
	read := func(in string) []*Record {
		t.Helper()
		var out []*Record
		rd := NewReader(strings.NewReader(in))
		for {
			rec, err := rd.Next()
			if err == io.EOF {
				return out
			}
			if err != nil {
				t.Fatalf("%q: %v", in, err)
			}
			out = append(out, rec)
		}
	}
	for _, c := range []struct {
		in    string
		texts []string
		lines []int
	}{
		{"[Event \"a\"]\n\n1. e4 e5 2. Nf3 *\n1. Ke2 *\n", []string{"1. e4 e5 2. Nf3 *", "1. Ke2 *"}, []int{1, 4}},
		{"1. e4 e5 1-0 0-1\n", []string{"1. e4 e5 1-0", "0-1"}, []int{1, 1}},
		{"1. e4 {1-0 is a result} e5 (1... c5 0-1) 2. Nf3 *\n", []string{"1. e4 {1-0 is a result} e5 (1... c5 0-1) 2. Nf3 *"}, []int{1}},
		{"[A \"1\"]\n1. e4 *\n[B \"2\"]\n1. d4 *\n", []string{"1. e4 *", "1. d4 *"}, []int{1, 3}},
		{"[A \"1\"]\n\n1. e4 1-0\n\n\n[B \"2\"]\n\n1. d4\n*\n", []string{"1. e4 1-0", "1. d4\n*"}, []int{1, 6}},
	} {
		recs := read(c.in)
		if len(recs) != len(c.texts) {
			t.Errorf("%q: %d games, want %d", c.in, len(recs), len(c.texts))
			continue
		}
		for i, r := range recs {
			if r.Movetext != c.texts[i] || r.Line != c.lines[i] || r.Number != i+1 {
				t.Errorf("%q game %d: %q at line %d, want %q at line %d", c.in, i+1, r.Movetext, r.Line, c.texts[i], c.lines[i])
			}
		}
	}
	rec := read("[Event \"a\"]\n\n1. e4 e5\n2. Nf3, Nc6 *\n")[0]
	if line, col := rec.Position(strings.Index(rec.Movetext, ",")); line != 4 || col != 7 {
		t.Errorf("the comma is at %d:%d, want 4:7", line, col)
	}
}

// A run of lines holding many games is cut once, not once a game: 200,000 games on one line
// read in linear time (a hostile archive cannot make the reader quadratic), and pieces on
// several lines keep their lines.
func TestManyGamesInOneRun(t *testing.T) {
	rd := NewReader(strings.NewReader("1. e4 *\n1. d4 1-0 1. c4\n*\n"))
	var got []string
	for {
		rec, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%d:%q", rec.Line, rec.Movetext))
	}
	if want := `[1:"1. e4 *" 2:"1. d4 1-0" 2:"1. c4\n*"]`; fmt.Sprint(got) != want {
		t.Errorf("games %v, want %s", got, want)
	}
	rd = NewReader(strings.NewReader(strings.Repeat("1. e4 * ", 200000) + "\n"))
	rd.MaxGameBytes = 4 << 20
	n := 0
	for {
		if _, err := rd.Next(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != 200000 {
		t.Errorf("%d games, want 200000", n)
	}
}
