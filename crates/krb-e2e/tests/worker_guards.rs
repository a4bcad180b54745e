//! The worker's and krb-topic's guards of issue 30, on the real broker: a db-offsets store left
//! from another topic's run, a store emptied under a running worker, a group whose readers
//! cannot be told, the test-only zombie, and kafka-eos's start while another producer's
//! transaction holds the group's offsets. Each log is read through krb-log's reader.

use std::time::Duration;

use anyhow::{ensure, Context, Result};
use krb_e2e::{bash, bootstrap, root, serial};
use krb_log::logline::{Event, LogLine, Offset, Partition};
use rdkafka::consumer::{BaseConsumer, Consumer};
use rdkafka::producer::{DefaultProducerContext, Producer, ThreadedProducer};
use rdkafka::{ClientConfig, Offset as KafkaOffset, TopicPartitionList};

/// A worker's log, read by the tools' one reader: its lines, and its last line of its own
/// (not librdkafka's, which another thread writes to the same file).
struct Log {
    lines: Vec<LogLine>,
    last_own: String,
    text: String,
}

fn log(name: &str) -> Result<Log> {
    let path = root().join(format!("logs/{name}.log"));
    let text = std::fs::read_to_string(&path).with_context(|| path.display().to_string())?;
    let lines = text
        .lines()
        .filter_map(|l| krb_log::reader::parse_bytes(l.as_bytes()).ok().flatten())
        .collect();
    let last_own = text
        .lines()
        .rev()
        .find(|l| !is_librdkafkas(l))
        .unwrap_or_default()
        .to_string();
    Ok(Log {
        lines,
        last_own,
        text,
    })
}

/// Whether `line` is librdkafka's own (`%3|1790813686.528|FAIL|...`), not the worker's.
fn is_librdkafkas(line: &str) -> bool {
    let mut bytes = line.bytes();
    bytes.next() == Some(b'%')
        && bytes.next().is_some_and(|b| b.is_ascii_digit())
        && bytes.next() == Some(b'|')
}

/// The offsets a log shows processed.
fn processed(log: &Log) -> Vec<(Partition, Offset)> {
    log.lines
        .iter()
        .filter_map(|l| match l.event {
            Event::Processed { partition, offset } => Some((partition, offset)),
            _ => None,
        })
        .collect()
}

