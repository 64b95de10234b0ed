package referee

import (
	"strings"
	"testing"

	"github.com/refereed/refereed/archive"
	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/variant"
)

// Takebacks (issue 16 item 6): asked for by the player who just moved, standing across mails
// until accepted, declined, withdrawn or overtaken by a move; accepted, the turn comes out of
// the game and of its replay; none in a game that hides moves.
func TestTakeback(t *testing.T) {
	h := newHarness(t)
	id := h.newGame("orthodox")
	h.outbox()
	for _, c := range []struct {
		side      chess.Color
		line      string
		toSender  []string
		toOther   []string
		subjectTo string // the other's subject, when it matters
	}{
		{W, "TAKEBACK", []string{"refused", "only your last turn"}, nil, ""},
		{W, "e4", nil, nil, ""},
		{W, "TAKEBACK", []string{"You ask to take back your last turn (1. e4). The request stands until Black accepts or declines it, or moves."},
			[]string{"White asks to take back his last turn (1. e4). Reply TAKEBACK ACCEPT to agree"}, "your move (move 1); takeback asked"},
		{W, "TAKEBACK", []string{"you have already asked"}, nil, ""},
		{B, "TAKEBACK DECLINE", []string{"Black declines the takeback request."}, []string{"Black declines the takeback request."}, ""},
		{B, "TAKEBACK ACCEPT", []string{"no takeback request from your opponent to accept"}, nil, ""},
		{W, "TAKEBACK", []string{"one request a turn"}, nil, ""},
		{B, "e5", nil, nil, ""},
		{W, "Nf3", nil, nil, ""},
		{W, "TAKEBACK", []string{"You ask to take back your last turn (2. Nf3)"}, []string{"White asks"}, ""},
		{W, "TAKEBACK WITHDRAW", []string{"White withdraws the takeback request."}, []string{"White withdraws the takeback request."}, ""},
		{W, "TAKEBACK", []string{"one request a turn"}, nil, ""},
		{B, "Nc6", nil, nil, ""},
		{W, "d4", nil, nil, ""},
		{W, "TAKEBACK", []string{"You ask to take back your last turn (3. d4)"}, []string{"White asks"}, ""},
		{B, "TAKEBACK ACCEPT\nBOARD", []string{"Black agreed: White's last turn (3. d4) is taken back, and it is White's turn again."},
			[]string{"Black agreed: White's last turn (3. d4) is taken back"}, "your move"},
		{W, "Bc4", nil, nil, ""},
		{W, "TAKEBACK", []string{"You ask to take back your last turn (3. Bc4)"}, nil, ""},
		{B, "Nf6", nil, []string{"Black played 3... Nf6"}, ""}, // a move lapses the request
		{B, "TAKEBACK ACCEPT", []string{"no takeback request"}, nil, ""},
	} {
		h.deliver(h.reply(id, c.side, c.line))
		m := h.outbox()
		me, other := ann, bob
		if c.side == B {
			me, other = bob, ann
		}
		if len(c.toSender) > 0 {
			mustSay(t, c.line+" (sender)", bodyTo(t, m, me), c.toSender...)
		}
		if len(c.toOther) > 0 {
			mustSay(t, c.line+" (other)", bodyTo(t, m, other), c.toOther...)
		}
		if c.subjectTo != "" && !strings.Contains(bodyTo(t, m, other), "Subject: [refereed #1] Orthodox: "+c.subjectTo) {
			t.Errorf("%s: the other's subject is not %q:\n%s", c.line, c.subjectTo, bodyTo(t, m, other))
		}
	}
	// The log keeps every step; the game is what stands.
	rec := ""
	h.db.View(func(tx *store.Tx) error {
		l, err := archive.Load(tx, id)
		var v, g = (*variant.Variant)(nil), variant.Game(nil)
		if err == nil {
			v, g = l.Variant, l.Live
		}
		if err == nil {
			rec = v.WriteMovetext(g)
		}
		return err
	})
	if strings.TrimSpace(rec) != "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6" {
		t.Fatalf("the game after the takeback: %q", rec)
	}

	k := h.newGame("kriegspiel")
	h.outbox()
	h.deliver(h.reply(k, W, "e4"))
	h.outbox()
	h.deliver(h.reply(k, W, "TAKEBACK"))
	mustSay(t, "a takeback in Kriegspiel", bodyTo(t, h.outbox(), ann), "there are no takebacks in Kriegspiel: it hides moves from the players")
}
