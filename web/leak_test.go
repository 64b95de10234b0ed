package web

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/store"
)

// TestNoLeak plays, in every game of hidden information, a game into a state with something
// hidden (a pending Transactional move, a stated C-move, a sealed synchronous move, a
// Kriegspiel attempt answered "No"), and checks that no page and no response header holds
// the hidden move, a token, a full address or a message id.
func TestNoLeak(t *testing.T) {
	for _, c := range []struct {
		key    string
		mails  []string // alternately White's and Black's
		hidden []string // the hidden move as the truth holds it
		empty  string   // a square the hidden move filled: empty on any board drawn
		shows  string   // what the game page does show
	}{
		{key: "transactional", mails: []string{"Nf3"}, hidden: []string{"g1f3", "Nf3", "f3", "g1"}, empty: "f3"},
		{key: "conditional", mails: []string{"A: e4\nC: !Qh5"}, hidden: []string{"Qh5", "h5"}, empty: "h5"},
		{key: "synchronous", mails: []string{"Nf3"}, hidden: []string{"g1f3", "Nf3", "f3", "g1", "to play"}, empty: "f3", shows: "turn 1"},
		{key: "korolev", mails: []string{"Nf3"}, hidden: []string{"g1f3", "Nf3", "f3", "g1", "to play"}, empty: "f3", shows: "turn 1"},
		// White's e4 is played, but Black does not know it; Black's axb6 was answered "No".
		{key: "kriegspiel", mails: []string{"e4", "axb6"}, hidden: []string{"a7b6", "axb6", "b6", "e4", "e2", "a7"}, empty: "e4", shows: "Black to play: move 1"},
		{key: "progressive-kriegspiel", mails: []string{"e4", "axb6"}, hidden: []string{"a7b6", "axb6", "b6", "e4", "e2", "a7"}, empty: "e4"},
	} {
		t.Run(c.key, func(t *testing.T) {
			w := newWorld(t)
			id := w.newGame(c.key)
			for i, m := range c.mails {
				w.mail(id, chess.Color(i%2), m)
			}
			// The hidden state is there: the log holds the hidden move.
			var log []string
			var secrets []string
			if err := w.db.View(func(tx *store.Tx) error {
				evs, err := tx.Events(id)
				for _, e := range evs {
					log = append(log, e.Text)
				}
				g, _ := tx.Game(id)
				for _, p := range g.Players {
					secrets = append(secrets, p.Token, p.Address, strings.ToUpper(p.Token))
				}
				return err
			}); err != nil {
				t.Fatal(err)
			}
			if g := w.game(id); g.Over() {
				t.Fatalf("game is %s", g.Status)
			}
			if !strings.Contains(strings.Join(log, "\n"), c.hidden[0]) {
				t.Fatalf("the log does not hold the hidden move %q: %q", c.hidden[0], log)
			}
			secrets = append(secrets, "@", "secretmid", "msg1", "referee+", "INBOX")
			h := New(w.db)
			paths := []string{"/", "/?status=active", "/?variant=" + c.key, "/?player=ann", "/player/ann", "/player/bob",
				fmt.Sprintf("/game/%d", id), fmt.Sprintf("/game/%d?ply=1", id), fmt.Sprintf("/game/%d?ply=0", id),
				fmt.Sprintf("/game/%d.pgn", id), "/tournaments"}
			for _, p := range paths {
				code, hd, body := get(t, h, p)
				if code >= 500 {
					t.Errorf("%s: %d", p, code)
				}
				all := body
				for k, vs := range hd {
					all += "\n" + k + ": " + strings.Join(vs, " ")
				}
				for _, s := range append(secrets, c.hidden...) {
					if s != "" && strings.Contains(all, s) {
						t.Errorf("%s (%d) shows %q:\n%s", p, code, s, all)
					}
				}
				for _, b := range boardsOf(body) {
					if sq := b[squareIndex(c.empty)]; sq != "" {
						t.Errorf("%s: a board shows %s on %s, which the hidden move filled", p, sq, c.empty)
					}
				}
				if p == fmt.Sprintf("/game/%d", id) && !strings.Contains(body, c.shows) {
					t.Errorf("%s does not show %q:\n%s", p, c.shows, body)
				}
				if strings.HasSuffix(p, ".pgn") && code != http.StatusNotFound {
					t.Errorf("%s: the PGN of a game in progress is served (%d)", p, code)
				}
			}
		})
	}
}

// boardsOf reads the boards drawn on a page (White at the bottom): each square's glyph, a1 = 0.
func boardsOf(page string) [][64]string {
	var out [][64]string
	for _, part := range strings.Split(page, `<table class="board">`)[1:] {
		part = part[:strings.Index(part, "</table>")]
		var b [64]string
		i := 0
		for _, cell := range strings.Split(part, "<td class=")[1:] {
			glyph := cell[strings.Index(cell, ">")+1 : strings.Index(cell, "</td>")]
			rank, file := 7-i/8, i%8
			b[rank*8+file] = glyph
			i++
		}
		if i != 64 {
			panic(fmt.Sprintf("a board of %d squares", i))
		}
		out = append(out, b)
	}
	return out
}

func squareIndex(s string) int { return int(s[1]-'1')*8 + int(s[0]-'a') }

// TestBoardsOf checks the reader of drawn boards on a game in progress of orthodox chess.
func TestBoardsOf(t *testing.T) {
	w := newWorld(t)
	id := w.newGame("orthodox")
	w.mail(id, chess.White, "Nf3")
	_, _, page := get(t, New(w.db), fmt.Sprintf("/game/%d", id))
	b := boardsOf(page)
	if len(b) != 1 || b[0][squareIndex("f3")] != "♘" || b[0][squareIndex("g1")] != "" || b[0][squareIndex("e8")] != "♚" {
		t.Fatalf("boards %q of\n%s", b, page)
	}
}
