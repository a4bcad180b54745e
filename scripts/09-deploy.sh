#!/usr/bin/env bash
# Lab 9: the article's opening question. A team restarts its consumers one by one to deploy,
# under a steady stream: which settings make the deploy process nothing twice, and what does
# each cost?
#
#   09-deploy.sh [GROUP] [--only ROW,...] [--engine krb|python|java]
#
# Each row runs in group GROUP-ROW (default GROUP: deploy) on a topic of the same name, 6
# partitions, krb-produce writing 100 messages a second for the whole row. Three workers at
# the article's settings (0.01 s a message, a commit every 100) share it; 2 s after the group
# has settled, each in turn is stopped (SIGTERM, or SIGKILL in the kill rows) and started again
# 3 s later under the same name, the next one only once the group has settled again: every
# worker owns two partitions, as a deployment tool waits for readiness. The row ends once
# every produced message is processed.
#
# The rows, named by what they set: range (classic protocol, eager), coop (classic,
# cooperative-sticky), consumer (KIP-848), each alone or with -revoke (a commit in on_revoke)
# and -static (group.instance.id), e.g. range-revoke, coop-revoke-static: 12 rows. Then kill
# (the best of them, restarted after SIGKILL) and kill-idempotent (the same, each message's
# effect in lab 6's idempotent SQLite table). --only runs the rows named. A row that cannot run
# (a broker without the consumer protocol, a static member refused) is said on its own line
# with its reason, and the others still run.
#
# --engine runs the same matrix on another client: python, the article's own stack
# (scripts/judge/worker.py on confluent-kafka 2.15.1, in a venv made at first use in
# target/judge-venv, pip from the package registry), or java, Kafka's own client
# (scripts/judge/JavaWorker.java on kafka-clients 4.3.1 from scripts/kafka-local.sh's cache, a
# JDK 17+ to compile it); the default group is then deploy-python or deploy-java. A row the
# engine cannot run is said on its own line with the reason.
#
# Each row ends with one line: how long it took and how many of its statements held
# (krb-verify deploy GROUP-ROW ROW). At the end, the decision table: duplicates,
# rebalances, the longest time a partition waited for an owner, the deploy's time, per row.
set -euo pipefail
# shellcheck source=usage.sh
source "$(dirname "$0")/usage.sh" "$@"

usage="09-deploy.sh [GROUP] [--only ROW,...] [--engine krb|python|java]"
group="" only="" engine=krb
while [ $# -gt 0 ]; do
  case $1 in
    --only | --engine)
      [ -n "${2:-}" ] || { krb_line "$1 needs a value" "'$1'에 값이 없습니다" >&2; bad_usage; } ;;&
    --only) only=$2; shift 2 ;;
    --engine) engine=$2; shift 2 ;;
    -*) krb_line "unknown argument '$1'" "알 수 없는 인자: '$1'" >&2; bad_usage ;;
    *)
      [ -z "$group" ] || { krb_line "unknown argument '$1'" "알 수 없는 인자: '$1'" >&2; bad_usage; }
      group=$1
      shift ;;
  esac
done
default=deploy
[ "$engine" = krb ] || default=deploy-$engine
group=${group:-$default}
case $engine in
  krb | python | java) ;;
  *) krb_line "--engine takes krb, python or java, not '$engine'" \
    "--engine의 값이 잘못됐습니다('$engine'): 쓸 수 있는 값은 krb, python, java" >&2; bad_usage ;;
esac
# The row names, checked here before anything is built or started. krb-verify's Row::name makes
# them, with each row's settings (deploy-rows below); its test holds this pattern to them.
row_name='^((range|coop|consumer)(-revoke)?(-static)?|kill(-idempotent)?)$'
named=0
IFS=, read -ra wanted <<<"${only// /}"
for row in "${wanted[@]}"; do
  [ -n "$row" ] || continue
  [[ $row =~ $row_name ]] || {
    krb_line "unknown row '$row' (09-deploy.sh --help names the rows)" \
      "알 수 없는 행: '$row' (행 이름은 09-deploy.sh --help에 있어요)" >&2
    bad_usage
  }
  named=1
