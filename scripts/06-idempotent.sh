#!/usr/bin/env bash
# Lab 6: make the processing itself idempotent, the article's last advice, shown working.
#
#   06-idempotent.sh GROUP --effect plain|idempotent|db-offsets|kafka-eos [--scenario revoke|maxpoll] [--db URL]
#
# Runs lab 1's scenario (01-revoke.sh: topic pay, 1000 messages, b joins, no on_revoke commit) or
# lab 2's (02-maxpoll.sh: topic GROUP, the expelled slow consumer) with each processing also
# writing its effect to a database, by default the SQLite file logs/GROUP.db (--db
# postgres://... for PostgreSQL): plain, a row per processing; idempotent, a row per message (a
# second processing logs `already applied`); db-offsets, the row and the partition's position in
# one transaction, the worker starting where the database says (a zombie's late transaction logs
# `refused`); kafka-eos, a message to the topic GROUP-out (--db kafka:TOPIC) in a Kafka
# transaction with the consumed offsets, read back read_committed. Then it prints the
# processings (krb-dups) and the effects (krb-effects) side by side, and the verdict.
set -euo pipefail
# shellcheck source=usage.sh
source "$(dirname "$0")/usage.sh" "$@"

usage="06-idempotent.sh GROUP --effect plain|idempotent|db-offsets|kafka-eos [--scenario revoke|maxpoll] [--db URL]"
[ $# -gt 0 ] || { krb_line "GROUP is missing" "꼭 줘야 하는 인자가 빠졌습니다: GROUP" >&2; bad_usage; }
group=$1
shift
effect="" scenario=revoke db=""
while [ $# -gt 0 ]; do
  case $1 in
    --effect | --scenario | --db) [ $# -ge 2 ] || { krb_line "$1 needs a value" "'$1'에 값이 없습니다" >&2; bad_usage; } ;;&
    --effect) effect=$2; shift 2 ;;
    --scenario) scenario=$2; shift 2 ;;
    --db) db=$2; shift 2 ;;
    *) krb_line "unknown argument '$1'" "알 수 없는 인자: '$1'" >&2; bad_usage ;;
  esac
done
case $effect in
  plain | idempotent | db-offsets | kafka-eos) ;;
  "") krb_line "--effect is missing" "꼭 줘야 하는 인자가 빠졌습니다: --effect" >&2; bad_usage ;;
  *) krb_line "--effect takes plain, idempotent, db-offsets or kafka-eos, not '$effect'" \
    "--effect의 값이 잘못됐습니다('$effect'): 쓸 수 있는 값은 plain, idempotent, db-offsets, kafka-eos" >&2; bad_usage ;;
esac
case $scenario in
  revoke | maxpoll) ;;
  *) krb_line "--scenario takes revoke or maxpoll, not '$scenario'" \
    "--scenario의 값이 잘못됐습니다('$scenario'): 쓸 수 있는 값은 revoke, maxpoll" >&2; bad_usage ;;
esac
# shellcheck source=common.sh
source "$(dirname "$0")/common.sh"
case $effect in
  kafka-eos) db=${db:-kafka:$group-out} ;;
  *) db=${db:-sqlite:$LOGS/$group.db} ;;
esac
here=$(dirname "$0")
# The store as the learner is shown it: a file under the current folder from there (logs/...).
shown=$db
[[ $db != sqlite:* ]] || shown=sqlite:$(krb_shown "${db#sqlite:}")

if [ "$effect" = kafka-eos ]; then
  krb_line "== the output topic: $shown" "== 출력 토픽: $shown"
else
  krb_line "== the database: $shown" "== 데이터베이스: $shown"
fi
krb-effects init "$db"
case $scenario in
  revoke)
    topic=pay
    topic pay 2
    krb-produce pay 1000 2
    KRB_NO_VERDICT=1 "$here/01-revoke.sh" "$group" --effect "$effect" --db "$db" ;;
  maxpoll)
    topic=$group
    KRB_NO_VERDICT=1 "$here/02-maxpoll.sh" "$group" --effect "$effect" --db "$db" ;;
esac
krb_line "== processings (krb-dups $group)" "== 처리 (krb-dups $group)"
krb-dups "$group"
krb_line "== effects (krb-effects count $shown $topic --effect $effect)" \
  "== 반영 (krb-effects count $shown $topic --effect $effect)"
krb-effects count "$db" "$topic" --effect "$effect"
verdict idempotent "$group" --effect "$effect" --scenario "$scenario" --db "$db"
