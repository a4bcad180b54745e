# shellcheck shell=bash
# Source me: `source scripts/common.sh`. Makes logs/, puts the krb tools on PATH and defines
# the article's shell functions: topic, start, stop (and the waits and verdict of the labs).
#
# In a room where many people share one broker, each sets a namespace first (KRB_NS=alice):
# every tool then puts `alice-` before the topic and group names it sends to Kafka, and the
# commands stay the article's. KRB_LOGS names another folder for the logs (default logs/),
# for two runs on one machine.

KRB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mkdir -p "${KRB_LOGS:-$KRB_ROOT/logs}"
LOGS=$(cd "${KRB_LOGS:-$KRB_ROOT/logs}" && pwd)
# The tools read both from the environment: krb-dups and krb-verify find the logs the
# workers wrote, in the namespace they ran in.
KRB_LOGS=$LOGS
export KRB_LOGS
[ -z "${KRB_NS:-}" ] || export KRB_NS

# shellcheck source=env.sh
source "$KRB_ROOT/scripts/env.sh" || return
# The tools (env.sh's krb_bin): KRB_BIN if set; in a checkout its release build, built on first
# use; in an unpacked release (scripts/dist.sh: no Cargo.toml) its bin/, and cargo is never run.
# A build that fails, or tools that are not there, stop here (sourcing fails), with the cause.
KRB_BIN=$(krb_bin "$KRB_ROOT")
if [ ! -x "$KRB_BIN/krb-worker" ]; then
  if [ -f "$KRB_ROOT/Cargo.toml" ]; then
    # What the build lacks is said alone, with the line that installs it.
    krb_can_build "source scripts/common.sh" || return 1
    krb_line "building the krb tools (cargo build --release) ..." "krb 도구를 빌드하는 중 (cargo build --release) ..." >&2
    if ! krb_build "$KRB_ROOT" "$LOGS/build.log"; then
      krb_line "common.sh: the krb tools are not there; fix the cause above, then source scripts/common.sh again" \
        "common.sh: krb 도구가 없습니다. 위의 원인을 고친 뒤 source scripts/common.sh를 다시 실행하세요" >&2
      return 1
    fi
  else
    krb_line "common.sh: no krb-worker in $KRB_BIN: unpack the release again (its bin/ holds the tools), or set KRB_BIN to a folder of krb tools" \
      "common.sh: $KRB_BIN에 krb-worker가 없습니다: 릴리스를 다시 풀거나(bin/에 도구가 있어요), KRB_BIN에 krb 도구 폴더를 지정하세요" >&2
    return 1
  fi
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

# start NAME GROUP TOPIC [worker options]: run a worker in the background, output appended to
# logs/NAME.log (a restarted worker keeps its history in one file).
start() { launch krb-worker "$@"; }

# share NAME GROUP TOPIC [krb-share options]: the same for a member of share group GROUP
# (lab 8); stop and the waits treat it as any worker.
share() { launch krb-share "$@"; }

