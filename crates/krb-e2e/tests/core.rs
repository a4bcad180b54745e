//! The tools and common.sh on the real broker, end to end.

use std::collections::BTreeMap;

use anyhow::{ensure, Result};
use krb_e2e::{bash, committed_offsets, root, serial};
use krb_effect::{Db, Kind};
use krb_log::logline::Event;
use krb_log::worker_log::WorkerLog;

#[test]
#[ignore = "needs a Kafka broker: scripts/test.sh starts one"]
fn one_worker_processes_each_offset_exactly_once() -> Result<()> {
    let _one_at_a_time = serial();
    let out = bash(
        "core: topic, produce, start, stop, dups",
        "rm -f logs/core-*.log; topic core 2; krb-produce core 1000 2; krb-group core >/dev/null; \
         start core-a core core; wait_unique core 1000 60; stop core-a; krb-dups core",
    )?;
    ensure!(
        out.contains("Created topic core.\n"),
        "topic did not say so: {out}"
    );
    ensure!(
        out.contains("sent 1000 messages to core\n"),
        "produce did not say so: {out}"
    );
    ensure!(
        out.ends_with("processed 1000, unique 1000, duplicates 0\n"),
        "krb-dups: {out}"
    );

    let log = WorkerLog::read_file(&root().join("logs/core-a.log"))?;
    let mut seen: BTreeMap<i32, Vec<i64>> = BTreeMap::new();
    for (p, o) in log.processed() {
        seen.entry(p).or_default().push(o);
    }
    let expected: Vec<i64> = (0..500).collect();
    ensure!(seen.len() == 2, "partitions processed: {:?}", seen.keys());
    for (p, offsets) in &seen {
        ensure!(
            offsets == &expected,
            "p{p} was not processed 0..499 once each in order"
        );
    }
    let events: Vec<&Event> = log.lines.iter().map(|l| &l.event).collect();
    ensure!(
        events.first() == Some(&&Event::Start)
            && events.get(1)
                == Some(&&Event::Consumes {
                    topic: "core".into(),
                    group: "core".into()
                })
            && events.get(2) == Some(&&Event::Assigned(vec![0, 1])),
        "the log does not open with start, consumes core in group core, assigned [0, 1]: {:?}",
        &events[..events.len().min(3)]
    );
    ensure!(
        events.last() == Some(&&Event::Revoked(vec![0, 1])),
        "a clean stop must end with revoked [0, 1]"
    );
    let committed = committed_offsets("core")?;
    ensure!(
        committed == BTreeMap::from([(0, 500), (1, 500)]),
        "consumer-groups tool shows {committed:?}, expected p0=500 p1=500"
    );
    Ok(())
}

#[test]
#[ignore = "needs a Kafka broker: scripts/test.sh starts one"]
fn librdkafka_lines_never_swallow_a_worker_line() -> Result<()> {
    let _one_at_a_time = serial();
    // librdkafka's debug output from its log thread while the worker writes a line per message:
    // both go to one file, as `start` sends them.
    let out = bash(
        "glue: worker lines among librdkafka debug lines",
        "rm -f logs/glue-*.log; topic glue 2 >/dev/null; krb-produce glue 2000 2 >/dev/null; krb-group glue >/dev/null; \
         start glue-a glue glue --commit-every 10 -X debug=cgrp,fetch,topic,protocol; \
         wait_unique glue 2000 60; stop glue-a; krb-dups glue",
    )?;
    ensure!(
        out.ends_with("processed 2000, unique 2000, duplicates 0\n"),
        "a completion line went missing: {out}"
    );
    let log = std::fs::read_to_string(root().join("logs/glue-a.log"))?;
    let debug = log.lines().filter(|l| l.starts_with("%7|")).count();
    ensure!(
        debug > 100,
        "only {debug} librdkafka debug lines: the test shows nothing"
    );
    for (i, line) in log.lines().enumerate() {
        let worker_text = line.find(" glue-a ").map(|at| &line[at..]);
        let glued = line.starts_with('%')
            && worker_text
                .is_some_and(|t| t.starts_with(" glue-a p") || t.starts_with(" glue-a commit"));
        ensure!(
            !glued,
            "line {}: a worker line glued to librdkafka's: {line}",
            i + 1
        );
    }
    Ok(())
}

