#!/bin/bash
# The built-in mail server under a hostile, logged-in player: TestLocalMailMemory
# (test/e2e/localmem_test.go says what it checks). The daemon starts inside a 256 MiB memory
# cgroup (v2 under /sys/fs/cgroup, else v1's memory controller); where neither is writable,
# `ulimit -v` (1 GiB of address space: Go reserves more than it uses) bounds it instead, and
# the peak resident set is checked all the same. No mail stack to install: the daemon's own.
# REFEREED_TEST_LOCALMEM_GB=1 adds the 1 GB measurement (about 700 more mails).
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
name=refereed-t09-$$
cg=""
if [ -f /sys/fs/cgroup/cgroup.controllers ] && grep -qw memory /sys/fs/cgroup/cgroup.controllers && mkdir "/sys/fs/cgroup/$name" 2>/dev/null; then
  echo $((256 << 20)) > "/sys/fs/cgroup/$name/memory.max" && echo 0 > "/sys/fs/cgroup/$name/memory.swap.max" 2>/dev/null || true
  cg=/sys/fs/cgroup/$name
elif [ -w /sys/fs/cgroup/memory ] && mkdir "/sys/fs/cgroup/memory/$name" 2>/dev/null; then
  echo $((256 << 20)) > "/sys/fs/cgroup/memory/$name/memory.limit_in_bytes"
  cg=/sys/fs/cgroup/memory/$name
fi
cleanup() {
  [ -n "$cg" ] || return 0
  while read -r p; do kill -9 "$p" 2>/dev/null || true; done < "$cg/cgroup.procs"
  sleep 1; rmdir "$cg" 2>/dev/null || true
}
trap cleanup EXIT
if [ -n "$cg" ]; then
  echo "memory cgroup: $cg (256 MiB)"
  export REFEREED_TEST_CGROUP_START=$cg
else
  echo "no writable memory cgroup: ulimit -v 1 GiB instead"
  ulimit -v $((1 << 20))
fi
log=${SCENARIO_LOG:-/tmp/refereed-scenario-TestLocalMailMemory.log}
set +e
REFEREED_TEST_LOCALMEM=1 go test -count=1 -timeout 20m -v -run '^TestLocalMailMemory$' ./test/e2e >"$log" 2>&1
code=$?
set -e
grep -E '^(=== RUN|--- |PASS|FAIL|ok|local mail|300 mails|    [a-z0-9_]+\.go:)' "$log"
if [ $code -ne 0 ]; then tail -30 "$log"; echo "full log: $log"; fi
exit $code
