#!/usr/bin/env bash
# Lab 7: fault trials on a three-node cluster. Do I lose messages, and how many do I process twice?
#
#   07-faults.sh [--trials N] [--seed S] [--trial I] [--faults F] [--effect E] [--db URL]
#                [--protocol classic|consumer] [--assignor range|cooperative-sticky] [--static]
#
# Each trial: a topic of 6 partitions replicated 3 times, an idempotent producer (acks=all)
# writing about 200 messages a second and recording every acknowledged offset, three workers
# (--revoke-commit, --commit-every 20, 5 ms a message, a session timeout of 3 s), and F faults (default 3) drawn
# from the seed: a worker killed (SIGKILL) or paused past its session timeout (SIGSTOP) or
# stopped cleanly, then brought back; a worker joining or leaving; the group's coordinator or a
# partition's leader killed, then restarted; a rolling restart of the three nodes. Then a quiet
# moment, the producer stopped, a clean stop of every worker, and krb-verify's check (nothing
# lost, offsets only go up, commits never ahead or backwards, duplicates each explained by a
# fault within its bound; with an effect, no effect twice). The run ends with krb-trial's table
# (logs/faults.json too) and the worst trial's timeline, logs/faults-worst.svg.
#
# With an effect (lab 6's) the store is the SQLite file logs/GROUP.db, kafka-eos's output topic
# GROUP-out, or --db URL. Two stores have a fault of their own, drawn beside the others:
# kafka-eos's output topic's leader killed, then restarted; and, with `--db postgres`, the
# database stopped (every connection cut), then started again: the run starts a PostgreSQL of
# its own (scripts/pg-local.sh on KRB_PG_PORT, default 5491, data in KRB_PG_HOME), which it
# may stop, and stops it at the end. A worker that exits on its own (a store failure ends one)
# is started again after the fault step in which it exited, with a line in logs/GROUP.faults.
#
# The group runs the classic protocol with the eager range assignor unless told otherwise:
# --assignor cooperative-sticky makes its rebalances incremental; --protocol consumer runs
# KIP-848's protocol, where the broker assigns (its default assignor, uniform) and sets the
# session timeout (the cluster's group.consumer.session.timeout.ms, 3 s as the classic workers
# ask); --static gives each worker a group.instance.id (GROUP-NAME), so that a worker killed or
# stopped and back within its session timeout keeps its partitions without a rebalance.
#
# It starts a new three-node cluster (scripts/kafka-local.sh start --nodes 3 --fresh) unless one runs, and
# stops what it started. The seed is printed: `--seed S --trial I` replays trial I alone.
# A trial that held has its files removed, but for the worst; a failing one keeps logs/faults-S-I*.
set -euo pipefail
# shellcheck source=usage.sh
source "$(dirname "$0")/usage.sh" "$@"
# The trials run on a cluster of their own, which no one shares: the names need no namespace,
# and Kafka's own tools (the coordinator's, the leader's, the witness) see them as written.
unset KRB_NS

usage="07-faults.sh [--trials N] [--seed S] [--trial I] [--faults F] [--effect none|plain|idempotent|db-offsets|kafka-eos] [--db URL|postgres] [--protocol classic|consumer] [--assignor range|cooperative-sticky] [--static]"
trials=5 seed=$((RANDOM * 32768 + RANDOM)) only="" faults=3 effect=none db=""
protocol=classic assignor="" static="" zombie=""
while [ $# -gt 0 ]; do
  case $1 in
    --trials | --seed | --trial | --faults | --effect | --db | --protocol | --assignor | --test-zombie)
      [ -n "${2:-}" ] || { krb_line "$1 needs a value" "'$1'에 값이 없습니다" >&2; bad_usage; } ;;&
    --trials) trials=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --trial) only=$2; shift 2 ;;
    --faults) faults=$2; shift 2 ;;
    --effect) effect=$2; shift 2 ;;
    --db) db=$2; shift 2 ;;
    --protocol) protocol=$2; shift 2 ;;
    --assignor) assignor=$2; shift 2 ;;
    --static) static=1; shift ;;
    # Test only: worker NAME runs with krb-worker's --test-zombie (it processes a message after
    # its revoke callback ran), so that the ownership statement can be seen to fail.
    --test-zombie) zombie=$2; shift 2 ;;
    *) krb_line "unknown argument '$1'" "알 수 없는 인자: '$1'" >&2; bad_usage ;;
  esac
