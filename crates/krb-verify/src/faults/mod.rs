//! Lab 7, 07-faults.sh: one fault trial on the three-node cluster, checked with the invariants
//! of Kafka's own consumer system tests and Jepsen's Kafka workload, and one they do not make:
//! every message the producer had acknowledged was processed.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use anyhow::{Context, Result};
use chrono::NaiveDateTime;
use krb_common::broker::BrokerArgs;
use krb_common::logline::{Event, Offset, Partition};
use krb_common::trial_log::{read_acks, Fault, FaultKind, FaultLog};
use krb_common::worker_log::{Entry, WorkerLog};
use krb_dups::Report;
use krb_effect::Kind;
use serde::{Deserialize, Serialize};

use crate::facts::{committed, seconds, Run};
use crate::idempotent::default_store;
use crate::Verdict;

/// What the article says about faults: nothing; its labs are clean rebalances on one broker.
pub const ARTICLE: &str = "not in the article (one broker, clean rebalances)";

/// How long after a node's fault (or a clean rebalance) is healed a duplicate may still be its
/// doing: the group finds its coordinator again and rebalances.
const AFTERMATH_SEC: i64 = 10;

/// Everything one trial left behind.
pub struct Trial {
    /// The group's worker logs.
    pub run: Run,
    /// Every (partition, offset) the broker acknowledged to the producer.
    pub acks: Vec<(Partition, Offset)>,
    /// The faults as injected, aligned with the logs.
    pub faults: FaultLog,
    /// The sampler's readings of the group's committed offsets, in order.
    pub samples: Vec<Vec<(Partition, Offset)>>,
    /// The group's committed offsets after the final stop, read by librdkafka.
    pub committed: Vec<(Partition, Option<Offset>)>,
    /// The same read by Kafka's ConsumerGroupCommand, the independent witness.
    pub witness: Vec<(Partition, Option<Offset>)>,
    /// The effects' store, read back, for a run with an effect.
    pub effects: Option<Report>,
    /// The workers' --commit-every.
    pub commit_every: u64,
    /// The workers' --effect.
    pub effect: Kind,
}

/// One fault's share of a trial, for the run's report.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct FaultStat {
    /// Its kind's name.
    pub kind: String,
    /// The worker's name or `node-N`.
    pub target: String,
    /// Seconds after the trial began.
    pub at: f64,
    /// Seconds from the fault until every partition was processed again (none when a
    /// partition got no message after it).
    pub recovery: Option<f64>,
    /// Duplicate processings it caused.
    pub duplicates: u64,
    /// The most it may cause.
    pub bound: u64,
}

/// What a trial counts, and a run of trials sums.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Counts {
    /// Messages the producer had acknowledged.
    pub produced: u64,
    /// Of those, never processed (must be 0).
    pub lost: u64,
    /// Processings, duplicates among them.
    pub processed: u64,
    /// Processings beyond the first of each message.
    pub duplicates: u64,
    /// Duplicates no fault explains (must be 0).
    pub unexplained: u64,
    /// Duplicate effects in the store (none for --effect none).
    pub effect_duplicates: Option<u64>,
}

impl Counts {
    /// Adds another trial's counts.
    pub fn add(&mut self, other: &Counts) {
        self.produced += other.produced;
        self.lost += other.lost;
        self.processed += other.processed;
        self.duplicates += other.duplicates;
        self.unexplained += other.unexplained;
        if let Some(d) = other.effect_duplicates {
            *self.effect_duplicates.get_or_insert(0) += d;
        }
    }
}

/// A trial's numbers, beside its statements.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Stats {
    /// Seconds from begin to end.
    pub seconds: f64,
    /// What it counted.
    #[serde(flatten)]
    pub counts: Counts,
    /// The faults, in order.
    pub faults: Vec<FaultStat>,
}

