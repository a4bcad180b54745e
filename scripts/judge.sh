#!/usr/bin/env bash
# judge.sh [--engine java|krb] [--group-protocol classic|consumer] [--slow-sec S] [--broker-log FILE] [GROUP]
#
# Lab 2's scenario (02-maxpoll.sh) once, on the engine named: what does a client do when
# max.poll.interval.ms runs out while it still works? Topic GROUP (default judge; 1 partition,
# 10 messages) is created here; GROUP-a and GROUP-b in group GROUP, a owns the partition, 0.5 s
# a message, a commit after every message, max.poll.interval.ms 10000, and a takes 20 s on
# offset 3 under the consumer protocol (15 s and session.timeout.ms 6000 under classic), as
# 02-maxpoll.sh runs them.
#
#   --engine java      (default) both workers are scripts/judge/JavaWorker.java, Kafka's own
#                      Java client (kafka-clients from scripts/kafka-local.sh's cache, 4.3.1),
#                      writing krb-worker's log lines; javac compiles it into target/judge-java
#                      when the source is newer. Needs a JDK 17+ and Maven (kafka-local.sh jars).
#   --engine krb       both workers are krb-worker (librdkafka, target/release)
#   --group-protocol   consumer (default, KIP-848, lab 5's) or classic (lab 2's)
#   --slow-sec S       a's time on offset 3 instead (to see what bounds a client that keeps
#                      the partition: with S above 45 the broker's session timeout comes first)
#   --broker-log FILE  the broker's log to quote the group's lines from (default: the log
#                      kafka-local.sh writes for KRB_BOOTSTRAP's port, when it is local)
#
# Prints a's and b's log merged by time (librdkafka's %4|...| lines with their time of day put
# first), the facts of the expulsion (when the client gave up, when b was given p0, whether a
# and b were in offset 3 together, a's commit after it, lost or revoked, how many times offset 3
# was processed), the broker's log lines naming the group during the run, and krb-verify
# maxpoll's verdict on the logs (lab 2's classic statements: the ones about librdkafka's MAXPOLL
# line and _MAX_POLL_EXCEEDED cannot hold for the Java client). Exit status 0 once the scenario
# ran, whatever it showed; 1 when it could not run; 2 on a wrong command line. One run takes
# about 35 s (the consumer protocol) or 30 s (classic), plus the first compile.
set -euo pipefail
# shellcheck source=usage.sh
source "$(dirname "$0")/usage.sh" "$@"

usage="judge.sh [--engine java|krb] [--group-protocol classic|consumer] [--slow-sec S] [--broker-log FILE] [GROUP]"
engine=java protocol=consumer broker_log="" group=judge slow_sec=""
while [ $# -gt 0 ]; do
  case $1 in
    --engine | --group-protocol | --slow-sec | --broker-log)
      [ -n "${2:-}" ] || { krb_line "judge: $1 needs a value" "judge: '$1'에 값이 없습니다" >&2; bad_usage; } ;;&
    --engine) engine=$2; shift 2 ;;
    --group-protocol) protocol=$2; shift 2 ;;
    --slow-sec) slow_sec=$2; shift 2 ;;
    --broker-log) broker_log=$2; shift 2 ;;
    -*) krb_line "judge: unknown option '$1'" "judge: 알 수 없는 옵션: '$1'" >&2; bad_usage ;;
    *) group=$1; shift ;;
  esac
done
case $engine in
  java | krb) ;;
  *) krb_line "judge: --engine takes java or krb, not '$engine'" \
    "judge: --engine의 값이 잘못됐습니다('$engine'): 쓸 수 있는 값은 java, krb" >&2; bad_usage ;;
esac
case $protocol in
  classic | consumer) ;;
  *) krb_line "judge: --group-protocol takes classic or consumer, not '$protocol'" \
    "judge: --group-protocol의 값이 잘못됐습니다('$protocol'): 쓸 수 있는 값은 classic, consumer" >&2; bad_usage ;;
