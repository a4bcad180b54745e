//! Issue 4's end-to-end checks: labs 3 (assignors), 4 (static membership) and 5 (KIP-848).

use std::collections::BTreeSet;

use anyhow::{ensure, Context, Result};
use chrono::NaiveTime;
use krb_common::logline::{Event, LogLine, Partition};
use krb_e2e::{bash, dups, serial, WorkerLog};

/// The time the script echoed for `start NAME`, the `nth` time (0-based) it did.
fn started(out: &str, name: &str, nth: usize) -> Result<NaiveTime> {
    let line = out
        .lines()
        .filter(|l| l.ends_with(&format!(" start {name}")))
        .nth(nth)
        .with_context(|| format!("the script did not echo start {name} (#{nth})"))?;
    Ok(NaiveTime::parse_from_str(&line[..12], "%H:%M:%S%.3f")?)
}

/// The worker lines the script printed (lab 3's rebalance section).
fn printed_lines(out: &str) -> Vec<LogLine> {
    out.lines()
        .filter_map(|l| LogLine::parse(l).ok().flatten())
        .collect()
}

fn lab3(group: &str, assignor: &str, revoke_commit: bool) -> Result<()> {
    let flag = if revoke_commit {
        " --revoke-commit"
    } else {
        ""
    };
    let out = bash(
        &format!("lab 3 {group}"),
        &format!("./scripts/03-assignor.sh {group} --assignor {assignor}{flag}"),
    )?;
    let c = format!("{group}-c");
    let rebalance = printed_lines(&out);
    let revoked: BTreeSet<Partition> = rebalance
        .iter()
        .filter(|l| l.name != c)
        .flat_map(|l| match &l.event {
            Event::Revoked(ps) => ps.clone(),
            _ => vec![],
        })
        .collect();
    let to_c: BTreeSet<Partition> = rebalance
        .iter()
        .filter(|l| l.name == c)
        .flat_map(|l| match &l.event {
            Event::Assigned(ps) => ps.clone(),
            _ => vec![],
        })
        .collect();
    ensure!(!to_c.is_empty(), "{c} was assigned nothing:\n{out}");
    let report = dups(group)?;
    ensure!(report.unique == 3000, "unique {} != 3000", report.unique);
    let dup_partitions: BTreeSet<Partition> = report.runs.iter().map(|r| r.partition).collect();
    println!(
        "lab 3 {assignor}{flag}: revoked {revoked:?}, moved to c {to_c:?}, {} on {dup_partitions:?}",
        report.render().lines().next().unwrap_or_default()
    );
    if assignor == "range" {
        ensure!(
            revoked == (0..6).collect(),
            "range must revoke every partition, revoked {revoked:?}"
        );
    } else {
        ensure!(
            revoked == to_c,
            "cooperative-sticky revoked {revoked:?} but moved {to_c:?} to c"
        );
        ensure!(
            dup_partitions.is_subset(&to_c),
            "duplicates on {dup_partitions:?}, outside the moved partitions {to_c:?}"
        );
    }
    if revoke_commit {
        ensure!(
            report.duplicates() == 0,
            "{} duplicates with the revoke commit",
            report.duplicates()
        );
    }
    Ok(())
}

#[test]
#[ignore = "needs a Kafka broker: scripts/test.sh starts one"]
fn lab3_eager_revokes_everything_cooperative_only_what_moves() -> Result<()> {
    let _one_at_a_time = serial();
    lab3("e2e-range", "range", false)?;
    lab3("e2e-coop", "cooperative-sticky", false)?;
    lab3("e2e-range-rc", "range", true)?;
    lab3("e2e-coop-rc", "cooperative-sticky", true)?;
    Ok(())
}

/// Revokes in `log` at or after `from` and before `to`.
fn revokes(log: &WorkerLog, from: NaiveTime, to: NaiveTime) -> usize {
    log.lines
        .iter()
        .filter(|l| l.time >= from && l.time < to && matches!(l.event, Event::Revoked(_)))
        .count()
}

