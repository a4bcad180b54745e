//! Issue 2's end-to-end check: the tools and common.sh on the real broker.

use std::collections::BTreeMap;

use anyhow::{ensure, Result};
use krb_common::logline::Event;
use krb_common::worker_log::WorkerLog;
use krb_e2e::{bash, committed_offsets, root, serial};

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

    let log = WorkerLog::read(&root().join("logs"), "core-a")?;
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
