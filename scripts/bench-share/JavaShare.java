// JavaShare: krb-share's loop on Kafka's own Java share consumer (KafkaShareConsumer of
// kafka-clients), the baseline of scripts/bench-share.sh, which compiles it with
// scripts/java/KrbLines.java (env.sh's java_build, into target/bench-share-java) and runs it on
// the same topic and broker as krb-share. A benchmark peer, not a tool of the lab.
//
//   java -cp target/bench-share-java:KAFKA_HOME/libs/* JavaShare NAME GROUP TOPIC --count N
//
// It does what krb-share --delay 0 does (crates/krb-share/src/lib.rs): first it sets the share
// group's share.auto.offset.reset=earliest with the Admin client's incrementalAlterConfigs on
// the GROUP resource (the legacy alterConfigs answers success for a group and sets nothing);
// then a KafkaShareConsumer (share.acknowledgement.mode=explicit, Kafka's defaults otherwise)
// subscribes to TOPIC in share group GROUP and polls (500 ms, krb-share's POLL). Each record is
// acknowledged ACCEPT, and at the end of each poll's batch commitSync commits the
// acknowledgements and waits for the broker's answer. It writes krb-share's lines (krb's log
// grammar, crates/krb-log/src/logline.rs) through KrbLines, gathered and written at each
// commit as krb-share does at delay 0:
//
//   09:20:01.230 share-j acquired p0 offset 3 delivery 1
//   09:20:01.240 share-j p0 offset 3
//   09:20:01.240 share-j accepted p0 offset 3
//   09:20:01.250 share-j acks committed p0 [0..3]
//
// It stops once the broker has taken the acknowledgements of N records (acks committed),
// closing the consumer (exit 0). KRB_BOOTSTRAP names the broker (default localhost:9481) and
// KRB_NS the namespace, as for the krb tools. Exit status 1 on an error (a refused commit
// included: the benchmark counts only clean runs), 2 on a command line it cannot run.

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

public final class JavaShare {
    /** How long one poll waits for records (krb-share's POLL). */
    private static final Duration POLL = Duration.ofMillis(500);

    public static void main(String[] argv) {
        long[] count = {0};
        String[] command = null;
        try {
            command = KrbLines.command(argv, (a, v) -> {
                if (!a.equals("--count")) {
                    throw new KrbLines.Usage("unknown option " + a);
                }
                count[0] = KrbLines.whole(a, v, 1);
            });
            if (count[0] == 0) {
                throw new KrbLines.Usage("--count N is needed: the run ends once N records are committed");
            }
        } catch (KrbLines.Usage e) {
            KrbLines.usage("JavaShare", e, "NAME GROUP TOPIC --count N");
        }
        KrbLines lines = new KrbLines(command[0], false);
        try {
            run(lines, command[0], command[1], command[2], count[0]);
        } catch (RuntimeException | InterruptedException e) {
            lines.flush();
            System.err.println(command[0] + ": " + KrbLines.rendered(e));
            System.exit(1);
        }
        lines.flush();
    }

    private static void run(KrbLines lines, String name, String group, String topic, long count)
            throws InterruptedException {
        String bootstrap = KrbLines.bootstrap();
        Properties a = new Properties();
        a.put("bootstrap.servers", bootstrap);
        try (Admin admin = Admin.create(a)) {
            ConfigResource resource = new ConfigResource(ConfigResource.Type.GROUP, group);
            AlterConfigOp reset = new AlterConfigOp(new ConfigEntry("share.auto.offset.reset", "earliest"),
                    AlterConfigOp.OpType.SET);
            admin.incrementalAlterConfigs(Map.of(resource, List.of(reset))).all().get();
            // A share consumer asking for a topic that does not exist waits with no end (or has the
            // broker make it): say so instead.
            if (!admin.listTopics().names().get().contains(topic)) {
                throw new KafkaException("no topic " + topic + " at " + bootstrap);
            }
        } catch (java.util.concurrent.ExecutionException e) {
            throw new KafkaException("cannot set up share group " + group + " on " + topic, e.getCause());
        }
        Properties c = new Properties();
        c.put("bootstrap.servers", bootstrap);
        c.put("client.id", name);
        c.put("group.id", group);
        c.put("share.acknowledgement.mode", "explicit");
        c.put("key.deserializer", ByteArrayDeserializer.class.getName());
        c.put("value.deserializer", ByteArrayDeserializer.class.getName());
        lines.line("consumes " + topic + " in share group " + group);
        long committed = 0;
        try (KafkaShareConsumer<byte[], byte[]> share = new KafkaShareConsumer<>(c)) {
            share.subscribe(List.of(topic));
            while (committed < count) {
                ConsumerRecords<byte[], byte[]> batch = share.poll(POLL);
                if (batch.isEmpty()) {
                    continue;
                }
                Map<Integer, List<Long>> pending = new TreeMap<>();
                for (ConsumerRecord<byte[], byte[]> r : batch) {
                    Optional<Short> delivery = r.deliveryCount();
                    lines.line("acquired p" + r.partition() + " offset " + r.offset() + " delivery "
                            + delivery.map(String::valueOf).orElse("?"));
                }
                for (ConsumerRecord<byte[], byte[]> r : batch) {
                    lines.processed(r.partition(), r.offset());
                    share.acknowledge(r);
                    lines.line("accepted p" + r.partition() + " offset " + r.offset());
                    pending.computeIfAbsent(r.partition(), p -> new ArrayList<>()).add(r.offset());
                }
                Map<TopicIdPartition, Optional<KafkaException>> answers = share.commitSync();
                for (Map.Entry<Integer, List<Long>> e : pending.entrySet()) {
                    Optional<KafkaException> answer = answerOf(answers, e.getKey());
                    String offsets = ranges(e.getValue());
                    if (answer != null && answer.isEmpty()) {
                        lines.line("acks committed p" + e.getKey() + " " + offsets);
                        committed += e.getValue().size();
                    } else {
                        lines.line("acks failed p" + e.getKey() + " " + offsets + ": " + (answer == null
                                ? "the broker's answer named no such partition" : KrbLines.rendered(answer.get())));
                        lines.flush();
                        throw new KafkaException("the broker refused acknowledgements of p" + e.getKey());
                    }
                }
                lines.flush();
            }
        }
    }

    /** The broker's answer for PARTITION (the benchmark's one topic), or null when it named none. */
    private static Optional<KafkaException> answerOf(Map<TopicIdPartition, Optional<KafkaException>> answers,
            int partition) {
        for (Map.Entry<TopicIdPartition, Optional<KafkaException>> e : answers.entrySet()) {
            if (e.getKey().partition() == partition) {
                return e.getValue();
            }
        }
        return null;
    }

    /** Offsets as the grammar's inclusive ranges, ascending: `[0..3, 7]`. */
    static String ranges(List<Long> offsets) {
        List<Long> sorted = new ArrayList<>(offsets);
        sorted.sort(null);
        StringBuilder s = new StringBuilder("[");
        int i = 0;
        while (i < sorted.size()) {
            int j = i;
            while (j + 1 < sorted.size() && sorted.get(j + 1) == sorted.get(j) + 1) {
                j++;
            }
            s.append(i > 0 ? ", " : "").append(sorted.get(i));
            if (j > i) {
                s.append("..").append(sorted.get(j));
            }
            i = j + 1;
        }
        return s.append(']').toString();
    }
}