# launch TOOL NAME GROUP TOPIC [options]: start's and share's body.
launch() {
  local tool=$1 verb=start
  [ "$tool" != krb-share ] || verb=share
  shift
  if [ $# -lt 3 ]; then
    krb_line "usage: $verb NAME GROUP TOPIC [options]" "사용법: $verb NAME GROUP TOPIC [옵션]" >&2
    return 2
  fi
  local name=$1 mark
  mark="$(now) start $name"
  echo "$mark"
  # The same line opens the worker's log, so its history says when it was started.
  echo "$mark" >>"$LOGS/$name.log"
  "$tool" "$@" >>"$LOGS/$name.log" 2>&1 &
  echo $! >"$LOGS/$name.pid"
}

# terminate SECONDS NAME:PID...: SIGTERM to every PID at once, then wait up to SECONDS for each to
# exit. One still running then (blocked, or ignoring SIGTERM) is killed (SIGKILL) and named on
# stderr, and terminate fails: a script never leaves behind what it started.
terminate() {
  local limit=$1 entry pid failed=0 ticks reaped
  shift
  for entry in "$@"; do kill -TERM "${entry##*:}" 2>/dev/null || true; done
  # In tenths of a second, shared by all: bash's SECONDS counts whole seconds.
  ticks=$((limit * 10))
  for entry in "$@"; do
    pid=${entry##*:}
    while kill -0 "$pid" 2>/dev/null && [ "$ticks" -gt 0 ]; do
      sleep 0.1
      ticks=$((ticks - 1))
    done
    kill -0 "$pid" 2>/dev/null || continue
    kill -KILL "$pid" 2>/dev/null || true
    # Killed is not yet gone: until its parent reaps it, kill -0 still finds it. A child of this
    # shell is reaped here; another one is given 2 s.
    wait "$pid" 2>/dev/null || true
    reaped=20
    while kill -0 "$pid" 2>/dev/null && [ "$reaped" -gt 0 ]; do
      sleep 0.1
      reaped=$((reaped - 1))
    done
    krb_line "stop: ${entry%:*} (pid $pid) did not exit within $limit s of SIGTERM: killed (SIGKILL)" \
      "stop: ${entry%:*} (pid $pid): SIGTERM 뒤 ${limit}초 안에 끝나지 않아 강제 종료 (SIGKILL)" >&2
    failed=1
  done
  return "$failed"
}

# stop [--wait SECONDS] NAME...: SIGTERM to every named worker at once, then wait until each
# has left the group and exited; one still running after SECONDS (default 60: a worker finishes
# the message in hand first, up to --slow-sec seconds) is killed, and stop fails. Stopping them
# together keeps a worker that is still running from taking over (and re-reading) the
# partitions of one that has just left.
stop() {
  local wait=60 usage
  usage=$(krb_say "usage: stop [--wait SECONDS] NAME..." "사용법: stop [--wait SECONDS] NAME...")
  if [ "${1:-}" = --wait ]; then
    wait=${2:-}
    [[ $wait =~ ^[0-9]+$ ]] || { echo "$usage" >&2; return 2; }
    shift 2
  fi
  [ $# -gt 0 ] || { echo "$usage" >&2; return 2; }
  local name entries=() failed=0
  for name in "$@"; do
    if [ ! -f "$LOGS/$name.pid" ]; then
      krb_line "stop: no worker $name was started here" "stop: 여기서 띄운 워커가 아님: $name" >&2
      failed=1
      continue
    fi
    echo "$(now) stop $name" >>"$LOGS/$name.log"
    entries+=("$name:$(cat "$LOGS/$name.pid")")
  done
  [ ${#entries[@]} -eq 0 ] || terminate "$wait" "${entries[@]}" || failed=1
  # Only now: a script interrupted while it waits still finds the workers in its exit trap.
  for name in "${entries[@]}"; do rm -f "$LOGS/${name%:*}.pid"; done
  return "$failed"
}

# workers GROUP: the workers of GROUP started from here and not stopped, one name a line.
workers() {
  local pidfile
  for pidfile in "$LOGS/$1"-*.pid; do
    [ ! -f "$pidfile" ] || basename "$pidfile" .pid
  done
}

# stop_all GROUP [SECONDS]: stop every worker of GROUP still running from here (a lab's exit
# trap: it never fails), a paused one too; one still running after SECONDS (default 60) is
# killed.
stop_all() {
  local names=() name
  mapfile -t names < <(workers "$1")
  [ ${#names[@]} -gt 0 ] || return 0
  # SIGTERM waits in a paused (SIGSTOPped) process until it runs again.
  for name in "${names[@]}"; do kill -CONT "$(cat "$LOGS/$name.pid")" 2>/dev/null || true; done
  stop --wait "${2:-60}" "${names[@]}" || true
}

# fresh GROUP: forget an earlier run of GROUP: its logs and its committed offsets.
fresh() {
  rm -f "$LOGS/$1"-*.log
  krb-group --wait 30 "$1" >/dev/null
}

# unique GROUP: how many distinct messages the group's workers have processed so far.
unique() {
  krb-dups "$1" 2>/dev/null | sed -n 's/^processed [0-9]*, unique \([0-9]*\),.*/\1/p'
}

# exited GROUP: the workers of GROUP started here that have exited without being stopped.
exited() {
  local name
  for name in $(workers "$1"); do
    kill -0 "$(cat "$LOGS/$name.pid")" 2>/dev/null || echo "$name"
  done
}

# alive GROUP: fails, saying why, when a worker of GROUP started here has exited.
alive() {
  local name
  for name in $(exited "$1"); do
    rm -f "$LOGS/$name.pid"
    krb_line "$name exited: $(tail -n 1 "$LOGS/$name.log")" "$name 워커가 끝남: $(tail -n 1 "$LOGS/$name.log")" >&2
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
  local got
  got=$(unique "$group")
  krb_line "wait_unique: $group processed ${got:-0} of $want messages in ${limit} s" \
    "wait_unique: ${limit}초 동안 처리된 메시지가 ${want}개 중 ${got:-0}개뿐 (그룹 $group)" >&2
  return 1
}

# wait_log NAME PATTERN [SECONDS [AFTER]]: wait until logs/NAME.log has a line matching PATTERN
# (grep -E), counting only the lines after line AFTER (default 0: all).
wait_log() {
  local name=$1 pattern=$2 limit=${3:-60} after=${4:-0}
  for _ in $(seq 1 $((limit * 10))); do
    # No -q: grep reads to the end, so tail never meets a closed pipe (the labs use pipefail).
    tail -n "+$((after + 1))" "$LOGS/$name.log" 2>/dev/null | grep -E -- "$pattern" >/dev/null && return 0
    sleep 0.1
  done
  krb_line "wait_log: no line matching '$pattern' in logs/$name.log after ${limit} s" \
    "wait_log: ${limit}초가 지나도 logs/$name.log에 '$pattern'에 맞는 줄이 없음" >&2
  return 1
}

# wait_any GROUP PATTERN [SECONDS]: wait until a log of GROUP (logs/GROUP-*.log) has a line
# matching PATTERN (grep -E).
wait_any() {
  local group=$1 pattern=$2 limit=${3:-60}
  for _ in $(seq 1 $((limit * 10))); do
    cat "$LOGS/$group"-*.log 2>/dev/null | grep -E -- "$pattern" >/dev/null && return 0
    sleep 0.1
  done
  krb_line "wait_any: no line matching '$pattern' in logs/$group-*.log after ${limit} s" \
    "wait_any: ${limit}초가 지나도 logs/$group-*.log에 '$pattern'에 맞는 줄이 없음" >&2
  return 1
}

# verdict LAB GROUP [options]: the lab's "must hold" statements, checked by krb-verify (its exit
# status is the lab's). KRB_NO_VERDICT=1 leaves it out, for a script run as part of another
# lab (lab 5 runs labs 1 and 2) or checked by the lab command.
verdict() {
  [ -z "${KRB_NO_VERDICT:-}" ] || return 0
  krb_line "== verdict" "== 판정"
  krb-verify "$@"
}
