#!/bin/bash
# The daemon on a league (issue 23): TestLeagueStart (test/e2e/league_test.go says what it
# builds and measures). CI runs 1,000 games with a 15-second idle window, which keeps the
# scenario working; the README's figures come from
#   REFEREED_TEST_LEAGUE=1000,100000 bash test/t-11-league/run.sh
# (about five minutes: the 100,000 games are built first, then a minute idle at each size).
# No mail stack to install: the daemon's own. With REFEREED_TEST_LEAGUE_STORE=postgres the
# league is a PostgreSQL store (test/lib/pg-up.sh starts one when REFEREED_TEST_PG is unset).
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
export REFEREED_TEST_LEAGUE=${REFEREED_TEST_LEAGUE:-1000}
export REFEREED_TEST_LEAGUE_IDLE=${REFEREED_TEST_LEAGUE_IDLE:-15s}
if [ "${REFEREED_TEST_LEAGUE_STORE:-}" = postgres ] && [ -z "${REFEREED_TEST_PG:-}" ]; then
  bash test/lib/pg-up.sh
  trap 'bash test/lib/pg-down.sh' EXIT
  export REFEREED_TEST_PG=$(cat /tmp/refereed-pgci/url)
fi
log=${SCENARIO_LOG:-/tmp/refereed-scenario-TestLeagueStart.log}
set +e
go test -count=1 -timeout 60m -v -run '^TestLeagueStart$' ./test/e2e >"$log" 2>&1
code=$?
set -e
grep -E '^(=== RUN|--- |PASS|FAIL|ok|games=|league scenario|  games=|    [a-z0-9_]+\.go:)' "$log"
if [ $code -ne 0 ]; then tail -30 "$log"; echo "full log: $log"; fi
exit $code
