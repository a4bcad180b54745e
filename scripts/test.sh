#!/usr/bin/env bash
# The test command: lint, build, start the Maven-jar Kafka if no broker answers and a PostgreSQL
# server of its own (lab 6's effects), install Chromium (the report's test), run every test (unit, CLI, and the end-to-end labs on the
# real broker), stop what it started.
#
#   scripts/test.sh            everything
#   scripts/test.sh --no-lint  skip cargo fmt / clippy / shellcheck
#
# It also holds the docs to the code (krb-docs check, after the build): a problem there fails
# the run, after every test has run.
set -euo pipefail
# shellcheck source=usage.sh
source "$(dirname "$0")/usage.sh" "$@"
cd "$(dirname "$0")/.."

# shellcheck source=env.sh
source scripts/env.sh

# The tests read the tools' English; a Korean locale would make them speak Korean (lang.rs).
export KRB_LANG=en
lint=1
[ "${1:-}" = "--no-lint" ] && lint=0
bootstrap=${KRB_BOOTSTRAP:-localhost:9481}
started=0 pg_started=0
skipped=() test_skip=()
step() { printf '%s test: %s\n' "$(date +%H:%M:%S)" "$*"; }
trap 'if [ "$started" = 1 ]; then scripts/kafka-local.sh stop; fi
  if [ "$pg_started" = 1 ]; then scripts/pg-local.sh stop; fi' EXIT

# What a fresh Debian machine lacks to build librdkafka and run the broker, installed when this
# is root (as CI is); elsewhere the build or the broker's start says what is missing.
# javac: the JDK, which runs the broker and compiles bench-effects.sh's Java loop. OpenSSL's
# headers and pkg-config: librdkafka's SASL/SCRAM (the room) is built on the system's OpenSSL.
install_missing make:make cc:gcc c++:g++ pkg-config:pkg-config /usr/include/openssl/ssl.h:libssl-dev \
  mvn:maven javac:openjdk-17-jdk-headless || true
