package localmail

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net/http"
	"os"
	"sync"
	"time"

	"golang.org/x/crypto/acme"
	"golang.org/x/crypto/acme/autocert"
)

// Where the built-in server's certificate comes from (issue 36): files the operator renews
// (certbot's, read again when they change), or ACME for the server's host name, obtained and
// renewed by golang.org/x/crypto/acme/autocert and kept in the data directory.

// CertificateFiles is a TLS configuration serving the certificate in certFile (PEM, the chain
// after the leaf) with the key in keyFile. The files are read again when either changes (a
// renewal needs no restart); if a new pair cannot be read, the last good one is kept and the
// failure logged.
func CertificateFiles(certFile, keyFile string, log func(msg string, args ...any)) (*tls.Config, error) {
	r := &reloader{cert: certFile, key: keyFile, log: log}
	if err := r.load(); err != nil {
		return nil, err
	}
	return &tls.Config{MinVersion: tls.VersionTLS12, GetCertificate: r.get}, nil
}

type reloader struct {
	cert, key string
	log       func(string, ...any)
	mu        sync.Mutex
	pair      *tls.Certificate
	stamp     [2]time.Time
	checked   time.Time
}

func (r *reloader) load() error {
	pair, err := tls.LoadX509KeyPair(r.cert, r.key)
	if err != nil {
		return fmt.Errorf("localmail: certificate %s with key %s: %w", r.cert, r.key, err)
	}
	if leaf, err := x509.ParseCertificate(pair.Certificate[0]); err == nil && time.Now().After(leaf.NotAfter) {
		return fmt.Errorf("localmail: certificate %s expired on %s", r.cert, leaf.NotAfter.Format(time.DateOnly))
	}
	r.pair = &pair
	r.stamp = [2]time.Time{modTime(r.cert), modTime(r.key)}
	return nil
}

func modTime(name string) time.Time {
	if fi, err := os.Stat(name); err == nil {
		return fi.ModTime()
	}
	return time.Time{}
}

// get serves the pair, reading the files again when they changed (looked at once a minute).
func (r *reloader) get(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if time.Since(r.checked) > time.Minute {
		r.checked = time.Now()
		if [2]time.Time{modTime(r.cert), modTime(r.key)} != r.stamp {
			old := r.pair
			if err := r.load(); err != nil {
				r.pair = old
				if r.log != nil {
					r.log("localmail: the certificate files changed but cannot be used; the last good pair is kept", "err", err)
				}
			} else if r.log != nil {
				r.log("localmail: certificate read again", "file", r.cert)
			}
		}
	}
	return r.pair, nil
}

// ACME obtains and renews a certificate for host from the ACME directory (Let's Encrypt's
// when directory is empty), keeping the account and certificates in cacheDir. The CA checks
// that the server is host by HTTP on port 80 (Challenge: serve it there) or by TLS on
// port 443 (the returned configuration answers that challenge; serve it there to use it).
// client, when set, is the HTTP client that talks to the directory (tests: one that trusts a
// test CA such as Pebble).
func ACME(host, directory, email, cacheDir string, client *http.Client) (cfg *tls.Config, challenge http.Handler) {
	m := &autocert.Manager{
		Prompt:     autocert.AcceptTOS,
		HostPolicy: autocert.HostWhitelist(host),
		Cache:      autocert.DirCache(cacheDir),
		Email:      email,
	}
	if directory != "" || client != nil {
		m.Client = &acme.Client{DirectoryURL: directory, HTTPClient: client}
	}
	cfg = m.TLSConfig()
	cfg.MinVersion = tls.VersionTLS12
	// A mail client names the host it dials: one that sends no name (an IP address) gets the
	// host's certificate all the same.
	get := cfg.GetCertificate
	cfg.GetCertificate = func(hello *tls.ClientHelloInfo) (*tls.Certificate, error) {
		if hello.ServerName == "" {
			h := *hello
			h.ServerName = host
			hello = &h
		}
		return get(hello)
	}
	return cfg, m.HTTPHandler(nil)
}
