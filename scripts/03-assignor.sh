#!/usr/bin/env bash
# Lab 3: eager (range) versus cooperative-sticky assignment when a consumer joins.
#
#   03-assignor.sh GROUP [--assignor range|cooperative-sticky] [--revoke-commit]
#
# Topic GROUP (6 partitions, 3000 messages) is created here. GROUP-a and GROUP-b share it
# (0.01 s a message, commit every 100); once they have processed 600 messages GROUP-c joins.
# Eager assignment revokes every partition of every member, and a member re-reads even the
# partitions it keeps from their last commit; cooperative-sticky revokes only the partitions
# that move. Then krb-verify checks the lab's statements (krb-dups GROUP shows the duplicates).
set -euo pipefail
# shellcheck source=usage.sh
source "$(dirname "$0")/usage.sh" "$@"

usage="03-assignor.sh GROUP [--assignor range|cooperative-sticky] [--revoke-commit]"
[ $# -gt 0 ] || { krb_line "GROUP is missing" "꼭 줘야 하는 인자가 빠졌습니다: GROUP" >&2; bad_usage; }
group=$1
shift
assignor=range
extra=()
while [ $# -gt 0 ]; do
  case $1 in
    --assignor)
      [ $# -ge 2 ] || { krb_line "--assignor needs a value" "'--assignor'에 값이 없습니다" >&2; bad_usage; }
      assignor=$2
      shift 2 ;;
    --revoke-commit) extra+=(--revoke-commit); shift ;;
    *) krb_line "unknown argument '$1'" "알 수 없는 인자: '$1'" >&2; bad_usage ;;
  esac
done
case $assignor in
  range | cooperative-sticky) ;;
  *) krb_line "--assignor takes range or cooperative-sticky, not '$assignor'" \
    "--assignor의 값이 잘못됐습니다('$assignor'): 쓸 수 있는 값은 range, cooperative-sticky" >&2; bad_usage ;;
esac
# shellcheck source=common.sh
source "$(dirname "$0")/common.sh"
messages=3000
c_after=600
options=(--delay 0.01 --commit-every 100 --assignor "$assignor" "${extra[@]}")

trap 'stop_all "$group"' EXIT
fresh "$group"
topic "$group" 6
start "$group-a" "$group" "$group" "${options[@]}"
wait_log "$group-a" 'assigned \[[0-9]'
start "$group-b" "$group" "$group" "${options[@]}"
wait_log "$group-b" 'assigned \[[0-9]'
# Messages arrive once a and b have settled, as fast as the two of them process (200 a second),
# so every partition has work in hand when c joins.
krb-produce "$group" "$messages" 6 0.005 &
producer=$!
wait_unique "$group" "$c_after"
joined=$(now)
start "$group-c" "$group" "$group" "${options[@]}"
krb_line "waiting until the three have processed all $messages messages (about 15 s, at most 120 s) ..." \
  "세 워커가 메시지 ${messages}개를 모두 처리할 때까지 기다리는 중 (약 15초, 최대 120초) ..."
wait "$producer"
wait_unique "$group" "$messages"
stopping=$(now)
stop "$group-a" "$group-b" "$group-c"
krb-timeline --logs "$LOGS" "$group"
krb_line "rebalance after $group-c joined ($assignor):" "$group-c가 들어온 뒤의 리밸런스 ($assignor):"
cat "$LOGS/$group"-*.log | sort |
  awk -v from="$joined" -v to="$stopping" '$1 >= from && $1 < to && ($3 == "revoked" || $3 == "assigned" || $3 == "lost")'
verdict assignor "$group" --assignor "$assignor" "${extra[@]}"
