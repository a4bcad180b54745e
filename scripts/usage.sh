# shellcheck shell=bash
# Source me first in a script, with its arguments, before anything that builds or waits:
#
#   source "$(dirname "$0")/usage.sh" "$@"
#
# A -h or --help among them prints the script's usage, its header comment (line 2 down to the
# `set -euo pipefail` line, without the `# `), and exits 0. A script whose later arguments go
# to another program (kafka-local.sh java CLASS ARGS...) passes only its first.
#
# It sources env.sh (krb_say, krb_line: the tools' language) and defines bad_usage, for the
# script's wrong command lines.
for usage_arg in "$@"; do
  case $usage_arg in
    -h | --help)
      sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
      exit 0
      ;;
  esac
done
unset usage_arg
# shellcheck source=env.sh
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

# bad_usage: a wrong command line ends with the script's usage, the caller's $usage
# (`03-assignor.sh GROUP ...`, or $usage_ko where the Korean differs: the syntax stays as it is),
# one line on stderr in the tools' language, and exit status 2. What was wrong goes on the line
# before it: krb_line EN KO >&2; bad_usage.
bad_usage() {
  # shellcheck disable=SC2154 # the caller's
  krb_line "usage: $usage" "사용법: ${usage_ko:-$usage}" >&2
  exit 2
}
