#!/bin/bash
# Real Dovecot + Postfix: TestMemoryBounded (test/e2e/memory_test.go says what it checks). The
# daemon runs in a 1 GiB memory cgroup when the machine offers one (cgroup v1 or v2).
source "$(dirname "$0")/../lib/scenario.sh"
cg=""
for base in /sys/fs/cgroup/memory /sys/fs/cgroup/unified /sys/fs/cgroup; do
  if [ -w "$base" ] && mkdir -p "$base/refereed-t08" 2>/dev/null; then
    if [ -f "$base/refereed-t08/memory.limit_in_bytes" ]; then
      echo $((1 << 30)) > "$base/refereed-t08/memory.limit_in_bytes" && cg="$base/refereed-t08" && break
    elif [ -f "$base/refereed-t08/memory.max" ]; then
      echo $((1 << 30)) > "$base/refereed-t08/memory.max" && cg="$base/refereed-t08" && break
    fi
    rmdir "$base/refereed-t08" 2>/dev/null || true
  fi
done
export REFEREED_TEST_CGROUP=$cg
[ -n "$cg" ] && echo "memory cgroup: $cg (1 GiB)" || echo "no memory cgroup here: peak RSS measured only"
cleanup_cg() { [ -n "$cg" ] && { cat "$cg/cgroup.procs" 2>/dev/null | while read -r p; do echo "$p" > "$(dirname "$cg")/cgroup.procs" 2>/dev/null; done; rmdir "$cg" 2>/dev/null; } ; true; }
code=0
run_scenario TestMemoryBounded || code=$?
cleanup_cg
exit $code
