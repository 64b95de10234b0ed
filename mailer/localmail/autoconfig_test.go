package localmail_test

import (
	"encoding/xml"
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/refereed/refereed/mailer/localmail"
)

// A player's client finds its settings (issue 36): Thunderbird's autoconfig names the host
// and the implicit TLS ports (STARTTLS where there is none), the Apple profile the same for
// the address given; both are well-formed XML; an address of another domain is refused.
func TestAutoconfig(t *testing.T) {
	s := startServer(t, &localmail.Server{Domain: "club.example.org", TLS: mustTLS(t), SMTPSAddr: "127.0.0.1:0"})
	h := s.Autoconfig("mail.club.example.org")
	get := func(path string) (int, string) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		b, _ := io.ReadAll(rec.Body)
		return rec.Code, string(b)
	}
	wellFormed := func(name, doc string) {
		d := xml.NewDecoder(strings.NewReader(doc))
		d.Strict = true
		for {
			if _, err := d.Token(); err == io.EOF {
				return
			} else if err != nil {
				t.Fatalf("%s is not well-formed XML: %v\n%s", name, err, doc)
			}
		}
	}
	_, smtpsPort, _ := strings.Cut(s.SMTPSListen(), ":")
	_, imapPort, _ := strings.Cut(s.IMAPListen(), ":")
	for _, p := range []string{"/mail/config-v1.1.xml?emailaddress=ann%40club.example.org", "/.well-known/autoconfig/mail/config-v1.1.xml"} {
		code, doc := get(p)
		wellFormed(p, doc)
		if code != 200 || !strings.Contains(doc, "<hostname>mail.club.example.org</hostname>") ||
			!strings.Contains(doc, "<port>"+imapPort+"</port>\n      <socketType>STARTTLS</socketType>") ||
			!strings.Contains(doc, "<port>"+smtpsPort+"</port>\n      <socketType>SSL</socketType>") {
			t.Errorf("%s: %d\n%s", p, code, doc)
		}
	}
	code, doc := get("/apple/mail.mobileconfig?email=Ann%2Bchess%40club.example.org")
	wellFormed("the profile", doc)
	if code != 200 || !strings.Contains(doc, "<key>EmailAddress</key><string>ann@club.example.org</string>") ||
		!strings.Contains(doc, "<key>OutgoingMailServerUseSSL</key><true/>") || !strings.Contains(doc, "<key>IncomingMailServerUseSSL</key><false/>") {
		t.Errorf("the Apple profile: %d\n%s", code, doc)
	}
	if code, _ := get("/apple/mail.mobileconfig?email=ann%40elsewhere.org"); code != 400 {
		t.Errorf("a profile for another domain: %d", code)
	}
}