done
for n in "$trials" "$seed" "$faults" ${only:+"$only"}; do
  [[ $n =~ ^[0-9]+$ ]] || { krb_line "'$n' is not a number" "'$n'은(는) 숫자가 아닙니다" >&2; bad_usage; }
done
case $effect in
  none | plain | idempotent | db-offsets | kafka-eos) ;;
  *) krb_line "--effect takes none, plain, idempotent, db-offsets or kafka-eos, not '$effect'" \
    "--effect의 값이 잘못됐습니다('$effect'): 쓸 수 있는 값은 none, plain, idempotent, db-offsets, kafka-eos" >&2; bad_usage ;;
esac
case $protocol:$assignor in
  classic: | classic:range | classic:cooperative-sticky | consumer:) ;;
  consumer:*) { krb_line "--assignor is a classic-protocol setting; with --protocol consumer the broker assigns" \
    "--assignor는 classic 프로토콜의 설정입니다. --protocol consumer에서는 브로커가 할당합니다" >&2; bad_usage; } ;;
  classic:*) krb_line "--assignor takes range or cooperative-sticky, not '$assignor'" \
    "--assignor의 값이 잘못됐습니다('$assignor'): 쓸 수 있는 값은 range, cooperative-sticky" >&2; bad_usage ;;
  *) krb_line "--protocol takes classic or consumer, not '$protocol'" \
    "--protocol의 값이 잘못됐습니다('$protocol'): 쓸 수 있는 값은 classic, consumer" >&2; bad_usage ;;
esac
[ "$protocol" = consumer ] || assignor=${assignor:-range}
case $effect:$db in
  none:?* | kafka-eos:?*) krb_line "--db is the store of --effect plain, idempotent or db-offsets" \
    "--db는 --effect plain, idempotent, db-offsets의 저장소입니다" >&2; bad_usage ;;
esac
# shellcheck source=common.sh
source "$(dirname "$0")/common.sh"

here=$(dirname "$0")
kafka=$here/kafka-local.sh
partitions=6 commit_every=20 session_ms=3000
port=${KRB_BROKER_PORT:-9481}
export KRB_BOOTSTRAP=localhost:$port,localhost:$((port + 3)),localhost:$((port + 6))
records=$LOGS/faults.jsonl

