//! The worker's failure paths on the real broker and databases, read back with independent
//! tools (psql, Kafka's ConsumerGroupCommand): no Kafka commit past an effect the database does
//! not hold, no database transaction held while a worker waits, a refused db-offsets worker that
//! goes on, a kafka-eos transaction that does not wait for the worker's next message.

use std::collections::BTreeMap;

use anyhow::{ensure, Context, Result};
use chrono::NaiveTime;
use krb_e2e::{bash, committed_offsets, root, serial};
use krb_log::logline::{Event, Offset, Partition};

/// Per partition, `(distinct offsets, highest offset)` of a table's rows, read with psql.
fn rows_by_partition(out: &str) -> Result<BTreeMap<Partition, (i64, Offset)>> {
    let mut rows = BTreeMap::new();
    for line in out.lines().filter_map(|l| l.strip_prefix("rows ")) {
        let cols: Vec<&str> = line.split('|').collect();
        ensure!(cols.len() == 3, "psql line {line:?}");
        rows.insert(cols[0].parse()?, (cols[1].parse()?, cols[2].parse()?));
    }
    Ok(rows)
}

/// The psql query behind [`rows_by_partition`].
const ROWS: &str = "psql \"$db\" -Atc 'SELECT partition, count(DISTINCT \"offset\"), max(\"offset\") FROM krb_effects_plain GROUP BY partition' | sed 's/^/rows /'";