done
[ -z "$only" ] || [ "$named" = 1 ] || { krb_line "--only names no row" "--only에 행이 하나도 없습니다" >&2; bad_usage; }
# shellcheck source=common.sh
source "$(dirname "$0")/common.sh"

# The engine's worker, started as common.sh's start starts krb-worker (launch: the log, the pid
# file that stop signals); exec keeps that pid the worker's own.
worker() { launch "$tool" "$@"; }
tool=krb-worker
client=2.15.1
venv=${CARGO_TARGET_DIR:-$KRB_ROOT/target}/judge-venv
java_out=${CARGO_TARGET_DIR:-$KRB_ROOT/target}/judge-java
# shellcheck disable=SC2317 # launch calls them by name
python_worker() { exec "$venv/bin/python" "$KRB_ROOT/scripts/judge/worker.py" "$@"; }
# shellcheck disable=SC2317
java_worker() { exec java -cp "$java_out:$java_libs/*" JavaWorker "$@"; }
if [ "$engine" = python ]; then
  tool=python_worker
  "$venv/bin/python" -c "import confluent_kafka as k; assert k.version() == '$client'" 2>/dev/null || {
    krb_line "making $(krb_shown "$venv"): confluent-kafka $client ..." "$(krb_shown "$venv") 만드는 중: confluent-kafka $client ..." >&2
    python3 -m venv "$venv" && "$venv/bin/pip" install -q "confluent-kafka==$client" >&2
  }
elif [ "$engine" = java ]; then
  tool=java_worker
  java_libs=$(java_build 09-deploy.sh "$KRB_ROOT/scripts/judge/JavaWorker.java" "$java_out")
fi

# The matrix is krb-verify's (one home for the rows, their settings and their statements): a
# row it does not know is one line there, then the usage here, before anything starts.
rows=$(krb-verify deploy-rows "$group" ${only:+--only "$only"}) || {
  [ $? = 2 ] && bad_usage
  exit 1
}
# Messages a second the producer writes: a third of what the three workers can process (100 a
# second each), so a stopped partition's backlog drains while the deploy goes on.
interval=0.01
# A deployment takes a while to bring the new process up (as lab 4's restart): within every
# session timeout (10 s, the consumer protocol's 45 s), longer than a classic heartbeat (3 s),
# so a dynamic worker's leave and its return are two rebalances.
restart_pause=3
# Before the deploy, the group runs a while as it would in production: every partition owned and
# processed, the first rebalances' waits behind it.
warm_up=2
records=$LOGS/$group.jsonl
: >"$records"

# balanced GROUP: whether GROUP's three workers own two partitions each, six in all, as their
# logs say since each one's last start (assigned adds, revoked and lost take away: eager,
# cooperative and KIP-848's assignments alike).
balanced() {
  awk -v group="$1" '
    FNR == 1 { file = FILENAME; files[file] = 1 }
    $2 == "start" { for (p = 0; p < 6; p++) delete own[file, p]; next }
    $3 ~ /^(assigned|revoked|lost)$/ && match($0, /\[[0-9, ]*\]/) {
      n = split(substr($0, RSTART + 1, RLENGTH - 2), ps, /, */)
      for (i = 1; i <= n; i++) {
        if (ps[i] == "") continue
        if ($3 == "assigned") own[file, ps[i]] = 1; else delete own[file, ps[i]]
      }
    }
    END {
      for (file in files) {
        count = 0
        for (p = 0; p < 6; p++) if ((file, p) in own) { count++; owners[p]++ }
        if (count != 2) exit 1
      }
      for (p = 0; p < 6; p++) if (owners[p] != 1) exit 1
    }' "$LOGS/$1"-[abc].log
}

# settle GROUP NAME [SECONDS]: wait until the group is balanced again with NAME back in it; a
# worker that exits, or NAME not back in SECONDS (default 60), fails with NAME's last log line.
settle() {
  local g=$1 name=$2 limit=${3:-60}
  for _ in $(seq 1 $((limit * 5))); do
    alive "$g" || return 1
    balanced "$g" && return 0
    sleep 0.2
  done
  krb_line "$name did not come back within $limit s: $(tail -n 1 "$LOGS/$name.log")" \
    "$name: ${limit}초 안에 돌아오지 않음: $(tail -n 1 "$LOGS/$name.log")" >&2
  return 1
}

