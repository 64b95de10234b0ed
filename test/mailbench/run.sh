#!/bin/bash
# Brings the real mail stack up and runs the mail pipeline benchmarks (referee beside a raw
# consumer, same run). Needs root (installs Dovecot and Postfix when missing).
source "$(dirname "$0")/../lib/scenario.sh"
trap 'bash "$LIB/mail-down.sh"' EXIT
bash "$LIB/mail-down.sh"
bash "$LIB/mail-up.sh" >/dev/null
cd "$ROOT"
go test -run '^$' -bench . -benchtime "${BENCHTIME:-1x}" -timeout 20m ./test/mailbench
