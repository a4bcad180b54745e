#!/usr/bin/env bash
# bench-dups.sh [LINES]: krb-dups against an awk pipeline doing the same count, and wc -l as the
# read limit, side by side on generated logs in the worker's format (default 10 million lines;
# a re-read is worker b's, in b's own log):
#
#   dense   two partitions from offset 0, a rebalance's re-read every 10000 lines
#   high    64 partitions, offsets from 10^10 with holes, re-reads as in dense
#   sparse  LINES/4 offsets far apart (each its own pair), a few re-read
#
# Prints each time (best of 3), the ratios, and krb-dups' peak memory. Fails if krb-dups and awk
# disagree, or if the sparse case takes more than twice (distinct pairs x 16 bytes) + 20 MB.
set -euo pipefail
# shellcheck source=usage.sh
source "$(dirname "$0")/usage.sh" "$@"
cd "$(dirname "$0")/.."
lines=${1:-10000000}
dups=target/release/krb-dups
[ -x "$dups" ] || cargo build --release --quiet -p krb-dups
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# Every 100th line is a commit line, which only the worker's grammar tells apart. a's lines go
# to DIR/bench-a.log, the re-reads of b (the duplicates) to DIR/bench-b.log: one worker a log.
generate() { # CASE LINES DIR
  awk -v kind="$1" -v n="$2" -v b="$3/bench-b.log" 'BEGIN {
    srand(7)
    P = kind == "dense" ? 2 : kind == "high" ? 64 : 16
    for (p = 0; p < P; p++) o[p] = kind == "dense" ? 0 : 10000000000 + p * 1000000
    for (i = 0; i < n; i++) {
      t = i % 86400000
      stamp = sprintf("%02d:%02d:%02d.%03d", t / 3600000, t / 60000 % 60, t / 1000 % 60, t % 1000)
      # dense alternates two partitions; high reads each in batches of 100, as fetches come.
      p = kind == "dense" ? i % 2 : kind == "high" ? int(i / 100) % P : i % P
      if (i % 100 == 99) { printf "%s bench-a commit p%d=%.0f\n", stamp, p, o[p]; continue }
      if (kind != "sparse" && i % 10000 == 5000 && o[p] >= 80) {
        for (k = o[p] - 80; k < o[p]; k++) printf "%s bench-b p%d offset %.0f\n", stamp, p, k > b
        i += 79
        continue
      }
      if (kind == "sparse" && i % 1000 == 500) { printf "%s bench-b p%d offset %.0f\n", stamp, p, last[p] > b; continue }
      printf "%s bench-a p%d offset %.0f\n", stamp, p, o[p]
      last[p] = o[p]
      if (kind == "dense") o[p]++
      else if (kind == "high") o[p] += (o[p] % 997 == 0) ? 37 : 1
      else o[p] += 1000 + int(rand() * 9000)
    }
  }'
}

# shellcheck disable=SC2016 # an awk program, single-quoted on purpose
count='$4 == "offset" && NF == 5 { c[$3 " " $5]++ }
  END { for (k in c) { u++; p += c[k] }; printf "processed %d, unique %d, duplicates %d\n", p, u, p - u }'
pipeline() { awk "$count" "$1"/*.log; } # DIR
best() { # best of 3 wall times, in seconds
  local b="" t s
  for _ in 1 2 3; do
    s=$(date +%s.%N)
    "$@" >/dev/null
    t=$(awk -v a="$s" -v b="$(date +%s.%N)" 'BEGIN { printf "%.4f", b - a }')
    b=$(awk -v a="$t" -v b="$b" 'BEGIN { print (b == "" || a < b) ? a : b }')
  done
  echo "$b"
}
peak() { # peak memory of a command, in KiB
  /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -n 1
}

failed=0
for kind in dense high sparse; do
  n=$lines
  [ "$kind" = sparse ] && n=$((lines / 4))
  mkdir -p "$dir/$kind"
  logs=$dir/$kind
  generate "$kind" "$n" "$logs" >"$logs/bench-a.log"
  ours=$("$dups" bench --logs "$logs" | head -n 1)
  theirs=$(pipeline "$logs")
  echo "== $kind: $(cat "$logs"/*.log | wc -l) lines, $(du -ch "$logs"/*.log | tail -n 1 | cut -f1); both: $ours"
  [ "$ours" = "$theirs" ] || { echo "counts differ: krb-dups '$ours', awk '$theirs'" >&2; exit 1; }
  k=$(best "$dups" bench --logs "$logs")
  a=$(best pipeline "$logs")
  w=$(best wc -l "$logs"/bench-a.log "$logs"/bench-b.log)
  printf '%-14s %8s s\n' "krb-dups" "$k" "awk pipeline" "$a" "wc -l" "$w"
  awk -v k="$k" -v a="$a" -v w="$w" 'BEGIN { printf "krb-dups is %.1fx the awk pipeline and %.2fx the speed of wc -l\n", a / k, w / k }'
  if [ -x /usr/bin/time ]; then
    mem=$(peak "$dups" bench --logs "$logs")
    unique=${ours#*unique }
    unique=${unique%%,*}
    limit=$(( (2 * unique * 16 + 20 * 1024 * 1024) / 1024 ))
    echo "krb-dups peak memory: $mem KiB for $unique distinct pairs (awk: $(peak awk "$count" "$logs"/bench-a.log "$logs"/bench-b.log) KiB)"
    if [ "$kind" = sparse ]; then
      if [ "$mem" -le "$limit" ]; then
        echo "sparse memory within 2 x (pairs x 16 B) + 20 MB = $limit KiB"
      else
        echo "sparse memory over 2 x (pairs x 16 B) + 20 MB = $limit KiB" >&2
        failed=1
      fi
    fi
  fi
  rm -f "$logs"/*.log
done
exit "$failed"
