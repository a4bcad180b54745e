#!/usr/bin/env bash
# Lab 8: the article's question asked of a share group (KIP-932, queues for Kafka).
#
#   08-share.sh [GROUP] [--scenario join|kill|lock|reject] [--dlq]
#
# Topic GROUP (default share) is created here and filled with krb-produce in batches of 10, as
# small as the broker lends records out: it acquires a producer's batch whole (1000 records in
# batches of 500 went to the first member, 500 at a time, and left none for the second).
# GROUP-a and GROUP-b are members of share group GROUP (krb-share, 20 records a poll); each
# sets the group's share.auto.offset.reset=earliest, and the scenario's settings below, with
# Kafka's admin API before it joins.
#
#   join    lab 1's: 1000 records on 2 partitions, 0.01 s each; b joins once a has processed
#           100. No partition changes hands, so nothing is processed twice.
#   kill    the same, both from the start, 0.02 s a record; a is killed (SIGKILL) after its
#           110th record, in the middle of a batch of 20. The records it held come back to b
#           when its session ends (share.session.timeout.ms 6000) with delivery count 2.
#   lock    lab 2's: 10 records on 1 partition, 0.5 s each, a commit of the acknowledgement
#           after each; a takes 12 s over offset 3, its lock lasts 5 s
#           (share.record.lock.duration.ms 5000). b, started then, receives offset 3 while a is
#           still in it, and the rest of a's batch.
#   reject  10 records, one member: offset 3 is released each time it comes, offset 6 rejected;
#           with share.delivery.count.limit 3, offset 3 is archived after its third delivery.
#           With --dlq (Kafka 4.4 and later, KIP-1191), the group gets a dead-letter topic,
#           dlq.GROUP: the broker writes both there, the rejected offset 6 and the archived
#           offset 3, each with headers saying why (__dlq.errors.message), and the run ends by
#           printing that topic with Kafka's console consumer. Its tools come from
#           kafka-local.sh's Maven jars (KRB_KAFKA_VERSION if 4.4 or later, else 4.4.0); a
#           broker without KIP-1191 refuses the topic's setting, which is said in one line.
#
# Ends when every record is processed (and, for lock, a has its answer for offset 3; for
# reject, offset 3's last delivery is released); then krb-verify checks the scenario's
# statements. Or read it: cat logs/share-*.log | sort
set -euo pipefail
# shellcheck source=usage.sh
source "$(dirname "$0")/usage.sh" "$@"

usage="08-share.sh [GROUP] [--scenario join|kill|lock|reject] [--dlq]"
group=share
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then group=$1; shift; fi
scenario="join" dlq=0
while [ $# -gt 0 ]; do
  case $1 in
    --scenario)
      [ $# -ge 2 ] || { krb_line "--scenario needs a value" "'--scenario'에 값이 없습니다" >&2; bad_usage; }
      scenario=$2
      shift 2 ;;
    --dlq) dlq=1; shift ;;
    *) krb_line "unknown argument '$1'" "알 수 없는 인자: '$1'" >&2; bad_usage ;;
  esac
done
case $scenario in
  join | kill | lock | reject) ;;
  *) krb_line "--scenario takes join, kill, lock or reject, not '$scenario'" \
    "--scenario의 값이 잘못됐습니다('$scenario'): 쓸 수 있는 값은 join, kill, lock, reject" >&2; bad_usage ;;
esac
[ "$dlq" = 0 ] || [ "$scenario" = reject ] || {
  krb_line "--dlq goes with --scenario reject" "--dlq는 --scenario reject와 함께 씁니다" >&2
  bad_usage
}
# shellcheck source=common.sh
source "$(dirname "$0")/common.sh"
# The group's settings: a dead member noticed after 6 s, as a classic group's floor.
settings=(--group-config share.session.timeout.ms=6000 --group-config share.heartbeat.interval.ms=1000)
options=(-X max.poll.records=20)
limit=3
case $scenario in
  join | kill) partitions=2 records=1000 ;;
  lock)
    partitions=1 records=10
    settings+=(--group-config share.record.lock.duration.ms=5000)
    options+=(--delay 0.5 --commit-every 1) ;;
  reject)
    partitions=1 records=10
    settings+=(--group-config "share.delivery.count.limit=$limit")
    options+=(--delay 0.2 --release-at 3 --reject-at 6) ;;
esac
options+=("${settings[@]}")

trap 'stop_all "$group"' EXIT
# A rerun gives the same result: no old logs, no old share group, a new topic.
fresh "$group"
topic "$group" "$partitions"
krb-produce "$group" "$records" "$partitions" -X batch.num.messages=10

