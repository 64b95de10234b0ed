package referee

import (
	"fmt"
	"strings"
	"testing"
)

// The reply token travels in the reply address only: the referee's Message-IDs and bounce
// addresses carry an opaque id, and a mail whose thread headers name the referee's mail (as
// every reply does, and as anyone who saw a forwarded mail can write) but that does not come
// to the reply address applies nothing. (The attack: In-Reply-To copied from a player's mail
// and a forged From made that player resign.)
func TestTokenOnlyInReplyAddress(t *testing.T) {
	h := newHarness(t)
	id := h.newGame("orthodox")
	mails := h.outbox()
	ann := h.player(id, W)
	for _, m := range mails {
		raw := string(m.Raw)
		if n := strings.Count(raw, ann.Token); m.To[0] == ann.Address && n != 1 {
			t.Errorf("Ann's token appears %d times in her opening mail, want once (Reply-To)", n)
		}
		if strings.Contains(m.MessageID, ann.Token) || strings.Contains(m.From, ann.Token) {
			t.Errorf("token in Message-ID %q or envelope sender %q", m.MessageID, m.From)
		}
	}
	var annMID string
	for _, m := range mails {
		if m.To[0] == ann.Address {
			annMID = m.MessageID
		}
	}
	forged := mailText(ann.Address, "referee@example.org", "Re: your move", "RESIGN", fmt.Sprintf("In-Reply-To: <%s>\r\nReferences: <%s>\r\n", annMID, annMID))
	h.deliver(forged)
	if out := h.outcome(id); out.Over() {
		t.Fatalf("a mail with the thread headers but no reply address made Ann resign: %+v", out)
	}
}