/// Reads what the trial in `group` (its topic has the same name) left in `dir`: its logs,
/// `GROUP.acks`, `GROUP.faults`, `GROUP.committed` (the sampler's) and `GROUP.witness`
/// (ConsumerGroupCommand's table after the final stop); the group's committed offsets from the
/// broker (with `recheck`, from the witness: the group is gone), and the effects from `db`
/// (default: lab 6's store for the group).
pub fn read(
    dir: &Path,
    group: &str,
    broker: &BrokerArgs,
    effect: Kind,
    commit_every: u64,
    db: Option<&str>,
    recheck: bool,
) -> Result<Trial> {
    let run = Run::read(dir, group, &broker.namespace)?;
    let acks = read_acks(&dir.join(format!("{group}.acks")))?;
    let mut faults = FaultLog::read(&dir.join(format!("{group}.faults")))?;
    if let Some(first) = run.logs.iter().find_map(|l| l.lines.first()) {
        faults.align(first.at);
    }
    let samples = WorkerLog::read_file(&dir.join(format!("{group}.committed")))?
        .lines
        .into_iter()
        .filter_map(|e| match e.event {
            Event::Commit(ps) => Some(ps),
            _ => None,
        })
        .collect();
    let witness_path = dir.join(format!("{group}.witness"));
    let witness = std::fs::read_to_string(&witness_path).with_context(|| {
        format!(
            "cannot read Kafka's own account of the group {}",
            witness_path.display()
        )
    })?;
    let partitions = acks.iter().map(|(p, _)| p + 1).max().unwrap_or(1);
    let effects = match effect {
        Kind::None => None,
        _ => {
            let url = match db {
                Some(url) => url.to_string(),
                None => default_store(effect, group, dir),
            };
            Some(krb_effect::count(&url, effect, group, broker)?)
        }
    };
    let witness = parse_witness(&witness, &broker.name(group));
    Ok(Trial {
        committed: if recheck {
            witness.clone()
        } else {
            committed(broker, group, group, partitions)?
        },
        witness,
        run,
        acks,
        faults,
        samples,
        effects,
        commit_every,
        effect,
    })
}

/// The committed offsets in ConsumerGroupCommand's `--describe` table, whose rows read
/// `GROUP TOPIC PARTITION CURRENT-OFFSET LOG-END-OFFSET LAG ...` (`-` for no offset).
pub fn parse_witness(text: &str, group: &str) -> Vec<(Partition, Option<Offset>)> {
    let mut rows: Vec<_> = text
        .lines()
        .filter_map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            if f.len() < 4 || f[0] != group {
                return None;
            }
            Some((f[2].parse().ok()?, f[3].parse().ok()))
        })
        .collect();
    rows.sort();
    rows
}

/// One processing: when, by whom.
#[derive(Clone, Debug)]
struct Processing {
    at: NaiveDateTime,
    worker: String,
}

