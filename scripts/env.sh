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
