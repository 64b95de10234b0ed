package templates

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	texttemplate "text/template"
	"text/template/parse"
	"time"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/lang"
)

// Every language has every English sentence, and none English lacks.
func TestLanguagesComplete(t *testing.T) {
	english := WordNames()
	for _, l := range lang.All()[1:] {
		if set(l) == nil {
			t.Errorf("%s: no words/%s/*.tmpl at all", l, l)
			continue
		}
		own := WordNamesIn(l)
		for _, n := range english {
			if n != "words" && !slices.Contains(own, n) {
				t.Errorf("%s: sentence %q is missing (words/%s/)", l, n, l)
			}
		}
		for _, n := range own {
			if n != "words" && !slices.Contains(english, n) {
				t.Errorf("%s: sentence %q is not an English one", l, n)
			}
		}
	}
}

// English is said as before: Say and SayIn(EN) agree, and a language falls back to English
// for a sentence it lacks.
func TestSayInEnglish(t *testing.T) {
	args := Args{"N": 2, "Line": "Nf9", "Why": "no such square", "First": false, "Hint": true}
	if got, want := SayIn(lang.EN, "", "line-refused", args), Say("", "line-refused", args); got != want {
		t.Errorf("SayIn(en) = %q, Say = %q", got, want)
	}
	if got := SayIn(lang.DE, "", "no-such-sentence", nil); got != "[no-such-sentence]" {
		t.Errorf("missing: %q", got)
	}
	if got := SayIn(lang.Tag("xx"), "", "draw-offer", Args{"Me": false, "Sender": chess.White}); got != Say("", "draw-offer", Args{"Me": false, "Sender": chess.White}) {
		t.Errorf("unknown language: %q", got)
	}
}

// Every sentence of every language renders with the arguments English renders with, in
// every branch the arguments reach; and a language changes words only: a move, a number or
// an address that the English sentence prints, every translation prints too.
func TestLanguagesRender(t *testing.T) {
	shapes := shapesOf(words())
	names := WordNames()
	sort.Strings(names)
	for _, name := range names {
		sh := shapes[name]
		if sh == nil {
			continue
		}
		for v := 0; v < sh.variants(); v++ {
			args, checked := sh.args(v)
			var sb strings.Builder
			if err := words().ExecuteTemplate(&sb, name, args); err != nil {
				t.Errorf("en %s: %v does not render: %v", name, args, err)
				continue
			}
			en := sb.String()
			for _, l := range lang.All()[1:] {
				ws := set(l)
				if ws == nil || ws.Lookup(name) == nil {
					continue // TestLanguagesComplete says so
				}
				var sb strings.Builder
				if err := ws.ExecuteTemplate(&sb, name, args); err != nil {
					t.Errorf("%s %s: %v", l, name, err)
					continue
				}
				out := sb.String()
				if v == 0 {
					// The sentence goes into a mail: every line fits, the subject encodes.
					m := Mail{From: "refereed <referee@example.org>", To: "p@example.org", Subject: Subject(12, "Kriegspiel", strings.TrimSpace(out)),
						MessageID: "m@example.org", Date: time.Date(2026, 1, 2, 15, 4, 0, 0, time.UTC), Paragraphs: []string{strings.TrimSpace(out)}}
					if _, err := Render(m); err != nil {
						t.Errorf("%s %s: the mail does not render: %v", l, name, err)
					}
				}
				if strings.Contains(out, "<no value>") {
					t.Errorf("%s %s: <no value> in %q", l, name, out)
				}
				for _, c := range checked {
					if strings.Contains(en, c) && !strings.Contains(out, c) {
						t.Errorf("%s %s: English prints %q, the translation does not:\n  en: %s\n  %s: %s", l, name, c, en, l, out)
					}
				}
			}
		}
	}
}

// No translation cites a rule by its ID, nor leaves an English template's field name in
// plain text.
func TestLanguagesCiteNoRuleIDs(t *testing.T) {
	id := regexp.MustCompile(`\b[A-Z]{2}-D\d+|rules\.md|[TCESW]:L\d+`)
	for _, l := range lang.All()[1:] {
		ws := set(l)
		if ws == nil {
			continue
		}
		for _, tm := range ws.Templates() {
			if tm.Tree != nil && id.MatchString(tm.Tree.Root.String()) {
				t.Errorf("%s %q cites a rule", l, tm.Name())
			}
		}
	}
}

// kind is what a field holds, as the English sentences use it.
type kind struct {
	k    string   // "int", "float", "string", "color", "strings", "maps", "map"
	lits []string // the string literals it is compared with (eq .Kind "capture")
	elem *shape   // the fields of its elements (maps) or of it (map)
}

// shape is the fields a sentence reads, and what its dot is when it is not a map.
type shape struct {
	fields map[string]*kind
	dot    *kind // non-nil: the sentence is given a scalar ("kriegspiel/why" a string)
}

