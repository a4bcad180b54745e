#!/usr/bin/env bash
# samples.sh [LAB...]: the sample outputs the docs show, from a real run (default labs 1 to 8;
# lab 9, its whole matrix once per language, some 15 minutes, only when named).
#
# Runs each lab's commands, those of the first sh block of its page in docs/en (`krb-docs
# commands N` prints them; `source scripts/common.sh` aside), one after another through bash
# with common.sh sourced, against the broker on KRB_BOOTSTRAP (default
# localhost:KRB_BROKER_PORT, 9481 unless set; it starts none), and writes
# docs/samples/en/labN.txt, then docs/samples/ko/labN.txt from a second run with KRB_LANG=ko. Each is a transcript: the line `# lab N, krb COMMIT, DATE, Kafka VERSION`,
# then each `$ command` and what it printed (stdout and stderr; the checkout's path left out, so
# /home/me/krb/logs/x.svg shows as logs/x.svg). KRB_NS and KRB_LOGS are not used: the samples
# show the article's names and logs/. The logs the run wrote (*.log, *.jsonl) are kept in
# docs/samples/LANG/labN/, and docs/samples/LANG/labN.sha256 seals the transcript and them.
# A lab whose command fails keeps its old sample.
#
# Lab 7 (07-faults.sh --trials 1 --seed 2026) runs only if a three-node cluster of
# scripts/kafka-local.sh answers on KRB_BOOTSTRAP's port (kafka-local.sh start --nodes 3);
# it is skipped, and says so, otherwise. At the end scripts/docs.sh puts the samples into the
# pages (krb-docs write); krb-docs check then runs krb-dups and krb-verify again on the kept
# logs, compares their output with the transcript's, checks the seal, and holds each sample's
# `$ ` lines to exactly its page's commands.
set -euo pipefail
# shellcheck source=usage.sh
source "$(dirname "$0")/usage.sh" "$@"
cd "$(dirname "$0")/.."
root=$(pwd)
# shellcheck source=env.sh
source scripts/env.sh

labs=("$@")
[ ${#labs[@]} -gt 0 ] || labs=(1 2 3 4 5 6 7 8)
for lab in "${labs[@]}"; do
  [[ $lab =~ ^[1-9]$ ]] || { echo "samples.sh: labs are numbers from 1 to 9, not '$lab' (see --help)" >&2; exit 2; }
done
bootstrap=${KRB_BOOTSTRAP:-localhost:${KRB_BROKER_PORT:-9481}}
if ! answers "$bootstrap"; then
  echo "samples.sh: no broker answers at $bootstrap; start one (scripts/kafka-local.sh start) or set KRB_BOOTSTRAP" >&2
  exit 1
fi
export KRB_BOOTSTRAP=$bootstrap
unset KRB_NS KRB_LOGS KRB_NO_VERDICT
port=${bootstrap%%,*}
port=${port##*:}
cargo build --release --quiet
docs="${CARGO_TARGET_DIR:-target}/release/krb-docs"

# The Kafka release of the broker: what its log says (a kafka-local.sh broker's), else unknown.
kafka_version() {
  local logs=(logs/kafka.log logs/kafka-1.log) log version=""
  [ "$port" = 9481 ] || logs=(logs/kafka-port"$port".log logs/kafka-port"$port"-1.log)
  for log in "${logs[@]}"; do
    [ -f "$log" ] || continue
    version=$(grep -o 'Kafka version: [0-9][0-9A-Za-z.-]*' "$log" | tail -n 1 | sed 's/.*: //')
    [ -z "$version" ] || break
  done
  echo "${version:-unknown}"
}
# The commit, once: the samples this run writes make the checkout dirty.
commit=$(git describe --always --dirty)

# run LAB LANG: the transcript of lab LAB's commands with KRB_LANG=LANG, in docs/samples/LANG/.
run() {
  local lab=$1 lang=$2 out marker commands command status=0 started=$SECONDS line
  commands=$("$docs" commands "$lab" .) || return 1
  out=$(mktemp)
  marker=$(mktemp)
  echo "# lab $lab, krb $commit, $(date '+%Y-%m-%d %H:%M %Z'), Kafka $(kafka_version)" >"$out"
  while IFS= read -r command; do
    echo "\$ $command" >>"$out"
    echo "samples: lab $lab ($lang): \$ $command" >&2
    # shellcheck disable=SC2016 # $1 is the inner shell's
    KRB_LANG=$lang bash -c 'source scripts/common.sh; eval "$1"' samples "$command" </dev/null 2>&1 |
      while IFS= read -r line; do printf '%s\n' "${line//"$root"\//}"; done >>"$out" || status=$?
    if [ "$status" != 0 ]; then
      rm -f "$marker"
      echo "samples.sh: lab $lab ($lang): \`$command\` failed (exit $status); docs/samples/$lang/lab$lab.txt is left as it was, this run's transcript is $out" >&2
      return 1
    fi
  done <<<"$commands"
  mkdir -p "docs/samples/$lang"
  mv "$out" "docs/samples/$lang/lab$lab.txt"
  # The logs this run wrote, beside the sample, and the seal over both: krb-docs check runs
  # krb-dups and krb-verify on these logs again and refuses a transcript edited by hand.
  local kept="docs/samples/$lang/lab$lab"
  rm -rf "$kept"
  mkdir -p "$kept"
  find logs -maxdepth 1 -type f -newer "$marker" \( -name '*.log' -o -name '*.jsonl' \) \
    ! -name 'kafka*.log' ! -name build.log -exec cp {} "$kept/" \;
  (cd "docs/samples/$lang" && sha256sum "lab$lab.txt" "lab$lab"/*) >"$kept.sha256"
  rm -f "$marker"
  echo "samples: wrote docs/samples/$lang/lab$lab.txt in $((SECONDS - started)) s" >&2
}

failed=0
for lab in "${labs[@]}"; do
  if [ "$lab" = 7 ] && ! KRB_LANG=en KRB_BROKER_PORT=$port scripts/kafka-local.sh status 2>/dev/null | grep -q 'running, 3 of 3 node'; then
    echo "samples: lab 7 skipped: no three-node cluster of scripts/kafka-local.sh answers on port $port (KRB_BROKER_PORT=$port scripts/kafka-local.sh start --nodes 3 starts one)" >&2
    continue
  fi
  for lang in en ko; do
    run "$lab" "$lang" || failed=1
  done
done
scripts/docs.sh
exit "$failed"
