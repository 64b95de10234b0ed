#!/bin/bash
# Real Dovecot + Postfix: TestIMAPTLS (test/e2e/scenarios_test.go says what it checks).
source "$(dirname "$0")/../lib/scenario.sh"
run_scenario TestIMAPTLS
