package referee

import (
	"strings"
	"testing"
)

// FuzzCheckAddress: any input gives an address or an error, never a panic; an address taken
// is a plain dot-atom at a host name, is taken again as itself, and is never the referee's.
func FuzzCheckAddress(f *testing.F) {
	for _, s := range append(badAddresses, "Ann <ann@example.org>", "ann+x@localhost", `"a b"@c`, "a@b@c", "=?utf-8?q?x?= <a@b>") {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		addr, err := checkAddress(s, "referee@example.org")
		if err != nil {
			return
		}
		local, domain, ok := strings.Cut(addr, "@")
		if !ok || !dotAtom(local) || !hostName(domain) || addr != strings.ToLower(addr) {
			t.Fatalf("%q taken as %q", s, addr)
		}
		if again, err := checkAddress(addr, "referee@example.org"); err != nil || again != addr {
			t.Fatalf("%q taken as %q, which gives %q, %v", s, addr, again, err)
		}
		if base, _, _ := strings.Cut(local, "+"); base == "referee" && domain == "example.org" {
			t.Fatalf("%q taken: the referee's own", s)
		}
	})
}
