//! Lab 7, 07-faults.sh: one fault trial on the three-node cluster, checked with the invariants
//! of Kafka's own consumer system tests and Jepsen's Kafka workload, and one they do not make:
//! every message the producer had acknowledged was processed.
//!
//! - `invariants.rs`: the statements every trial must keep, whatever its faults.
//! - `attribution.rs`: which fault explains which duplicate, and each fault's bound.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use anyhow::Result;
use chrono::NaiveDateTime;
use krb_effect::Kind;
use krb_kafka::broker::BrokerArgs;
use krb_log::logline::{Offset, Partition};
use krb_log::reader::read_text;
use krb_log::trial_log::{read_acks, read_samples, FaultLog};
use krb_log::worker_log::{nearest, WorkerLog};
use serde::{Deserialize, Serialize};

use crate::facts::{committed, seconds, Run};
use crate::idempotent::default_store;
use crate::Verdict;

mod attribution;
mod invariants;

/// What the article says about faults: nothing; its labs are clean rebalances on one broker.
pub const ARTICLE: &str = "not in the article (one broker, clean rebalances)";

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
    /// When the sampler read each of `samples` (as many, or none when not known).
    pub sampled_at: Vec<NaiveDateTime>,
    /// The group's committed offsets after the final stop, read by librdkafka.
    pub committed: Vec<(Partition, Option<Offset>)>,
    /// The same read by Kafka's ConsumerGroupCommand, the independent witness.
    pub witness: Vec<(Partition, Option<Offset>)>,
    /// Each partition's end offset (one past its last message) as ConsumerGroupCommand read it.
    pub ends: BTreeMap<Partition, Offset>,
    /// The effects' store, read back, for a run with an effect: how many times each message's
    /// effect is there.
    pub effects: Option<BTreeMap<(Partition, Offset), u64>>,
    /// The workers' --effect.
    pub effect: Kind,
    /// db-offsets: each partition's position in the database after the final stop, where its
    /// next owner starts (Kafka's committed offset is not).
    pub stored: Option<Vec<(Partition, Option<Offset>)>>,
    /// What the reader left out of the trial's files beside the logs (the sampler's lines that
    /// are no sample), one line each, `FILE:LINE: skipped: why`.
    pub skipped: Vec<String>,
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
    db: Option<&str>,
    recheck: bool,
) -> Result<Trial> {
    let run = Run::read(dir, group, &broker.namespace)?;
    let acks = read_acks(&dir.join(format!("{group}.acks")))?;
    let mut faults = FaultLog::read(&dir.join(format!("{group}.faults")))?;
    if let Some(first) = run.logs.iter().find_map(|l| l.lines.first()) {
        faults.align(first.at);
    }
    let sampled = read_samples(&dir.join(format!("{group}.committed")))?;
    let begin = faults.begin;
    let witness_path = dir.join(format!("{group}.witness"));
    let witness = read_text(
        &witness_path,
        "Kafka's own account of the group",
        krb_log::trial_log::TRIAL_FILE_LIMIT,
    )?;
    let table = parse_witness(&witness, &broker.name(group), &broker.name(group))
        .map_err(|e| anyhow::anyhow!("{}:{e}", witness_path.display()))?;
    let partitions = acks
        .iter()
        .map(|(p, _)| p.saturating_add(1))
        .max()
        .unwrap_or(1);
    let url = match db {
        Some(url) => url.to_string(),
        None => default_store(effect, group, dir),
    };
    let stored = match effect {
        Kind::DbOffsets => Some(
            krb_effect::Db::open(&url)?
                .positions(&broker.name(group))?
                .into_iter()
                .map(|(p, o)| (p, Some(o)))
                .collect(),
        ),
        _ => None,
    };
    let effects = match effect {
        Kind::None => None,
        _ => {
            let mut counts = krb_effect::counts(&url, effect, group, broker)?;
            let mut each = BTreeMap::new();
            counts.for_each_run(|p, first, last, times| {
                each.extend((first..=last).map(|o| ((p, o), u64::from(times))))
            });
            Some(each)
        }
    };
    let witness: Vec<_> = table.iter().map(|r| (r.partition, r.committed)).collect();
    Ok(Trial {
        committed: if recheck {
            witness.clone()
        } else {
            committed(broker, group, group, partitions)?
        },
        witness,
        ends: table
            .iter()
            .filter_map(|r| Some((r.partition, r.end?)))
            .collect(),
        run,
        acks,
        faults,
        samples: sampled.samples,
        sampled_at: sampled
            .times
            .iter()
            .map(|&time| nearest(begin, time))
            .collect(),
        effects,
        effect,
        stored,
        skipped: sampled.skipped.iter().map(|s| s.to_string()).collect(),
    })
}

