#!/usr/bin/env bash
# bench-dups.sh [LINES]: krb-dups against an awk pipeline doing the same count, and wc -l as the
# read limit, side by side on one generated log in the worker's format (default 10 million
# lines). Prints each time (best of 3) and the ratios; fails if the counts disagree.
set -euo pipefail
cd "$(dirname "$0")/.."
lines=${1:-10000000}
dups=target/release/krb-dups
[ -x "$dups" ] || cargo build --release --quiet -p krb-dups
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
log=$dir/bench-a.log

# Two partitions, one worker; every 10000 lines a rebalance hands a partition to a second worker
# that re-reads the 80 offsets before it (a duplicate run, as the labs make); every 100th line
# is a commit line that only the worker's grammar tells apart.
awk -v n="$lines" 'BEGIN {
  o[0] = 0; o[1] = 0
  for (i = 0; i < n; i++) {
    t = i % 86400000
    stamp = sprintf("%02d:%02d:%02d.%03d", t / 3600000, t / 60000 % 60, t / 1000 % 60, t % 1000)
    p = i % 2
    if (i % 100 == 99) { printf "%s bench-a commit p%d=%d\n", stamp, p, o[p]; continue }
    if (i % 10000 == 5000 && o[p] >= 80) {
      for (k = o[p] - 80; k < o[p]; k++) printf "%s bench-b p%d offset %d\n", stamp, p, k
      i += 79
      continue
    }
    printf "%s bench-a p%d offset %d\n", stamp, p, o[p]++
  }
}' >"$log"
echo "log: $(wc -l <"$log") lines, $(du -h "$log" | cut -f1)"

pipeline() {
  awk '$4 == "offset" && NF == 5 { c[$3 " " $5]++ }
       END { for (k in c) { u++; p += c[k] }; printf "processed %d, unique %d, duplicates %d\n", p, u, p - u }' "$log"
}
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

ours=$("$dups" bench --logs "$dir" | head -n 1)
theirs=$(pipeline)
[ "$ours" = "$theirs" ] || { echo "counts differ: krb-dups '$ours', awk '$theirs'" >&2; exit 1; }
echo "both: $ours"

k=$(best "$dups" bench --logs "$dir")
a=$(best pipeline)
w=$(best wc -l "$log")
printf '%-22s %8s s\n' "krb-dups" "$k" "awk pipeline" "$a" "wc -l" "$w"
awk -v k="$k" -v a="$a" -v w="$w" 'BEGIN {
  printf "krb-dups is %.1fx the awk pipeline (target 10x) and %.2fx the speed of wc -l (target 0.3x)\n", a / k, w / k
}'
if [ -x /usr/bin/time ]; then
  echo "krb-dups peak memory: $(/usr/bin/time -f %M "$dups" bench --logs "$dir" 2>&1 >/dev/null) KiB"
fi
