#!/usr/bin/env bash
# The release tarball, for a machine without Rust: the tools built here, the scripts and the docs.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  cat <<'EOF'
usage: scripts/dist.sh

Builds the tools (cargo build --release) and writes dist/krb-VERSION-ARCH-linux.tar.gz (VERSION
from Cargo.toml, ARCH this machine's, e.g. x86_64): one folder krb-VERSION/ with the tools in
bin/, the scripts, the docs, the READMEs and compose.yaml. Unpacked anywhere, `source
scripts/common.sh` and scripts/lab.sh use bin/ and never run cargo (the release has no
Cargo.toml). This script, the test, benchmark and judge scripts and vendor-librdkafka.sh stay
out: they build or change the source.

Prints the tarball's path, then what the tools need of the machine that runs them: the newest
glibc symbol version they use and the shared libraries they load (OpenSSL 3's libssl.so.3 and
libcrypto.so.3 among them: librdkafka is built on the build machine's OpenSSL, for SASL/SCRAM).
EOF
}

case ${1:-} in
  "") ;;
  -h | --help) usage; exit 0 ;;
  *) echo "dist.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
esac

version=$(sed -n '/^\[workspace.package\]/,/^\[/ s/^version = "\(.*\)"$/\1/p' Cargo.toml)
[ -n "$version" ] || { echo "dist.sh: no version in Cargo.toml's [workspace.package]" >&2; exit 1; }
name=krb-$version
out=dist/$name-$(uname -m)-linux.tar.gz

# The executables this build makes, as cargo lists them: a folder that also holds tools of an
# older build, or of another branch, never adds them.
printf 'build: cargo build --release ... '
mapfile -t tools < <(cargo build --release --quiet --message-format=json |
  grep -o '"executable":"[^"]*"' | sed 's/^"executable":"\(.*\)"$/\1/')
[ ${#tools[@]} -gt 0 ] || { echo "dist.sh: cargo build listed no executable" >&2; exit 1; }
echo "${#tools[@]} tools"

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
top=$stage/$name
mkdir -p "$top/bin" "$top/scripts" "$top/logs"
cp "${tools[@]}" "$top/bin/"
# Every script but the developers' (this one, test.sh, the benchmarks, the Java judge and the
# vendoring build or change the source).
for script in scripts/*.sh; do
  case ${script##*/} in dist.sh | test.sh | bench-*.sh | judge.sh | vendor-librdkafka.sh) continue ;; esac
  cp -p "$script" "$top/scripts/"
done
cp scripts/log4j2.properties "$top/scripts/"
cp -r docs "$top/"
cp README.md README.ko.md compose.yaml "$top/"
mkdir -p dist
# Owned by nobody in particular and in a fixed order: whoever unpacks it owns the files.
tar --owner=0 --group=0 --numeric-owner --sort=name -czf "$out.tmp" -C "$stage" "$name"
mv "$out.tmp" "$out"
echo "$out ($(du -h "$out" | cut -f1))"

# What the machine that runs the tools needs: binutils' objdump reads it from the binaries.
if command -v objdump >/dev/null; then
  glibc=$(objdump -T "$top"/bin/* | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -n 1)
  libs=$(objdump -p "$top"/bin/* | awk '$1 == "NEEDED" { print $2 }' | sort -u | paste -sd ' ')
  echo "the tools need: glibc ${glibc#GLIBC_} or newer; shared libraries: $libs"
fi
