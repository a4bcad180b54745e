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
warning and failure followed by `fix:` and what to do. Exit 1 when a check FAILED. Under a
Korean locale (LANG=ko_KR.UTF-8) or KRB_LANG=ko the lines are Korean: 정상, 주의, 실패, 고칠 방법.

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

# shellcheck source=env.sh
source "$root/scripts/env.sh"

case ${1:-} in
  "") ;;
  -h | --help) usage; exit 0 ;;
  *) krb_line "doctor.sh: unknown argument $1 (see --help)" "doctor.sh: 모르는 인자 $1 (--help 참고)" >&2; exit 2 ;;
esac

failed=0 warned=0
# line STATUS CHECK DETAIL [FIX]: one check's line in the tools' language, as krb-doctor prints
# its own (its messages.rs: the status words, a column six wide, and `; fix:`).
line() {
  local status
  case $1 in
    ok) status=$(krb_say "ok    " "정상  ") ;;
    warn) status=$(krb_say "warn  " "주의  ") warned=1 ;;
    FAILED) status=$(krb_say "FAILED" "실패  ") failed=$((failed + 1)) ;;
  esac
  if [ -n "${4:-}" ]; then
    printf '%s %s: %s%s%s\n' "$status" "$2" "$3" "$(krb_say "; fix: " "; 고칠 방법: ")" "$4"
  else
    printf '%s %s: %s\n' "$status" "$2" "$3"
  fi
}

if [ "${BASH_VERSINFO[0]}" -gt 4 ] || { [ "${BASH_VERSINFO[0]}" -eq 4 ] && [ "${BASH_VERSINFO[1]}" -ge 4 ]; }; then
  line ok bash "$BASH_VERSION"
else
  line FAILED bash "$(krb_say "$BASH_VERSION; the scripts need 4.4 or newer" "$BASH_VERSION: 스크립트에는 4.4 이상이 필요해요")" \
    "$(krb_say "install a newer bash (macOS: brew install bash) and run the scripts with it" "더 새로운 bash를 설치하고(macOS: brew install bash) 그것으로 스크립트를 실행하세요")"
fi

if [ "$(uname -s)" = Linux ]; then
  line ok "$(krb_say system 시스템)" "Linux $(uname -r) $(uname -m)"
else
  line FAILED "$(krb_say system 시스템)" "$(krb_say "$(uname -s); the tools are Linux programs and the scripts use GNU tools" "$(uname -s): 도구는 Linux 프로그램이고 스크립트는 GNU 도구를 써요")" \
    "$(krb_say "use a Linux machine (or a Linux virtual machine)" "Linux 머신(또는 Linux 가상 머신)을 쓰세요")"
fi

lacking=""
for tool in awk sed grep sort seq tail wc sleep flock date; do
  command -v "$tool" >/dev/null || lacking="$lacking $tool"
done
problems=${lacking:+$(krb_say "missing:$lacking" "없음:$lacking")}
# The log lines' milliseconds: GNU date's %N (BSD and busybox date print N or nothing).
if command -v date >/dev/null && ! [[ $(date +%3N) =~ ^[0-9]{3}$ ]]; then
  problems="${problems:+$problems; }$(krb_say "date +%3N gives '$(date +%3N)', not milliseconds (not GNU date)" "date +%3N이 밀리초가 아니라 '$(date +%3N)'을 내요(GNU date가 아님)")"
fi
# The waits poll every tenth of a second.
if command -v sleep >/dev/null && ! sleep 0.01 2>/dev/null; then
  problems="${problems:+$problems; }$(krb_say "sleep takes no fractions of a second" "sleep이 1초보다 작은 값을 받지 않아요")"
fi
if [ -z "$problems" ]; then
  line ok "$(krb_say "linux tools" "Linux 도구")" "$(krb_say "GNU date with %N, flock, awk, sed, grep, sort, seq, tail, wc, sleep" "%N을 아는 GNU date, flock, awk, sed, grep, sort, seq, tail, wc, sleep")"
else
  line FAILED "$(krb_say "linux tools" "Linux 도구")" "$problems" \
    "$(krb_say "install GNU coreutils, util-linux (flock) and gawk (Debian: sudo apt-get install coreutils util-linux gawk)" "GNU coreutils, util-linux(flock), gawk를 설치하세요(Debian: sudo apt-get install coreutils util-linux gawk)")"
fi

