#!/bin/bash
# A challenge by mail, as the README's second quick start writes it (issue 37): `refereed
# serve` with the built-in mail server, carl challenges dana with swaks, dana reads her
# invitation with curl and answers ACCEPT to its Reply-To; both get the game's first mail,
# and the game is there. Then an open challenge taken with ACCEPT N, and a refusal.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
need=""
command -v swaks >/dev/null || need="$need swaks"
command -v curl >/dev/null || need="$need curl"
if [ -n "$need" ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null
fi
IMAP=${T14_IMAP:-127.0.0.1:31143}
SMTP=${T14_SMTP:-127.0.0.1:32525}
W=$(mktemp -d /tmp/refereed-t14.XXXXXX)
pid=""
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  rm -rf "$W"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; echo "--- daemon log"; tail -30 "$W/serve.log"; exit 1; }

(cd "$ROOT" && go build -o "$W/refereed" ./cmd/refereed)
cd "$W"
./refereed serve --imap "$IMAP" --smtp "$SMTP" >"$W/serve.log" 2>&1 &
pid=$!
for _ in $(seq 100); do [ -S "$W/refereed-data/refereed.sock" ] && break; sleep 0.1; done
grep -q "CHALLENGE bob@localhost orthodox" "$W/serve.log" || fail "the start banner does not tell of challenges"

# send FROM PASSWORD TO BODY: a mail through the built-in server, logged in, as swaks sends it.
send() {
  swaks --silent 2 --server "$SMTP" --auth-user "$1" --auth-password "$2" --from "$1" --to "$3" --body "$4" ||
    fail "swaks from $1 to $3"
}
# fetch ADDR PASSWORD UID: that mail of ADDR's inbox, waiting for it.
fetch() {
  local out
  for _ in $(seq 100); do
    out=$(curl -s "imap://$IMAP/INBOX;UID=$3" --user "$1:$2" || true)
    if [ -n "$out" ]; then printf '%s' "$out"; return; fi
    sleep 0.1
  done
  fail "no mail $3 for $1"
}

CARL=$(./refereed mailpass carl@localhost | awk '{print $NF}')
DANA=$(./refereed mailpass dana@localhost | awk '{print $NF}')
[ -n "$CARL" ] && [ -n "$DANA" ] || fail "no passwords from mailpass"
send carl@localhost "$CARL" referee@localhost 'CHALLENGE dana@localhost kriegspiel white'
fetch carl@localhost "$CARL" 1 | grep -q "Challenge #1 sent to dana@localhost: Kriegspiel" || fail "carl was not told of his challenge"
inv=$(fetch dana@localhost "$DANA" 1)
echo "$inv" | grep -q "carl@localhost challenges you to a game of Kriegspiel" || fail "dana's invitation: $inv"
DANA_TO=$(echo "$inv" | grep -i '^Reply-To:' | grep -o 'referee+c[^>]*')
[ -n "$DANA_TO" ] || fail "no reply address in the invitation"
send dana@localhost "$DANA" "$DANA_TO" 'ACCEPT'
fetch dana@localhost "$DANA" 2 | grep -q "You accepted challenge #1 from carl@localhost" || fail "dana's first mail of the game"
fetch carl@localhost "$CARL" 2 | grep -q "dana@localhost accepted your challenge #1" || fail "carl's first mail of the game"
./refereed list | grep -q "kriegspiel" || fail "the game is not listed: $(./refereed list)"

# An open challenge, listed and taken by number; a second ACCEPT is told it is gone.
ERIN=$(./refereed mailpass erin@localhost | awk '{print $NF}')
send dana@localhost "$DANA" referee@localhost 'CHALLENGE ANY orthodox black'
fetch dana@localhost "$DANA" 3 | grep -q "Challenge #2 is open to anyone" || fail "dana's open challenge"
send erin@localhost "$ERIN" referee@localhost 'CHALLENGES'
fetch erin@localhost "$ERIN" 1 | grep -q "#2 from dana@localhost: Orthodox chess" || fail "erin's list"
send erin@localhost "$ERIN" referee@localhost 'ACCEPT 2'
fetch erin@localhost "$ERIN" 2 | grep -q "You accepted challenge #2 from dana@localhost" || fail "erin's game"
send carl@localhost "$CARL" referee@localhost 'ACCEPT 2'
fetch carl@localhost "$CARL" 3 | grep -q "there is no open challenge #2" || fail "carl's late ACCEPT"
[ "$(./refereed list | grep -c ' active ')" -ge 2 ] || fail "two games in progress: $(./refereed list)"
grep -q "level=ERROR" "$W/serve.log" && fail "errors in the daemon's log"
echo "t-14-challenges: passed"
