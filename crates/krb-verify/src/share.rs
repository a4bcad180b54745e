//! Lab 8, 08-share.sh: the article's question asked of a share group (KIP-932). No member owns a
//! partition, so lab 1's hand-over has nothing to repeat; what a share group delivers twice is
//! what the broker lent a member and never heard back about: a killed member's records, a
//! record held past its lock. A record that fails every time is archived after its delivery
//! count limit, where a consumer group would retry it forever.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::Result;
use chrono::NaiveDateTime;
use krb_log::logline::{Ack, Event, Offset, Partition};
use krb_log::worker_log::WorkerLog;

use crate::facts::{seconds, summary, Run};
use crate::{shown, Verdict};

/// The scenario lab 8 runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Scenario {
    /// Lab 1's: 1000 records on 2 partitions, b joins part-way.
    Join,
    /// A member killed (SIGKILL) in the middle of a batch.
    Kill,
    /// Lab 2's slow record, held past its acquisition lock.
    Lock,
    /// A record released every time (and one rejected).
    Reject,
}

/// The lab's offsets of the lock and reject scenarios (10 records on one partition), as
/// 08-share.sh passes them to the workers.
pub const SLOW_AT: Offset = 3;
/// The offset the reject scenario releases each time.
pub const RELEASE_AT: Offset = 3;
/// The offset the reject scenario rejects.
pub const REJECT_AT: Offset = 6;

/// What each scenario's number beside ours is: the consumer-group lab it mirrors.
fn article(scenario: Scenario) -> &'static str {
    match scenario {
        Scenario::Join | Scenario::Kill => "lab 1: 82 duplicates on p1 (400..481)",
        Scenario::Lock => "lab 2: offset 3 twice, 1.6 s together in it",
        Scenario::Reject => "a consumer group retries it forever",
    }
}

/// One delivery of a record to a member, from its `acquired` line.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Delivery {
    at: NaiveDateTime,
    worker: String,
    partition: Partition,
    offset: Offset,
    count: u16,
}

/// What a group's logs say about its records: each delivery, each acknowledgement made, and
/// which acknowledgements the broker took (`acks committed`, with the kind each was made
/// with) or refused.
#[derive(Default)]
struct Records {
    deliveries: Vec<Delivery>,
    acks: BTreeMap<(Partition, Offset), Vec<(String, Ack)>>,
    committed: BTreeMap<(Partition, Offset), Vec<(String, Ack)>>,
}

impl Records {
    fn of(logs: &[WorkerLog]) -> Records {
        let mut r = Records::default();
        for log in logs {
            let worker = &log.name;
            // What the worker acknowledged and has not yet had committed, and how.
            let mut pending: BTreeMap<(Partition, Offset), Ack> = BTreeMap::new();
            // What it acquired: an offset committed that it neither acquired nor acknowledged
            // bears on no statement, and is not kept (a line may commit a million of them).
            let acquired: BTreeSet<(Partition, Offset)> = log
                .lines
                .iter()
                .filter_map(|l| match l.event {
                    Event::Acquired {
                        partition, offset, ..
                    } => Some((partition, offset)),
                    _ => None,
                })
                .collect();
            for line in &log.lines {
                match &line.event {
                    Event::Acquired {
                        partition,
                        offset,
                        delivery,
                    } => r.deliveries.push(Delivery {
                        at: line.at,
                        worker: worker.clone(),
                        partition: *partition,
                        offset: *offset,
                        count: *delivery,
                    }),
                    Event::Acknowledged {
                        partition,
                        offset,
                        ack,
                    } => {
                        pending.insert((*partition, *offset), *ack);
                        r.acks
                            .entry((*partition, *offset))
                            .or_default()
                            .push((worker.clone(), *ack));
                    }
                    Event::AcksCommitted { partition, offsets } => {
                        for o in offsets {
                            let key = (*partition, *o);
                            // An offset committed that the log never acknowledged counts as
                            // no acceptance: no statement may rest on it.
                            let ack = match pending.remove(&key) {
                                Some(ack) => ack,
                                None if acquired.contains(&key) => Ack::Release,
                                None => continue,
                            };
                            r.committed
                                .entry(key)
                                .or_default()
                                .push((worker.clone(), ack));
                        }
                    }
                    Event::AcksFailed {
                        partition, offsets, ..
                    } => {
                        for o in offsets {
                            pending.remove(&(*partition, *o));
                        }
                    }
                    _ => {}
                }
            }
        }
        r
    }