func newShape() *shape { return &shape{fields: map[string]*kind{}} }

// colours are the fields that hold a chess.Color.
var colours = map[string]bool{"Side": true, "By": true, "Other": true, "Turn": true, "Sender": true, "Next": true, "First": true}

// numbers are the fields that hold a count or a number (a game's, a line's).
var numbers = map[string]bool{"N": true, "K": true, "Of": true, "Max": true, "Limit": true, "Games": true, "Days": true, "Left": true,
	"Game": true, "Sent": true, "Waiting": true, "Players": true, "Rounds": true, "Round": true, "Done": true, "T": true, "Year": true,
	"Allowance": true, "Taken": true, "Asked": true, "KB": true, "Mine": true, "Theirs": true, "Own": true}

// dates are the fields that hold a moment, as the English "Mon 2006-01-02 15:04 UTC".
var dates = map[string]bool{"Due": true, "Since": true, "Flag": true, "When": true}

func (s *shape) field(name string) *kind {
	k := s.fields[name]
	if k == nil {
		k = &kind{k: "string"}
		if colours[name] {
			k.k = "color"
		} else if numbers[name] {
			k.k = "int"
		}
		s.fields[name] = k
	}
	return k
}

// shapesOf reads what each sentence of ts reads, walking its parse tree.
func shapesOf(ts *texttemplate.Template) map[string]*shape {
	trees := map[string]*parse.Tree{}
	for _, tm := range ts.Templates() {
		if tm.Tree != nil && tm.Name() != "words" {
			trees[tm.Name()] = tm.Tree
		}
	}
	w := &walker{trees: trees, shapes: map[string]*shape{}}
	for name := range trees {
		w.of(name)
	}
	return w.shapes
}

type walker struct {
	trees  map[string]*parse.Tree
	shapes map[string]*shape
}

// of is the shape of the sentence named name.
func (w *walker) of(name string) *shape {
	if s := w.shapes[name]; s != nil {
		return s
	}
	s := newShape()
	w.shapes[name] = s
	if tr := w.trees[name]; tr != nil {
		w.node(tr.Root, s)
	}
	return s
}

func (w *walker) node(n parse.Node, s *shape) {
	switch n := n.(type) {
	case *parse.ListNode:
		if n == nil {
			return
		}
		for _, c := range n.Nodes {
			w.node(c, s)
		}
	case *parse.ActionNode:
		w.pipe(n.Pipe, s)
	case *parse.IfNode:
		w.pipe(n.Pipe, s)
		w.node(n.List, s)
		w.node(n.ElseList, s)
	case *parse.WithNode:
		inner := newShape()
		w.node(n.List, inner)
		if f := fieldOf(n.Pipe); f != "" && len(inner.fields) > 0 {
			k := s.field(f)
			k.k, k.elem = "map", inner
		} else {
			w.pipe(n.Pipe, s)
		}
		w.node(n.ElseList, s)
	case *parse.RangeNode:
		inner := newShape()
		w.node(n.List, inner)
		if f := fieldOf(n.Pipe); f != "" {
			k := s.field(f)
			if len(inner.fields) > 0 {
				k.k, k.elem = "maps", inner
			} else {
				k.k = "strings"
			}
		}
		w.node(n.ElseList, s)
	case *parse.TemplateNode:
		if n.Pipe == nil {
			return
		}
		sub := w.of(n.Name)
		if len(n.Pipe.Cmds) == 1 && len(n.Pipe.Cmds[0].Args) == 1 {
			switch a := n.Pipe.Cmds[0].Args[0].(type) {
			case *parse.DotNode:
				if sub.dot != nil {
					if s.dot == nil {
						s.dot = &kind{}
					}
					*s.dot = *sub.dot
				}
				for f, k := range sub.fields {
					if s.fields[f] == nil || s.fields[f].k == "string" && len(s.fields[f].lits) == 0 {
						s.fields[f] = k
					}
				}
			case *parse.FieldNode:
				k := s.field(a.Ident[0])
				if sub.dot != nil {
					*k = *sub.dot
				} else if len(sub.fields) > 0 {
					k.k, k.elem = "map", sub
				}
			}
		}
	}
}

// fieldOf is the field a pipeline is, if it is one alone: "Notes" for {{range .Notes}}.
func fieldOf(p *parse.PipeNode) string {
	if p == nil || len(p.Cmds) != 1 || len(p.Cmds[0].Args) != 1 {
		return ""
	}
	if f, ok := p.Cmds[0].Args[0].(*parse.FieldNode); ok {
		return f.Ident[0]
	}
	return ""
}

func (w *walker) pipe(p *parse.PipeNode, s *shape) {
	if p == nil {
		return
	}
	for _, c := range p.Cmds {
		w.command(c, s)
	}
}

