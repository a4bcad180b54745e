#!/usr/bin/env bash
# capacity.sh N [LABS]: how many people one broker holds. Runs N participants at once, each
# `scripts/lab.sh --only LABS` (default 1,2,3) in a namespace of its own (KRB_NS=capI) with its
# files in logs/capacity/capI, against the broker on KRB_BOOTSTRAP (default localhost:9481; it
# starts none), then prints one line a participant (held, or where its failure is) and a last line
# `capacity: N participants, K held every statement, W s`. Exits 0 only if every variant held.
#
# Every participant's workers run on this machine, as a room's would on twenty laptops: past some
# N this machine's CPU, not the broker, is what breaks first. The workshop page says what was
# measured, on which machine.
set -euo pipefail
# shellcheck source=usage.sh
source "$(dirname "$0")/usage.sh" "${1:-}"
cd "$(dirname "$0")/.."
# shellcheck source=env.sh
source scripts/env.sh
bin=$(krb_bin "$PWD")

n=${1:?usage: capacity.sh N [LABS]}
labs=${2:-1,2,3}
[[ $n =~ ^[1-9][0-9]*$ ]] || { echo "capacity.sh: N is a count of participants, got $n" >&2; exit 2; }
root=logs/capacity
rm -rf "$root"
mkdir -p "$root"

echo "capacity: $n participant(s) at once, lab.sh --only $labs each, files in $root/"
start=$(date +%s)
pids=()
for i in $(seq 1 "$n"); do
  KRB_NS=cap$i KRB_LOGS=$root/cap$i scripts/lab.sh --only "$labs" >"$root/cap$i.out" 2>&1 &
  pids+=($!)
done
failed=0
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
wall=$(($(date +%s) - start))

# Each participant's verdicts as krb-verify recorded them; its table says which did not hold.
ok=0
for i in $(seq 1 "$n"); do
  records=$root/cap$i/results.jsonl
  if [ ! -f "$records" ]; then
    echo "cap$i: FAILED, no results (see $root/cap$i.out)"
  elif "$bin/krb-verify" table "$records" >"$root/cap$i.table"; then
    echo "cap$i: held every statement"
    ok=$((ok + 1))
  else
    echo "cap$i: FAILED (see $root/cap$i.table and $root/cap$i.out)"
  fi
done
echo "capacity: $n participants, $ok held every statement, $wall s"
[ "$failed" = 0 ] && [ "$ok" = "$n" ]
