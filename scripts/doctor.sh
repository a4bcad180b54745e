#!/usr/bin/env bash
# The pre-flight check for a lab day: this machine, the tools, then the broker (krb-doctor).
# Written for any bash, even one too old for the labs, so that it can say so.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

usage() {
  cat <<'EOF'
usage: scripts/doctor.sh

Checks what lab 1 needs, one line per check: `ok`, `warn` (lab 1 runs, a later lab or the
room may not) or `FAILED` (lab 1 cannot run, or would disturb the others on the broker), each
warning and failure followed by `fix:` and what to do. Exit 1 when a check FAILED.

  bash         4.4 or newer (the scripts expand empty arrays under set -u)
  system       Linux
  linux tools  GNU date (+%N), flock, awk, sed, grep, sort, seq, tail, wc, sleep 0.1
  krb tools    the thirteen krb tools run (they need OpenSSL 3's libssl.so.3): an unpacked
               release's bin/, a checkout's target/release (or cargo to build them), or KRB_BIN
  librdkafka   the engine every tool reports (--version), one and the same in all thirteen
  login        with KRB_CONFIG set (a workshop room's handout), its file is there
  namespace    KRB_NS is set when the broker is not on this machine
  broker       a Kafka broker answers at KRB_BOOTSTRAP (default localhost:9481), and so does
               every broker it names
  Kafka        the newest release the broker's API versions prove it is at least, and
               KIP-848's consumer group protocol (lab 5)
  access       with a login, the room lets it create the namespace's topics (KRB_NS its name)
  clock        this machine's clock within 1 s of the broker's

The last five are krb-doctor's (run without the tools, only whether the broker's port accepts
a connection is checked).
EOF
}

case ${1:-} in
  "") ;;
  -h | --help) usage; exit 0 ;;
  *) echo "doctor.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
esac

failed=0 warned=0
# line STATUS CHECK DETAIL [FIX]: one check's line, as krb-doctor prints its own.
line() {
  if [ -n "${4:-}" ]; then
    printf '%-6s %s: %s; fix: %s\n' "$1" "$2" "$3" "$4"
  else
    printf '%-6s %s: %s\n' "$1" "$2" "$3"
  fi
  case $1 in FAILED) failed=$((failed + 1)) ;; warn) warned=1 ;; esac
}

if [ "${BASH_VERSINFO[0]}" -gt 4 ] || { [ "${BASH_VERSINFO[0]}" -eq 4 ] && [ "${BASH_VERSINFO[1]}" -ge 4 ]; }; then
  line ok bash "$BASH_VERSION"
else
  line FAILED bash "$BASH_VERSION; the scripts need 4.4 or newer" \
    "install a newer bash (macOS: brew install bash) and run the scripts with it"
fi

if [ "$(uname -s)" = Linux ]; then
  line ok system "Linux $(uname -r) $(uname -m)"
else
  line FAILED system "$(uname -s); the tools are Linux programs and the scripts use GNU tools" \
    "use a Linux machine (or a Linux virtual machine)"
fi

lacking=""
for tool in awk sed grep sort seq tail wc sleep flock date; do
  command -v "$tool" >/dev/null || lacking="$lacking $tool"
done
problems=${lacking:+missing:$lacking}
# The log lines' milliseconds: GNU date's %N (BSD and busybox date print N or nothing).
if command -v date >/dev/null && ! [[ $(date +%3N) =~ ^[0-9]{3}$ ]]; then
  problems="${problems:+$problems; }date +%3N gives '$(date +%3N)', not milliseconds (not GNU date)"
fi
# The waits poll every tenth of a second.
if command -v sleep >/dev/null && ! sleep 0.01 2>/dev/null; then
  problems="${problems:+$problems; }sleep takes no fractions of a second"
fi
if [ -z "$problems" ]; then
  line ok "linux tools" "GNU date with %N, flock, awk, sed, grep, sort, seq, tail, wc, sleep"
else
  line FAILED "linux tools" "$problems" \
    "install GNU coreutils, util-linux (flock) and gawk (Debian: sudo apt-get install coreutils util-linux gawk)"
fi