#[test]
#[ignore = "needs a Kafka broker: scripts/test.sh starts one"]
fn a_topic_recreated_at_once_is_the_new_one_and_a_deleted_one_is_gone() -> Result<()> {
    let _one_at_a_time = serial();
    // Each recreation follows a production at once; a producer told that the topic does not
    // exist, or whose messages land in the old topic, fails the count below.
    let out = bash(
        "krb-topic: recreate, then delete",
        r#"for i in 1 2 3 4 5; do topic recreated 2 >/dev/null; krb-produce recreated 7 2 >/dev/null; done
         fresh recreated
         start recreated-a recreated recreated --commit-every 1 >/dev/null
         wait_unique recreated 7 30
         stop recreated-a
         krb-dups recreated | head -n 1
         krb-topic recreated --delete
         krb-topic recreated --delete
         krb-produce recreated 1 1 2>&1 | sed 's/ on .*//' || true"#,
    )?;
    ensure!(
        out.contains("processed 7, unique 7, duplicates 0\n"),
        "the consumer did not find exactly the last 7 messages: {out}"
    );
    ensure!(
        out.contains(
            "Deleted topic recreated.\nTopic recreated does not exist.\nkrb-produce: topic recreated does not exist\n"
        ),
        "--delete did not delete the topic: {out}"
    );
    Ok(())
}

#[test]
#[ignore = "needs a Kafka broker: scripts/test.sh starts one"]
fn full_speed_puts_message_i_at_partition_i_mod_p_and_offset_i_div_p() -> Result<()> {
    let _one_at_a_time = serial();
    // More than one run of each partition, and a last run shorter than the others.
    let (count, partitions) = (25_007u64, 3u64);
    let group = format!("placement-{}", std::process::id());
    let out = bash(
        "placement: krb-produce at full speed, read back with every payload",
        &format!(
            "db=sqlite:logs/placement.db; krb-effects init \"$db\" >/dev/null
             topic placement {partitions} >/dev/null; krb-produce placement {count} {partitions}
             krb-worker placement-w {group} placement -e --commit-every 10000 --effect plain \\
               --db \"$db\" >/dev/null; krb-group {group} >/dev/null"
        ),
    )?;
    ensure!(
        out.contains(&format!("sent {count} messages to placement\n")),
        "{out}"
    );
    let db = format!("sqlite:{}", root().join("logs/placement.db").display());
    let rows = Db::open(&db)?.rows(Kind::Plain, "placement")?;
    ensure!(
        rows.len() as u64 == count,
        "{} rows, not {count}",
        rows.len()
    );
    let mut seen = vec![false; count as usize];
    for row in &rows {
        let i: u64 = row.payload.parse()?;
        ensure!(
            (row.partition as u64, row.offset as u64) == (i % partitions, i / partitions),
            "message {i} is at p{} offset {}",
            row.partition,
            row.offset
        );
        ensure!(
            !std::mem::replace(&mut seen[i as usize], true),
            "message {i} twice"
        );
    }
    Ok(())
}

#[test]
#[ignore = "needs a Kafka broker: scripts/test.sh starts one"]
fn producing_to_a_missing_topic_creates_nothing() -> Result<()> {
    let _one_at_a_time = serial();
    let topic = format!("missing-{}", std::process::id());
    for attempt in 1..=2 {
        let out = std::process::Command::new(root().join("target/release/krb-produce"))
            .args([&topic, "10", "2"])
            .output()?;
        let err = String::from_utf8_lossy(&out.stderr);
        ensure!(out.status.code() == Some(1), "attempt {attempt}: {out:?}");
        ensure!(err.lines().count() == 1, "attempt {attempt}: {err}");
        ensure!(
            err.starts_with(&format!("krb-produce: topic {topic} does not exist on "))
                && err.contains(&format!("(topic {topic} PARTITIONS,")),
            "attempt {attempt}: {err}"
        );
    }
    Ok(())
}

#[test]
#[ignore = "runs scripts/common.sh, which needs the release build: scripts/test.sh makes it"]
fn wait_any_waits_for_the_groups_line_not_an_earlier_failure() -> Result<()> {
    let _one_at_a_time = serial();
    let out = bash(
        "wait_any on crafted logs",
        "rm -f logs/waitany-*.log
         echo '09:00:00.000 waitany-a commit failed: KafkaError{code=UNKNOWN_MEMBER_ID,val=25,str=\"x\"}' >logs/waitany-a.log
         echo '09:00:00.000 waitany-b commit p0=9' >logs/waitany-b.log
         if wait_any waitany ' commit p0=10$' 1 2>/dev/null; then echo 'early: yes'; else echo 'early: no'; fi
         (sleep 0.5; echo '09:00:01.000 waitany-b commit p0=10' >>logs/waitany-b.log) &
         if wait_any waitany ' commit p0=10$' 10; then echo 'found: yes'; else echo 'found: no'; fi
         wait; rm -f logs/waitany-*.log",
    )?;
    ensure!(
        out.contains("early: no\n") && out.contains("found: yes\n"),
        "{out}"
    );
    Ok(())
}
