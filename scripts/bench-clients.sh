#!/usr/bin/env bash
# bench-clients.sh [COUNT]: krb-produce and krb-worker against kcat, side by side on one broker
# (COUNT messages, default 1000000, on 6 partitions), each the best of 3 wall times:
#
#   produce        krb-produce T COUNT 6           seq 0 COUNT-1 | kcat -P -t T
#   consume        krb-worker ... --commit-every 10000 -e > FILE   (a group member, one line a
#                  message, in the article's format)
#                  against kcat -C -e -f '%p %o\n' > FILE (no group) and kcat -G (a group member)
#   commit cost    krb-worker at the article's --commit-every 100: messages a second, and what
#                  one synchronous commit costs over --commit-every 10000
#   memory         krb-worker's peak RSS and time with its own fetch settings (10,000 messages a
#                  partition, 1 MB ahead, looked at every 10 ms) and with librdkafka's defaults
#                  (100,000 messages a partition, 64 MB, a full queue looked at every second)
#                  at full speed, then at the labs' pace (--delay 0.01, 100 messages a second)
#                  for 5 s
#
# The ratio is kcat's time over ours: 1.0x or more is as fast as kcat or faster. It uses the
# broker on KRB_BOOTSTRAP (default localhost:9481; scripts/kafka-local.sh start makes one) and
# Debian's kcat (installed as root when missing; elsewhere it says how). Fails when a run does
# not deliver or read exactly COUNT messages.
set -euo pipefail
# shellcheck source=usage.sh
source "$(dirname "$0")/usage.sh" "$@"
cd "$(dirname "$0")/.."
# shellcheck source=env.sh
source scripts/env.sh

count=${1:-1000000}
[[ $count =~ ^[1-9][0-9]*$ ]] || { echo "bench-clients: COUNT must be a positive number, got '$count'" >&2; exit 2; }
bootstrap=${KRB_BOOTSTRAP:-localhost:9481}
answers "$bootstrap" || { echo "bench-clients: no broker answers on $bootstrap: scripts/kafka-local.sh start" >&2; exit 1; }
install_missing kcat:kcat /usr/bin/time:time ||
  { echo "bench-clients: needs kcat and GNU time (Debian's kcat and time packages)" >&2; exit 1; }
[ -x target/release/krb-worker ] || cargo build --release --quiet
bin=target/release
export KRB_BOOTSTRAP=$bootstrap
unset KRB_NS
topic=bench-clients partitions=6
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

clock() { date +%s.%N; }
# timed FILE CMD...: runs CMD, appends its wall time in seconds to FILE.
timed() {
  local file=$1 t
  shift
  t=$(clock)
  "$@"
  awk -v a="$t" -v b="$(clock)" 'BEGIN { printf "%.3f\n", b - a }' >>"$file"
}
best() { sort -n "$1" | head -n 1; }
ratio() { awk -v k="$1" -v o="$2" 'BEGIN { printf "%.2fx", k / o }'; }
# lines FILE: how many messages a consumer's output file shows.
lines() { grep -c ' offset \|^[0-9]* [0-9]*$' "$1" || true; }
expect() { # WHAT GOT
  [ "$2" = "$count" ] || { echo "bench-clients: $1 gave $2 messages, not $count" >&2; exit 1; }
}
fill() { "$bin/krb-topic" "$topic" "$partitions" >/dev/null; }

krb_produce() { "$bin/krb-produce" "$topic" "$count" "$partitions" >/dev/null; }
kcat_produce() { seq 0 $((count - 1)) | kcat -P -b "$bootstrap" -t "$topic"; }
# A new group each run (the runs of $(...) are subshells: no counter would survive them).
group() { echo "bench-g-$$-$(date +%s%N)"; }
# krb_consume COMMIT-EVERY [OPTIONS]: a worker in a new group reads the topic to its end.
krb_consume() {
  local every=$1
  shift
  "$bin/krb-worker" bench-w "$(group)" "$topic" --commit-every "$every" -e "$@" >"$out/consumed"
}
kcat_consume() { kcat -C -b "$bootstrap" -t "$topic" -e -q -f '%p %o\n' >"$out/consumed"; }
kcat_group() {
  kcat -b "$bootstrap" -G "$(group)" -X auto.offset.reset=earliest -e -q -f '%p %o\n' "$topic" >"$out/consumed"
}

