package web

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"strings"
)

// A page of a long list read from a point (where the page beside it ended: links' before= and
// after=) takes its number, and a rating list's page its ranks, from the link that carried the
// point: what the page cannot know without counting every row before it. So that no one can
// make the archive show a player at a rank he does not hold, or a page under another number,
// the archive signs the links it makes (sig=, an HMAC of the list, the page's number and the
// point, with a key of the process's own). A point in a link it did not make, or made before
// it restarted, is not followed: the page is read by its number.

// linkSig is the signature of a link to a page from a point: the list's parts, the page's
// number as the link writes it, which point, and the point.
func (h *Handler) linkSig(parts ...string) string {
	h.keyOnce.Do(func() {
		h.linkKey = make([]byte, 32)
		rand.Read(h.linkKey)
	})
	m := hmac.New(sha256.New, h.linkKey)
	m.Write([]byte(strings.Join(parts, "\x00")))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:12])
}

// signed says whether sig is the archive's own signature of parts.
func (h *Handler) signed(sig string, parts ...string) bool {
	return sig != "" && hmac.Equal([]byte(sig), []byte(h.linkSig(parts...)))
}
