# shellcheck shell=bash
# Source me first in a script, with its arguments, before anything that builds or waits:
#
#   source "$(dirname "$0")/usage.sh" "$@"
#
# A -h or --help among them prints the script's usage, its header comment (line 2 down to the
# `set -euo pipefail` line, without the `# `), and exits 0. A script whose later arguments go
# to another program (kafka-local.sh java CLASS ARGS...) passes only its first.
for usage_arg in "$@"; do
  case $usage_arg in
    -h | --help)
      sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
      exit 0
      ;;
  esac
done
unset usage_arg
