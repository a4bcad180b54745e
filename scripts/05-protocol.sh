#!/usr/bin/env bash
# Lab 5: does the KIP-848 consumer group protocol change labs 1 and 2?
#
#   05-protocol.sh GROUP [--protocol classic|consumer]
#
# Lab 1's scenario in group GROUP (topic GROUP: 2 partitions, 1000 messages; GROUP-a alone,
# GROUP-b joins once a has processed 100 messages of p1; no revoke commit), then lab 2's in
# group GROUP_maxpoll (topic GROUP_maxpoll: 1 partition, 10 messages; GROUP_maxpoll-a slow at
# offset 3 for 15 s, max.poll.interval.ms 10000), both under group.protocol PROTOCOL (default
# consumer). Prints the duplicates, the partitions revoked, and how long the hand-overs took.
#
# With the consumer protocol the broker assigns and sets the session timeout
# (group.consumer.session.timeout.ms, 45 s by default, and at least 45 s unless the broker
# lowers group.consumer.min.session.timeout.ms). The lab never waits on it: an expelled worker
# leaves by itself when max.poll.interval.ms runs out, and a stopped one leaves at once. So the
# broker keeps Kafka 4.3.1's defaults and --session-timeout-ms is left out under it.
# shellcheck disable=SC2016 # the awk programs passed to first_time are single-quoted on purpose
set -euo pipefail
# shellcheck source=common.sh
source "$(dirname "$0")/common.sh"

usage="usage: 05-protocol.sh GROUP [--protocol classic|consumer]"
group=${1:?$usage}
protocol=consumer
case ${2:-} in
  "") ;;
  --protocol) protocol=${3:?$usage} ;;
  *) echo "$usage" >&2; exit 2 ;;
esac
case $protocol in
  classic) session=(--session-timeout-ms 6000) ;;
  consumer) session=() ;;
  *) echo "$usage" >&2; exit 2 ;;
esac
slow=${group}_maxpoll
secs() { awk -v t="$1" 'BEGIN { printf "%.2f", t / 1000 }'; }
# first_time NAME PATTERN: the time of the first line of logs/NAME.log matching PATTERN (awk).
first_time() { awk "$2 { print \$1; exit }" "$LOGS/$1.log"; }

trap 'stop_all "$group"; stop_all "$slow"' EXIT

echo "== lab 1's scenario, group.protocol=$protocol"
fresh "$group"
topic "$group" 2
krb-produce "$group" 1000 2
start "$group-a" "$group" "$group" --delay 0.01 --commit-every 100 --group-protocol "$protocol"
# As in lab 1: b joins while a works on p1, the partition that moves to b.
wait_log "$group-a" 'p1 offset 99$'
b_start=$(start "$group-b" "$group" "$group" --delay 0.01 --commit-every 100 --group-protocol "$protocol")
echo "$b_start"
wait_unique "$group" 1000
stopping=$(now)
stop "$group-a" "$group-b"
krb-timeline --logs "$LOGS" "$group"

echo "== lab 2's scenario, group.protocol=$protocol"
fresh "$slow"
topic "$slow" 1
options=(--delay 0.5 --commit-every 1 --max-poll-ms 10000 "${session[@]}" --group-protocol "$protocol")
start "$slow-a" "$slow" "$slow" "${options[@]}" --slow-at 3 --slow-sec 15
wait_log "$slow-a" 'assigned \[0\]'
start "$slow-b" "$slow" "$slow" "${options[@]}"
# Let b join before there is work. The classic protocol tells b `assigned []`; the consumer
# protocol does not call back for an empty assignment, so give its first heartbeat time instead.
if [ "$protocol" = classic ]; then wait_log "$slow-b" 'assigned \[\]'; else sleep 3; fi
krb-produce "$slow" 10 1
wait_unique "$slow" 10 90
wait_log "$slow-a" "$slow-a p0 offset 3\$" 30
stop "$slow-a" "$slow-b"
krb-timeline --logs "$LOGS" "$slow"

echo "== results, group.protocol=$protocol"
echo "lab 1: $(krb-dups "$group" | head -n 1)"
krb-dups "$group" | tail -n +2 | sed 's/^ */lab 1: /'
awk -v from="${b_start%% *}" -v to="$stopping" '$1 >= from && $1 < to && ($3 == "revoked" || $3 == "lost")' "$LOGS/$group"-*.log |
  sort | sed 's/^/lab 1: /'
b_first=$(first_time "$group-b" '$3 ~ /^p[0-9]+$/')
echo "lab 1: $group-b's first message $(secs $(($(ms "$b_first") - $(ms "${b_start%% *}")))) s after its start"

a=$LOGS/$slow-a.log
slow_start=$(first_time "$slow-a" '/ slow start$/')
maxpoll=$(awk -F'|' '$3 == "MAXPOLL" { print $2; exit }' "$a")
if [ -n "$maxpoll" ]; then
  maxpoll="$(date -d "@${maxpoll%.*}" +%H:%M:%S).${maxpoll#*.}"
  echo "lab 2: MAXPOLL warning $(secs $(($(ms "$maxpoll") - $(ms "$slow_start")))) s after offset 3 slow start"
else
  echo "lab 2: no MAXPOLL warning"
fi
b_assigned=$(first_time "$slow-b" '$3 == "assigned" && $4 == "[0]"')
a_done=$(first_time "$slow-a" '$3 == "p0" && $5 == "3" && NF == 5')
if [ -n "$b_assigned" ]; then
  echo "lab 2: $slow-b assigned [0] $(secs $(($(ms "$b_assigned") - $(ms "$slow_start")))) s after the slow start; a and b both in offset 3 for $(secs $(($(ms "$a_done") - $(ms "$b_assigned")))) s"
fi
awk -v t="$a_done" '$1 >= t && ($3 == "commit" || $3 == "lost" || $3 == "revoked" || $3 == "poll") { print "lab 2: " $0; if (++n == 3) exit }' "$a"
echo "lab 2: $(krb-dups "$slow" | head -n 1)"
