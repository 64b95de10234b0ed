package chess

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestFENRoundTrip(t *testing.T) {
	for _, c := range loadPerft(t) {
		p, err := ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.FEN(); got != c.fen {
			t.Errorf("FEN round trip: got %q, want %q", got, c.fen)
		}
		if err := p.Validate(); err != nil {
			t.Errorf("%s: %v", c.id, err)
		}
	}
}

func TestFENErrors(t *testing.T) {
	for _, bad := range []string{
		"", "8/8/8", "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w",
		"8/8/8/8/8/8/8/8 x", "8/8/8/8/8/8/8/8 w KX", "8/8/8/8/8/8/8/8 w - e5", "8/8/8/8/8/8/8/8 w - - -1",
	} {
		if _, err := ParseFEN(bad); err == nil {
			t.Errorf("ParseFEN(%q) accepted", bad)
		}
	}
}

// A position holding only some men (a player's view) generates moves without a king to
// keep safe (rules.md §10).
func TestViewWithoutEnemyKing(t *testing.T) {
	start := Start()
	view := start.Only(White)
	p := Position{Board: view, Turn: White, EnPassant: NoSquare, Fullmove: 1}
	if got := len(p.LegalMoves(nil)); got != 20 {
		t.Fatalf("own men only: %d moves, want 20", got)
	}
	noKing := Position{Board: start.Only(Black), Turn: White, EnPassant: NoSquare}
	if got := len(noKing.LegalMoves(nil)); got != 0 {
		t.Fatalf("no white men: %d moves", got)
	}
}

// Korolev: a capture of the king is an ordinary pseudo-legal move.
func TestPseudoKingCapture(t *testing.T) {
	p, _ := ParseFEN("4k3/8/8/8/8/8/8/4R2K w - - 0 1")
	p.Turn = White
	moves := p.Generate(nil, MoveRules{Color: White, Pseudo: true})
	found := false
	for _, m := range moves {
		if m.From == E1 && m.To == E8 {
			found = true
		}
	}
	if !found {
		t.Fatal("Re1xe8 (king capture) missing from pseudo-legal moves")
	}
}

// Train Wreck fixtures TW-1 and TW-2 (fixtures.md §8): forward-only movement.
func TestForwardOnly(t *testing.T) {
	p := Start()
	if n := len(p.Generate(nil, MoveRules{Color: White, Pseudo: true, ForwardOnly: true})); n != 20 {
		t.Errorf("TW-1 white moves %d, want 20", n)
	}
	p.Play(Move{From: SquareAt(4, 1), To: SquareAt(4, 3), Kind: DoublePush})
	if n := len(p.Generate(nil, MoveRules{Color: Black, Pseudo: true, ForwardOnly: true})); n != 20 {
		t.Errorf("TW-1 black moves %d, want 20", n)
	}
	q, _ := ParseFEN("4k3/8/8/8/p2R3p/8/8/4K3 w - - 0 1")
	var got []string
	for _, m := range q.Generate(nil, MoveRules{Color: White, Pseudo: true, ForwardOnly: true, NoCastling: true}) {
		if m.From == SquareAt(3, 3) {
			got = append(got, m.UCI())
		}
	}
	want := "d4a4 d4d5 d4d6 d4d7 d4d8 d4h4"
	if g := strings.Join(sortStrings(got), " "); g != want {
		t.Errorf("TW-2 Rd4 moves %q, want %q", g, want)
	}
}

func sortStrings(s []string) []string {
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
	return s
}

func TestAttackCount(t *testing.T) {
	// fixtures.md §6: in the constructed PSC position, d5 is attacked by e4 and Nc3 for White.
	p, _ := ParseFEN("r1bqkbnr/ppp2ppp/2n5/3pp3/4P3/2N2N2/PPPP1PPP/R1BQKB1R w KQkq - 0 1")
	if n := p.AttackCount(SquareAt(3, 4), White); n != 2 {
		t.Errorf("white attackers of d5: %d, want 2", n)
	}
}

