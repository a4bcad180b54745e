#!/usr/bin/env bash
# bench-share.sh [--runs R] [--batch-messages M] [COUNT]: krb-share beside Kafka's own Java
# share consumer (KafkaShareConsumer, kafka-clients), messages a second, on one broker and one
# topic: COUNT records (default 500000) on 2 partitions, written once by krb-produce. Both do
# the same work at --delay 0: each record acknowledged ACCEPT one by one, the acknowledgements
# committed synchronously at the end of each poll's batch (Java: share.acknowledgement.mode=
# explicit, acknowledge(record), commitSync()), one line per acquisition, processing,
# acknowledgement and commit, in a new share group each run with share.auto.offset.reset=
# earliest. A run ends when the broker has taken the acknowledgements of all COUNT records;
# its rate is COUNT over the time from its first `acquired` line to its last `acks committed`
# line, and its CPU seconds (GNU time, user + system) are the whole process's, start-up and
# the share group's join included.
#
# The tools run in turn, krb-share then the Java program, R times each (default 3); the median
# rate and CPU of each are printed, then `krb-share / KafkaShareConsumer: X.XX` (over 1.00:
# krb-share is faster). `acks lines` is how many `acks committed` lines a run wrote, one per
# partition a commit (at the end of a poll's batch) names: the broker lends a producer's batch
# whole, so the producer's batch size sets how few there can be.
#
#   --runs R              each tool R times (default 3)
#   --batch-messages M    krb-produce with -X batch.num.messages=M (librdkafka's default is
#                         10000: a partition's records go out 10000 to a batch)
#
# The Java program is scripts/bench-share/JavaShare.java, compiled with scripts/java/*.java by
# env.sh's java_build into target/bench-share-java against the jars scripts/kafka-local.sh
# resolves (a JDK 17+ and Maven). krb-share is stopped with SIGTERM once its log shows every
# record's acknowledgement committed; the Java program stops by itself. A run fails when a tool
# fails, a commit is refused, or the acknowledgements committed are not COUNT records exactly.
# Needs a broker (KRB_BOOTSTRAP, default localhost:9481: scripts/kafka-local.sh start) and GNU
# time.
set -euo pipefail
# shellcheck source=usage.sh
source "$(dirname "$0")/usage.sh" "$@"
cd "$(dirname "$0")/.."
# shellcheck source=env.sh
source scripts/env.sh

usage="usage: bench-share.sh [--runs R] [--batch-messages M] [COUNT]"
count=500000 runs=3 produce=()
while [ $# -gt 0 ]; do
  case $1 in
    --runs | --batch-messages)
      [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || { echo "bench-share: $1 takes a whole number, 1 or more; $usage" >&2; exit 2; }
      if [ "$1" = --runs ]; then runs=$2; else produce=(-X "batch.num.messages=$2"); fi
      shift 2
      ;;
    *)
      [[ $1 =~ ^[1-9][0-9]*$ ]] || { echo "bench-share: unknown argument $1; $usage" >&2; exit 2; }
      count=$1
      shift
      ;;
  esac
done

bootstrap=${KRB_BOOTSTRAP:-localhost:9481}
answers "$bootstrap" || { echo "bench-share: no broker answers at $bootstrap: start one with scripts/kafka-local.sh start" >&2; exit 1; }
install_missing /usr/bin/time:time || { echo "bench-share: needs GNU time (Debian's time package)" >&2; exit 1; }
cargo build --release --quiet -p krb-share -p krb-produce -p krb-topic
export KRB_BOOTSTRAP=$bootstrap
unset KRB_NS
bin=target/release
java_out=${CARGO_TARGET_DIR:-target}/bench-share-java
java_libs=$(java_build bench-share scripts/bench-share/JavaShare.java "$java_out")

out=$(mktemp -d)
running=""
topic=bench-share-$$
partitions=2
# On the way out, a krb-share still running is stopped (by its id), and the topic and the logs go.
cleanup() {
  [ -z "$running" ] || kill "$running" 2>/dev/null || true
  "$bin/krb-topic" --delete "$topic" >/dev/null 2>&1 || true
  rm -rf "$out"
}
trap cleanup EXIT

"$bin/krb-topic" "$topic" "$partitions" >/dev/null
"$bin/krb-produce" "$topic" "$count" "$partitions" "${produce[@]}" >/dev/null

