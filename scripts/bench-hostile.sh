#!/usr/bin/env bash
# bench-hostile.sh [MODE...]: the tools against input made to hurt them, each case's size and
# what it cost, printed as a table (issue 42). A benchmark, not a test: it asserts nothing, and
# prints the targets beside the numbers. Modes (default: all of them):
#
#   room        the room's page of 500 participants with 20 variants of their own making each
#               (1 KB records, all failed, taken as the topics' reader takes them, no broker:
#               krb-room's example hostile-room), asked for 5 times as a browser does: the
#               page's size and each request's time, and the server's CPU seconds for it (its
#               cost apart from how busy the machine is; target: under 5 MB and 0.5 s)
#   lines       10M copies of one completion line (310 MB): krb-dups, krb-verify revoke,
#               krb-timeline, krb-live (until its state counts every line); target: 200 MB a tool
#   distinct    10M distinct completion lines (lab 1's shape: a processes p0 and p1 in batches of
#               500 consecutive offsets a millisecond apart, committing after each, until b joins
#               and takes p1 from a's last commit): the same four tools; target: 200 MB a tool
#   names       100,000 lines, each of its own worker name: the same four tools; target: 2 s
#   partitions  100,000 lines, each of its own partition (from 4096 up, and below 0): the same
#               four tools; target: 2 s
#   acks        20 acknowledgement lines of 2 x 1,048,575 offsets each (1.3 KB): krb-verify
#               share, krb-timeline
#
# PARTICIPANTS and VARIANTS change the room's size (default 500 and 20), LINES the lines and
# distinct modes' count (default 10000000).
set -euo pipefail
# shellcheck source=usage.sh
source "$(dirname "$0")/usage.sh" "$@"
cd "$(dirname "$0")/.."
usage="scripts/bench-hostile.sh [room|lines|distinct|names|partitions|acks]..."

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
  trap "kill $server 2>/dev/null; rm -rf '$dir'; cleanup" EXIT
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

bin=target/release
# The four readers' modes: built once, their input in a folder removed at exit.
readers() {
  [ -n "$work" ] && return
  local tool
  for tool in krb-dups krb-verify krb-timeline krb-live; do
    [ -x "$bin/$tool" ] || cargo build --release --quiet -p "$tool"
  done
  work=$(mktemp -d)
  printf '%-11s %-22s %8s %11s %11s\n' mode tool input time 'peak RSS'
}
work=""
live_pid=""
cleanup() {
  [ -z "$live_pid" ] || kill "$live_pid" 2>/dev/null || true
  [ -z "$work" ] || rm -rf "$work"
}
trap cleanup EXIT

size() { du -sh "$1" | cut -f1; } # DIR

row() { # MODE TOOL INPUT SECONDS KIB
  printf '%-11s %-22s %8s %9s s %8s MB\n' "$1" "$2" "$3" "$4" "$(($5 / 1024))"
}

# Runs a command that ends, and prints its row: wall time and peak memory from time(1).
measure() { # MODE LABEL INPUT COMMAND...
  local mode=$1 label=$2 input=$3 out
  shift 3
  # A verdict that does not hold (krb-verify's 1) is a run all the same.
  out=$(/usr/bin/time -f '%e %M' "$@" 2>&1 >/dev/null | tail -n 1 || true)
  row "$mode" "$label" "$input" "${out% *}" "${out#* }"
}

# krb-live serves until stopped: the time until its state counts `want` processings, its peak
# memory then (VmHWM).
measure_live() { # MODE INPUT LOGS GROUP WANT
  local mode=$1 input=$2 logs=$3 group=$4 want=$5 port start now state
  "$bin/krb-live" "$group" --logs "$logs" --port 0 >"$work/live.out" 2>&1 &
  live_pid=$!
  start=$(date +%s.%N)
  port=""
  while [ -z "$port" ] && kill -0 "$live_pid" 2>/dev/null; do
    port=$(grep -o 'http://[0-9.]*:[0-9]*' "$work/live.out" | head -n 1 | sed 's/.*://' || true)
    sleep 0.1
  done
  while kill -0 "$live_pid" 2>/dev/null; do
    state=$(curl -s "http://127.0.0.1:$port/state" || true)
    [[ "$state" == *"\"processed\":$want,"* ]] && break
    sleep 0.1
  done
  now=$(date +%s.%N)
  local hwm
  hwm=$(awk '/VmHWM/ { print $2 }' "/proc/$live_pid/status" 2>/dev/null || echo 0)
  kill "$live_pid" 2>/dev/null || true
  wait "$live_pid" 2>/dev/null || true
  live_pid=""
  row "$mode" "krb-live (first full)" "$input" "$(awk -v a="$start" -v b="$now" 'BEGIN { printf "%.2f", b - a }')" "$hwm"
}