/// The trial's verdict and numbers.
pub fn verdict(t: &Trial) -> (Verdict, Stats) {
    let variant = krb_common::group::value_name(t.effect);
    let mut v = Verdict::new(7, "faults", &variant, &t.run.group, ARTICLE);
    let mut stats = Stats {
        seconds: seconds(t.faults.begin, t.faults.end),
        counts: Counts {
            produced: t.acks.len() as u64,
            processed: t.run.report.processed,
            duplicates: t.run.report.duplicates(),
            ..Counts::default()
        },
        faults: Vec::new(),
    };

    let processings = processings(&t.run.logs);
    let lost = lost(&t.acks, &processings);
    stats.counts.lost = lost.count;
    let unknown = t.acks.iter().filter(|(_, o)| *o < 0).count();
    v.check(
        "nothing lost: every message the broker acknowledged was processed",
        lost.count == 0 && !t.acks.is_empty(),
        match &lost.first {
            None => format!(
                "{} acknowledged, all processed ({unknown} acknowledged without an offset, counted per partition)",
                t.acks.len()
            ),
            Some(first) => format!(
                "{} of {} acknowledged never processed, the first {first}",
                lost.count,
                t.acks.len()
            ),
        },
    );

    let backwards = nonmonotonic(&t.run.logs);
    v.check(
        "within one assignment a worker's offsets of a partition only go up",
        backwards.is_empty(),
        backwards
            .first()
            .cloned()
            .unwrap_or_else(|| "no offset went down or repeated".into()),
    );

    let ahead = commits_ahead(&t.run.logs);
    v.check(
        "no worker committed past what it had processed",
        ahead.is_empty(),
        ahead
            .first()
            .cloned()
            .unwrap_or_else(|| "every committed position follows a processed offset".into()),
    );

    let back = sampled_backwards(&t.samples);
    v.check(
        "the group's committed offsets never moved backwards",
        back.is_none() && !t.samples.is_empty(),
        back.unwrap_or_else(|| format!("{} samples read while the trial ran", t.samples.len())),
    );

    let end = final_positions(&t.run.logs);
    let mismatch = final_mismatch(&end, &t.committed, &t.witness);
    v.check(
        "after the final stop each partition's committed offset is the one after its last processed, for librdkafka and for Kafka's own tool",
        mismatch.is_none(),
        mismatch.unwrap_or_else(|| {
            format!(
                "{} partitions, committed {}",
                end.len(),
                end.iter()
                    .map(|(p, o)| format!("p{p}={}", o + 1))
                    .collect::<Vec<_>>()
                    .join(" ")
            )
        }),
    );

    let blame = attribute(t, &processings);
    stats.counts.unexplained = blame.unexplained;
    stats.faults = t
        .faults
        .faults
        .iter()
        .zip(&blame.per_fault)
        .map(|(f, (dups, bound))| FaultStat {
            kind: f.kind.name().into(),
            target: f.target.clone(),
            at: seconds(t.faults.begin, f.at),
            recovery: recovery(f.at, &processings),
            duplicates: *dups,
            bound: *bound,
        })
        .collect();
    let over: Vec<_> = stats
        .faults
        .iter()
        .filter(|f| f.duplicates > f.bound)
        .collect();
    v.check(
        "every duplicate is explained by a fault, within that fault's bound",
        blame.unexplained == 0 && over.is_empty(),
        if let Some(f) = over.first() {
            format!(
                "{} {} at {:.1} s caused {} duplicates, more than its bound {}",
                f.kind, f.target, f.at, f.duplicates, f.bound
            )
        } else if blame.unexplained > 0 {
            format!(
                "{} duplicates with no fault around them, the first {}",
                blame.unexplained,
                blame.first_unexplained.clone().unwrap_or_default()
            )
        } else {
            format!(
                "{} duplicates, each within its fault's bound",
                stats.counts.duplicates
            )
        },
    );

    if let Some(effects) = &t.effects {
        stats.counts.effect_duplicates = Some(effects.duplicates());
        if t.effect != Kind::Plain {
            v.check(
                "no effect is in the store twice",
                effects.duplicates() == 0,
                format!(
                    "{} effects of {} messages",
                    effects.processed, effects.unique
                ),
            );
        }
    }

    let kinds: BTreeSet<&str> = t.faults.faults.iter().map(|f| f.kind.name()).collect();
    v.ours = format!(
        "{} faults ({}); {} acknowledged, {} lost; {} duplicates",
        t.faults.faults.len(),
        kinds.into_iter().collect::<Vec<_>>().join(", "),
        stats.counts.produced,
        stats.counts.lost,
        stats.counts.duplicates
    );
    (v, stats)
}

/// Every completed processing of each message, in time order.
fn processings(logs: &[WorkerLog]) -> BTreeMap<(Partition, Offset), Vec<Processing>> {
    let mut all: BTreeMap<(Partition, Offset), Vec<Processing>> = BTreeMap::new();
    for log in logs {
        for e in &log.lines {
            if let Some(m) = e.event.completion() {
                all.entry(m).or_default().push(Processing {
                    at: e.at,
                    worker: log.name.clone(),
                });
            }
        }
    }
    for list in all.values_mut() {
        list.sort_by_key(|p| p.at);
    }
    all
}

/// Acknowledged messages never processed.
struct Lost {
    count: u64,
    first: Option<String>,
}

