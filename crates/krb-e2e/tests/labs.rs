//! Issue 3's end-to-end checks: labs 1 and 2 of the article on the real broker, every
//! "must hold" statement asserted from the logs and from the broker.

use std::collections::BTreeMap;

use anyhow::{bail, ensure, Context, Result};
use chrono::{DateTime, Local, NaiveTime};
use krb_common::logline::{Event, LogLine, Offset, Partition};
use krb_dups::Run;
use krb_e2e::{bash, committed_offsets, dups, serial, WorkerLog};

/// The last committed position of `partition` in `lines`.
fn last_commit(lines: &[LogLine], partition: Partition) -> Option<Offset> {
    lines.iter().rev().find_map(|l| match &l.event {
        Event::Commit(ps) => ps.iter().find(|(p, _)| *p == partition).map(|(_, o)| *o),
        _ => None,
    })
}

/// The last offset of `partition` processed in `lines`.
fn last_processed(lines: &[LogLine], partition: Partition) -> Option<Offset> {
    lines.iter().rev().find_map(|l| match l.event {
        Event::Processed {
            partition: p,
            offset,
        } if p == partition => Some(offset),
        _ => None,
    })
}

struct Lab1 {
    a: WorkerLog,
    b: WorkerLog,
    /// Where a's revoke of every partition is.
    revoke: usize,
    /// The partition that moved to b.
    moved: Partition,
    /// b's first processed offset on the moved partition.
    b_first: Offset,
    /// The last offset a processed on the moved partition before handing it back.
    a_last: Offset,
}

fn lab1(group: &str, revoke_commit: bool) -> Result<Lab1> {
    bash("lab 1 setup", "topic pay 2; krb-produce pay 1000 2")?;
    let flag = if revoke_commit {
        " --revoke-commit"
    } else {
        ""
    };
    let out = bash(
        &format!("lab 1 {group}"),
        &format!("./scripts/01-revoke.sh {group}{flag}"),
    )?;
    ensure!(
        out.contains(&format!(" start {group}-b\n")),
        "the script did not echo b's start: {out}"
    );
    let a = WorkerLog::read(&format!("{group}-a"))?;
    let b = WorkerLog::read(&format!("{group}-b"))?;
    let revoke = a
        .find(0, |e| e == &Event::Revoked(vec![0, 1]))
        .context("a never logged revoked [0, 1]")?;
    a.find(revoke + 1, |e| matches!(e, Event::Assigned(_)))
        .context("a logged no assigned [..] after revoked [0, 1]")?;
    let b_assigned = b
        .find(0, |e| matches!(e, Event::Assigned(ps) if !ps.is_empty()))
        .context("b was never assigned a partition")?;
    let Event::Assigned(moved) = &b.lines[b_assigned].event else {
        unreachable!()
    };
    ensure!(
        moved.len() == 1,
        "b was assigned {moved:?}, expected one partition"
    );
    let moved = moved[0];
    let b_first = b
        .processed()
        .into_iter()
        .find(|(p, _)| *p == moved)
        .map(|(_, o)| o)
        .with_context(|| {
            format!("b processed nothing on p{moved}: the rebalance came too late to measure")
        })?;
    let a_last = last_processed(&a.lines[..revoke], moved)
        .with_context(|| format!("a processed nothing on p{moved} before the revoke"))?;
    let report = dups(group)?;
    ensure!(report.unique == 1000, "unique {} != 1000", report.unique);
    Ok(Lab1 {
        a,
        b,
        revoke,
        moved,
        b_first,
        a_last,
    })
}

