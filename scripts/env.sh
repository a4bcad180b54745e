# shellcheck shell=bash
# Source me: what the lab, test and broker scripts ask of this machine, each asked one way.

# krb_say EN KO: a text in the tools' language, by krb-cli's rule (Lang::from_vars): KRB_LANG
# when set, en or ko (ko_KR.UTF-8 and the like too, any case), anything else refused as the
# tools refuse it: one line on stderr, status 2; else the first of LC_ALL, LC_MESSAGES and LANG
# that is set, Korean when it starts with ko. Asked at each call, so a shell that sourced
# common.sh follows a KRB_LANG set later. krb_line: a line.
krb_say() {
  if [ -n "${KRB_LANG:-}" ]; then
    case ${KRB_LANG%%[_.-]*} in
      '' | [Ee][Nn]) printf '%s' "$1" ;;
      [Kk][Oo]) printf '%s' "$2" ;;
      *)
        echo "${0##*/}: KRB_LANG=$KRB_LANG: unknown language; use en (the default) or ko" >&2
        return 2
        ;;
    esac
  else
    case ${LC_ALL:-${LC_MESSAGES:-${LANG:-}}} in
      [Kk][Oo]*) printf '%s' "$2" ;;
      *) printf '%s' "$1" ;;
    esac
  fi
}
# A script stops here on a KRB_LANG the tools refuse, before it starts any of them.
krb_say '' '' || return 2
krb_line() { krb_say "$1" "$2"; echo; }

# krb_shown PATH: PATH as a person is shown it, from the current folder where it lies under it
# (logs/x.svg, as the pages show it), else as it is.
krb_shown() { printf '%s' "${1#"$PWD"/}"; }

# answers [HOST:PORT]: something accepts TCP connections there (default KRB_BOOTSTRAP's first
# address, else localhost:9481).
answers() {
  local at=${1:-${KRB_BOOTSTRAP:-localhost:9481}}
  at=${at%%,*}
  (exec 3<>"/dev/tcp/${at%:*}/${at##*:}") 2>/dev/null
}

# java_major: the major version of the java on PATH (17, 21, ...), or nothing.
java_major() {
  command -v java >/dev/null || return 0
  java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = \([0-9]*\).*/\1/p'
}

# have_java_maven: Java 17 or newer and Maven, what the Maven-jar broker needs.
have_java_maven() {
  command -v mvn >/dev/null || return 1
  [ "$(java_major)" -ge 17 ] 2>/dev/null
}

# have_docker: a Docker engine answers.
have_docker() { command -v docker >/dev/null && docker info >/dev/null 2>&1; }