/// The acknowledged messages never processed. An acknowledgement without an offset (librdkafka
/// reports offset -1001 when a retried batch was already in the log, and its offset is not
/// known) is counted per partition: a partition must have at least as many distinct offsets
/// processed as it has acknowledgements.
fn lost(
    acks: &[(Partition, Offset)],
    processings: &BTreeMap<(Partition, Offset), Vec<Processing>>,
) -> Lost {
    let mut lost = Lost {
        count: 0,
        first: None,
    };
    for &(p, o) in acks.iter().filter(|(_, o)| *o >= 0) {
        if !processings.contains_key(&(p, o)) {
            lost.count += 1;
            lost.first.get_or_insert_with(|| format!("p{p} offset {o}"));
        }
    }
    let mut acked: BTreeMap<Partition, u64> = BTreeMap::new();
    for (p, _) in acks {
        *acked.entry(*p).or_default() += 1;
    }
    for (p, n) in acked {
        let done = processings.keys().filter(|(q, _)| *q == p).count() as u64;
        if done < n && lost.count == 0 {
            lost.count = n - done;
            lost.first = Some(format!(
                "p{p}: {n} acknowledged, {done} distinct offsets processed"
            ));
        }
    }
    lost
}

/// Ends an assignment: the worker (re)started, was assigned or lost partitions, or rewound.
fn ends_assignment(e: &Event) -> bool {
    matches!(
        e,
        Event::Start
            | Event::Stop
            | Event::Assigned(_)
            | Event::Revoked(_)
            | Event::Lost(_)
            | Event::TxnAborted(_)
    )
}

/// Jepsen's nonmonotonic poll: a partition's offset that did not go up within an assignment.
fn nonmonotonic(logs: &[WorkerLog]) -> Vec<String> {
    let mut found = Vec::new();
    for log in logs {
        let mut last: BTreeMap<Partition, Offset> = BTreeMap::new();
        for (i, e) in log.lines.iter().enumerate() {
            if ends_assignment(&e.event) {
                last.clear();
            }
            if let Some((p, o)) = e.event.completion() {
                if let Some(before) = last.insert(p, o).filter(|before| *before >= o) {
                    found.push(format!(
                        "{} processed p{p} offset {o} after offset {before} in one assignment ({}.log, event {})",
                        log.name,
                        log.name,
                        i + 1
                    ));
                }
            }
        }
    }
    found
}

/// Commits of a position whose previous offset the committing worker had not processed.
fn commits_ahead(logs: &[WorkerLog]) -> Vec<String> {
    let mut found = Vec::new();
    for log in logs {
        let mut done: BTreeSet<(Partition, Offset)> = BTreeSet::new();
        for e in &log.lines {
            if let Some(m) = e.event.completion() {
                done.insert(m);
            }
            if let Event::Commit(positions) = &e.event {
                for (p, o) in positions {
                    if !done.contains(&(*p, o - 1)) {
                        found.push(format!(
                            "{} committed p{p}={o} without having processed p{p} offset {}",
                            log.name,
                            o - 1
                        ));
                    }
                }
            }
        }
    }
    found
}

/// The first sample in which a partition's committed offset is lower than in the one before.
fn sampled_backwards(samples: &[Vec<(Partition, Offset)>]) -> Option<String> {
    let mut high: BTreeMap<Partition, Offset> = BTreeMap::new();
    for (i, sample) in samples.iter().enumerate() {
        for (p, o) in sample {
            match high.get(p) {
                Some(h) if o < h => {
                    return Some(format!("sample {} read p{p}={o} after p{p}={h}", i + 1))
                }
                _ => {
                    high.insert(*p, *o);
                }
            }
        }
    }
    None
}

/// Each partition's highest processed offset.
fn final_positions(logs: &[WorkerLog]) -> BTreeMap<Partition, Offset> {
    let mut end = BTreeMap::new();
    for log in logs {
        for (p, o) in log.processed() {
            let e = end.entry(p).or_insert(o);
            *e = (*e).max(o);
        }
    }
    end
}

