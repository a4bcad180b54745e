#!/usr/bin/env bash
# kafka-local.sh start [--nodes 1|3] [--fresh]|stop|status|kill N|restart N|roll|insync|coordinator GROUP|bootstrap [host|inner]|config N|jars|java CLASS [ARGS...]
#
# Runs the same Apache Kafka as compose.yaml (KRaft combined mode, one node, host listener
# localhost:9481) without Docker: Maven resolves the release's jars into a cache and the
# machine's Java 17+ runs them. The broker's own log goes to logs/kafka.log (a broker on another
# KRB_BROKER_PORT: logs/kafka-portPORT.log, so that two never share a file).
#
# With --nodes 3 (or KRB_NODES=3) it runs compose.yaml's three-node cluster (its profile
# cluster) instead: three combined broker-and-controller nodes, a controller quorum of three,
# host listeners on localhost:9481, 9484 and 9487, offsets and transaction logs replicated three
# times, min.insync.replicas=2; node N's log goes to logs/kafka-N.log. The cluster notices a
# dead node and a dead group member fast, for lab 7's fault trials: the controller fences a node
# that missed 3 s of heartbeats (broker.session.timeout.ms=3000, Kafka's default 9000), and a
# group may ask for a session timeout down to 1 s (group.min.session.timeout.ms=1000, default 6000),
# and a KIP-848 consumer group has one of 3 s with a heartbeat every 500 ms (group.consumer.*,
# defaults 45 s and 5 s).
#
#   start      resolve the jars if needed, format storage once, start, wait until every node answers;
#              --fresh formats it anew, without the topics and groups of earlier runs
#   stop       stop what `start` started and wait for it to exit
#   status     say whether it runs (exit 0) or not (exit 1)
#   kill N     kill node N at once (SIGKILL), as a crash does
#   restart N  start node N again (after kill) and wait until it answers
#   roll       restart every node cleanly, one at a time, each after the last is back in sync
#   insync     wait until every partition's replicas are all in sync again (up to 120 s; needs
#              the krb tools built)
#   coordinator GROUP   print the node that coordinates GROUP, as Kafka's admin API names it
#              (in a room, both ask as the teacher: DIR/admin.conf, DIR/admin.properties)
#   bootstrap  print the bootstrap list clients use (host: the host listeners, as KRB_ADVERTISE
#              names them; inner: the inter-broker listeners on localhost, a room's teacher's)
#   config N   print the server.properties `start` writes for node N (compose.yaml's settings:
#              crates/krb-e2e/tests/compose_settings.rs holds them equal)
#   jars       only resolve the jars (what CI caches)
#   java       run a class from the same jars, e.g. the consumer-groups tool:
#              kafka-local.sh java org.apache.kafka.tools.consumer.group.ConsumerGroupCommand ...
#
# Environment: KRB_KAFKA_VERSION (default 4.3.1), KRB_KAFKA_HOME (the cache, default
# ~/.cache/krb/kafka-VERSION), KRB_BROKER_PORT (default 9481), KRB_NODES (default 1), and
# KRB_ADVERTISE=HOST for a broker the room reaches: the host listener then listens on every
# interface and gives clients HOST:9481 (default: localhost only).
#
# KRB_ROOM_DIR=DIR (scripts/room.sh sets it) runs a workshop room instead, with state folders of
# its own: the host listener authenticates every client with SASL/SCRAM-SHA-512, an authorizer
# (StandardAuthorizer, no ACL no access) decides what each may do, and the inter-broker listener,
# localhost only, is also the teacher's: SASL/PLAIN as the super user `admin`, whose password
# DIR/admin.password holds (the nodes and controllers log in with it too).
set -euo pipefail
# shellcheck source=usage.sh
source "$(dirname "$0")/usage.sh" "${1:-}"

