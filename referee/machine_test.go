package referee

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/refereed/refereed/chess"
)

// Mail marked as machine mail is ignored, even from the player to his reply address, and the
// log says why (issue 20: a player whose client marks his mail must be able to find out).
func TestMachineMailLoggedWithReason(t *testing.T) {
	for _, mark := range []string{"Auto-Submitted: auto-replied", "Auto-Submitted: auto-generated", "Precedence: bulk", "Precedence: list"} {
		h := newHarness(t)
		var log bytes.Buffer
		h.ref.Log = slog.New(slog.NewTextHandler(&log, nil))
		id := h.newGame("orthodox")
		h.outbox()
		p := h.player(id, chess.White)
		raw := mailText(p.Address, h.ref.replyAddress(id, chess.White, p.Token), "Re: your move", "e4", mark+"\r\n")
		h.deliver(raw)
		if m := h.outbox(); len(m) != 0 {
			t.Errorf("%s: answered with %d mails", mark, len(m))
		}
		if !strings.Contains(log.String(), "machine mail not answered") || !strings.Contains(log.String(), fmt.Sprintf("(%s)", mark)) {
			t.Errorf("%s: the log says\n%s", mark, log.String())
		}
	}
}
