#!/bin/bash
# Stops and removes the throwaway cluster of pg-up.sh.
set -u
PGCI_DIR=${PGCI_DIR:-/tmp/refereed-pgci}
BIN=/usr/lib/postgresql/15/bin
if [ -d "$PGCI_DIR/data" ]; then
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$BIN/pg_ctl" -D "$PGCI_DIR/data" -m fast -w stop >/dev/null 2>&1
  else
    "$BIN/pg_ctl" -D "$PGCI_DIR/data" -m fast -w stop >/dev/null 2>&1
  fi
fi
rm -rf "$PGCI_DIR"
exit 0