version=${KRB_KAFKA_VERSION:-4.3.1}
home=${KRB_KAFKA_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/krb/kafka-$version}
port=${KRB_BROKER_PORT:-9481}
advertise=${KRB_ADVERTISE:-}
room=${KRB_ROOM_DIR:-}
fresh=0
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=env.sh
source "$repo/scripts/env.sh"
# A Kafka on another port (a second checkout's, a test's) keeps its data, pid files and node
# count in folders of its own, so that two run side by side from one cache of jars.
state=$home
[ "$port" = 9481 ] || state=$home/port-$port
# A room's topics, users and ACLs never mix with a lab broker's.
[ -z "$room" ] || state=$home/room-port-$port
# How many nodes the running Kafka has: what `start` wrote, for the commands that follow it.
started_nodes=$state/nodes
nodes=${KRB_NODES:-$(cat "$started_nodes" 2>/dev/null || echo 1)}
logname=kafka
[ "$port" = 9481 ] || logname=kafka-port$port
[ -z "$room" ] || logname=kafka-room-port$port

# node I: sets the ports, files and folders of node I (from 1) of a cluster of $nodes. A node
# has three ports: the host listener, then the image's PLAINTEXT (inter-broker) and CONTROLLER
# listeners moved next to it, so that they do not collide with a Kafka using 9092/9093.
node() {
  id=$1
  host_port=$((port + 3 * (id - 1)))
  broker_port=$((host_port + 1))
  controller_port=$((host_port + 2))
  if [ "$nodes" = 1 ]; then
    dir=$state log=$repo/logs/$logname.log
  else
    dir=$state/cluster-$nodes/node-$id log=$repo/logs/$logname-$id.log
  fi
  config=$dir/server.properties pidfile=$dir/kafka.pid data=$dir/data
}

die() { echo "kafka-local: $*" >&2; exit 1; }

need_java() {
  command -v java >/dev/null || die "$(krb_say "java not found: install a JDK 17 or newer (Debian: openjdk-17-jdk-headless)" \
    "java가 없습니다: JDK 17 이상을 설치하세요 (Debian: openjdk-17-jdk-headless)")"
  local major
  major=$(java_major)
  [ "$major" -ge 17 ] 2>/dev/null || die "$(krb_say "Kafka $version needs Java 17 or newer, found ${major:-unknown}" \
    "Kafka $version에는 Java 17 이상이 필요합니다. 찾은 버전: ${major:-알 수 없음}")"
}

jars() {
  [ -f "$home/libs/kafka_2.13-$version.jar" ] && return 0
  command -v mvn >/dev/null || die "$(krb_say "mvn not found: install Maven (Debian: maven) to resolve Kafka's jars" \
    "mvn이 없습니다: Kafka의 jar를 받으려면 Maven을 설치하세요 (Debian: maven)")"
  mkdir -p "$home"
  # kafka_2.13 is the broker; kafka-tools brings the consumer-groups tool; slf4j 2 and its log4j2
  # binding are what the release's libs/ ships for logging.
  cat >"$home/pom.xml" <<EOF
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>krb</groupId><artifactId>kafka-local</artifactId><version>1</version><packaging>pom</packaging>
  <dependencies>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka_2.13</artifactId><version>$version</version></dependency>
    <dependency><groupId>org.slf4j</groupId><artifactId>slf4j-api</artifactId><version>2.0.17</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-slf4j2-impl</artifactId><version>2.25.4</version></dependency>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka-tools</artifactId><version>$version</version></dependency>
  </dependencies>
</project>
EOF
  krb_line "kafka-local: resolving Apache Kafka $version jars with Maven into $home/libs" \
    "kafka-local: Maven으로 Apache Kafka $version의 jar를 받는 중 ($home/libs)"
  rm -rf "$home/libs.tmp"
  if ! mvn -q -B -f "$home/pom.xml" dependency:copy-dependencies \
      -DincludeScope=runtime -DoutputDirectory="$home/libs.tmp" >"$home/mvn.log" 2>&1; then
    tail -n 20 "$home/mvn.log" >&2
    die "Maven could not resolve org.apache.kafka:kafka_2.13:$version (full output: $home/mvn.log)"
  fi
  mv "$home/libs.tmp" "$home/libs"
}

