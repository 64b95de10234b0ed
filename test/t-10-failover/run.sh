#!/bin/bash
# Real Dovecot + Postfix and a PostgreSQL of its own: TestFailover (test/e2e/failover_test.go
# says what it checks): two instances on one store, the leader killed, stopped, and the
# database restarted during a burst of games by mail.
source "$(dirname "$0")/../lib/scenario.sh"
export PGCI_DIR=/tmp/refereed-pgci-t10 PGCI_PORT=15433
bash "$LIB/pg-up.sh"
export REFEREED_TEST_PG=$(cat "$PGCI_DIR/url")
code=0
run_scenario TestFailover || code=$?
bash "$LIB/pg-down.sh"
exit $code
