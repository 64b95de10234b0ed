package referee

import (
	"strings"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/parser"
	"github.com/refereed/refereed/referee/inbox"
	"github.com/refereed/refereed/referee/outbox"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/variant"
)

// The daemon's side of reading mail: which fetched mail is worth storing (Admit), and the
// stored mail run through Handle in batches (ProcessInbox, package inbox).

// ProcessInbox handles the stored messages not yet processed (package inbox runs them: a
// page at a time, new mail in batches, each attempt counted, failing mail quarantined).
func (r *Referee) ProcessInbox() (handled int, err error) {
	return (&inbox.Runner{DB: r.DB, Handle: r.inTx, Prepare: r.senders().Prejudge, Ahead: r.senders().Ahead, Kept: r.tellKept,
		MaxAttempts: r.MaxAttempts, Log: r.logger()}).Process()
}

// tellKept tells the registered player behind a failing message that it was kept.
func (r *Referee) tellKept(tx *store.Tx, m *store.InboundMail) error {
	msg, err := parser.Parse(m.Raw)
	if err != nil || msg.Automatic() != "" {
		return nil
	}
	token, _ := r.senders().TokenOf(msg)
	ref, err := tx.TokenRef(token)
	if err != nil {
		return nil
	}
	sg, err := tx.Game(ref.Game)
	if err != nil || !strings.EqualFold(sg.Players[ref.Side].Address, msg.From) {
		return nil
	}
	v, err := variant.Lookup(sg.Variant)
	if err != nil {
		return nil
	}
	_, say := r.speaker(tx, sg, chess.Color(ref.Side))
	return r.enqueue(tx, sg, v, outbox.Letter{Side: chess.Color(ref.Side), Kind: "reply", Answers: msg, What: say("subject/internal-error", nil), Paras: []string{
		say("internal-error", nil),
	}})
}

// Admit tells the intake whether a mail, of which it has read the first bytes, deserves to
// be fetched and stored whole: only mail to a valid reply address does. The rest (strangers,
// mail without a token) is kept as those bytes, enough to log it and to answer a registered
// player who wrote to the bare address.
func (r *Referee) Admit(prefix []byte) bool {
	msg, err := parser.Parse(prefix)
	if err != nil {
		return false
	}
	token, bounce := r.senders().TokenOf(msg)
	if token == "" || bounce {
		return false
	}
	ok := false
	r.DB.View(func(tx *store.Tx) error {
		_, err := tx.TokenRef(token)
		ok = err == nil
		return nil
	})
	return ok
}
