#!/usr/bin/env bash
# room.sh start [--nodes 1|3|--compose]|add NAME...|list|remove NAME|reset|stop: a workshop room for the teacher.
#
# The room is scripts/kafka-local.sh's Kafka in its room mode (KRB_ROOM_DIR): every participant
# logs in with SASL/SCRAM-SHA-512 on the room's listener (the password is proven by a salted
# challenge, never sent; the messages themselves are not encrypted), and may touch only the
# topics, groups and transactional ids that start with their own name and `-` (prefixed ACLs;
# no ACL, no access). The teacher is the super user `admin`, on a listener bound to localhost.
#
#   start      format (once) and start the room's broker, one node or three (without --nodes:
#              as many as the room's last start); writes the teacher's credentials
#              (admin.password, admin.conf, admin.properties) in the folder.
#              --compose starts compose.yaml's kafka-room (profile room) with Docker instead
#              (one node, port 9481; the Java tools that add participants still need Java 17+
#              and Maven)
#   add NAME...  a participant each: a SCRAM user with a generated password, the ACLs on NAME-,
#              and the handouts NAME.env (source it: KRB_BOOTSTRAP, KRB_NS, KRB_CONFIG),
#              NAME.conf (librdkafka's properties, for kcat -F), NAME.properties (the Java tools'
#              --command-config) and NAME.md (the page to hand out, English and Korean)
#   list       the room's participants (the users the broker knows), one a line
#   remove NAME  delete the user, its ACLs and its handouts (its topics stay, and its open
#              connections are refused everything at once, as no ACL is left)
#   reset      delete what the participants made: every topic but Kafka's own (the room
#              page's too), every consumer and share group with its committed offsets, and
#              every transaction still open (aborted); the users, ACLs and handouts stay. Stop
#              everyone's runs first: a group with live members is not deleted (exit 1)
#   stop       stop the room's broker, every node (its users, ACLs and topics stay for the
#              next start)
#
# A name is 1 to 40 letters, digits, '.' or '_' (the namespace rules of KRB_NS, without '-', so
# that no participant's prefix holds another's), not `admin`, and unlike every other name in the
# room, letter case aside.
#
# Environment: KRB_ROOM_DIR (default room/ in the checkout; gitignored), KRB_BROKER_PORT (default
# 9481), KRB_ADVERTISE=HOST (the address participants reach, given at start: the room listener
# then listens on every interface); start saves the last two, and the nodes, in the folder for
# the commands after it.
set -euo pipefail
# shellcheck source=usage.sh
source "$(dirname "$0")/usage.sh" "$@"
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=env.sh
source "$repo/scripts/env.sh"
KRB_ROOM_DIR=${KRB_ROOM_DIR:-$repo/room}
export KRB_ROOM_DIR
dir=$KRB_ROOM_DIR

# die EN KO: the error, in the tools' language (env.sh), on stderr; exit 1.
die() { krb_line "$@" >&2; exit 1; }
# say EN KO: a line of what was done.
say() { krb_line "$@"; }

# The port, address, nodes and broker the room was started with, unless given again.
saved_port="" saved_advertise="" saved_nodes="" compose=0
if [ -f "$dir/broker.env" ]; then
  # shellcheck source=/dev/null
  source "$dir/broker.env"
fi
export KRB_BROKER_PORT=${KRB_BROKER_PORT:-${saved_port:-9481}}
KRB_ADVERTISE=${KRB_ADVERTISE:-$saved_advertise}
[ -z "$KRB_ADVERTISE" ] || export KRB_ADVERTISE
# A room's nodes keep their data in folders of their own (one node's or three's): every command
# after start, and the next start, must run as many as it did.
nodes=${KRB_NODES:-${saved_nodes:-1}}

kafka() { KRB_NODES=$nodes "$repo/scripts/kafka-local.sh" "$@"; }
docker_room() {
  KRB_ROOM_ADMIN_PASSWORD=$(cat "$dir/admin.password") docker compose -p kreb -f "$repo/compose.yaml" --profile room "$@"
}
# admin CLASS ARGS...: one of Kafka's Java tools, as the teacher, on the teacher's listener.
admin() {
  local class=$1
  shift
  kafka java "$class" --bootstrap-server "$(kafka bootstrap inner)" --command-config "$dir/admin.properties" "$@"
}