#[test]
#[ignore = "needs a Kafka broker and PostgreSQL's programs: scripts/test.sh"]
fn postgres_stopped_under_a_fast_worker_leaves_no_commit_past_a_stored_effect() -> Result<()> {
    let _one_at_a_time = serial();
    // A server of the test's own, so that stopping it stops nothing else. The worker commits
    // every 20,000 messages and in its revoke callback: the database goes away between two
    // commits, with thousands of effects in its open transaction.
    let out = bash(
        "PostgreSQL stopped under a fast worker",
        &format!(
            "trap 'stop_all pglose; scripts/pg-local.sh stop >/dev/null 2>&1 || true' EXIT
             export KRB_PG_PORT=5492 KRB_PG_HOME=/tmp/krb-postgres-e2e-lose
             scripts/pg-local.sh start >/dev/null; db=$(scripts/pg-local.sh url)
             rm -f logs/pglose-*.log; krb-effects init \"$db\" >/dev/null
             topic pglose 2 >/dev/null; krb-group pglose >/dev/null; krb-produce pglose 300000 2 >/dev/null
             start pglose-a pglose pglose --delay 0 --commit-every 20000 --revoke-commit --effect plain --db \"$db\" >/dev/null
             a=$(cat logs/pglose-a.pid)
             wait_unique pglose 25000 60
             scripts/pg-local.sh stop >/dev/null
             code=0; timeout 60 tail --pid=\"$a\" -f /dev/null || code=timeout
             [ \"$code\" = timeout ] || {{ wait \"$a\" || code=$?; }}
             rm -f logs/pglose-a.pid
             echo \"a exited: $code\"
             scripts/pg-local.sh start >/dev/null
             {ROWS}
             scripts/pg-local.sh stop >/dev/null"
        ),
    )?;
    let log = std::fs::read_to_string(root().join("logs/pglose-a.log"))?;
    let last = log.lines().last().unwrap_or_default();
    ensure!(
        out.contains("a exited: 1\n"),
        "a did not exit 1: {out}\n{last}"
    );
    ensure!(
        last.starts_with("krb-worker: cannot ") && last.contains("postgres://"),
        "the worker's last line is not the database's error: {last}"
    );
    let rows = rows_by_partition(&out)?;
    let committed = committed_offsets("pglose")?;
    for (p, c) in &committed {
        // One worker applies a partition's offsets in order: its rows are offsets 0..=max.
        let (distinct, max) = rows.get(p).copied().unwrap_or((0, -1));
        ensure!(
            distinct == max + 1,
            "p{p}: {distinct} distinct rows up to offset {max}"
        );
        ensure!(
            *c <= max + 1,
            "p{p}: Kafka committed {c}, past the {distinct} effects stored (offsets 0..={max})"
        );
    }
    Ok(())
}

#[test]
fn rows_are_read_from_psqls_lines() {
    let rows = rows_by_partition("x\nrows 0|10|9\nrows 1|3|2\n").unwrap();
    assert_eq!(rows, BTreeMap::from([(0, (10, 9)), (1, (3, 2))]));
    assert!(rows_by_partition("rows 0|10\n").is_err());
}

/// Counts a worker's lines that end with `what` in its log.
fn count(log: &str, what: &str) -> usize {
    log.lines().filter(|l| l.ends_with(what)).count()
}

#[test]
#[ignore = "needs a Kafka broker: scripts/test.sh starts one"]
fn two_db_offsets_workers_at_full_speed_share_one_sqlite_file() -> Result<()> {
    let _one_at_a_time = serial();
    // 500 messages a second for 20 s, longer than SQLite's 10 s busy timeout: a worker that
    // kept its transaction open while it waited for the next message would hold the file's
    // write lock for seconds, and the other would wait for it (an old worker's log had gaps of
    // 3 to 5 s, and then "database is locked").
    let out = bash(
        "two db-offsets workers on one SQLite file",
        "trap 'stop_all sqshare' EXIT
         db=sqlite:logs/sqshare.db; rm -f logs/sqshare*
         krb-effects init \"$db\" >/dev/null; topic sqshare 2 >/dev/null; krb-group sqshare >/dev/null
         for w in a b; do
           start sqshare-$w sqshare sqshare --delay 0 --effect db-offsets --db \"$db\" >/dev/null
         done
         wait_log sqshare-a 'assigned \\[' 60; wait_log sqshare-b 'assigned \\[' 60
         krb-produce sqshare 10000 2 0.002 >/dev/null
         wait_unique sqshare 10000 60
         stop sqshare-a sqshare-b
         krb-effects count \"$db\" sqshare --effect db-offsets | head -n 1",
    )?;
    ensure!(
        out.contains("processed 10000, unique 10000, duplicates 0\n"),
        "the table does not hold each message once: {out}"
    );
    for w in ["a", "b"] {
        let log = std::fs::read_to_string(root().join(format!("logs/sqshare-{w}.log")))?;
        ensure!(
            !log.contains("database is locked") && !log.contains("krb-worker: "),
            "{w} failed:\n{}",
            log.lines().rev().take(3).collect::<Vec<_>>().join("\n")
        );
        // A message arrives for each every 4 ms: a stall is a gap between two effects.
        let gap = longest_gap(&log)?;
        ensure!(
            gap < 2.0,
            "{w} waited {gap:.1} s between two effects while messages kept arriving"
        );
    }
    Ok(())
}

/// When each processing in a worker's log happened, read by the tools' one reader.
fn processed_times(log: &str) -> Vec<NaiveTime> {
    log.lines()
        .filter_map(|line| krb_log::reader::parse_bytes(line.as_bytes()).ok().flatten())
        .filter(|l| matches!(l.event, Event::Processed { .. }))
        .map(|l| l.time)
        .collect()
}

/// The longest time between two processings in a worker's log, in seconds.
fn longest_gap(log: &str) -> Result<f64> {
    let times: Vec<f64> = processed_times(log)
        .into_iter()
        .map(|t| (t - NaiveTime::MIN).as_seconds_f64())
        .collect();
    ensure!(times.len() > 1, "no effects in the log");
    Ok(times.windows(2).map(|w| w[1] - w[0]).fold(0.0, f64::max))
}

#[test]
#[ignore = "needs a Kafka broker: scripts/test.sh starts one"]
fn a_paused_db_offsets_worker_does_not_stall_the_others_on_sqlite() -> Result<()> {
    let _one_at_a_time = serial();
    // a is paused (SIGSTOP) for 15 s, longer than SQLite's busy timeout, while messages keep
    // arriving for it; its session timeout is longer still, so the group does not move its
    // partition, and b's own partition must go on. A SIGSTOP can land between a transaction's
    // BEGIN and COMMIT, which no program can prevent; what the worker must not do is keep one
    // open while it waits for its next message. So the pause is retried until it finds the
    // file's write lock free (Python's sqlite3 asks for it without waiting): an old worker,
    // whose transaction stayed open while messages kept arriving, never let it go.
    let out = bash(
        "a paused db-offsets worker",
        "trap 'stop_all sqpause' EXIT
         db=sqlite:logs/sqpause.db; rm -f logs/sqpause*
         krb-effects init \"$db\" >/dev/null; topic sqpause 2 >/dev/null; krb-group sqpause >/dev/null
         for w in a b; do
           start sqpause-$w sqpause sqpause --delay 0 --session-timeout-ms 45000 --effect db-offsets --db \"$db\" >/dev/null
         done
         wait_log sqpause-a 'assigned \\[' 60; wait_log sqpause-b 'assigned \\[' 60
         krb-produce sqpause 12000 2 0.002 >/dev/null &
         producer=$!
         wait_unique sqpause 1000 60
         a=$(cat logs/sqpause-a.pid); free=no
         for _ in $(seq 1 20); do
           kill -STOP \"$a\"
           if python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1], timeout=0, isolation_level=None); c.execute(\"BEGIN IMMEDIATE\"); c.execute(\"ROLLBACK\")' logs/sqpause.db 2>/dev/null; then
             free=yes; break
           fi
           kill -CONT \"$a\"; sleep 0.05
         done
         echo \"paused with the lock free: $free\"
         echo \"paused at $(now)\"
         sleep 15
         echo \"resumed at $(now)\"; kill -CONT \"$a\"
         wait \"$producer\"; wait_unique sqpause 12000 60
         stop sqpause-a sqpause-b
         krb-effects count \"$db\" sqpause --effect db-offsets | head -n 1",
    )?;
    ensure!(
        out.contains("paused with the lock free: yes\n"),
        "a held SQLite's write lock at each of 20 pauses while messages kept arriving: {out}"
    );
    ensure!(
        out.contains("processed 12000, unique 12000, duplicates 0\n"),
        "the table does not hold each message once: {out}"
    );
    let at = |what: &str| -> Result<NaiveTime> {
        let text = out
            .lines()
            .find_map(|l| l.strip_prefix(what))
            .with_context(|| format!("no '{what}' line: {out}"))?;
        Ok(NaiveTime::parse_from_str(text, "%H:%M:%S%.3f")?)
    };
    let (paused, resumed) = (at("paused at ")?, at("resumed at ")?);
    let log = std::fs::read_to_string(root().join("logs/sqpause-b.log"))?;
    ensure!(
        !log.contains("krb-worker: "),
        "b failed: {}",
        log.lines().last().unwrap_or_default()
    );
    let during = processed_times(&log)
        .into_iter()
        .filter(|t| *t > paused && *t < resumed)
        .count();
    ensure!(
        during >= 2000,
        "b applied {during} effects in a's 15 s pause (about 3,750 were produced for it)"
    );
    ensure!(count(&log, " refused") == 0, "b was refused");
    Ok(())
}

