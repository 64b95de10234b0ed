package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/refereed/refereed/mailer/localmail"
)

// localNet is how the built-in mail server faces other machines (issue 36): implicit TLS
// ports, where its certificate comes from, and the disk reserve. Flags of serve, or the
// config's [localmail] section.
type localNet struct {
	imaps, smtps string
	cert, key    string
	acme         string // the host name to obtain a certificate for
	acmeDir      string
	acmeHTTP     string
	acmeEmail    string
	acmeCA       string // a CA bundle to trust for the ACME directory
	reserve      string // a size ("2GiB"); "" for the default
	host         string // the host name clients reach the server by
	daily        string // what one address may submit a day (a size); "" for the default
}

// apply gives s its TLS, ports and reserve. With ACME it starts answering the CA's HTTP
// challenge and asks for the certificate at once (in the background), so that the first
// client does not wait for it.
func (n *localNet) apply(ctx context.Context, s *localmail.Server, data string, log *slog.Logger) error {
	s.IMAPSAddr, s.SMTPSAddr = n.imaps, n.smtps
	if n.reserve != "" {
		size, err := parseSize(n.reserve)
		if err != nil {
			return fmt.Errorf("--mail-reserve: %w", err)
		}
		s.Reserve = size
		if size == 0 {
			s.Reserve = -1
		}
	}
	if n.daily != "" {
		size, err := parseSize(n.daily)
		if err != nil {
			return fmt.Errorf("--mail-daily: %w", err)
		}
		s.DailyPerSender = size
		if size == 0 {
			s.DailyPerSender = -1
		}
	}
	switch {
	case (n.cert == "") != (n.key == ""):
		return errors.New("--tls-cert and --tls-key go together: the certificate and its key")
	case n.cert != "" && n.acme != "":
		return errors.New("--tls-cert and --acme: one source of certificates, not both")
	case n.cert != "":
		cfg, err := localmail.CertificateFiles(n.cert, n.key, func(msg string, args ...any) { log.Warn(msg, args...) })
		if err != nil {
			return err
		}
		s.TLS = cfg
	case n.acme != "":
		var client *http.Client // the default: the system's CAs
		if n.acmeCA != "" {
			pem, err := os.ReadFile(n.acmeCA)
			if err != nil {
				return fmt.Errorf("--acme-ca: %w", err)
			}
			pool := x509.NewCertPool()
			if !pool.AppendCertsFromPEM(pem) {
				return fmt.Errorf("--acme-ca %s: no certificate in it", n.acmeCA)
			}
			client = &http.Client{Timeout: time.Minute, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
		}
		cfg, challenge := localmail.ACME(n.acme, n.acmeDir, n.acmeEmail, filepath.Join(data, "acme"), client)
		s.TLS = cfg
		srv := &http.Server{Addr: n.acmeHTTP, Handler: challenge, ReadHeaderTimeout: 10 * time.Second}
		go func() {
			if err := srv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
				log.Error("ACME HTTP challenge", "addr", n.acmeHTTP, "err", err)
			}
		}()
		go func() { <-ctx.Done(); srv.Close() }()
		go func() {
			if _, err := cfg.GetCertificate(&tls.ClientHelloInfo{ServerName: n.acme}); err != nil {
				log.Error("ACME: no certificate yet", "host", n.acme, "err", err)
			} else {
				log.Info("ACME: certificate ready", "host", n.acme)
			}
		}()
	}
	return nil
}

// implicit names the implicit TLS ports s listens on, for the start summary.
func (n *localNet) implicit(s *localmail.Server) string {
	var parts []string
	if a := s.IMAPSListen(); a != "" {
		parts = append(parts, "IMAPS "+a)
	}
	if a := s.SMTPSListen(); a != "" {
		parts = append(parts, "SMTPS "+a)
	}
	if len(parts) == 0 {
		return ""
	}
	return ", " + strings.Join(parts, ", ")
}

// source says where the certificate comes from.
func (n *localNet) source() string {
	if n.acme != "" {
		return "by ACME for " + n.acme
	}
	return "from " + n.cert
}

// parseSize reads a size: bytes, or a number with K, M, G, T (powers of 1024; KiB, MB ...
// read alike).
func parseSize(s string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	t = strings.TrimSuffix(strings.TrimSuffix(t, "B"), "I")
	mult := int64(1)
	if t != "" {
		switch t[len(t)-1] {
		case 'K':
			mult = 1 << 10
		case 'M':
			mult = 1 << 20
		case 'G':
			mult = 1 << 30
		case 'T':
			mult = 1 << 40
		}
		if mult > 1 {
			t = t[:len(t)-1]
		}
	}
	n, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
	if err != nil || n < 0 || n*float64(mult) > 1<<62 {
		return 0, fmt.Errorf("%q: want a size such as 500MiB or 2GiB", s)
	}
	return int64(n * float64(mult)), nil
}

// mailHost is the host name players' clients reach the server by.
func (n *localNet) mailHost(domain string) string {
	switch {
	case n.host != "":
		return n.host
	case n.acme != "":
		return n.acme
	}
	return domain
}

// watchMailDisk says in the log, hourly, how full the built-in server's disk is, as a
// warning while it is below its reserve (mail between players waits then).
func watchMailDisk(ctx context.Context, s *localmail.Server, log *slog.Logger) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Hour):
		}
		d := s.Disk()
		if d.Free < d.Reserve {
			log.Warn("local mail disk below its reserve: mail between players waits, mail to the referee passes", "state", d.String())
		} else {
			log.Info("local mail disk", "state", d.String())
		}
	}
}
