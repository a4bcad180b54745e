#!/usr/bin/env bash
# bench-effects.sh [--runs R] [--no-java] [COUNT]: what an effect costs a worker, and krb-worker
# beside Kafka's own Java client. One worker (--delay 0) processes COUNT messages (default 100000,
# 2 partitions) with each effect in turn, side by side in one run: none (the article's), a commit
# every 100 then every 1000 messages; plain, idempotent and db-offsets on SQLite and on
# PostgreSQL, every 100; and kafka-eos, a transaction every 100, every 1000 messages, then every
# 100 ms (--commit-interval-ms 100 alone: Kafka Streams' commit.interval.ms under exactly-once).
# Prints messages per second, from the worker's first processing line to its last, and the
# ratio of none's rate (every 100) to each.
#
# The none and kafka-eos rows run a Java loop too, on the same topic right after krb-worker, in
# a group of its own: scripts/bench-effects/JavaLoop.java, krb-worker's loop on kafka-clients
# (the jars scripts/kafka-local.sh resolves into its cache) with Kafka's default settings,
# writing the same log lines, read the same way; it stops by itself after COUNT messages. javac
# compiles it into target/bench-java when the source is newer. The table gives its rate (- on
# the rows it does not run) and krb-worker's over it. A run fails when a worker or the Java loop
# fails, leaves a message unprocessed or (kafka-eos) does not leave each message's output
# committed once in the output topic, emptied before every run.
#
#   --runs R   run each row R times (krb-worker, then the Java loop, in turn) and keep the best
#              rate of each (default 1)
#   --no-java  krb-worker alone: no Java column, no JDK needed
#
# Needs a broker (KRB_BOOTSTRAP, default localhost:9481: scripts/kafka-local.sh start), Debian's
# PostgreSQL (scripts/pg-local.sh, on KRB_PG_PORT; a server it has to start it stops) and, for
# the Java loop, a JDK 17+ and Maven, which resolves the jars once (scripts/kafka-local.sh jars).
set -euo pipefail
# shellcheck source=usage.sh
source "$(dirname "$0")/usage.sh" "$@"
cd "$(dirname "$0")/.."
# shellcheck source=common.sh
source scripts/common.sh
# shellcheck source=env.sh
source scripts/env.sh

usage="usage: bench-effects.sh [--runs R] [--no-java] [COUNT]"
count=100000 runs=1 java=1
while [ $# -gt 0 ]; do
  case $1 in
    --runs)
      runs=${2:-}
      [[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "bench-effects: --runs takes a whole number, 1 or more; $usage" >&2; exit 2; }
      shift 2
      ;;
    --no-java) java=0; shift ;;
    [1-9]*)
      count=$1
      [[ $count =~ ^[0-9]+$ ]] || { echo "bench-effects: COUNT is a whole number; $usage" >&2; exit 2; }
      shift
      ;;
    *) echo "bench-effects: unknown argument $1; $usage" >&2; exit 2 ;;
  esac
done

cargo build --release --quiet
answers "${KRB_BOOTSTRAP:-localhost:9481}" || { echo "bench-effects: no broker answers at ${KRB_BOOTSTRAP:-localhost:9481}: start one with scripts/kafka-local.sh start" >&2; exit 1; }

# The Java loop: compiled against the kafka-clients jar of kafka-local.sh's cache and run on
# that cache's jars (env.sh's java_build) with its log4j2 settings, as its run_class does.
java_src=scripts/bench-effects/JavaLoop.java
java_out=${CARGO_TARGET_DIR:-target}/bench-java
if [ "$java" = 1 ]; then
  java_libs=$(java_build bench-effects "$java_src" "$java_out" ", or pass --no-java")
fi

pg_started=0
running=""
# On the way out, a worker or Java loop still running is stopped, and a PostgreSQL started here.
cleanup() {
  [ -z "$running" ] || stop_all "$running" 30
  [ "$pg_started" = 0 ] || scripts/pg-local.sh stop >/dev/null
}
trap cleanup EXIT
if ! scripts/pg-local.sh status >/dev/null 2>&1; then
  scripts/pg-local.sh start >/dev/null
  pg_started=1
fi
pg=$(scripts/pg-local.sh url)
sqlite=sqlite:$LOGS/bench-effects.db

echo "== $count messages on 2 partitions of benchfx$([ "$runs" = 1 ] || echo ", best of $runs runs")"
topic benchfx 2 >/dev/null
krb-produce benchfx "$count" 2

# rate LOG: processings per second from the first processing line's time to the last's.
rate() {
  awk '$3 ~ /^p[0-9]+$/ && $4 == "offset" {
         split($1, t, ":"); s = t[1] * 3600 + t[2] * 60 + t[3]
         if (n++ == 0) first = s; last = s
       }
       END { if (n < 2 || last <= first) print 0; else printf "%.0f\n", (n - 1) / (last - first) }' "$1"
}

# fresh_run GROUP DB: forgets GROUP's logs and offsets and empties DB (a database's tables, or
# kafka-eos's output topic), for one run.
fresh_run() {
  rm -f "$LOGS/$1"-*.log
  krb-group "$1" >/dev/null
  [ "$2" = - ] || krb-effects init "$2" >/dev/null
}