group="" producer="" watcher="" failed="" store_url="" started="" pg_started=""
# On every exit, an error's or a signal's too: the trials' workers (a paused one resumed, one
# still running 10 s after SIGTERM killed), the producer, the sampler, and the cluster and the
# PostgreSQL this run started.
# shellcheck disable=SC2317  # called by the trap
cleanup() {
  # Every step runs, whichever failed before it.
  set +e
  local others=()
  stop_all "faults-$seed" 10
  [ -z "$producer" ] || others+=("the producer:$producer")
  [ -z "$watcher" ] || others+=("the sampler:$watcher")
  [ ${#others[@]} -eq 0 ] || terminate 10 "${others[@]}"
  [ -z "$started" ] || "$kafka" stop
  [ -z "$pg_started" ] || "$here/pg-local.sh" stop >/dev/null
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if ! "$kafka" status >/dev/null 2>&1; then
  # A new cluster each run: a node that restarts recovers every partition it holds, so
  # topics of earlier runs would slow this run's node faults.
  krb_line "== starting a new three-node cluster (scripts/kafka-local.sh start --nodes 3 --fresh)" \
    "== 노드 세 개의 새 클러스터를 띄움 (scripts/kafka-local.sh start --nodes 3 --fresh)"
  started=1
  "$kafka" start --nodes 3 --fresh
# Asked in English: the status line is read here.
elif ! KRB_LANG=en "$kafka" status | grep -q 'of 3 node'; then
  krb_line "07-faults: a single-node Kafka runs from scripts/kafka-local.sh; stop it first (kafka-local.sh stop)" \
    "07-faults: scripts/kafka-local.sh의 단일 노드 Kafka가 돌고 있습니다. 먼저 정지하세요 (kafka-local.sh stop)" >&2
  exit 1
fi

# A new cluster makes __consumer_offsets, 50 partitions three times, on its first group
# request, which may outlast one request's 10 s: ask until it answers, each time anew (librdkafka
# 2.12.1 aborted on an assertion when the same admin client asked again after a timeout).
for _ in $(seq 1 12); do
  krb-group faults-ready >/dev/null 2>&1 && break
  sleep 1
done

# The group's settings, the same for every worker: the classic protocol's are the worker's own,
# the consumer protocol's the broker's (the cluster's group.consumer.* settings).
if [ "$protocol" = classic ]; then
  group_settings=(--assignor "$assignor" --session-timeout-ms "$session_ms" -X heartbeat.interval.ms=500)
else
  group_settings=(--group-protocol consumer)
fi

# worker NAME: starts (or starts again) worker NAME of the trial's group.
worker() {
  local store=() options=()
  [ "$effect" = none ] || store=(--effect "$effect" --db "$store_url")
  [ -z "$static" ] || options+=(--instance-id "$group-$1")
  [ "$zombie" != "$1" ] || options+=(--test-zombie)
  start "$group-$1" "$group" "$group" --revoke-commit --commit-every "$commit_every" --delay 0.005 \
    "${group_settings[@]}" "${options[@]}" "${store[@]}" >/dev/null
  # Killing it is the point: no "Killed" line from bash.
  disown "$(pid_of "$1")"
}

# mark fault|healed KIND TARGET: the line krb-verify reads back (krb-log's trial_log).
mark() {
  echo "$(now) $1 $2 $3" | tee -a "$LOGS/$group.faults"
}

pid_of() { cat "$LOGS/$group-$1.pid"; }

# inject KIND TARGET HOLD: one step of the schedule, healed HOLD seconds later.
inject() {
  local kind=$1 target=$2 hold=$3 node
  case $kind in
    kill)
      kill -KILL "$(pid_of "$target")"
      mark fault kill "$group-$target"
      sleep "$hold"
      worker "$target"
      mark healed kill "$group-$target" ;;
    pause)
      kill -STOP "$(pid_of "$target")"
      mark fault pause "$group-$target"
      sleep "$hold"
      kill -CONT "$(pid_of "$target")"
      mark healed pause "$group-$target" ;;
    stop)
      mark fault stop "$group-$target"
      stop "$group-$target"
      sleep "$hold"
      worker "$target"
      mark healed stop "$group-$target" ;;
    join)
      worker "$target"
      mark fault join "$group-$target" ;;
    leave)
      mark fault leave "$group-$target"
      stop "$group-$target" ;;
    kill-coordinator | kill-leader | kill-output-leader)
      # Another node's failure only once the last one's replicas are back in sync: with two
      # copies out, min.insync.replicas=2 would stop the producer. The wait is here, not after
      # each restart, so the nodes catch up while worker faults and the trial's end go on.
      "$kafka" insync
      case $kind in
        kill-coordinator) node=$("$kafka" coordinator "$group") ;;
        kill-leader) node=$(krb-trial leader "$group" "${target#p}") ;;
        kill-output-leader) node=$(krb-trial leader "${store_url#kafka:}" "${target#p}") ;;
      esac
      "$kafka" kill "$node" >/dev/null
      mark fault "$kind" "node-$node"
      sleep "$hold"
      "$kafka" restart "$node" >/dev/null
      mark healed "$kind" "node-$node" ;;
    restart-db)
      # Marked first: the connections are cut as the server begins to stop.
      mark fault restart-db db
      "$here/pg-local.sh" stop >/dev/null
      sleep "$hold"
      "$here/pg-local.sh" start >/dev/null
      mark healed restart-db db ;;
    roll)
      "$kafka" insync
      mark fault roll cluster
      "$kafka" roll >/dev/null
      mark healed roll cluster ;;
    *) krb_line "07-faults: krb-trial planned an unknown fault '$kind'" \
      "07-faults: krb-trial이 모르는 장애를 계획했습니다: '$kind'" >&2; return 1 ;;
  esac
}

