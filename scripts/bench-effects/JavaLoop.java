// JavaLoop: krb-worker's loop on Kafka's own Java client (kafka-clients), the named baseline of
// scripts/bench-effects.sh, which compiles it with scripts/java/KrbLines.java (javac, into
// target/bench-java) and runs it on the same topic and broker as krb-worker. A benchmark peer,
// not a tool of the lab.
//
//   java -cp target/bench-java:KAFKA_HOME/libs/* JavaLoop NAME GROUP TOPIC [--count N]
//       [--commit-every N] [--commit-interval-ms MS] [--effect none|kafka-eos --db kafka:OUTPUT]
//
// It does what krb-worker --delay 0 does, step by step (crates/krb-worker/src/consume.rs):
// a KafkaConsumer (enable.auto.commit=false, auto.offset.reset=earliest) subscribes to TOPIC in
// GROUP and polls; each record is processed at once and written as one line of krb's log
// grammar (crates/krb-log/src/logline.rs: `HH:MM:SS.mmm NAME pP offset O`, local time),
// gathered in 64 KiB blocks (KrbLines) and written to stdout before every commit, whenever a
// poll finds nothing waiting, when a block is full and at the end, as krb-worker's lines.rs
// does. Every --commit-every records (default 100) and/or once --commit-interval-ms has passed
// since the last commit (alone: by time only), it commits the next positions that advanced:
//   --effect none       commitSync of those positions;
//   --effect kafka-eos  each record is copied to OUTPUT by a transactional KafkaProducer (key
//                       NAME, value `TOPIC pP offset O`, as crates/krb-effect/src/kafka.rs's
//                       `value`), and a commit is sendOffsetsToTransaction(positions,
//                       consumer.groupMetadata()) then commitTransaction(); the consumer reads
//                       read_committed (librdkafka's default, which krb-worker keeps). As
//                       krb-worker, a transaction open for 5 s is committed whatever the count,
//                       an abortable error aborts it and goes back to the committed positions,
//                       revoked partitions commit it and lost ones abort it.
// Every other setting is Kafka's default: this is the baseline, not tuned.
//
// It stops once it has processed --count records (committing what is left, then leaving the
// group; exit 0) or on SIGTERM/SIGINT (leaving the group); its lines are written either way.
// KRB_BOOTSTRAP names the broker (default localhost:9481) and KRB_NS the namespace, as for the
// krb tools. Exit status 1 on an error, 2 on a command line it cannot run.

import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.serialization.StringSerializer;

public final class JavaLoop {
    /** How long a transaction stays open at most (krb-worker's eos::OPEN_AT_MOST). */
    private static final long OPEN_AT_MOST_NS = TimeUnit.SECONDS.toNanos(5);

    // The command line.
    private String name;
    private String group;
    private String topic;
    private long count;
    private Long every;
    private Long intervalNs;
    private boolean eos;
    private String output;
    private String bootstrap;

    /** Its lines, gathered in blocks. */
    private KrbLines lines;
    private KafkaConsumer<byte[], byte[]> consumer;
    private KafkaProducer<String, String> producer;
    private final KrbLines.Positions positions = new KrbLines.Positions();
    /** When the open transaction began (System.nanoTime), or -1 when none is open. */
    private long opened = -1;
    /** What was processed since the last commit, and when it was (System.nanoTime). */
    private long sinceCount;
    private long sinceAt;
    private volatile boolean stop;
    /** An error met inside a rebalance callback, for the loop to end on. */
    private RuntimeException failed;
    /** A transaction was aborted and the consumer sought back: the records in hand are stale. */
    private boolean rewound;
    /** Records processed, and of them since the last commit that succeeded (an abort undoes them). */
    private long total;
    private long uncommittedCount;

    public static void main(String[] argv) {
        JavaLoop loop = new JavaLoop();
        try {
            loop.parse(argv);
        } catch (KrbLines.Usage e) {
            KrbLines.usage("JavaLoop", e, "NAME GROUP TOPIC [--count N] [--commit-every N] "
                    + "[--commit-interval-ms MS] [--effect none|kafka-eos] [--db kafka:OUTPUT]");
        }
        System.exit(KrbLines.run(loop::work, () -> loop.stop = true, () -> loop.consumer, loop::error,
                loop::close));
    }

