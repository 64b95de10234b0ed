#!/bin/bash
# The built-in mail server for players on other machines (issue 36), with real clients from
# Debian: msmtp submits over STARTTLS and mbsync reads over STARTTLS, each checking the
# server's certificate against the CA it was given (and failing against another CA); then
# Pebble, the ACME test server Debian packages, issues the server's certificate, and msmtp
# checks that one. The connections come from this machine (the test's own); that a client on
# another machine logs in only over TLS is the unit tests' (mailer/localmail, guard_test.go).
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
need=""
command -v msmtp >/dev/null || need="$need msmtp"
command -v mbsync >/dev/null || need="$need isync"
command -v pebble >/dev/null || need="$need pebble"
command -v openssl >/dev/null || need="$need openssl"
command -v curl >/dev/null || need="$need curl"
if [ -n "$need" ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null
fi
IMAP=127.0.0.1:${T13_IMAP_PORT:-23143}
SMTP=127.0.0.1:${T13_SMTP_PORT:-23587}
SMTPS=127.0.0.1:${T13_SMTPS_PORT:-23465}
HOST=mail.refereed.test
W=$(mktemp -d /tmp/refereed-t13.XXXXXX)
pids=""
cleanup() {
  set +e # every process is stopped, whatever each one's wait says (pebble's is 143)
  for p in $pids; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
  rm -rf "$W"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; for l in "$W"/*.log; do echo "--- $l"; tail -15 "$l"; done; exit 1; }

# A CA of the test's own, and the server's certificate from it (the host name and 127.0.0.1);
# another CA that did not sign it.
cd "$W"
ca() {
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj "/CN=$1" \
    -keyout "$1.key" -out "$1.pem" 2>/dev/null
}
ca test-ca
ca other-ca
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=$HOST" -keyout server.key -out server.csr 2>/dev/null
printf 'subjectAltName=DNS:%s,DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n' "$HOST" >ext.cnf
openssl x509 -req -in server.csr -CA test-ca.pem -CAkey test-ca.key -CAcreateserial -days 2 -extfile ext.cnf -out server.pem 2>/dev/null
cat server.pem test-ca.pem >chain.pem

(cd "$ROOT" && go build -o "$W/refereed" ./cmd/refereed)
./refereed serve --data "$W/data" --address "referee@$HOST" --imap "$IMAP" --smtp "$SMTP" --smtps "$SMTPS" \
  --tls-cert chain.pem --tls-key server.key >"$W/serve.log" 2>&1 &
pids="$pids $!"
for _ in $(seq 100); do [ -S "$W/data/refereed.sock" ] && break; sleep 0.1; done
[ -S "$W/data/refereed.sock" ] || fail "the daemon did not start"
grep -q "with STARTTLS, SMTPS $SMTPS; certificate from chain.pem" serve.log || fail "the start summary does not name the TLS ports"
./refereed new --data "$W/data" --variant orthodox --white "ann@$HOST" --black "bob@$HOST" >new.out
pass() { awk -v a="$1@$HOST" '$0 ~ a" logs in with password" {print $NF}' new.out; }
ANN=$(pass ann)
BOB=$(pass bob)
ANN_TO=$(./refereed show 1 --data "$W/data" | awk -v a="ann@$HOST" '$0 ~ "^"a" .* replies to" {print $NF}')
[ -n "$ANN" ] && [ -n "$BOB" ] && [ -n "$ANN_TO" ] || fail "no passwords or reply address"

# msmtp: STARTTLS on the submission port, the certificate checked against the test's CA.
msmtprc() { # NAME PASS TRUST PORT [tls_starttls]
  cat >"$1.msmtprc" <<CONF
account $1
host 127.0.0.1
port $4
from $1@$HOST
auth on
user $1@$HOST
password $2
tls on
tls_starttls ${5:-on}
tls_trust_file $W/$3
CONF
  chmod 600 "$1.msmtprc"
}
move() { # NAME TO BODY
  printf 'From: %s@%s\r\nTo: %s\r\nSubject: Re: your move\r\n\r\n%s\r\n' "$1" "$HOST" "$2" "$3" |
    msmtp -C "$W/$1.msmtprc" -a "$1" "$2"
}
msmtprc ann "$ANN" other-ca.pem "${SMTP#*:}"
if move ann "$ANN_TO" e4 2>msmtp-other.err; then
  fail "msmtp accepted a certificate its CA did not sign"
fi
grep -qi "certificate" msmtp-other.err || fail "msmtp's refusal does not name the certificate: $(cat msmtp-other.err)"
msmtprc ann "$ANN" test-ca.pem "${SMTP#*:}"
move ann "$ANN_TO" e4 || fail "msmtp over STARTTLS"
echo "msmtp: STARTTLS, certificate checked; the other CA's refused"

# mbsync: Bob reads over STARTTLS, the certificate checked (mbsync matches the host's name,
# not an address: it dials localhost, which the certificate names too).
mkdir -p bob/Maildir
cat >bob.mbsyncrc <<CONF
IMAPAccount bob
Host localhost
Port ${IMAP#*:}
User bob@$HOST
Pass $BOB
SSLType STARTTLS
CertificateFile $W/test-ca.pem

IMAPStore bob-remote
Account bob

MaildirStore bob-local
Path $W/bob/Maildir/
Inbox $W/bob/Maildir/INBOX

Channel bob
Far :bob-remote:
Near :bob-local:
Patterns INBOX
Create Near
Sync Pull
SyncState *
CONF
chmod 600 bob.mbsyncrc
for _ in $(seq 50); do
  mbsync -q -c bob.mbsyncrc bob 2>mbsync.err || fail "mbsync over STARTTLS: $(cat mbsync.err)"
  grep -rqs "White played 1. e4" bob/Maildir/INBOX && break
  sleep 0.2
done
grep -rqs "White played 1. e4" bob/Maildir/INBOX || fail "Bob's mail of 1. e4 did not come"
echo "mbsync: STARTTLS, certificate checked; Bob has White's 1. e4"

# Implicit TLS (SMTPS): Bob answers on it.
BOB_TO=$(./refereed show 1 --data "$W/data" | awk -v a="bob@$HOST" '$0 ~ "^"a" .* replies to" {print $NF}')
msmtprc bob "$BOB" test-ca.pem "${SMTPS#*:}" off
move bob "$BOB_TO" e5 || fail "msmtp over implicit TLS"
echo "msmtp: implicit TLS on the SMTPS port"

# Pebble issues the server's certificate by ACME (its validation always passes: the test has
# no DNS for the host), and msmtp checks it against Pebble's root.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj "/CN=127.0.0.1" \
  -addext "subjectAltName=IP:127.0.0.1,DNS:localhost" -keyout pebble.key -out pebble.pem 2>/dev/null
cat >pebble.json <<CONF
{"pebble": {"listenAddress": "127.0.0.1:24000", "managementListenAddress": "127.0.0.1:25000",
 "certificate": "$W/pebble.pem", "privateKey": "$W/pebble.key", "httpPort": 25002, "tlsPort": 25001,
 "ocspResponderURL": "", "externalAccountBindingRequired": false}}
CONF
PEBBLE_VA_ALWAYS_VALID=1 PEBBLE_WFE_NONCEREJECT=0 pebble -config pebble.json >"$W/pebble.log" 2>&1 &
pids="$pids $!"
for _ in $(seq 50); do curl -sk https://127.0.0.1:24000/dir >/dev/null && break; sleep 0.2; done
./refereed serve --data "$W/data2" --address "referee@$HOST" --imap 127.0.0.1:23144 --smtp 127.0.0.1:23588 \
  --acme "$HOST" --acme-directory https://127.0.0.1:24000/dir --acme-ca pebble.pem --acme-http 127.0.0.1:25002 >"$W/serve-acme.log" 2>&1 &
pids="$pids $!"
for _ in $(seq 150); do grep -q "ACME: certificate ready" serve-acme.log && break; sleep 0.2; done
grep -q "ACME: certificate ready" serve-acme.log || fail "no certificate from Pebble"
curl -sk https://127.0.0.1:25000/roots/0 >pebble-root.pem
./refereed mailpass --data "$W/data2" "carl@$HOST" >carl.out
CARL=$(awk '{print $NF}' carl.out | tail -1)
cat >carl.msmtprc <<CONF
account carl
host 127.0.0.1
port 23588
from carl@$HOST
auth on
user carl@$HOST
password $CARL
tls on
tls_starttls on
tls_trust_file $W/pebble-root.pem
tls_host_override $HOST
CONF
chmod 600 carl.msmtprc
printf 'From: carl@%s\r\nTo: referee@%s\r\nSubject: hello\r\n\r\nHELP\r\n' "$HOST" "$HOST" |
  msmtp -C "$W/carl.msmtprc" -a carl "referee@$HOST" || fail "msmtp with the certificate Pebble issued"
echo "ACME: Pebble issued the certificate for $HOST; msmtp checked it"
echo "t-13 passed"
