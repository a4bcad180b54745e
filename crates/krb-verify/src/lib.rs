//! krb-verify: checks a lab's "must hold" statements against what the lab left behind: the
//! workers' logs (read through krb-common's grammar), krb-dups' analysis, and the broker's
//! committed offsets. The lab command prints its table from these verdicts and the end-to-end
//! tests assert them, so a statement is written once.

use std::collections::BTreeSet;
use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result};
use chrono::NaiveTime;
use krb_common::broker::BrokerArgs;
use krb_common::logline::{Event, LogLine, Offset, Partition};
pub use krb_common::worker_log::{maxpoll_time, WorkerLog};
use krb_dups::{read_group, Report, Run};
use rdkafka::consumer::{BaseConsumer, Consumer};
use rdkafka::TopicPartitionList;
use serde::Serialize;

/// One statement of a lab and whether this run kept it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Check {
    /// What must hold.
    pub statement: String,
    /// Whether it held.
    pub held: bool,
    /// What was measured.
    pub detail: String,
}

/// A lab variant's result: the article's number, ours, and every statement checked.
#[derive(Clone, Debug, Serialize)]
pub struct Verdict {
    /// The lab's number (1 to 5).
    pub lab: u8,
    /// The lab's short name (`revoke`, `maxpoll`, ...).
    pub name: String,
    /// The variant (`nocommit`, `range --revoke-commit`, ...).
    pub variant: String,
    /// The consumer group the lab ran in.
    pub group: String,
    /// What the article reports for it.
    pub article: String,
    /// What this run measured.
    pub ours: String,
    /// The statements, in order.
    pub checks: Vec<Check>,
}

impl Verdict {
    /// True when every statement held.
    pub fn held(&self) -> bool {
        self.checks.iter().all(|c| c.held)
    }

    /// The statements that did not hold, one per line.
    pub fn failures(&self) -> String {
        self.checks
            .iter()
            .filter(|c| !c.held)
            .map(|c| format!("{} ({})", c.statement, c.detail))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// One tab-separated row, what lab.sh tabulates: lab, variant, article, ours, held,
    /// failures.
    pub fn row(&self) -> String {
        format!(
            "{} {}\t{}\t{}\t{}\t{}/{}\t{}",
            self.lab,
            self.name,
            self.variant,
            self.article,
            self.ours,
            self.checks.iter().filter(|c| c.held).count(),
            self.checks.len(),
            self.failures().replace('\n', "; ")
        )
    }

    /// The verdict for a person: the article's number, ours, then each statement with `held`
    /// or `FAILED`.
    pub fn render(&self) -> String {
        let mut text = format!(
            "lab {} {} {} (group {})\n  article: {}\n  ours:    {}\n",
            self.lab, self.name, self.variant, self.group, self.article, self.ours
        );
        for c in &self.checks {
            let mark = if c.held { "held  " } else { "FAILED" };
            text += &format!("  {mark} {} ({})\n", c.statement, c.detail);
        }
        text
    }

    fn check(&mut self, statement: &str, held: bool, detail: impl Into<String>) {
        self.checks.push(Check {
            statement: statement.to_string(),
            held,
            detail: detail.into(),
        });
    }
}

/// A lab and its variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lab {
    /// Lab 1, 01-revoke.sh.
    Revoke {
        /// `--revoke-commit`.
        revoke_commit: bool,
    },
    /// Lab 2, 02-maxpoll.sh.
    Maxpoll,
    /// Lab 3, 03-assignor.sh.
    Assignor {
        /// `range` or `cooperative-sticky`.
        assignor: String,
        /// `--revoke-commit`.
        revoke_commit: bool,
    },
    /// Lab 4, 04-static.sh.
    Static {
        /// `--static`.
        static_membership: bool,
    },
    /// Lab 5, 05-protocol.sh.
    Protocol {
        /// `classic` or `consumer`.
        protocol: String,
    },
}

fn revoked(e: &Event) -> Option<&Vec<Partition>> {
    match e {
        Event::Revoked(ps) => Some(ps),
        _ => None,
    }
}