func TestNotationForms(t *testing.T) {
	p, _ := ParseFEN("r3k2r/1P6/8/3p4/4P3/5N2/8/R3K2R w KQkq - 0 1")
	cases := []struct {
		text, uci string
		warn      WarningCode
	}{
		{"Nf3-d4", "f3d4", 0}, {"Nd4", "f3d4", 0}, {"f3d4", "f3d4", 0}, {"N:d4", "f3d4", WarnCaptureMark},
		{"exd5", "e4d5", 0}, {"e:d5", "e4d5", 0}, {"e4xd5", "e4d5", 0}, {"exd5!?", "e4d5", 0},
		{"0-0", "e1g1", 0}, {"O-O-O", "e1c1", 0}, {"e1g1", "e1g1", 0},
		{"b8=Q", "b7b8q", 0}, {"b8(N)", "b7b8n", 0}, {"b8Q", "b7b8q", 0}, {"b7b8r", "b7b8r", 0}, {"bxa8=Q", "b7a8q", 0},
		{"Td1", "a1d1", WarnRookT}, {"b8=T", "b7b8r", WarnRookT}, {"b8T", "b7b8r", WarnRookT}, {"b8(T)", "b7b8r", 0}, {"Rhg1", "h1g1", 0}, {"R1d1", "a1d1", 0}, {"Nf3e5+", "f3e5", 0},
	}
	for _, c := range cases {
		m, warns, err := p.ParseMove(c.text)
		if err != nil {
			t.Errorf("%q: %v", c.text, err)
			continue
		}
		if m.UCI() != c.uci {
			t.Errorf("%q = %s, want %s", c.text, m.UCI(), c.uci)
		}
		if c.warn != 0 && (len(warns) == 0 || warns[0].Code != c.warn) {
			t.Errorf("%q: warnings %v, want code %d", c.text, warns, c.warn)
		}
	}
	for _, bad := range []string{"", "Nf9", "Zf3", "b8", "Rd7", "Nxe9", "Kxd5", "exd4", "xd5"} {
		if _, _, err := p.ParseMove(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// DECISION 0.3c: file-only captures f:d4 read as "the piece on the f-file" when no pawn fits.
func TestFileOnlyCapture(t *testing.T) {
	p, _ := ParseFEN("4k3/8/8/8/3p4/5N2/8/4K3 w - - 0 1")
	m, warns, err := p.ParseMove("f:d4")
	if err != nil || m.UCI() != "f3d4" || len(warns) == 0 || warns[0].Code != WarnFileCapture {
		t.Fatalf("f:d4 = %v %v %v, want f3d4 with a file-capture warning", m, warns, err)
	}
}

func TestDiagram(t *testing.T) {
	p := Start()
	d := p.Diagram(DiagramOptions{Bottom: Black, Marked: SquareAt(4, 1).Bit(), MarkLegend: "your locked squares"})
	for _, line := range strings.Split(d, "\n") {
		if len(line) > 72 {
			t.Errorf("line longer than 72 columns: %q", line)
		}
	}
	if !strings.Contains(d, "1 | R  N  B  K  Q  B  N  R | 1") && !strings.Contains(d, "2 | P  P  P [P] P  P  P  P | 2") {
		t.Errorf("black-side diagram wrong:\n%s", d)
	}
	if !strings.Contains(d, "    h  g  f  e  d  c  b  a") || !strings.Contains(d, "[x] your locked squares") {
		t.Errorf("black-side diagram lacks flipped files or legend:\n%s", d)
	}
}

func TestRepetitionHash(t *testing.T) {
	p := Start()
	h0 := p.Hash()
	for _, s := range []string{"Nf3", "Nf6", "Ng1", "Ng8"} {
		m, _, err := p.ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		p.Play(m)
	}
	if p.Hash() != h0 {
		t.Error("same position after knight shuffle, different hash")
	}
	p.Castling = 0
	if p.Hash() == h0 {
		t.Error("castling rights not in hash")
	}
}

// FIDE 9.2.3: an en passant right makes a position other only when the capture is legal.
func TestRepetitionHashEnPassant(t *testing.T) {
	for _, c := range []struct {
		fen   string
		other bool
	}{
		{"4k3/8/8/8/4Pp2/8/8/4K3 b - e3 0 1", true},       // fxe3 is legal
		{"7k/8/8/8/4Pp2/8/8/4K3 b - - 0 1", false},        // (no right)
		{"8/8/8/8/k3Pp1R/8/8/4K3 b - e3 0 1", false},      // fxe3 would open the rank to the king
		{"8/8/8/8/4P3/8/8/4K2k b - e3 0 1", false},        // no pawn beside
		{"1n6/7k/8/8/4Pp2/8/8/1B2K1N1 b - e3 0 1", false}, // fxe3 takes e4 off the b1-h7 diagonal
		{"1n6/7k/8/8/4Pp2/8/8/1B2K1N1 b - - 0 1", false},  // (no right)
	} {
		p, err := ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		q := p
		q.EnPassant = NoSquare
		if got := p.Hash() != q.Hash(); got != c.other {
			t.Errorf("%s: hash other than without the e.p. square: %v, want %v", c.fen, got, c.other)
		}
	}
}

// TestCorentingsNotationSuite runs the ready notation suite of github.com/corentings/chess
// (fixtures/valid_notation_tests.json): each algText and longAlgText must resolve to the move
// from pos1 to pos2, and SAN printed back must equal the suite's algText.
func TestCorentingsNotationSuite(t *testing.T) {
	dir := corentingsDir(t)
	data, err := os.ReadFile(filepath.Join(dir, "fixtures", "valid_notation_tests.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct{ Pos1, Pos2, AlgText, LongAlgText, UCIText, Description string }
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("empty suite")
	}
	for _, c := range cases {
		p, err := ParseFEN(c.Pos1)
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range []string{c.AlgText, c.LongAlgText, c.UCIText} {
			m, _, err := p.ParseMove(text)
			if err != nil {
				t.Errorf("%s: %q: %v", c.Description, text, err)
				continue
			}
			q := p
			q.Play(m)
			if q.Placement() != strings.Fields(c.Pos2)[0] {
				t.Errorf("%s: %q gives %s, want %s", c.Description, text, q.Placement(), c.Pos2)
			}
		}
		// SAN printed back equals the suite's text up to check marks and annotations, except
		// where the suite spells a redundant disambiguation (SAN disambiguates among legal
		// moves only: N5f6 is printed Nf6 when the other knight is pinned).
		m, _, _ := p.ParseMove(c.UCIText)
		got, want := stripMarks(p.SAN(m)), stripMarks(c.AlgText)
		if got != want && len(got) >= len(want) {
			t.Errorf("%s: SAN %q, want %q", c.Description, got, want)
		}
		if back, _, err := p.ParseMove(p.SAN(m)); err != nil || back != m {
			t.Errorf("%s: SAN %q does not read back: %v", c.Description, p.SAN(m), err)
		}
	}
}

// corentingsDir finds github.com/corentings/chess/v2@v2.3.2 in the module cache (its module
// zip is test data: go mod download fetches it; nothing of it is copied here).
func corentingsDir(t testing.TB) string {
	out, err := exec.Command("go", "mod", "download", "-json", "github.com/corentings/chess/v2@v2.3.2").Output()
	if err != nil {
		t.Skipf("corentings/chess module not available: %v", err)
	}
	var info struct{ Dir string }
	if err := json.Unmarshal(out, &info); err != nil || info.Dir == "" {
		t.Skipf("go mod download: %s", out)
	}
	return info.Dir
}

func stripMarks(s string) string { return strings.TrimRight(s, "+#!?") }

// Start is StartFEN read once: the same position, Zobrist key included.
func TestStartIsStartFEN(t *testing.T) {
	p, err := ParseFEN(StartFEN)
	if s := Start(); err != nil || s != p || s.Hash() != p.Hash() {
		t.Fatalf("Start() = %s (hash %x), ParseFEN(StartFEN) = %s (hash %x), %v", s.FEN(), s.Hash(), p.FEN(), p.Hash(), err)
	}
}

// ICCF numeric notation (issue 25): file and rank digits, a fifth digit for the promotion,
// castling as the king's move; it resolves as coordinates do, and Numeric writes it back.
func TestNumericNotation(t *testing.T) {
	for _, c := range []struct{ fen, text, uci string }{
		{StartFEN, "5254", "e2e4"},
		{StartFEN, "7163", "g1f3"},
		{"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "27281", "b7b8q"},
		{"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "27284+", "b7b8n"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "5171", "e1g1"},
		{"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "5838", "e8c8"},
	} {
		p, err := ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		m, _, err := p.ParseMove(c.text)
		if err != nil || m.UCI() != c.uci {
			t.Errorf("%s: %v %v, want %s", c.text, m, err, c.uci)
			continue
		}
		if got := Numeric(m); !strings.HasPrefix(c.text, got) {
			t.Errorf("Numeric(%s) = %s, want %s", c.uci, got, c.text)
		}
	}
	for _, c := range []struct{ text, want string }{
		{"5294", "files and ranks are 1 to 8"},
		{"525", "4 digits, or 5"},
		{"52545", "fifth digit"},
		{"2728", "say which piece"},
		{"hello there", `"hello there" is not a command`},
		{"thanks", "is not a command"},
		{"SHOW 2", `"SHOW 2" is not a command`}, {"Sd4", "'S' is not a piece letter"},
	} {
		p, _ := ParseFEN("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
		if c.text == "5294" || c.text == "525" || c.text == "52545" {
			p = Start()
		}
		if _, _, err := p.ParseMove(c.text); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.text, err, c.want)
		}
	}
}
