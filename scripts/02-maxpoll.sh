#!/usr/bin/env bash
# Lab 2: a consumer slower than max.poll.interval.ms is expelled while it still works.
#
#   02-maxpoll.sh
#
# Topic slow (1 partition, 10 messages); slow-a and slow-b in group slow, a owns the partition.
# 0.5 s a message, commit every message; a takes 15 s at offset 3 with max.poll.interval.ms
# 10000 (session.timeout.ms 6000, the broker's minimum). Ends when all 10 offsets are processed,
# a has finished offset 3 and the group has committed p0=10. Then: cat logs/slow-*.log | sort
set -euo pipefail
# shellcheck source=common.sh
source "$(dirname "$0")/common.sh"

group=slow
options=(--delay 0.5 --commit-every 1 --max-poll-ms 10000 --session-timeout-ms 6000)

trap 'stop_all "$group"' EXIT
# A rerun gives the same result: no old logs, no old offsets, an empty topic.
fresh "$group"
topic slow 1

start slow-a "$group" slow "${options[@]}" --slow-at 3 --slow-sec 15
wait_log slow-a 'assigned \[0\]'
# b joins before there is work: the group settles with a owning p0 and b idle.
start slow-b "$group" slow "${options[@]}"
wait_log slow-b 'assigned \[\]'
krb-produce slow 10 1
wait_unique "$group" 10 90
wait_log slow-a 'slow-a p0 offset 3$' 30
wait_log slow-a 'commit p0=10$|commit failed' 30 || wait_log slow-b 'commit p0=10$' 5
stop slow-a slow-b
krb-timeline --logs "$LOGS" "$group"