/// Bash that waits up to SECONDS for the worker whose pid is `$a` to exit, and echoes
/// `a exited: STATUS after MS ms` (`timeout` if it did not).
fn exit_of_a(seconds: u32) -> String {
    format!(
        "code=0; t0=$(date +%s%N); timeout {seconds} tail --pid=\"$a\" -f /dev/null || code=timeout
         [ \"$code\" = timeout ] || {{ wait \"$a\" || code=$?; }}
         echo \"a exited: $code after $((($(date +%s%N) - t0) / 1000000)) ms\""
    )
}

/// The status and milliseconds of [`exit_of_a`]'s line.
fn exited(out: &str) -> Result<(String, u64)> {
    let line = out
        .lines()
        .find_map(|l| l.strip_prefix("a exited: "))
        .with_context(|| format!("no exit line: {out}"))?;
    let (code, ms) = line.split_once(" after ").context("exit line")?;
    Ok((code.to_string(), ms.trim_end_matches(" ms").parse()?))
}

#[test]
#[ignore = "needs a Kafka broker: scripts/test.sh starts one"]
fn a_db_offsets_position_past_the_topics_end_ends_the_worker_with_one_line() -> Result<()> {
    let _one_at_a_time = serial();
    // A learner's second run by hand: the topic made again, the database not. Its position 10
    // of p0 is past the new topic's end, 3: the seek is out of range, the fetch starts again from
    // the earliest offset, which is refused, and an old worker did that for ever.
    let out = bash(
        "a db-offsets store past the topic's end",
        &format!(
            "trap 'stop_all wkstale' EXIT
             db=sqlite:logs/wkstale.db; rm -f logs/wkstale*
             krb-effects init \"$db\" >/dev/null; topic wkstale 1 >/dev/null; krb-group wkstale >/dev/null
             krb-produce wkstale 10 1 >/dev/null
             start wkstale-a wkstale wkstale --delay 0 --effect db-offsets --db \"$db\" >/dev/null
             wait_unique wkstale 10 60; stop wkstale-a
             topic wkstale 1 >/dev/null; krb-produce wkstale 3 1 >/dev/null
             start wkstale-a wkstale wkstale --delay 0 --effect db-offsets --db \"$db\" >/dev/null
             a=$(cat logs/wkstale-a.pid)
             {}
             [ \"$code\" = timeout ] || rm -f logs/wkstale-a.pid",
            exit_of_a(20)
        ),
    )?;
    let (code, ms) = exited(&out)?;
    let log = log("wkstale-a")?;
    ensure!(code == "1", "a did not exit 1 ({code}):\n{}", log.text);
    ensure!(ms < 10_000, "a took {ms} ms to exit");
    let line = "krb-worker: the database's position 10 of p0 is past the topic's end 3: run \
                krb-effects init sqlite:logs/wkstale.db";
    ensure!(log.last_own == line, "a's last line: {}", log.last_own);
    ensure!(
        log.text.matches(line).count() == 1,
        "the line more than once:\n{}",
        log.text
    );
    // Nothing of the new topic was processed: its offsets are below the stored position.
    let second_run = log
        .text
        .rsplit("start wkstale-a")
        .next()
        .unwrap_or_default();
    ensure!(
        !second_run.contains(" p0 offset ") || second_run.contains(" refused"),
        "{second_run}"
    );
    Ok(())
}

#[test]
#[ignore = "needs a Kafka broker: scripts/test.sh starts one"]
fn a_refusal_with_no_position_left_ends_the_worker_without_committing_past_it() -> Result<()> {
    let _one_at_a_time = serial();
    // The positions' table emptied under a running worker: its next effect is refused, and the
    // database then holds no position to go on from. An old worker took that for caught up:
    // the refused message was never processed, the next one placed a new position, and the
    // commits passed the refused one.
    let out = bash(
        "a db-offsets store emptied under a worker",
        &format!(
            "trap 'stop_all wkgone' EXIT
             db=sqlite:logs/wkgone.db; rm -f logs/wkgone*
             krb-effects init \"$db\" >/dev/null; topic wkgone 1 >/dev/null; krb-group wkgone >/dev/null
             krb-produce wkgone 300 1 >/dev/null
             start wkgone-a wkgone wkgone --delay 0.02 --commit-every 10 --effect db-offsets --db \"$db\" >/dev/null
             a=$(cat logs/wkgone-a.pid)
             wait_log wkgone-a 'p0 offset 30$' 60
             sqlite3 -cmd '.timeout 5000' logs/wkgone.db 'DELETE FROM krb_positions'
             {}
             [ \"$code\" = timeout ] || rm -f logs/wkgone-a.pid",
            exit_of_a(20)
        ),
    )?;
    let (code, ms) = exited(&out)?;
    let log = log("wkgone-a")?;
    ensure!(code == "1", "a did not exit 1 ({code}):\n{}", log.text);
    ensure!(ms < 10_000, "a took {ms} ms to exit");
    let refused = log
        .lines
        .iter()
        .find_map(|l| match l.event {
            Event::Refused { offset, .. } => Some(offset),
            _ => None,
        })
        .with_context(|| format!("no refusal:\n{}", log.text))?;
    ensure!(
        log.last_own
            == format!(
                "krb-worker: the database lost its position of p0 after refusing offset \
                 {refused} (its positions emptied under the worker): it stops without \
                 committing past it"
            ),
        "a's last line: {}",
        log.last_own
    );
    ensure!(
        processed(&log).iter().all(|(_, o)| *o < refused),
        "a processed past its refused offset {refused}"
    );
    for l in &log.lines {
        if let Event::Commit(positions) = &l.event {
            ensure!(
                positions.iter().all(|(_, o)| *o <= refused),
                "a committed {positions:?}, past its refused offset {refused}"
            );
        }
    }
    Ok(())
}

/// A Kafka consumer whose group's leader takes HOLD_MS to assign: its group stays in its first
/// rebalance that long, a member owning nothing and nothing committed. It prints `assigning`
/// when it begins, then how many records it has read each time that grows.
const SLOW_ASSIGN: &str = r#"
import java.time.Duration;
import java.util.*;
import org.apache.kafka.clients.consumer.*;
import org.apache.kafka.common.Cluster;

public class SlowAssign {
    public static class Slow extends RangeAssignor {
        @Override public String name() { return "krb-slow"; }
        @Override public GroupAssignment assign(Cluster metadata, GroupSubscription subscription) {
            System.out.println("assigning");
            System.out.flush();
            try { Thread.sleep(Long.parseLong(System.getenv("HOLD_MS"))); } catch (InterruptedException e) { }
            return super.assign(metadata, subscription);
        }
    }

    public static void main(String[] args) {
        Properties props = new Properties();
        props.put("bootstrap.servers", args[0]);
        props.put("group.id", args[1]);
        props.put("enable.auto.commit", "false");
        props.put("auto.offset.reset", "earliest");
        props.put("key.deserializer", "org.apache.kafka.common.serialization.ByteArrayDeserializer");
        props.put("value.deserializer", "org.apache.kafka.common.serialization.ByteArrayDeserializer");
        props.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, List.of(Slow.class));
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
            consumer.subscribe(List.of(args[2]));
            long read = 0, end = System.currentTimeMillis() + 60_000;
            while (System.currentTimeMillis() < end) {
                int n = consumer.poll(Duration.ofMillis(200)).count();
                if (n > 0) {
                    read += n;
                    System.out.println("records " + read);
                    System.out.flush();
                }
            }
        }
    }
}
"#;

#[test]
#[ignore = "needs a Kafka broker: scripts/test.sh starts one"]
fn krb_topic_keeps_a_topic_whose_readers_cannot_be_told() -> Result<()> {
    let _one_at_a_time = serial();
    let dir = krb_testutil::scratch_dir::<&str>("e2e-slow-assign", &[]);
    let source = dir.join("SlowAssign.java");
    std::fs::write(&source, SLOW_ASSIGN)?;
    // The group is in its first rebalance for 25 s, longer than krb-topic waits for it (10 s):
    // an old krb-topic then deleted the topic its member was about to read. A member killed
    // stays in its group until its session times out: each run has names of its own.
    let name = format!("wkslow{}", std::process::id());
    let out = bash(
        "krb-topic and a group that cannot be told",
        &format!(
            "scripts/kafka-local.sh jars >/dev/null
             jars=${{KRB_KAFKA_HOME:-${{XDG_CACHE_HOME:-$HOME/.cache}}/krb/kafka-4.3.1}}/libs
             n={name}; topic $n 1 >/dev/null; krb-produce $n 5 1 >/dev/null
             HOLD_MS=25000 java -cp \"$jars/*\" {} \"${{KRB_BOOTSTRAP:-localhost:9481}}\" $n $n \\
               >logs/$n.java 2>&1 &
             java=$!; trap 'kill $java 2>/dev/null || true; rm -f logs/$n.*' EXIT
             for _ in $(seq 1 300); do grep -q '^assigning' logs/$n.java && break; sleep 0.1; done
             grep -q '^assigning' logs/$n.java || {{ cat logs/$n.java; exit 1; }}
             code=0; krb-topic $n 1 >logs/$n.topic 2>&1 || code=$?
             echo \"krb-topic exited: $code\"; echo \"krb-topic said: $(cat logs/$n.topic)\"
             for _ in $(seq 1 300); do grep -q '^records 5$' logs/$n.java && break; sleep 0.1; done
             echo \"the member read: $(grep '^records' logs/$n.java | tail -n 1)\"
             krb-topic --delete --force $n >/dev/null",
            source.display()
        ),
    )?;
    ensure!(out.contains("krb-topic exited: 1\n"), "{out}");
    ensure!(
        out.contains(&format!(
            "krb-topic said: krb-topic: topic {name} is not deleted: group {name} is still in a \
             rebalance after 10 s, so who reads it cannot be told. Run it again once the group \
             is through, or stop its workers; --force deletes it anyway\n"
        )),
        "{out}"
    );
    // The member finds the topic's messages where they were.
    ensure!(out.contains("the member read: records 5\n"), "{out}");
    Ok(())
}

#[test]
#[ignore = "needs a Kafka broker: scripts/test.sh starts one"]
fn a_test_zombie_processes_a_message_after_its_revoke() -> Result<()> {
    let _one_at_a_time = serial();
    // z holds each message back until the next (--test-zombie); a joins, z's revoke callback
    // hands the one partition back (eager range), and z processes the message it held after it.
    // Range gives the partition to the first member id, which begins with the client id, the
    // worker's name: a takes it. Had z kept it (revoked and assigned in one poll), its held
    // message would come again from the committed position and z would process nothing outside
    // its assignment, as happened with two partitions when z held a message of the one it kept.
    bash(
        "a test zombie in a rebalance",
        "trap 'stop_all wkzomb' EXIT
         rm -f logs/wkzomb-*; topic wkzomb 1 >/dev/null; krb-group wkzomb >/dev/null
         krb-produce wkzomb 2000 1 >/dev/null
         start wkzomb-z wkzomb wkzomb --delay 0.02 --test-zombie >/dev/null
         wait_log wkzomb-z ' offset 20$' 60
         seen=$(wc -l <logs/wkzomb-z.log)
         start wkzomb-a wkzomb wkzomb --delay 0.02 >/dev/null
         wait_log wkzomb-a ' offset [0-9]+$' 60; wait_log wkzomb-z 'revoked \\[' 60 \"$seen\"
         revoked=$(grep -n 'revoked \\[' logs/wkzomb-z.log | tail -n 1 | cut -d: -f1)
         wait_log wkzomb-z ' offset [0-9]+$' 60 \"$revoked\"
         stop wkzomb-z wkzomb-a",
    )?;
    // Each log read through krb-log's reader: its worker owns what `assigned` gave it until
    // `revoked` takes it back (librdkafka may run both callbacks in one poll: z's zombie
    // processing then comes after its next `assigned`, which left the partition out).
    let z = outside(&log("wkzomb-z")?);
    ensure!(
        z.len() == 1,
        "z processed {z:?} outside its assignment, not one message"
    );
    let a = outside(&log("wkzomb-a")?);
    ensure!(
        a.is_empty(),
        "a, no zombie, processed {a:?} outside its assignment"
    );
    Ok(())
}

#[test]
#[ignore = "needs a Kafka broker: scripts/test.sh starts one"]
fn a_kafka_eos_worker_starts_where_the_group_committed_while_a_transaction_holds_its_offsets(
) -> Result<()> {
    let _one_at_a_time = serial();
    bash(
        "two partitions of 20 messages",
        "rm -f logs/wkunst-*; topic wkunst 2 >/dev/null; krb-group wkunst >/dev/null
         krb-effects init kafka:wkunst-out >/dev/null; krb-produce wkunst 40 2 >/dev/null",
    )?;
    // The group has committed 5 on both partitions; another producer's transaction then holds
    // 7 on both, open: the broker answers "unstable" for them until it ends. Both are sent while the
    // group has no member (the broker takes an offset of no generation only then).
    let holder: ThreadedProducer<DefaultProducerContext> = ClientConfig::new()
        .set("bootstrap.servers", bootstrap())
        .set("transactional.id", "wkunst-holder")
        .create()?;
    let wait = Duration::from_secs(30);
    holder.init_transactions(wait)?;
    let group: BaseConsumer = ClientConfig::new()
        .set("bootstrap.servers", bootstrap())
        .set("group.id", "wkunst")
        .create()?;
    let meta = group.group_metadata().context("no group metadata")?;
    let offsets = |at: &[(i32, i64)]| -> Result<TopicPartitionList> {
        let mut tpl = TopicPartitionList::new();
        for &(p, o) in at {
            tpl.add_partition_offset("wkunst", p, KafkaOffset::Offset(o))?;
        }
        Ok(tpl)
    };
    holder.begin_transaction()?;
    holder.send_offsets_to_transaction(&offsets(&[(0, 5), (1, 5)])?, &meta, wait)?;
    holder.commit_transaction(wait)?;
    holder.begin_transaction()?;
    holder.send_offsets_to_transaction(&offsets(&[(0, 7), (1, 7)])?, &meta, wait)?;
    // Aborted 12 s on: a has been assigned both partitions, and b's join has taken one of them
    // (cooperative-sticky), while their offsets were held. librdkafka 2.15.0 on its own then
    // starts the one a keeps from its beginning; the worker must start it at 5, once the
    // transaction has ended.
    let abort = std::thread::spawn(move || -> Result<()> {
        std::thread::sleep(Duration::from_secs(12));
        holder.abort_transaction(wait)?;
        Ok(())
    });
    let run = bash(
        "kafka-eos workers while a transaction holds their offsets",
        "trap 'stop_all wkunst' EXIT
         eos=(--delay 0.01 --commit-every 5 --assignor cooperative-sticky --effect kafka-eos --db kafka:wkunst-out)
         start wkunst-a wkunst wkunst \"${eos[@]}\" >/dev/null
         wait_log wkunst-a 'assigned \\[0, 1\\]' 60; sleep 2
         start wkunst-b wkunst wkunst \"${eos[@]}\" >/dev/null
         for _ in $(seq 1 600); do
           grep -qs ' p0 offset 19$' logs/wkunst-[ab].log && grep -qs ' p1 offset 19$' logs/wkunst-[ab].log && break
           sleep 0.1
         done
         stop wkunst-a wkunst-b",
    );
    abort.join().expect("the abort thread")?;
    run?;
    let mut all = Vec::new();
    for name in ["wkunst-a", "wkunst-b"] {
        all.extend(processed(&log(name)?));
    }
    let below: Vec<_> = all.iter().filter(|(_, o)| *o < 5).collect();
    ensure!(
        below.is_empty(),
        "processed below the group's committed 5: {below:?}"
    );
    for p in [0, 1] {
        ensure!(
            all.contains(&(p, 5)) && all.contains(&(p, 19)),
            "p{p} not processed from 5 to its end: {all:?}"
        );
    }
    Ok(())
}

/// What a worker's log (eager assignments) shows processed on partitions it did not own then.
fn outside(log: &Log) -> Vec<(Partition, Offset)> {
    let mut owned: Vec<Partition> = Vec::new();
    let mut found = Vec::new();
    for l in &log.lines {
        match &l.event {
            Event::Assigned(ps) => owned.clone_from(ps),
            Event::Revoked(ps) => owned.retain(|p| !ps.contains(p)),
            Event::Processed { partition, offset } if !owned.contains(partition) => {
                found.push((*partition, *offset))
            }
            _ => {}
        }
    }
    found
}
