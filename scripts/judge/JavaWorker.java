// JavaWorker: krb-worker's lab 2 and lab 9 worker on Kafka's own Java client (kafka-clients),
// the third engine of scripts/judge.sh and 09-deploy.sh --engine java, which compile it with
// scripts/java/KrbLines.java (javac, into target/judge-java) and run it where the labs run
// krb-worker. A peer to compare with, not a tool of the lab.
//
//   java -cp target/judge-java:KAFKA_HOME/libs/* JavaWorker NAME GROUP TOPIC [--delay S]
//       [--commit-every N] [--max-poll-ms MS] [--slow-at OFFSET] [--slow-sec S]
//       [--group-protocol classic|consumer] [--session-timeout-ms MS]
//       [--assignor range|cooperative-sticky] [--instance-id ID] [--revoke-commit]
//
// What krb-worker does with the same options (crates/krb-worker/src/consume.rs), step by step:
// a KafkaConsumer (enable.auto.commit=false, auto.offset.reset=earliest, client.id NAME)
// subscribes to TOPIC in GROUP; each record takes --delay seconds (--slow-sec for the offset
// --slow-at, announced by a `slow start` line); every --commit-every records (default 100) it
// commits the next positions with commitSync, and with --revoke-commit also those of the
// partitions revoked, in onPartitionsRevoked. max.poll.records=1: librdkafka's poll hands over
// one message, so krb-worker polls between every two messages; so does this loop, and the
// max.poll.interval.ms clock means the same in both (the time spent on one message).
//
// Its lines are krb's log grammar (crates/krb-log/src/logline.rs), written to stdout as they
// happen (KrbLines, line by line): `HH:MM:SS.mmm NAME EVENT`, local time, with EVENT one of
//   consumes TOPIC in group GROUP | pP offset O | pP offset O slow start | assigned [..] |
//   revoked [..] | lost [..] | commit pP=O | commit failed: ERROR | poll error: ERROR
// from the rebalance listener's onPartitionsAssigned, onPartitionsRevoked and onPartitionsLost
// and from the loop. ERROR is the grammar's KafkaError{code=NAME,val=N,str="..."}: NAME and N are
// Kafka's error (org.apache.kafka.common.protocol.Errors) of the first exception in the cause
// chain that maps to one, else UNKNOWN and -1 (librdkafka's name for -1, as krb-worker writes
// an error without a code); str is the exception's class (simple name) and message (KrbLines's
// rendered). The eager protocol's empty revoke before the first assignment is not logged:
// librdkafka calls nothing then.
//
// The client's own log (log4j2, the file -Dlog4j2.configurationFile names; judge.sh writes one)
// goes to stderr, into the same log file. There is no MAXPOLL line in librdkafka's form: the
// Java client's counterpart is its WARN `consumer poll timeout has expired ...` (the consumer
// protocol's HeartbeatRequestManager; the classic protocol's heartbeat thread logs `consumer
// poll timeout has expired` too), after which it leaves the group on its own; the application
// hears of it only at its next commit (an exception) or poll (onPartitionsLost).
//
// SIGTERM or SIGINT: the record in hand is finished, the loop stops, close() leaves the group
// (the revoke callback runs) and the JVM exits 0. KRB_BOOTSTRAP names the broker (default
// localhost:9481) and KRB_NS the namespace, as for the krb tools. Exit status 1 on an error, 2
// on a command line it cannot run.

import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.WakeupException;

public final class JavaWorker {
    // The command line.
    private String name;
    private String group;
    private String topic;
    private long delayMs;
    private long every = 100;
    private Integer maxPollMs;
    private Long slowAt;
    private long slowMs = 15_000;
    private String protocol;
    private Integer sessionMs;
    private String bootstrap;
    private String assignor;
    private String instanceId;
    private boolean revokeCommit;

    /** Its lines, each written as it happens: the lab reads the log while it runs. */
    private KrbLines lines;
    private KafkaConsumer<byte[], byte[]> consumer;
    private final KrbLines.Positions positions = new KrbLines.Positions();
    private long sinceCommit;
    private volatile boolean stop;

    public static void main(String[] argv) {
        JavaWorker w = new JavaWorker();
        try {
            w.parse(argv);
        } catch (KrbLines.Usage e) {
            KrbLines.usage("JavaWorker", e, "NAME GROUP TOPIC [--delay S] [--commit-every N] "
                    + "[--max-poll-ms MS] [--slow-at OFFSET] [--slow-sec S] "
                    + "[--group-protocol classic|consumer] [--session-timeout-ms MS] "
                    + "[--assignor range|cooperative-sticky] [--instance-id ID] [--revoke-commit]");
        }
        System.exit(KrbLines.run(w::work, () -> w.stop = true, () -> w.consumer, w::error,
                w::close));
    }