    /// The records delivered more than once.
    fn delivered_again(&self) -> BTreeSet<(Partition, Offset)> {
        self.deliveries
            .iter()
            .filter(|d| d.count > 1)
            .map(|d| (d.partition, d.offset))
            .collect()
    }

    /// The deliveries `worker` acquired.
    fn of_worker<'a>(&'a self, worker: &'a str) -> impl Iterator<Item = &'a Delivery> + 'a {
        self.deliveries.iter().filter(move |d| d.worker == worker)
    }

    /// The records `worker` acquired whose acknowledgement it never got committed.
    fn uncommitted(&self, worker: &str) -> BTreeSet<(Partition, Offset)> {
        self.of_worker(worker)
            .map(|d| (d.partition, d.offset))
            .filter(|k| {
                !self
                    .committed
                    .get(k)
                    .is_some_and(|c| c.iter().any(|(w, _)| w == worker))
            })
            .collect()
    }
}

/// Lab 8's verdict for a run of `scenario`; `limit` is the group's share.delivery.count.limit
/// (the reject scenario's), as the script set it.
pub fn verdict(run: &Run, scenario: Scenario, limit: u16) -> Result<Verdict> {
    let variant = krb_kafka::group::value_name(scenario);
    let mut v = Verdict::new(8, "share", &variant, &run.group, article(scenario));
    let records = Records::of(&run.logs);
    match scenario {
        Scenario::Join => join(&mut v, run, &records)?,
        Scenario::Kill => kill(&mut v, run, &records)?,
        Scenario::Lock => lock(&mut v, run, &records)?,
        Scenario::Reject => reject(&mut v, run, &records, limit)?,
    }
    v.number(crate::verdict::DUPLICATES, run.report.duplicates() as f64);
    Ok(v)
}

/// "all N records processed".
fn all_processed(v: &mut Verdict, run: &Run, n: u64) {
    v.check(
        &format!("all {n} records processed"),
        run.report.unique == n,
        format!("unique {}", run.report.unique),
    );
}

/// "every record's acceptance committed once": each of the `n` records was accepted, and the
/// broker took that acceptance, once in all.
fn accepted_once(v: &mut Verdict, r: &Records, n: u64, except: &[Offset]) {
    let accepted: BTreeSet<(Partition, Offset)> = r
        .acks
        .iter()
        .filter(|(_, acks)| acks.iter().any(|(_, a)| *a == Ack::Accept))
        .map(|(k, _)| *k)
        .collect();
    let acceptances = |k: &(Partition, Offset)| {
        r.committed
            .get(k)
            .map_or(0, |c| c.iter().filter(|(_, a)| *a == Ack::Accept).count())
    };
    let twice = accepted.iter().filter(|k| acceptances(k) > 1).count();
    let missing = accepted.iter().filter(|k| acceptances(k) == 0).count();
    let want = n - except.len() as u64;
    v.check(
        "every record accepted, the acceptance committed once",
        accepted.len() as u64 == want && missing == 0 && twice == 0,
        format!(
            "{} accepted of {want}, {missing} never committed, {twice} committed twice",
            accepted.len()
        ),
    );
}

fn join(v: &mut Verdict, run: &Run, r: &Records) -> Result<()> {
    let a = run.member("a")?;
    let b = run.member("b")?;
    all_processed(v, run, 1000);
    let dups = run.report.duplicates();
    v.check(
        "no record processed twice",
        dups == 0,
        format!("{dups} duplicates"),
    );
    accepted_once(v, r, 1000, &[]);
    // A partition b read that a had read before b began: no hand-over made it b's.
    let b_start = b.time_of(0, |e| e == &Event::Start);
    let a_before: BTreeSet<Partition> = r
        .of_worker(&a.name)
        .filter(|d| b_start.is_some_and(|s| d.at < s))
        .map(|d| d.partition)
        .collect();
    let b_took: BTreeSet<Partition> = r.of_worker(&b.name).map(|d| d.partition).collect();
    let shared: Vec<Partition> = b_took.intersection(&a_before).copied().collect();
    let revokes = [a, b]
        .iter()
        .flat_map(|l| &l.lines)
        .filter(|l| matches!(l.event, Event::Revoked(_) | Event::Lost(_)))
        .count();
    v.check(
        "b took records of a partition a was reading, with no hand-over",
        !shared.is_empty() && revokes == 0,
        format!(
            "b read {}; a read {} before b started; {revokes} revokes",
            partitions(&b_took),
            partitions(&a_before)
        ),
    );
    v.ours = format!(
        "{}; b took {} of 1000",
        summary(&run.report),
        r.of_worker(&b.name).count()
    );
    Ok(())
}

