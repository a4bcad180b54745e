#!/usr/bin/env bash
# Lab 5: does the KIP-848 consumer group protocol change labs 1 and 2?
#
#   05-protocol.sh GROUP [--protocol classic|consumer]
#
# Runs lab 1 (01-revoke.sh, no on_revoke commit) in group GROUP on topic pay, then lab 2
# (02-maxpoll.sh) in group GROUP_maxpoll, both under group.protocol PROTOCOL (default
# consumer); then krb-verify checks lab 1's and lab 2's statements that hold under either
# protocol, and how the hand-over differs.
#
# With the consumer protocol the broker assigns and sets the session timeout
# (group.consumer.session.timeout.ms, 45 s by default). The lab never waits on it: a worker
# past max.poll.interval.ms leaves at its next poll, once its slow message is done (librdkafka
# 2.15 defers the leave until then; under classic it leaves at once), and a stopped one leaves
# at once. So the broker keeps Kafka 4.3.1's defaults.
set -euo pipefail
# shellcheck source=usage.sh
source "$(dirname "$0")/usage.sh" "$@"

usage="05-protocol.sh GROUP [--protocol classic|consumer]"
[ $# -ge 1 ] || { krb_line "GROUP is missing" "꼭 줘야 하는 인자가 빠졌습니다: GROUP" >&2; bad_usage; }
group=$1
protocol=consumer
if [ $# -ge 2 ]; then
  [ "$2" = --protocol ] || { krb_line "unknown argument '$2'" "알 수 없는 인자: '$2'" >&2; bad_usage; }
  [ $# -ge 3 ] || { krb_line "--protocol needs a value" "'--protocol'에 값이 없습니다" >&2; bad_usage; }
  [ $# = 3 ] || { krb_line "unknown argument '$4'" "알 수 없는 인자: '$4'" >&2; bad_usage; }
  protocol=$3
fi
case $protocol in
  classic | consumer) ;;
  *) krb_line "--protocol takes classic or consumer, not '$protocol'" \
    "--protocol의 값이 잘못됐습니다('$protocol'): 쓸 수 있는 값은 classic, consumer" >&2; bad_usage ;;
esac
# shellcheck source=common.sh
source "$(dirname "$0")/common.sh"
here=$(dirname "$0")

krb_line "== lab 1's scenario, group.protocol=$protocol" "== 실습 1의 시나리오, group.protocol=$protocol"
topic pay 2
krb-produce pay 1000 2
KRB_NO_VERDICT=1 "$here/01-revoke.sh" "$group" --group-protocol "$protocol"
krb_line "== lab 2's scenario, group.protocol=$protocol" "== 실습 2의 시나리오, group.protocol=$protocol"
KRB_NO_VERDICT=1 "$here/02-maxpoll.sh" "${group}_maxpoll" --group-protocol "$protocol"
verdict protocol "$group" --protocol "$protocol"