    // Options parse reads into the settings above.
    private Long interval;
    private String effect = "none";
    private String db;

    private void parse(String[] argv) throws KrbLines.Usage {
        String[] command = KrbLines.command(argv, (a, v) -> {
            switch (a) {
                case "--count": count = KrbLines.whole(a, v, 1); break;
                case "--commit-every": every = KrbLines.whole(a, v, 1); break;
                case "--commit-interval-ms": interval = KrbLines.whole(a, v, 1); break;
                case "--effect": effect = v; break;
                case "--db": db = v; break;
                default: throw new KrbLines.Usage("unknown option " + a);
            }
        });
        name = command[0];
        // krb-worker's cadence: the count given, or none when an interval is given alone, or 100.
        if (every == null && interval == null) {
            every = 100L;
        }
        intervalNs = interval == null ? null : TimeUnit.MILLISECONDS.toNanos(interval);
        switch (effect) {
            case "none":
                if (db != null) {
                    throw new KrbLines.Usage("--effect none takes no --db");
                }
                break;
            case "kafka-eos":
                if (db == null || !db.startsWith("kafka:") || db.length() == "kafka:".length()) {
                    throw new KrbLines.Usage("--effect kafka-eos needs --db kafka:TOPIC, the output topic");
                }
                eos = true;
                output = KrbLines.ns(db.substring("kafka:".length()));
                break;
            default:
                throw new KrbLines.Usage("--effect takes none or kafka-eos, not " + effect);
        }
        group = command[1];
        topic = command[2];
        bootstrap = KrbLines.bootstrap();
        lines = new KrbLines(name, false);
    }

    private void work() {
        start();
        loop();
    }

    private int error(Exception e) {
        lines.flush();
        System.err.println(name + ": " + e);
        return 1;
    }

    private void start() {
        Properties c = KrbLines.consumer(bootstrap, name, group);
        if (eos) {
            c.put("isolation.level", "read_committed");
        }
        if (eos) {
            Properties p = new Properties();
            p.put("bootstrap.servers", bootstrap);
            p.put("client.id", name + "-eos");
            // Unique per run: a run never fences another's producer, nor waits on its state.
            p.put("transactional.id", "krb-java-" + group + "-" + name + "-" + System.currentTimeMillis());
            p.put("key.serializer", StringSerializer.class.getName());
            p.put("value.serializer", StringSerializer.class.getName());
            producer = new KafkaProducer<>(p);
            producer.initTransactions();
        }
        consumer = new KafkaConsumer<>(c);
        lines.line("consumes " + topic + " in group " + group);
        KrbLines.subscribe(consumer, eos ? List.of(topic, output) : List.of(topic), bootstrap, new Rebalance());
        sinceAt = System.nanoTime();
    }