#[test]
#[ignore = "needs a Kafka broker: scripts/test.sh starts one"]
fn lab1_without_revoke_commit_rereads_from_the_last_commit() -> Result<()> {
    let _one_at_a_time = serial();
    let lab = lab1("e2e-nocommit", false)?;
    let report = dups("e2e-nocommit")?;
    let n = last_commit(&lab.a.lines[..lab.revoke], lab.moved).unwrap_or(0);
    let dups = report.duplicates();
    println!(
        "lab 1 nocommit: {}, a's last commit p{}={n}, a processed up to {}",
        report.render().trim_end(),
        lab.moved,
        lab.a_last
    );
    ensure!(
        dups <= 99,
        "{dups} duplicates: more than commit-every minus 1"
    );
    ensure!(
        lab.b_first == n,
        "b started p{} at {}, not at a's last commit {n}",
        lab.moved,
        lab.b_first
    );
    let expected: Vec<Run> = if lab.a_last >= n {
        vec![Run {
            partition: lab.moved,
            first: n,
            last: lab.a_last,
            times: 2,
        }]
    } else {
        vec![]
    };
    ensure!(
        report.runs == expected,
        "duplicate runs {:?}, expected {expected:?} (the moved partition from a's last commit to a's last offset)",
        report.runs
    );
    ensure!(
        dups as i64 == lab.a_last - n + 1,
        "duplicates {dups} != {} - {n} + 1",
        lab.a_last
    );
    Ok(())
}

#[test]
#[ignore = "needs a Kafka broker: scripts/test.sh starts one"]
fn lab1_with_revoke_commit_has_no_duplicates() -> Result<()> {
    let _one_at_a_time = serial();
    let lab = lab1("e2e-revcommit", true)?;
    let report = dups("e2e-revcommit")?;
    println!("lab 1 revcommit: {}", report.render().trim_end());
    ensure!(
        report.duplicates() == 0 && report.runs.is_empty(),
        "duplicates: {report:?}"
    );
    let next_assign = lab
        .a
        .find(lab.revoke + 1, |e| matches!(e, Event::Assigned(_)))
        .context("no assigned after the revoke")?;
    let n = last_commit(&lab.a.lines[lab.revoke..next_assign], lab.moved).with_context(|| {
        format!(
            "a logged no commit p{}=N between revoked and its next assigned",
            lab.moved
        )
    })?;
    ensure!(
        n == lab.a_last + 1,
        "revoke commit p{}={n} is not a's last offset {} + 1",
        lab.moved,
        lab.a_last
    );
    ensure!(
        lab.b_first == n,
        "b started p{} at {}, not at the revoke commit {n}",
        lab.moved,
        lab.b_first
    );
    ensure!(
        lab.b
            .lines
            .iter()
            .any(|l| matches!(l.event, Event::Assigned(_))),
        "b has no assigned line"
    );
    Ok(())
}

/// Time of day of librdkafka's MAXPOLL warning in a log (librdkafka stamps it in Unix time).
fn maxpoll_time(text: &str) -> Option<NaiveTime> {
    let line = text
        .lines()
        .find(|l| l.starts_with("%4|") && l.contains("|MAXPOLL|slow-a#consumer-"))?;
    let stamp = line.split('|').nth(1)?;
    let (secs, millis) = stamp.split_once('.')?;
    let at = DateTime::from_timestamp(secs.parse().ok()?, millis.parse::<u32>().ok()? * 1_000_000)?;
    Some(at.with_timezone(&Local).time())
}

fn time_of(log: &WorkerLog, pred: impl Fn(&Event) -> bool) -> Option<(usize, NaiveTime)> {
    log.find(0, pred).map(|i| (i, log.lines[i].time))
}

#[test]
#[ignore = "needs a Kafka broker: scripts/test.sh starts one"]
fn lab2_slow_consumer_is_expelled_and_its_commit_fails() -> Result<()> {
    let _one_at_a_time = serial();
    for run in 1..=2 {
        bash(&format!("lab 2 run {run}"), "./scripts/02-maxpoll.sh")?;
        check_lab2().with_context(|| format!("lab 2, run {run} of 2"))?;
    }
    Ok(())
}

