// JavaWorker: krb-worker's lab 2 worker on Kafka's own Java client (kafka-clients), the third
// engine of scripts/judge.sh, which compiles it (javac, into target/judge-java) and runs it
// where 02-maxpoll.sh runs krb-worker. A peer to compare with, not a tool of the lab.
//
//   java -cp target/judge-java:KAFKA_HOME/libs/* JavaWorker NAME GROUP TOPIC [--delay S]
//       [--commit-every N] [--max-poll-ms MS] [--slow-at OFFSET] [--slow-sec S]
//       [--group-protocol classic|consumer] [--session-timeout-ms MS]
//
// What krb-worker does with the same options (crates/krb-worker/src/consume.rs), step by step:
// a KafkaConsumer (enable.auto.commit=false, auto.offset.reset=earliest, client.id NAME)
// subscribes to TOPIC in GROUP; each record takes --delay seconds (--slow-sec for the offset
// --slow-at, announced by a `slow start` line); every --commit-every records (default 100) it
// commits the next positions with commitSync. max.poll.records=1: librdkafka's poll hands over
// one message, so krb-worker polls between every two messages; so does this loop, and the
// max.poll.interval.ms clock means the same in both (the time spent on one message).
//
// Its lines are krb's log grammar (crates/krb-common/src/logline.rs), written to stdout as they
// happen: `HH:MM:SS.mmm NAME EVENT`, local time, with EVENT one of
//   consumes TOPIC in group GROUP | pP offset O | pP offset O slow start | assigned [..] |
//   revoked [..] | lost [..] | commit pP=O | commit failed: ERROR | poll error: ERROR
// from the rebalance listener's onPartitionsAssigned, onPartitionsRevoked and onPartitionsLost
// and from the loop. ERROR is the grammar's KafkaError{code=NAME,val=N,str="..."}: NAME and N are
// Kafka's error (org.apache.kafka.common.protocol.Errors) of the first exception in the cause
// chain that maps to one, else UNKNOWN and -1 (librdkafka's name for -1, as krb-worker writes
// an error without a code); str is the exception's class (simple name) and message. The eager
// protocol's empty revoke before the first assignment is not logged: librdkafka calls nothing then.
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

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
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
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.errors.UnknownServerException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

public final class JavaWorker {
    /** How long a poll waits for a record (krb-worker's POLL). */
    private static final Duration POLL = Duration.ofMillis(100);
    /** How long the broker's answer to the start-up check may take. */
    private static final Duration REACH = Duration.ofSeconds(10);
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

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
    private long delayMs;
    private long every = 100;
    private Integer maxPollMs;
    private Long slowAt;
    private long slowMs = 15_000;
    private String protocol;
    private Integer sessionMs;
    private String bootstrap;