echo "bench-clients: $count messages, $partitions partitions, broker $bootstrap, best of 3 (kcat $(kcat -V 2>&1 | grep -m1 -io 'version [0-9.]*'))"
# Each producer writes to a new, empty topic.
for _ in 1 2 3; do
  fill
  timed "$out/kcat-produce" kcat_produce
  expect "kcat -P" "$(kcat -C -b "$bootstrap" -t "$topic" -e -q -f '%o\n' | wc -l)"
  fill
  timed "$out/krb-produce" krb_produce
done
printf 'produce   krb-produce %6.2f s   kcat -P %6.2f s   %s\n' "$(best "$out/krb-produce")" "$(best "$out/kcat-produce")" \
  "$(ratio "$(best "$out/kcat-produce")" "$(best "$out/krb-produce")")"

# The topic now holds krb-produce's last run: COUNT messages, round robin.
for _ in 1 2 3; do
  timed "$out/krb-consume" krb_consume 10000
  expect "krb-worker -e" "$(lines "$out/consumed")"
  timed "$out/kcat-consume" kcat_consume
  expect "kcat -C" "$(lines "$out/consumed")"
  timed "$out/kcat-group" kcat_group
  expect "kcat -G" "$(lines "$out/consumed")"
done
krb=$(best "$out/krb-consume")
printf 'consume   krb-worker  %6.2f s   kcat -C %6.2f s   %s\n' "$krb" "$(best "$out/kcat-consume")" "$(ratio "$(best "$out/kcat-consume")" "$krb")"
printf 'consume   krb-worker  %6.2f s   kcat -G %6.2f s   %s\n' "$krb" "$(best "$out/kcat-group")" "$(ratio "$(best "$out/kcat-group")" "$krb")"

for _ in 1 2 3; do
  timed "$out/krb-commit" krb_consume 100
  expect "krb-worker --commit-every 100" "$(lines "$out/consumed")"
done
awk -v t="$(best "$out/krb-commit")" -v base="$krb" -v n="$count" 'BEGIN {
  printf "commit    krb-worker --commit-every 100: %.2f s, %.0f messages/s; one synchronous commit %.2f ms\n",
    t, n / t, (t - base) * 1000 / (n / 100 - n / 10000) }'

# peak [OPTIONS]: a worker's peak memory and time reading the topic (GNU time's maximum
# resident set and wall time).
peak() {
  /usr/bin/time -f '%M %e' -o "$out/rss" "$bin/krb-worker" bench-w "$(group)" "$topic" \
    --commit-every 10000 -e "$@" >"$out/consumed"
  expect "krb-worker -e $*" "$(lines "$out/consumed")"
  awk '{ printf "%.0f MB in %.2f s", $1 / 1024, $2 }' "$out/rss"
}
# paced [OPTIONS]: a worker's peak memory over 5 s at the labs' pace; SIGTERM stops it cleanly.
paced() {
  /usr/bin/time -f '%M' -o "$out/rss" timeout 5 "$bin/krb-worker" bench-w "$(group)" "$topic" \
    --delay 0.01 "$@" >"$out/consumed" || [ $? = 124 ] # timeout's status when it sent SIGTERM
  [ "$(lines "$out/consumed")" -gt 0 ] || { echo "bench-clients: a worker at --delay 0.01 read nothing" >&2; exit 1; }
  awk 'END { printf "%.0f MB", $1 / 1024 }' "$out/rss" # the last line: GNU time writes timeout's status before it
}
librdkafka=(-X queued.min.messages=100000 -X queued.max.messages.kbytes=65536 -X fetch.max.bytes=52428800
  -X fetch.queue.backoff.ms=1000)
echo "memory    krb-worker peak RSS: $(peak) as it fetches, $(peak "${librdkafka[@]}") with librdkafka's defaults (${librdkafka[*]})"
echo "memory    krb-worker at --delay 0.01 (100 messages a second) for 5 s: $(paced) as it fetches, $(paced "${librdkafka[@]}") with librdkafka's defaults"