# write_config: the server.properties of the node `node` last set.
write_config() {
  local voters="" i min_isr=1 bind=localhost protocol=PLAINTEXT
  [ -z "$advertise" ] || bind=0.0.0.0
  [ -z "$room" ] || protocol=SASL_PLAINTEXT
  for i in $(seq 1 "$nodes"); do
    voters+="${voters:+,}$i@localhost:$((port + 3 * (i - 1) + 2))"
  done
  [ "$nodes" -gt 1 ] && min_isr=2
  mkdir -p "$dir"
  cat >"$config" <<EOF
# Written by scripts/kafka-local.sh: compose.yaml's environment as properties.
node.id=$id
process.roles=broker,controller
listeners=PLAINTEXT://localhost:$broker_port,CONTROLLER://localhost:$controller_port,HOST://$bind:$host_port
advertised.listeners=PLAINTEXT://localhost:$broker_port,HOST://${advertise:-localhost}:$host_port
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:$protocol,PLAINTEXT:$protocol,HOST:$protocol
controller.quorum.voters=$voters
offsets.topic.replication.factor=$nodes
transaction.state.log.replication.factor=$nodes
transaction.state.log.min.isr=$min_isr
min.insync.replicas=$min_isr
# The apache/kafka image's defaults that the environment above does not name.
group.initial.rebalance.delay.ms=0
share.coordinator.state.topic.replication.factor=$nodes
share.coordinator.state.topic.min.isr=$min_isr
num.partitions=1
# Lab 8's share groups may lock a record for 1 s and more (Kafka's floor is 15 s), so that a
# slow record outlives its lock in seconds, not minutes; and may notice a dead member after 6 s
# (Kafka's floor is 45 s; 6 s is a classic group's), heartbeating every second (floor 5 s).
group.share.min.record.lock.duration.ms=1000
group.share.min.session.timeout.ms=6000
group.share.min.heartbeat.interval.ms=1000
log.dirs=$data
EOF
  [ -z "$room" ] || write_room_config
  [ "$nodes" = 1 ] || cat >>"$config" <<EOF
# Fast failure detection for the fault trials (see the head of kafka-local.sh).
broker.session.timeout.ms=3000
broker.heartbeat.interval.ms=500
group.min.session.timeout.ms=1000
# The same for KIP-848's consumer groups, whose session timeout and heartbeat the broker sets
# (Kafka's floors are 45 s and 5 s): 3 s and 500 ms, what lab 7's classic workers ask for.
group.consumer.min.session.timeout.ms=1000
group.consumer.session.timeout.ms=3000
group.consumer.min.heartbeat.interval.ms=500
group.consumer.heartbeat.interval.ms=500
# Topics made without a replication factor (krb-effects init's output topic) survive a node.
default.replication.factor=3
EOF
}

# write_room_config: a room's logins and authorizer, after the settings above.
write_room_config() {
  local password jaas
  [ -s "$room/admin.password" ] || die "no $room/admin.password: start a room with scripts/room.sh start"
  password=$(cat "$room/admin.password")
  jaas="org.apache.kafka.common.security.plain.PlainLoginModule required username=\"admin\" password=\"$password\" user_admin=\"$password\";"
  # The password is in it: only its owner reads it.
  chmod 600 "$config"
  cat >>"$config" <<EOF
# A workshop room (scripts/room.sh): SCRAM-SHA-512 on the room's listener; the teacher's
# listener (the inter-broker one, localhost only) and the controllers' speak SASL/PLAIN as admin.
sasl.mechanism.controller.protocol=PLAIN
sasl.mechanism.inter.broker.protocol=PLAIN
listener.name.controller.sasl.enabled.mechanisms=PLAIN
listener.name.controller.plain.sasl.jaas.config=$jaas
listener.name.plaintext.sasl.enabled.mechanisms=PLAIN
listener.name.plaintext.plain.sasl.jaas.config=$jaas
listener.name.host.sasl.enabled.mechanisms=SCRAM-SHA-512
listener.name.host.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer
allow.everyone.if.no.acl.found=false
super.users=User:admin
EOF
}

