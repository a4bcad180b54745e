# shellcheck shell=bash
# Source me: `source scripts/common.sh`. Makes logs/, puts the krb tools on PATH and defines
# the article's shell functions: topic, start, stop (and wait_unique for the lab scripts).

KRB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LOGS=$KRB_ROOT/logs
mkdir -p "$LOGS"

# The tools: KRB_BIN if set, else this checkout's release build (built on first use).
KRB_BIN=${KRB_BIN:-$KRB_ROOT/target/release}
if [ ! -x "$KRB_BIN/krb-worker" ]; then
  echo "building the krb tools (cargo build --release) ..." >&2
  (cd "$KRB_ROOT" && cargo build --release --quiet) || echo "common.sh: cargo build --release failed" >&2
fi
case ":$PATH:" in
  *":$KRB_BIN:"*) ;;
  *) PATH="$KRB_BIN:$PATH" ;;
esac
export PATH KRB_ROOT LOGS

# Local time as the worker writes it: 09:13:27.038
now() { date +%H:%M:%S.%3N; }

# topic NAME PARTITIONS: (re)create an empty topic.
topic() { krb-topic "$@"; }

# start NAME GROUP TOPIC [worker options]: run a worker in the background, output to logs/NAME.log.
start() {
  local name=${1:?usage: start NAME GROUP TOPIC [options]}
  echo "$(now) start $name"
  krb-worker "$@" >"$LOGS/$name.log" 2>&1 &
  echo $! >"$LOGS/$name.pid"
}

# stop NAME: SIGTERM, then wait until the worker has left the group and exited.
stop() {
  local name=${1:?usage: stop NAME} pid
  [ -f "$LOGS/$name.pid" ] || { echo "stop: no worker $name was started here" >&2; return 1; }
  pid=$(cat "$LOGS/$name.pid")
  rm -f "$LOGS/$name.pid"
  kill -TERM "$pid" 2>/dev/null || return 0
  # A worker finishes the message in hand first: up to --slow-sec seconds.
  for _ in $(seq 1 600); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  echo "stop: $name (pid $pid) did not exit within 60 s" >&2
  return 1
}

# stop_all GROUP: stop every worker of GROUP still running from here (a lab's exit trap).
stop_all() {
  local pidfile
  for pidfile in "$LOGS/$1"-*.pid; do
    [ -f "$pidfile" ] && { stop "$(basename "$pidfile" .pid)" || true; }
  done
  return 0
}

# unique GROUP: how many distinct messages the group's workers have processed so far.
unique() {
  krb-dups "$1" 2>/dev/null | sed -n 's/^processed [0-9]*, unique \([0-9]*\),.*/\1/p'
}

# alive GROUP: fails, saying why, when a worker of GROUP started here has exited.
alive() {
  local pidfile name
  for pidfile in "$LOGS/$1"-*.pid; do
    [ -f "$pidfile" ] || continue
    kill -0 "$(cat "$pidfile")" 2>/dev/null && continue
    name=$(basename "$pidfile" .pid)
    rm -f "$pidfile"
    echo "$name exited: $(tail -n 1 "$LOGS/$name.log")" >&2
    return 1
  done
}

# wait_unique GROUP N [SECONDS]: wait until the group has processed N distinct messages.
wait_unique() {
  local group=$1 want=$2 limit=${3:-120}
  for _ in $(seq 1 $((limit * 5))); do
    [ "$(unique "$group")" -ge "$want" ] 2>/dev/null && return 0
    alive "$group" || return 1
    sleep 0.2
  done
  echo "wait_unique: $group processed $(unique "$group") of $want messages in ${limit} s" >&2
  return 1
}

# wait_log NAME PATTERN [SECONDS]: wait until logs/NAME.log has a line matching PATTERN (grep -E).
wait_log() {
  local name=$1 pattern=$2 limit=${3:-60}
  for _ in $(seq 1 $((limit * 10))); do
    grep -Eq -- "$pattern" "$LOGS/$name.log" 2>/dev/null && return 0
    sleep 0.1
  done
  echo "wait_log: no line matching '$pattern' in logs/$name.log after ${limit} s" >&2
  return 1
}