fn kill(v: &mut Verdict, run: &Run, r: &Records) -> Result<()> {
    let a = run.member("a")?;
    let b = run.member("b")?;
    all_processed(v, run, 1000);
    // What a held when it died: acquired, and no acknowledgement of it taken by the broker.
    let held = r.uncommitted(&a.name);
    v.check(
        "a was killed holding records it had not got acknowledged",
        !held.is_empty(),
        format!("a held {}", ranges(&held)),
    );
    let again: Vec<&Delivery> = r.deliveries.iter().filter(|d| d.count > 1).collect();
    let again_set = r.delivered_again();
    let to_b = again.iter().all(|d| d.worker == b.name && d.count == 2);
    v.check(
        "exactly those records came again, to b, with delivery count 2",
        again_set == held && to_b,
        format!(
            "delivered again: {}; to {}",
            ranges(&again_set),
            again
                .iter()
                .map(|d| format!("{} #{}", short(&d.worker, &run.group), d.count))
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect::<Vec<_>>()
                .join(", ")
        ),
    );
    // a processed some of what it held before it died: those, and only those, twice.
    let a_done: BTreeSet<(Partition, Offset)> = a.processed().collect();
    let expected: BTreeSet<(Partition, Offset)> = held.intersection(&a_done).copied().collect();
    let twice = processed_twice(run);
    v.check(
        "duplicates only where a processed a record and died before its acknowledgement was committed",
        twice == expected,
        format!(
            "twice: {}; a processed and held: {}",
            ranges(&twice),
            ranges(&expected)
        ),
    );
    accepted_once(v, r, 1000, &[]);
    let died = a.lines.last().map(|l| l.at);
    let back = again.iter().map(|d| d.at).min();
    v.ours = match (died, back) {
        (Some(d), Some(b)) => format!(
            "{}; {} records back {:.1} s after a's last line",
            summary(&run.report),
            again_set.len(),
            seconds(d, b)
        ),
        _ => summary(&run.report),
    };
    Ok(())
}

fn lock(v: &mut Verdict, run: &Run, r: &Records) -> Result<()> {
    let a = run.member("a")?;
    let b = run.member("b")?;
    all_processed(v, run, 10);
    let slow = (0, SLOW_AT);
    let in_it = a.time_of(
        0,
        |e| matches!(e, Event::SlowStart { partition, offset } if (*partition, *offset) == slow),
    );
    let done = a.time_of(
        0,
        |e| matches!(e, Event::Processed { partition, offset } if (*partition, *offset) == slow),
    );
    let b_got = r
        .of_worker(&b.name)
        .find(|d| (d.partition, d.offset) == slow)
        .cloned();
    let inside = match (in_it, done, &b_got) {
        (Some(s), Some(e), Some(d)) => d.at > s && d.at < e && d.count == 2,
        _ => false,
    };
    v.check(
        "b received offset 3 with delivery count 2 while a was still in it",
        inside,
        format!(
            "a in offset 3 from {} to {}; {}",
            shown::opt(in_it.map(|t| t.format("%H:%M:%S%.3f"))),
            shown::opt(done.map(|t| t.format("%H:%M:%S%.3f"))),
            b_got
                .as_ref()
                .map_or("b never acquired it".into(), |d| format!(
                    "b acquired it at {} (delivery {})",
                    d.at.format("%H:%M:%S%.3f"),
                    d.count
                ))
        ),
    );
    // What the broker said to a's acknowledgement of offset 3, made after its lock had ended.
    let late = done.and_then(|e| {
        a.lines.iter().find_map(|l| match &l.event {
            Event::AcksCommitted { partition, offsets }
                if l.at >= e && *partition == slow.0 && offsets.contains(&slow.1) =>
            {
                Some("a's late acknowledgement: committed, no error".to_string())
            }
            Event::AcksFailed {
                partition,
                offsets,
                error,
            } if l.at >= e && *partition == slow.0 && offsets.contains(&slow.1) => Some(format!(
                "a's late acknowledgement: failed with {}",
                krb_log::rendered_error::rendered_code(error)
            )),
            _ => None,
        })
    });
    v.check(
        "a's late acknowledgement of offset 3 was answered, and its log says how",
        late.is_some(),
        late.clone()
            .unwrap_or("a's late acknowledgement: unanswered".into()),
    );
    // Everything of a's batch that was not committed when its locks ended went to b as well.
    let again = r.delivered_again();
    let twice = processed_twice(run);
    v.check(
        "duplicates exactly the records delivered again, offset 3 among them",
        twice == again && twice.contains(&slow),
        format!(
            "twice: {}; delivered again: {}",
            ranges(&twice),
            ranges(&again)
        ),
    );
    v.ours = format!(
        "{}; {}",
        summary(&run.report),
        late.unwrap_or("a's late acknowledgement: unanswered".into())
    );
    Ok(())
}

