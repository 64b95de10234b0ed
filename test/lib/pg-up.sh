#!/bin/bash
# A throwaway PostgreSQL 15 cluster on 127.0.0.1 for the tests: Debian's postgresql package
# (installed when missing), initdb and pg_ctl, no systemd. Prints nothing but errors; the
# URL of its database is written to $PGCI_DIR/url (and is what REFEREED_TEST_PG should be).
# Usage: bash test/lib/pg-up.sh; ...; bash test/lib/pg-down.sh
set -eu
PGCI_DIR=${PGCI_DIR:-/tmp/refereed-pgci}
# Below the kernel's ephemeral ports (32768-60999 here), which a burst of mail connections
# may hold at the moment the server binds.
PGCI_PORT=${PGCI_PORT:-15432}
BIN=/usr/lib/postgresql/15/bin
if [ ! -x "$BIN/initdb" ]; then
  export DEBIAN_FRONTEND=noninteractive
  (apt-get update -qq && apt-get install -y -qq postgresql-15) >/dev/null
fi
# PostgreSQL will not run as root: the cluster belongs to the postgres user when we are root.
as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
if [ -f "$PGCI_DIR/data/postmaster.pid" ] && as_owner "$BIN/pg_ctl" -D "$PGCI_DIR/data" status >/dev/null 2>&1; then
  exit 0 # already up
fi
rm -rf "$PGCI_DIR"
mkdir -p "$PGCI_DIR"
if [ "$(id -u)" = 0 ]; then chown postgres: "$PGCI_DIR"; fi
as_owner "$BIN/initdb" -D "$PGCI_DIR/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$PGCI_DIR/initdb.log" 2>&1 ||
  { cat "$PGCI_DIR/initdb.log"; exit 1; }
cat >>"$PGCI_DIR/data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $PGCI_PORT
unix_socket_directories = '$PGCI_DIR'
max_connections = 200
fsync = on
CONF
as_owner "$BIN/pg_ctl" -D "$PGCI_DIR/data" -l "$PGCI_DIR/server.log" -w -t 30 start >/dev/null ||
  { tail -20 "$PGCI_DIR/server.log"; exit 1; }
as_owner "$BIN/createdb" -h 127.0.0.1 -p "$PGCI_PORT" -U postgres refereed
echo "postgres://postgres@127.0.0.1:$PGCI_PORT/refereed?sslmode=disable" >"$PGCI_DIR/url"
