#!/usr/bin/env bash
# docs.sh [--check]: fill every generated block of README*.md and docs/**/*.md (krb-docs write):
# each tool's and script's --help, each lab's sample output (docs/samples/, written by
# scripts/samples.sh from a real run; a verdict or krb-dups output the tools now word otherwise is
# written into the sample from its kept logs). With --check it changes nothing and reports every
# problem of the docs instead (krb-docs check: generated blocks, flags, KRB_* variables, the
# English and Korean twins, links, the samples' lines), one line each, and exits 1 if any.
# Builds the tools first (cargo build --release): their --help is what goes into the pages.
set -euo pipefail
# shellcheck source=usage.sh
source "$(dirname "$0")/usage.sh" "$@"
cd "$(dirname "$0")/.."
action="write"
case ${1:-} in
  "") ;;
  --check) action=check ;;
  *) echo "docs.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
esac
cargo build --release --quiet
exec "${CARGO_TARGET_DIR:-target}/release/krb-docs" "$action" .