# own_last_line LOG: the worker's last line in LOG, not librdkafka's (`%3|1790813686.528|FAIL|...`),
# which librdkafka's threads write to the same file and which can follow the worker's last word.
own_last_line() { { grep -v '^%[0-9]|' "$1" || true; } | tail -n 1; }

# restart_exited: starts again every worker of the trial that exited without being stopped (a
# store failure ends one), after an `exited` line in the faults file with its log's last line of
# its own, its word on why, for krb-verify to judge.
restart_exited() {
  local name
  for name in $(exited "$group"); do
    echo "$(now) exited $name $(own_last_line "$LOGS/$name.log")" | tee -a "$LOGS/$group.faults"
    worker "${name#"$group"-}"
  done
}

# exited_at_stop: a worker whose log ends in an error of its own, not its stop (a kafka-eos one
# stuck in a transactional call until its watchdog ends it), exited like any other: recorded,
# started again and stopped. Its new producer aborts the transaction the dead one left open,
# which would hold the check's read_committed reader until the broker's 60 s timeout.
exited_at_stop() {
  local log name
  for log in "$LOGS/$group"-[a-f].log; do
    if [ ! -f "$log" ] || [[ $(own_last_line "$log") != "krb-worker: "* ]]; then continue; fi
    name=$(basename "$log" .log)
    echo "$(now) exited $name $(own_last_line "$log")" | tee -a "$LOGS/$group.faults"
    worker "${name#"$group"-}"
    stop "$name"
  done
}

# processed N SECONDS: waits until the group has processed N distinct messages, starting
# again any worker that exits meanwhile: the watchdog ends a kafka-eos worker stuck in a
# transactional call 40 s after a node's failure, which may be well after the last fault.
processed() {
  local _
  for _ in $(seq 1 $(($2 * 5))); do
    [ "$(unique "$group")" -ge "$1" ] 2>/dev/null && return 0
    restart_exited
    sleep 0.2
  done
  krb_line "07-faults: $group processed $(unique "$group") of $1 messages in $2 s" \
    "07-faults: $group 그룹이 ${2}초 동안 메시지 ${1}개 중 $(unique "$group")개만 처리함" >&2
  return 1
}

# run_trial I: trial I's steps up to the producer's stop. It runs where errexit does not apply
# (its caller tests it), so every step that must succeed says so, and `failed` says which did not.
run_trial() {
  local i=$1 wait kind target hold w
  rm -f "$LOGS/$group".* "$LOGS/$group"-*
  krb-topic "$group" "$partitions" --replication 3 >/dev/null || { failed="krb-topic failed"; return 1; }
  fresh "$group" || { failed="the group's old offsets could not be deleted"; return 1; }
  case $effect in
    none) store_url="" ;;
    kafka-eos) store_url=kafka:$group-out ;;
    *) store_url=${db_url:-sqlite:$LOGS/$group.db} ;;
  esac
  if [ -n "$store_url" ]; then
    krb-effects init "$store_url" >/dev/null || { failed="krb-effects init $store_url failed"; return 1; }
  fi
  echo "$(now) begin trial $i seed $seed" >"$LOGS/$group.faults"
  krb-trial watch "$group" "$partitions" "$LOGS/$group.committed" 2>"$LOGS/$group.watch" &
  watcher=$!
  krb-produce "$group" 1000000000 "$partitions" 0.005 --acks "$LOGS/$group.acks" \
    -X enable.idempotence=true >"$LOGS/$group.produce" 2>&1 &
  producer=$!
  for w in a b c; do worker "$w"; done
  wait_unique "$group" 100 60 || { failed="the group did not start consuming within 60 s"; return 1; }
  while read -r wait kind target hold; do
    sleep "$wait"
    inject "$kind" "$target" "$hold" || { failed="the fault $kind $target could not be injected"; return 1; }
    restart_exited
  done < <(krb-trial plan --seed "$seed" --trial "$i" --faults "$faults" \
    --partitions "$partitions" --session-timeout-ms "$session_ms" ${store_fault:+--store-fault "$store_fault"})
  sleep 3
  # A worker whose store was broken in the last step may find out only now.
  restart_exited
}