if [ "$dlq" = 1 ]; then
  # Kafka's own tools set what krb's do not: a topic's and a group's settings beyond share.*.
  # Their jars must know KIP-1191's settings, so no older than 4.4.0.
  tools=${KRB_KAFKA_VERSION:-4.3.1}
  [ "$(printf '%s\n' 4.4.0 "$tools" | sort -V | head -n 1)" = 4.4.0 ] || tools=4.4.0
  kafka_java() { KRB_KAFKA_VERSION=$tools "$(dirname "$0")/kafka-local.sh" java "$@"; }
  at=${KRB_BOOTSTRAP:-localhost:${KRB_BROKER_PORT:-9481}}
  # The names on the broker: a DLQ topic's must start with the broker's
  # errors.deadletterqueue.topic.name.prefix (default dlq.), so no namespace goes before it.
  named=${KRB_NS:+$KRB_NS-}$group
  dead=dlq.$named
  env -u KRB_NS krb-topic "$dead" 1
  # A topic takes a share group's dead letters only when it says so.
  if ! out=$(kafka_java org.apache.kafka.tools.ConfigCommand --bootstrap-server "$at" --alter \
    --entity-type topics --entity-name "$dead" --add-config errors.deadletterqueue.group.enable=true 2>&1); then
    why=$(grep -m 1 -o 'InvalidConfigurationException: .*' <<<"$out" || tail -n 1 <<<"$out")
    krb_line "--dlq: this broker has no share-group dead-letter queue (KIP-1191, Kafka 4.4 and later): $why" \
      "--dlq: 이 브로커에는 share group의 dead-letter queue가 없습니다 (KIP-1191, Kafka 4.4부터): $why" >&2
    exit 1
  fi
  kafka_java org.apache.kafka.tools.ConfigCommand --bootstrap-server "$at" --alter \
    --entity-type groups --entity-name "$named" \
    --add-config "errors.deadletterqueue.topic.name=$dead,errors.deadletterqueue.copy.record.enable=true" >/dev/null
fi

case $scenario in
  join)
    share "$group-a" "$group" "$group" --delay 0.01 "${options[@]}"
    wait_unique "$group" 100
    share "$group-b" "$group" "$group" --delay 0.01 "${options[@]}"
    krb_line "waiting until the group has processed all $records records (about 5 s, at most 120 s) ..." \
      "그룹이 레코드 ${records}개를 모두 처리할 때까지 기다리는 중 (약 5초, 최대 120초) ..."
    wait_unique "$group" "$records"
    stop "$group-a" "$group-b" ;;
  kill)
    share "$group-a" "$group" "$group" --delay 0.02 "${options[@]}"
    share "$group-b" "$group" "$group" --delay 0.02 "${options[@]}"
    wait_log "$group-a" "$group-a p[01] offset [0-9]+\$" 60
    until [ "$(grep -cE "$group-a p[01] offset [0-9]+\$" "$LOGS/$group-a.log")" -ge 110 ]; do
      alive "$group" || exit 1
      sleep 0.01
    done
    echo "$(now) kill -9 $group-a"
    pid=$(cat "$LOGS/$group-a.pid")
    kill -KILL "$pid"
    # Reaped here, so that bash reports no "Killed" job of its own.
    { wait "$pid" || true; } 2>/dev/null
    rm -f "$LOGS/$group-a.pid"
    krb_line "waiting until b has processed all $records records, those a held among them: they come back after share.session.timeout.ms (6 s), so about 10 s (at most 90 s) ..." \
      "b가 a가 쥐고 있던 것까지 레코드 ${records}개를 모두 처리할 때까지 기다리는 중: 그 레코드들은 share.session.timeout.ms(6초) 뒤에 돌아오므로 약 10초 (최대 90초) ..."
    wait_unique "$group" "$records" 90
    stop "$group-b" ;;
  lock)
    share "$group-a" "$group" "$group" "${options[@]}" --slow-at 3 --slow-sec 12
    wait_log "$group-a" 'slow start$'
    share "$group-b" "$group" "$group" "${options[@]}"
    krb_line "waiting for a to finish offset 3 and offset 9: a spends 12 s on offset 3, so about 15 s (at most 90 s) ..." \
      "a가 offset 3과 offset 9를 마칠 때까지 기다리는 중: a가 offset 3에 12초를 쓰므로 약 15초 (최대 90초) ..."
    wait_log "$group-a" "$group-a p0 offset 9\$" 60
    wait_log "$group-a" "$group-a acks (committed|failed) p0 \[9\]" 30
    stop "$group-a" "$group-b" ;;
  reject)
    share "$group-a" "$group" "$group" "${options[@]}"
    krb_line "waiting until the $records records are processed and offset 3 is delivered $limit times (about 5 s, at most 150 s), then 2 s more ..." \
      "레코드 ${records}개가 처리되고 offset 3이 ${limit}번 전달될 때까지 기다리는 중 (약 5초, 최대 150초), 그 뒤 2초 더 ..."
    wait_unique "$group" "$records"
    wait_log "$group-a" "acquired p0 offset 3 delivery $limit\$" 30
    # Longer than a poll: a fourth delivery, which the limit rules out, would show here.
    sleep 2
    stop "$group-a"
    if [ "$dlq" = 1 ]; then
      krb_line "the dead-letter topic $dead, as Kafka's console consumer prints it (offset, headers, value):" \
        "dead-letter topic $dead, Kafka의 console consumer로 본 것 (offset, header, 값):"
      kafka_java org.apache.kafka.tools.consumer.ConsoleConsumer --bootstrap-server "$at" \
        --topic "$dead" --from-beginning --max-messages 2 --timeout-ms 30000 \
        --formatter-property print.offset=true --formatter-property print.headers=true \
        2>"$LOGS/$group.dlq.err" | tee "$LOGS/$group.dlq" || {
        krb_line "--dlq: fewer than 2 records in $dead: $(tail -n 1 "$LOGS/$group.dlq.err")" \
          "--dlq: $dead에 레코드가 2개보다 적습니다: $(tail -n 1 "$LOGS/$group.dlq.err")" >&2
        exit 1
      }
    fi ;;
esac
krb-timeline --logs "$LOGS" "$group"
verdict share "$group" --scenario "$scenario" --limit "$limit"
