// JavaLoop: krb-worker's loop on Kafka's own Java client (kafka-clients), the named baseline of
// scripts/bench-effects.sh, which compiles it (javac, into target/bench-java) and runs it on the
// same topic and broker as krb-worker. A benchmark peer, not a tool of the lab.
//
//   java -cp target/bench-java:KAFKA_HOME/libs/* JavaLoop NAME GROUP TOPIC [--count N]
//       [--commit-every N] [--commit-interval-ms MS] [--effect none|kafka-eos --db kafka:OUTPUT]
//
// It does what krb-worker --delay 0 does, step by step (crates/krb-worker/src/consume.rs):
// a KafkaConsumer (enable.auto.commit=false, auto.offset.reset=earliest) subscribes to TOPIC in
// GROUP and polls; each record is processed at once and written as one line of krb's log
// grammar (crates/krb-common/src/logline.rs: `HH:MM:SS.mmm NAME pP offset O`, local time),
// gathered in 64 KiB blocks and written to stdout before every commit, whenever a poll finds
// nothing waiting, when a block is full and at the end, as krb-worker's lines.rs does. Every
// --commit-every records (default 100) and/or once --commit-interval-ms has passed since the
// last commit (alone: by time only), it commits the next positions that advanced:
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

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.zone.ZoneRules;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
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
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

public final class JavaLoop {
    /** How long a poll waits for a record once none is waiting (krb-worker's POLL). */
    private static final Duration POLL = Duration.ofMillis(100);
    /** How long a transaction stays open at most (krb-worker's eos::OPEN_AT_MOST). */
    private static final long OPEN_AT_MOST_NS = TimeUnit.SECONDS.toNanos(5);
    /** How long the broker's answers to the start-up checks may take. */
    private static final Duration REACH = Duration.ofSeconds(10);

    /** A command line it cannot run. */
    private static final class Usage extends Exception {
        private static final long serialVersionUID = 1L;

        Usage(String message) {
            super(message);
        }
    }

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