# finish_trial: stops the producer, lets the group process what was acknowledged, stops every
# worker and the sampler, and asks Kafka's own tool for the group's committed offsets.
finish_trial() {
  local acked
  if [ -n "$producer" ]; then
    kill -TERM "$producer" 2>/dev/null
    wait "$producer" || failed=${failed:-"the producer failed: $(tail -n 1 "$LOGS/$group.produce")"}
    producer=""
    krb_line "$(now) producer stopped: $(tail -n 1 "$LOGS/$group.produce")" \
      "$(now) 프로듀서 정지: $(tail -n 1 "$LOGS/$group.produce")"
  fi
  acked=0
  [ ! -f "$LOGS/$group.acks" ] || acked=$(wc -l <"$LOGS/$group.acks")
  [ -n "$failed" ] || processed "$acked" 90 ||
    failed="the group did not process the $acked acknowledged messages within 90 s"
  local names=()
  mapfile -t names < <(workers "$group")
  [ ${#names[@]} -eq 0 ] || stop "${names[@]}" ||
    failed=${failed:-"a worker did not stop within 60 s of SIGTERM: killed"}
  exited_at_stop
  echo "$(now) end" >>"$LOGS/$group.faults"
  if [ -n "$watcher" ]; then
    kill -TERM "$watcher" 2>/dev/null
    wait "$watcher" || true
    watcher=""
  fi
  "$kafka" java org.apache.kafka.tools.consumer.group.ConsumerGroupCommand --bootstrap-server "$KRB_BOOTSTRAP" \
    --describe --group "$group" >"$LOGS/$group.witness" 2>&1 || true
}

# clear: deletes the trial's topics and group once checked. A node that restarts recovers every
# partition it holds, so topics left behind would make each later trial's node faults slower.
# The group goes first: static members stay in it until their session times out, and
# krb-topic deletes no topic a live group reads.
clear() {
  local topic topics=("$group")
  [[ $store_url != kafka:* ]] || topics+=("${store_url#kafka:}")
  krb-group "$group" --wait 10 >/dev/null ||
    krb_line "07-faults: group $group could not be deleted" "07-faults: 그룹 $group 삭제 실패" >&2
  for topic in "${topics[@]}"; do
    krb-topic "$topic" --delete >/dev/null ||
      krb_line "07-faults: topic $topic could not be deleted" "07-faults: 토픽 $topic 삭제 실패" >&2
  done
}

# trial I: runs trial I of the seed and records its verdict; fails when it did not hold.
trial() {
  local i=$1 began=$SECONDS status=0
  group=faults-$seed-$i failed=""
  krb_line "== trial $i (seed $seed; replay: 07-faults.sh --seed $seed --trial $i$again)" \
    "== 시험 $i (seed $seed; 다시 돌리기: 07-faults.sh --seed $seed --trial $i$again)"
  run_trial "$i" || true
  finish_trial
  krb-verify faults "$group" --effect "$effect" ${store_url:+--db "$store_url"} \
    --record "$records" --seconds "$((SECONDS - began))" ${failed:+--script-failed "group $group: $failed"} ||
    { krb_line "trial $i FAILED: its files are kept, logs/$group* (check them again: krb-verify faults $group --effect $effect${store_url:+ --db $store_url} --recheck, while its store holds its effects); replay: 07-faults.sh --seed $seed --trial $i$again" \
      "시험 $i 실패: 파일을 남겨 둠, logs/$group* (저장소에 반영이 남아 있는 동안 다시 검사: krb-verify faults $group --effect $effect${store_url:+ --db $store_url} --recheck); 다시 돌리기: 07-faults.sh --seed $seed --trial $i$again"
      status=1; }
  clear
  return "$status"
}

# The store, and its fault if it has one the run may inject.
store_fault="" db_url=$db
if [ "$db" = postgres ]; then
  export KRB_PG_PORT=${KRB_PG_PORT:-5491}
  if "$here/pg-local.sh" status >/dev/null 2>&1; then
    krb_line "07-faults: a PostgreSQL already runs on port $KRB_PG_PORT; --db postgres starts one of its own: choose another KRB_PG_PORT" \
      "07-faults: $KRB_PG_PORT 포트에 PostgreSQL이 이미 돌고 있습니다. --db postgres는 자기 것을 띄우니 다른 KRB_PG_PORT를 고르세요" >&2
    exit 1
  fi
  pg_started=1
  "$here/pg-local.sh" start
  db_url=$("$here/pg-local.sh" url)
  store_fault=restart-db
fi
[ "$effect" != kafka-eos ] || store_fault=kill-output-leader
# What a replay line needs besides the seed and the trial.
again=${effect#none}
again=${again:+ --effect $again}${db:+ --db $db}
[ "$protocol" = classic ] || again+=" --protocol $protocol"
[ "${assignor:-range}" = range ] || again+=" --assignor $assignor"
again+=${static:+ --static}${zombie:+ --test-zombie $zombie}

krb_line "== lab 7: fault trials, seed $seed" "== 실습 7: 장애 시험, seed $seed"
if [ "$protocol" = classic ]; then
  group_line="group.protocol=classic, partition.assignment.strategy=$assignor, session.timeout.ms=$session_ms, heartbeat.interval.ms=500"
else
  group_line=$(krb_say "group.protocol=consumer, the cluster's group.consumer.session.timeout.ms=$session_ms and group.consumer.heartbeat.interval.ms=500" \
    "group.protocol=consumer, 클러스터의 group.consumer.session.timeout.ms=$session_ms, group.consumer.heartbeat.interval.ms=500")
fi
worker_flags="--revoke-commit --commit-every $commit_every --delay 0.005${static:+ --instance-id GROUP-NAME}"
krb_line "settings: workers $worker_flags, $group_line; the cluster's broker.session.timeout.ms=3000" \
  "설정: 워커 $worker_flags, $group_line; 클러스터의 broker.session.timeout.ms=3000"
rm -f "$records"
status=0 held=() worst=""
for i in $(if [ -n "$only" ]; then echo "$only"; else seq 1 "$trials"; fi); do
  if trial "$i"; then held+=("$group"); else status=1; fi
  # The trials that held say nothing more than their record: only the worst keeps its files.
  worst=$(krb-trial report "$records" --worst)
  for g in "${held[@]}"; do
    [ "$g" = "$worst" ] || rm -f "$LOGS/$g".* "$LOGS/$g"-*
  done
done
group=""
krb_line "== report (krb-trial report $(krb_shown "$records"))" "== 보고서 (krb-trial report $(krb_shown "$records"))"
krb-trial report "$records" --json "$LOGS/faults.json" || status=1
if [ -n "$worst" ] && [ -f "$LOGS/$worst.faults" ]; then
  krb-timeline "$worst" -o "$LOGS/faults-worst.svg" >/dev/null
  krb_line "the worst trial's timeline: $(krb_shown "$LOGS/faults-worst.svg") ($worst)" \
    "가장 나쁜 시험의 타임라인: $(krb_shown "$LOGS/faults-worst.svg") ($worst)"
fi
exit "$status"
