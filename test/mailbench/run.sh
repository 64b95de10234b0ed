#!/bin/bash
# Brings the real mail stack up and runs the mail pipeline benchmarks (referee beside a raw
# consumer, same run). Needs root (installs Dovecot and Postfix when missing).
source "$(dirname "$0")/../lib/scenario.sh"
trap 'bash "$LIB/mail-down.sh"' EXIT
bash "$LIB/mail-down.sh"
bash "$LIB/mail-up.sh" >/dev/null
# PostgreSQL beside bbolt in the throughput benchmark (issue 24: at least 0.8x the raw consumer).
export PGCI_DIR=/tmp/refereed-pgci-bench PGCI_PORT=15434
bash "$LIB/pg-up.sh"
trap 'bash "$LIB/mail-down.sh"; bash "$LIB/pg-down.sh"' EXIT
export REFEREED_TEST_PG=$(cat "$PGCI_DIR/url")
cd "$ROOT"
go test -run '^$' -bench . -benchtime "${BENCHTIME:-1x}" -timeout 20m ./test/mailbench