# secret: 24 random letters and digits, no character that a properties file or a shell quotes.
# (cut reads all its input: a reader that stops early would fail the pipe, under pipefail.)
secret() {
  local s
  s=$(head -c 600 /dev/urandom | tr -dc 'A-Za-z0-9' | cut -c 1-24)
  [ ${#s} = 24 ] || die "room: could not draw a password from /dev/urandom" \
    "room: /dev/urandom에서 비밀번호를 만들지 못했습니다"
  echo "$s"
}

start() {
  if [ "$compose" = 1 ]; then
    [ "$KRB_BROKER_PORT" = 9481 ] || die "room: compose.yaml's room listens on 9481: unset KRB_BROKER_PORT" \
      "room: compose.yaml의 교실은 9481에서 리슨합니다: KRB_BROKER_PORT를 지우세요"
    docker compose version >/dev/null 2>&1 ||
      die "room: docker compose does not run here: install Docker with compose, or start the room on the Maven-jar Kafka (scripts/room.sh start)" \
        "room: 여기서는 docker compose가 돌지 않습니다: compose가 든 Docker를 설치하거나, Maven jar Kafka로 교실을 띄우세요 (scripts/room.sh start)"
  fi
  mkdir -p "$dir"
  chmod 700 "$dir"
  [ -s "$dir/admin.password" ] || (umask 077 && secret >"$dir/admin.password")
  local password
  password=$(cat "$dir/admin.password")
  printf 'saved_port=%s\nsaved_advertise=%s\nsaved_nodes=%s\ncompose=%s\n' "$KRB_BROKER_PORT" "$KRB_ADVERTISE" "$nodes" "$compose" >"$dir/broker.env"
  if [ "$compose" = 1 ]; then
    docker_room up -d kafka-room
    local i
    for i in $(seq 1 120); do
      ! answers localhost:9482 || break
      [ "$i" -lt 120 ] || die "room: compose.yaml's kafka-room does not answer on localhost:9482 after 60 s (docker compose -p kreb logs kafka-room)" \
        "room: 60초가 지나도 compose.yaml의 kafka-room이 localhost:9482에서 응답하지 않습니다 (docker compose -p kreb logs kafka-room)"
      sleep 0.5
    done
  else
    kafka start --nodes "$nodes"
  fi
  (
    umask 077
    cat >"$dir/admin.properties" <<EOF
# The teacher's login (the super user admin) for Kafka's Java tools: --command-config.
security.protocol=SASL_PLAINTEXT
sasl.mechanism=PLAIN
sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="admin" password="$password";
EOF
    cat >"$dir/admin.conf" <<EOF
# The teacher's login (the super user admin) for the krb tools and kcat -F, on localhost only.
bootstrap.servers=$(kafka bootstrap inner)
security.protocol=SASL_PLAINTEXT
sasl.mechanisms=PLAIN
sasl.username=admin
sasl.password=$password
EOF
  )
  local at
  at=$(kafka bootstrap host)
  say "room: the room listens on $at; the teacher's login: KRB_CONFIG=$dir/admin.conf" \
    "room: 교실이 $at에서 리슨합니다. 강사의 로그인: KRB_CONFIG=$dir/admin.conf"
  say "room: next: scripts/room.sh add NAME... (a participant each)" \
    "room: 다음: scripts/room.sh add NAME... (참가자마다 하나씩)"
}

# check_name NAME: the room's rules for a participant's name (see the head of this file).
check_name() {
  { [[ $1 =~ ^[A-Za-z0-9._]{1,40}$ ]] && [ "$1" != . ] && [ "$1" != .. ]; } ||
    die "room: a name is 1 to 40 letters, digits, '.' or '_' (it becomes the participant's KRB_NS), got '$1': e.g. alice" \
      "room: 이름은 글자, 숫자, '.', '_'로 1~40자입니다(참가자의 KRB_NS가 됩니다). 받은 이름: '$1'. 예: alice"
  [ "${1,,}" != admin ] || die "room: $1: admin is the teacher's name: choose another" \
    "room: $1: admin은 강사의 이름입니다: 다른 이름을 고르세요"
}

# taken NAME: the name already in the room, letter case aside, or nothing.
taken() {
  local env
  for env in "$dir"/*.env; do
    [ -e "$env" ] || continue
    env=${env##*/} env=${env%.env}
    [ "$env" != broker ] || continue
    [ "${env,,}" != "${1,,}" ] || { echo "$env"; return; }
  done
}

add() {
  [ $# -ge 1 ] || { usage="room.sh add NAME..."; bad_usage; }
  [ -s "$dir/admin.properties" ] || die "room: no room in $dir: start one first (scripts/room.sh start)" \
    "room: $dir에 교실이 없습니다: 먼저 교실을 띄우세요 (scripts/room.sh start)"
  local name other seen=" "
  for name in "$@"; do
    check_name "$name"
    other=$(taken "$name")
    [ -z "$other" ] || die "room: $name: $other is already in the room (remove it first, or choose another name)" \
      "room: $name: $other이(가) 이미 교실에 있습니다 (먼저 지우거나 다른 이름을 고르세요)"
    [[ $seen != *" ${name,,} "* ]] || die "room: $name is given twice" "room: $name을(를) 두 번 줬습니다"
    seen+="${name,,} "
  done
  for name in "$@"; do add_one "$name"; done
  live "${@: -1}"
}

# live NAME: wait until the broker lets NAME in. The controller has taken the login and the ACLs
# when Kafka's tools return, but the broker applies them a moment later, and a participant who
# sources the handout at once would be refused; the metadata is applied in order, so the last
# name's ACL being listed means every earlier login and ACL is live too.
live() {
  local until=$((SECONDS + 30))
  while ! admin org.apache.kafka.tools.AclCommand --list --resource-pattern-type prefixed --topic "$1-" 2>/dev/null |
    grep -F "User:$1," >/dev/null; do
    [ "$SECONDS" -lt "$until" ] || die "room: the broker does not list $1's ACLs 30 s after they were added: its log in logs/ says why" \
      "room: $1의 ACL을 추가하고 30초가 지나도 브로커가 보여주지 않습니다: logs/의 브로커 로그를 보세요"
    sleep 0.5
  done
}

add_one() {
  local name=$1 password bootstrap
  password=$(secret)
  bootstrap=$(kafka bootstrap host)
  say "room: adding $name (SCRAM-SHA-512 user, ACLs on topics, groups and transactional ids $name-)" \
    "room: $name 추가 중 (SCRAM-SHA-512 사용자, 토픽, 그룹, transactional id $name-에 대한 ACL)"
  admin kafka.admin.ConfigCommand --alter --entity-type users --entity-name "$name" \
    --add-config "SCRAM-SHA-512=[password=$password]" >/dev/null
  admin org.apache.kafka.tools.AclCommand --add --allow-principal "User:$name" \
    --resource-pattern-type prefixed --topic "$name-" --group "$name-" --transactional-id "$name-" \
    --operation All >/dev/null
  (
    umask 077
    cat >"$dir/$name.env" <<EOF
# $name's room: source it in bash (source $name.env) before the labs; keep it beside $name.conf.
export KRB_BOOTSTRAP=$bootstrap
export KRB_NS=$name
KRB_CONFIG="\$(cd "\$(dirname "\${BASH_SOURCE[0]}")" && pwd)/$name.conf"
export KRB_CONFIG
EOF
    cat >"$dir/$name.conf" <<EOF
# $name's login to the room, librdkafka's properties: KRB_CONFIG for the krb tools, kcat -F.
bootstrap.servers=$bootstrap
security.protocol=SASL_PLAINTEXT
sasl.mechanisms=SCRAM-SHA-512
sasl.username=$name
sasl.password=$password
EOF
    cat >"$dir/$name.properties" <<EOF
# $name's login to the room for Kafka's Java tools: --command-config $name.properties
security.protocol=SASL_PLAINTEXT
sasl.mechanism=SCRAM-SHA-512
sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="$name" password="$password";
EOF
    handout "$name" >"$dir/$name.md"
  )
  say "room: $name's handouts: $dir/$name.env, .conf, .properties, .md" \
    "room: $name의 유인물: $dir/$name.env, .conf, .properties, .md"
}

# handout NAME: the page a participant gets, in English and Korean.
handout() {
  cat <<EOF
# $1: your place in the room / 룸에서 내 자리

Your name in the room is **$1**: your topics and groups start with \`$1-\`, and no one else can
read, write or delete them (nor can you touch anyone else's). Keep the three files together:
\`$1.env\`, \`$1.conf\` (your password is in it), \`$1.properties\`.

룸에서 내 이름은 **$1**입니다. 내 토픽과 그룹은 \`$1-\`로 시작하고, 다른 사람은 읽거나 쓰거나 지울 수
없어요(나도 다른 사람 것은 건드릴 수 없어요). 파일 세 개를 한 폴더에 두세요: \`$1.env\`,
\`$1.conf\`(비밀번호가 들어 있어요), \`$1.properties\`.

## Paste / 붙여 넣기

\`\`\`sh
cd krb                      # the checkout or the unpacked release / 받은 저장소나 릴리스를 푼 폴더
source ~/$1.env             # where you saved the files / 파일을 저장한 곳
source scripts/common.sh
scripts/doctor.sh
\`\`\`

## Expect / 예상 출력

\`\`\`
ok     login: KRB_CONFIG=.../$1.conf (user $1)
ok     namespace: KRB_NS=$1: your topics and groups on the broker are $1-NAME
ok     access: $1 may create and use $1-doctor and the other topics of the namespace
doctor: ready for lab 1
\`\`\`

Then lab 1 / 그다음 실습 1: \`scripts/lab.sh --only 1\`. Kafka's own tools / Kafka의 도구:
\`--command-config ~/$1.properties\`. kcat: \`kcat -F ~/$1.conf -L\`, only on librdkafka 2.6.1 or
newer (Debian's kcat is older: see the workshop page) / librdkafka 2.6.1 이상에서만(Debian의 kcat은
더 오래되었어요: 워크숍 페이지 참고).

For the teacher's page, set the room's name the teacher gives before \`scripts/lab.sh\`
(\`export KRB_ROOM=NAME\`): each variant's result goes to your topic \`$1-krb-room-NAME\`, which
only you may write. / 강사 페이지에 띄우려면 \`scripts/lab.sh\` 전에 강사가 알려 주는 교실 이름을
설정하세요(\`export KRB_ROOM=NAME\`). 변형마다 결과가 나만 쓸 수 있는 내 토픽
\`$1-krb-room-NAME\`으로 가요.

The login (SCRAM-SHA-512) never sends your password over the network; the messages themselves
are not encrypted. / 로그인(SCRAM-SHA-512)은 비밀번호를 네트워크로 보내지 않지만, 메시지 자체는
암호화하지 않아요.
EOF
}

list() {
  [ -s "$dir/admin.properties" ] || die "room: no room in $dir: start one first (scripts/room.sh start)" \
    "room: $dir에 교실이 없습니다: 먼저 교실을 띄우세요 (scripts/room.sh start)"
  # ConfigCommand's line: SCRAM credential configs for user-principal 'alice' are SCRAM-SHA-512=iterations=4096
  admin kafka.admin.ConfigCommand --describe --entity-type users |
    sed -n "s/^SCRAM credential configs for user-principal '\(.*\)' are .*/\1/p" | sort
}

remove() {
  local name=${1:-}
  { [ -n "$name" ] && [ $# = 1 ]; } || { usage="room.sh remove NAME"; bad_usage; }
  check_name "$name"
  [ -s "$dir/admin.properties" ] || die "room: no room in $dir: start one first (scripts/room.sh start)" \
    "room: $dir에 교실이 없습니다: 먼저 교실을 띄우세요 (scripts/room.sh start)"
  list | grep -qx -- "$name" || die "room: $name is not in the room (scripts/room.sh list names who is)" \
    "room: $name은(는) 교실에 없습니다 (교실에 있는 사람은 scripts/room.sh list로 보세요)"
  admin kafka.admin.ConfigCommand --alter --entity-type users --entity-name "$name" \
    --delete-config SCRAM-SHA-512 >/dev/null
  admin org.apache.kafka.tools.AclCommand --remove --force --allow-principal "User:$name" \
    --resource-pattern-type prefixed --topic "$name-" --group "$name-" --transactional-id "$name-" \
    --operation All >/dev/null
  rm -f "$dir/$name.env" "$dir/$name.conf" "$dir/$name.properties" "$dir/$name.md"
  say "room: $name removed (the user, its ACLs and its handouts; its topics stay)" \
    "room: $name을(를) 지웠습니다 (사용자, ACL, 유인물. 토픽은 남습니다)"
}

# reset: what the participants made goes; who they are stays (see the head of this file).
reset() {
  [ $# = 0 ] || die "room: reset takes no argument (it resets the whole room; remove NAME takes one participant out)" \
    "room: reset은 인자를 받지 않습니다 (교실 전체를 초기화합니다. 참가자 한 명을 빼려면 remove NAME)"
  [ -s "$dir/admin.properties" ] || die "room: no room in $dir: start one first (scripts/room.sh start)" \
    "room: $dir에 교실이 없습니다: 먼저 교실을 띄우세요 (scripts/room.sh start)"
  local topics groups share open id failed=0 args tmp
  tmp=$(mktemp -d)
  # Three JVMs at once (each takes seconds to start). Lists as the Java tools print them:
  # GroupsCommand `GROUP TYPE PROTOCOL` under a heading; TransactionsCommand `ID COORDINATOR
  # PRODUCER STATE` under one; TopicCommand a name a line.
  admin org.apache.kafka.tools.GroupsCommand --list >"$tmp/groups" &
  admin org.apache.kafka.tools.TransactionsCommand list >"$tmp/transactions" &
  admin org.apache.kafka.tools.TopicCommand --list --exclude-internal >"$tmp/topics" &
  for id in 1 2 3; do wait -n || failed=1; done
  groups=$(awk 'NR > 1 && ($2 == "Classic" || $2 == "Consumer") { print $1 }' "$tmp/groups")
  share=$(awk 'NR > 1 && $2 == "Share" { print $1 }' "$tmp/groups")
  open=$(awk 'NR > 1 && $4 == "Ongoing" { print $1 }' "$tmp/transactions")
  topics=$(cat "$tmp/topics")
  rm -rf "$tmp"
  [ "$failed" = 0 ] || die "room: reset could not list the room's groups, transactions and topics (above); nothing deleted" \
    "room: reset이 교실의 그룹, 트랜잭션, 토픽 목록을 얻지 못했습니다(위 참고). 아무것도 지우지 않았습니다"
  # The deletions at once too: consumer groups, share groups, each open transaction, topics.
  local jobs=0 names
  if [ -n "$groups" ]; then
    args=()
    for id in $groups; do args+=(--group "$id"); done
    admin org.apache.kafka.tools.consumer.group.ConsumerGroupCommand --delete "${args[@]}" &
    jobs=$((jobs + 1))
  fi
  if [ -n "$share" ]; then
    args=()
    for id in $share; do args+=(--group "$id"); done
    admin org.apache.kafka.tools.consumer.group.ShareGroupCommand --delete "${args[@]}" &
    jobs=$((jobs + 1))
  fi
  for id in $open; do
    admin org.apache.kafka.tools.TransactionsCommand forceTerminateTransaction --transactionalId "$id" &
    jobs=$((jobs + 1))
  done
  if [ -n "$topics" ]; then
    # One request for them all: TopicCommand takes a regular expression, here the exact names.
    names=${topics//./\\.}
    admin org.apache.kafka.tools.TopicCommand --delete --topic "^(${names//$'\n'/|})\$" &
    jobs=$((jobs + 1))
  fi
  for ((; jobs > 0; jobs--)); do wait -n || failed=1; done
  local nt ng no
  nt=$(words "$topics") ng=$(words "$groups $share") no=$(words "$open")
  say "room: reset: $nt topic(s), $ng group(s) deleted, $no open transaction(s) aborted; the users, ACLs and handouts stay" \
    "room: reset: 토픽 ${nt}개, 그룹 ${ng}개를 지우고 열린 트랜잭션 ${no}개를 abort했습니다. 사용자, ACL, 유인물은 남습니다"
  [ "$failed" = 0 ] || die "room: reset did not delete everything (above): stop everyone's runs, then scripts/room.sh reset again" \
    "room: reset이 전부 지우지는 못했습니다(위 참고): 모두의 실행을 멈춘 뒤 scripts/room.sh reset을 다시 실행하세요"
}

# words TEXT: how many names it holds.
words() { echo "$1" | wc -w | tr -d ' '; }

case ${1:-} in
  start)
    shift
    case ${1:-} in
      "") compose=0 ;;
      --nodes) compose=0; nodes=${2:-}; [ $# = 2 ] || die "room: start takes --nodes 1 or --nodes 3" \
        "room: start에는 --nodes 1이나 --nodes 3을 주세요" ;;
      --compose) compose=1 nodes=1; shift; [ $# = 0 ] || die "room: --compose runs one node: no $1" \
        "room: --compose는 노드 하나만 띄우므로 $1은(는) 받지 않습니다" ;;
      *) die "room: start takes --nodes 1|3 or --compose, not $1" \
        "room: start에는 --nodes 1|3이나 --compose만 줄 수 있습니다: $1" ;;
    esac
    case $nodes in 1 | 3) ;; *) die "room: --nodes takes 1 or 3, not '$nodes'" \
      "room: --nodes의 값이 잘못됐습니다('$nodes'): 쓸 수 있는 값은 1, 3" ;; esac
    start ;;
  add) shift; add "$@" ;;
  list) list ;;
  remove) shift; remove "$@" ;;
  reset) shift; reset "$@" ;;
  stop) if [ "$compose" = 1 ]; then docker_room stop kafka-room; else kafka stop; fi ;;
  *)
    usage="room.sh start [--nodes 1|3|--compose]|add NAME...|list|remove NAME|reset|stop"
    [ -n "${1:-}" ] || bad_usage
    { krb_line "unknown command '$1'" "알 수 없는 명령: '$1'" >&2; bad_usage; } ;;
esac