# missing_packages COMMAND:PACKAGE...: the Debian packages, on one line, of each command not on
# PATH (or file not there, for a /PATH:PACKAGE pair); nothing when every one is here.
missing_packages() {
  local pair missing=()
  for pair in "$@"; do
    # A path (a font file, a header) is looked for as a file, anything else as a command.
    if [[ ${pair%%:*} == /* ]]; then
      [ -e "${pair%%:*}" ] || missing+=("${pair#*:}")
    else
      command -v "${pair%%:*}" >/dev/null || missing+=("${pair#*:}")
    fi
  done
  echo "${missing[*]}"
}

# install_packages AGAIN PACKAGE...: as root with apt-get, says on stderr what it installs and
# how, then installs it; else prints on stderr what is missing and the one line that installs
# it, to run before AGAIN (the command to run again, or empty), and fails. Root is told first
# because a `source` is not where a learner expects the system to change.
install_packages() {
  local again=$1 run
  shift
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    krb_line "running as root: installing $* (apt-get update, then apt-get install -y) ..." \
      "root로 실행 중이라 $* 패키지를 설치합니다 (apt-get update, apt-get install -y) ..." >&2
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null &&
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null && return 0
    krb_line "apt-get failed (its errors are above); install the packages yourself:" \
      "apt-get이 실패했어요 (오류는 위에 있어요). 직접 설치하세요:" >&2
    echo "apt-get install -y $*" >&2
    return 1
  fi
  run="sudo apt-get install -y $*"
  command -v apt-get >/dev/null || run="$* ($(krb_say "Debian's package names: install your system's own" "Debian의 패키지 이름이에요. 이 시스템의 같은 패키지를 설치하세요"))"
  if [ -n "$again" ]; then
    krb_line "missing: $*. Install them with this line, then $again again:" \
      "없는 패키지: $*. 아래 줄로 설치한 뒤 $again를 다시 실행하세요:" >&2
  else
    krb_line "missing: $*. Install them with this line:" "없는 패키지: $*. 아래 줄로 설치하세요:" >&2
  fi
  echo "$run" >&2
  return 1
}

# install_missing COMMAND:PACKAGE...: missing_packages, installed by install_packages.
install_missing() {
  local missing
  missing=$(missing_packages "$@")
  [ -z "$missing" ] && return 0
  # shellcheck disable=SC2086 # one word a package
  install_packages "" $missing
}

# krb_can_build AGAIN: what the build needs is here: the C toolchain, OpenSSL's headers and
# pkg-config (librdkafka is compiled in C on the system's OpenSSL), installed first as root
# (install_packages), and cargo. Else says what to do, then to run AGAIN again, and fails,
# before any "building" line: the learner reads one thing to do, not a build that never began.
krb_can_build() {
  local missing
  missing=$(missing_packages make:make cc:gcc c++:g++ pkg-config:pkg-config /usr/include/openssl/ssl.h:libssl-dev)
  # shellcheck disable=SC2086 # one word a package
  [ -z "$missing" ] || install_packages "$1" $missing || return 1
  command -v cargo >/dev/null && return 0
  krb_line "the krb tools are not built and there is no cargo: install Rust 1.85 or newer (rustup), or use the release tarball, which needs no Rust (docs/en/setup.md); then $1 again" \
    "krb 도구가 빌드되지 않았고 cargo가 없습니다. Rust 1.85 이상을 rustup으로 설치하거나, Rust가 필요 없는 릴리스 파일을 쓰세요 (docs/ko/setup.md). 그다음 $1를 다시 실행하세요" >&2
  return 1
}

# krb_build ROOT LOG [PREFIX]: builds the tools of the checkout at ROOT (cargo build
# --release), its output in LOG. A first build takes minutes, so it says on stderr how far it is
# (crates compiled, seconds): on a terminal one line kept up to date, else a line every 25
# crates. PREFIX is a text the caller printed without a newline (`build: ... `): the progress
# goes after it and leaves it there at the end, for the caller to finish the line. The caller
# asks krb_can_build first. A build that fails says why, with the build's error lines, and
# fails: the learner stops here, not at a later `krb-topic: command not found`.
krb_build() {
  local root=$1 log=$2 prefix=${3:-} status
  (cd "$root" && cargo build --release --color never) 2>&1 | tee "$log" | krb_progress "$prefix"
  status=${PIPESTATUS[0]}
  [ "$status" = 0 ] && return 0
  [ -z "$prefix" ] || echo >&2
  krb_line "the build failed (cargo build --release, exit $status); its errors:" \
    "빌드 실패 (cargo build --release, 종료 코드 $status). 오류:" >&2
  { grep -E -A 6 '^error' "$log" || tail -n 20 "$log"; } | head -n 30 >&2
  log=$(krb_shown "$log")
  krb_line "all of its output: $log" "전체 출력: $log" >&2
  return 1
}

# krb_progress PREFIX: reads cargo's output and says on stderr how many crates are compiled so
# far (krb_build's progress).
krb_progress() {
  local prefix=$1 text n=0 start=$SECONDS
  while IFS= read -r text; do
    case $text in *" Compiling "*) n=$((n + 1)) ;; *) continue ;; esac
    text=$(krb_say "$n crates compiled, $((SECONDS - start)) s (a first build takes minutes)" \
      "crate ${n}개 컴파일, $((SECONDS - start))초 (처음 빌드는 몇 분 걸려요)")
    if [ -t 2 ]; then
      printf '\r\033[K%s%s' "$prefix" "$text" >&2
    elif [ $((n % 25)) = 1 ]; then
      # The first starts a line of its own after the caller's PREFIX.
      [ "$n" != 1 ] || [ -z "$prefix" ] || echo >&2
      printf '%s%s\n' "$prefix" "$text" >&2
    fi
  done
  [ "$n" = 0 ] && return 0
  if [ -t 2 ]; then printf '\r\033[K%s' "$prefix" >&2; else printf '%s' "$prefix" >&2; fi
}

# krb_bin ROOT: the folder of the krb tools for the checkout or unpacked release at ROOT:
# KRB_BIN if set; else ROOT/target/release in a checkout (it has Cargo.toml: the tools are built
# there); else ROOT/bin, the tools a release tarball (scripts/dist.sh) ships, which has no
# Cargo.toml and needs no cargo.
krb_bin() {
  if [ -n "${KRB_BIN:-}" ]; then echo "$KRB_BIN"
  elif [ -f "$1/Cargo.toml" ]; then echo "$1/target/release"
  else echo "$1/bin"
  fi
}

# java_build WHO SOURCE OUT [HINT]: compiles SOURCE, one Java file on kafka-clients, with the
# Java sources the programs share (scripts/java/*.java: KrbLines.java) into OUT when OUT lacks
# SOURCE's class or a source or the jar is newer, against the kafka-clients jar of
# kafka-local.sh's cache (KRB_KAFKA_HOME and KRB_KAFKA_VERSION as it reads them), whose jars it
# resolves first; then prints that cache's libs folder, whose jars run it. An error names WHO
# and what is missing, and ends with HINT (", or pass --no-java").
java_build() {
  local who=$1 src=$2 out=$3 hint=${4:-} scripts version home clients class stale=0 f
  local -a shared
  scripts=$(dirname "${BASH_SOURCE[0]}")
  if ! command -v javac >/dev/null || ! [ "$(java_major)" -ge 17 ] 2>/dev/null; then
    echo "$who: $(basename "$src" .java) needs a JDK 17 or newer (javac; Debian: openjdk-17-jdk-headless)$hint" >&2
    return 1
  fi
  shared=("$scripts"/java/*.java)
  [ -f "${shared[0]}" ] ||
    { echo "$who: $(basename "$src" .java) needs the Java sources it shares, $scripts/java/*.java$hint" >&2; return 1; }
  version=${KRB_KAFKA_VERSION:-4.3.1}
  home=${KRB_KAFKA_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/krb/kafka-$version}
  "$scripts/kafka-local.sh" jars >&2 ||
    { echo "$who: $(basename "$src" .java) needs Kafka's jars (scripts/kafka-local.sh jars)$hint" >&2; return 1; }
  clients=$home/libs/kafka-clients-$version.jar
  class=$out/$(basename "$src" .java).class
  [ -f "$class" ] || stale=1
  for f in "$src" "${shared[@]}" "$clients"; do
    [ "$stale" = 1 ] || ! [ "$f" -nt "$class" ] || stale=1
  done
  if [ "$stale" = 1 ]; then
    rm -rf "$out" "$out.tmp"
    mkdir -p "$out.tmp"
    javac -Xlint:all -d "$out.tmp" -cp "$clients" "$src" "${shared[@]}" >&2 || return 1
    mv "$out.tmp" "$out"
  fi
  echo "$home/libs"
}
