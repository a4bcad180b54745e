#!/usr/bin/env bash
# fuzz.sh [SECONDS] [TARGET...]: runs each cargo fuzz target of fuzz/ (default: all of them) for
# SECONDS (default 60) from its checked-in inputs, fuzz/corpus/TARGET/ and
# fuzz/regressions/TARGET/, then merges what it found into fuzz/corpus/TARGET/, minimized
# (libFuzzer's -merge=1: only inputs that add coverage), and prints each target's executions and
# coverage. A crash, a leak or a timeout stops the script with the input libFuzzer saved under
# fuzz/artifacts/TARGET/: put it in fuzz/regressions/TARGET/, where the test command replays it
# (crates/krb-fuzzcheck/tests/corpus.rs) and no minimizing drops it.
#
# Needs the nightly toolchain; installs cargo-fuzz when it is missing.
set -euo pipefail
# shellcheck source=usage.sh
source "$(dirname "$0")/usage.sh" "$@"
cd "$(dirname "$0")/../fuzz"
usage="fuzz.sh [SECONDS] [TARGET...]"
seconds=60
if [ $# -gt 0 ] && [[ $1 =~ ^[0-9]+$ ]]; then
  seconds=$1
  shift
fi
targets=("$@")
command -v cargo-fuzz >/dev/null || cargo install --locked cargo-fuzz
all=$(cargo +nightly fuzz list)
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets <<<"$all"
fi
for target in "${targets[@]}"; do
  if ! grep -qx -- "$target" <<<"$all"; then
    krb_line "no fuzz target $target (there are: $(echo "$all" | tr '\n' ' '))" \
      "fuzz target $target 이 없어요 (있는 것: $(echo "$all" | tr '\n' ' '))" >&2
    bad_usage
  fi
done

# cargo fuzz build takes one target or all of them.
for target in "${targets[@]}"; do cargo +nightly fuzz build -O "$target"; done
new=$(mktemp -d)
trap 'rm -rf "$new"' EXIT
summary=()
for target in "${targets[@]}"; do
  corpus=corpus/$target
  mkdir -p "$corpus" "$new/$target"
  log=$new/$target.log
  # New inputs go to a scratch folder first; the merge keeps those that add coverage.
  if ! cargo +nightly fuzz run -O "$target" "$new/$target" "$corpus" "regressions/$target" -- \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    >"$log" 2>&1; then
    tail -40 "$log" >&2
    krb_line "fuzz target $target failed: its input is in fuzz/artifacts/$target/" \
      "fuzz target $target 이 실패했어요: 입력은 fuzz/artifacts/$target/ 에 있어요" >&2
    exit 1
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  features=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  before=$(find "$corpus" -type f | wc -l)
  # -merge=1 into the first folder: only the new inputs that add coverage go in (cargo fuzz cmin
  # would put its extra folders first, and so merge into them).
  cargo +nightly fuzz run -O "$target" "$corpus" "$new/$target" -- -merge=1 >"$new/$target.merge" 2>&1 ||
    { tail -20 "$new/$target.merge" >&2; exit 1; }
  after=$(find "$corpus" -type f | wc -l)
  summary+=("$(printf '%-8s %5s s %12s runs  cov %6s  ft %6s  corpus %5s -> %5s' \
    "$target" "$seconds" "${runs:-?}" "${cov:-?}" "${features:-?}" "$before" "$after")")
done
printf '%s\n' "${summary[@]}"
