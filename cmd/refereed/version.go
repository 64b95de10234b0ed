package main

import (
	"context"
	"fmt"
	"runtime/debug"
)

// Version is set at build time with -ldflags "-X main.Version=v1.2.3"; without it the
// module version and the commit recorded by the Go toolchain are printed.
var Version = ""

func (m *Main) runVersion(ctx context.Context, args []string) int {
	fmt.Fprintln(m.Stdout, version())
	return exitOK
}

// version says which refereed this is: the version, the commit it was built from (and
// whether the tree had local changes), and the Go release.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		if Version != "" {
			return "refereed " + Version
		}
		return "refereed (version unknown)"
	}
	v := Version
	if v == "" {
		v = bi.Main.Version
	}
	if v == "" {
		v = "(devel)"
	}
	out := "refereed " + v
	var rev, at string
	modified := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if rev != "" {
		out += ", commit " + rev[:min(12, len(rev))]
		if at != "" {
			out += " of " + at
		}
		if modified {
			out += " with local changes"
		}
	}
	return out + ", " + bi.GoVersion
}
