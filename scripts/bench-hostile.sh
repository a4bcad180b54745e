#!/usr/bin/env bash
# bench-hostile.sh MODE: the tools against input made to hurt them, each case's size and what it
# cost, printed as a table. A benchmark, not a test: it asserts nothing, and prints the targets
# beside the numbers.
#
#   room    the room's page of 500 participants with 20 variants of their own making each (1 KB
#           records, all failed, taken as the topics' reader takes them, no broker: krb-room's
#           example hostile-room), asked for 5 times as a browser does: the page's size and
#           each request's time (target: under 5 MB and 0.5 s)
#
# PARTICIPANTS and VARIANTS change the room's size (default 500 and 20).
set -euo pipefail
# shellcheck source=usage.sh
source "$(dirname "$0")/usage.sh" "$@"
cd "$(dirname "$0")/.."
usage="scripts/bench-hostile.sh room"

# The room's page, over HTTP from krb-room's own server.
bench_room() {
  local participants=${PARTICIPANTS:-500} variants=${VARIANTS:-20} dir server line url
  cargo build --release --quiet -p krb-room --example hostile-room
  dir=$(mktemp -d)
  target/release/examples/hostile-room "$participants" "$variants" >"$dir/out" &
  server=$!
  # shellcheck disable=SC2064 # the server's pid and folder now
  trap "kill $server 2>/dev/null; rm -rf '$dir'" EXIT
  for _ in $(seq 600); do
    line=$(head -n 1 "$dir/out")
    [ -n "$line" ] && break
    sleep 0.1
  done
  url=${line##* at }
  echo "$line"
  printf '%-10s %14s %10s\n' request "page bytes" seconds
  for i in 1 2 3 4 5; do
    curl -s -o /dev/null -w "$i %{http_code} %{size_download} %{time_total}\n" --max-time 60 "$url"
  done | awk '{ printf "%-10s %14d %10.3f%s\n", $1, $3, $4, $2 == 200 ? "" : "  (HTTP " $2 ")" }'
  echo "target: under 5000000 bytes and 0.5 s a request"
}

case ${1:-} in
  room) bench_room ;;
  *)
    krb_line "bench-hostile.sh: no such mode ${1:-}" "bench-hostile.sh: 그런 모드 없음 ${1:-}" >&2
    bad_usage
    ;;
esac