/// One partition's row of ConsumerGroupCommand's `--describe` table.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct WitnessRow {
    /// The partition.
    pub partition: Partition,
    /// The group's committed offset, if it has one.
    pub committed: Option<Offset>,
    /// The partition's log end offset, if the table gives it.
    pub end: Option<Offset>,
}

/// ConsumerGroupCommand's `--describe` table, whose rows read `GROUP TOPIC PARTITION
/// CURRENT-OFFSET LOG-END-OFFSET LAG ...` (`-` for no offset), by partition of `topic`: a row
/// of another topic the group reads supplies neither an end nor a committed offset. A row of the
/// group whose partition or offsets are not numbers from 0 (or `-`) is an error, `LINE: why`:
/// left out, its partition would read as never committed; read, an end below 0 is no end.
pub fn parse_witness(text: &str, group: &str, topic: &str) -> Result<Vec<WitnessRow>, String> {
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() < 4 || f[0] != group || f[1] != topic {
            continue;
        }
        let bad = |column: &str, value: &str, max: String| {
            format!(
                "{}: {column} {value:?} is not a number from 0 to {max} or -, in {line:?}",
                i + 1
            )
        };
        let offset = |column: &str, value: Option<&&str>| match value {
            None | Some(&"-") => Ok(None),
            Some(v) => v
                .parse::<Offset>()
                .ok()
                .filter(|o| *o >= 0)
                .map(Some)
                .ok_or_else(|| bad(column, v, Offset::MAX.to_string())),
        };
        rows.push(WitnessRow {
            partition: f[2]
                .parse()
                .ok()
                .filter(|p: &Partition| *p >= 0)
                .ok_or_else(|| bad("PARTITION", f[2], Partition::MAX.to_string()))?,
            committed: offset("CURRENT-OFFSET", f.get(3))?,
            end: offset("LOG-END-OFFSET", f.get(4))?,
        });
    }
    rows.sort();
    Ok(rows)
}

/// One processing: when, and where in the logs (log, line).
#[derive(Clone, Debug)]
struct Processing {
    at: NaiveDateTime,
    place: (usize, usize),
}