#[test]
#[ignore = "needs a Kafka broker and PostgreSQL's programs: scripts/test.sh"]
fn postgres_db_offsets_worker_goes_on_from_a_position_another_moved() -> Result<()> {
    let _one_at_a_time = serial();
    // Another worker (here psql) moves p0's stored position 20 messages ahead while a owns p0,
    // as a zombie's transaction does before it learns it was expelled: a's next effect is
    // refused. An old worker then refused every later message of p0 until a rebalance.
    let out = bash(
        "db-offsets position moved under a worker",
        "trap 'stop_all pgmove; scripts/pg-local.sh stop >/dev/null 2>&1 || true' EXIT
         export KRB_PG_PORT=5493 KRB_PG_HOME=/tmp/krb-postgres-e2e-move
         scripts/pg-local.sh start >/dev/null; db=$(scripts/pg-local.sh url)
         rm -f logs/pgmove-*.log; krb-effects init \"$db\" >/dev/null
         topic pgmove 1 >/dev/null; krb-group pgmove >/dev/null; krb-produce pgmove 300 1 >/dev/null
         start pgmove-a pgmove pgmove --delay 0.02 --revoke-commit --effect db-offsets --db \"$db\" >/dev/null
         wait_log pgmove-a 'p0 offset 50$' 60
         psql \"$db\" -Atc 'UPDATE krb_positions SET next_offset = next_offset + 20' >/dev/null
         wait_log pgmove-a 'p0 offset 299$' 60
         stop pgmove-a
         echo \"position: $(psql \"$db\" -Atc 'SELECT next_offset FROM krb_positions')\"",
    )?;
    let log = std::fs::read_to_string(root().join("logs/pgmove-a.log"))?;
    ensure!(out.contains("position: 300\n"), "{out}");
    // One refusal (two if a had already read its next message), then a goes on.
    let refused = count(&log, " refused");
    ensure!(
        (1..=2).contains(&refused),
        "a was refused {refused} times:\n{log}"
    );
    let committed = committed_offsets("pgmove")?;
    ensure!(
        committed == BTreeMap::from([(0, 300)]),
        "ConsumerGroupCommand shows {committed:?}, expected p0=300"
    );
    Ok(())
}

#[test]
#[ignore = "needs a Kafka broker: scripts/test.sh starts one"]
fn an_idle_kafka_eos_worker_commits_its_open_transaction() -> Result<()> {
    let _one_at_a_time = serial();
    // 10 messages and a transaction every 1,000: the worker is idle with its transaction open.
    // It commits it within its bound (5 s), not at the broker's transaction timeout (60 s) or
    // at its stop, so a read_committed reader sees the output while the worker runs.
    let out = bash(
        "an idle kafka-eos worker",
        "trap 'stop_all eosidle' EXIT
         rm -f logs/eosidle-*.log; topic eosidle 1 >/dev/null; krb-group eosidle >/dev/null
         krb-effects init kafka:eosidle-out >/dev/null
         start eosidle-a eosidle eosidle --delay 0.01 --commit-every 1000 --effect kafka-eos --db kafka:eosidle-out >/dev/null
         wait_log eosidle-a 'assigned \\[0\\]' 60
         krb-produce eosidle 10 1 >/dev/null
         wait_log eosidle-a 'p0 offset 9$' 30
         wait_log eosidle-a 'commit p0=10$' 15
         echo \"output: $(krb-effects count kafka:eosidle-out eosidle --effect kafka-eos | head -n 1)\"
         scripts/kafka-local.sh java org.apache.kafka.tools.consumer.group.ConsumerGroupCommand \\
           --bootstrap-server \"${KRB_BOOTSTRAP:-localhost:9481}\" --describe --group eosidle 2>/dev/null |
           awk '$1 == \"eosidle\" { print \"committed p\" $3 \"=\" $4 }'",
    )?;
    // Both read while the worker still runs (the trap stops it afterwards).
    ensure!(
        out.contains("output: processed 10, unique 10, duplicates 0\n"),
        "{out}"
    );
    ensure!(out.contains("committed p0=10\n"), "{out}");
    Ok(())
}