    private final PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false,
            StandardCharsets.UTF_8);
    private KafkaConsumer<byte[], byte[]> consumer;
    /** Next offset after what was processed, and the last committed next offset, per partition. */
    private final Map<Integer, Long> processed = new TreeMap<>();
    private final Map<Integer, Long> committed = new TreeMap<>();
    private long sinceCommit;
    /** Whether a first assignment came (the eager protocol revokes nothing before it). */
    private boolean assignedOnce;
    private volatile boolean stop;

    public static void main(String[] argv) {
        JavaWorker w = new JavaWorker();
        try {
            w.parse(argv);
        } catch (Usage e) {
            System.err.println("JavaWorker: " + e.getMessage());
            System.err.println("usage: JavaWorker NAME GROUP TOPIC [--delay S] [--commit-every N] "
                    + "[--max-poll-ms MS] [--slow-at OFFSET] [--slow-sec S] "
                    + "[--group-protocol classic|consumer] [--session-timeout-ms MS]");
            System.exit(2);
        }
        System.exit(w.run());
    }

    private static long millis(String option, String value) throws Usage {
        try {
            double s = Double.parseDouble(value);
            if (s >= 0 && s < 1e9) {
                return Math.round(s * 1000);
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new Usage(option + " must be a number of seconds, 0 or more; got " + value);
    }

    private static long whole(String option, String value, long min) throws Usage {
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

    private void parse(String[] argv) throws Usage {
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
            String v = argv[++i];
            switch (a) {
                case "--delay": delayMs = millis(a, v); break;
                case "--commit-every": every = whole(a, v, 1); break;
                case "--max-poll-ms": maxPollMs = (int) whole(a, v, 1); break;
                case "--slow-at": slowAt = whole(a, v, 0); break;
                case "--slow-sec": slowMs = millis(a, v); break;
                case "--session-timeout-ms": sessionMs = (int) whole(a, v, 1); break;
                case "--group-protocol":
                    if (!v.equals("classic") && !v.equals("consumer")) {
                        throw new Usage("--group-protocol takes classic or consumer, not " + v);
                    }
                    protocol = v;
                    break;
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
        if ("consumer".equals(protocol) && sessionMs != null) {
            throw new Usage("--session-timeout-ms is a classic-protocol setting; with --group-protocol consumer "
                    + "the broker's group.consumer.session.timeout.ms applies");
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

    /** Writes one line of the grammar, at once: the lab reads the log while it runs. */
    private synchronized void line(String event) {
        out.print(LocalTime.now().format(TIME) + " " + name + " " + event + "\n");
        out.flush();
    }

    private int run() {
        CountDownLatch done = new CountDownLatch(1);
        Thread main = Thread.currentThread();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            // SIGTERM or SIGINT: the loop finishes the record in hand, leaves the group and
            // writes its lines; the JVM exits once it has.
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
        }));
        int status = 0;
        try {
            start();
            loop();
        } catch (WakeupException e) {
            if (!stop) {
                status = error(e);
            }
        } catch (RuntimeException | InterruptedException e) {
            status = error(e);
        }
        status = Math.max(status, close());
        done.countDown();
        return status;
    }

    private int error(Exception e) {
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
        c.put("key.deserializer", ByteArrayDeserializer.class.getName());
        c.put("value.deserializer", ByteArrayDeserializer.class.getName());
        consumer = new KafkaConsumer<>(c);
        line("consumes " + topic + " in group " + group);
        // The topic must exist: a consumer asking for one that does not would have the broker make it.
        Set<String> topics = consumer.listTopics(REACH).keySet();
        if (!topics.contains(topic)) {
            throw new KafkaException("no topic " + topic + " at " + bootstrap);
        }
        consumer.subscribe(List.of(topic), new Rebalance());
    }

    private void loop() throws InterruptedException {
        while (!stop) {
            ConsumerRecords<byte[], byte[]> records;
            try {
                records = consumer.poll(POLL);
            } catch (WakeupException e) {
                throw e;
            } catch (KafkaException e) {
                line("poll error: " + rendered(e));
                continue;
            }
            for (ConsumerRecord<byte[], byte[]> r : records) {
                process(r);
                if (++sinceCommit >= every) {
                    commit();
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
            line("p" + p + " offset " + o + " slow start");
            took = slowMs;
        }
        Thread.sleep(took);
        line("p" + p + " offset " + o);
        processed.put(p, o + 1);
    }

    /** Commits, synchronously, the positions that advanced since the last commit, and logs it. */
    private void commit() {
        sinceCommit = 0;
        Map<Integer, Long> pending = new TreeMap<>();
        processed.forEach((p, o) -> {
            Long c = committed.get(p);
            if (c == null || o > c) {
                pending.put(p, o);
            }
        });
        if (pending.isEmpty()) {
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        pending.forEach((p, o) -> offsets.put(new TopicPartition(topic, p), new OffsetAndMetadata(o)));
        try {
            consumer.commitSync(offsets);
        } catch (WakeupException e) {
            throw e;
        } catch (KafkaException e) {
            line("commit failed: " + rendered(e));
            return;
        }
        committed.putAll(pending);
        StringBuilder s = new StringBuilder("commit");
        pending.forEach((p, o) -> s.append(" p").append(p).append('=').append(o));
        line(s.toString());
    }

    /**
     * A Java exception in the grammar's error form: KafkaError{code=NAME,val=N,str="Class: message"},
     * NAME and N those of the first exception in the cause chain that Kafka maps to an error code.
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

    /** Leaves the group (the revoke callback runs). */
    private int close() {
        int status = 0;
        if (consumer != null) {
            try {
                consumer.close();
            } catch (RuntimeException e) {
                status = error(e);
            }
        }
        out.flush();
        return status;
    }

    /** The rebalance callbacks, as krb-worker's rebalance.rs without --revoke-commit. */
    private final class Rebalance implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> tps) {
            assignedOnce = true;
            line("assigned " + list(tps));
        }

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> tps) {
            if (tps.isEmpty() && !assignedOnce) {
                return;
            }
            line("revoked " + list(tps));
            forget(tps);
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> tps) {
            line("lost " + list(tps));
            forget(tps);
        }

        /** A partition that went is its next owner's: its positions are forgotten, as krb-worker's. */
        private void forget(Collection<TopicPartition> tps) {
            for (TopicPartition tp : tps) {
                processed.remove(tp.partition());
                committed.remove(tp.partition());
            }
        }
    }
}