# shellcheck source=env.sh
source "$root/scripts/env.sh"
bin=$(krb_bin "$root")
tools="krb-worker krb-share krb-produce krb-dups krb-topic krb-group krb-verify krb-timeline krb-trial krb-effects krb-doctor krb-live krb-room"
lacking=""
for tool in $tools; do [ -x "$bin/$tool" ] || lacking="$lacking $tool"; done
ran=0
if [ -z "$lacking" ]; then
  # Running one shows what the machine lacks: a glibc older than the build's stops it here.
  if out=$("$bin/krb-worker" --version 2>&1); then
    line ok "krb tools" "all thirteen in $bin ($out)"
    ran=1
    # The engine is linked into each tool: tools of two builds would run two librdkafkas.
    engines=$(for tool in $tools; do "$bin/$tool" --version 2>&1 | sed -n 's/.*(librdkafka \(.*\))$/\1/p'; done | sort | uniq -c | awk '{ print $1, $2 }')
    # One engine, reported by every one of the tools.
    if [ "$engines" = "$(echo "$tools" | wc -w) ${engines#* }" ] && [ "$(printf '%s\n' "$engines" | wc -l)" = 1 ]; then
      line ok librdkafka "${engines#* } in every tool (the article's confluent-kafka 2.15.1 runs librdkafka 2.15.1)"
    else
      line FAILED librdkafka "the tools report $(printf '%s\n' "$engines" | awk '{ printf "%s%s tools %s", (NR > 1 ? ", " : ""), $1, $2 }') (of thirteen)" \
        "build them again together: cargo build --release (or unpack one release's bin/)"
    fi
  elif [[ $out == *libssl.so* || $out == *libcrypto.so* ]]; then
    # librdkafka is built on the system's OpenSSL 3 (its SASL/SCRAM, the room's login).
    line FAILED "krb tools" "$bin/krb-worker does not run here: $(echo "$out" | head -n 1)" \
      "install OpenSSL 3's libraries (Debian and Ubuntu: sudo apt-get install libssl3; RHEL: openssl-libs)"
  else
    line FAILED "krb tools" "$bin/krb-worker does not run here: $(echo "$out" | head -n 1)" \
      "the release's tools need glibc 2.34 or newer (this machine: $(getconf GNU_LIBC_VERSION 2>/dev/null || echo unknown)): use a newer Linux, or build them from a checkout with Rust"
  fi
elif [ ! -f "$root/Cargo.toml" ]; then
  line FAILED "krb tools" "$bin lacks$lacking" "unpack the release again (its bin/ holds the tools), or set KRB_BIN to a folder of krb tools"
elif [ -n "${KRB_BIN:-}" ]; then
  line FAILED "krb tools" "KRB_BIN=$KRB_BIN lacks$lacking" "point KRB_BIN at a folder of all thirteen tools, or unset it"
elif command -v cargo >/dev/null && [ ! -x "$bin/krb-worker" ] &&
  ! { command -v pkg-config >/dev/null && pkg-config --exists openssl; }; then
  line FAILED "krb tools" "not built yet, and the build lacks OpenSSL's headers or pkg-config (librdkafka is built on the system's OpenSSL)" \
    "sudo apt-get install libssl-dev pkg-config (scripts/lab.sh installs them as root), then source scripts/common.sh"
elif command -v cargo >/dev/null && [ ! -x "$bin/krb-worker" ]; then
  line ok "krb tools" "not built yet: cargo is here, and the first source scripts/common.sh builds them (a few minutes)"
elif command -v cargo >/dev/null; then
  # common.sh builds only when krb-worker is missing: a build older than a tool is not redone.
  line FAILED "krb tools" "$bin lacks$lacking (an older build)" "cargo build --release"
else
  line FAILED "krb tools" "not built ($bin lacks$lacking) and no cargo to build them" \
    "install Rust 1.85 or newer (https://rustup.rs), a C toolchain, OpenSSL's headers and pkg-config (Debian: libssl-dev pkg-config), or use the release tarball (scripts/dist.sh, on a machine with Rust, makes it)"
fi

# A room's handout sets KRB_CONFIG; every tool refuses to start without its file.
login=1
if [ -n "${KRB_CONFIG:-}" ]; then
  if [ -r "$KRB_CONFIG" ] && [ -f "$KRB_CONFIG" ]; then
    line ok login "KRB_CONFIG=$KRB_CONFIG (user $(sed -n 's/^sasl\.username=//p' "$KRB_CONFIG" | tail -n 1))"
  else
    line FAILED login "KRB_CONFIG=$KRB_CONFIG: no such file, or not readable" \
      "source your handout's NAME.env where NAME.conf is beside it (it sets KRB_CONFIG to that file), or unset KRB_CONFIG for a broker without a login"
    login=0
  fi
fi

if [ "$ran" = 1 ] && [ "$login" = 1 ]; then
  "$bin/krb-doctor" || failed=$((failed + 1))
else
  at=${KRB_BOOTSTRAP:-localhost:9481}
  if answers "$at"; then
    line ok broker "something accepts connections at $at (namespace, Kafka and clock are checked once the tools run)"
  else
    line FAILED broker "nothing accepts connections at $at" \
      "start a broker (scripts/kafka-local.sh start, or docker compose -p kreb up -d), or point KRB_BOOTSTRAP at the room's broker (export KRB_BOOTSTRAP=HOST:9481)"
  fi
fi

if [ "$failed" -gt 0 ]; then
  echo "doctor: not ready: fix each FAILED line before lab 1"
  exit 1
elif [ "$warned" = 1 ]; then
  echo "doctor: ready for lab 1; the warn lines are for later labs"
else
  echo "doctor: ready for lab 1"
fi