/// The trial's verdict and numbers.
pub fn verdict(t: &Trial) -> (Verdict, Stats) {
    let variant = krb_kafka::group::value_name(t.effect);
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
    let mut kept = invariants::kept(&t.run.logs, t.effect);
    let by_store = invariants::kept_by_store(t.effect, t.effects.as_ref(), t.stored.as_ref());
    let statement = match &by_store {
        Some(stored) => {
            kept.extend(stored);
            "nothing lost: every message the broker acknowledged was processed, as the logs say or the store that holds the offsets with the effects"
        }
        None => "nothing lost: every message the broker acknowledged was processed",
    };
    let lost = invariants::lost(&t.acks, &t.ends, &kept);
    stats.counts.lost = lost.count;
    let unknown = t.acks.iter().filter(|(_, o)| *o < 0).count();
    v.check(
        statement,
        lost.count == 0 && !t.acks.is_empty(),
        match &lost.first {
            None => format!(
                "{} acknowledged, all processed ({unknown} acknowledged without an offset, each met by an unacknowledged offset below its partition's end)",
                t.acks.len()
            ),
            Some(first) => format!(
                "{} of {} acknowledged never processed for good, the first {first}",
                lost.count,
                t.acks.len()
            ),
        },
    );
    if let Some(effects) = &t.effects {
        let stored: invariants::Kept = effects.keys().copied().collect();
        let missing = invariants::lost(&t.acks, &t.ends, &stored);
        stats.counts.lost = stats.counts.lost.max(missing.count);
        v.check(
            "every message the broker acknowledged has its effect in the store",
            missing.count == 0 && !t.acks.is_empty(),
            match &missing.first {
                None => format!("{} acknowledged, each with its effect", t.acks.len()),
                Some(first) => format!(
                    "{} of {} acknowledged without an effect, the first {first}",
                    missing.count,
                    t.acks.len()
                ),
            },
        );
    }

    let backwards = invariants::nonmonotonic(&t.run.logs);
    v.check(
        "within one assignment a worker's offsets of a partition only go up",
        backwards.is_empty(),
        backwards
            .first()
            .cloned()
            .unwrap_or_else(|| "no offset went down or repeated".into()),
    );

    let outside = invariants::outside_assignment(&t.run.logs);
    v.check(
        "every worker processed only partitions it held: assigned adds, revoked and lost remove, a restart clears",
        outside.is_empty(),
        outside
            .first()
            .cloned()
            .unwrap_or_else(|| "every processing in its worker's assignment".into()),
    );

    // The witness read the group after the final stop.
    let witnessed: Vec<(Partition, Offset)> = t
        .witness
        .iter()
        .filter_map(|(p, o)| Some((*p, (*o)?)))
        .collect();
    let seen: Vec<invariants::Seen> = t
        .sampled_at
        .iter()
        .zip(&t.samples)
        .map(|(at, sample)| (*at, "read by the sampler", sample.as_slice()))
        .chain([(
            t.faults.end,
            "read by ConsumerGroupCommand",
            witnessed.as_slice(),
        )])
        .collect();
    let commits = invariants::Commits::new(&t.run.logs, &seen);
    let redone = invariants::below_committed(&t.run.logs, &commits);
    v.check(
        "no worker processed a message below an offset the group had committed before its assignment began",
        redone.is_empty(),
        redone
            .first()
            .cloned()
            .unwrap_or_else(|| "every assignment started at or after the committed offsets".into()),
    );

    let ahead = invariants::commits_ahead(&t.run.logs);
    v.check(
        "no worker committed past what it had processed",
        ahead.is_empty(),
        ahead
            .first()
            .cloned()
            .unwrap_or_else(|| "every committed position follows a processed offset".into()),
    );

    let back = invariants::sampled_backwards(&t.samples);
    v.check(
        "the group's committed offsets never moved backwards",
        back.is_none() && !t.samples.is_empty(),
        back.unwrap_or_else(|| format!("{} samples read while the trial ran", t.samples.len())),
    );

    let end = invariants::final_positions(&t.run.logs);
    let (statement, mismatch) = match &t.stored {
        Some(stored) => (
            "after the final stop each partition's position in the database, where its next owner starts, is the one after its last processed",
            invariants::final_mismatch(&end, &[("the database", stored)]),
        ),
        None => (
            "after the final stop each partition's committed offset is the one after its last processed, for librdkafka and for Kafka's own tool",
            invariants::final_mismatch(
                &end,
                &[("librdkafka", &t.committed), ("ConsumerGroupCommand", &t.witness)],
            ),
        ),
    };
    v.check(
        statement,
        mismatch.is_none(),
        mismatch.unwrap_or_else(|| {
            format!(
                "{} partitions, committed {}",
                end.len(),
                end.iter()
                    .map(|(p, o)| format!("p{p}={}", o.saturating_add(1)))
                    .collect::<Vec<_>>()
                    .join(" ")
            )
        }),
    );

    let blame = attribution::attribute(&t.run.logs, &t.faults, &commits, &processings);
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
                "{} duplicates no fault explains, the first {}",
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

    v.check(
        "every worker that exited on its own failed on its store, broken by a fault near",
        blame.unexplained_exits.is_empty(),
        match blame.unexplained_exits.first() {
            Some(first) => format!(
                "{} exits no fault explains, the first: {first}",
                blame.unexplained_exits.len()
            ),
            None => format!(
                "{} workers exited on their own, each on its store broken by a fault",
                t.faults.exits.len()
            ),
        },
    );

    if let Some(effects) = &t.effects {
        let twice: u64 = effects.values().map(|n| n.saturating_sub(1)).sum();
        stats.counts.effect_duplicates = Some(twice);
        if t.effect != Kind::Plain {
            v.check(
                "no effect is in the store twice",
                twice == 0,
                format!(
                    "{} effects of {} messages",
                    effects.values().sum::<u64>(),
                    effects.len()
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
    for (w, log) in logs.iter().enumerate() {
        for (i, e) in log.lines.iter().enumerate() {
            if let Some(m) = e.event.completion() {
                all.entry(m).or_default().push(Processing {
                    at: e.at,
                    place: (w, i),
                });
            }
        }
    }
    for list in all.values_mut() {
        list.sort_by_key(|p| p.at);
    }
    all
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

#[cfg(test)]
mod tests;
