package gcpolicy

import (
	"runtime/debug"
	"testing"
	"testing/fstest"
)

func TestLimit(t *testing.T) {
	v2 := func(path, max string) fstest.MapFS {
		return fstest.MapFS{
			"proc/self/cgroup":                     {Data: []byte("0::" + path + "\n")},
			"sys/fs/cgroup" + path + "/memory.max": {Data: []byte(max + "\n")},
		}
	}
	v1 := fstest.MapFS{
		"proc/self/cgroup": {Data: []byte("12:cpu,cpuacct:/x\n11:memory:/refereed-t09\n0::/\n")},
		"sys/fs/cgroup/memory/refereed-t09/memory.limit_in_bytes": {Data: []byte("268435456\n")},
	}
	v1Unlimited := fstest.MapFS{
		"proc/self/cgroup":                           {Data: []byte("11:memory:/\n")},
		"sys/fs/cgroup/memory/memory.limit_in_bytes": {Data: []byte("9223372036854771712\n")},
	}
	for _, c := range []struct {
		name string
		root fstest.MapFS
		as   int64
		want int64
	}{
		{"no cgroup file, no ulimit", fstest.MapFS{}, 0, 0},
		{"v2 with a limit", v2("/refereed-t09", "268435456"), 0, 128 << 20},
		{"v2 max", v2("/user.slice", "max"), 0, 0},
		{"v2 root cgroup has no memory.max", fstest.MapFS{"proc/self/cgroup": {Data: []byte("0::/\n")}}, 0, 0},
		{"v2 garbage", v2("/a", "lots"), 0, 0},
		{"v1 with a limit", v1, 0, 128 << 20},
		{"v1 unlimited", v1Unlimited, 0, 0},
		{"v1 path not mounted: the mount's root", fstest.MapFS{
			"proc/self/cgroup":                           {Data: []byte("4:memory:/process_api/b41\n0::/\n")},
			"sys/fs/cgroup/memory/memory.limit_in_bytes": {Data: []byte("536870912\n")},
		}, 0, 256 << 20},
		{"ulimit -v 1 GiB alone", fstest.MapFS{}, 1 << 30, 256 << 20},
		{"the lower of the two", v2("/a", "268435456"), 1 << 30, 128 << 20},
		{"the lower of the two, ulimit", v2("/a", "4294967296"), 1 << 30, 256 << 20},
	} {
		if got := Limit(c.root, c.as); got != c.want {
			t.Errorf("%s: Limit = %d, want %d", c.name, got, c.want)
		}
	}
}

func TestApplyKeepsTheEnvironments(t *testing.T) {
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	env := map[string]string{"GOGC": "50", "GOMEMLIMIT": "1GiB"}
	if s := Apply(func(k string) string { return env[k] }); s != (Settings{}) {
		t.Errorf("Apply with GOGC and GOMEMLIMIT set = %+v, want nothing set", s)
	}
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GOGC changed to %d although the environment set it", got)
	}
	if s := Apply(func(string) string { return "" }); s.Percent != Percent {
		t.Errorf("Apply = %+v, want GOGC %d", s, Percent)
	}
	if got := debug.SetGCPercent(100); got != Percent {
		t.Errorf("GOGC is %d, want %d", got, Percent)
	}
}