running() { [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null; }

run_class() {
  java -cp "$home/libs/*" -Dlog4j2.configurationFile="$repo/scripts/log4j2.properties" "$@"
}

# fast_start: sets `fast`, the JVM options that shorten the start-up of the node `node` last
# set, which lab 7 repeats under load (measured idle: 5 s, 2-3 s with both):
# - Kafka's classes come from a class-data archive: node 1 dumps the classes it loaded when it
#   first exits cleanly, and the dump is used once a JVM has checked that it can map it (a JVM
#   that cannot, after a Java update, goes on without it);
# - a cluster's nodes compile with C1 only: less compiling on two cores shared by three nodes
#   that restart, and a test cluster's load needs no C2 code. The single broker keeps both.
fast_start() {
  local archive=$home/kafka-classes.jsa
  if [ ! -f "$archive" ] && [ -f "$archive.new" ] &&
    java -Xshare:on -XX:SharedArchiveFile="$archive.new" -cp "$home/libs/*" -version >/dev/null 2>&1; then
    # The nodes of a cluster start at once, and each may find the dump: the first one moves it.
    mv "$archive.new" "$archive" 2>/dev/null || true
  fi
  fast=()
  if [ -f "$archive" ]; then
    fast+=(-XX:SharedArchiveFile="$archive")
  elif [ "$id" = 1 ]; then
    rm -f "$archive.new"
    fast+=(-XX:ArchiveClassesAtExit="$archive.new")
  fi
  [ "$nodes" = 1 ] || fast+=(-XX:TieredStopAtLevel=1)
}

# launch: starts the node `node` last set, whose storage is formatted, and waits until it answers.
launch() {
  touch "$log"
  local from i fast
  from=$(($(wc -c <"$log") + 1))
  fast_start
  nohup java -Xmx512m -Xms256m -server "${fast[@]}" -XX:+UseG1GC -XX:MaxGCPauseMillis=20 \
    -XX:InitiatingHeapOccupancyPercent=35 -XX:+ExplicitGCInvokesConcurrent -Djava.awt.headless=true \
    -Dlog4j2.configurationFile="$repo/scripts/log4j2.properties" -Dkrb.log.level=INFO \
    -cp "$home/libs/*" kafka.Kafka "$config" >>"$log" 2>&1 </dev/null &
  echo $! >"$pidfile"
  for i in $(seq 1 120); do
    running || die "node $id exited during start-up; see $log"
    # grep reads to the end (no -q): quitting early would fail the pipe, under pipefail, on a
    # log that tail is still writing (a data folder with many topics logs a lot after this line).
    if answers "localhost:$host_port" && tail -c "+$from" "$log" | grep 'Kafka Server started' >/dev/null; then
      krb_line "kafka-local: node $id ready on localhost:$host_port after $((i / 2)) s" \
        "kafka-local: 노드 $id 준비됨, localhost:$host_port ($((i / 2))초)"
      return 0
    fi
    sleep 0.5
  done
  die "node $id did not answer on localhost:$host_port within 60 s; see $log"
}

start() {
  case $nodes in 1 | 3) ;; *) die "--nodes takes 1 or 3, not $nodes" ;; esac
  local before i cluster=""
  before=$(cat "$started_nodes" 2>/dev/null || true)
  [ -z "$before" ] || [ "$before" = "$nodes" ] ||
    die "a Kafka of $before node(s) runs from $state: stop it first (kafka-local.sh stop)"
  node 1
  if running; then
    krb_line "kafka-local: Kafka $version already running (pid $(cat "$pidfile")) on localhost:$port" \
      "kafka-local: Kafka $version이 이미 돌고 있음 (pid $(cat "$pidfile"), localhost:$port)"
    return 0
  fi
  answers "localhost:$port" && die "$(krb_say "something else already listens on localhost:$port; stop it or set KRB_BROKER_PORT" \
    "localhost:$port에서 이미 다른 것이 응답합니다. 그것을 멈추거나 KRB_BROKER_PORT로 다른 포트를 고르세요")"
  need_java
  jars
  mkdir -p "$repo/logs"
  for i in $(seq 1 "$nodes"); do
    node "$i"
    write_config
    touch "$log"
    [ "$fresh" = 0 ] || rm -rf "$data"
    if [ ! -f "$data/meta.properties" ]; then
      [ -n "$cluster" ] || cluster=$(run_class kafka.tools.StorageTool random-uuid)
      krb_line "kafka-local: formatting storage in $data" "kafka-local: 저장소 포맷: $data"
      run_class kafka.tools.StorageTool format --ignore-formatted -t "$cluster" -c "$config" >>"$log" 2>&1 ||
        die "formatting storage failed; see $log"
    fi
  done
  echo "$nodes" >"$started_nodes"
  local logs=logs/$logname.log
  [ "$nodes" = 1 ] || logs="logs/$logname-N.log for node N"
  krb_line "kafka-local: starting Apache Kafka $version, $nodes node(s), on ${advertise:-localhost}:$port (log: $logs)" \
    "kafka-local: Apache Kafka $version 시작, 노드 ${nodes}개, ${advertise:-localhost}:$port (로그: $logs)"
  # A quorum of three elects no leader while one voter is up: start every node, then wait.
  local pids=() failed=0
  for i in $(seq 1 "$nodes"); do
    node "$i"
    launch &
    pids+=($!)
  done
  for i in "${pids[@]}"; do wait "$i" || failed=1; done
  [ "$failed" = 0 ] || { stop; die "Kafka did not start"; }
}

