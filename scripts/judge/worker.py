#!/usr/bin/env python3
# worker.py: krb-worker's lab 9 worker on the article's own stack, confluent-kafka (Python on
# librdkafka). 09-deploy.sh --engine python runs it, in the venv it makes, where it runs
# krb-worker. A peer to compare with, not a tool of the lab.
#
#   worker.py NAME GROUP TOPIC [--group-protocol classic|consumer] [--assignor ASSIGNOR]
#       [--delay S] [--commit-every N] [--revoke-commit] [--session-timeout-ms MS]
#       [--instance-id ID]
#
# As krb-worker with the same options: auto commit off, earliest; each message takes --delay
# seconds; every --commit-every messages it commits the positions that advanced (synchronous),
# and with --revoke-commit also those of the partitions revoked, in on_revoke. Its lines are
# krb's log grammar (crates/krb-log/src/logline.rs) on stdout, each as it happens:
# `HH:MM:SS.mmm NAME EVENT`, EVENT one of consumes TOPIC in group GROUP | pP offset O |
# assigned [..] | revoked [..] | lost [..] | commit pP=O ... | commit failed: ERROR |
# poll error: ERROR, ERROR as confluent-kafka writes a KafkaError, the grammar's form.
# SIGTERM: the message in hand is finished, close() leaves the group (on_revoke runs), exit 0.
# KRB_BOOTSTRAP names the broker (default localhost:9481), KRB_NS the namespace.
import argparse
import os
import signal
from datetime import datetime
from time import sleep

from confluent_kafka import Consumer, KafkaException, TopicPartition

a = argparse.ArgumentParser(prog="worker.py")
for positional in ("name", "group", "topic"):
    a.add_argument(positional)
a.add_argument("--group-protocol", choices=["classic", "consumer"], default="classic")
a.add_argument("--assignor", choices=["range", "cooperative-sticky"])
a.add_argument("--delay", type=float, default=0.0)
a.add_argument("--commit-every", type=int, default=100)
a.add_argument("--revoke-commit", action="store_true")
a.add_argument("--session-timeout-ms")
a.add_argument("--instance-id")
o = a.parse_args()
ns = os.environ.get("KRB_NS")
topic, group = (f"{ns}-{n}" if ns else n for n in (o.topic, o.group))


def line(event):
    print(datetime.now().strftime("%H:%M:%S.%f")[:-3], o.name, event, flush=True)


def listed(tps):
    return "[" + ", ".join(str(p) for p in sorted(tp.partition for tp in tps)) + "]"


positions = {}  # partition: the next offset, processed and not yet committed


def commit(only=None):
    pending = {p: n for p, n in positions.items() if only is None or p in only}
    if not pending:
        return
    try:
        consumer.commit(offsets=[TopicPartition(topic, p, n) for p, n in pending.items()],
                        asynchronous=False)
    except KafkaException as e:
        line(f"commit failed: {e.args[0]}")
        return
    for p in pending:
        positions.pop(p, None)
    line("commit " + " ".join(f"p{p}={n}" for p, n in sorted(pending.items())))


def on_revoke(_, tps):
    line("revoked " + listed(tps))
    if o.revoke_commit:
        commit({tp.partition for tp in tps})
    for tp in tps:
        positions.pop(tp.partition, None)


def on_lost(_, tps):
    line("lost " + listed(tps))
    for tp in tps:
        positions.pop(tp.partition, None)


conf = {"bootstrap.servers": os.environ.get("KRB_BOOTSTRAP", "localhost:9481"),
        "group.id": group, "client.id": o.name, "enable.auto.commit": False,
        "auto.offset.reset": "earliest", "group.protocol": o.group_protocol}
for key, value in (("partition.assignment.strategy", o.assignor),
                   ("session.timeout.ms", o.session_timeout_ms),
                   ("group.instance.id", o.instance_id)):
    if value is not None:
        conf[key] = value
consumer = Consumer(conf)
stopping = []
signal.signal(signal.SIGTERM, lambda *_: stopping.append(1))
signal.signal(signal.SIGINT, lambda *_: stopping.append(1))
line(f"consumes {topic} in group {group}")
consumer.subscribe([topic], on_assign=lambda _, tps: line("assigned " + listed(tps)),
                   on_revoke=on_revoke, on_lost=on_lost)
done = 0
while not stopping:
    m = consumer.poll(0.1)
    if m is None:
        continue
    if m.error():
        line(f"poll error: {m.error()}")
        continue
    sleep(o.delay)
    line(f"p{m.partition()} offset {m.offset()}")
    positions[m.partition()] = m.offset() + 1
    done += 1
    if done % o.commit_every == 0:
        commit()
consumer.close()
