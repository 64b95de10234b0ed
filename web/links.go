package web

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"strings"
)

// A page of a rating list read from a point (where the page beside it ended: links' before=
// and after=) must know the rank of its first line, which it cannot know without counting
// every line before it, but at either end of the list. The link that carries the point says it
// (rank=); so that no one can make the archive show a player at a rank he does not hold, the
// archive signs the links it makes (sig=, an HMAC of the list, the point, the rank and the
// list's version, with a key of the process's own) and takes the rank only from a link it
// signed while the list stood as it stands now. Any other link has the rank counted.

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
