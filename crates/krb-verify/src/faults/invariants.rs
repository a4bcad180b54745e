//! Lab 7's invariants, each a question of the logs, the producer's acknowledgements, the
//! sampler's readings or the store, answered whatever faults the trial had.

use std::collections::{BTreeMap, BTreeSet};

use crate::{shown, Effect as Kind};
use chrono::NaiveDateTime;
use krb_log::logline::{format_time, Event, Offset, Partition};
use krb_log::worker_log::{Entry, WorkerLog};

/// What an acknowledged message is checked against: the messages the logs say were processed
/// for good, or those whose effect is in the store.
pub(super) type Kept = BTreeSet<(Partition, Offset)>;

/// The messages the logs say were processed for good. A `refused` line is not one: db-offsets
/// rolled its effect back. With kafka-eos a processing counts once the transaction that holds
/// it commits: the worker's next commit line names its partition past it before any
/// `transaction aborted` line, restart or the log's end (an aborted transaction's output, and
/// that of one a killed worker left open, which the broker aborts, is never read).
pub(super) fn kept(logs: &[WorkerLog], effect: Kind) -> Kept {
    let mut kept = Kept::new();
    for log in logs {
        let mut open: Vec<(Partition, Offset)> = Vec::new();
        for e in &log.lines {
            match (&e.event, effect) {
                (Event::Refused { .. }, _) => {}
                (Event::Commit(positions), Kind::KafkaEos) => kept.extend(
                    open.drain(..)
                        .filter(|(p, o)| positions.iter().any(|(q, next)| q == p && next > o)),
                ),
                (Event::TxnAborted(_) | Event::Start, Kind::KafkaEos) => open.clear(),
                (event, Kind::KafkaEos) => open.extend(event.completion()),
                (event, _) => kept.extend(event.completion()),
            }
        }
    }
    kept
}

/// The messages the store keeps where the store decides, since it holds the offsets with the
/// effects (db-offsets: the effect in the database and the position there past it; kafka-eos:
/// the output in the read_committed topic), why in lab7-analysis.md, "Kept by the store". None
/// for the other effects: their store holds no offsets, and the logs decide alone.
pub(super) fn kept_by_store(
    effect: Kind,
    effects: Option<&BTreeMap<(Partition, Offset), u64>>,
    positions: Option<&Positions>,
) -> Option<Kept> {
    let effects = effects?.keys().copied();
    match effect {
        Kind::KafkaEos => Some(effects.collect()),
        Kind::DbOffsets => {
            let position = |p: Partition| positions?.iter().find(|(q, _)| *q == p)?.1;
            Some(
                effects
                    .filter(|&(p, o)| position(p).is_some_and(|next| next > o))
                    .collect(),
            )
        }
        _ => None,
    }
}

/// How many acknowledged messages are missing from `kept`, and the first. An acknowledgement
/// without an offset (librdkafka's -1001) is met only by a kept offset of its partition that no
/// acknowledgement names, below the partition's end (`ends`, else one past its highest
/// acknowledged offset); why that is exact: lab7-analysis.md, "Acknowledgements without an
/// offset".
pub(super) fn lost(
    acks: &[(Partition, Offset)],
    ends: &BTreeMap<Partition, Offset>,
    kept: &Kept,
) -> (u64, Option<String>) {
    let known: BTreeSet<(Partition, Offset)> =
        acks.iter().copied().filter(|(_, o)| *o >= 0).collect();
    let mut count = known.difference(kept).count() as u64;
    let mut first = known
        .difference(kept)
        .next()
        .map(|(p, o)| format!("p{p} offset {o}"));
    let mut unknown: BTreeMap<Partition, u64> = BTreeMap::new();
    for (p, _) in acks.iter().filter(|(_, o)| *o < 0) {
        *unknown.entry(*p).or_default() += 1;
    }
    for (p, n) in unknown {
        // No end below 0 (none is read so: the witness's are checked), nor one past the
        // highest offset.
        let end = ends.get(&p).copied().unwrap_or_else(|| {
            known
                .range((p, 0)..=(p, Offset::MAX))
                .next_back()
                .map_or(0, |(_, o)| o.saturating_add(1))
        });
        let met = kept
            .range((p, 0)..(p, end.max(0)))
            .filter(|m| !known.contains(m))
            .count() as u64;
        if met < n {
            count += n - met;
            first.get_or_insert_with(|| {
                format!("p{p}: {n} acknowledged without an offset, {met} unacknowledged offsets below its end {end} kept")
            });
        }
    }
    (count, first)
}