# Debian's PostgreSQL keeps its server programs off PATH; pg-local.sh finds them.
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || install_missing initdb:postgresql || true
if [ "$lint" = 1 ]; then
  step "lint: cargo fmt --check, shellcheck, compose.yaml (docker compose config), cargo clippy -D warnings"
  rustup component add rustfmt clippy >/dev/null 2>&1 || true
  cargo fmt --all -- --check
  # A fresh machine has no shellcheck: install it as .ci/run does, or say that it was skipped.
  if install_missing shellcheck:shellcheck; then
    shellcheck -x scripts/*.sh .ci/run
  else
    skipped+=("shellcheck (not installed; sudo apt-get install shellcheck)")
    step "skipped: ${skipped[-1]}"
  fi
  # compose.yaml as Compose reads it, each profile with no variable set: Docker's compose plugin,
  # or Debian's docker-compose where it is missing (neither needs a Docker engine for this).
  compose=(docker compose)
  docker compose version >/dev/null 2>&1 || compose=(docker-compose)
  if [ "${compose[0]}" = docker ] || install_missing docker-compose:docker-compose; then
    for profile in default cluster room; do
      env -u KRB_ROOM_ADMIN_PASSWORD -u KRB_ADVERTISE "${compose[@]}" -f compose.yaml -p kreb --profile "$profile" config -q
    done
  else
    skipped+=("compose.yaml's check (no docker compose; sudo apt-get install docker-compose)")
    step "skipped: ${skipped[-1]}"
  fi
  cargo clippy --release --all-targets --quiet -- -D warnings
fi
step "build (release)"
cargo build --release --quiet
# The docs against the code: no broker needed. A problem fails the run at the end, after the tests.
step "docs: krb-docs check (generated blocks, flags, KRB_* variables, English and Korean twins, links, sample lines)"
docs_status=0
"${CARGO_TARGET_DIR:-target}/release/krb-docs" check . || docs_status=$?
if answers "$bootstrap"; then
  step "using the broker that answers at $bootstrap"
else
  scripts/kafka-local.sh start
  started=1
fi
# PostgreSQL where it is installed (above, as root); elsewhere its tests are skipped and said so.
if scripts/pg-local.sh status >/dev/null 2>&1; then
  :
elif ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  scripts/pg-local.sh start
  pg_started=1
else
  skipped+=("PostgreSQL's tests and the effects benchmark (not installed; sudo apt-get install postgresql)")
  step "skipped: ${skipped[-1]}"
  test_skip+=(--skip postgres)
fi
# Chromium renders the lab report in a real browser; installed as root, else its test is skipped.
# Its Korean pages need a Korean font (Debian's chromium has none of its own).
if ! install_missing chromium:chromium /usr/share/fonts/truetype/nanum/NanumGothic.ttf:fonts-nanum; then
  skipped+=("the report's test in Chromium (not installed; sudo apt-get install chromium)")
  step "skipped: ${skipped[-1]}"
  test_skip+=(--skip chromium)
fi
step "benchmark smoke test (krb-dups against awk on a small generated log; no timing asserts)"
scripts/bench-dups.sh 20000
if [[ " ${test_skip[*]} " != *" postgres "* ]]; then
  KRB_PG_URL=$(scripts/pg-local.sh url)
  export KRB_PG_URL
  step "effects benchmark smoke test (each effect on SQLite and PostgreSQL, krb-worker and the Java loop on none and kafka-eos, 2000 messages; no timing asserts)"
  scripts/bench-effects.sh 2000
fi
# kcat is the baseline of the clients benchmark; installed as root, else the smoke test is skipped.
if install_missing kcat:kcat /usr/bin/time:time; then
  step "clients benchmark smoke test (krb-produce and krb-worker against kcat, 20000 messages; no timing asserts)"
  scripts/bench-clients.sh 20000
else
  skipped+=("the clients benchmark (kcat or GNU time not installed; sudo apt-get install kcat time)")
  step "skipped: ${skipped[-1]}"
fi
# The room's attack test uses kcat as an attacker.
if ! command -v kcat >/dev/null; then
  skipped+=("the room's attacks with kcat (not installed; sudo apt-get install kcat)")
  step "skipped: ${skipped[-1]}"
  test_skip+=(--skip with_kcat)
fi
if install_missing /usr/bin/time:time; then
  step "share benchmark smoke test (krb-share against Kafka's Java share consumer, 2000 records, one run each; no timing asserts)"
  scripts/bench-share.sh --runs 1 2000
else
  skipped+=("the share benchmark (GNU time not installed; sudo apt-get install time)")
  step "skipped: ${skipped[-1]}"
fi
# The end-to-end tests (crates/krb-e2e/tests, a binary each) wait on Kafka most of their time
# (session timeouts, rebalances), so they run in lanes at the same time: each lane's files one
# after another, each file's tests one at a time. Files that must not overlap share a lane:
#   lab 7 on clusters of their own (07-faults.sh: logs/faults.*, its PostgreSQL on port 5491);
#   rooms with logins on brokers of their own (ports 9710 to 9742), and runs that use no topic;
#   the rest, on the tests' broker (a new file goes here): every run that makes or deletes a
#   topic there, namespaced or not, since krb-topic refuses to delete one while any group of
#   that broker is in a rebalance (who reads the topic cannot be told then).
# Three lanes, not more: Kafka brokers starting at once on a loaded 2-core machine each took
# longer than kafka-local.sh's 60 s.
lanes=("cluster cleanup"
  "room room_security doctor room_hostile live_hostile report build")
out=$(mktemp -d)
status=0
step "cargo test --release --workspace --exclude krb-e2e -- --include-ignored"
cargo test --release --workspace --exclude krb-e2e --no-fail-fast -- --include-ignored --test-threads=1 "${test_skip[@]}" 2>&1 | tee "$out/units" || status=$?
# Every binary of krb-e2e, as NAME=PATH (src/lib.rs is "krb_e2e").
mapfile -t binaries < <(cargo test --release -p krb-e2e --no-run --message-format=json |
  sed -n 's/.*"name":"\([^"]*\)".*"executable":"\([^"]*\)".*/\1=\2/p')
rest=()
for binary in "${binaries[@]}"; do
  [[ " ${lanes[*]} " == *" ${binary%%=*} "* ]] || rest+=("${binary%%=*}")
done
lanes+=("${rest[*]}")
# e2e_lane NAME...: runs these files in turn, each output in $out/NAME.
e2e_lane() {
  local name binary begun code
  for name in "$@"; do
    for binary in "${binaries[@]}"; do [ "${binary%%=*}" != "$name" ] || break; done
    begun=$SECONDS code=0
    (cd crates/krb-e2e && "${binary#*=}" --include-ignored --test-threads=1 "${test_skip[@]}") >"$out/$name" 2>&1 || code=$?
    step "e2e $name: $((SECONDS - begun)) s$([ "$code" = 0 ] || echo ", FAILED ($code)")"
    [ "$code" = 0 ] || touch "$out/failed"
  done
}
step "end-to-end tests in ${#lanes[@]} lanes: $(printf '[%s] ' "${lanes[@]}")"
pids=()
for lane in "${lanes[@]}"; do
  # shellcheck disable=SC2086 # a lane is a list of names
  e2e_lane $lane &
  pids+=($!)
done
wait "${pids[@]}"
for binary in "${binaries[@]}"; do
  [ ! -f "$out/${binary%%=*}" ] || { echo "== e2e ${binary%%=*}"; cat "$out/${binary%%=*}"; }
done
[ ! -f "$out/failed" ] || status=1
cat "$out"/* | awk '/^test result:/ { p += $4; f += $6 } END { printf "total: %d passed, %d failed\n", p, f }'
rm -rf "$out"
for check in "${skipped[@]}"; do echo "test: skipped: $check"; done
if [ "$docs_status" != 0 ]; then
  echo "test: krb-docs check found problems in the docs (listed above; scripts/docs.sh --check lists them again)"
  [ "$status" != 0 ] || status=$docs_status
fi
exit "$status"
