#!/bin/bash
# Real Dovecot + Postfix: TestDaemonRestart (test/e2e/scenarios_test.go says what it checks).
source "$(dirname "$0")/../lib/scenario.sh"
run_scenario TestDaemonRestart
