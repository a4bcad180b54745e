// KrbLines: what the Java peers of krb-worker share, compiled with each of them by env.sh's
// java_build (into target/bench-java with scripts/bench-effects/JavaLoop.java, into
// target/judge-java with scripts/judge/JavaWorker.java). Not a tool of the lab.
//
// An instance writes one worker's lines of krb's log grammar (crates/krb-log/src/logline.rs)
// to stdout: `HH:MM:SS.mmm NAME EVENT`, local time (the zone's offset looked up again in each
// new minute, as logline.rs does), gathered in 64 KiB blocks as krb-worker's lines.rs gathers
// them, or written line by line. One thread writes them: the consumer's, whose poll runs the
// rebalance callbacks.
//
// The rest is what both do the same way: the command line's NAME GROUP TOPIC [--OPTION VALUE]...
// (a bad one is exit status 2), the names Kafka knows (KRB_NS) and the broker (KRB_BOOTSTRAP,
// default localhost:9481), the consumer's settings and subscription, a run that stops on
// SIGTERM or SIGINT, the positions processed and committed, commitSync and its line, the
// partition lists, the rebalance callbacks' lines, and an exception in the grammar's error form.

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.zone.ZoneRules;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.errors.UnknownServerException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

public final class KrbLines {
    /** How long a poll waits for a record (krb-worker's POLL). */
    static final Duration POLL = Duration.ofMillis(100);
    /**
     * How long the broker's answers to the start-up checks may take: a JVM just started on a busy
     * machine (lab 9's restarts, load 30 on 2 cores) took more than 10 s for its first metadata.
     */
    static final Duration REACH = Duration.ofSeconds(30);

    /** How many bytes of lines a block holds before it is written. */
    private static final int BLOCK = 64 << 10;
    private static final ZoneRules ZONE = ZoneId.systemDefault().getRules();
    private static final byte[] OFFSET = " offset ".getBytes(StandardCharsets.US_ASCII);

    private final FileOutputStream out = new FileOutputStream(FileDescriptor.out);
    private final byte[] name;
    private final boolean eachLine;
    private byte[] buf = new byte[BLOCK + 4096];
    private int len;
    /** The local offset of the current minute (offsets change on whole minutes). */
    private long minute = Long.MIN_VALUE;
    private long offsetMs;

    /** The lines of worker NAME: written one by one with eachLine, else in blocks (flush). */
    KrbLines(String name, boolean eachLine) {
        this.name = name.getBytes(StandardCharsets.UTF_8);
        this.eachLine = eachLine;
    }

    /** `HH:MM:SS.mmm NAME pP offset O`. */
    void processed(int partition, long offset) {
        room(64 + name.length);
        head();
        buf[len++] = 'p';
        number(partition);
        for (byte b : OFFSET) {
            buf[len++] = b;
        }
        number(offset);
        end();
    }

    /** `HH:MM:SS.mmm NAME EVENT`. */
    void line(String event) {
        byte[] e = event.getBytes(StandardCharsets.UTF_8);
        room(32 + name.length + e.length);
        head();
        System.arraycopy(e, 0, buf, len, e.length);
        len += e.length;
        end();
    }

    /**
     * Commits POSITIONS of TOPIC with commitSync: true, or false once a `commit failed: ERROR` line
     * is written (a WakeupException goes on up: SIGTERM or SIGINT came).
     */
    boolean commitSync(KafkaConsumer<?, ?> consumer, String topic, Map<Integer, Long> positions) {
        try {
            consumer.commitSync(offsets(topic, positions));
            return true;
        } catch (WakeupException e) {
            throw e;
        } catch (KafkaException e) {
            line("commit failed: " + rendered(e));
            return false;
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

    private void room(int n) {
        if (len + n > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + n));
        }
    }

    private void head() {
        long now = System.currentTimeMillis();
        long m = Math.floorDiv(now, 60_000L);
        if (m != minute) {
            offsetMs = ZONE.getOffset(Instant.ofEpochMilli(now)).getTotalSeconds() * 1000L;
            minute = m;
        }
        long t = Math.floorMod(now + offsetMs, 86_400_000L);
        int ms = (int) (t % 1000);
        two((int) (t / 3_600_000));
        buf[len++] = ':';
        two((int) (t / 60_000 % 60));
        buf[len++] = ':';
        two((int) (t / 1000 % 60));
        buf[len++] = '.';
        buf[len++] = (byte) ('0' + ms / 100);
        buf[len++] = (byte) ('0' + ms / 10 % 10);
        buf[len++] = (byte) ('0' + ms % 10);
        buf[len++] = ' ';
        System.arraycopy(name, 0, buf, len, name.length);
        len += name.length;
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
        if (eachLine || len >= BLOCK) {
            flush();
        }
    }

    // The command line.

    /** A command line it cannot run. */
    static final class Usage extends Exception {
        private static final long serialVersionUID = 1L;

        Usage(String message) {
            super(message);
        }
    }

    /** What a program does with one --OPTION VALUE of its command line. */
    interface Option {
        void take(String option, String value) throws Usage;
    }

