#!/usr/bin/env bash
# Vendors a librdkafka release into vendor/librdkafka, unchanged, for crates/rdkafka-sys to build.
#
#   vendor-librdkafka.sh TARBALL SHA256
#
# TARBALL is the upstream tree as published (`git archive` of a tag); SHA256 is its sha256, which
# is checked before anything is unpacked. The old vendor/librdkafka is replaced; tests/,
# packaging/ and win32/ are left out (the build never reads them: `make libs` builds src and
# src-cpp). vendor/librdkafka.sha256 gets one line a file kept, which crates/rdkafka-sys's build
# checks before it compiles. Write what came from where in vendor/README.md by hand.
set -euo pipefail
# shellcheck source=usage.sh
source "$(dirname "$0")/usage.sh" "$@"
cd "$(dirname "$0")/.."

usage="usage: vendor-librdkafka.sh TARBALL SHA256"
tarball=${1:?$usage}
want=${2:?$usage}
[ -f "$tarball" ] || { echo "vendor-librdkafka.sh: no file $tarball" >&2; exit 2; }
got=$(sha256sum "$tarball" | cut -d' ' -f1)
if [ "$got" != "$want" ]; then
  echo "vendor-librdkafka.sh: $tarball has sha256 $got, not $want: not the release you meant" >&2
  exit 1
fi

echo "== unpacking $tarball"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
tar -xzf "$tarball" -C "$scratch"
tree=$(find "$scratch" -mindepth 1 -maxdepth 1 -type d)
[ -f "$tree/src/rdkafka.h" ] || { echo "vendor-librdkafka.sh: $tarball holds no src/rdkafka.h" >&2; exit 1; }
echo "== leaving out tests/ packaging/ win32/"
rm -rf "$tree/tests" "$tree/packaging" "$tree/win32"
rm -rf vendor/librdkafka
mkdir -p vendor
mv "$tree" vendor/librdkafka
echo "== writing vendor/librdkafka.sha256"
(cd vendor/librdkafka && find . -type f -printf '%P\n' | LC_ALL=C sort | xargs -d '\n' sha256sum) > vendor/librdkafka.sha256
echo "vendored $(wc -l < vendor/librdkafka.sha256) files of $(sed -n 's/^#define RD_KAFKA_VERSION *0x\(..\)\(..\)\(..\).*/\1 \2 \3/p' vendor/librdkafka/src/rdkafka.h | while read -r a b c; do printf '%d.%d.%d' "0x$a" "0x$b" "0x$c"; done)"
