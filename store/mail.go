package store

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// InboxKey names one message on the mail server: never its Message-ID, which the sender
// chooses.
type InboxKey struct {
	Mailbox     string `json:"mailbox"`
	UIDValidity uint32 `json:"uidvalidity"`
	UID         uint32 `json:"uid"`
	// Content is set only for mail that a server returned under a key already used for other
	// mail (it broke its UID promise): a prefix of the new mail's fingerprint. Such a key
	// sorts right after the one it shares a UID with, so mail is still handled in order.
	Content string `json:"content,omitempty"`
}

func (k InboxKey) String() string {
	s := fmt.Sprintf("%s/%d/%d", k.Mailbox, k.UIDValidity, k.UID)
	if k.Content != "" {
		s += "#" + k.Content
	}
	return s
}

// ParseInboxKey reads a key as String writes it ("INBOX/1234/56", "INBOX/1234/56#3fa2...").
func ParseInboxKey(s string) (InboxKey, error) {
	var k InboxKey
	rest, content, _ := strings.Cut(s, "#")
	i := strings.LastIndexByte(rest, '/')
	j := -1
	if i > 0 {
		j = strings.LastIndexByte(rest[:i], '/')
	}
	if j <= 0 {
		return k, fmt.Errorf("store: %q is not a mail key (MAILBOX/UIDVALIDITY/UID)", s)
	}
	v, err1 := strconv.ParseUint(rest[j+1:i], 10, 32)
	u, err2 := strconv.ParseUint(rest[i+1:], 10, 32)
	if err1 != nil || err2 != nil {
		return k, fmt.Errorf("store: %q is not a mail key (MAILBOX/UIDVALIDITY/UID)", s)
	}
	return InboxKey{Mailbox: rest[:j], UIDValidity: uint32(v), UID: uint32(u), Content: content}, nil
}

// InboundMail is a raw message fetched from the server, kept until it is processed.
type InboundMail struct {
	Key      InboxKey  `json:"key"`
	Raw      []byte    `json:"raw"`
	Fetched  time.Time `json:"fetched"`
	Attempts int       `json:"attempts,omitempty"` // failed processing attempts (internal errors)
	// Oversize is the size of a message too large to fetch whole: Raw is then its header.
	Oversize int64 `json:"oversize,omitempty"`
	// Partial is the size of a message the intake did not admit whole (no valid reply
	// token, see mailer.Intake.Admit): Raw is then only its first bytes, enough to log it
	// and answer a known sender.
	Partial int64  `json:"partial,omitempty"`
	Error   string `json:"error,omitempty"`
	// Fingerprint identifies the content the server returned under Key (see
	// mailer.Fingerprint). It outlives the raw copy in the processed set, so that a server
	// that reuses a UID for other mail is caught instead of trusted.
	Fingerprint string `json:"fingerprint,omitempty"`
	// Quarantined is when the referee gave up on this mail after failing to process it
	// (see Quarantine): it is kept for the operator, and no longer processed.
	Quarantined time.Time `json:"quarantined,omitzero"`
}

// OutMail is a rendered message waiting for delivery.
type OutMail struct {
	ID        uint64    `json:"id"`
	MessageID string    `json:"message_id"` // stable: a retried delivery carries the same one
	From      string    `json:"from"`       // envelope sender (a bounce address)
	To        []string  `json:"to"`
	Raw       []byte    `json:"raw"`
	Game      uint64    `json:"game,omitempty"`
	Side      int       `json:"side"`
	Kind      string    `json:"kind"`
	Created   time.Time `json:"created"`
	Attempts  int       `json:"attempts,omitempty"`
	NextTry   time.Time `json:"next_try,omitempty"`
	LastError string    `json:"last_error,omitempty"`
	Sent      time.Time `json:"sent,omitempty"`
	Failed    bool      `json:"failed,omitempty"` // given up (a 5xx or too many tries)
}

// Retention of what the store keeps about mail that is done.
const (
	// SentRawRetention is how long the raw copy of a delivered mail is kept (its record of
	// delivery stays): the player has it, the game log has its effect.
	SentRawRetention = 30 * 24 * time.Hour
)