/// What a worker holds, one rule for every protocol (lab7-analysis.md, "Where an assignment
/// ends"): `assigned` adds its partitions, `revoked` and `lost` remove theirs, a restart clears.
#[derive(Clone, Default)]
pub(super) struct Held(BTreeSet<Partition>);

impl Held {
    /// Applies `e`; returns the partitions that left, or were given anew, whose run of offsets
    /// starts over.
    pub(super) fn apply(&mut self, e: &Event) -> Vec<Partition> {
        match e {
            Event::Start => std::mem::take(&mut self.0).into_iter().collect(),
            Event::Assigned(ps) => {
                self.0.extend(ps);
                ps.clone()
            }
            Event::Revoked(ps) | Event::Lost(ps) => {
                ps.iter().for_each(|p| {
                    self.0.remove(p);
                });
                ps.clone()
            }
            _ => Vec::new(),
        }
    }

    pub(super) fn owns(&self, p: Partition) -> bool {
        self.0.contains(&p)
    }
}

/// The first processing of a partition the worker did not hold (see [`Held`]): work after
/// the revoke, the bug the article warns of.
pub(super) fn outside_assignment(logs: &[WorkerLog]) -> Option<String> {
    first_wrong(logs, |held: &mut Held, e| {
        held.apply(&e.event);
        let (p, o) = e.event.completion().filter(|(p, _)| !held.owns(*p))?;
        Some(format!(
            "processed p{p} offset {o} holding {}",
            shown::list(&held.0)
        ))
    })
}

/// The first line of `logs` at which `wrong`, given each log's lines in order and a state that
/// starts afresh with each log, finds something: `NAME what (NAME.log, event N)`.
fn first_wrong<S: Default>(
    logs: &[WorkerLog],
    mut wrong: impl FnMut(&mut S, &Entry) -> Option<String>,
) -> Option<String> {
    logs.iter().find_map(|log| {
        let mut state = S::default();
        log.lines.iter().enumerate().find_map(|(i, e)| {
            let what = wrong(&mut state, e)?;
            Some(format!(
                "{} {what} ({}.log, event {})",
                log.name,
                log.name,
                i + 1
            ))
        })
    })
}

/// Ends an assignment: the worker (re)started, was assigned or lost partitions, or rewound.
pub(super) fn ends_assignment(e: &Event) -> bool {
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

/// Jepsen's nonmonotonic poll: the first offset of a partition that did not go up within an
/// assignment of it. Its run starts over only for the partitions that left or were given (see
/// [`Held::apply`]), and for all at an aborted transaction, which rewinds every partition.
pub(super) fn nonmonotonic(logs: &[WorkerLog]) -> Option<String> {
    first_wrong(logs, |(held, last): &mut (Held, BTreeMap<_, _>), e| {
        for p in held.apply(&e.event) {
            last.remove(&p);
        }
        if matches!(e.event, Event::Start | Event::TxnAborted(_)) {
            last.clear();
        }
        let (p, o) = e.event.completion()?;
        let before = last.insert(p, o).filter(|before| *before >= o);
        // A line written again at once is the same offset again.
        let before = before.or((e.times > 1).then_some(o))?;
        Some(format!(
            "processed p{p} offset {o} after offset {before} in one assignment"
        ))
    })
}

/// Committed offsets someone other than the workers saw: when, who, and what.
pub(super) type Seen<'a> = (NaiveDateTime, &'a str, &'a [(Partition, Offset)]);

/// Each partition's commits in time order, each with the highest position up to it and who
/// made or saw that one. Committed means what a worker logged or what the sampler or the
/// witness (`seen`) read, whichever came first: a worker killed after its commit returned,
/// before it wrote the line, committed all the same.
pub(super) struct Commits<'a>(BTreeMap<Partition, Vec<(NaiveDateTime, Offset, &'a str)>>);