# stop: stops every node cleanly, all at once (a node stopping last, without a quorum, would
# wait for one), killing any still running after 30 s.
stop() {
  local i pid pids=()
  for i in $(seq 1 "$nodes"); do
    node "$i"
    if running; then
      pid=$(cat "$pidfile")
      kill "$pid"
      pids+=("$pid")
    fi
    rm -f "$pidfile"
  done
  rm -f "$started_nodes"
  [ ${#pids[@]} -gt 0 ] || { krb_line "kafka-local: not running" "kafka-local: 돌고 있지 않음"; return 0; }
  for pid in "${pids[@]}"; do wait_exit "$pid"; done
  krb_line "kafka-local: stopped" "kafka-local: 정지함"
}

# wait_exit PID: waits for a node sent SIGTERM to exit, killing it after 30 s.
wait_exit() {
  local waited=0
  while kill -0 "$1" 2>/dev/null && [ "$waited" -lt 60 ]; do
    sleep 0.5
    waited=$((waited + 1))
  done
  if kill -0 "$1" 2>/dev/null; then
    kill -9 "$1" 2>/dev/null || true
    krb_line "kafka-local: pid $1 killed after 30 s" "kafka-local: 30초 안에 끝나지 않은 pid $1 강제 종료"
  fi
}

status() {
  local i up=0
  for i in $(seq 1 "$nodes"); do
    node "$i"
    ! running || up=$((up + 1))
  done
  if [ "$up" = 0 ]; then
    krb_line "kafka-local: not running" "kafka-local: 돌고 있지 않음"
    return 1
  fi
  krb_line "kafka-local: running, $up of $nodes node(s), from localhost:$port" \
    "kafka-local: 실행 중, 노드 ${nodes}개 중 ${up}개 (localhost:$port)"
}

# bootstrap [HOST [OFFSET]]: every node's host listener at HOST (default localhost) as a
# bootstrap list; with OFFSET 1, its inter-broker listener.
bootstrap() {
  local i list="" host=${1:-localhost} offset=${2:-0}
  for i in $(seq 1 "$nodes"); do list+="${list:+,}$host:$((port + 3 * (i - 1) + offset))"; done
  echo "$list"
}

tool() { jars; run_class "$@"; }

# teacher FILE: a room's admin login file (admin.conf, admin.properties), which room.sh start
# writes once the broker answers; dies without it.
teacher() {
  [ -s "$room/$1" ] || die "no $room/$1: a room's tools ask as the teacher, whose login scripts/room.sh start writes"
  echo "$room/$1"
}

# coordinator GROUP: the node id Kafka's ConsumerGroupCommand (the admin API's describeConsumerGroups)
# gives as GROUP's coordinator: its --state line reads `GROUP  localhost:9484  (2)  range  Stable  2`.
# In a room it asks as the teacher, on the teacher's listener: the room's lets nobody in without
# a participant's login, nor shows a participant's group to another.
coordinator() {
  local group=${1:?usage: kafka-local.sh coordinator GROUP} id login at=(--bootstrap-server "$(bootstrap)")
  if [ -n "$room" ]; then
    login=$(teacher admin.properties)
    at=(--bootstrap-server "$(bootstrap localhost 1)" --command-config "$login")
  fi
  id=$(tool org.apache.kafka.tools.consumer.group.ConsumerGroupCommand "${at[@]}" \
    --describe --group "$group" --state | awk -v g="$group" '$1 == g { gsub(/[()]/, "", $3); print $3 }')
  [[ $id =~ ^[0-9]+$ ]] || die "no coordinator found for group $group"
  echo "$id"
}

# insync: waits until every partition has a leader and all its replicas in sync, as krb-trial
# reads it from the cluster's metadata (asking Kafka's topic tool would start a JVM each time,
# beside three nodes recovering). In a room, as the teacher, who sees every topic; elsewhere with
# no login file (a participant's KRB_CONFIG is for a room's listener, not this broker's).
insync() {
  local bin config="" at
  bin=$(krb_bin "$repo")
  [ -x "$bin/krb-trial" ] || die "insync asks krb-trial, which $bin lacks: build the tools first (cargo build --release)"
  at=$(bootstrap)
  [ -z "$room" ] || { at=$(bootstrap localhost 1); config=$(teacher admin.conf); }
  KRB_CONFIG=$config "$bin/krb-trial" insync --bootstrap "$at" --timeout 120 || die "partitions out of sync after 120 s"
}

# stop_node: stops the node `node` last set cleanly (SIGTERM).
stop_node() {
  local pid
  pid=$(cat "$pidfile")
  kill "$pid"
  wait_exit "$pid"
  rm -f "$pidfile"
}

# roll: a rolling restart, as an operator upgrades a cluster: one node at a time, each only once
# every partition is in sync again, so that min.insync.replicas=2 is never broken.
roll() {
  local i
  for i in $(seq 1 "$nodes"); do
    node "$i"
    running || die "node $i is not running"
    stop_node
    launch
    insync
  done
  krb_line "kafka-local: every node restarted" "kafka-local: 모든 노드를 다시 띄움"
}

# one_node N: sets node N of the running cluster, or says which numbers there are.
one_node() {
  { [[ ${1:-} =~ ^[0-9]+$ ]] && [ "$1" -ge 1 ] && [ "$1" -le "$nodes" ]; } ||
    die "name a node from 1 to $nodes, e.g. kafka-local.sh kill $nodes"
  node "$1"
}

case "${1:-}" in
  start)
    shift
    while [ $# -gt 0 ]; do
      case $1 in
        --nodes) nodes=${2:?--nodes takes 1 or 3}; shift 2 ;;
        --fresh) fresh=1; shift ;;
        *) die "start takes --nodes 1|3 and --fresh, not $1" ;;
      esac
    done
    start ;;
  stop) stop ;;
  status) status ;;
  kill)
    one_node "${2:-}"
    running || die "node $id is not running"
    kill -9 "$(cat "$pidfile")"
    rm -f "$pidfile"
    krb_line "kafka-local: node $id killed" "kafka-local: 노드 $id 강제 종료" ;;
  restart)
    one_node "${2:-}"
    ! running || die "node $id is running: kill it first"
    launch ;;
  roll) roll ;;
  insync) insync ;;
  coordinator) coordinator "${2:-}" ;;
  bootstrap)
    case ${2:-host} in
      host) bootstrap "${advertise:-localhost}" ;;
      inner) bootstrap localhost 1 ;;
      *) die "bootstrap takes host or inner, not $2" ;;
    esac ;;
  # Into a file of its own: a running node's stays as it started.
  config) one_node "${2:-}"; config=$(mktemp); write_config; cat "$config"; rm -f "$config" ;;
  jars) need_java; jars ;;
  java) shift; [ $# -ge 1 ] || die "usage: kafka-local.sh java CLASS [ARGS...]"; tool "$@" ;;
  *) echo "usage: kafka-local.sh start [--nodes 1|3] [--fresh]|stop|status|kill N|restart N|roll|insync|coordinator GROUP|bootstrap [host|inner]|config N|jars|java CLASS [ARGS...]" >&2; exit 2 ;;
esac
