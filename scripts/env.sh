# shellcheck shell=bash
# Source me: what the lab, test and broker scripts ask of this machine, each asked one way.

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

# install_missing COMMAND:PACKAGE...: installs the Debian package of each command not on PATH (or
# file not there, for a /PATH:PACKAGE pair),
# when this is root with apt-get; else says what to install and fails.
install_missing() {
  local pair missing=()
  for pair in "$@"; do
    # A path (a font file) is looked for as a file, anything else as a command.
    if [[ ${pair%%:*} == /* ]]; then
      [ -e "${pair%%:*}" ] || missing+=("${pair#*:}")
    else
      command -v "${pair%%:*}" >/dev/null || missing+=("${pair#*:}")
    fi
  done
  [ ${#missing[@]} -gt 0 ] || return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "installing ${missing[*]} (apt-get)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "missing: ${missing[*]} (install with: sudo apt-get install ${missing[*]})" >&2
    return 1
  fi
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
