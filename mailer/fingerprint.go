package mailer

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"strings"

	"github.com/emersion/go-message/textproto"
)

// FingerprintBytes is how much of a mail's start a fingerprint reads at most.
const FingerprintBytes = 64 << 10

// Fingerprint names the content a server returned under one UID: its RFC822.SIZE and its
// header fields, read as go-message reads them (so the header of a whole message and the
// server's BODY[HEADER] give the same fingerprint, however the server folds or ends lines).
// start is the mail or its header; only its first FingerprintBytes are read.
// The intake stores it with each key; a key seen again with another fingerprint is other mail,
// from a server that broke its UID promise, and is processed as new.
func Fingerprint(size int64, header []byte) string {
	if len(header) > FingerprintBytes {
		header = header[:FingerprintBytes]
	}
	h := sha256.New()
	h.Write(binary.BigEndian.AppendUint64(nil, uint64(size)))
	hdr, err := textproto.ReadHeader(bufio.NewReader(bytes.NewReader(header)))
	if err != nil {
		h.Write(headerBytes(header)) // unreadable: the bytes themselves
	} else {
		for f := hdr.Fields(); f.Next(); {
			h.Write([]byte(strings.ToLower(f.Key())))
			h.Write([]byte{':'})
			h.Write([]byte(strings.Join(strings.Fields(f.Value()), " ")))
			h.Write([]byte{'\n'})
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// headerBytes is b up to its first empty line.
func headerBytes(b []byte) []byte {
	for _, sep := range [][]byte{[]byte("\r\n\r\n"), []byte("\n\n")} {
		if i := bytes.Index(b, sep); i >= 0 {
			return b[:i]
		}
	}
	return b
}