# kill_worker NAME: the kill rows' stop: SIGKILL, no revoke callback, no leave. The stop line
# goes to the log first, as stop writes it.
kill_worker() {
  local pid
  pid=$(cat "$LOGS/$1.pid")
  echo "$(now) stop $1" >>"$LOGS/$1.log"
  kill -KILL "$pid" 2>/dev/null || true
  while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
  rm -f "$LOGS/$1.pid"
}

# run_row ROW SIGNAL MEMBERSHIP STORE WORKER-OPTION...: one row. Run in a subshell of its own:
# its trap stops what it started, whatever happens.
run_row() {
  row=$1 signal=$2 membership=$3 store=$4
  shift 4
  g=$group-$row producer=""
  # shellcheck disable=SC2317 # the trap's
  finish() {
    [ -z "$producer" ] || kill -TERM "$producer" 2>/dev/null || true
    stop_all "$g"
  }
  trap finish EXIT
  options=("$@")
  [ "$store" = - ] || options+=(--db "$store")
  member() {
    local name=$g-$1
    [ "$membership" = static ] || return 0
    echo "--instance-id $name"
  }
  fresh "$g"
  topic "$g" 6 >/dev/null
  [ "$store" = - ] || krb-effects init "$store" >/dev/null
  krb-produce "$g" 100000000 6 "$interval" >"$LOGS/$g.produce" 2>&1 &
  producer=$!
  for w in a b c; do
    # shellcheck disable=SC2046 # member prints nothing or two words on purpose
    worker "$g-$w" "$g" "$g" "${options[@]}" $(member "$w")
  done
  settle "$g" "$g-c"
  sleep "$warm_up"
  for w in a b c; do
    if [ "$signal" = KILL ]; then
      kill_worker "$g-$w"
    else
      stop "$g-$w"
    fi
    sleep "$restart_pause"
    # shellcheck disable=SC2046
    worker "$g-$w" "$g" "$g" "${options[@]}" $(member "$w")
    settle "$g" "$g-$w"
  done
  kill -TERM "$producer"
  wait "$producer" || true
  producer=""
  sent=$(sed -n 's/^sent \([0-9]*\) messages.*/\1/p' "$LOGS/$g.produce")
  [ -n "$sent" ] || { tail -n 1 "$LOGS/$g.produce" >&2; return 1; }
  wait_unique "$g" "$sent" 60
  stop "$g-a" "$g-b" "$g-c"
}

failed=0
while IFS=$'\t' read -r row signal membership store options; do
  t=$(date +%s.%N)
  if [ "$engine" != krb ] && [ "$store" != - ]; then
    krb_line "== row $row: not on $engine: lab 6's idempotent effect (SQLite) is krb-worker's" \
      "== 행 $row: $engine에서는 못 돌려요: 실습 6의 멱등 반영(SQLite)은 krb-worker에만 있어요"
    continue
  fi
  krb_line "== row $row (SIG$signal)" "== 행 $row (SIG$signal)"
  # Not in an if: errexit holds in the row's subshell only outside a condition.
  set +e
  # shellcheck disable=SC2086 # the options are words on purpose
  (set -e; run_row "$row" "$signal" "$membership" "$store" $options) >"$LOGS/$group-$row.out" 2>&1
  status=$?
  set -e
  script_failed=()
  if [ "$status" != 0 ]; then
    failed=1
    script_failed=(--script-failed "$(krb_say "the row could not run" "이 행은 실행하지 못함"): $(tail -n 1 "$LOGS/$group-$row.out")")
  fi
  seconds=$(awk -v a="$t" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  if [ -n "${KRB_NO_VERDICT:-}" ]; then
    # The lab command checks the row; a row that could not run ends with its reason.
    if [ "$status" = 0 ]; then krb_line "$seconds s" "${seconds}초"; else echo "${script_failed[1]}"; fi
  else
    krb-verify deploy "$group-$row" "$row" --record "$records" --seconds "$seconds" "${script_failed[@]}" ||
      failed=1
  fi
done <<<"$rows"
if [ -z "${KRB_NO_VERDICT:-}" ]; then
  echo
  krb-verify deploy-table "$records" || failed=1
fi
exit "$failed"
