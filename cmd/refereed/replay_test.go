package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/refereed/refereed/referee"
	"github.com/refereed/refereed/store"
)

// mailAs sends each line as one mail from the given player of game id through the referee.
func mailAs(t *testing.T, dir string, id uint64, mails ...struct {
	side int
	body string
}) {
	t.Helper()
	db, err := store.Open(filepath.Join(dir, "refereed.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r := &referee.Referee{DB: db, Address: "referee@localhost"}
	var g *store.Game
	db.View(func(tx *store.Tx) error { g, err = tx.Game(id); return err })
	for i, m := range mails {
		p := g.Players[m.side]
		to := fmt.Sprintf("referee+g%d-%s-%s@localhost", id, []string{"w", "b"}[m.side], p.Token)
		raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nMessage-ID: <c%d.%d@test>\r\nSubject: move\r\n\r\n%s\r\n", p.Address, to, id, i, strings.ReplaceAll(m.body, "\n", "\r\n"))
		if err := r.Handle(store.InboxKey{Mailbox: "INBOX", UIDValidity: 7, UID: uint32(id*1000) + uint32(i)}, []byte(raw)); err != nil {
			t.Fatal(err)
		}
	}
}

// Issue 10 item 2: refereed's own export of a Conditional game replays with no warning, counts
// the plies as the export writes them, and reaches the same end; the export's log holds the
// canonical commands without a stray word. The game has a skipped "!move", a castling
// C-move, a cycle without a C-move, and ends drawn by agreement with a C-move pending,
// which the export reveals.
func TestReplayOfConditionalExport(t *testing.T) {
	dir := t.TempDir()
	if code, out, errs := run(t, "new", "--variant", "conditional", "--white", "ann@example.com", "--black", "bob@example.com", "--data", dir); code != exitOK {
		t.Fatalf("new: %d %s %s", code, out, errs)
	}
	const w, b = 0, 1
	mailAs(t, dir, 1, []struct {
		side int
		body string
	}{
		{w, "A: e4\nC: !Bd3"}, {b, "B: e5"},
		{b, "A: Nc6 C: !Ra6"}, {w, "B: Nf3"}, // !Ra6 is skipped: a7 blocks it
		{w, "A: O-O"}, {w, "C: Ee5?Nxe5/Rfe1"}, {b, "B: Nf6"},
		{b, "A: Be7 C: !O-O"}, {w, "B: Re1"},
		{w, "A: h3"}, {b, "B: d6"}, // no C-move
		{b, "A: Bg4 C: !Qd7\nDRAW OFFER"}, {w, "DRAW ACCEPT"},
	}...)
	code, pgn, errs := run(t, "export", "1", "--data", dir)
	if code != exitOK {
		t.Fatalf("export: %d %s", code, errs)
	}
	if strings.Contains(pgn, " then\n") || strings.Contains(pgn, "e8g8 e8g8 then") {
		t.Errorf("a stray record mark in the export's log:\n%s", pgn)
	}
	if !strings.Contains(pgn, "{Black's C-move, stated but not played: !Qd7}") {
		t.Errorf("the pending C-move is not in the record:\n%s", pgn)
	}
	file := filepath.Join(dir, "game.pgn")
	os.WriteFile(file, []byte(pgn), 0o644)
	code, out, errs := run(t, "replay", "--json", file)
	var rep replayReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != exitOK {
		t.Fatalf("replay: %d %v %s\n%s", code, err, errs, out)
	}
	if len(rep.Warnings) != 0 || rep.Error != nil {
		t.Errorf("replay of the export: warnings %q, error %+v\n%s", rep.Warnings, rep.Error, pgn)
	}
	if rep.Plies != 16 || rep.Result != "1/2-1/2" || rep.Reason != "draw agreed" {
		t.Errorf("replay: %d plies (the export writes 16), %s %s", rep.Plies, rep.Result, rep.Reason)
	}
}

// Issue 10 item 5: replay says when a file holds several games and which one it replayed;
// an empty or binary file is said to be one (exit 2), by replay and by verify.
func TestReplayAndVerifyTellWhatTheFileHolds(t *testing.T) {
	code, out, _ := run(t, "replay", "testdata/mixed.pgn")
	if code != exitOK || !strings.Contains(out, "testdata/mixed.pgn holds 4 games; this is game 1 (--game N replays another).") {
		t.Errorf("replay of a file of 4 games: %d\n%s", code, out)
	}
	code, out, _ = run(t, "replay", "--json", "--game", "3", "testdata/mixed.pgn")
	if code != exitOK && code != exitInvalid {
		t.Errorf("replay --game 3: exit %d", code)
	}
	var rep replayReport
	json.Unmarshal([]byte(out), &rep)
	if rep.Game != 3 || rep.Games != 4 {
		t.Errorf("replay --json --game 3: game %d of %d\n%s", rep.Game, rep.Games, out)
	}
	if code, _, errs := run(t, "replay", "--game", "9", "testdata/mixed.pgn"); code != exitUsage || !strings.Contains(errs, "testdata/mixed.pgn has no game 9 (it holds 4)") {
		t.Errorf("replay --game 9: %d %s", code, errs)
	}
	dir := t.TempDir()
	empty, blank, binary := filepath.Join(dir, "empty.pgn"), filepath.Join(dir, "blank.pgn"), filepath.Join(dir, "binary.pgn")
	os.WriteFile(empty, nil, 0o644)
	os.WriteFile(blank, []byte("\n\n  \n"), 0o644)
	os.WriteFile(binary, []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00"), 0o644)
	for _, c := range []struct{ file, want string }{
		{empty, "holds no game"}, {blank, "holds no game"}, {binary, "is not a PGN text file (it holds binary data)"},
	} {
		for _, cmd := range []string{"replay", "verify"} {
			code, out, errs := run(t, cmd, c.file)
			if code != exitUsage || !strings.Contains(errs, "refereed "+cmd+": "+c.file+" "+c.want) {
				t.Errorf("%s %s: exit %d, stderr %q, stdout %q", cmd, filepath.Base(c.file), code, errs, out)
			}
		}
	}
	// A file in Latin-1, as old archives are, is text.
	latin := filepath.Join(dir, "latin1.pgn")
	os.WriteFile(latin, []byte("[White \"M\xfcller\"]\n\n1. e4 e5 *\n"), 0o644)
	if code, out, errs := run(t, "verify", latin); code != exitOK || !strings.Contains(out, "1 games, 1 valid") {
		t.Errorf("verify of a Latin-1 file: %d %s %s", code, out, errs)
	}
}