fn reject(v: &mut Verdict, run: &Run, r: &Records, limit: u16) -> Result<()> {
    all_processed(v, run, 10);
    let deliveries = |o: Offset| -> Vec<u16> {
        r.deliveries
            .iter()
            .filter(|d| (d.partition, d.offset) == (0, o))
            .map(|d| d.count)
            .collect()
    };
    let kinds = |o: Offset| -> Vec<Ack> {
        r.acks
            .get(&(0, o))
            .map(|a| a.iter().map(|(_, k)| *k).collect())
            .unwrap_or_default()
    };
    let released = deliveries(RELEASE_AT);
    let want: Vec<u16> = (1..=limit).collect();
    v.check(
        &format!("offset {RELEASE_AT}, released each time, delivered {limit} times (the limit), then no more"),
        released == want && kinds(RELEASE_AT).iter().all(|k| *k == Ack::Release),
        format!(
            "deliveries {}; {}",
            shown::list(&released),
            acknowledged(&kinds(RELEASE_AT))
        ),
    );
    let rejected = deliveries(REJECT_AT);
    v.check(
        &format!("offset {REJECT_AT}, rejected, delivered once"),
        rejected == [1] && kinds(REJECT_AT) == [Ack::Reject],
        format!(
            "deliveries {}; {}",
            shown::list(&rejected),
            acknowledged(&kinds(REJECT_AT))
        ),
    );
    accepted_once(v, r, 10, &[RELEASE_AT, REJECT_AT]);
    v.ours = format!(
        "offset {RELEASE_AT} delivered {}; offset {REJECT_AT} delivered {}",
        times(released.len()),
        times(rejected.len())
    );
    Ok(())
}

/// The records krb-dups found processed more than once.
fn processed_twice(run: &Run) -> BTreeSet<(Partition, Offset)> {
    run.report
        .runs
        .iter()
        .flat_map(|s| (s.first..=s.last).map(move |o| (s.partition, o)))
        .collect()
}

/// `once`, `3 times`.
fn times(n: usize) -> String {
    match n {
        1 => "once".into(),
        n => format!("{n} times"),
    }
}

/// `acknowledged: released, released` (or `never acknowledged`).
fn acknowledged(kinds: &[Ack]) -> String {
    if kinds.is_empty() {
        return "never acknowledged".into();
    }
    let words: Vec<&str> = kinds.iter().map(|k| k.word()).collect();
    format!("acknowledged: {}", words.join(", "))
}

/// `p0, p1` (or `nothing`).
fn partitions(ps: &BTreeSet<Partition>) -> String {
    if ps.is_empty() {
        return "nothing".into();
    }
    ps.iter()
        .map(|p| format!("p{p}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `p0 100..119, p1 7` (or `none`): records as ranges.
fn ranges(records: &BTreeSet<(Partition, Offset)>) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut run: Option<(Partition, Offset, Offset)> = None;
    for &(p, o) in records {
        run = match run {
            Some((rp, first, last)) if rp == p && last + 1 == o => Some((p, first, o)),
            Some(done) => {
                out.push(range(done));
                Some((p, o, o))
            }
            None => Some((p, o, o)),
        };
    }
    out.extend(run.map(range));
    if out.is_empty() {
        "none".into()
    } else {
        out.join(", ")
    }
}

fn range((p, first, last): (Partition, Offset, Offset)) -> String {
    if first == last {
        format!("p{p} {first}")
    } else {
        format!("p{p} {first}..{last}")
    }
}

/// `a` of `GROUP-a`.
fn short<'a>(worker: &'a str, group: &str) -> &'a str {
    worker
        .strip_prefix(group)
        .and_then(|w| w.strip_prefix('-'))
        .unwrap_or(worker)
}

#[cfg(test)]
#[path = "share_tests.rs"]
mod tests;
