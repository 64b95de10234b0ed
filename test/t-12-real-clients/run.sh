#!/bin/bash
# Real clients from Debian against the built-in mail server (issue 34): `refereed serve` runs
# its own IMAP and SMTP on 127.0.0.1; mbsync fetches each player's mail into a Maildir, and
# mutt answers it through msmtp, writing below the quote (bottom posting) with a sign-off,
# as a mutt user does. The client settings are the README's ("Mail clients"). It checks that
# both moves were played, that each player got the other's news, and that nothing was
# refused. mutt runs under script(1), which gives it the terminal it wants; its $editor is a
# script that writes the move under the quote.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
need=""
command -v mutt >/dev/null || need="$need mutt"
command -v msmtp >/dev/null || need="$need msmtp"
command -v mbsync >/dev/null || need="$need isync"
command -v script >/dev/null || need="$need bsdutils"
if [ -n "$need" ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null
fi
IMAP=${T12_IMAP:-127.0.0.1:21143}
SMTP=${T12_SMTP:-127.0.0.1:22525}
W=$(mktemp -d /tmp/refereed-t12.XXXXXX)
pid=""
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  rm -rf "$W"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; echo "--- daemon log"; tail -20 "$W/serve.log"; exit 1; }

(cd "$ROOT" && go build -o "$W/refereed" ./cmd/refereed)
cd "$W"
./refereed serve --data "$W/data" --imap "$IMAP" --smtp "$SMTP" >"$W/serve.log" 2>&1 &
pid=$!
for _ in $(seq 100); do [ -S "$W/data/refereed.sock" ] && break; sleep 0.1; done
./refereed new --data "$W/data" --variant orthodox --white ann@localhost --black bob@localhost >"$W/new.out"
cat "$W/new.out"

# client NAME: mbsync, msmtp and mutt set up for NAME@localhost as the README says.
client() {
  local name=$1 pass d=$W/$1
  pass=$(awk -v a="$1@localhost" '$0 ~ a" logs in with password" {print $NF}' "$W/new.out")
  [ -n "$pass" ] || fail "no password for $name"
  mkdir -p "$d/Maildir"
  cat >"$d/mbsyncrc" <<CONF
IMAPAccount $name
Host ${IMAP%:*}
Port ${IMAP#*:}
User $name@localhost
Pass $pass
SSLType None
AuthMechs LOGIN

IMAPStore $name-remote
Account $name

MaildirStore $name-local
Path $d/Maildir/
Inbox $d/Maildir/INBOX

Channel $name
Far :$name-remote:
Near :$name-local:
Patterns INBOX
Create Near
Sync Pull
SyncState *
CONF
  cat >"$d/msmtprc" <<CONF
account $name
host ${SMTP%:*}
port ${SMTP#*:}
from $name@localhost
auth on
user $name@localhost
password $pass
tls off
CONF
  chmod 600 "$d/msmtprc" "$d/mbsyncrc"
  cat >"$d/muttrc" <<CONF
set mbox_type=Maildir
set folder=$d/Maildir
set spoolfile=$d/Maildir/INBOX
set from=$name@localhost
set use_from=yes
set sendmail="msmtp -C $d/msmtprc -a $name"
set editor=$d/editor.sh
set fast_reply=yes
set include=yes
set reply_to=yes
set copy=no
set postpone=no
set quit=yes
set sort=date-received
set ssl_force_tls=no
CONF
}

# fetch NAME TEXT: mbsync NAME's mail until a mail holds TEXT (30 s at most); prints its file.
fetch() {
  local f
  for _ in $(seq 60); do
    mbsync -q -c "$W/$1/mbsyncrc" "$1" 2>>"$W/mbsync.log" || true
    f=$(grep -l -- "$2" "$W/$1"/Maildir/INBOX/*/* 2>/dev/null | tail -1 || true)
    if [ -n "$f" ]; then echo "$f"; return 0; fi
    sleep 0.5
  done
  fail "$1 never got a mail with \"$2\""
}

# reply NAME TEXT MOVE...: mutt replies to NAME's mail that holds TEXT, the lines MOVE... below
# the quote, then a sign-off in its own paragraph.
reply() {
  local name=$1 text=$2 f re
  shift 2
  f=$(fetch "$name" "$text")
  {
    echo '#!/bin/sh'
    printf 'printf "\\n%s\\n" >>"$1"\n' "$*"
    printf 'printf "\\nThanks,\\n%s\\n" >>"$1"\n' "$name"
    echo 'cp "$1" "$(dirname "$0")/draft.txt"'
  } >"$W/$name/editor.sh"
  chmod +x "$W/$name/editor.sh"
  # mutt limits its index to the mails whose body matches (~b), and answers the last.
  re=$(printf '%s' "$text" | tr ' ' '.')
  rm -f "$W/$name/draft.txt"
  TERM=xterm timeout 60 script -qec "mutt -n -F $W/$name/muttrc -e 'push \"<limit>~b $re<enter><last-entry><reply>y<quit>\"'" /dev/null >"$W/$name/mutt.out" 2>&1 ||
    fail "mutt did not finish for $name"
  [ -f "$W/$name/draft.txt" ] || fail "mutt never ran the editor for $name"
  grep -q '^> ' "$W/$name/draft.txt" || fail "$name's reply quotes nothing"
  tail -n +2 "$W/$name/draft.txt" | grep -q -- "$*" || fail "$name's move is not in her reply"
  echo "$name replied (below the quote):"
  { head -2 "$W/$name/draft.txt"; echo "> ..."; tail -6 "$W/$name/draft.txt"; } | sed 's/^/  | /'
}

client ann
client bob
reply ann "begins: you play White" "d4"
f=$(fetch bob "White played 1. d4")
echo "bob got: $(grep -m1 'White played' "$f")"
reply bob "White played 1. d4" "d5"
f=$(fetch ann "Black played 1... d5")
echo "ann got: $(grep -m1 'Black played' "$f")"
if grep -l "refused" "$W"/ann/Maildir/INBOX/*/* "$W"/bob/Maildir/INBOX/*/* 2>/dev/null; then
  fail "a mail refused something"
fi
./refereed show --data "$W/data" 1 | grep -q "White to play move 2" || fail "the game did not reach move 2: $(./refereed show --data "$W/data" 1)"
echo "PASS: mutt (bottom posting) through msmtp, mbsync fetching: 1. d4 d5 played"
