#!/bin/bash
# The small shell library of the real-server scenarios: bring the mail stack up with the
# users every scenario needs, run one Go scenario against it, and always bring it down.
# Usage (from a scenario's run.sh): source ../lib/scenario.sh; run_scenario TestName
set -eu
LIB=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$LIB/../.." && pwd)
export MAILCI_DIR=${MAILCI_DIR:-/tmp/refereed-mailci}
export MAIL_USER=referee@example.test MAIL_PASS=secret
users="ann bob carl dana mallory"
for i in $(seq 0 19); do users="$users w$i b$i"; done
export REFEREED_TEST_USERS=$(for u in $users; do printf '%s@example.test ' "$u"; done)
# The mail stack is this run's own (mail-up.sh): its directory and ports may be moved so that
# two runs share a machine (MAILCI_DIR, IMAP_PORT, SMTP_PORT, LMTP_PORT, IMAPS_PORT).
export IMAP_PORT=${IMAP_PORT:-1143} IMAPS_PORT=${IMAPS_PORT:-1993} SMTP_PORT=${SMTP_PORT:-2525} LMTP_PORT=${LMTP_PORT:-2424}
export REFEREED_TEST_REAL=1 IMAP_ADDR=127.0.0.1:$IMAP_PORT SMTP_ADDR=127.0.0.1:$SMTP_PORT
export DOVECOT_CONF=$MAILCI_DIR/dovecot.conf POSTFIX_CONF=$MAILCI_DIR/postfix

run_scenario() {
  trap 'bash "$LIB/mail-down.sh"' EXIT
  bash "$LIB/mail-down.sh"
  bash "$LIB/mail-up.sh"
  cd "$ROOT"
  local log=${SCENARIO_LOG:-/tmp/refereed-scenario-$1.log}
  set +e
  go test -count=1 -timeout 15m -v -run "^$1\$" ./test/e2e >"$log" 2>&1
  local code=$?
  set -e
  # The test's own lines first, then the tail of the daemon's log if it failed.
  grep -E '^(=== RUN|--- |PASS|FAIL|ok|    [a-z0-9_]+\.go:)' "$log"
  if [ $code -ne 0 ]; then tail -30 "$log"; echo "full log: $log"; fi
  return $code
}