    private final Lines lines = new Lines();
    private KafkaConsumer<byte[], byte[]> consumer;
    private KafkaProducer<String, String> producer;
    /** Next offset after what was processed, and last committed next offset, per partition. */
    private final Map<Integer, Long> processed = new TreeMap<>();
    private final Map<Integer, Long> committed = new TreeMap<>();
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
        } catch (Usage e) {
            System.err.println("JavaLoop: " + e.getMessage());
            System.err.println("usage: JavaLoop NAME GROUP TOPIC [--count N] [--commit-every N] "
                    + "[--commit-interval-ms MS] [--effect none|kafka-eos] [--db kafka:OUTPUT]");
            System.exit(2);
        }
        System.exit(loop.run());
    }

    private static long positive(String option, String value) throws Usage {
        try {
            long n = Long.parseLong(value);
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new Usage(option + " takes a whole number, 1 or more; got " + value);
    }

    private void parse(String[] argv) throws Usage {
        List<String> positional = new ArrayList<>();
        Long interval = null;
        String effect = "none";
        String db = null;
        for (int i = 0; i < argv.length; i++) {
            String a = argv[i];
            if (!a.startsWith("--")) {
                positional.add(a);
                continue;
            }
            if (i + 1 >= argv.length) {
                throw new Usage(a + " takes a value");
            }
            String v = argv[++i];
            switch (a) {
                case "--count": count = positive(a, v); break;
                case "--commit-every": every = positive(a, v); break;
                case "--commit-interval-ms": interval = positive(a, v); break;
                case "--effect": effect = v; break;
                case "--db": db = v; break;
                default: throw new Usage("unknown option " + a);
            }
        }
        if (positional.size() != 3) {
            throw new Usage("expected NAME GROUP TOPIC, got " + positional);
        }
        name = positional.get(0);
        if (name.isEmpty() || name.chars().anyMatch(Character::isWhitespace)) {
            throw new Usage("the worker name \"" + name + "\" must be one word: it starts every log line");
        }
        // krb-worker's cadence: the count given, or none when an interval is given alone, or 100.
        if (every == null && interval == null) {
            every = 100L;
        }
        intervalNs = interval == null ? null : TimeUnit.MILLISECONDS.toNanos(interval);
        switch (effect) {
            case "none":
                if (db != null) {
                    throw new Usage("--effect none takes no --db");
                }
                break;
            case "kafka-eos":
                if (db == null || !db.startsWith("kafka:") || db.length() == "kafka:".length()) {
                    throw new Usage("--effect kafka-eos needs --db kafka:TOPIC, the output topic");
                }
                eos = true;
                output = ns(db.substring("kafka:".length()));
                break;
            default:
                throw new Usage("--effect takes none or kafka-eos, not " + effect);
        }
        // The names Kafka knows, as every krb tool gives them (KRB_NS); the log keeps NAME.
        group = ns(positional.get(1));
        topic = ns(positional.get(2));
        String b = System.getenv("KRB_BOOTSTRAP");
        bootstrap = b == null || b.isEmpty() ? "localhost:9481" : b;
    }

    private static String ns(String name) {
        String ns = System.getenv("KRB_NS");
        return ns == null || ns.isEmpty() ? name : ns + "-" + name;
    }

    private int run() {
        CountDownLatch done = new CountDownLatch(1);
        Thread main = Thread.currentThread();
        Thread hook = new Thread(() -> {
            // SIGTERM or SIGINT: the loop stops, leaves the group and writes its lines; the
            // JVM exits once it has.
            stop = true;
            KafkaConsumer<byte[], byte[]> c = consumer;
            if (c != null) {
                try {
                    c.wakeup();
                } catch (RuntimeException e) {
                    // closed already
                }
            }
            try {
                done.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                main.interrupt();
            }
        });
        Runtime.getRuntime().addShutdownHook(hook);
        int status = 0;
        try {
            start();
            loop();
        } catch (WakeupException e) {
            if (!stop) {
                status = error(e);
            }
        } catch (RuntimeException e) {
            status = error(e);
        }
        status = Math.max(status, close());
        done.countDown();
        return status;
    }

    private int error(Exception e) {
        lines.flush();
        System.err.println(name + ": " + e);
        return 1;
    }

    private void start() {
        Properties c = new Properties();
        c.put("bootstrap.servers", bootstrap);
        c.put("client.id", name);
        c.put("group.id", group);
        c.put("enable.auto.commit", "false");
        c.put("auto.offset.reset", "earliest");
        if (eos) {
            c.put("isolation.level", "read_committed");
        }
        c.put("key.deserializer", ByteArrayDeserializer.class.getName());
        c.put("value.deserializer", ByteArrayDeserializer.class.getName());
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
        lines.line(name, "consumes " + topic + " in group " + group);
        // The topics must exist: a consumer asking for one that does not would have the broker
        // make it.
        Set<String> topics = consumer.listTopics(REACH).keySet();
        for (String t : eos ? List.of(topic, output) : List.of(topic)) {
            if (!topics.contains(t)) {
                throw new KafkaException("no topic " + t + " at " + bootstrap);
            }
        }
        consumer.subscribe(List.of(topic), new Rebalance());
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
                records = consumer.poll(POLL);
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
        lines.processed(name, partition, offset);
        processed.put(partition, offset + 1);
    }

    private void begin() {
        if (opened < 0) {
            producer.beginTransaction();
            opened = System.nanoTime();
        }
    }

    /** The positions that advanced past the last commit. */
    private Map<Integer, Long> uncommitted() {
        Map<Integer, Long> pending = new TreeMap<>();
        for (Map.Entry<Integer, Long> e : processed.entrySet()) {
            Long c = committed.get(e.getKey());
            if (c == null || e.getValue() > c) {
                pending.put(e.getKey(), e.getValue());
            }
        }
        return pending;
    }

    private Map<TopicPartition, OffsetAndMetadata> offsets(Map<Integer, Long> positions) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        positions.forEach((p, o) -> offsets.put(new TopicPartition(topic, p), new OffsetAndMetadata(o)));
        return offsets;
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
        Map<Integer, Long> pending = uncommitted();
        if (pending.isEmpty() && opened < 0) {
            return;
        }
        if (!eos) {
            try {
                consumer.commitSync(offsets(pending));
            } catch (WakeupException e) {
                throw e;
            } catch (KafkaException e) {
                lines.line(name, "commit failed: " + rendered(e));
                return;
            }
        } else {
            try {
                begin();
                producer.sendOffsetsToTransaction(offsets(pending), consumer.groupMetadata());
                producer.commitTransaction();
                opened = -1;
            } catch (KafkaException e) {
                aborted(e, leaving);
                return;
            }
        }
        committed.putAll(pending);
        uncommittedCount = 0;
        StringBuilder line = new StringBuilder("commit");
        pending.forEach((p, o) -> line.append(" p").append(p).append('=').append(o));
        lines.line(name, line.toString());
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
        lines.line(name, "transaction aborted: " + rendered(e));
        processed.clear();
        processed.putAll(committed);
        Set<TopicPartition> owned = new java.util.HashSet<>(consumer.assignment());
        owned.removeIf(tp -> leaving.contains(tp.partition()));
        if (owned.isEmpty()) {
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> at = consumer.committed(owned, REACH);
        for (TopicPartition tp : owned) {
            OffsetAndMetadata o = at.get(tp);
            if (o == null) {
                consumer.seekToBeginning(List.of(tp));
            } else {
                consumer.seek(tp, o.offset());
            }
        }
    }

    /** A Kafka error as krb's log writes one: KafkaError{code=NAME,val=CODE,str="..."}. */
    private static String rendered(Exception e) {
        Errors error = Errors.forException(e);
        return "KafkaError{code=" + error.name() + ",val=" + error.code() + ",str=\"" + e.getMessage() + "\"}";
    }

    private static String list(Collection<TopicPartition> tps) {
        List<Integer> ps = new ArrayList<>();
        for (TopicPartition tp : tps) {
            ps.add(tp.partition());
        }
        ps.sort(null);
        StringBuilder s = new StringBuilder("[");
        for (int i = 0; i < ps.size(); i++) {
            s.append(i > 0 ? ", " : "").append(ps.get(i));
        }
        return s.append(']').toString();
    }

    /** The rebalance callbacks, as krb-worker's rebalance.rs (without --revoke-commit). */
    private final class Rebalance implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> tps) {
            lines.line(name, "assigned " + list(tps));
        }

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> tps) {
            // The eager protocol revokes the empty assignment before a first join: librdkafka
            // calls nothing then.
            if (tps.isEmpty()) {
                return;
            }
            lines.line(name, "revoked " + list(tps));
            List<Integer> ps = new ArrayList<>();
            tps.forEach(tp -> ps.add(tp.partition()));
            if (eos) {
                try {
                    commit(ps);
                } catch (RuntimeException e) {
                    failed = e;
                }
            }
            forget(ps);
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> tps) {
            lines.line(name, "lost " + list(tps));
            if (eos && opened >= 0) {
                try {
                    producer.abortTransaction();
                    opened = -1;
                    lines.line(name, "transaction aborted: KafkaError{code=_ASSIGNMENT_LOST,val=-142,str=\"Local: Assignment lost\"}");
                    processed.clear();
                    processed.putAll(committed);
                    total -= uncommittedCount;
                    uncommittedCount = 0;
                } catch (RuntimeException e) {
                    failed = e;
                }
            }
            List<Integer> ps = new ArrayList<>();
            tps.forEach(tp -> ps.add(tp.partition()));
            forget(ps);
        }

        private void forget(List<Integer> ps) {
            for (Integer p : ps) {
                processed.remove(p);
                committed.remove(p);
            }
        }
    }

    /** Leaves the group (the revoke callback commits an open transaction) and writes the lines. */
    private int close() {
        int status = 0;
        if (consumer != null) {
            try {
                consumer.close();
            } catch (RuntimeException e) {
                status = error(e);
            }
            if (failed != null) {
                status = error(failed);
            }
        }
        if (producer != null) {
            try {
                producer.close();
            } catch (RuntimeException e) {
                status = error(e);
            }
        }
        lines.flush();
        return status;
    }

    /** The loop's log lines, gathered in blocks and written whole to stdout, as krb-worker's lines.rs. */
    private static final class Lines {
        /** How many bytes of lines a block holds before it is written. */
        private static final int BLOCK = 64 << 10;
        private static final ZoneRules ZONE = ZoneId.systemDefault().getRules();

        private final FileOutputStream out = new FileOutputStream(FileDescriptor.out);
        private byte[] buf = new byte[BLOCK + 4096];
        private int len;
        /** The local offset of the current minute (offsets change on whole minutes). */
        private long minute = Long.MIN_VALUE;
        private long offsetMs;
        /** The last name written, as bytes. */
        private String lastName;
        private byte[] nameBytes;

        /** `HH:MM:SS.mmm NAME pP offset O`. */
        void processed(String name, int partition, long offset) {
            room(64 + name.length() * 3);
            head(name);
            buf[len++] = 'p';
            number(partition);
            for (byte b : OFFSET) {
                buf[len++] = b;
            }
            number(offset);
            end();
        }

        private static final byte[] OFFSET = " offset ".getBytes(StandardCharsets.US_ASCII);

        /** `HH:MM:SS.mmm NAME EVENT`. */
        void line(String name, String event) {
            byte[] e = event.getBytes(StandardCharsets.UTF_8);
            room(32 + name.length() * 3 + e.length);
            head(name);
            System.arraycopy(e, 0, buf, len, e.length);
            len += e.length;
            end();
        }

        private void room(int n) {
            if (len + n > buf.length) {
                buf = java.util.Arrays.copyOf(buf, Math.max(buf.length * 2, len + n));
            }
        }

        private void head(String name) {
            long now = System.currentTimeMillis();
            long m = Math.floorDiv(now, 60_000L);
            if (m != minute) {
                offsetMs = ZONE.getOffset(Instant.ofEpochMilli(now)).getTotalSeconds() * 1000L;
                minute = m;
            }
            long t = Math.floorMod(now + offsetMs, 86_400_000L);
            int ms = (int) (t % 1000);
            int s = (int) (t / 1000 % 60);
            int mi = (int) (t / 60_000 % 60);
            int h = (int) (t / 3_600_000);
            two(h);
            buf[len++] = ':';
            two(mi);
            buf[len++] = ':';
            two(s);
            buf[len++] = '.';
            buf[len++] = (byte) ('0' + ms / 100);
            buf[len++] = (byte) ('0' + ms / 10 % 10);
            buf[len++] = (byte) ('0' + ms % 10);
            buf[len++] = ' ';
            if (!name.equals(lastName)) {
                lastName = name;
                nameBytes = name.getBytes(StandardCharsets.UTF_8);
            }
            System.arraycopy(nameBytes, 0, buf, len, nameBytes.length);
            len += nameBytes.length;
            buf[len++] = ' ';
        }

        private void two(int n) {
            buf[len++] = (byte) ('0' + n / 10);
            buf[len++] = (byte) ('0' + n % 10);
        }

        private void number(long n) {
            if (n < 0) {
                buf[len++] = '-';
                n = -n;
            }
            int start = len;
            do {
                buf[len++] = (byte) ('0' + n % 10);
                n /= 10;
            } while (n > 0);
            for (int i = start, j = len - 1; i < j; i++, j--) {
                byte b = buf[i];
                buf[i] = buf[j];
                buf[j] = b;
            }
        }

        private void end() {
            buf[len++] = '\n';
            if (len >= BLOCK) {
                flush();
            }
        }

        /** Writes the lines gathered so far, in one write. */
        void flush() {
            if (len == 0) {
                return;
            }
            try {
                out.write(buf, 0, len);
            } catch (IOException e) {
                // A closed pipe is not an error, as for every line the tools write.
            }
            len = 0;
        }
    }
}
