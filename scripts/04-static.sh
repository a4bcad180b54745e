#!/usr/bin/env bash
# Lab 4: restarting one consumer, with and without static membership.
#
#   04-static.sh GROUP [--static]
#
# Topic GROUP (4 partitions, 400 messages) is created here. GROUP-a and GROUP-b share it; then
# GROUP-a is restarted (SIGTERM, started again), as a rolling deployment does. Without
# group.instance.id, a's leave and a's return are two rebalances and GROUP-b revokes twice.
# With --static (group.instance.id = the worker's name) a does not leave the group on SIGTERM,
# comes back under the same instance id and gets its partitions back without a rebalance.
set -euo pipefail
# shellcheck source=usage.sh
source "$(dirname "$0")/usage.sh" "$@"

usage="04-static.sh GROUP [--static]"
[ $# -ge 1 ] || { krb_line "GROUP is missing" "꼭 줘야 하는 인자가 빠졌습니다: GROUP" >&2; bad_usage; }
[ $# -le 2 ] || { krb_line "unknown argument '$3'" "알 수 없는 인자: '$3'" >&2; bad_usage; }
group=$1
static=0
case ${2:-} in
  "") ;;
  --static) static=1 ;;
  *) krb_line "unknown argument '$2'" "알 수 없는 인자: '$2'" >&2; bad_usage ;;
esac
# shellcheck source=common.sh
source "$(dirname "$0")/common.sh"
# A static member that stops is still a member until its session times out: the restart must
# come back within it. librdkafka's default (45 s) would hold the group that long after the lab
# ends, before a rerun can clear it; 10 s is ample for a restart (well under 1 s here) and short
# enough to wait for.
session_ms=10000
restart_pause=3
krb_line "session.timeout.ms $session_ms: a is restarted $restart_pause s after it stopped, within the session" \
  "session.timeout.ms $session_ms: a를 멈추고 ${restart_pause}초 뒤 다시 띄움 (세션 안)"
options=(--delay 0.01 --commit-every 100 --revoke-commit --session-timeout-ms "$session_ms")
member() { if [ "$static" = 1 ]; then echo "--instance-id $group-$1"; fi; }

trap 'stop_all "$group"' EXIT
fresh "$group"
topic "$group" 4
krb-produce "$group" 400 4

# shellcheck disable=SC2046 # member prints nothing or two words on purpose
start "$group-a" "$group" "$group" "${options[@]}" $(member a)
wait_log "$group-a" 'assigned \[[0-9]'
# shellcheck disable=SC2046
start "$group-b" "$group" "$group" "${options[@]}" $(member b)
wait_log "$group-b" 'assigned \[[0-9]'
wait_unique "$group" 400
b_lines=$(wc -l <"$LOGS/$group-b.log")

stop "$group-a"
a_lines=$(wc -l <"$LOGS/$group-a.log")
# A deployment takes a while to bring the new process up; the pause stays inside the session.
sleep "$restart_pause"
# shellcheck disable=SC2046
start "$group-a" "$group" "$group" "${options[@]}" $(member a)
# Wait until the restarted a owns partitions again (the verdict says if it never does), then
# one heartbeat interval (3 s) more, so a rebalance still under way would show in b's log.
wait_log "$group-a" ' assigned \[[0-9]' 30 "$a_lines" || true
sleep 4
krb_line "what $group-b logged while $group-a restarted:" "$group-a가 재시작하는 동안 $group-b가 남긴 줄:"
tail -n "+$((b_lines + 1))" "$LOGS/$group-b.log" | grep -E ' (revoked|assigned|lost) ' || krb_line "  nothing" "  없음"
stop "$group-a" "$group-b"
krb-timeline --logs "$LOGS" "$group"
static_flag=()
[ "$static" = 0 ] || static_flag=(--static)
verdict static "$group" "${static_flag[@]}"