# committed LOG: how many records the log's `acks committed` lines name ([0..3, 7] is 5).
# shellcheck disable=SC2016 # an awk program, single-quoted on purpose
committed_awk='
  / acks committed p[0-9]+ \[/ {
    sub(/.*\[/, ""); sub(/\].*/, "")
    k = split($0, part, ", ")
    for (i = 1; i <= k; i++) {
      if (split(part[i], r, /\.\./) == 2) n += r[2] - r[1] + 1; else n++
    }
  }'
# committed_until COUNT PID: reads `acks committed` lines until they name COUNT records, then
# stops PID and prints all.
committed_until() {
  local n=0 line range ranges
  while IFS= read -r line; do
    ranges=${line##*[}
    ranges=${ranges%%]*}
    IFS=, read -ra ranges <<<"${ranges// /}"
    for range in "${ranges[@]}"; do
      case $range in
        *..*) n=$((n + ${range#*..} - ${range%..*} + 1)) ;;
        *) n=$((n + 1)) ;;
      esac
    done
    if [ "$n" -ge "$1" ]; then
      kill "$2"
      echo all
      return 0
    fi
  done
}
# check LOG WHO: the run's acknowledgements are COUNT records, none refused; prints its rate
# (records a second from the first `acquired` line to the last `acks committed` line) and
# how many commits it made.
check() {
  local log=$1 who=$2 got
  if grep -q ' acks failed ' "$log"; then
    echo "bench-share: $who had acknowledgements refused:" >&2
    grep -m 3 ' acks failed ' "$log" >&2
    return 1
  fi
  got=$(awk "$committed_awk END { print n + 0 }" "$log")
  [ "$got" = "$count" ] || { echo "bench-share: $who committed the acknowledgements of $got records, not $count" >&2; return 1; }
  awk -v n="$count" '
    function s(t, x) { split(t, x, ":"); return x[1] * 3600 + x[2] * 60 + x[3] }
    $3 == "acquired" && first == "" { first = s($1) }
    $3 == "acks" && $4 == "committed" { last = s($1); commits++ }
    END { if (last <= first) last = first + 0.001; printf "%.0f %d\n", n / (last - first), commits }' "$log"
}

# krb_run I: krb-share in a new share group until its log shows COUNT records committed; prints
# its rate, commits and CPU seconds.
krb_run() {
  local log=$out/krb-$1.log time=$out/krb-$1.time pid child seen
  /usr/bin/time -f '%U %S' -o "$time" "$bin/krb-share" bench-share-k "bench-share-$$-k$1" "$topic" >"$log" 2>&1 &
  pid=$!
  # GNU time does not pass SIGTERM on: the worker, its child, is the one to stop.
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    child=$(pgrep -P "$pid" || true)
    [ -z "$child" ] || break
    sleep 0.1
  done
  [ -n "$child" ] || { echo "bench-share: krb-share did not start; its log:" >&2; cat "$log" >&2; return 1; }
  running=$child
  # One pass over the log as it grows (900 s at most) until it names COUNT records committed:
  # then the worker is stopped, and tail ends with it (--pid), as when the worker ends alone.
  # Only the commit lines reach the shell (grep passes each at once; Debian's mawk would wait
  # for a full buffer).
  seen=$(timeout 900 tail -n +1 -s 0.1 -F --pid="$pid" "$log" 2>/dev/null |
    grep --line-buffered ' acks committed p[0-9]* \[' | committed_until "$count" "$child") || true
  if [ "$seen" != all ]; then
    echo "bench-share: krb-share did not commit the acknowledgements of $count records; its log ends:" >&2
    tail -n 5 "$log" >&2
    return 1
  fi
  wait "$pid" || { echo "bench-share: krb-share failed; its log ends:" >&2; tail -n 5 "$log" >&2; return 1; }
  running=""
  echo "$(check "$log" krb-share) $(awk '{ print $1 + $2 }' "$time")"
}

# java_run I: JavaShare in a new share group; it stops by itself at COUNT records committed.
java_run() {
  local log=$out/java-$1.log time=$out/java-$1.time
  if ! timeout 900 /usr/bin/time -f '%U %S' -o "$time" java -cp "$java_out:$java_libs/*" \
    -Dlog4j2.configurationFile=scripts/log4j2.properties \
    JavaShare bench-share-j "bench-share-$$-j$1" "$topic" --count "$count" >"$log" 2>"$log.err"; then
    echo "bench-share: JavaShare failed; it wrote:" >&2
    tail -n 5 "$log.err" >&2
    return 1
  fi
  echo "$(check "$log" KafkaShareConsumer) $(awk '{ print $1 + $2 }' "$time")"
}

# median FILE COLUMN: the median of a column of FILE (the lower middle of an even count).
median() { awk -v c="$2" '{ print $c }' "$1" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "bench-share: $count records on $partitions partitions of $topic (krb-produce${produce[*]:+ ${produce[*]}}), broker $bootstrap, each tool $runs time(s) in turn"
printf '%-20s %4s %12s %10s %8s\n' tool run "records/s" "acks lines" "CPU s"
for i in $(seq 1 "$runs"); do
  krb_run "$i" >>"$out/krb"
  read -r rate commits cpu <<<"$(tail -n 1 "$out/krb")"
  printf '%-20s %4s %12s %10s %8s\n' krb-share "$i" "$rate" "$commits" "$cpu"
  rm -f "$out/krb-$i.log"
  java_run "$i" >>"$out/java"
  read -r rate commits cpu <<<"$(tail -n 1 "$out/java")"
  printf '%-20s %4s %12s %10s %8s\n' KafkaShareConsumer "$i" "$rate" "$commits" "$cpu"
  rm -f "$out/java-$i.log"
done
krb_rate=$(median "$out/krb" 1) java_rate=$(median "$out/java" 1)
printf '%-20s %4s %12s %10s %8s\n' krb-share median "$krb_rate" "$(median "$out/krb" 2)" "$(median "$out/krb" 3)"
printf '%-20s %4s %12s %10s %8s\n' KafkaShareConsumer median "$java_rate" "$(median "$out/java" 2)" "$(median "$out/java" 3)"
awk -v k="$krb_rate" -v j="$java_rate" 'BEGIN { printf "krb-share / KafkaShareConsumer: %.2f\n", k / j }'
