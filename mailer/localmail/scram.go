package localmail

import (
	"crypto/hmac"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"strconv"
	"strings"

	"github.com/emersion/go-sasl"
)

const scramSHA256 = "SCRAM-SHA-256"

// scramIterations is the PBKDF2 work of one SCRAM login: RFC 7677's minimum.
const scramIterations = 4096

// scramServer is the server side of SASL SCRAM-SHA-256 (RFC 5802, RFC 7677), without channel
// binding: the password never crosses the connection, and a client that will not send one
// without TLS (msmtp's "auth on") logs in with it. go-sasl has no server for it. The salt is
// derived from the address, so that nothing needs to be kept.
type scramServer struct {
	s                           *session
	step                        int
	user, clientFirstBare, gs2  string
	nonce, serverFirst, storedK string
	serverKey                   []byte
}

func scramSalt(addr string) []byte {
	h := sha256.Sum256([]byte("refereed scram salt\x00" + addr))
	return h[:16]
}

func scramHMAC(key []byte, msg string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(msg))
	return m.Sum(nil)
}

// scramAttrs reads "a=...,b=..." into a map; false if an attribute is malformed.
func scramAttrs(s string) (map[string]string, bool) {
	out := map[string]string{}
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || len(k) != 1 {
			return nil, false
		}
		out[k] = v
	}
	return out, true
}

func (c *scramServer) Next(response []byte) (challenge []byte, done bool, err error) {
	switch c.step {
	case 0:
		if response == nil { // no initial response: ask for it
			c.step = 1
			return []byte{}, false, nil
		}
		fallthrough
	case 1:
		c.step = 2
		// client-first: gs2 header ("n,," or "y,,": no channel binding), then n=user,r=nonce.
		msg := string(response)
		cb, rest, ok1 := strings.Cut(msg, ",")
		authz, bare, ok2 := strings.Cut(rest, ",")
		if !ok1 || !ok2 || (cb != "n" && cb != "y") || (authz != "" && !strings.HasPrefix(authz, "a=")) {
			return nil, true, errAuthFailed
		}
		attrs, ok := scramAttrs(bare)
		if !ok || attrs["n"] == "" || attrs["r"] == "" {
			return nil, true, errAuthFailed
		}
		c.user = strings.NewReplacer("=2C", ",", "=3D", "=").Replace(attrs["n"])
		c.gs2, c.clientFirstBare = cb+","+authz+",", bare
		var nonce [18]byte
		if _, err := rand.Read(nonce[:]); err != nil {
			return nil, true, errTryLater
		}
		c.nonce = attrs["r"] + base64.RawStdEncoding.EncodeToString(nonce[:])
		addr := c.s.srv.canonical(c.user)
		salted, err := pbkdf2.Key(sha256.New, c.s.srv.passwordOf(addr), scramSalt(addr), scramIterations, sha256.Size)
		if err != nil {
			return nil, true, errAuthFailed
		}
		stored := sha256.Sum256(scramHMAC(salted, "Client Key"))
		c.storedK, c.serverKey = string(stored[:]), scramHMAC(salted, "Server Key")
		c.serverFirst = "r=" + c.nonce + ",s=" + base64.StdEncoding.EncodeToString(scramSalt(addr)) + ",i=" + strconv.Itoa(scramIterations)
		return []byte(c.serverFirst), false, nil
	case 2:
		c.step = 3
		msg := string(response)
		i := strings.LastIndex(msg, ",p=")
		if i < 0 {
			return nil, true, errAuthFailed
		}
		withoutProof := msg[:i]
		attrs, ok := scramAttrs(withoutProof)
		proof, err := base64.StdEncoding.DecodeString(msg[i+3:])
		if !ok || err != nil || len(proof) != sha256.Size || attrs["r"] != c.nonce || attrs["c"] != base64.StdEncoding.EncodeToString([]byte(c.gs2)) {
			return nil, true, errAuthFailed
		}
		auth := c.clientFirstBare + "," + c.serverFirst + "," + withoutProof
		sig := scramHMAC([]byte(c.storedK), auth)
		for j := range proof {
			proof[j] ^= sig[j]
		}
		got := sha256.Sum256(proof)
		if err := c.s.loginCheck(c.user, func(string) bool { return hmac.Equal(got[:], []byte(c.storedK)) }); err != nil {
			return nil, true, err
		}
		return []byte("v=" + base64.StdEncoding.EncodeToString(scramHMAC(c.serverKey, auth))), false, nil
	case 3:
		c.step = 4
		return nil, true, nil // the client's empty answer to the server's signature
	}
	return nil, true, sasl.ErrUnexpectedClientResponse
}
