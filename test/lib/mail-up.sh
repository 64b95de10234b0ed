#!/bin/bash
# Start Dovecot (IMAP + LMTP) and Postfix (SMTP -> Dovecot LMTP) on 127.0.0.1, without
# systemd (the recipe of shared/mail-stack.md §8, with several users, plus addresses and a
# size limit above 10 MB). Installs the packages when missing. Needs root.
#
# Both are instances of their own, everything under $MAILCI_DIR: Dovecot from its own
# dovecot.conf, Postfix from its own configuration directory ($D/postfix: main.cf, master.cf)
# with its own queue, data and pid directories, started with `postfix -c`. The machine's
# Postfix (/etc/postfix) is never read, changed or stopped, and two runs with different
# MAILCI_DIR and ports never touch each other; mail-down.sh stops this run's, by pid.
set -eu
D=${MAILCI_DIR:-/tmp/refereed-mailci}
IMAP_PORT=${IMAP_PORT:-1143}; IMAPS_PORT=${IMAPS_PORT:-1993}
SMTP_PORT=${SMTP_PORT:-2525}; LMTP_PORT=${LMTP_PORT:-2424}
MAIL_USER=${MAIL_USER:-referee@example.test}; MAIL_PASS=${MAIL_PASS:-secret}
DOMAIN=${MAIL_USER#*@}
# Every test user of the scenarios gets a mailbox.
USERS="$MAIL_USER ${REFEREED_TEST_USERS:-}"

if ! command -v dovecot >/dev/null || ! command -v postfix >/dev/null || [ ! -x /usr/lib/dovecot/lmtp ]; then
  export DEBIAN_FRONTEND=noninteractive
  echo "postfix postfix/main_mailer_type select Local only" | debconf-set-selections
  echo "postfix postfix/mailname string localhost" | debconf-set-selections
  apt-get update -q >/dev/null
  apt-get install -y -q --no-install-recommends dovecot-imapd dovecot-lmtpd postfix openssl >/dev/null
fi

mkdir -p "$D/run" "$D/mail"
chown mail:mail "$D/mail"
[ -f "$D/tls.key" ] || openssl req -x509 -newkey rsa:2048 -nodes -days 365 -subj /CN=localhost \
  -keyout "$D/tls.key" -out "$D/tls.crt" >/dev/null 2>&1

: > "$D/passwd"
: > "$D/vmailbox"
for u in $USERS; do
  printf '%s:{PLAIN}%s::::::\n' "$u" "$MAIL_PASS" >> "$D/passwd"
  printf '%s OK\n' "$u" >> "$D/vmailbox"
done
chmod 640 "$D/passwd"; chgrp dovecot "$D/passwd"
cat > "$D/dovecot.conf" <<CONF
instance_name = refereed-$(basename "$D")
base_dir = $D/run/dovecot
state_dir = $D/run/dovecot-state
log_path = $D/dovecot.log
protocols = imap lmtp
listen = 127.0.0.1
ssl = yes
ssl_cert = <$D/tls.crt
ssl_key = <$D/tls.key
disable_plaintext_auth = no
auth_mechanisms = plain login
first_valid_uid = 8
mail_location = maildir:~/Maildir
recipient_delimiter = +
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u $D/passwd
}
userdb {
  driver = passwd-file
  args = username_format=%u $D/passwd
  default_fields = uid=mail gid=mail home=$D/mail/%d/%n
}
namespace inbox {
  inbox = yes
  separator = /
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = $IMAP_PORT
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = $IMAPS_PORT
    ssl = yes
  }
}
service lmtp {
  inet_listener lmtp {
    address = 127.0.0.1
    port = $LMTP_PORT
  }
}
protocol lmtp {
  postmaster_address = postmaster@$DOMAIN
}
CONF
dovecot -c "$D/dovecot.conf" </dev/null >>"$D/dovecot.log" 2>&1

# --- Postfix: an instance of its own in $D/postfix (config), $D/postfix-queue, $D/postfix-data ---
P=$D/postfix
mkdir -p "$P" "$D/postfix-queue" "$D/postfix-data"
chown postfix "$D/postfix-data"
# master.cf: the package's services, without its smtp on port 25 (the machine's, if any),
# nothing chrooted (Debian chroots into the default queue directory), and ours on SMTP_PORT.
sed -e '/^smtp[[:space:]]\+inet/,/^[^[:space:]#]/{/^smtp[[:space:]]\+inet/d;/^[[:space:]]/d}' \
  /usr/share/postfix/master.cf.dist > "$P/master.cf"
: > "$P/main.cf"
pc() { postconf -c "$P" "$@"; }
pc -e \
  "compatibility_level = 3.6" \
  "queue_directory = $D/postfix-queue" \
  "data_directory = $D/postfix-data" \
  "mail_owner = postfix" "setgid_group = postdrop" \
  "syslog_name = postfix-$(basename "$D")" \
  "myhostname = localhost" \
  "mydestination =" \
  "inet_interfaces = 127.0.0.1" \
  "inet_protocols = ipv4" \
  "mynetworks = 127.0.0.0/8" \
  "smtpd_relay_restrictions = permit_mynetworks, reject_unauth_destination" \
  "virtual_mailbox_domains = $DOMAIN" \
  "virtual_mailbox_maps = texthash:$D/vmailbox" \
  "virtual_transport = lmtp:inet:127.0.0.1:$LMTP_PORT" \
  "recipient_delimiter = +" \
  "message_size_limit = 41943040" \
  "alias_maps =" "alias_database =" \
  "queue_run_delay = 2s" "minimal_backoff_time = 2s" "maximal_backoff_time = 10s" \
  "maillog_file_prefixes = /var, /dev/stdout, $D" \
  "maillog_file = $D/postfix.log"
pc -M "$SMTP_PORT/inet=$SMTP_PORT inet n - n - - smtpd"
pc -F '*/*/chroot = n'
postfix -c "$P" set-permissions </dev/null >>"$D/postfix.log" 2>&1 || true
postfix -c "$P" start </dev/null >>"$D/postfix.log" 2>&1 || postfix -c "$P" reload </dev/null >>"$D/postfix.log" 2>&1

for i in $(seq 1 100); do
  if (exec 3<>/dev/tcp/127.0.0.1/$SMTP_PORT) 2>/dev/null && (exec 3<>/dev/tcp/127.0.0.1/$IMAP_PORT) 2>/dev/null; then
    echo "mail stack up: IMAP 127.0.0.1:$IMAP_PORT SMTP 127.0.0.1:$SMTP_PORT, users: $USERS"
    exit 0
  fi
  sleep 0.1
done
echo "mail stack did not come up; see $D/dovecot.log and $D/postfix.log" >&2
exit 1
