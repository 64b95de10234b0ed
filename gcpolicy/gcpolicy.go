// Package gcpolicy sets how often the daemon's garbage collector runs.
//
// A referee holds little in its heap between mails, since the games are in the store's file
// or in PostgreSQL. Most of what a mail allocates (the parsed mail, the rendered views, the
// records read and written) is garbage once the mail is answered. With Go's default
// (GOGC=100), the collector runs every few moves and takes about a quarter of the CPU of the
// referee's work on a move. At GOGC=400 the heap may grow to five times what is live before
// a collection, which is tens of megabytes here, and the referee's CPU a move falls by about
// a quarter (BenchmarkMoveMail, README "Benchmarks").
//
// A soft memory limit bounds that growth where the process is given a limit: half of its
// memory cgroup's limit (v2 or v1), or a quarter of its address-space limit (ulimit -v). Near
// the soft limit the collector runs as often as it must. GOGC and GOMEMLIMIT in the
// environment override this policy, as they do for any Go program.
package gcpolicy

import (
	"bufio"
	"bytes"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
)

// Percent is the GOGC the daemon runs with when the environment sets none.
const Percent = 400

// Settings is what Apply set; the zero value of a field means that it left that setting as it was.
type Settings struct {
	Percent int   // GOGC, 0 when the environment's was kept
	Limit   int64 // the soft memory limit in bytes, 0 when none was set
}

// Apply sets the collector's pace and soft memory limit, unless the environment sets them
// (getenv is os.Getenv outside tests).
func Apply(getenv func(string) string) Settings {
	var s Settings
	if getenv("GOGC") == "" {
		debug.SetGCPercent(Percent)
		s.Percent = Percent
	}
	if getenv("GOMEMLIMIT") == "" {
		if lim := Limit(os.DirFS("/").(fs.ReadFileFS), addressSpace()); lim > 0 {
			debug.SetMemoryLimit(lim)
			s.Limit = lim
		}
	}
	return s
}

// Limit is the soft memory limit for a process whose filesystem root is root and whose
// address-space limit is as (0 for none): half of the memory cgroup's limit, or a quarter of
// as, whichever is lower. It returns 0 when the process has neither limit.
func Limit(root fs.ReadFileFS, as int64) int64 {
	var lim int64
	if cg := cgroupLimit(root); cg > 0 {
		lim = cg / 2
	}
	if as > 0 && (lim == 0 || as/4 < lim) {
		lim = as / 4
	}
	return lim
}

// cgroupLimit is the memory limit of the process's own cgroup in bytes, 0 when it has none.
// It reads /proc/self/cgroup for the cgroup's path, then memory.max (v2) or
// memory.limit_in_bytes (v1) under /sys/fs/cgroup.
func cgroupLimit(root fs.ReadFileFS) int64 {
	self, err := root.ReadFile("proc/self/cgroup")
	if err != nil {
		return 0
	}
	var v1, v2 string
	sc := bufio.NewScanner(bytes.NewReader(self))
	for sc.Scan() {
		// hierarchy-ID:controllers:path
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		switch {
		case parts[0] == "0" && parts[1] == "":
			v2 = parts[2]
		case hasController(parts[1], "memory"):
			v1 = parts[2]
		}
	}
	// The path may not be visible under the mount (a container's own cgroup is mounted as
	// the root): the mount's root file is the container's limit then.
	if v1 != "" {
		if n := readLimit(root, "sys/fs/cgroup/memory", v1, "memory.limit_in_bytes"); n > 0 {
			return n
		}
	}
	if v2 != "" {
		return readLimit(root, "sys/fs/cgroup", v2, "memory.max")
	}
	return 0
}

func hasController(list, name string) bool {
	for _, c := range strings.Split(list, ",") {
		if c == name {
			return true
		}
	}
	return false
}

// unlimited is above any real limit: cgroup v1 writes a huge number for "no limit".
const unlimited = 1 << 60

// readLimit reads the limit file of cgroup path under the mount dir, or the mount's own when
// that path is not there: a number of bytes, or "max". 0 means no limit.
func readLimit(root fs.ReadFileFS, dir, path, file string) int64 {
	b, err := root.ReadFile(filepath.Join(dir, path, file))
	if err != nil {
		if b, err = root.ReadFile(filepath.Join(dir, file)); err != nil {
			return 0
		}
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil || n <= 0 || n >= unlimited {
		return 0 // "max", or unreadable
	}
	return n
}

// addressSpace is the process's RLIMIT_AS in bytes, 0 when unlimited.
func addressSpace() int64 {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &r); err != nil || r.Cur == math.MaxUint64 || r.Cur >= unlimited {
		return 0
	}
	return int64(r.Cur)
}