    private void loop() {
        while (!stop) {
            ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ZERO);
            if (records.isEmpty()) {
                // Nothing is waiting: the lines go out before the loop waits.
                lines.flush();
                if (due(System.nanoTime())) {
                    commit();
                }
                records = consumer.poll(KrbLines.POLL);
            }
            takeFailure();
            rewound = false;
            for (ConsumerRecord<byte[], byte[]> r : records) {
                if (stop) {
                    return;
                }
                process(r);
                if (rewound) {
                    // Its transaction was aborted: the rest of this batch comes again.
                    break;
                }
                total++;
                uncommittedCount++;
                sinceCount++;
                if (due(System.nanoTime())) {
                    commit();
                }
                takeFailure();
                if (rewound) {
                    break;
                }
                if (count > 0 && total >= count) {
                    commit();
                    takeFailure();
                    return;
                }
            }
        }
    }

    private void takeFailure() {
        if (failed != null) {
            RuntimeException e = failed;
            failed = null;
            throw e;
        }
    }

    /** Whether a commit is due: the count, the interval, or a transaction open too long. */
    private boolean due(long now) {
        boolean byCount = every != null && sinceCount >= every;
        boolean byTime = intervalNs != null && sinceCount > 0 && now - sinceAt >= intervalNs;
        boolean txn = opened >= 0 && now - opened >= OPEN_AT_MOST_NS;
        return byCount || byTime || txn;
    }

    /** Processes one record: its effect, its line (none when its transaction was aborted). */
    private void process(ConsumerRecord<byte[], byte[]> r) {
        int partition = r.partition();
        long offset = r.offset();
        if (eos) {
            try {
                begin();
                producer.send(new ProducerRecord<>(output, name, topic + " p" + partition + " offset " + offset));
            } catch (KafkaException e) {
                aborted(e, List.of());
                return;
            }
        }
        lines.processed(partition, offset);
        positions.processed(partition, offset);
    }

    private void begin() {
        if (opened < 0) {
            producer.beginTransaction();
            opened = System.nanoTime();
        }
    }

    /** Commits the advanced positions (or, kafka-eos, the open transaction with them) and logs it. */
    private void commit() {
        commit(List.of());
    }

    private void commit(Collection<Integer> leaving) {
        // Every line of the work a commit covers is written before the commit.
        lines.flush();
        sinceCount = 0;
        sinceAt = System.nanoTime();
        Map<Integer, Long> pending = positions.advanced();
        if (pending.isEmpty() && opened < 0) {
            return;
        }
        if (!eos) {
            if (!lines.commitSync(consumer, topic, pending)) {
                return;
            }
        } else {
            try {
                begin();
                producer.sendOffsetsToTransaction(KrbLines.offsets(topic, pending), consumer.groupMetadata());
                producer.commitTransaction();
                opened = -1;
            } catch (KafkaException e) {
                aborted(e, leaving);
                return;
            }
        }
        positions.committed(pending);
        uncommittedCount = 0;
        lines.line(KrbLines.commit(pending));
    }

    /**
     * A transactional call failed: an error the producer cannot go on after ends the loop; any
     * other aborts the transaction, and the loop goes back to its committed positions (those of
     * partitions `leaving` are their next owner's), as krb-worker and Kafka's own
     * exactly-once example do.
     */
    private void aborted(KafkaException e, Collection<Integer> leaving) {
        if (e instanceof ProducerFencedException || e instanceof OutOfOrderSequenceException
                || e instanceof AuthorizationException || e instanceof UnsupportedVersionException) {
            throw e;
        }
        producer.abortTransaction();
        opened = -1;
        rewound = true;
        total -= uncommittedCount;
        uncommittedCount = 0;
        lines.line("transaction aborted: " + KrbLines.rendered(e));
        positions.rewind();
        Set<TopicPartition> owned = new HashSet<>(consumer.assignment());
        owned.removeIf(tp -> leaving.contains(tp.partition()));
        if (owned.isEmpty()) {
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> at = consumer.committed(owned, KrbLines.REACH);
        for (TopicPartition tp : owned) {
            OffsetAndMetadata o = at.get(tp);
            if (o == null) {
                consumer.seekToBeginning(List.of(tp));
            } else {
                consumer.seek(tp, o.offset());
            }
        }
    }

    /** The rebalance callbacks, as krb-worker's rebalance.rs (without --revoke-commit). */
    private final class Rebalance extends KrbLines.Rebalance {
        Rebalance() {
            super(lines);
        }

        @Override
        void revoked(List<Integer> ps) {
            if (eos) {
                try {
                    commit(ps);
                } catch (RuntimeException e) {
                    failed = e;
                }
            }
            positions.forget(ps);
        }

        @Override
        void lost(List<Integer> ps) {
            if (eos && opened >= 0) {
                try {
                    producer.abortTransaction();
                    opened = -1;
                    lines.line("transaction aborted: KafkaError{code=_ASSIGNMENT_LOST,val=-142,str=\"Local: Assignment lost\"}");
                    positions.rewind();
                    total -= uncommittedCount;
                    uncommittedCount = 0;
                } catch (RuntimeException e) {
                    failed = e;
                }
            }
            positions.forget(ps);
        }
    }

    /** Leaves the group (the revoke callback commits an open transaction) and writes the lines. */
    private int close() {
        int status = 0;
        if (consumer != null) {
            status = KrbLines.status(consumer::close, this::error);
            if (failed != null) {
                status = error(failed);
            }
        }
        if (producer != null) {
            status = Math.max(status, KrbLines.status(producer::close, this::error));
        }
        lines.flush();
        return status;
    }
}
