#!/usr/bin/env bash
# The whole lab in one command: build the tools (in a checkout), find or start a broker, run every lab script,
# check each lab's "must hold" statements with krb-verify, and print the article's numbers
# beside ours. The same goes to logs/results.json, and to logs/report.html for a screen.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  cat <<'EOF'
usage: scripts/lab.sh [--only 1,2] [--broker external|compose|local] [--keep-broker]

Runs the labs, then prints one table: lab, variant, the article's number, ours, and how many
of the lab's "must hold" statements held (each failed one is named below it). Exit 0 only if
every statement of every lab held. Each script's output is in logs/lab-N-VARIANT.out; the
table, every statement and every timeline are in logs/report.html, one page for a projector.

The labs:
  1  revoke    no commit in on_revoke gives duplicates; a synchronous one gives none
  2  maxpoll   a consumer slower than max.poll.interval.ms is expelled; its commit fails
  3  assignor  eager (range) revokes every partition, cooperative-sticky only those that move
  4  static    restarting a consumer: two rebalances, or none with static membership
  5  protocol  labs 1 and 2 under the classic and the KIP-848 consumer group protocols
  6  idempotent labs 1 and 2 with an effect in a database: plain repeats, idempotent does not,
               db-offsets (effect and position in one transaction) and kafka-eos (Kafka
               transactions) leave every effect once
  8  share     labs 1 and 2 in a share group (KIP-932): no hand-over, so no duplicates; a killed
               member's records, and a record held past its lock, come again; a failing record
               is archived after its delivery count limit (only with --only: --only 1,2,8)
  9  deploy    a rolling deploy of three workers under a steady stream, one variant per
               combination of the fixes (scripts/09-deploy.sh's rows), and its decision table
               (only with --only: --only 9)

Lab 7, the fault trials on a three-node cluster, has its own command: scripts/07-faults.sh.

The broker: one that answers on KRB_BOOTSTRAP (default localhost:KRB_BROKER_PORT, 9481 unless
set); else `docker compose -p kreb up -d` if a Docker engine answers; else the Maven-jar Kafka
4.3.1 (scripts/kafka-local.sh, on KRB_BROKER_PORT) if Java 17+ and Maven are here. --broker
forces one. A broker this command started is stopped at the end unless --keep-broker.

Many people on one broker (a workshop): each sets KRB_NS (KRB_NS=alice scripts/lab.sh), and
every topic and group the labs make is alice-NAME. KRB_LOGS=DIR puts this run's files in DIR
instead of logs/, for a second run on the same machine at the same time. KRB_ROOM=NAME publishes
each variant's record, as it ends, to a topic of the participant's own, KRB_NS-krb-room-NAME on
the broker (it needs KRB_NS), for the teacher's page (krb-room serve NAME), which names each
participant after their topic: in a room with logins (scripts/room.sh) nobody can publish as
another.
EOF
}

# shellcheck source=env.sh
source scripts/env.sh
# bad: a wrong command line ends with the usage's first line, on stderr, and exit status 2;
# what was wrong goes on the line before it.
bad() {
  local usage="scripts/lab.sh [--only 1,2] [--broker external|compose|local] [--keep-broker]"
  krb_line "usage: $usage (see --help)" "사용법: $usage (--help 참고)" >&2
  exit 2
}
only="" broker=auto keep=0
while [ $# -gt 0 ]; do
  case $1 in
    --only | --broker) [ -n "${2:-}" ] || { krb_line "lab.sh: $1 needs a value" "lab.sh: '$1'에 값이 없습니다" >&2; bad; } ;;&
    --only) only=$2; shift 2 ;;
    --broker) broker=$2; shift 2 ;;
    --keep-broker) keep=1; shift ;;
    -h | --help) usage; exit 0 ;;
    *) krb_line "lab.sh: unknown argument '$1'" "lab.sh: 알 수 없는 인자: '$1'" >&2; bad ;;
  esac
done
case $broker in
  auto | external | compose | local) ;;
  *) krb_line "lab.sh: --broker takes external, compose or local, not '$broker'" \
    "lab.sh: --broker의 값이 잘못됐습니다('$broker'): 쓸 수 있는 값은 external, compose, local" >&2; bad ;;
esac
if [ -n "$only" ] && ! [[ $only =~ ^[1-689](,[1-689])*$ ]]; then
  krb_line "lab.sh: --only takes lab numbers from 1 to 6, 8 and 9, e.g. --only 1,2 (lab 7 is scripts/07-faults.sh)" \
    "lab.sh: --only에는 실습 번호 1~6, 8, 9를 주세요. 예: --only 1,2 (실습 7은 scripts/07-faults.sh)" >&2
  bad