fn lab4(group: &str, static_membership: bool) -> Result<()> {
    let flag = if static_membership { " --static" } else { "" };
    let out = bash(
        &format!("lab 4 {group}"),
        &format!("./scripts/04-static.sh {group}{flag}"),
    )?;
    ensure!(
        out.contains("session.timeout.ms 10000"),
        "the script did not say its session timeout"
    );
    let a_name = format!("{group}-a");
    let restart = started(&out, &a_name, 1)?;
    let a = WorkerLog::read(&a_name)?;
    let b = WorkerLog::read(&format!("{group}-b"))?;
    let stopping = a.lines.last().context("a logged nothing")?.time;
    let assigned_before = a
        .lines
        .iter()
        .filter(|l| l.time < restart)
        .filter_map(|l| match &l.event {
            Event::Assigned(ps) if !ps.is_empty() => Some(ps.clone()),
            _ => None,
        })
        .next_back()
        .context("a was never assigned before its restart")?;
    let (back_at, back) = a
        .lines
        .iter()
        .filter(|l| l.time >= restart)
        .find_map(|l| match &l.event {
            Event::Assigned(ps) if !ps.is_empty() => Some((l.time, ps.clone())),
            _ => None,
        })
        .context("a got no partitions after its restart")?;
    // From a's stop (its first run's last line) to the end of its second run: b's own revoke
    // when the script stops both comes after a's last line.
    let stopped = a
        .lines
        .iter()
        .rfind(|l| l.time < restart)
        .context("a logged nothing before its restart")?
        .time;
    let b_revokes = revokes(&b, stopped, stopping);
    let took = (back_at - restart).num_milliseconds();
    println!(
        "lab 4{flag}: b revoked {b_revokes} time(s); a had {back:?} back {:.2} s after start (before {assigned_before:?})",
        took as f64 / 1000.0
    );
    ensure!(
        out.contains(&format!(
            "{group}-b revoked {b_revokes} time(s) while {a_name} restarted"
        )),
        "the script's count differs from the log's {b_revokes}:\n{out}"
    );
    if static_membership {
        ensure!(
            b_revokes == 0,
            "with static membership b revoked {b_revokes} time(s)"
        );
        ensure!(
            back == assigned_before,
            "a got {back:?} back, had {assigned_before:?}"
        );
    } else {
        ensure!(
            b_revokes == 2,
            "without static membership b revoked {b_revokes} time(s), expected 2"
        );
    }
    Ok(())
}

#[test]
#[ignore = "needs a Kafka broker: scripts/test.sh starts one"]
fn lab4_static_member_restarts_without_a_rebalance() -> Result<()> {
    let _one_at_a_time = serial();
    lab4("e2e-dynamic", false)?;
    lab4("e2e-static", true)?;
    Ok(())
}

fn lab5(group: &str, protocol: &str) -> Result<()> {
    let out = bash(
        &format!("lab 5 {protocol}"),
        &format!("./scripts/05-protocol.sh {group} --protocol {protocol}"),
    )?;
    let b_start = started(&out, &format!("{group}-b"), 0)?;
    let a = WorkerLog::read(&format!("{group}-a"))?;
    let b = WorkerLog::read(&format!("{group}-b"))?;
    let a_revoked: Vec<&Event> = a
        .lines
        .iter()
        .filter(|l| l.time >= b_start && matches!(l.event, Event::Revoked(_)))
        .map(|l| &l.event)
        .collect();
    let moved: BTreeSet<Partition> = b
        .events()
        .filter_map(|e| match e {
            Event::Assigned(ps) => Some(ps.clone()),
            _ => None,
        })
        .flatten()
        .collect();
    let report = dups(group)?;
    ensure!(
        report.unique == 1000,
        "lab 1 part: unique {}",
        report.unique
    );
    ensure!(
        report.duplicates() <= 99,
        "lab 1 part: {} duplicates",
        report.duplicates()
    );
    ensure!(
        report.runs.iter().all(|r| moved.contains(&r.partition)),
        "duplicates outside the partition that moved to b: {:?}",
        report.runs
    );
    let first_revoke = a_revoked
        .first()
        .context("a revoked nothing after b's start")?;
    if protocol == "classic" {
        ensure!(
            **first_revoke == Event::Revoked(vec![0, 1]),
            "classic: a's first revoke {first_revoke}"
        );
    } else {
        ensure!(
            **first_revoke == Event::Revoked(moved.iter().copied().collect()),
            "consumer protocol: a's first revoke {first_revoke} is not just the moved {moved:?}"
        );
    }
    let b_first = b
        .lines
        .iter()
        .find(|l| matches!(l.event, Event::Processed { .. }))
        .context("b processed nothing")?
        .time;
    println!(
        "lab 5 {protocol}: {}, a's first revoke {first_revoke}, b's first message {:.2} s after its start",
        report.render().lines().next().unwrap_or_default(),
        (b_first - b_start).num_milliseconds() as f64 / 1000.0
    );

    let slow = format!("{group}_maxpoll");
    let sa = WorkerLog::read(&format!("{slow}-a"))?;
    ensure!(
        sa.text.contains("|MAXPOLL|"),
        "lab 2 part: no MAXPOLL warning"
    );
    let done = sa
        .find(0, |e| {
            e == &Event::Processed {
                partition: 0,
                offset: 3,
            }
        })
        .context("lab 2 part: a never finished offset 3")?;
    sa.find(done, |e| matches!(e, Event::CommitFailed(_)))
        .context("lab 2 part: a's commit after offset 3 did not fail")?;
    sa.find(done, |e| e == &Event::Lost(vec![0]))
        .context("lab 2 part: a did not log lost [0]")?;
    let slow_report = dups(&slow)?;
    ensure!(
        slow_report.unique == 10,
        "lab 2 part: unique {}",
        slow_report.unique
    );
    println!(
        "lab 5 {protocol}, lab 2 part: {}",
        slow_report.render().trim_end()
    );
    ensure!(
        out.contains("== results, group.protocol="),
        "no results section"
    );
    Ok(())
}

#[test]
#[ignore = "needs a Kafka broker: scripts/test.sh starts one"]
fn lab5_consumer_protocol_revokes_incrementally() -> Result<()> {
    let _one_at_a_time = serial();
    lab5("e2e-classic", "classic")?;
    lab5("e2e-kip848", "consumer")?;
    Ok(())
}