    /**
     * Reads NAME GROUP TOPIC with every --OPTION VALUE (to option, in order); returns NAME (one
     * word: it starts every log line), then GROUP and TOPIC as Kafka knows them (ns).
     */
    static String[] command(String[] argv, Option option) throws Usage {
        List<String> positional = new ArrayList<>();
        for (int i = 0; i < argv.length; i++) {
            String a = argv[i];
            if (!a.startsWith("--")) {
                positional.add(a);
                continue;
            }
            if (i + 1 >= argv.length) {
                throw new Usage(a + " takes a value");
            }
            option.take(a, argv[++i]);
        }
        if (positional.size() != 3) {
            throw new Usage("expected NAME GROUP TOPIC, got " + positional);
        }
        String name = positional.get(0);
        if (name.isEmpty() || name.chars().anyMatch(Character::isWhitespace)) {
            throw new Usage("the worker name \"" + name + "\" must be one word: it starts every log line");
        }
        // The names Kafka knows, as every krb tool gives them (KRB_NS); the log keeps NAME.
        return new String[] {name, ns(positional.get(1)), ns(positional.get(2))};
    }

    /** Says what is wrong with the command line of PROGRAM and how it goes, and exits 2. */
    static void usage(String program, Usage e, String usage) {
        System.err.println(program + ": " + e.getMessage());
        System.err.println("usage: " + program + " " + usage);
        System.exit(2);
    }