fi
# Without --only, labs 1 to 6: labs 8 and 9 run when asked for.
only=${only:-1,2,3,4,5,6}

logs=${KRB_LOGS:-logs}
export KRB_LOGS=$logs
mkdir -p "$logs"
# Two runs writing one folder would mix their logs and tables: the second one stops here.
exec 9>"$logs/.lab.lock"
if ! flock -n 9; then
  krb_line "lab.sh: another lab.sh is writing to $logs/: wait for it, or give this run its own folder (KRB_LOGS=logs/NAME) and, on a shared broker, its own namespace (KRB_NS=NAME)" \
    "lab.sh: 다른 lab.sh가 $logs/에 쓰고 있습니다: 끝날 때까지 기다리거나, 이 실행에 폴더를 따로 주세요(KRB_LOGS=logs/NAME). 브로커를 여럿이 함께 쓴다면 namespace도 따로 주세요(KRB_NS=NAME)" >&2
  exit 1
fi
clock() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(clock)" 'BEGIN { printf "%.1f", b - a }'; }
# say EN KO: a progress text in the tools' language (env.sh); line EN KO: the same, a whole line.
say() { krb_say "$@"; }
line() { krb_line "$@"; }
# took START: how long since START, as the verdicts write it (`12.3 s`, `12.3초`).
took() { line "$(since "$1") s" "$(since "$1")초"; }

# The tools (env.sh's krb_bin): a checkout builds them, unless KRB_BIN names tools built
# elsewhere (as common.sh takes them); an unpacked release (scripts/dist.sh) ships them in bin/
# and has no source to build.
bin=$(krb_bin "$PWD")
if [ -f Cargo.toml ] && [ -z "${KRB_BIN:-}" ]; then
  # krb_can_build (env.sh) installs, as root on Debian, the C toolchain and OpenSSL librdkafka
  # needs, as scripts/test.sh does, or names them; krb_build says how far the build is.
  krb_can_build scripts/lab.sh || exit 1
  t=$(clock)
  prefix=$(say 'build: cargo build --release ... ' '빌드: cargo build --release ... ')
  printf '%s' "$prefix"
  krb_build "$PWD" "$logs/build.log" "$prefix" || exit 1
  took "$t"
else
  [ -x "$bin/krb-verify" ] || {
    line "lab.sh: no krb-verify in $bin: unpack the release again, or set KRB_BIN to a folder of krb tools" \
      "lab.sh: $bin에 krb-verify가 없습니다: 릴리스를 다시 풀거나, KRB_BIN에 krb 도구 폴더를 지정하세요" >&2
    exit 1
  }
  line "build: none, the release's tools in $bin" "빌드: 안 함, 릴리스에 든 도구($bin)"
fi

# The port kafka-local.sh starts a broker on is the one looked for (KRB_BROKER_PORT).
bootstrap=${KRB_BOOTSTRAP:-localhost:${KRB_BROKER_PORT:-9481}}
export KRB_BOOTSTRAP=$bootstrap
if [ "$broker" = auto ]; then
  if answers "$bootstrap"; then broker=external
  elif have_docker; then broker=compose
  # Without Docker, the Maven-jar broker: Java and Maven installed as scripts/test.sh does.
  elif have_java_maven || { install_missing mvn:maven java:openjdk-17-jdk-headless && have_java_maven; }; then
    broker=local
  else
    line "lab.sh: no broker answers on $bootstrap and none can be started: install Docker (with compose), or Java 17+ and Maven, or set KRB_BOOTSTRAP" \
      "lab.sh: $bootstrap에서 응답하는 브로커가 없고 새로 띄울 수도 없습니다: Docker(compose 포함)나 Java 17 이상과 Maven을 설치하거나, KRB_BOOTSTRAP을 지정하세요" >&2
    exit 1
  fi
fi
started=""
trap 'case $started in
  compose) docker compose -p kreb down >/dev/null 2>&1 || true ;;
  local) scripts/kafka-local.sh stop >/dev/null || true ;;
