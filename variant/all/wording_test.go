package all

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/templates"
	"github.com/refereed/refereed/variant"
)

// ruleID is how the project's docs name a rule: players are told the rule in words.
var ruleID = regexp.MustCompile(`\b[A-Z]{2}-D\d+\b|rules\.md|\b0\.[34][a-c]?\b`)

// Issue 10 item 5: nothing a player receives from a game names an internal rule ID: not the
// notices, rejections, warnings, end reasons or views. Each game is played through lines that
// are refused, warned about and accepted, up to an end.
func TestNoRuleIDsForPlayers(t *testing.T) {
	cases := []struct {
		key, fen string
		lines    []string // sent by whoever is to act, or "black: ..."; refused ones are fine
	}{
		{"orthodox", "", []string{"e4", "Ke2", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7", "Qxf7#", "draw offer"}},
		{"orthodox", "4k3/8/8/8/8/8/3r4/4K1N1 w - - 0 1", []string{"Kxd2"}},
		{"transactional", "", []string{"(C)", "T9: e4", "e4 (R)", "d4", "e5 (C)", "Bb5", "Bxd7+ (R)", "a3", "a4", "a5 (R)", "d5", "EP? e4", "white: draw offer", "black: draw accept"}},
		{"transactional", "4k3/8/8/8/8/8/4P3/R3K3 w - - 99 60", []string{"Ra2"}},
		{"progressive", "", []string{"e4", "e5", "e5, Qh4", "3: Bc4, Bxf7+, Nf3", "Bc4, Bxf7+", "Kxf7, a6, a5, a4", "Ke7, a6, a5, a4", "resign"}},
		{"progressive-italian", "", []string{"e4", "e5, Qh4", "3: Bc4, Bxf7+, Nf3", "Nf3, Nxh4, Bc4", "resign"}},
		{"progressive", "4k3/8/8/8/8/8/3r4/4K1N1 w - - 0 1", []string{"Kxd2, Ke3", "Kxd2"}},
		{"conditional", "", []string{"C: !d4", "A: e4", "B: e5", "C: Zz?a/b", "C: !d4", "B: e5", "A: Qh5+", "A: Nc6", "B: Nf3", "draw offer"}},
		{"conditional", "1r4k1/8/5P2/8/8/p7/P7/K7 w - - 0 1", nil}, // forced check
		{"conditional", "k7/8/8/8/8/8/Pr6/4K3 w - - 99 80", []string{"A: Ra1+", "A: Kf1 C: !Kg1"}},
		{"conditional", "7k/8/8/6Q1/8/8/8/K7 w - - 0 1", []string{"A: Qg6 C: !Qg7"}},
	}
	for _, c := range cases {
		g, err := variant.MustLookup(c.key).New(variant.Options{FEN: c.fen})
		if err != nil {
			t.Fatal(err)
		}
		var told []string
		look := func(v variant.Game) {
			told = append(told, v.View(variant.AsWhite).Diagram(), v.View(variant.AsBlack).Diagram(), v.Outcome().Reason)
		}
		look(g)
		for _, l := range c.lines {
			by := chess.White
			if act := g.ToAct(); len(act) > 0 {
				by = act[0]
			}
			if rest, ok := strings.CutPrefix(l, "black: "); ok {
				by, l = chess.Black, rest
			} else if rest, ok := strings.CutPrefix(l, "white: "); ok {
				by, l = chess.White, rest
			}
			cmd, warns, err := g.Resolve(by, l)
			for _, w := range warns {
				told = append(told, w.Text)
			}
			if err == nil {
				var ns []variant.Notice
				ns, err = g.Submit(cmd)
				for _, n := range ns {
					told = append(told, templates.NoticeText(n.Kind, n.Words, n.Text, n.Args))
				}
			}
			if err != nil {
				told = append(told, err.Error())
			}
			look(g)
		}
		if !g.Outcome().Over() && len(c.lines) > 0 && c.lines[len(c.lines)-1] != "draw offer" {
			t.Errorf("%s %q: the game did not end, so its end texts were not seen", c.key, c.lines)
		}
		for _, s := range told {
			if id := ruleID.FindString(s); id != "" {
				t.Errorf("%s: a rule ID (%s) in %q", c.key, id, s)
			}
		}
	}
}

// Issue 10 item 5: a draw offer asks only the opponent to answer it.
func TestDrawOfferAsksOnlyTheOpponent(t *testing.T) {
	for _, key := range variant.Keys() {
		g, _ := variant.MustLookup(key).New(variant.Options{})
		cmd, _, err := g.Resolve(chess.White, "DRAW OFFER")
		if err != nil {
			t.Fatal(err)
		}
		ns, err := g.Submit(cmd)
		if err != nil {
			t.Fatal(err)
		}
		var toWhite, toBlack []string
		for _, n := range ns {
			text := templates.NoticeText(n.Kind, n.Words, n.Text, n.Args)
			if n.To.Has(chess.White) {
				toWhite = append(toWhite, text)
			}
			if n.To.Has(chess.Black) {
				toBlack = append(toBlack, text)
			}
		}
		w, b := strings.Join(toWhite, "\n"), strings.Join(toBlack, "\n")
		if strings.Contains(w, "ACCEPT") || !strings.Contains(w, "You offer a draw") {
			t.Errorf("%s: the offerer is told %q", key, w)
		}
		if !strings.Contains(b, "White offers a draw. Reply DRAW ACCEPT or DRAW DECLINE.") {
			t.Errorf("%s: the opponent is told %q", key, b)
		}
	}
}

// Issue 10 item 5: a mail that tells a Transactional player it is his turn does not say it
// twice (the notice says it; his view under it does not repeat it).
func TestTransactionalTurnSaidOnce(t *testing.T) {
	g, _ := variant.MustLookup("transactional").New(variant.Options{})
	send(t, g, "e4")
	cmd, _, _ := g.Resolve(chess.Black, "d5")
	ns, _ := g.Submit(cmd)
	_ = ns
	cmd, _, _ = g.Resolve(chess.White, "Nf3")
	ns, _ = g.Submit(cmd)
	mail := ""
	for _, n := range ns {
		if n.To.Has(chess.Black) {
			mail += templates.NoticeText(n.Kind, n.Words, n.Text, n.Args) + "\n"
		}
	}
	mail += g.View(variant.AsBlack).Diagram()
	if n := strings.Count(strings.ToLower(mail), "your turn"); n != 1 || strings.Contains(mail, "move(s) pending") {
		t.Errorf("Black's mail says it is his turn %d times:\n%s", n, mail)
	}
}

// Every game names its turns for the subjects of its mails (variant.TurnNamer): a name for
// each player the game waits for, none for the other, none once the game is over.
func TestEveryGameNamesItsTurns(t *testing.T) {
	lines := map[string][]string{
		"orthodox":            {"e4", "e5", "Nf3", "resign"},
		"transactional":       {"e4", "d5 (C)", "Nf3 (R)", "resign"},
		"progressive":         {"d4", "d5, Nc6", "Bf4, Bxc7, Bxd8", "resign"},
		"progressive-italian": {"d4", "d5, Nc6", "Bf4, e3, Bd3", "resign"},
		"conditional":         {"A: e4 C: !d4", "B: e5", "A: Nc6 C: !Nf6", "resign"},

		"kriegspiel":             {"e4", "e5", "Nf3", "resign"},
		"progressive-kriegspiel": {"e4", "e5", "Nc6", "resign"},
		"trainwreck":             {"e2-e4 / b8-c6", "d7-d5 / g1-f3", "resign"},
		"trainwreck-three":       {"e2-e4 / b8-c6", "d7-d5, e7-e5 / g1-f3", "resign"},
		"synchronous":            {"e4", "e5", "Nf3", "resign"}, "korolev": {"e4", "e5", "Nf3", "resign"},
	}
	for _, key := range variant.Keys() {
		g, err := variant.MustLookup(key).New(variant.Options{})
		if err != nil {
			t.Fatal(err)
		}
		n, ok := g.(variant.TurnNamer)
		if !ok {
			t.Errorf("%s: the game does not name its turns", key)
			continue
		}
		if len(lines[key]) == 0 {
			t.Errorf("%s: no lines to play in this test", key)
		}
		for i := 0; ; i++ {
			act := g.ToAct()
			for _, s := range []chess.Color{chess.White, chess.Black} {
				name := n.TurnName(s)
				if waited := slices.Contains(act, s); waited != (name != "") {
					t.Errorf("%s after %d lines: TurnName(%v) = %q, but the game waits for %v", key, i, s, name, act)
				}
			}
			if i == len(lines[key]) {
				break
			}
			send(t, g, lines[key][i])
		}
		if !g.Outcome().Over() {
			t.Errorf("%s: the game did not end", key)
		}
	}
}

// Issue 12 item 3: every refusal of every game is a sentence of templates/words, named in
// its code (variant.Refuse("kriegspiel/any-first", ...)); the sentence exists and names no
// rule ID. The only texts Go still words pass on another package's error as it stands
// (variant.Reject("%v", err)). Walk finds the sentences a refusal cannot fill.
func TestRefusalsAreSentences(t *testing.T) {
	files, _ := filepath.Glob("../../templates/words/*.tmpl")
	var src strings.Builder
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src.Write(b)
	}
	words := src.String()
	fset := token.NewFileSet()
	refusals := 0
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			fn := ""
			switch e := call.Fun.(type) {
			case *ast.Ident:
				fn = e.Name
			case *ast.SelectorExpr:
				if x, ok := e.X.(*ast.Ident); ok && x.Name == "variant" {
					fn = e.Sel.Name
				}
			}
			arg := ""
			if lit, ok := call.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
				arg, _ = strconv.Unquote(lit.Value)
			}
			at := fset.Position(call.Pos())
			switch {
			case fn == "Reject" && (arg != "%v" || len(call.Args) != 2):
				t.Errorf("%v: Reject passes on another package's error as it stands, Reject(\"%%v\", err); a game's own words are a sentence, said with Refuse", at)
			case fn != "Refuse":
			case arg == "":
				t.Errorf("%v: a refusal names its sentence as it stands, not computed", at)
			case !templates.HasWords("", arg) || !strings.Contains(words, `{{define "`+arg+`"}}`):
				t.Errorf("%v: no sentence %q in templates/words", at, arg)
			default:
				refusals++
				_, def, _ := strings.Cut(words, `{{define "`+arg+`"}}`)
				if end := strings.Index(def, "\n{{"); end > 0 {
					def = def[:end]
				}
				if id := ruleID.FindString(def); id != "" {
					t.Errorf("%v: sentence %q names a rule ID (%s)", at, arg, id)
				}
			}
			return true
		})
		return nil
	})
	if err != nil || refusals < 100 {
		t.Fatalf("read %d refusals of the games: %v", refusals, err)
	}
}

// Every record sentence stands for a sentence of a game's (templates/words/record.tmpl: the
// same fields, in a record's words): one without its player's sentence is a typo.
func TestRecordSentencesStandForOnes(t *testing.T) {
	for _, name := range templates.WordNames() {
		rest, ok := strings.CutPrefix(name, "record/")
		if !ok {
			continue
		}
		if !slices.Contains(templates.WordNames(), rest) {
			t.Errorf("%s stands for no sentence %q", name, rest)
		}
	}
}
