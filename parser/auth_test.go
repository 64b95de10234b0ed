package parser

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	"github.com/emersion/go-msgauth/dkim"
)

// A test signer for x.org and its DNS, through the resolver seam.
func testKey(t *testing.T) (ed25519.PrivateKey, func(string) ([]string, error)) {
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	record := "v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(pub)
	return priv, func(domain string) ([]string, error) {
		if domain == "sel._domainkey.x.org" {
			return []string{record}, nil
		}
		return nil, errors.New("no such record")
	}
}

func sign(t *testing.T, priv ed25519.PrivateKey, domain, raw string) string {
	var b bytes.Buffer
	if err := dkim.Sign(&b, strings.NewReader(raw), &dkim.SignOptions{Domain: domain, Selector: "sel", Signer: priv}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// Signed, forged and unsigned mail, judged by DKIM here and by a trusted server's
// Authentication-Results.
func TestAuthenticate(t *testing.T) {
	priv, lookup := testKey(t)
	mail := "From: Ann <ann@x.org>\r\nTo: referee+g1-w-tok@r.org\r\nSubject: move\r\n\r\ne4\r\n"
	signed := sign(t, priv, "x.org", mail)
	o := AuthOptions{LookupTXT: lookup}
	for _, c := range []struct {
		name, raw, from string
		o               AuthOptions
		want            AuthVerdict
	}{
		{"signed by the From domain", signed, "ann@x.org", o, AuthPass},
		{"signed, then the body changed", strings.Replace(signed, "e4", "RESIGN", 1), "ann@x.org", o, AuthFail},
		{"signed, then From forged", strings.Replace(signed, "ann@x.org", "bob@x.org", 1), "bob@x.org", o, AuthFail},
		{"unsigned", mail, "ann@x.org", o, AuthNone},
		{"signed by another domain", sign(t, priv, "x.org", strings.Replace(mail, "ann@x.org", "mallory@evil.org", 1)), "mallory@evil.org", o, AuthNone},
		{"trusted dmarc=pass", "Authentication-Results: mx.r.org; dmarc=pass header.from=x.org\r\n" + mail, "ann@x.org", AuthOptions{TrustedServer: "mx.r.org", LookupTXT: lookup}, AuthPass},
		{"trusted dmarc=fail", "Authentication-Results: mx.r.org; dmarc=fail header.from=x.org\r\n" + signed, "ann@x.org", AuthOptions{TrustedServer: "mx.r.org", LookupTXT: lookup}, AuthFail},
		{"trusted dkim=fail", "Authentication-Results: mx.r.org; dkim=fail header.d=x.org\r\n" + mail, "ann@x.org", AuthOptions{TrustedServer: "mx.r.org", LookupTXT: lookup}, AuthFail},
		{"untrusted server's pass ignored", "Authentication-Results: evil.org; dmarc=pass header.from=x.org\r\n" + mail, "ann@x.org", AuthOptions{TrustedServer: "mx.r.org", LookupTXT: lookup}, AuthNone},
		{"sender's own header ignored without a trusted server", "Authentication-Results: mx.r.org; dmarc=pass\r\n" + mail, "ann@x.org", o, AuthNone},
	} {
		if got, why := Authenticate([]byte(c.raw), c.from, c.o); got != c.want {
			t.Errorf("%s: %v (%s), want %v", c.name, got, why, c.want)
		}
	}
	if aligned("org", "x.org") || !aligned("x.org", "mail.x.org") || aligned("y.org", "x.org") {
		t.Error("alignment")
	}
}