    private static long millis(String option, String value) throws KrbLines.Usage {
        try {
            double s = Double.parseDouble(value);
            if (s >= 0 && s < 1e9) {
                return Math.round(s * 1000);
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new KrbLines.Usage(option + " must be a number of seconds, 0 or more; got " + value);
    }

    private void parse(String[] argv) throws KrbLines.Usage {
        // The one option without a value.
        List<String> args = new java.util.ArrayList<>(List.of(argv));
        revokeCommit = args.remove("--revoke-commit");
        String[] command = KrbLines.command(args.toArray(new String[0]), (a, v) -> {
            switch (a) {
                case "--delay": delayMs = millis(a, v); break;
                case "--commit-every": every = KrbLines.whole(a, v, 1); break;
                case "--max-poll-ms": maxPollMs = (int) KrbLines.whole(a, v, 1); break;
                case "--slow-at": slowAt = KrbLines.whole(a, v, 0); break;
                case "--slow-sec": slowMs = millis(a, v); break;
                case "--session-timeout-ms": sessionMs = (int) KrbLines.whole(a, v, 1); break;
                case "--instance-id": instanceId = v; break;
                case "--assignor":
                    if (!v.equals("range") && !v.equals("cooperative-sticky")) {
                        throw new KrbLines.Usage("--assignor takes range or cooperative-sticky, not " + v);
                    }
                    assignor = v.equals("range") ? "org.apache.kafka.clients.consumer.RangeAssignor"
                            : "org.apache.kafka.clients.consumer.CooperativeStickyAssignor";
                    break;
                case "--group-protocol":
                    if (!v.equals("classic") && !v.equals("consumer")) {
                        throw new KrbLines.Usage("--group-protocol takes classic or consumer, not " + v);
                    }
                    protocol = v;
                    break;
                default: throw new KrbLines.Usage("unknown option " + a);
            }
        });
        name = command[0];
        if ("consumer".equals(protocol) && sessionMs != null) {
            throw new KrbLines.Usage("--session-timeout-ms is a classic-protocol setting; with --group-protocol "
                    + "consumer the broker's group.consumer.session.timeout.ms applies");
        }
        group = command[1];
        topic = command[2];
        bootstrap = KrbLines.bootstrap();
        lines = new KrbLines(name, true);
    }

    private void work() throws InterruptedException {
        start();
        loop();
    }

    private int error(Exception e) {
        System.err.println(name + ": " + e);
        return 1;
    }

    private void start() {
        Properties c = KrbLines.consumer(bootstrap, name, group);
        c.put("max.poll.records", "1");
        if (protocol != null) {
            c.put("group.protocol", protocol);
        }
        if (maxPollMs != null) {
            c.put("max.poll.interval.ms", maxPollMs.toString());
        }
        if (sessionMs != null) {
            c.put("session.timeout.ms", sessionMs.toString());
        }
        if (assignor != null) {
            c.put("partition.assignment.strategy", assignor);
        }
        if (instanceId != null) {
            c.put("group.instance.id", instanceId);
        }
        consumer = new KafkaConsumer<>(c);
        lines.line("consumes " + topic + " in group " + group);
        KrbLines.subscribe(consumer, List.of(topic), bootstrap, new Rebalance());
    }

    private void loop() throws InterruptedException {
        while (!stop) {
            ConsumerRecords<byte[], byte[]> records;
            try {
                records = consumer.poll(KrbLines.POLL);
            } catch (WakeupException e) {
                throw e;
            } catch (KafkaException e) {
                lines.line("poll error: " + KrbLines.rendered(e));
                continue;
            }
            for (ConsumerRecord<byte[], byte[]> r : records) {
                process(r);
                if (++sinceCommit >= every) {
                    sinceCommit = 0;
                    commit(positions.advanced());
                }
            }
        }
    }

    /** Processes one record: its time (the --slow-at one announced first), then its line. */
    private void process(ConsumerRecord<byte[], byte[]> r) throws InterruptedException {
        int p = r.partition();
        long o = r.offset();
        long took = delayMs;
        if (slowAt != null && slowAt == o) {
            lines.line("p" + p + " offset " + o + " slow start");
            took = slowMs;
        }
        Thread.sleep(took);
        lines.processed(p, o);
        positions.processed(p, o);
    }

    /** Commits PENDING synchronously, and logs it. */
    private void commit(Map<Integer, Long> pending) {
        if (pending.isEmpty()) {
            return;
        }
        if (!lines.commitSync(consumer, topic, pending)) {
            return;
        }
        positions.committed(pending);
        lines.line(KrbLines.commit(pending));
    }

    /** Leaves the group (the revoke callback runs). */
    private int close() {
        int status = consumer == null ? 0 : KrbLines.status(consumer::close, this::error);
        lines.flush();
        return status;
    }

    /** The rebalance callbacks, as krb-worker's rebalance.rs. */
    private final class Rebalance extends KrbLines.Rebalance {
        Rebalance() {
            super(lines);
        }

        /** A partition that went is its next owner's: its positions are forgotten, as krb-worker's. */
        @Override
        void revoked(List<Integer> ps) {
            if (revokeCommit) {
                Map<Integer, Long> pending = positions.advanced();
                pending.keySet().retainAll(ps);
                commit(pending);
            }
            positions.forget(ps);
        }

        @Override
        void lost(List<Integer> ps) {
            positions.forget(ps);
        }
    }
}
