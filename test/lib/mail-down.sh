#!/bin/bash
# Stop the mail stack of mail-up.sh (this MAILCI_DIR's Dovecot and Postfix instances, by their
# pids) and wait for its processes to exit. Nothing else is stopped: not another run's, not
# the machine's Postfix.
D=${MAILCI_DIR:-/tmp/refereed-mailci}
pids=""
[ -f "$D/run/dovecot/master.pid" ] && pids="$pids $(cat "$D/run/dovecot/master.pid")"
[ -f "$D/postfix-queue/pid/master.pid" ] && pids="$pids $(tr -d ' ' < "$D/postfix-queue/pid/master.pid")"
[ -f "$D/postfix/main.cf" ] && postfix -c "$D/postfix" stop >/dev/null 2>&1
[ -f "$D/dovecot.conf" ] && doveadm -c "$D/dovecot.conf" stop >/dev/null 2>&1
for p in $pids; do
  for i in $(seq 1 100); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$p" 2>/dev/null && kill -9 "$p" 2>/dev/null
done
rm -f "$D/run/dovecot/master.pid" "$D/postfix-queue/pid/master.pid"
exit 0
