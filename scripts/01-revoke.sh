#!/usr/bin/env bash
# Lab 1: a consumer that does not commit in on_revoke makes the next owner re-read.
#
#   01-revoke.sh GROUP [--revoke-commit] [worker options]
#
# Needs topic pay (2 partitions) holding 1000 messages: topic pay 2; krb-produce pay 1000 2.
# Without them it stops at once, saying so (krb-topic pay 2 --expect 1000).
# GROUP-a consumes alone (0.01 s a message, commit every 100); part-way GROUP-b joins and the
# group rebalances. When all 1000 messages are processed, both stop; then krb-verify checks the
# lab's statements (krb-dups GROUP shows the duplicates). To watch the run as it happens, start
# krb-live GROUP in a second terminal first and open the address it prints.
#
# b joins once a has processed 100 messages of p1, the partition the range assignor gives b
# (members sort by name): a takes one partition at a time, in whichever order librdkafka
# fetched them, and this way the partition that moves always has work in flight.
set -euo pipefail
# shellcheck source=usage.sh
source "$(dirname "$0")/usage.sh" "$@"

usage="01-revoke.sh GROUP [--revoke-commit] [worker options]"
usage_ko="01-revoke.sh GROUP [--revoke-commit] [워커 옵션]"
[ $# -gt 0 ] || { krb_line "GROUP is missing" "꼭 줘야 하는 인자가 빠졌습니다: GROUP" >&2; bad_usage; }
group=$1
shift
# shellcheck source=common.sh
source "$(dirname "$0")/common.sh"
messages=1000

# Without pay, or with pay empty, a would wait for messages that never come: say so at once.
if ! krb-topic pay 2 --expect "$messages" >/dev/null; then
  krb_line "01-revoke.sh: make topic pay first: topic pay 2; krb-produce pay $messages 2" \
    "01-revoke.sh: pay 토픽을 먼저 만드세요: topic pay 2; krb-produce pay $messages 2" >&2
  exit 1
fi
trap 'stop_all "$group"' EXIT
# A rerun with the same group measures the same thing: no old logs, no old committed offsets.
fresh "$group"

start "$group-a" "$group" pay --delay 0.01 --commit-every 100 "$@"
wait_log "$group-a" 'p1 offset 99$'
start "$group-b" "$group" pay --delay 0.01 --commit-every 100 "$@"
krb_line "waiting until the group has processed all $messages messages (about 10 s, at most 120 s) ..." \
  "그룹이 메시지 ${messages}개를 모두 처리할 때까지 기다리는 중 (약 10초, 최대 120초) ..."
wait_unique "$group" "$messages"
stop "$group-a" "$group-b"
krb-timeline --logs "$LOGS" "$group"
revoke_commit=()
[[ " $* " == *" --revoke-commit "* ]] && revoke_commit=(--revoke-commit)
verdict revoke "$group" "${revoke_commit[@]}"