    /** An option's whole number, min or more. */
    static long whole(String option, String value, long min) throws Usage {
        try {
            long n = Long.parseLong(value);
            if (n >= min) {
                return n;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new Usage(option + " takes a whole number, " + min + " or more; got " + value);
    }

    /** A name as Kafka knows it: KRB_NS-NAME when KRB_NS is set, as for the krb tools. */
    static String ns(String name) {
        String ns = System.getenv("KRB_NS");
        return ns == null || ns.isEmpty() ? name : ns + "-" + name;
    }

    /** The broker: KRB_BOOTSTRAP, default localhost:9481. */
    static String bootstrap() {
        String b = System.getenv("KRB_BOOTSTRAP");
        return b == null || b.isEmpty() ? "localhost:9481" : b;
    }

    // The consumer.

    /**
     * A consumer's settings as krb-worker's: client.id NAME in GROUP at BOOTSTRAP,
     * enable.auto.commit=false, auto.offset.reset=earliest, records as bytes; Kafka's defaults
     * for the rest.
     */
    static Properties consumer(String bootstrap, String name, String group) {
        Properties c = new Properties();
        c.put("bootstrap.servers", bootstrap);
        c.put("client.id", name);
        c.put("group.id", group);
        c.put("enable.auto.commit", "false");
        c.put("auto.offset.reset", "earliest");
        c.put("key.deserializer", ByteArrayDeserializer.class.getName());
        c.put("value.deserializer", ByteArrayDeserializer.class.getName());
        return c;
    }

    /**
     * Subscribes CONSUMER to the first of TOPICS, with REBALANCE, once every one of them is known
     * at BOOTSTRAP: a consumer asking for a topic that does not exist would have the broker make it.
     */
    static void subscribe(KafkaConsumer<?, ?> consumer, List<String> topics, String bootstrap,
            ConsumerRebalanceListener rebalance) {
        Set<String> known = consumer.listTopics(REACH).keySet();
        for (String t : topics) {
            if (!known.contains(t)) {
                throw new KafkaException("no topic " + t + " at " + bootstrap);
            }
        }
        consumer.subscribe(List.of(topics.get(0)), rebalance);
    }

    // The run.

    /** A program's work: it starts, then loops until it is done or stopped. */
    interface Work {
        void run() throws InterruptedException;
    }

    /**
     * Runs work, then close; the exit status (the greater of the error's and close's). SIGTERM or
     * SIGINT calls stop and wakes the consumer's poll (the work is to end at the record in hand);
     * the JVM exits once close has run (60 s at most). An error is error's to write.
     */
    static int run(Work work, Runnable stop, Supplier<KafkaConsumer<?, ?>> consumer,
            ToIntFunction<Exception> error, IntSupplier close) {
        CountDownLatch done = new CountDownLatch(1);
        AtomicBoolean signalled = new AtomicBoolean();
        Thread main = Thread.currentThread();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            signalled.set(true);
            stop.run();
            KafkaConsumer<?, ?> c = consumer.get();
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
        }));
        int status = 0;
        try {
            work.run();
        } catch (WakeupException e) {
            if (!signalled.get()) {
                status = error.applyAsInt(e);
            }
        } catch (RuntimeException | InterruptedException e) {
            status = error.applyAsInt(e);
        }
        status = Math.max(status, close.getAsInt());
        done.countDown();
        return status;
    }

    /** Runs step: 0, or error's status for the RuntimeException it threw (a close, at the end). */
    static int status(Runnable step, ToIntFunction<Exception> error) {
        try {
            step.run();
            return 0;
        } catch (RuntimeException e) {
            return error.applyAsInt(e);
        }
    }

    // Positions and partitions.

    /** Next offset after what was processed, and the last committed next offset, per partition. */
    static final class Positions {
        private final Map<Integer, Long> processed = new TreeMap<>();
        private final Map<Integer, Long> committed = new TreeMap<>();

        /** Offset O of partition P is processed. */
        void processed(int p, long o) {
            processed.put(p, o + 1);
        }

        /** The positions that advanced past the last commit, by partition. */
        Map<Integer, Long> advanced() {
            Map<Integer, Long> pending = new TreeMap<>();
            processed.forEach((p, o) -> {
                Long c = committed.get(p);
                if (c == null || o > c) {
                    pending.put(p, o);
                }
            });
            return pending;
        }

        /** The positions committed. */
        void committed(Map<Integer, Long> positions) {
            committed.putAll(positions);
        }

        /** What was processed since the last commit is undone. */
        void rewind() {
            processed.clear();
            processed.putAll(committed);
        }

        /** Partitions that went are their next owner's: their positions are forgotten. */
        void forget(Collection<Integer> ps) {
            for (Integer p : ps) {
                processed.remove(p);
                committed.remove(p);
            }
        }
    }

    /** Positions of TOPIC as Kafka's commit takes them. */
    static Map<TopicPartition, OffsetAndMetadata> offsets(String topic, Map<Integer, Long> positions) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        positions.forEach((p, o) -> offsets.put(new TopicPartition(topic, p), new OffsetAndMetadata(o)));
        return offsets;
    }

    /** The commit event: `commit pP=O ...`. */
    static String commit(Map<Integer, Long> positions) {
        StringBuilder s = new StringBuilder("commit");
        positions.forEach((p, o) -> s.append(" p").append(p).append('=').append(o));
        return s.toString();
    }

    /** The partitions' numbers, in the order given. */
    static List<Integer> partitions(Collection<TopicPartition> tps) {
        List<Integer> ps = new ArrayList<>();
        for (TopicPartition tp : tps) {
            ps.add(tp.partition());
        }
        return ps;
    }

    /** A partition list of the grammar: `[0, 1]`, sorted. */
    static String list(Collection<TopicPartition> tps) {
        List<Integer> ps = partitions(tps);
        ps.sort(null);
        StringBuilder s = new StringBuilder("[");
        for (int i = 0; i < ps.size(); i++) {
            s.append(i > 0 ? ", " : "").append(ps.get(i));
        }
        return s.append(']').toString();
    }

    /**
     * The rebalance callbacks' lines, as krb-worker's rebalance.rs writes them (without
     * --revoke-commit): `assigned [..]`, `revoked [..]`, `lost [..]`, each followed by what the
     * program does with the partitions revoked or lost. The eager protocol's empty revoke before
     * the first assignment is not logged: librdkafka calls nothing then.
     */
    abstract static class Rebalance implements ConsumerRebalanceListener {
        private final KrbLines lines;
        /** Whether a first assignment came (the eager protocol revokes nothing before it). */
        private boolean assignedOnce;

        Rebalance(KrbLines lines) {
            this.lines = lines;
        }

        /** After the `revoked` line: partitions PS go. */
        abstract void revoked(List<Integer> ps);

        /** After the `lost` line: partitions PS are gone. */
        abstract void lost(List<Integer> ps);

        @Override
        public final void onPartitionsAssigned(Collection<TopicPartition> tps) {
            assignedOnce = true;
            lines.line("assigned " + list(tps));
        }

        @Override
        public final void onPartitionsRevoked(Collection<TopicPartition> tps) {
            if (tps.isEmpty() && !assignedOnce) {
                return;
            }
            lines.line("revoked " + list(tps));
            revoked(partitions(tps));
        }

        @Override
        public final void onPartitionsLost(Collection<TopicPartition> tps) {
            lines.line("lost " + list(tps));
            lost(partitions(tps));
        }
    }

    // Errors.

    /**
     * A Java exception in the grammar's error form: KafkaError{code=NAME,val=N,str="Class: message"},
     * NAME and N those of the first exception in the cause chain that Kafka maps to an error code
     * (org.apache.kafka.common.protocol.Errors), else UNKNOWN and -1 (librdkafka's name for -1,
     * as krb-worker writes an error without a code); the text on one line, with its cause's.
     */
    static String rendered(Throwable e) {
        Errors error = null;
        for (Throwable t = e; t != null && error == null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ApiException) {
                Errors mapped = Errors.forException(t);
                if (mapped != Errors.UNKNOWN_SERVER_ERROR || t instanceof UnknownServerException) {
                    error = mapped;
                }
            }
        }
        String code = error == null ? "UNKNOWN" : error.name();
        int val = error == null ? -1 : error.code();
        StringBuilder text = new StringBuilder(describe(e));
        Throwable cause = e.getCause();
        if (cause != null && cause != e) {
            text.append(" (cause: ").append(describe(cause)).append(')');
        }
        return "KafkaError{code=" + code + ",val=" + val + ",str=\"" + text + "\"}";
    }

    private static String describe(Throwable t) {
        String m = t.getMessage();
        String s = t.getClass().getSimpleName() + (m == null ? "" : ": " + m);
        return s.replace('\n', ' ').replace('\r', ' ');
    }
}