# The four tools that read completion lines, on the logs of group `bench` in LOGS.
four() { # MODE LOGS WANT
  local mode=$1 logs=$2 want=$3 input
  input=$(size "$logs")
  measure "$mode" krb-dups "$input" "$bin/krb-dups" bench --logs "$logs" -v
  measure "$mode" "krb-verify revoke" "$input" "$bin/krb-verify" revoke bench --logs "$logs"
  measure "$mode" krb-timeline "$input" "$bin/krb-timeline" bench --logs "$logs" -o "$work/out.svg"
  echo "$(printf '%-11s %-22s' "$mode" 'krb-timeline svg')    $(size "$work/out.svg")"
  measure_live "$mode" "$input" "$logs" bench "$want"
}

bench_lines() {
  readers
  local n=${LINES:-10000000} logs=$work/lines
  mkdir -p "$logs"
  awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) print "09:00:00.000 bench-a p0 offset 7" }' >"$logs/bench-a.log"
  echo '09:00:00.000 bench-b p0 offset 8' >"$logs/bench-b.log"
  four lines "$logs" $((n + 1))
}

bench_distinct() {
  readers
  local n=${LINES:-10000000} logs=$work/distinct
  mkdir -p "$logs"
  # The time of day N milliseconds after 09:00.
  local at='function at(t) { return sprintf("%02d:%02d:%02d.%03d", 9 + int(t / 3600000), int(t / 60000) % 60, int(t / 1000) % 60, t % 1000) }'
  awk -v n="$n" "$at"'BEGIN {
    print at(0) " start bench-a"; print at(1) " bench-a assigned [0, 1]"
    for (i = 0; i < n; i++) {
      p = int(i / 500) % 2; o = int(i / 1000) * 500 + i % 500
      print at(2 + i) " bench-a p" p " offset " o
      if (i % 500 == 499) print at(2 + i) " bench-a commit p" p "=" o + 1
    }
    print at(2 + n) " bench-a revoked [0, 1]"; print at(3 + n) " bench-a assigned [0]"; print at(4 + n) " stop bench-a"
  }' >"$logs/bench-a.log"
  awk -v n="$n" "$at"'BEGIN {
    print at(500) " start bench-b"; print at(3 + n) " bench-b assigned [1]"
    for (i = 0; i < 100; i++) print at(4 + n + i) " bench-b p1 offset " int(n / 1000) * 500 + i
    print at(104 + n) " stop bench-b"
  }' >"$logs/bench-b.log"
  four distinct "$logs" $((n + 100))
}

bench_names() {
  readers
  local logs=$work/names
  mkdir -p "$logs"
  awk 'BEGIN { for (i = 0; i < 100000; i++) printf "09:00:%02d.%03d bench-%d p0 offset %d\n", i / 1000 % 60, i % 1000, i, i }' >"$logs/bench-a.log"
  echo '09:00:00.000 bench-b p0 offset 0' >"$logs/bench-b.log"
  four names "$logs" 100001
}

bench_partitions() {
  readers
  local logs=$work/partitions
  mkdir -p "$logs"
  awk 'BEGIN { for (i = 0; i < 100000; i++) printf "09:00:%02d.%03d bench-a p%d offset 1\n", i / 1000 % 60, i % 1000, (i % 2 ? 4096 + i : -1 - i) }' >"$logs/bench-a.log"
  echo '09:00:00.000 bench-b p0 offset 0' >"$logs/bench-b.log"
  four partitions "$logs" 100001
}

bench_acks() {
  readers
  local logs=$work/acks input
  mkdir -p "$logs"
  {
    echo '09:00:00.000 bench-a consumes bench in share group bench'
    for i in $(seq 0 19); do
      local from=$((i * 4000000))
      echo "09:00:00.$(printf %03d "$i") bench-a acks committed p0 [$from..$((from + 1048574)), $((from + 2000000))..$((from + 3048573))]"
    done
  } >"$logs/bench-a.log"
  echo '09:00:00.000 bench-b consumes bench in share group bench' >"$logs/bench-b.log"
  input=$(size "$logs")
  measure acks "krb-verify share" "$input" "$bin/krb-verify" share bench --scenario kill --logs "$logs"
  measure acks krb-timeline "$input" "$bin/krb-timeline" bench --logs "$logs" -o "$work/out.svg"
}

modes=("$@")
[ ${#modes[@]} -gt 0 ] || modes=(room lines distinct names partitions acks)
for mode in "${modes[@]}"; do
  case $mode in
    room | lines | distinct | names | partitions | acks) "bench_$mode" ;;
    *)
      krb_line "bench-hostile.sh: no such mode $mode" "bench-hostile.sh: 그런 모드 없음 $mode" >&2
      bad_usage
      ;;
  esac
done
