package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/refereed/refereed/mailer/localmail"
)

// printMailPasswords tells the operator the local mail server's password of each player
// address, when the data directory runs one with per-address passwords (serve without
// --config): each player reads his own mail only.
func printMailPasswords(w io.Writer, dataDir, referee string, addrs ...string) {
	secret, err := os.ReadFile(filepath.Join(dataDir, "mail-secret"))
	if err != nil || len(strings.TrimSpace(string(secret))) == 0 {
		return
	}
	_, domain, _ := strings.Cut(referee, "@")
	if domain == "" {
		domain = "localhost"
	}
	for _, a := range addrs {
		if _, d, _ := strings.Cut(a, "@"); strings.EqualFold(d, domain) {
			fmt.Fprintf(w, "local mail: %s logs in with password %s\n", a, localmail.PasswordFor([]byte(strings.TrimSpace(string(secret))), a))
		}
	}
}
