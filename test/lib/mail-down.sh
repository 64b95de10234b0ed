#!/bin/bash
# Stop the mail stack of mail-up.sh and wait for its processes to exit.
D=${MAILCI_DIR:-/tmp/refereed-mailci}
pids=""
[ -f "$D/run/dovecot/master.pid" ] && pids="$pids $(cat "$D/run/dovecot/master.pid")"
[ -f /var/spool/postfix/pid/master.pid ] && pids="$pids $(tr -d ' ' < /var/spool/postfix/pid/master.pid)"
postfix stop >/dev/null 2>&1 || true
doveadm -c "$D/dovecot.conf" stop >/dev/null 2>&1 || true
for p in $pids; do
  for i in $(seq 1 100); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$p" 2>/dev/null && kill -9 "$p" 2>/dev/null
done
rm -f "$D/run/dovecot/master.pid"
exit 0