esac
[[ $slow_sec =~ ^([0-9]+(\.[0-9]*)?)?$ ]] || {
  krb_line "judge: --slow-sec takes a number of seconds, not '$slow_sec'" \
    "judge: --slow-sec의 값이 잘못됐습니다('$slow_sec'): 초 단위의 숫자를 주세요" >&2
  bad_usage
}
cd "$(dirname "$0")/.."
# shellcheck source=common.sh
source scripts/common.sh

bootstrap=${KRB_BOOTSTRAP:-localhost:9481}
answers "$bootstrap" || {
  krb_line "judge: no broker answers at $bootstrap: start one with scripts/kafka-local.sh start" \
    "judge: $bootstrap에서 응답하는 브로커가 없습니다: scripts/kafka-local.sh start로 띄우세요" >&2
  exit 1
}
if [ -z "$broker_log" ]; then
  port=${bootstrap##*:}
  case ${bootstrap%%:*} in
    localhost | 127.0.0.1)
      broker_log=logs/kafka-port$port.log
      [ "$port" != 9481 ] || broker_log=logs/kafka.log
      ;;
  esac
fi

options=(--delay 0.5 --commit-every 1 --max-poll-ms 10000 --group-protocol "$protocol")
if [ "$protocol" = classic ]; then
  options+=(--session-timeout-ms 6000)
  slow_sec=${slow_sec:-15}
fi
slow_sec=${slow_sec:-20}

# The Java worker: compiled against the kafka-clients jar of kafka-local.sh's cache and run on
# that cache's jars (env.sh's java_build), as bench-effects.sh does its Java loop.
java_src=scripts/judge/JavaWorker.java
java_out=${CARGO_TARGET_DIR:-target}/judge-java
if [ "$engine" = java ]; then
  [ -f "$java_src" ] || {
    krb_line "judge: no $java_src here (a release tarball ships no Java source): run it from a checkout, or use --engine krb" \
      "judge: 여기에 $java_src가 없습니다(릴리스 tarball에는 Java 소스가 없어요): 받은 저장소에서 실행하거나 --engine krb를 쓰세요" >&2
    exit 1
  }
  java_libs=$(java_build judge "$java_src" "$java_out")
  # The client's own log, into the worker's: warnings, and the consumer's group steps (INFO),
  # each line begun with the time of day and the worker's name as the grammar's lines are, so
  # that sort puts them in place; the grammar reads them as no event of its own.
  cat >"$java_out/log4j2.properties" <<'PROPERTIES'
status = warn
appender.err.type = Console
appender.err.name = ERR
appender.err.target = SYSTEM_ERR
appender.err.layout.type = PatternLayout
appender.err.layout.alwaysWriteExceptions = false
appender.err.layout.pattern = %d{HH:mm:ss.SSS} ${sys:krb.name} [%p %c{1}] %replace{%m}{[\r\n]+}{ }%notEmpty{ (%throwable{short})}%n
rootLogger.level = WARN
rootLogger.appenderRef.err.ref = ERR
logger.member.name = org.apache.kafka.clients.consumer.internals
logger.member.level = INFO
PROPERTIES
fi

# start_java NAME GROUP TOPIC [options]: common.sh's start, with the Java worker for krb-worker
# (its pid file is what stop and stop_all signal).
start_java() {
  local name=$1 mark
  mark="$(now) start $name"
  echo "$mark"
  echo "$mark" >>"$LOGS/$name.log"
  java -cp "$java_out:$java_libs/*" -Dlog4j2.configurationFile="$java_out/log4j2.properties" \
    -Dkrb.name="$name" JavaWorker "$@" >>"$LOGS/$name.log" 2>&1 &
  echo $! >"$LOGS/$name.pid"
}
worker() { if [ "$engine" = java ]; then start_java "$@"; else start "$@"; fi; }

if [ "$engine" = java ]; then
  echo "== $group: Kafka's Java client (kafka-clients ${KRB_KAFKA_VERSION:-4.3.1}), group.protocol=$protocol"