fn final_mismatch(
    end: &BTreeMap<Partition, Offset>,
    committed: &[(Partition, Option<Offset>)],
    witness: &[(Partition, Option<Offset>)],
) -> Option<String> {
    if end.is_empty() {
        return Some("nothing was processed".into());
    }
    for (who, read) in [("librdkafka", committed), ("ConsumerGroupCommand", witness)] {
        for (p, last) in end {
            let got = read.iter().find(|(q, _)| q == p).and_then(|(_, o)| *o);
            if got != Some(last + 1) {
                return Some(format!(
                    "{who} reads p{p} committed {}, but its last processed offset is {last}",
                    got.map_or("nothing".to_string(), |o| o.to_string())
                ));
            }
        }
    }
    None
}

/// Seconds from `at` until every partition processed after it had its first processing after
/// it; none when some partition processed nothing after it.
fn recovery(
    at: NaiveDateTime,
    processings: &BTreeMap<(Partition, Offset), Vec<Processing>>,
) -> Option<f64> {
    let mut first: BTreeMap<Partition, Option<NaiveDateTime>> = BTreeMap::new();
    for ((p, _), list) in processings {
        let after = list.iter().map(|x| x.at).find(|x| *x >= at);
        let slot = first.entry(*p).or_insert(None);
        if let Some(a) = after {
            *slot = Some(slot.map_or(a, |s| s.min(a)));
        }
    }
    first
        .values()
        .map(|a| a.map(|a| seconds(at, a)))
        .try_fold(0.0f64, |worst, r| r.map(|r| worst.max(r)))
}

/// Duplicates per fault (with each fault's bound) and those no fault explains.
struct Blame {
    per_fault: Vec<(u64, u64)>,
    unexplained: u64,
    first_unexplained: Option<String>,
}

/// Gives each duplicate processing to a fault: the first fault of the worker that processed the
/// message before, between that processing and the end of its assignment of the partition (it
/// cut that worker's uncommitted work short); else the latest pause whose zombie did one of the
/// two processings between its pause and its next rebalance event; else the cluster's; else
/// another worker's (a clean rebalance). Then each fault's bound.
fn attribute(t: &Trial, processings: &BTreeMap<(Partition, Offset), Vec<Processing>>) -> Blame {
    let faults = &t.faults.faults;
    let mut per_fault: Vec<(u64, u64)> = faults.iter().map(|f| (0, bound(t, f))).collect();
    let mut unexplained = 0;
    let mut first_unexplained = None;
    let aftermath = chrono::TimeDelta::seconds(AFTERMATH_SEC);
    // Until when a paused worker is a zombie: its first rebalance event after it woke (for the
    // other faults, when they were healed; unused).
    let own_until: Vec<NaiveDateTime> = faults
        .iter()
        .map(|f| match (f.kind, log_of(t, &f.target)) {
            (FaultKind::Pause, Some(log)) => {
                zombie_end(&log.lines, f).map_or(f.healed, |i| log.lines[i].at)
            }
            _ => f.healed,
        })
        .collect();
    for ((p, o), list) in processings {
        for pair in list.windows(2) {
            let (before, again) = (&pair[0], &pair[1]);
            let latest = |until: &dyn Fn(usize) -> NaiveDateTime,
                          class: &dyn Fn(&Fault) -> bool| {
                faults
                    .iter()
                    .enumerate()
                    .rposition(|(i, f)| f.at <= again.at && until(i) >= before.at && class(f))
            };
            let after = |i: usize| faults[i].healed + aftermath;
            // First the fault that cut the first processor's uncommitted work short: its own,
            // before its assignment ended. One that ended without its own fault (`lost` while
            // the coordinator was away) was not cut by a clean leave that came later.
            let ended = log_of(t, &before.worker)
                .and_then(|log| assignment_end(&log.lines, *p, before.at))
                .map_or(again.at, |end| end.min(again.at));
            let cut = faults.iter().position(|f| {
                f.kind.on_worker()
                    && f.target == before.worker
                    && f.at >= before.at
                    && f.at <= ended
            });
            // Then a zombie's work: one of the two processings is the paused worker's, done
            // between its pause and its next rebalance event.
            let zombie = faults.iter().enumerate().rposition(|(i, f)| {
                let in_window =
                    |x: &Processing| f.target == x.worker && x.at >= f.at && x.at <= own_until[i];
                f.kind == FaultKind::Pause && (in_window(before) || in_window(again))
            });
            let found = cut
                .or(zombie)
                .or_else(|| latest(&after, &|f| !f.kind.on_worker()))
                .or_else(|| latest(&after, &|_| true));
            match found {
                Some(i) => per_fault[i].0 += 1,
                None => {
                    unexplained += 1;
                    first_unexplained.get_or_insert_with(|| {
                        format!("p{p} offset {o}: {} then {}", before.worker, again.worker)
                    });
                }
            }
        }
    }
    Blame {
        per_fault,
        unexplained,
        first_unexplained,
    }
}