func (w *walker) command(c *parse.CommandNode, s *shape) {
	args := c.Args
	if len(args) == 0 {
		return
	}
	// what names the field or dot an argument is.
	what := func(a parse.Node) *kind {
		switch a := a.(type) {
		case *parse.FieldNode:
			return s.field(a.Ident[0])
		case *parse.DotNode:
			if s.dot == nil {
				s.dot = &kind{k: "string"}
			}
			return s.dot
		}
		return nil
	}
	if id, ok := args[0].(*parse.IdentifierNode); ok {
		switch id.Ident {
		case "eq", "ne":
			if len(args) == 3 {
				for _, pair := range [2][2]parse.Node{{args[1], args[2]}, {args[2], args[1]}} {
					k := what(pair[0])
					if k == nil {
						continue
					}
					switch lit := pair[1].(type) {
					case *parse.NumberNode:
						k.k = "int"
					case *parse.StringNode:
						k.k = "string"
						if !slices.Contains(k.lits, lit.Text) {
							k.lits = append(k.lits, lit.Text)
						}
					}
				}
			}
		case "len", "join":
			if k := what(args[1]); k != nil && k.k != "maps" {
				k.k = "strings"
			}
		case "index":
			if len(args) == 3 {
				if _, dot := args[1].(*parse.DotNode); dot {
					if str, ok := args[2].(*parse.StringNode); ok {
						s.field(str.Text)
					}
				} else if k := what(args[1]); k != nil {
					k.k = "strings"
				}
			}
		case "printf":
			if len(args) == 3 {
				if f, ok := args[1].(*parse.StringNode); ok && strings.HasSuffix(f.Text, "f") {
					if k := what(args[2]); k != nil {
						k.k = "float"
					}
					return
				}
			}
		}
	}
	for _, a := range args {
		switch a := a.(type) {
		case *parse.FieldNode:
			s.field(a.Ident[0])
		case *parse.PipeNode:
			w.pipe(a, s)
		}
	}
}

// variants is how many argument sets exercise the sentence: enough for every literal a
// field is compared with, and for 1, 2 and 5 (the plural categories) with true and false.
func (s *shape) variants() int {
	n := 4
	var walk func(*shape)
	walk = func(s *shape) {
		for _, k := range s.fields {
			n = max(n, len(k.lits)+1)
			if k.elem != nil {
				walk(k.elem)
			}
		}
		if s.dot != nil {
			n = max(n, len(s.dot.lits)+1)
		}
	}
	walk(s)
	return n
}

// args builds argument set v of the sentence, and the texts of it that every language must
// print whenever English does (moves, numbers, addresses: none a language translates).
func (s *shape) args(v int) (any, []string) {
	var checked []string
	if s.dot != nil {
		val, _ := value("Dot", s.dot, v, 0)
		return val, nil
	}
	m, c := s.fill(v, 0)
	checked = append(checked, c...)
	return m, checked
}

func (s *shape) fill(v, depth int) (map[string]any, []string) {
	m := map[string]any{}
	var checked []string
	names := make([]string, 0, len(s.fields))
	for f := range s.fields {
		names = append(names, f)
	}
	sort.Strings(names)
	for i, f := range names {
		val, c := value(f, s.fields[f], v, i+depth*50)
		m[f] = val
		checked = append(checked, c...)
	}
	return m, checked
}

// value is field f's value in argument set v; i makes numbers and texts distinct.
func value(f string, k *kind, v, i int) (any, []string) {
	switch k.k {
	case "int":
		n := [...]int{12 + i, 1, 2, 5}[v%4]
		if n < 10 {
			return n, nil
		}
		return n, []string{fmt.Sprint(n)}
	case "float":
		return 12.25 + float64(i), nil
	case "color":
		return chess.Color(v % 2), nil
	case "strings":
		if v%4 == 1 {
			return []string{fmt.Sprintf("s%d", i)}, nil
		}
		a, b := fmt.Sprintf("%s-%d-a", f, i), fmt.Sprintf("%s-%d-b", f, i)
		return []string{a, b}, []string{a, b}
	case "maps", "map":
		var out []map[string]any
		var checked []string
		for j := 0; j < 2; j++ {
			m, c := k.elem.fill(v+j, 1+j)
			out = append(out, m)
			checked = append(checked, c...)
		}
		if k.k == "map" {
			return out[0], checked
		}
		if v%4 == 1 {
			return out[:0], nil
		}
		return out, checked
	}
	if len(k.lits) > 0 {
		if v < len(k.lits) {
			return k.lits[v], nil
		}
		return fmt.Sprintf("other-%s", f), nil
	}
	if dates[f] {
		if v%4 == 1 {
			return "", nil
		}
		return time.Date(2026, 1, 2+v, 15, 4, 0, 0, time.UTC).Format("Mon 2006-01-02 15:04 UTC"), nil
	}
	if v%4 == 1 {
		return "", nil // a text left empty takes the other branch of {{if .X}}
	}
	val := fmt.Sprintf("%s%d", f, 70+i)
	return val, []string{val}
}