else
  echo "== $group: krb-worker ($(krb-worker --version | sed 's/^krb-worker [^ ]* (\(.*\))$/\1/')), group.protocol=$protocol"
fi
trap 'stop_all "$group"' EXIT
# As 02-maxpoll.sh: no old logs, no old offsets, an empty topic; a owns p0, b joins idle, then
# the 10 messages. The broker's lines are quoted from here on.
fresh "$group"
topic "$group" 1
from=1
[ ! -f "$broker_log" ] || from=$(($(wc -c <"$broker_log") + 1))
worker "$group-a" "$group" "$group" "${options[@]}" --slow-at 3 --slow-sec "$slow_sec"
wait_log "$group-a" "$group-a assigned \[0\]" 60
worker "$group-b" "$group" "$group" "${options[@]}"
if [ "$protocol" = classic ]; then wait_log "$group-b" "$group-b assigned \[\]" 60; else sleep 3; fi
krb-produce "$group" 10 1
wait_unique "$group" 10 $((${slow_sec%.*} + 70))
wait_log "$group-a" "$group-a p0 offset 3\$" $((${slow_sec%.*} + 30))
wait_any "$group" ' commit p0=10$' 30 || true
stop "$group-a" "$group-b"
trap - EXIT

# merged: the group's logs by time; librdkafka's lines (%4|UNIX.MS|FAC|...) get their time of
# day first, in the grammar's format, so that they sort into place.
merged() {
  local line t
  cat "$LOGS/$group"-a.log "$LOGS/$group"-b.log | while IFS= read -r line; do
    case $line in
      %*)
        t=$(echo "$line" | cut -d'|' -f2)
        echo "$(date -d "@$t" +%H:%M:%S.%3N) $line"
        ;;
      *) echo "$line" ;;
    esac
  done | sort -s -k1,1
}
echo "== a's and b's logs by time"
merged

echo "== facts"
merged | awk -v a="$group-a" -v b="$group-b" '
  function s(t, h) { split(t, h, ":"); return h[1] * 3600 + h[2] * 60 + h[3] }
  function since(t) { d = s(t) - slow; if (d < -43200) d += 86400; return sprintf("%+.2f s", d) }
  $2 == a && $3 == "p0" && $4 == "offset" && $5 == 3 && $6 == "slow" { slow = s($1); slow_t = $1; next }
  !slow_t { next }
  # The client gives up: librdkafka logs MAXPOLL, the Java client a poll timeout.
  !expiry && (/\|MAXPOLL\|/ || (index($0, " " a " [") && /poll timeout has expired/)) { expiry = $1 }
  $3 == "p0" && $4 == "offset" && $5 == 3 && NF == 5 { times++ }
  $2 == a && $3 == "p0" && $4 == "offset" && $5 == 3 && NF == 5 && !done { done = s($1); done_t = $1; next }
  $2 == b && $3 == "assigned" && $0 ~ /[[ ]0[],]/ && !given { given = s($1); given_t = $1 }
  $2 == b && $3 == "p0" && $4 == "offset" && $5 == 3 && NF == 5 { b3 = 1 }
  $2 == a && done_t && !after && ($3 == "commit") { after = $0; sub(/^[^ ]+ [^ ]+ /, "", after) }
  ($2 == a || $2 == b) && ($3 == "lost" || $3 == "revoked" || ($3 == "poll" && $4 == "error:")) {
    line = $0; sub(/^[^ ]+ /, "", line); gone = gone "\n    " since($1) " " line
  }
  END {
    if (!slow_t) { print "  a never started offset 3"; exit }
    printf "  a p0 offset 3 slow start at %s\n", slow_t
    printf "  the client gave up (MAXPOLL / poll timeout): %s\n", expiry ? since(expiry) " after the slow start" : "never"
    printf "  a finished offset 3: %s\n", done_t ? since(done_t) : "never"
    if (given_t) {
      printf "  b assigned [0]: %s after the slow start, %+.2f s from a finishing offset 3\n", substr(since(given_t), 2), given - done
    } else print "  b assigned [0]: never after the slow start"
    if (given_t && done_t && given < done && b3) printf "  a and b together in offset 3: %.2f s\n", done - given
    else print "  a and b together in offset 3: never"
    printf "  a after offset 3: %s\n", after ? after : "no commit"
    printf "  lost / revoked / poll error after the slow start:%s\n", gone ? gone : " none"
    printf "  offset 3 processed %d time(s)\n", times
  }'