/// The log of worker `name`.
fn log_of<'a>(t: &'a Trial, name: &str) -> Option<&'a WorkerLog> {
    t.run.logs.iter().find(|l| l.name == name)
}

/// When a worker's assignment of `partition` ended after `after`: its first line that revokes
/// or loses the partition, or starts the worker again (after a kill or a stop).
fn assignment_end(
    lines: &[Entry],
    partition: Partition,
    after: NaiveDateTime,
) -> Option<NaiveDateTime> {
    lines
        .iter()
        .find(|e| {
            e.at > after
                && match &e.event {
                    Event::Start => true,
                    Event::Revoked(ps) | Event::Lost(ps) => ps.contains(&partition),
                    _ => false,
                }
        })
        .map(|e| e.at)
}

/// The index of a paused worker's first rebalance event after the pause: where it learned it
/// had been expelled, or was given partitions again.
fn zombie_end(lines: &[Entry], f: &Fault) -> Option<usize> {
    lines
        .iter()
        .position(|e| e.at > f.at && ends_assignment(&e.event))
}

/// The most duplicates a fault may cause. With --revoke-commit a clean rebalance causes none. A
/// killed worker's uncommitted work is done again: at most --commit-every per partition it
/// owned. A paused one's too, and what it processes after it wakes until it learns it was
/// expelled: its in-flight work, counted in its log. A node's failure may fail commits in
/// flight: at most --commit-every per partition of the topic.
fn bound(t: &Trial, f: &Fault) -> u64 {
    let log = log_of(t, &f.target);
    match f.kind {
        FaultKind::Stop | FaultKind::Join | FaultKind::Leave => 0,
        FaultKind::Kill => {
            let owned = log.map_or(0, |l| owned_at(&l.lines, f.at).len() as u64);
            t.commit_every * owned.max(1)
        }
        FaultKind::Pause => log.map_or(0, |l| in_flight(&l.lines, f)),
        FaultKind::KillCoordinator | FaultKind::KillLeader | FaultKind::Roll => {
            let partitions: BTreeSet<Partition> = t.acks.iter().map(|(p, _)| *p).collect();
            t.commit_every * partitions.len().max(1) as u64
        }
    }
}

/// The partitions a worker held at `at`.
fn owned_at(lines: &[Entry], at: NaiveDateTime) -> BTreeSet<Partition> {
    let mut owned = BTreeSet::new();
    for e in lines.iter().take_while(|e| e.at <= at) {
        match &e.event {
            Event::Start => owned.clear(),
            Event::Assigned(ps) => owned.extend(ps),
            Event::Revoked(ps) | Event::Lost(ps) => {
                for p in ps {
                    owned.remove(p);
                }
            }
            _ => {}
        }
    }
    owned
}

/// A paused worker's in-flight work: what it processed from its last commit before the pause
/// until its first rebalance event after it (the work the pause cut short, and what the zombie
/// did after it woke, whose lines may come before the runner's `healed` line).
fn in_flight(lines: &[Entry], f: &Fault) -> u64 {
    let from = lines
        .iter()
        .rposition(|e| e.at <= f.at && matches!(e.event, Event::Commit(_)))
        .map_or(0, |i| i + 1);
    let to = zombie_end(lines, f).unwrap_or(lines.len()).max(from);
    lines[from..to]
        .iter()
        .filter(|e| e.event.completion().is_some())
        .count() as u64
}

#[cfg(test)]
mod tests;
