#!/usr/bin/env bash
# bench-effects.sh [COUNT]: what an effect costs a worker. One worker (--delay 0, the article's
# --commit-every 100) processes COUNT messages (default 100000, 2 partitions) with each effect
# in turn: none (the article's), then plain, idempotent and db-offsets on SQLite and on
# PostgreSQL, and kafka-eos (a transaction every 100, then every 1000 messages), side by side in
# one run. Prints messages per second, from the worker's first
# processing line to its last, and the ratio of none's rate to each.
#
# Needs a broker (KRB_BOOTSTRAP, default localhost:9481: scripts/kafka-local.sh start) and
# Debian's PostgreSQL; a PostgreSQL server it has to start (scripts/pg-local.sh) it stops.
set -euo pipefail
# shellcheck source=usage.sh
source "$(dirname "$0")/usage.sh" "$@"
cd "$(dirname "$0")/.."
# shellcheck source=common.sh
source scripts/common.sh
# shellcheck source=env.sh
source scripts/env.sh
count=${1:-100000}
cargo build --release --quiet
answers "${KRB_BOOTSTRAP:-localhost:9481}" || { echo "bench-effects: no broker answers at ${KRB_BOOTSTRAP:-localhost:9481}: start one with scripts/kafka-local.sh start" >&2; exit 1; }
pg_started=0
if ! scripts/pg-local.sh status >/dev/null 2>&1; then
  scripts/pg-local.sh start >/dev/null
  pg_started=1
fi
trap '[ "$pg_started" = 0 ] || scripts/pg-local.sh stop >/dev/null' EXIT
pg=$(scripts/pg-local.sh url)
sqlite=sqlite:$LOGS/bench-effects.db

echo "== $count messages on 2 partitions of benchfx"
topic benchfx 2 >/dev/null
krb-produce benchfx "$count" 2

# rate LOG: processings per second from the first processing line's time to the last's.
rate() {
  awk '$3 ~ /^p[0-9]+$/ && $4 == "offset" {
         split($1, t, ":"); s = t[1] * 3600 + t[2] * 60 + t[3]
         if (n++ == 0) first = s; last = s
       }
       END { if (n < 2 || last <= first) print 0; else printf "%.0f\n", (n - 1) / (last - first) }' "$1"
}

none=""
printf '%-12s %-10s %13s %12s %10s\n' effect store "commit every" "messages/s" "cost"
for run in "none|-|100" "plain|$sqlite|100" "idempotent|$sqlite|100" "db-offsets|$sqlite|100" \
  "plain|$pg|100" "idempotent|$pg|100" "db-offsets|$pg|100" \
  "kafka-eos|kafka:benchfx-out|100" "kafka-eos|kafka:benchfx-out|1000"; do
  IFS='|' read -r effect db every <<<"$run"
  group=benchfx-$effect-${db%%:*}-$every
  rm -f "$LOGS/$group"-*.log
  krb-group "$group" >/dev/null
  options=(--commit-every "$every" --effect "$effect")
  if [ "$db" != - ]; then
    krb-effects init "$db" >/dev/null
    options+=(--db "$db")
  fi
  start "$group-a" "$group" benchfx "${options[@]}" >/dev/null
  wait_unique "$group" "$count" 900
  stop "$group-a" >/dev/null
  r=$(rate "$LOGS/$group-a.log")
  [ -n "$none" ] || none=$r
  where=${db%%:*}
  [ "$db" != - ] || where=-
  printf '%-12s %-10s %13s %12s %9sx\n' "$effect" "$where" "$every" "$r" \
    "$(awk -v a="$none" -v b="$r" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')"
done