# broker_lines: the group coordinator's lines shortened (time, what it says of the group), and,
# when the broker logs requests whole (kafka.request.logger at TRACE: see docs/en/internals/
# engines.md), each ConsumerGroupHeartbeat and OffsetCommit of the group as one line: who sent
# it, its member epoch (-1: leave), the partitions it says it owns, and the answer (error
# code, epoch, assignment; a commit's error code); the classic protocol's JoinGroup, SyncGroup,
# Heartbeat and LeaveGroup with their generation and error code. Fails when there is no line.
broker_lines() {
  awk '
    function field(s, key,   r) {
      if (!match(s, "\"" key "\":[^,}]*")) return "?"
      r = substr(s, RSTART + length(key) + 3, RLENGTH - length(key) - 3); gsub(/"/, "", r); return r
    }
    function parts(s, key,   r) {
      if (index(s, "\"" key "\":null") || !match(s, "\"" key "\":[^]]*\\]")) return ""
      r = substr(s, RSTART, RLENGTH)
      if (!match(r, /"partitions":\[[^]]*\]/)) return " " key "=[]"
      return " " key "=" substr(r, RSTART + 13, RLENGTH - 13)
    }
    { t = $2; sub(/\]$/, "", t); n++ }
    /Completed request:/ {
      i = index($0, "\"response\":"); req = substr($0, 1, i - 1); resp = substr($0, i)
      api = field(req, "requestApiKeyName"); who = field(req, "clientId")
      if (api == "CONSUMER_GROUP_HEARTBEAT")
        printf "%s %s %s memberEpoch=%s%s -> error=%s memberEpoch=%s%s\n", t, api, who, field(req, "memberEpoch"),
          parts(req, "topicPartitions"), field(resp, "errorCode"), field(resp, "memberEpoch"), parts(resp, "assignment")
      else if (api == "OFFSET_COMMIT")
        printf "%s %s %s epoch=%s offset=%s -> error=%s\n", t, api, who, field(req, "generationIdOrMemberEpoch"),
          field(req, "committedOffset"), field(resp, "errorCode")
      else if (api ~ /^(JOIN_GROUP|SYNC_GROUP|HEARTBEAT|LEAVE_GROUP)$/) {
        g = field(req, "generationId")
        printf "%s %s %s%s -> error=%s\n", t, api, who, g == "?" ? "" : " generation=" g, field(resp, "errorCode")
      }
      next
    }
    {
      line = $0; sub(/^\[[^]]*\] /, "", line); sub(/^INFO /, "", line); sub(/^\[GroupCoordinator[^]]*\] /, "", line)
      sub(/^\[GroupId [^]]*\] /, "", line); sub(/ \(org\.apache[^)]*\)$/, "", line); print t " " line
    }
    END { exit n == 0 }'
}

if [ -f "$broker_log" ]; then
  kafka_group=$group
  [ -z "${KRB_NS:-}" ] || kafka_group=$KRB_NS-$group
  echo "== the broker's lines naming group $kafka_group during the run ($broker_log)"
  tail -c "+$from" "$broker_log" | grep -F -e "GroupId $kafka_group]" -e "group $kafka_group " -e "\"groupId\":\"$kafka_group\"" |
    broker_lines ||
    echo "  (none)"
fi

krb-timeline --logs "$LOGS" "$group"
echo "== krb-verify maxpoll $group (lab 2's statements; the MAXPOLL and _MAX_POLL_EXCEEDED ones are librdkafka's)"
krb-verify maxpoll "$group" || true