fn assigned(e: &Event) -> Option<&Vec<Partition>> {
    match e {
        Event::Assigned(ps) => Some(ps),
        _ => None,
    }
}

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

fn seconds(from: NaiveTime, to: NaiveTime) -> f64 {
    (to - from).num_milliseconds() as f64 / 1000.0
}

fn summary(report: &Report) -> String {
    let partitions: BTreeSet<Partition> = report.runs.iter().map(|r| r.partition).collect();
    let on = if partitions.is_empty() {
        String::new()
    } else {
        format!(
            " on p{}",
            partitions
                .iter()
                .map(|p| p.to_string())
                .collect::<Vec<_>>()
                .join(", p")
        )
    };
    match report.duplicates() {
        1 => format!("1 duplicate{on}"),
        n => format!("{n} duplicates{on}"),
    }
}

/// The group's committed offsets of `topic`'s first `partitions` partitions, from the broker.
pub fn committed(
    broker: &BrokerArgs,
    group: &str,
    topic: &str,
    partitions: i32,
) -> Result<Vec<(Partition, Option<Offset>)>> {
    let consumer: BaseConsumer = broker
        .config("krb-verify", &[("group.id", group.to_string())])
        .create()
        .context("cannot create a consumer to read committed offsets")?;
    let mut tpl = TopicPartitionList::new();
    for p in 0..partitions {
        tpl.add_partition(topic, p);
    }
    let tpl = consumer
        .committed_offsets(tpl, Duration::from_secs(10))
        .map_err(|e| anyhow::anyhow!(broker.unreachable(&e)))?;
    Ok(tpl
        .elements()
        .iter()
        .map(|e| (e.partition(), e.offset().to_raw()))
        .collect())
}

/// Checks one lab variant that ran in `group`, with its logs in `dir`.
pub fn verify(lab: &Lab, group: &str, dir: &Path, broker: &BrokerArgs) -> Result<Verdict> {
    match lab {
        Lab::Revoke { revoke_commit } => revoke(group, dir, *revoke_commit),
        Lab::Maxpoll => maxpoll(group, dir, broker, 2),
        Lab::Assignor {
            assignor,
            revoke_commit,
        } => assignor_lab(group, dir, assignor, *revoke_commit),
        Lab::Static { static_membership } => static_lab(group, dir, *static_membership),
        Lab::Protocol { protocol } => protocol_lab(group, dir, broker, protocol),
    }
}

fn verdict(lab: u8, name: &str, variant: &str, group: &str, article: &str) -> Verdict {
    Verdict {
        lab,
        name: name.into(),
        variant: variant.into(),
        group: group.into(),
        article: article.into(),
        ours: String::new(),
        checks: Vec::new(),
    }
}