bin=$(krb_bin "$root")
tools_name=$(krb_say "krb tools" "krb 도구")
tools="krb-worker krb-share krb-produce krb-dups krb-topic krb-group krb-verify krb-timeline krb-trial krb-effects krb-doctor krb-live krb-room"
lacking=""
for tool in $tools; do [ -x "$bin/$tool" ] || lacking="$lacking $tool"; done
ran=0
if [ -z "$lacking" ]; then
  # Running one shows what the machine lacks: a glibc older than the build's stops it here.
  if out=$("$bin/krb-worker" --version 2>&1); then
    line ok "$tools_name" "$(krb_say "all thirteen in $bin ($out)" "$bin에 열세 개 모두($out)")"
    ran=1
    # The engine is linked into each tool: tools of two builds would run two librdkafkas.
    engines=$(for tool in $tools; do "$bin/$tool" --version 2>&1 | sed -n 's/.*(librdkafka \(.*\))$/\1/p'; done | sort | uniq -c | awk '{ print $1, $2 }')
    # One engine, reported by every one of the tools.
    if [ "$engines" = "$(echo "$tools" | wc -w) ${engines#* }" ] && [ "$(printf '%s\n' "$engines" | wc -l)" = 1 ]; then
      line ok librdkafka "$(krb_say "${engines#* } in every tool (the article's confluent-kafka 2.15.1 runs librdkafka 2.15.1)" "모든 도구가 ${engines#* }(글의 confluent-kafka 2.15.1은 librdkafka 2.15.1을 써요)")"
    else
      line FAILED librdkafka "$(krb_say "the tools report $(printf '%s\n' "$engines" | awk '{ printf "%s%s tools %s", (NR > 1 ? ", " : ""), $1, $2 }') (of thirteen)" "도구 열세 개가 알리는 librdkafka가 달라요: $(printf '%s\n' "$engines" | awk '{ printf "%s%s개 %s", (NR > 1 ? ", " : ""), $1, $2 }')")" \
        "$(krb_say "build them again together: cargo build --release (or unpack one release's bin/)" "한꺼번에 다시 빌드하세요: cargo build --release (또는 릴리스 하나의 bin/을 푸세요)")"
    fi
  elif [[ $out == *libssl.so* || $out == *libcrypto.so* ]]; then
    # librdkafka is built on the system's OpenSSL 3 (its SASL/SCRAM, the room's login).
    line FAILED "$tools_name" "$(krb_say "$bin/krb-worker does not run here: $(echo "$out" | head -n 1)" "$bin/krb-worker가 여기서 돌지 않아요: $(echo "$out" | head -n 1)")" \
      "$(krb_say "install OpenSSL 3's libraries (Debian and Ubuntu: sudo apt-get install libssl3; RHEL: openssl-libs)" "OpenSSL 3의 라이브러리를 설치하세요(Debian과 Ubuntu: sudo apt-get install libssl3, RHEL: openssl-libs)")"
  else
    line FAILED "$tools_name" "$(krb_say "$bin/krb-worker does not run here: $(echo "$out" | head -n 1)" "$bin/krb-worker가 여기서 돌지 않아요: $(echo "$out" | head -n 1)")" \
      "$(krb_say "the release's tools need glibc 2.34 or newer (this machine: $(getconf GNU_LIBC_VERSION 2>/dev/null || echo unknown)): use a newer Linux, or build them from a checkout with Rust" "릴리스의 도구에는 glibc 2.34 이상이 필요해요(이 머신: $(getconf GNU_LIBC_VERSION 2>/dev/null || echo 모름)): 더 새로운 Linux를 쓰거나, Rust로 받은 저장소에서 빌드하세요")"
  fi
elif [ ! -f "$root/Cargo.toml" ]; then
  line FAILED "$tools_name" "$(krb_say "$bin lacks$lacking" "$bin에 없음:$lacking")" "$(krb_say "unpack the release again (its bin/ holds the tools), or set KRB_BIN to a folder of krb tools" "릴리스를 다시 풀거나(도구는 그 bin/에 있어요) KRB_BIN을 krb 도구 폴더로 정하세요")"
elif [ -n "${KRB_BIN:-}" ]; then
  line FAILED "$tools_name" "$(krb_say "KRB_BIN=$KRB_BIN lacks$lacking" "KRB_BIN=$KRB_BIN에 없음:$lacking")" "$(krb_say "point KRB_BIN at a folder of all thirteen tools, or unset it" "KRB_BIN이 도구 열세 개가 모두 있는 폴더를 가리키게 하거나 KRB_BIN을 지우세요(unset)")"
elif command -v cargo >/dev/null && [ ! -x "$bin/krb-worker" ] &&
  ! { command -v pkg-config >/dev/null && pkg-config --exists openssl; }; then
  line FAILED "$tools_name" "$(krb_say "not built yet, and the build lacks OpenSSL's headers or pkg-config (librdkafka is built on the system's OpenSSL)" "아직 빌드하지 않았고, 빌드에 필요한 OpenSSL 헤더나 pkg-config가 없어요(librdkafka는 시스템의 OpenSSL 위에서 빌드해요)")" \
    "$(krb_say "sudo apt-get install libssl-dev pkg-config (scripts/lab.sh installs them as root), then source scripts/common.sh" "sudo apt-get install libssl-dev pkg-config (root로 돌린 scripts/lab.sh는 직접 설치해요), 그다음 source scripts/common.sh")"
elif command -v cargo >/dev/null && [ ! -x "$bin/krb-worker" ]; then
  line ok "$tools_name" "$(krb_say "not built yet: cargo is here, and the first source scripts/common.sh builds them (a few minutes)" "아직 빌드하지 않았어요: cargo가 있으니 처음 source scripts/common.sh를 하면 빌드해요(몇 분 걸려요)")"
elif command -v cargo >/dev/null; then
  # common.sh builds only when krb-worker is missing: a build older than a tool is not redone.
  line FAILED "$tools_name" "$(krb_say "$bin lacks$lacking (an older build)" "$bin에 없음:$lacking (예전 빌드)")" "cargo build --release"
else
  line FAILED "$tools_name" "$(krb_say "not built ($bin lacks$lacking) and no cargo to build them" "빌드하지 않았고($bin에 없음:$lacking) 빌드할 cargo도 없어요")" \
    "$(krb_say "install Rust 1.85 or newer (https://rustup.rs), a C toolchain, OpenSSL's headers and pkg-config (Debian: libssl-dev pkg-config), or use the release tarball (scripts/dist.sh, on a machine with Rust, makes it)" "Rust 1.85 이상(https://rustup.rs), C 툴체인, OpenSSL 헤더와 pkg-config(Debian: libssl-dev pkg-config)를 설치하거나, 릴리스 tarball을 쓰세요(Rust가 있는 머신에서 scripts/dist.sh가 만들어요)")"
fi

# A room's handout sets KRB_CONFIG; every tool refuses to start without its file.
login=1
if [ -n "${KRB_CONFIG:-}" ]; then
  if [ -r "$KRB_CONFIG" ] && [ -f "$KRB_CONFIG" ]; then
    user=$(sed -n 's/^sasl\.username=//p' "$KRB_CONFIG" | tail -n 1)
    line ok "$(krb_say login 로그인)" "$(krb_say "KRB_CONFIG=$KRB_CONFIG (user $user)" "KRB_CONFIG=$KRB_CONFIG (사용자 $user)")"
  else
    line FAILED "$(krb_say login 로그인)" "$(krb_say "KRB_CONFIG=$KRB_CONFIG: no such file, or not readable" "KRB_CONFIG=$KRB_CONFIG: 파일이 없거나 읽을 수 없어요")" \
      "$(krb_say "source your handout's NAME.env where NAME.conf is beside it (it sets KRB_CONFIG to that file), or unset KRB_CONFIG for a broker without a login" "NAME.conf가 옆에 있는 유인물의 NAME.env를 source하세요(KRB_CONFIG를 그 파일로 정해 줘요). 로그인 없는 브로커라면 KRB_CONFIG를 지우세요(unset)")"
    login=0
  fi
fi

if [ "$ran" = 1 ] && [ "$login" = 1 ]; then
  "$bin/krb-doctor" || failed=$((failed + 1))
else
  at=${KRB_BOOTSTRAP:-localhost:9481}
  if answers "$at"; then
    line ok "$(krb_say broker 브로커)" "$(krb_say "something accepts connections at $at (namespace, Kafka and clock are checked once the tools run)" "$at에서 무언가가 연결을 받아요(namespace, Kafka, 시계는 도구가 돌게 되면 검사해요)")"
  else
    line FAILED "$(krb_say broker 브로커)" "$(krb_say "nothing accepts connections at $at" "$at에서 연결을 받는 것이 없어요")" \
      "$(krb_say "start a broker (scripts/kafka-local.sh start, or docker compose -p kreb up -d), or point KRB_BOOTSTRAP at the room's broker (export KRB_BOOTSTRAP=HOST:9481)" "브로커를 띄우거나(scripts/kafka-local.sh start, 또는 docker compose -p kreb up -d) KRB_BOOTSTRAP이 교실의 브로커를 가리키게 하세요(export KRB_BOOTSTRAP=HOST:9481)")"
  fi
fi

if [ "$failed" -gt 0 ]; then
  krb_line "doctor: not ready: fix each FAILED line before lab 1" "doctor: 준비 안 됨: 실습 1 전에 실패 줄을 모두 고치세요"
  exit 1
elif [ "$warned" = 1 ]; then
  krb_line "doctor: ready for lab 1; the warn lines are for later labs" "doctor: 실습 1 준비 끝. 주의 줄은 나중 실습에 필요한 것이에요"
else
  krb_line "doctor: ready for lab 1" "doctor: 실습 1 준비 끝"
fi