# check_output DB: kafka-eos's output topic holds one committed message per input message.
check_output() {
  local line
  case $1 in kafka:*) ;; *) return 0 ;; esac
  line=$(krb-effects count "$1" benchfx --effect kafka-eos | head -n 1)
  [ "$line" = "processed $count, unique $count, duplicates 0" ] ||
    { echo "bench-effects: $1 holds $line, not $count messages once each" >&2; return 1; }
}

# krb_run GROUP DB OPTIONS...: one run of krb-worker; sets r, its rate.
krb_run() {
  local group=$1 db=$2
  shift 2
  fresh_run "$group" "$db"
  running=$group
  start "$group-a" "$group" benchfx "$@" >/dev/null
  wait_unique "$group" "$count" 900
  stop "$group-a" >/dev/null
  running=""
  check_output "$db"
  r=$(rate "$LOGS/$group-a.log")
}

# java_run GROUP DB OPTIONS...: one run of the Java loop, which stops by itself once it has
# processed COUNT messages; sets r, its rate. It is waited for as wait_unique waits for
# krb-worker (krb-dups reads the group's logs every 0.2 s: the same load beside both), and the
# run fails when it exits with an error, outlasts 900 s or has not processed every message.
java_run() {
  local group=$1 db=$2 name=$1-a pid status=0 ticks=4500 got
  shift 2
  fresh_run "$group" "$db"
  running=$group
  # As common.sh's start runs krb-worker: a start line, then its lines appended to its log.
  echo "$(now) start $name" >>"$LOGS/$name.log"
  java -cp "$java_out:$java_libs/*" -Dlog4j2.configurationFile=scripts/log4j2.properties \
    JavaLoop "$name" "$group" benchfx --count "$count" "$@" >>"$LOGS/$name.log" 2>&1 &
  pid=$!
  echo "$pid" >"$LOGS/$name.pid"
  while kill -0 "$pid" 2>/dev/null; do
    if [ "$ticks" -le 0 ]; then
      echo "bench-effects: the Java loop $name processed $(unique "$group") of $count messages in 900 s" >&2
      return 1
    fi
    unique "$group" >/dev/null || true
    sleep 0.2
    ticks=$((ticks - 1))
  done
  wait "$pid" || status=$?
  rm -f "$LOGS/$name.pid"
  running=""
  if [ "$status" != 0 ]; then
    echo "bench-effects: the Java loop $name exited with status $status; logs/$name.log ends:" >&2
    tail -n 5 "$LOGS/$name.log" >&2
    return 1
  fi
  got=$(unique "$group")
  [ "$got" = "$count" ] ||
    { echo "bench-effects: the Java loop $name processed ${got:-0} of $count messages" >&2; return 1; }
  check_output "$db"
  r=$(rate "$LOGS/$name.log")
}

# ratio A B: A / B as 1.23x, or - when either is missing.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b > 0) printf "%.2fx", a / b; else print "-" }'; }

none=""
printf '%-10s %-8s %-6s %10s %10s %8s %7s\n' effect store commit "krb msg/s" "Java msg/s" krb/Java cost
for row in "none|-|100|java" "none|-|1000|java" \
  "plain|$sqlite|100|-" "idempotent|$sqlite|100|-" "db-offsets|$sqlite|100|-" \
  "plain|$pg|100|-" "idempotent|$pg|100|-" "db-offsets|$pg|100|-" \
  "kafka-eos|kafka:benchfx-out|100|java" "kafka-eos|kafka:benchfx-out|1000|java" \
  "kafka-eos|kafka:benchfx-out|100ms|java"; do
  IFS='|' read -r effect db commit with_java <<<"$row"
  [ "$java" = 1 ] || with_java=-
  where=${db%%:*}
  [ "$db" != - ] || where=-
  options=(--effect "$effect")
  [ "$db" = - ] || options+=(--db "$db")
  case $commit in
    *ms) options+=(--commit-interval-ms "${commit%ms}") shown="${commit%ms} ms" ;;
    *) options+=(--commit-every "$commit") shown=$commit ;;
  esac
  krb_best=0 java_best=0
  for _ in $(seq 1 "$runs"); do
    krb_run "benchfx-$effect-$where-$commit" "$db" "${options[@]}"
    [ "$r" -le "$krb_best" ] || krb_best=$r
    if [ "$with_java" = java ]; then
      java_run "benchfx-java-$effect-$where-$commit" "$db" "${options[@]}"
      [ "$r" -le "$java_best" ] || java_best=$r
    fi
  done
  [ -n "$none" ] || none=$krb_best
  java_shown=$java_best
  [ "$with_java" = java ] || java_shown=-
  printf '%-10s %-8s %-6s %10s %10s %8s %7s\n' "$effect" "$where" "$shown" "$krb_best" "$java_shown" \
    "$(ratio "$krb_best" "$java_best")" "$(ratio "$none" "$krb_best")"
done
