#!/usr/bin/env bash
# Lab 2: a consumer slower than max.poll.interval.ms is expelled while it still works.
#
#   02-maxpoll.sh [GROUP] [worker options]
#
# Topic GROUP (default slow; 1 partition, 10 messages) is created here; GROUP-a and GROUP-b in
# group GROUP, a owns the partition. 0.5 s a message, commit every message; a takes 15 s at
# offset 3 with max.poll.interval.ms 10000 (session.timeout.ms 6000, the broker's minimum).
# Ends when all 10 offsets are processed, a has finished offset 3 and the group has committed
# p0=10; then krb-verify checks the lab's statements. Or read it: cat logs/slow-*.log | sort
#
# With --group-protocol consumer (lab 5) the broker sets the session timeout, and it tells b
# nothing while b has no partition. An engine that leaves the group at MAXPOLL has the broker
# hand b the partition on b's next heartbeat, up to group.consumer.heartbeat.interval.ms (5 s)
# later: a's offset 3 lasts 20 s there, so that b would still meet a in it (librdkafka 2.12.1
# did; with 15 s, b sometimes came after a had finished). librdkafka 2.15 leaves only at a's
# next poll, after offset 3: the partition then goes to b or back to a, and no one meets.
set -euo pipefail
# shellcheck source=usage.sh
source "$(dirname "$0")/usage.sh" "$@"
# shellcheck source=common.sh
source "$(dirname "$0")/common.sh"

group=${1:-slow}
[ $# -eq 0 ] || shift
classic=1
[[ " $* " == *" --group-protocol consumer "* ]] && classic=0
options=(--delay 0.5 --commit-every 1 --max-poll-ms 10000 "$@")
[ "$classic" = 0 ] || options+=(--session-timeout-ms 6000)
slow_sec=15
[ "$classic" = 1 ] || slow_sec=20

trap 'stop_all "$group"' EXIT
# A rerun gives the same result: no old logs, no old offsets, an empty topic.
fresh "$group"
topic "$group" 1

start "$group-a" "$group" "$group" "${options[@]}" --slow-at 3 --slow-sec "$slow_sec"
wait_log "$group-a" 'assigned \[0\]'
# b joins before there is work: the group settles with a owning p0 and b idle.
start "$group-b" "$group" "$group" "${options[@]}"
if [ "$classic" = 1 ]; then wait_log "$group-b" 'assigned \[\]'; else sleep 3; fi
krb-produce "$group" 10 1
krb_line "waiting for the 10 messages: a spends $slow_sec s on offset 3, so about $((slow_sec + 8)) s (at most 90 s) ..." \
  "메시지 10개를 기다리는 중: a가 offset 3에 ${slow_sec}초를 쓰므로 약 $((slow_sec + 8))초 (최대 90초) ..."
wait_unique "$group" 10 90
wait_log "$group-a" "$group-a p0 offset 3( already applied| refused)?\$" 30
# The group's final position: whoever owns p0 at the end commits p0=10 (the verdict says if not).
wait_any "$group" ' commit p0=10$' 30 || true
stop "$group-a" "$group-b"
krb-timeline --logs "$LOGS" "$group"
verdict maxpoll "$group"
