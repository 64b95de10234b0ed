package referee

import (
	"strings"
	"testing"

	"github.com/refereed/refereed/variant"
)

// Issue 21: game options are read by their type in one place (variant.Options.Bool): "no",
// "off" and "0" are off, a value that is none of the forms is refused when the game is made;
// and strict-forfeit applies by mail, not only on a replayed log.
func TestOptionsByMail(t *testing.T) {
	for _, c := range []struct {
		value   string
		forfeit bool
	}{{"true", true}, {"yes", true}, {"ON", true}, {"1", true}, {"no", false}, {"off", false}, {"0", false}, {"false", false}} {
		t.Run("strict-forfeit="+c.value, func(t *testing.T) {
			h := newHarness(t)
			id, err := h.ref.NewGame("progressive-italian", ann, bob, variant.Options{Flags: map[string]string{"strict-forfeit": c.value}})
			if err != nil {
				t.Fatal(err)
			}
			h.deliver(h.reply(id, W, "e4"))
			h.deliver(h.reply(id, B, "e5 Nc6"))
			h.outbox()
			h.deliver(h.reply(id, W, "Qh5 Qxf7+ Qxe8"))
			out := h.outcome(id)
			body := bodyTo(t, h.outbox(), ann)
			if c.forfeit {
				if out.Result != "0-1" || out.Termination != "forfeit" {
					t.Fatalf("outcome %+v, want White's forfeit; White was told:\n%s", out, body)
				}
				return
			}
			if out.Over() || !strings.Contains(body, "check") {
				t.Fatalf("outcome %+v, want the series refused for its early check; White was told:\n%s", out, body)
			}
		})
	}
	for key, opt := range map[string]string{"progressive-italian": "strict-forfeit", "conditional": "a-check-loses", "synchronous": "fog", "korolev": "king-must-move", "trainwreck": "king-attacked-note"} {
		h := newHarness(t)
		if _, err := h.ref.NewGame(key, ann, bob, variant.Options{Flags: map[string]string{opt: "maybe"}}); err == nil || !strings.Contains(err.Error(), opt) {
			t.Errorf("%s %s=maybe: %v, want a refusal naming the option", key, opt, err)
		}
	}
}