impl<'a> Commits<'a> {
    pub(super) fn new(logs: &'a [WorkerLog], seen: &[Seen<'a>]) -> Commits<'a> {
        let mut commits: BTreeMap<Partition, Vec<(NaiveDateTime, Offset, &str)>> = BTreeMap::new();
        let logged = logs.iter().flat_map(|log| {
            log.lines.iter().filter_map(|e| match &e.event {
                Event::Commit(positions) => Some((e.at, log.name.as_str(), positions.as_slice())),
                _ => None,
            })
        });
        for (at, by, positions) in logged.chain(seen.iter().copied()) {
            for &(p, o) in positions {
                commits.entry(p).or_default().push((at, o, by));
            }
        }
        for list in commits.values_mut() {
            list.sort_by_key(|c| c.0);
            for i in 1..list.len() {
                if list[i - 1].1 > list[i].1 {
                    list[i] = (list[i].0, list[i - 1].1, list[i - 1].2);
                }
            }
        }
        Commits(commits)
    }

    /// The highest commit of `p` at or before `at`: its position and who made or saw it.
    pub(super) fn high(&self, p: Partition, at: NaiveDateTime) -> Option<(Offset, &'a str)> {
        let list = self.0.get(&p)?;
        let i = list.partition_point(|c| c.0 <= at);
        i.checked_sub(1).map(|i| (list[i].1, list[i].2))
    }
}

/// The first processing below an offset the group had committed when the processor's
/// assignment of the partition began: a successful commit is on record before it returns, so
/// an owner that starts afterwards (given the partition, restarted, or rewound) starts at or
/// after it, whatever fault was near. A zombie's, in an assignment that began before the
/// commit, is left to the duplicates statement; a commit later overtaken still counts here.
pub(super) fn below_committed(logs: &[WorkerLog], commits: &Commits) -> Option<String> {
    first_wrong::<(Option<NaiveDateTime>, BTreeMap<_, _>)>(logs, |(reset, assigned), e| {
        match &e.event {
            Event::Start | Event::TxnAborted(_) => *reset = Some(e.at),
            Event::Assigned(ps) => assigned.extend(ps.iter().map(|p| (*p, e.at))),
            _ => {}
        }
        let (p, o) = e.event.completion()?;
        let began = assigned.get(&p).copied().max(*reset)?;
        let (next, by) = commits.high(p, began).filter(|(next, _)| *next > o)?;
        let began = format_time(began.time());
        Some(format!(
            "processed p{p} offset {o} in an assignment that began at {began}, after p{p}={next} was committed ({by})"
        ))
    })
}

/// The first commit of a position whose previous offset the committing worker had not processed.
pub(super) fn commits_ahead(logs: &[WorkerLog]) -> Option<String> {
    logs.iter().find_map(|log| {
        let mut done = BTreeSet::new();
        log.lines.iter().find_map(|e| {
            done.extend(e.event.completion());
            let Event::Commit(positions) = &e.event else {
                return None;
            };
            positions.iter().find_map(|&(p, o)| {
                // Positions are offsets from 0 (the grammar reads no other): o - 1 is one.
                let last = o.saturating_sub(1);
                (!done.contains(&(p, last))).then(|| {
                    format!(
                        "{} committed p{p}={o} without having processed p{p} offset {last}",
                        log.name
                    )
                })
            })
        })
    })
}

/// The first sample in which a partition's committed offset is lower than in the one before.
pub(super) fn sampled_backwards(samples: &[Vec<(Partition, Offset)>]) -> Option<String> {
    let mut high = BTreeMap::new();
    (1usize..).zip(samples).find_map(|(n, sample)| {
        sample.iter().find_map(|&(p, o)| {
            let h = high.insert(p, o).filter(|h| o < *h)?;
            Some(format!("sample {n} read p{p}={o} after p{p}={h}"))
        })
    })
}

/// Each partition's highest processed offset.
pub(super) fn final_positions(logs: &[WorkerLog]) -> BTreeMap<Partition, Offset> {
    let mut end = BTreeMap::new();
    for (p, o) in logs.iter().flat_map(|log| log.processed()) {
        let e = end.entry(p).or_insert(o);
        *e = o.max(*e);
    }
    end
}

/// Each partition's final position as one reader read it (`None`: no position).
pub(super) type Positions = Vec<(Partition, Option<Offset>)>;

/// The first partition whose final position, as one of `readers` read it, is not the one after
/// its last processed offset.
pub(super) fn final_mismatch(
    end: &BTreeMap<Partition, Offset>,
    readers: &[(&str, &Positions)],
) -> Option<String> {
    if end.is_empty() {
        return Some("nothing was processed".into());
    }
    for (who, read) in readers {
        for (p, last) in end {
            let got = read.iter().find(|(q, _)| q == p).and_then(|(_, o)| *o);
            // A processed offset is below i64::MAX (the grammar reads no other).
            if got != last.checked_add(1) {
                return Some(format!(
                    "{who} reads p{p} committed {}, but its last processed offset is {last}",
                    got.map_or("nothing".to_string(), |o| o.to_string())
                ));
            }
        }
    }
    None
}
