#!/usr/bin/env bash
# bench-hostile.sh [MODE...]: the tools against input made to hurt them, each tool's time and
# peak memory beside the input's size (issue 42). Modes (default: all of them):
#
#   lines       10M copies of one completion line (310 MB): krb-dups, krb-verify revoke,
#               krb-timeline, krb-live (until its state counts every line)
#   names       100,000 lines, each of its own worker name: the same four tools
#   partitions  100,000 lines, each of its own partition (from 4096 up, and below 0)
#   acks        20 acknowledgement lines of 2 x 1,048,575 offsets each (1.3 KB): krb-verify share,
#               krb-timeline
#
# Targets: 10M lines within 200 MB a tool; 100,000 names or partitions within 2 s.
# LINES=N sets the lines mode's count (10000000).
set -euo pipefail
# shellcheck source=usage.sh
source "$(dirname "$0")/usage.sh" "$@"
usage="bench-hostile.sh [lines|names|partitions|acks]..."
cd "$(dirname "$0")/.."
bin=target/release
for tool in krb-dups krb-verify krb-timeline krb-live; do
  [ -x "$bin/$tool" ] || cargo build --release --quiet -p "$tool"
done
dir=$(mktemp -d)
live_pid=""
cleanup() {
  [ -z "$live_pid" ] || kill "$live_pid" 2>/dev/null || true
  rm -rf "$dir"
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
  "$bin/krb-live" "$group" --logs "$logs" --port 0 >"$dir/live.out" 2>&1 &
  live_pid=$!
  start=$(date +%s.%N)
  port=""
  while [ -z "$port" ] && kill -0 "$live_pid" 2>/dev/null; do
    port=$(grep -o 'http://[0-9.]*:[0-9]*' "$dir/live.out" | head -n 1 | sed 's/.*://' || true)
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
  measure "$mode" krb-timeline "$input" "$bin/krb-timeline" bench --logs "$logs" -o "$dir/out.svg"
  echo "$(printf '%-11s %-22s' "$mode" 'krb-timeline svg')    $(size "$dir/out.svg")"
  measure_live "$mode" "$input" "$logs" bench "$want"
}

lines() {
  local n=${LINES:-10000000} logs=$dir/lines
  mkdir -p "$logs"
  awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) print "09:00:00.000 bench-a p0 offset 7" }' >"$logs/bench-a.log"
  echo '09:00:00.000 bench-b p0 offset 8' >"$logs/bench-b.log"
  four lines "$logs" $((n + 1))
}

names() {
  local logs=$dir/names
  mkdir -p "$logs"
  awk 'BEGIN { for (i = 0; i < 100000; i++) printf "09:00:%02d.%03d bench-%d p0 offset %d\n", i / 1000 % 60, i % 1000, i, i }' >"$logs/bench-a.log"
  echo '09:00:00.000 bench-b p0 offset 0' >"$logs/bench-b.log"
  four names "$logs" 100001
}

partitions() {
  local logs=$dir/partitions
  mkdir -p "$logs"
  awk 'BEGIN { for (i = 0; i < 100000; i++) printf "09:00:%02d.%03d bench-a p%d offset 1\n", i / 1000 % 60, i % 1000, (i % 2 ? 4096 + i : -1 - i) }' >"$logs/bench-a.log"
  echo '09:00:00.000 bench-b p0 offset 0' >"$logs/bench-b.log"
  four partitions "$logs" 100001
}

acks() {
  local logs=$dir/acks input
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
  measure acks krb-timeline "$input" "$bin/krb-timeline" bench --logs "$logs" -o "$dir/out.svg"
}

modes=("$@")
[ ${#modes[@]} -gt 0 ] || modes=(lines names partitions acks)
printf '%-11s %-22s %8s %11s %11s\n' mode tool input time 'peak RSS'
for mode in "${modes[@]}"; do
  case $mode in
    lines | names | partitions | acks) "$mode" ;;
    *)
      krb_line "bench-hostile.sh: no mode $mode" "bench-hostile.sh: $mode 모드는 없어요" >&2
      bad_usage
      ;;
  esac
done