fn check_lab2() -> Result<()> {
    let a = WorkerLog::read("slow-a")?;
    let b = WorkerLog::read("slow-b")?;
    let (_, slow_start) = time_of(&a, |e| {
        e == &Event::SlowStart {
            partition: 0,
            offset: 3,
        }
    })
    .context("a never logged p0 offset 3 slow start")?;
    let maxpoll =
        maxpoll_time(&a.text).context("no MAXPOLL warning from librdkafka in logs/slow-a.log")?;
    let after = (maxpoll - slow_start).num_milliseconds();
    ensure!(
        (9_500..=12_000).contains(&after),
        "MAXPOLL came {after} ms after the slow start, not about 10 s"
    );

    let (a_done_at, a_done) = time_of(&a, |e| {
        e == &Event::Processed {
            partition: 0,
            offset: 3,
        }
    })
    .context("a never finished offset 3")?;
    let (_, b_assigned) =
        time_of(&b, |e| e == &Event::Assigned(vec![0])).context("b was never assigned [0]")?;
    ensure!(
        slow_start < b_assigned && b_assigned < a_done,
        "b was assigned [0] at {b_assigned}, not while a was in offset 3 ({slow_start}..{a_done})"
    );
    time_of(&b, |e| {
        e == &Event::Processed {
            partition: 0,
            offset: 3,
        }
    })
    .context("b never processed offset 3")?;

    let after_done = a
        .find(a_done_at + 1, |e| {
            matches!(e, Event::Commit(_) | Event::CommitFailed(_))
        })
        .context("a did not commit after offset 3")?;
    match &a.lines[after_done].event {
        Event::CommitFailed(err)
            if err.starts_with("KafkaError{code=UNKNOWN_MEMBER_ID,val=25,") => {}
        other => {
            bail!("a's commit after offset 3 was {other}, not a failure with UNKNOWN_MEMBER_ID")
        }
    }
    let loss = a
        .find(after_done + 1, |e| {
            matches!(e, Event::Lost(_) | Event::Revoked(_))
        })
        .context("a logged neither lost nor revoked after its failed commit")?;
    ensure!(
        a.lines[loss].event == Event::Lost(vec![0]),
        "a logged {} instead of lost [0]",
        a.lines[loss].event
    );
    a.find(a_done_at, |e| {
        matches!(e, Event::PollError(t) if t.starts_with(
            "KafkaError{code=_MAX_POLL_EXCEEDED,val=-147,str=\"Application maximum poll interval (10000ms) exceeded by "))
    })
    .context("a logged no poll error _MAX_POLL_EXCEEDED with librdkafka's text")?;

    let report = dups("slow")?;
    ensure!(report.unique == 10, "unique {} != 10", report.unique);
    ensure!(
        report.runs
            == vec![Run {
                partition: 0,
                first: 3,
                last: 3,
                times: 2
            }],
        "expected only offset 3 processed twice, got {:?}",
        report.runs
    );
    let committed = committed_offsets("slow")?;
    ensure!(
        committed == BTreeMap::from([(0, 10)]),
        "committed offsets {committed:?}, expected p0=10"
    );

    let mut commits: Vec<(NaiveTime, Offset)> = a
        .lines
        .iter()
        .chain(&b.lines)
        .filter_map(|l| match &l.event {
            Event::Commit(ps) => ps.iter().find(|(p, _)| *p == 0).map(|(_, o)| (l.time, *o)),
            _ => None,
        })
        .collect();
    commits.sort();
    ensure!(
        commits.windows(2).all(|w| w[0].1 <= w[1].1),
        "the committed offset went backwards: {commits:?}"
    );
    println!(
        "lab 2: MAXPOLL {after} ms after slow start; b assigned {:.1} s before a finished offset 3; {}",
        (a_done - b_assigned).num_milliseconds() as f64 / 1000.0,
        report.render().trim_end()
    );
    Ok(())
}