/// Lab 1's statements, also used for lab 5's first part (`lab` says which lab reports).
fn revoke_checks(v: &mut Verdict, group: &str, dir: &Path, revoke_commit: bool) -> Result<Report> {
    let a = WorkerLog::read(dir, &format!("{group}-a"))?;
    let b = WorkerLog::read(dir, &format!("{group}-b"))?;
    let report = read_group(dir, group)?;
    v.check(
        "all 1000 messages processed",
        report.unique == 1000,
        format!("unique {}", report.unique),
    );
    let b_start = b
        .time_of(0, |e| e == &Event::Start)
        .unwrap_or(NaiveTime::MIN);
    let revoke = a.find(0, |e| matches!(e, Event::Revoked(ps) if !ps.is_empty()));
    let revoke = revoke.filter(|&i| a.lines[i].time >= b_start);
    let reassigned = revoke.and_then(|r| a.find(r + 1, |e| matches!(e, Event::Assigned(_))));
    let moved: Vec<Partition> = b
        .lines
        .iter()
        .find_map(|l| assigned(&l.event).filter(|ps| !ps.is_empty()).cloned())
        .unwrap_or_default();
    v.check(
        "a handed partitions back after b joined",
        revoke.is_some(),
        match revoke {
            Some(i) => format!("a {}", a.lines[i].event),
            None => "a logged no revoke after b started".into(),
        },
    );
    if v.lab == 1 {
        v.check(
            "a logged revoked [0, 1], then assigned [..]",
            revoke.is_some_and(|i| a.lines[i].event == Event::Revoked(vec![0, 1]))
                && reassigned.is_some(),
            format!("reassigned: {}", reassigned.is_some()),
        );
    }
    v.check(
        "b was assigned the one partition that moved",
        moved.len() == 1,
        format!("b assigned {moved:?}"),
    );
    let (Some(revoke), [moved]) = (revoke, moved.as_slice()) else {
        return Ok(report);
    };
    let reassigned = reassigned.unwrap_or(a.lines.len());
    let moved = *moved;
    let a_last = last_processed(&a.lines[..revoke], moved);
    let b_first = b.processed().find(|(p, _)| *p == moved).map(|(_, o)| o);
    let dups = report.duplicates();
    if revoke_commit {
        v.check("no duplicates", dups == 0, format!("{dups} duplicates"));
        let n = last_commit(&a.lines[revoke..reassigned], moved);
        v.check(
            "a committed the moved partition in the revoke callback, up to its last offset",
            n.is_some() && n == a_last.map(|o| o + 1),
            format!("commit p{moved}={n:?}, a's last offset {a_last:?}"),
        );
        v.check(
            "b began the moved partition at that commit",
            n.is_some() && b_first == n,
            format!("b's first offset on p{moved}: {b_first:?}"),
        );
    } else {
        let n = last_commit(&a.lines[..revoke], moved).unwrap_or(0);
        v.check(
            "duplicates between 0 and commit-every minus 1 (99)",
            dups <= 99,
            format!("{dups} duplicates"),
        );
        let expected: Vec<Run> = match a_last {
            Some(last) if last >= n => vec![Run {
                partition: moved,
                first: n,
                last,
                times: 2,
            }],
            _ => vec![],
        };
        v.check(
            "duplicates only on the moved partition, from a's last commit to a's last offset",
            report.runs == expected,
            format!(
                "runs {:?}; a's last commit p{moved}={n}, last offset {a_last:?}",
                report
                    .runs
                    .iter()
                    .map(|r| format!("p{} {}..{}", r.partition, r.first, r.last))
                    .collect::<Vec<_>>()
            ),
        );
        v.check(
            "b began the moved partition at a's last commit",
            b_first == Some(n),
            format!("b's first offset on p{moved}: {b_first:?}, a's last commit {n}"),
        );
    }
    if let (Some(b_first_at), Some(b_start)) = (
        b.lines
            .iter()
            .find(|l| matches!(l.event, Event::Processed { .. }))
            .map(|l| l.time),
        b.time_of(0, |e| e == &Event::Start),
    ) {
        v.ours = format!(
            "{}; b's first message {:.2} s after its start",
            summary(&report),
            seconds(b_start, b_first_at)
        );
    }
    Ok(report)
}

fn revoke(group: &str, dir: &Path, revoke_commit: bool) -> Result<Verdict> {
    let (variant, article) = if revoke_commit {
        ("revcommit", "0 duplicates")
    } else {
        ("nocommit", "82 duplicates on p1 (400..481)")
    };
    let mut v = verdict(1, "revoke", variant, group, article);
    let report = revoke_checks(&mut v, group, dir, revoke_commit)?;
    v.ours = summary(&report)
        + &report
            .runs
            .first()
            .map(|r| format!(" ({}..{})", r.first, r.last))
            .unwrap_or_default();
    Ok(v)
}

/// Lab 2's statements for group `group` (topic `group`, one partition). `lab` is the reporting
/// lab's number: 2, or 5 for its second part, which checks what applies to both protocols.
fn maxpoll(group: &str, dir: &Path, broker: &BrokerArgs, lab: u8) -> Result<Verdict> {
    let mut v = verdict(
        lab,
        "maxpoll",
        "expel",
        group,
        "MAXPOLL 10.4 s after the slow start; 1.6 s together in offset 3; offset 3 twice",
    );
    maxpoll_checks(&mut v, group, dir, broker, lab == 2)?;
    Ok(v)
}

