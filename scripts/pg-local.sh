#!/usr/bin/env bash
# pg-local.sh start|stop|status|url
#
# Runs a PostgreSQL server for lab 6's effects on workers of several machines: Debian's
# PostgreSQL, on its own port and data folder, listening on localhost only, with the superuser
# postgres and no password. PostgreSQL refuses to run as root, so as root it runs as the user
# postgres (made by Debian's package).
#
#   start   make the data folder once, start the server, wait until it answers
#   stop    stop the server started by `start` and wait for it to exit
#   status  say whether it runs (exit 0) or not (exit 1)
#   url     print the URL krb-worker --db and krb-effects take
#
# Environment: KRB_PG_PORT (default 5481), KRB_PG_HOME (default /tmp/krb-postgres-PORT: the data
# folder, its log postgres.log and the server's socket).
set -euo pipefail
# shellcheck source=usage.sh
source "$(dirname "$0")/usage.sh" "$@"

port=${KRB_PG_PORT:-5481}
home=${KRB_PG_HOME:-/tmp/krb-postgres-$port}
data=$home/data
url="postgres://postgres@localhost:$port/postgres"

# die EN KO: the error, in the tools' language (env.sh, through usage.sh), on stderr; exit 1.
die() { krb_line "$@" >&2; exit 1; }
# say EN KO: a line of progress.
say() { krb_line "$@"; }

# The newest PostgreSQL Debian installed: its server programs are not on PATH.
bin=$(find /usr/lib/postgresql -maxdepth 3 -name initdb -path '*/bin/*' 2>/dev/null | sort -V | tail -1)
bin=${bin%/initdb}

# as_server CMD...: runs CMD as the user the server runs as.
as_server() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

running() { [ -n "$bin" ] && as_server "$bin/pg_ctl" status -D "$data" >/dev/null 2>&1; }

start() {
  [ -n "$bin" ] || die "pg-local: PostgreSQL not found: install it (Debian: sudo apt-get install postgresql)" \
    "pg-local: PostgreSQL이 없습니다: 설치하세요 (Debian: sudo apt-get install postgresql)"
  if running; then
    say "pg-local: already running at $url" "pg-local: 이미 실행 중: $url"
    return 0
  fi
  mkdir -p "$home"
  [ "$(id -u)" = 0 ] && chown postgres: "$home"
  if [ ! -f "$data/PG_VERSION" ]; then
    as_server "$bin/initdb" -D "$data" -U postgres --auth=trust -E UTF8 >"$home/initdb.log" 2>&1 ||
      die "pg-local: initdb failed: see $home/initdb.log" "pg-local: initdb 실패: $home/initdb.log를 보세요"
  fi
  say "pg-local: starting PostgreSQL ($bin) on localhost:$port, data in $data" \
    "pg-local: PostgreSQL($bin)을 localhost:$port에 띄우는 중, 데이터는 $data"
  as_server "$bin/pg_ctl" start -w -t 60 -D "$data" -l "$home/postgres.log" \
    -o "-p $port -c listen_addresses=localhost -k $home" >/dev/null ||
    die "pg-local: PostgreSQL did not start: see $home/postgres.log" "pg-local: PostgreSQL이 뜨지 않았습니다: $home/postgres.log를 보세요"
  say "pg-local: ready at $url" "pg-local: 준비됨: $url"
}

stop() {
  running || return 0
  as_server "$bin/pg_ctl" stop -w -m fast -D "$data" >/dev/null
  say "pg-local: stopped" "pg-local: 정지함"
}

case ${1:-} in
  start) start ;;
  stop) stop ;;
  status) if running; then say "pg-local: running at $url" "pg-local: 실행 중: $url"; else say "pg-local: not running" "pg-local: 실행 중이 아님"; exit 1; fi ;;
  url) echo "$url" ;;
  *)
    usage="pg-local.sh start|stop|status|url"
    if [ $# = 0 ]; then bad_usage; fi
    { krb_line "unknown command '$1'" "알 수 없는 명령: '$1'" >&2; bad_usage; } ;;
esac
