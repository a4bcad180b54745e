#!/usr/bin/env bash
# bench-hostile.sh MODE: the tools against input made to hurt them, each case's size and what it
# cost, printed as a table. A benchmark, not a test: it asserts nothing, and prints the targets
# beside the numbers.
#
#   room    the room's page of 500 participants with 20 variants of their own making each (1 KB
#           records, all failed, taken as the topics' reader takes them, no broker: krb-room's
#           example hostile-room), asked for 5 times as a browser does: the page's size and
#           each request's time, and the server's CPU seconds for it (its cost apart from
#           how busy the machine is; target: under 5 MB and 0.5 s)
#
# PARTICIPANTS and VARIANTS change the room's size (default 500 and 20).
set -euo pipefail
# shellcheck source=usage.sh
source "$(dirname "$0")/usage.sh" "$@"
cd "$(dirname "$0")/.."
usage="scripts/bench-hostile.sh room"

# The CPU seconds process PID has used so far (user and system, from /proc): a request's cost
# apart from how busy the machine is.
cpu_seconds() { # PID
  awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); print ($12 + $13) / hz }' "/proc/$1/stat"
}

# The room's page, over HTTP from krb-room's own server.
bench_room() {
  local participants=${PARTICIPANTS:-500} variants=${VARIANTS:-20} dir server line url i out before after
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
  printf '%-8s %12s %9s %11s\n' request "page bytes" seconds "server CPU"
  for i in 1 2 3 4 5; do
    before=$(cpu_seconds "$server")
    out=$(curl -s -o /dev/null -w '%{http_code} %{size_download} %{time_total}' --max-time 60 "$url")
    after=$(cpu_seconds "$server")
    awk -v i="$i" -v out="$out" -v cpu="$(awk -v a="$before" -v b="$after" 'BEGIN { print b - a }')" 'BEGIN {
      split(out, o, " ")
      printf "%-8s %12d %9.3f %11.2f%s\n", i, o[2], o[3], cpu, o[1] == 200 ? "" : "  (HTTP " o[1] ")"
    }'
  done
  echo "target: under 5000000 bytes and 0.5 s a request"
}

case ${1:-} in
  room) bench_room ;;
  *)
    krb_line "bench-hostile.sh: no such mode ${1:-}" "bench-hostile.sh: 그런 모드 없음 ${1:-}" >&2
    bad_usage
    ;;
esac