fn maxpoll_checks(
    v: &mut Verdict,
    group: &str,
    dir: &Path,
    broker: &BrokerArgs,
    classic: bool,
) -> Result<()> {
    let a = WorkerLog::read(dir, &format!("{group}-a"))?;
    let b = WorkerLog::read(dir, &format!("{group}-b"))?;
    let slow_start = a.time_of(0, |e| {
        e == &Event::SlowStart {
            partition: 0,
            offset: 3,
        }
    });
    let maxpoll = maxpoll_time(&a.text);
    let after = slow_start
        .zip(maxpoll)
        .map(|(s, m)| seconds(s, m))
        .unwrap_or(f64::NAN);
    v.check(
        "librdkafka's MAXPOLL warning about 10 s after offset 3 slow start",
        (9.5..=12.0).contains(&after),
        format!("{after:.2} s"),
    );
    let done = a.find(0, |e| {
        e == &Event::Processed {
            partition: 0,
            offset: 3,
        }
    });
    let a_done = done.map(|i| a.lines[i].time);
    let b_assigned = b.time_of(0, |e| e == &Event::Assigned(vec![0]));
    let b_did_3 = b.processed().any(|(p, o)| (p, o) == (0, 3));
    let overlap = match (slow_start, b_assigned, a_done) {
        (Some(s), Some(b), Some(a)) if s < b && b < a => Some(seconds(b, a)),
        _ => None,
    };
    v.check(
        "b was assigned [0] and processed offset 3 while a was still in it",
        overlap.is_some() && b_did_3,
        match overlap {
            Some(o) => format!("together for {o:.2} s"),
            None => format!("b assigned at {b_assigned:?}, a done at {a_done:?}"),
        },
    );
    let after_done = done.and_then(|i| {
        a.find(i + 1, |e| {
            matches!(e, Event::Commit(_) | Event::CommitFailed(_))
        })
    });
    let commit = after_done.map(|i| a.lines[i].event.to_string());
    let failed_with = |code: &str| {
        matches!(after_done.map(|i| &a.lines[i].event),
            Some(Event::CommitFailed(e)) if e.starts_with(&format!("KafkaError{{code={code},")))
    };
    if classic {
        v.check(
            "a's commit after offset 3 failed with UNKNOWN_MEMBER_ID",
            failed_with("UNKNOWN_MEMBER_ID"),
            commit.clone().unwrap_or_else(|| "no commit".into()),
        );
    } else {
        v.check(
            "a's commit after offset 3 failed",
            matches!(
                after_done.map(|i| &a.lines[i].event),
                Some(Event::CommitFailed(_))
            ),
            commit.clone().unwrap_or_else(|| "no commit".into()),
        );
    }
    let loss =
        after_done.and_then(|i| a.find(i + 1, |e| matches!(e, Event::Lost(_) | Event::Revoked(_))));
    v.check(
        "a then logged lost [0], not revoked [0]",
        loss.is_some_and(|i| a.lines[i].event == Event::Lost(vec![0])),
        loss.map_or("neither".into(), |i| a.lines[i].event.to_string()),
    );
    let poll_error = done.and_then(|i| {
        a.find(i, |e| {
            matches!(e, Event::PollError(t) if t.starts_with(
                "KafkaError{code=_MAX_POLL_EXCEEDED,val=-147,str=\"Application maximum poll interval (10000ms) exceeded by "))
        })
    });
    v.check(
        "poll returned _MAX_POLL_EXCEEDED with librdkafka's text",
        poll_error.is_some(),
        poll_error.map_or("none".into(), |i| a.lines[i].event.to_string()),
    );
    let report = read_group(dir, group)?;
    v.check(
        "all 10 offsets processed, offset 3 twice and nothing else",
        report.unique == 10
            && report.runs
                == vec![Run {
                    partition: 0,
                    first: 3,
                    last: 3,
                    times: 2,
                }],
        report.render().trim_end().replace('\n', ";"),
    );
    let committed = committed(broker, group, group, 1)?;
    v.check(
        "the group's final committed offset is 10",
        committed == vec![(0, Some(10))],
        format!("{committed:?}"),
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
    v.check(
        "the committed offset never went backwards",
        commits.windows(2).all(|w| w[0].1 <= w[1].1),
        format!("{:?}", commits.iter().map(|(_, o)| *o).collect::<Vec<_>>()),
    );
    v.ours = format!(
        "MAXPOLL {after:.1} s after the slow start; {} together in offset 3; {}",
        overlap.map_or("never".into(), |o| format!("{o:.1} s")),
        summary(&report)
    );
    Ok(())
}

fn assignor_lab(group: &str, dir: &Path, assignor: &str, revoke_commit: bool) -> Result<Verdict> {
    let cooperative = assignor == "cooperative-sticky";
    let variant = format!(
        "{assignor}{}",
        if revoke_commit {
            " --revoke-commit"
        } else {
            ""
        }
    );
    let article = match (cooperative, revoke_commit) {
        (false, false) => "67 duplicates on all 6 partitions",
        (true, false) => "24 duplicates on the 2 moved partitions",
        (_, true) => "not measured (0 expected)",
    };
    let mut v = verdict(3, "assignor", &variant, group, article);
    let logs = ["a", "b", "c"]
        .iter()
        .map(|w| WorkerLog::read(dir, &format!("{group}-{w}")))
        .collect::<Result<Vec<_>>>()?;
    let c_start = logs[2]
        .time_of(0, |e| e == &Event::Start)
        .context("c's log has no start line")?;
    let stopping = logs
        .iter()
        .filter_map(|l| l.time_of(0, |e| e == &Event::Stop))
        .min()
        .unwrap_or(NaiveTime::MIN + chrono::TimeDelta::hours(23));
    let revoked_ab: BTreeSet<Partition> = logs[..2]
        .iter()
        .flat_map(|l| l.partitions_between(c_start, stopping, revoked))
        .collect();
    let to_c = logs[2].partitions_between(c_start, stopping, assigned);
    let report = read_group(dir, group)?;
    let dup_partitions: BTreeSet<Partition> = report.runs.iter().map(|r| r.partition).collect();
    v.check(
        "all 3000 messages processed",
        report.unique == 3000,
        format!("unique {}", report.unique),
    );
    v.check(
        "c was assigned partitions",
        !to_c.is_empty(),
        format!("c assigned {to_c:?}"),
    );
    if cooperative {
        v.check(
            "only the partitions that moved to c were revoked",
            revoked_ab == to_c,
            format!("revoked {revoked_ab:?}, moved {to_c:?}"),
        );
        v.check(
            "duplicates only on the moved partitions",
            dup_partitions.is_subset(&to_c),
            format!("duplicates on {dup_partitions:?}"),
        );
    } else {
        v.check(
            "every partition was revoked",
            revoked_ab == (0..6).collect(),
            format!("revoked {revoked_ab:?}"),
        );
    }
    if revoke_commit {
        v.check(
            "no duplicates",
            report.duplicates() == 0,
            format!("{} duplicates", report.duplicates()),
        );
    }
    v.ours = format!(
        "{}; revoked {} partition(s), {} moved",
        summary(&report),
        revoked_ab.len(),
        to_c.len()
    );
    Ok(v)
}

fn static_lab(group: &str, dir: &Path, static_membership: bool) -> Result<Verdict> {
    let (variant, article) = if static_membership {
        ("--static", "0 revokes; partitions back 0.14 s after start")
    } else {
        ("dynamic", "the other consumer revoked twice")
    };
    let mut v = verdict(4, "static", variant, group, article);
    let a = WorkerLog::read(dir, &format!("{group}-a"))?;
    let b = WorkerLog::read(dir, &format!("{group}-b"))?;
    let stopped = a
        .time_of(0, |e| e == &Event::Stop)
        .context("a's log has no stop line")?;
    let restart = a
        .time_of(1, |e| e == &Event::Start)
        .context("a's log has no second start line")?;
    let end = a
        .time_of(1, |e| e == &Event::Stop)
        .context("a's log has no second stop line")?;
    let before = a
        .lines
        .iter()
        .filter(|l| l.time < stopped)
        .filter_map(|l| assigned(&l.event).filter(|ps| !ps.is_empty()))
        .next_back()
        .cloned();
    let back = a.lines.iter().filter(|l| l.time >= restart).find_map(|l| {
        assigned(&l.event)
            .filter(|ps| !ps.is_empty())
            .map(|ps| (l.time, ps.clone()))
    });
    let b_revokes = b
        .lines
        .iter()
        .filter(|l| l.time >= stopped && l.time < end && revoked(&l.event).is_some())
        .count();
    v.check(
        "a was back within the session timeout (10 s)",
        seconds(stopped, restart) < 10.0,
        format!("{:.2} s after its stop", seconds(stopped, restart)),
    );
    if static_membership {
        v.check(
            "b revoked nothing",
            b_revokes == 0,
            format!("{b_revokes} revoke(s)"),
        );
        v.check(
            "a got its previous partitions back",
            back.as_ref().map(|(_, ps)| ps) == before.as_ref(),
            format!(
                "before {before:?}, after {:?}",
                back.as_ref().map(|(_, ps)| ps)
            ),
        );
    } else {
        v.check(
            "b revoked twice",
            b_revokes == 2,
            format!("{b_revokes} revoke(s)"),
        );
        v.check(
            "a got partitions again",
            back.is_some(),
            format!("{back:?}"),
        );
    }
    v.ours = format!(
        "b revoked {b_revokes} time(s); a's partitions back {} after start",
        back.map_or("never".into(), |(t, _)| format!(
            "{:.2} s",
            seconds(restart, t)
        ))
    );
    Ok(v)
}

fn protocol_lab(group: &str, dir: &Path, broker: &BrokerArgs, protocol: &str) -> Result<Verdict> {
    let mut v = verdict(
        5,
        "protocol",
        protocol,
        group,
        if protocol == "classic" {
            "classic: see labs 1 and 2"
        } else {
            "not in the article"
        },
    );
    let report = revoke_checks(&mut v, group, dir, false)?;
    let lab1 = v.ours.clone();
    let a = WorkerLog::read(dir, &format!("{group}-a"))?;
    let b_start = WorkerLog::read(dir, &format!("{group}-b"))?
        .time_of(0, |e| e == &Event::Start)
        .context("b's log has no start line")?;
    let first_revoke = a
        .lines
        .iter()
        .find(|l| l.time >= b_start && revoked(&l.event).is_some())
        .map(|l| l.event.clone());
    let moved: Vec<Partition> = report.runs.iter().map(|r| r.partition).collect();
    if protocol == "classic" {
        v.check(
            "classic: a revoked every partition when b joined",
            first_revoke == Some(Event::Revoked(vec![0, 1])),
            format!("{first_revoke:?}"),
        );
    } else {
        v.check(
            "consumer: a revoked only the partition that moved",
            matches!(&first_revoke, Some(Event::Revoked(ps)) if ps.len() == 1
                && (moved.is_empty() || moved == *ps)),
            format!("{first_revoke:?}"),
        );
    }
    let slow = format!("{group}_maxpoll");
    maxpoll_checks(&mut v, &slow, dir, broker, protocol == "classic")?;
    v.ours = format!(
        "lab 1: {lab1}, a {}; lab 2: {}",
        first_revoke.map_or("revoked nothing".into(), |e| e.to_string()),
        v.ours
    );
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_verdict_as_a_row_and_as_text() {
        let mut v = verdict(1, "revoke", "nocommit", "g", "82 duplicates");
        v.ours = "80 duplicates".into();
        v.check("all processed", true, "unique 1000");
        v.check("b began at a's commit", false, "b's first 7\nb's last 9");
        assert!(!v.held());
        assert_eq!(
            v.row(),
            "1 revoke\tnocommit\t82 duplicates\t80 duplicates\t1/2\tb began at a's commit (b's first 7; b's last 9)"
        );
        assert_eq!(
            v.render(),
            "lab 1 revoke nocommit (group g)\n  article: 82 duplicates\n  ours:    80 duplicates\n  \
             held   all processed (unique 1000)\n  FAILED b began at a's commit (b's first 7\nb's last 9)\n"
        );
    }
}
