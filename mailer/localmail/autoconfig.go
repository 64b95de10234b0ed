package localmail

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"fmt"
	"net"
	"net/http"
	"strings"
	"text/template"
)

// A player's mail client finds its settings (issue 36): Thunderbird's autoconfig file
// (/mail/config-v1.1.xml, also under /.well-known/autoconfig/) and an Apple configuration
// profile for Mail on macOS and iOS (/apple/mail.mobileconfig?email=ADDRESS), both served by
// the web archive's server. The player types his address and password and nothing else. The
// settings are the server's: its host name as clients reach it, and its ports, implicit TLS
// where it has it, else STARTTLS.

// ClientSettings are what a mail client needs.
type ClientSettings struct {
	Domain, Host               string
	IMAPPort, SMTPPort         string
	IMAPTLS, SMTPTLS           string // "SSL" (implicit TLS) or "STARTTLS"
	IMAPImplicit, SMTPImplicit bool
}

// Settings are the client settings of the server as host names it.
func (s *Server) Settings(host string) ClientSettings {
	c := ClientSettings{Domain: s.domain(), Host: host, IMAPTLS: "STARTTLS", SMTPTLS: "STARTTLS"}
	if c.Host == "" {
		c.Host = s.domain()
	}
	port := func(addr string) string { _, p, _ := net.SplitHostPort(addr); return p }
	c.IMAPPort, c.SMTPPort = port(s.IMAPListen()), port(s.SMTPListen())
	if a := s.IMAPSListen(); a != "" {
		c.IMAPPort, c.IMAPTLS, c.IMAPImplicit = port(a), "SSL", true
	}
	if a := s.SMTPSListen(); a != "" {
		c.SMTPPort, c.SMTPTLS, c.SMTPImplicit = port(a), "SSL", true
	}
	return c
}

var thunderbird = template.Must(template.New("autoconfig").Funcs(template.FuncMap{"x": xmlText}).Parse(`<?xml version="1.0" encoding="UTF-8"?>
<clientConfig version="1.1">
  <emailProvider id="{{x .Domain}}">
    <domain>{{x .Domain}}</domain>
    <displayName>refereed at {{x .Domain}}</displayName>
    <displayShortName>refereed</displayShortName>
    <incomingServer type="imap">
      <hostname>{{x .Host}}</hostname>
      <port>{{.IMAPPort}}</port>
      <socketType>{{.IMAPTLS}}</socketType>
      <authentication>password-cleartext</authentication>
      <username>%EMAILADDRESS%</username>
    </incomingServer>
    <outgoingServer type="smtp">
      <hostname>{{x .Host}}</hostname>
      <port>{{.SMTPPort}}</port>
      <socketType>{{.SMTPTLS}}</socketType>
      <authentication>password-cleartext</authentication>
      <username>%EMAILADDRESS%</username>
    </outgoingServer>
  </emailProvider>
</clientConfig>
`))

var apple = template.Must(template.New("mobileconfig").Funcs(template.FuncMap{"x": xmlText}).Parse(`<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>PayloadContent</key>
  <array>
    <dict>
      <key>EmailAccountDescription</key><string>refereed at {{x .S.Domain}}</string>
      <key>EmailAccountType</key><string>EmailTypeIMAP</string>
      <key>EmailAddress</key><string>{{x .Address}}</string>
      <key>IncomingMailServerAuthentication</key><string>EmailAuthPassword</string>
      <key>IncomingMailServerHostName</key><string>{{x .S.Host}}</string>
      <key>IncomingMailServerPortNumber</key><integer>{{.S.IMAPPort}}</integer>
      <key>IncomingMailServerUseSSL</key><{{if .S.IMAPImplicit}}true{{else}}false{{end}}/>
      <key>IncomingMailServerUsername</key><string>{{x .Address}}</string>
      <key>OutgoingMailServerAuthentication</key><string>EmailAuthPassword</string>
      <key>OutgoingMailServerHostName</key><string>{{x .S.Host}}</string>
      <key>OutgoingMailServerPortNumber</key><integer>{{.S.SMTPPort}}</integer>
      <key>OutgoingMailServerUseSSL</key><{{if .S.SMTPImplicit}}true{{else}}false{{end}}/>
      <key>OutgoingMailServerUsername</key><string>{{x .Address}}</string>
      <key>OutgoingPasswordSameAsIncomingPassword</key><true/>
      <key>PayloadDescription</key><string>Mail for refereed</string>
      <key>PayloadDisplayName</key><string>refereed ({{x .Address}})</string>
      <key>PayloadIdentifier</key><string>refereed.{{x .S.Domain}}.mail.{{.ID}}</string>
      <key>PayloadType</key><string>com.apple.mail.managed</string>
      <key>PayloadUUID</key><string>{{.UUID1}}</string>
      <key>PayloadVersion</key><integer>1</integer>
    </dict>
  </array>
  <key>PayloadDisplayName</key><string>refereed at {{x .S.Domain}}</string>
  <key>PayloadIdentifier</key><string>refereed.{{x .S.Domain}}.{{.ID}}</string>
  <key>PayloadRemovalDisallowed</key><false/>
  <key>PayloadType</key><string>Configuration</string>
  <key>PayloadUUID</key><string>{{.UUID2}}</string>
  <key>PayloadVersion</key><integer>1</integer>
</dict>
</plist>
`))

func xmlText(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return b.String()
}

// uuidOf is a stable UUID-shaped name for what: the same profile installed twice replaces
// itself instead of adding an account.
func uuidOf(what string) string {
	h := sha256.Sum256([]byte(what))
	x := hex.EncodeToString(h[:16])
	return strings.ToUpper(x[:8] + "-" + x[8:12] + "-" + x[12:16] + "-" + x[16:20] + "-" + x[20:32])
}

// Autoconfig serves the client settings of the server as host names it: Thunderbird's file
// and the Apple profile.
func (s *Server) Autoconfig(host string) http.Handler {
	mux := http.NewServeMux()
	tb := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/xml; charset=utf-8")
		thunderbird.Execute(w, s.Settings(host))
	}
	mux.HandleFunc("GET /mail/config-v1.1.xml", tb)
	mux.HandleFunc("GET /.well-known/autoconfig/mail/config-v1.1.xml", tb)
	mux.HandleFunc("GET /apple/mail.mobileconfig", func(w http.ResponseWriter, r *http.Request) {
		addr := s.canonical(r.URL.Query().Get("email"))
		if addr == "" {
			http.Error(w, fmt.Sprintf("Give your address: /apple/mail.mobileconfig?email=you@%s", s.domain()), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/x-apple-aspen-config")
		w.Header().Set("Content-Disposition", `attachment; filename="refereed-mail.mobileconfig"`)
		apple.Execute(w, map[string]any{"S": s.Settings(host), "Address": addr, "ID": uuidOf(addr)[:8],
			"UUID1": uuidOf("account " + addr), "UUID2": uuidOf("profile " + addr)})
	})
	return mux
}