esac' EXIT
# taken: a broker this command would start finds its port answering already.
taken() {
  line "lab.sh: something already answers on $bootstrap; use --broker external" \
    "lab.sh: $bootstrap에서 이미 무언가 응답하고 있습니다. --broker external을 쓰세요" >&2
  exit 1
}
t=$(clock)
case $broker in
  external)
    answers "$bootstrap" || { line "lab.sh: no broker answers on $bootstrap" "lab.sh: $bootstrap에서 응답하는 브로커가 없습니다" >&2; exit 1; }
    line "broker: the one answering on $bootstrap" "브로커: $bootstrap에서 응답하는 브로커" ;;
  compose)
    ! answers "$bootstrap" || taken
    have_docker || { line "lab.sh: no Docker engine answers (docker info)" "lab.sh: 응답하는 Docker 엔진이 없습니다 (docker info)" >&2; exit 1; }
    say 'broker: docker compose -p kreb up -d (apache/kafka:4.3.1) ... ' '브로커: docker compose -p kreb up -d (apache/kafka:4.3.1) ... '
    docker compose -p kreb up -d >"$logs/compose.log" 2>&1 || { line failed 실패; tail -n 5 "$logs/compose.log" >&2; exit 1; }
    [ "$keep" = 1 ] || started=compose
    for _ in $(seq 1 120); do answers "$bootstrap" && break; sleep 0.5; done
    answers "$bootstrap" || { line "no answer on $bootstrap after 60 s" "60초가 지나도 $bootstrap에서 응답 없음" >&2; exit 1; }
    took "$t" ;;
  local)
    ! answers "$bootstrap" || taken
    have_java_maven || { line "lab.sh: the local broker needs Java 17+ and Maven" "lab.sh: 로컬 브로커에는 Java 17 이상과 Maven이 필요합니다" >&2; exit 1; }
    say 'broker: scripts/kafka-local.sh start (Apache Kafka 4.3.1 from Maven jars) ... ' '브로커: scripts/kafka-local.sh start (Maven jar로 띄우는 Apache Kafka 4.3.1) ... '
    scripts/kafka-local.sh start >"$logs/kafka-local.out" 2>&1 || { line failed 실패; tail -n 5 "$logs/kafka-local.out" >&2; exit 1; }
    [ "$keep" = 1 ] || started=local
    took "$t" ;;
esac
if [ -n "${KRB_NS:-}" ]; then
  line "namespace: $KRB_NS (topics and groups on the broker are $KRB_NS-NAME); logs: $logs/" \
    "namespace: $KRB_NS (브로커의 토픽과 그룹 이름은 $KRB_NS-NAME); 로그: $logs/"
fi
# The room (KRB_ROOM): publishing no record checks the name and the namespace, and makes the
# participant's topic in the room.
if [ -n "${KRB_ROOM:-}" ]; then
  [ -x "$bin/krb-room" ] || {
    line "lab.sh: KRB_ROOM is set but $bin has no krb-room: build it (cargo build --release), or unset KRB_ROOM" \
      "lab.sh: KRB_ROOM이 설정됐지만 $bin에 krb-room이 없습니다: 빌드하거나(cargo build --release) KRB_ROOM을 지우세요" >&2
    exit 1
  }
  "$bin/krb-room" publish "$KRB_ROOM" </dev/null >/dev/null || exit $?
  line "room: $KRB_ROOM (each variant's record to topic $KRB_NS-krb-room-$KRB_ROOM, for the teacher's page)" \
    "room: $KRB_ROOM (변형마다 결과를 $KRB_NS-krb-room-$KRB_ROOM 토픽으로 보내 강사 페이지에 띄움)"
fi

