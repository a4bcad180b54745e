#!/usr/bin/env bash
# kafka-local.sh start|stop|status|jars|java CLASS [ARGS...]
#
# Runs the same Apache Kafka as compose.yaml (KRaft combined mode, one node, host listener
# localhost:9481) without Docker: Maven resolves the release's jars into a cache and the
# machine's Java 17+ runs them. The broker's own log goes to logs/kafka.log.
#
#   start   resolve the jars if needed, format storage once, start, wait until it answers
#   stop    stop the broker started by `start` and wait for it to exit
#   status  say whether it runs (exit 0) or not (exit 1)
#   jars    only resolve the jars (what CI caches)
#   java    run a class from the same jars, e.g. the consumer-groups tool:
#           kafka-local.sh java org.apache.kafka.tools.consumer.group.ConsumerGroupCommand ...
#
# Environment: KRB_KAFKA_VERSION (default 4.3.1), KRB_KAFKA_HOME (the cache, default
# ~/.cache/krb/kafka-VERSION), KRB_BROKER_PORT (default 9481).
set -euo pipefail

version=${KRB_KAFKA_VERSION:-4.3.1}
home=${KRB_KAFKA_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/krb/kafka-$version}
port=${KRB_BROKER_PORT:-9481}
# The image's PLAINTEXT (inter-broker) and CONTROLLER listeners, moved next to the host port so
# they do not collide with a Kafka already using 9092/9093 on this machine.
broker_port=$((port + 1))
controller_port=$((port + 2))
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=env.sh
source "$repo/scripts/env.sh"
log=$repo/logs/kafka.log
pidfile=$home/kafka.pid
data=$home/data

die() { echo "kafka-local: $*" >&2; exit 1; }

need_java() {
  command -v java >/dev/null || die "java not found: install a JDK 17 or newer (Debian: openjdk-17-jdk-headless)"
  local major
  major=$(java_major)
  [ "$major" -ge 17 ] 2>/dev/null || die "Kafka $version needs Java 17 or newer, found ${major:-unknown}"
}

jars() {
  [ -f "$home/libs/kafka_2.13-$version.jar" ] && return 0
  command -v mvn >/dev/null || die "mvn not found: install Maven (Debian: maven) to resolve Kafka's jars"
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
  echo "kafka-local: resolving Apache Kafka $version jars with Maven into $home/libs"
  rm -rf "$home/libs.tmp"
  if ! mvn -q -B -f "$home/pom.xml" dependency:copy-dependencies \
      -DincludeScope=runtime -DoutputDirectory="$home/libs.tmp" >"$home/mvn.log" 2>&1; then
    tail -n 20 "$home/mvn.log" >&2
    die "Maven could not resolve org.apache.kafka:kafka_2.13:$version (full output: $home/mvn.log)"
  fi
  mv "$home/libs.tmp" "$home/libs"
}

write_config() {
  cat >"$home/server.properties" <<EOF
# Written by scripts/kafka-local.sh: compose.yaml's environment as properties.
node.id=1
process.roles=broker,controller
listeners=PLAINTEXT://localhost:$broker_port,CONTROLLER://localhost:$controller_port,HOST://localhost:$port
advertised.listeners=PLAINTEXT://localhost:$broker_port,HOST://localhost:$port
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT,HOST:PLAINTEXT
controller.quorum.voters=1@localhost:$controller_port
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
# The apache/kafka image's defaults that the environment above does not name.
group.initial.rebalance.delay.ms=0
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
num.partitions=1
log.dirs=$data
EOF
  # The broker logs at INFO to its log file; tools run by `java` only warn, on stderr.
  local level target
  for level in INFO WARN; do
    target=SYSTEM_OUT
    [ "$level" = WARN ] && target=SYSTEM_ERR
    cat >"$home/log4j2-$level.properties" <<EOF
status = warn
appender.out.type = Console
appender.out.name = OUT
appender.out.target = $target
appender.out.layout.type = PatternLayout
appender.out.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = $level
rootLogger.appenderRef.out.ref = OUT
EOF
  done
}

running() { [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null; }

run_class() {
  java -cp "$home/libs/*" -Dlog4j2.configurationFile="$home/log4j2-WARN.properties" "$@"
}

start() {
  if running; then
    echo "kafka-local: Kafka $version already running (pid $(cat "$pidfile")) on localhost:$port"
    return 0
  fi
  answers "localhost:$port" && die "something else already listens on localhost:$port; stop it or set KRB_BROKER_PORT"
  need_java
  jars
  write_config
  mkdir -p "$repo/logs"
  touch "$log"
  if [ ! -f "$data/meta.properties" ]; then
    echo "kafka-local: formatting storage in $data"
    run_class kafka.tools.StorageTool format --ignore-formatted \
      -t "$(run_class kafka.tools.StorageTool random-uuid)" -c "$home/server.properties" >>"$log" 2>&1 \
      || die "formatting storage failed; see $log"
  fi
  echo "kafka-local: starting Apache Kafka $version on localhost:$port (log: logs/kafka.log)"
  local from
  from=$(($(wc -c <"$log") + 1))
  nohup java -Xmx512m -Xms256m -server -XX:+UseG1GC -XX:MaxGCPauseMillis=20 \
    -XX:InitiatingHeapOccupancyPercent=35 -XX:+ExplicitGCInvokesConcurrent -Djava.awt.headless=true \
    -Dlog4j2.configurationFile="$home/log4j2-INFO.properties" -cp "$home/libs/*" \
    kafka.Kafka "$home/server.properties" >>"$log" 2>&1 </dev/null &
  echo $! >"$pidfile"
  local i
  for i in $(seq 1 120); do
    running || die "the broker exited during start-up; see $log"
    # grep reads to the end (no -q): quitting early would fail the pipe, under pipefail, on a
    # log that tail is still writing (a data folder with many topics logs a lot after this line).
    if answers "localhost:$port" && tail -c "+$from" "$log" | grep 'Kafka Server started' >/dev/null; then
      echo "kafka-local: ready after $((i / 2)) s"
      return 0
    fi
    sleep 0.5
  done
  die "the broker did not answer on localhost:$port within 60 s; see $log"
}

stop() {
  if ! running; then
    echo "kafka-local: not running"
    rm -f "$pidfile"
    return 0
  fi
  local pid i
  pid=$(cat "$pidfile")
  kill "$pid"
  for i in $(seq 1 60); do
    kill -0 "$pid" 2>/dev/null || { rm -f "$pidfile"; echo "kafka-local: stopped"; return 0; }
    sleep 0.5
  done
  kill -9 "$pid" 2>/dev/null || true
  rm -f "$pidfile"
  echo "kafka-local: stopped (killed after 30 s)"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status)
    if running; then echo "kafka-local: running (pid $(cat "$pidfile")) on localhost:$port"; else echo "kafka-local: not running"; exit 1; fi ;;
  jars) need_java; jars ;;
  java) shift; [ $# -ge 1 ] || die "usage: kafka-local.sh java CLASS [ARGS...]"; jars; write_config; run_class "$@" ;;
  *) echo "usage: kafka-local.sh start|stop|status|jars|java CLASS [ARGS...]" >&2; exit 2 ;;
esac