# lab|name|variant|set-up|script|krb-verify arguments
runs=(
  "1|revoke|nocommit|topic pay 2; krb-produce pay 1000 2|scripts/01-revoke.sh nocommit|revoke nocommit"
  "1|revoke|revcommit|topic pay 2; krb-produce pay 1000 2|scripts/01-revoke.sh revcommit --revoke-commit|revoke revcommit --revoke-commit"
  "2|maxpoll|expel|topic slow 1|scripts/02-maxpoll.sh|maxpoll slow"
  "3|assignor|range||scripts/03-assignor.sh range --assignor range|assignor range --assignor range"
  "3|assignor|cooperative-sticky||scripts/03-assignor.sh coop --assignor cooperative-sticky|assignor coop --assignor cooperative-sticky"
  "3|assignor|range --revoke-commit||scripts/03-assignor.sh rangerc --assignor range --revoke-commit|assignor rangerc --assignor range --revoke-commit"
  "3|assignor|cooperative-sticky --revoke-commit||scripts/03-assignor.sh cooprc --assignor cooperative-sticky --revoke-commit|assignor cooprc --assignor cooperative-sticky --revoke-commit"
  "4|static|dynamic||scripts/04-static.sh dynamic|static dynamic"
  "4|static|--static||scripts/04-static.sh static --static|static static --static"
  "5|protocol|classic||scripts/05-protocol.sh classic --protocol classic|protocol classic --protocol classic"
  "5|protocol|consumer||scripts/05-protocol.sh kip848 --protocol consumer|protocol kip848 --protocol consumer"
  "6|idempotent|plain revoke||scripts/06-idempotent.sh plainrev --effect plain|idempotent plainrev --effect plain"
  "6|idempotent|idempotent revoke||scripts/06-idempotent.sh idemrev --effect idempotent|idempotent idemrev --effect idempotent"
  "6|idempotent|plain maxpoll||scripts/06-idempotent.sh plainslow --effect plain --scenario maxpoll|idempotent plainslow --effect plain --scenario maxpoll"
  "6|idempotent|idempotent maxpoll||scripts/06-idempotent.sh idemslow --effect idempotent --scenario maxpoll|idempotent idemslow --effect idempotent --scenario maxpoll"
  "6|idempotent|db-offsets revoke||scripts/06-idempotent.sh dbrev --effect db-offsets|idempotent dbrev --effect db-offsets"
  "6|idempotent|db-offsets maxpoll||scripts/06-idempotent.sh dbslow --effect db-offsets --scenario maxpoll|idempotent dbslow --effect db-offsets --scenario maxpoll"
  "6|idempotent|kafka-eos revoke||scripts/06-idempotent.sh eosrev --effect kafka-eos|idempotent eosrev --effect kafka-eos"
  "6|idempotent|kafka-eos maxpoll||scripts/06-idempotent.sh eosslow --effect kafka-eos --scenario maxpoll|idempotent eosslow --effect kafka-eos --scenario maxpoll"
  "8|share|join||scripts/08-share.sh sharejoin --scenario join|share sharejoin --scenario join"
  "8|share|kill||scripts/08-share.sh sharekill --scenario kill|share sharekill --scenario kill"
  "8|share|lock||scripts/08-share.sh sharelock --scenario lock|share sharelock --scenario lock"
  "8|share|reject||scripts/08-share.sh sharereject --scenario reject|share sharereject --scenario reject"
)

# Lab 9's rows are krb-verify's (one home for the matrix): a variant each.
if [[ ",$only," == *",9,"* ]]; then
  while IFS=$'\t' read -r row _; do
    runs+=("9|deploy|$row||scripts/09-deploy.sh deploy --only $row|deploy deploy-$row $row")
  done < <("$bin/krb-verify" deploy-rows deploy)
fi

records=$logs/results.jsonl json=$logs/results.json
: >"$records"
failed=0
for run in "${runs[@]}"; do
  IFS='|' read -r n name variant setup script verify <<<"$run"
  [[ ",$only," == *",$n,"* ]] || continue
  printf '%s %s %s %s ... ' "$(say lab 실습)" "$n" "$name" "$variant"
  out="$logs/lab-$n-${variant//[^a-z-]/}.out"
  t=$(clock)
  script_failed=()
  # The script's own verdict is left out: krb-verify records it below, once.
  if ! KRB_NO_VERDICT=1 bash -c "set -euo pipefail; source scripts/common.sh >/dev/null; $setup${setup:+;} $script" >"$out" 2>&1; then
    script_failed=(--script-failed "the script failed: $(tail -n 1 "$out")")
  fi
  published=$(wc -l <"$records")
  # shellcheck disable=SC2086 # the verify arguments are words on purpose
  "$bin/krb-verify" $verify --record "$records" --seconds "$(since "$t")" "${script_failed[@]}" ||
    failed=1
  # The variant's record to the room; a room that does not answer says so and the lab goes on.
  [ -z "${KRB_ROOM:-}" ] || tail -n "+$((published + 1))" "$records" |
    "$bin/krb-room" publish "$KRB_ROOM" >/dev/null || true
done

echo
"$bin/krb-verify" table "$records" --json "$json" --html "$logs/report.html" --logs "$logs" || failed=1
if [[ ",$only," == *",9,"* ]]; then
  echo
  "$bin/krb-verify" deploy-table "$records" || failed=1
fi
echo
line "results: $json; for a screen: $logs/report.html" "결과: $json; 화면용: $logs/report.html"
exit "$failed"
