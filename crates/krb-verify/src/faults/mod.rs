//! Lab 7, 07-faults.sh: one fault trial on the three-node cluster, checked with the invariants
//! of Kafka's own consumer system tests and Jepsen's Kafka workload, and one they do not make:
//! every message the producer had acknowledged was processed.

use std::collections::{BTreeMap, BTreeSet, HashMap};
#[cfg(feature = "kafka")]
use std::path::Path;

use crate::Effect as Kind;
use anyhow::Result;
use chrono::NaiveDateTime;
#[cfg(feature = "kafka")]
use krb_kafka::broker::BrokerArgs;
use krb_log::logline::{Offset, Partition};
use krb_log::trial_log::{Fault, FaultLog};
use krb_log::worker_log::WorkerLog;
#[cfg(feature = "kafka")]
use krb_log::{
    reader::read_text,
    trial_log::{read_acks, read_samples},
    worker_log::nearest,
};
use serde::{Deserialize, Serialize};

use crate::facts::{seconds, Run};
use crate::messages::{said, Shared};
use crate::Verdict;
#[cfg(feature = "kafka")]
use crate::{facts::committed, idempotent::default_store};

mod attribution;
mod invariants;

use invariants::{below_committed, commits_ahead, nonmonotonic, outside_assignment};

said! {
    /// Lab 7's statements, details and numbers. What the invariants found wrong is shown as
    /// they word it ([`Shared::Data`]).
    pub enum Said {
        NothingLost => "nothing lost: every message the broker acknowledged was processed",
            "잃은 것 없음: 브로커가 확인한 메시지는 모두 처리됨";
        NothingLostOrStored =>
            "nothing lost: every message the broker acknowledged was processed, as the logs say or the store that holds the offsets with the effects",
            "잃은 것 없음: 브로커가 확인한 메시지는 모두 처리됨 (로그가 말하거나, 반영과 offset을 함께 가진 저장소가 말함)";
        EveryEffect => "every message the broker acknowledged has its effect in the store",
            "브로커가 확인한 메시지마다 저장소에 반영이 있음";
        OnlyUp => "within one assignment a worker's offsets of a partition only go up",
            "한 번의 할당 안에서 워커가 처리하는 파티션의 offset은 올라가기만 함";
        OnlyHeld =>
            "every worker processed only partitions it held: assigned adds, revoked and lost remove, a restart clears",
            "모든 워커가 자기가 가진 파티션만 처리함 (assigned는 더하고, revoked와 lost는 빼고, 재시작하면 비움)";
        NoneBelowCommitted =>
            "no worker processed a message below an offset the group had committed before its assignment began",
            "어느 워커도 자기 할당이 시작되기 전에 그룹이 commit한 offset보다 아래의 메시지를 처리하지 않음";
        NoCommitAhead => "no worker committed past what it had processed",
            "어느 워커도 처리한 것을 넘어서 commit하지 않음";
        NeverBackwards => "the group's committed offsets never moved backwards",
            "그룹의 commit offset이 한 번도 뒤로 가지 않음";
        FinalCommitted =>
            "after the final stop each partition's committed offset is the one after its last processed, for librdkafka and for Kafka's own tool",
            "마지막 정지 뒤 각 파티션의 commit offset이 마지막으로 처리된 offset의 다음: librdkafka에서도 Kafka 자체 도구에서도";
        FinalInDatabase =>
            "after the final stop each partition's position in the database, where its next owner starts, is the one after its last processed",
            "마지막 정지 뒤 데이터베이스에 있는 각 파티션의 위치(다음 담당자가 시작하는 곳)가 마지막으로 처리된 offset의 다음";
        Explained => "every duplicate is explained by a fault, within that fault's bound",
            "모든 중복이 장애 하나로 설명되고, 그 장애의 한도 안에 있음";
        ExitsExplained =>
            "every worker that exited on its own failed on its store, broken by a fault near",
            "스스로 끝난 워커는 모두 가까운 장애로 망가진 저장소에서 실패함";
        NoEffectTwice => "no effect is in the store twice", "저장소에 두 번 들어간 반영 없음";
        AllProcessed { acknowledged: usize, unknown: usize } =>
            "{acknowledged} acknowledged, all processed ({unknown} acknowledged without an offset, each met by an unacknowledged offset below its partition's end)",
            "확인 {acknowledged}건 모두 처리됨. offset 없이 확인된 {unknown}건은 각각 파티션 끝 아래의 확인되지 않은 offset과 짝지어짐";
        NeverProcessed { lost: u64, acknowledged: usize, first: String } =>
            "{lost} of {acknowledged} acknowledged never processed for good, the first {first}",
            "확인 {acknowledged}건 중 {lost}건은 끝내 처리되지 않음, 첫 번째는 {first}";
        EachEffect { acknowledged: usize } => "{acknowledged} acknowledged, each with its effect",
            "확인 {acknowledged}건 모두 반영이 있음";
        WithoutEffect { missing: u64, acknowledged: usize, first: String } =>
            "{missing} of {acknowledged} acknowledged without an effect, the first {first}",
            "확인 {acknowledged}건 중 {missing}건은 반영 없음, 첫 번째는 {first}";
        NoneDown => "no offset went down or repeated", "offset이 내려가거나 되풀이된 곳 없음";
        InAssignment => "every processing in its worker's assignment", "모든 처리가 자기 워커의 할당 안에 있음";
        AtOrAfter => "every assignment started at or after the committed offsets",
            "모든 할당이 commit된 offset이나 그 뒤에서 시작함";
        Follows => "every committed position follows a processed offset",
            "commit된 위치는 모두 처리된 offset의 다음";
        Samples { count: usize } => "{count} samples read while the trial ran",
            "시험 중 읽은 표본 {count}개";
        Final { partitions: usize, committed: String } =>
            "{partitions} partitions, committed {committed}",
            "파티션 {partitions}개, commit {committed}";
        Over { kind: String, target: String, at: f64, duplicates: u64, bound: u64 } =>
            "{kind} {target} at {at:.1} s caused {duplicates} duplicates, more than its bound {bound}",
            "{at:.1}초의 {kind} {target}: 중복 {duplicates}건, 한도 {bound}보다 많음";
        Unexplained { count: u64, first: String } =>
            "{count} duplicates no fault explains, the first {first}",
            "어느 장애로도 설명되지 않는 중복 {count}건, 첫 번째는 {first}";
        WithinBounds { count: u64 } => "{count} duplicates, each within its fault's bound",
            "중복 {count}건, 모두 자기 장애의 한도 안";
        ExitsUnexplained { count: usize, first: String } =>
            "{count} exits no fault explains, the first: {first}",
            "어느 장애로도 설명되지 않는 종료 {count}번, 첫 번째: {first}";
        Exited { count: usize } =>
            "{count} workers exited on their own, each on its store broken by a fault",
            "스스로 끝난 워커 {count}개, 모두 장애로 망가진 저장소에서 끝남";
        EffectsOf { effects: u64, messages: usize } => "{effects} effects of {messages} messages",
            "메시지 {messages}개의 반영 {effects}개";
        NotInArticle => "not in the article (one broker, clean rebalances)",
            "글에 없음 (브로커 하나, 깨끗한 리밸런스)";
        Faults { count: usize, kinds: String } => "{count} faults ({kinds})",
            "장애 {count}번 ({kinds})";
        AckedLost { acknowledged: u64, lost: u64 } => "{acknowledged} acknowledged, {lost} lost",
            "확인 {acknowledged}건, 유실 {lost}건";
    }
}

/// Everything one trial left behind.
pub struct Trial {
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
    pub kind: String,
    /// The worker's name or `node-N`.
    pub target: String,
    /// Seconds after the trial began.
    pub at: f64,
    /// Seconds from the fault until every partition was processed again (none when a
    /// partition got no message after it).
    pub recovery: Option<f64>,
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
    #[serde(flatten)]
    pub counts: Counts,
    /// The faults, in order.
    pub faults: Vec<FaultStat>,
}

#[cfg(feature = "kafka")]
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
    let run = Run::read(dir, group, &broker.namespace, false)?;
    let acks = read_acks(&dir.join(format!("{group}.acks")))?;
    let mut faults = FaultLog::read(&dir.join(format!("{group}.faults")))?;
    if let Some(first) = run.logs.iter().find_map(|l| l.lines.first()) {
        faults.align(first.at);
    }
    let sampled = read_samples(&dir.join(format!("{group}.committed")))?;
    let witness_path = dir.join(format!("{group}.witness"));
    let witness = read_text(
        &witness_path,
        "Kafka's own account of the group",
        krb_log::trial_log::TRIAL_FILE_LIMIT,
    )?;
    let table = parse_witness(&witness, &broker.name(group), &broker.name(group))
        .map_err(|e| anyhow::anyhow!("{}:{e}", witness_path.display()))?;
    let partitions = acks.iter().map(|a| a.0.saturating_add(1)).max();
    let url = db.map_or_else(|| default_store(effect, group, dir), str::to_string);
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
            committed(broker, group, group, partitions.unwrap_or(1))?
        },
        witness,
        ends: table
            .iter()
            .filter_map(|r| Some((r.partition, r.end?)))
            .collect(),
        run,
        acks,
        samples: sampled.samples,
        sampled_at: sampled
            .times
            .iter()
            .map(|&time| nearest(faults.begin, time))
            .collect(),
        faults,
        effects,
        effect,
        stored,
        skipped: sampled.skipped.iter().map(|s| s.to_string()).collect(),
    })
}

/// One partition's row of ConsumerGroupCommand's `--describe` table.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct WitnessRow {
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
    for (n, line) in (1usize..).zip(text.lines()) {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() < 4 || f[0] != group || f[1] != topic {
            continue;
        }
        let bad = |column: &str, value: &str, max: String| {
            format!("{n}: {column} {value:?} is not a number from 0 to {max} or -, in {line:?}")
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

pub fn verdict(t: &Trial) -> (Verdict, Stats) {
    let variant = krb_kafka::group_settings::value_name(t.effect);
    let mut v = Verdict::new(7, "faults", &variant, &t.run.group, Said::NotInArticle);
    let duplicates = t.run.report.duplicates();
    let mut stats = Stats {
        seconds: seconds(t.faults.begin, t.faults.end),
        counts: Counts {
            produced: t.acks.len() as u64,
            processed: t.run.report.processed,
            duplicates,
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
            Said::NothingLostOrStored
        }
        None => Said::NothingLost,
    };
    let acknowledged = t.acks.len();
    let (lost, first) = invariants::lost(&t.acks, &t.ends, &kept);
    stats.counts.lost = lost;
    let unknown = t.acks.iter().filter(|(_, o)| *o < 0).count();
    v.check(
        statement,
        lost == 0 && acknowledged > 0,
        match first {
            None => Said::AllProcessed {
                acknowledged,
                unknown,
            },
            Some(first) => Said::NeverProcessed {
                lost,
                acknowledged,
                first,
            },
        },
    );
    if let Some(effects) = &t.effects {
        let stored: invariants::Kept = effects.keys().copied().collect();
        let (missing, first) = invariants::lost(&t.acks, &t.ends, &stored);
        stats.counts.lost = stats.counts.lost.max(missing);
        v.check(
            Said::EveryEffect,
            missing == 0 && acknowledged > 0,
            match first {
                None => Said::EachEffect { acknowledged },
                Some(first) => Said::WithoutEffect {
                    missing,
                    acknowledged,
                    first,
                },
            },
        );
    }

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
    let (logs, commits) = (&t.run.logs, invariants::Commits::new(&t.run.logs, &seen));
    for (statement, wrong, held) in [
        (Said::OnlyUp, nonmonotonic(logs), Said::NoneDown),
        (Said::OnlyHeld, outside_assignment(logs), Said::InAssignment),
        (
            Said::NoneBelowCommitted,
            below_committed(logs, &commits),
            Said::AtOrAfter,
        ),
        (Said::NoCommitAhead, commits_ahead(logs), Said::Follows),
    ] {
        v.check(statement, wrong.is_none(), found(wrong, held));
    }

    let (back, count) = (invariants::sampled_backwards(&t.samples), t.samples.len());
    v.check(
        Said::NeverBackwards,
        back.is_none() && count > 0,
        found(back, Said::Samples { count }),
    );

    let end = invariants::final_positions(&t.run.logs);
    let (statement, readers) = match &t.stored {
        Some(stored) => (Said::FinalInDatabase, vec![("the database", stored)]),
        None => (
            Said::FinalCommitted,
            vec![
                ("librdkafka", &t.committed),
                ("ConsumerGroupCommand", &t.witness),
            ],
        ),
    };
    let mismatch = invariants::final_mismatch(&end, &readers);
    let next = |(p, o): (&Partition, &Offset)| format!("p{p}={}", o.saturating_add(1));
    let held = Said::Final {
        partitions: end.len(),
        committed: end.iter().map(next).collect::<Vec<_>>().join(" "),
    };
    v.check(statement, mismatch.is_none(), found(mismatch, held));

    let blame = attribution::attribute(&t.run.logs, &t.faults, &commits, &processings);
    stats.counts.unexplained = blame.unexplained;
    let faults = &t.faults.faults;
    stats.faults = faults
        .iter()
        .zip(&blame.per_fault)
        .zip(recoveries(faults, &processings))
        .map(|((f, (dups, bound)), recovery)| FaultStat {
            kind: f.kind.name().into(),
            target: f.target.clone(),
            at: seconds(t.faults.begin, f.at),
            recovery,
            duplicates: *dups,
            bound: *bound,
        })
        .collect();
    let over = stats.faults.iter().find(|f| f.duplicates > f.bound);
    v.check(
        Said::Explained,
        blame.unexplained == 0 && over.is_none(),
        if let Some(f) = over {
            Said::Over {
                kind: f.kind.clone(),
                target: f.target.clone(),
                at: f.at,
                duplicates: f.duplicates,
                bound: f.bound,
            }
        } else if blame.unexplained > 0 {
            Said::Unexplained {
                count: blame.unexplained,
                first: blame.first_unexplained.clone().unwrap_or_default(),
            }
        } else {
            Said::WithinBounds { count: duplicates }
        },
    );

    v.check(
        Said::ExitsExplained,
        blame.unexplained_exits.is_empty(),
        match blame.unexplained_exits.first() {
            Some(first) => Said::ExitsUnexplained {
                count: blame.unexplained_exits.len(),
                first: first.to_string(),
            },
            None => Said::Exited {
                count: t.faults.exits.len(),
            },
        },
    );

    if let Some(effects) = &t.effects {
        let twice: u64 = effects.values().map(|n| n.saturating_sub(1)).sum();
        stats.counts.effect_duplicates = Some(twice);
        if t.effect != Kind::Plain {
            v.check(
                Said::NoEffectTwice,
                twice == 0,
                Said::EffectsOf {
                    effects: effects.values().sum::<u64>(),
                    messages: effects.len(),
                },
            );
        }
    }

    let kinds: BTreeSet<&str> = faults.iter().map(|f| f.kind.name()).collect();
    v.ours = vec![
        Said::Faults {
            count: faults.len(),
            kinds: kinds.into_iter().collect::<Vec<_>>().join(", "),
        }
        .into(),
        Said::AckedLost {
            acknowledged: stats.counts.produced,
            lost: stats.counts.lost,
        }
        .into(),
        Shared::Duplicates { count: duplicates }.into(),
    ]
    .into();
    (v, stats)
}

/// The first thing an invariant found wrong, as it words it; else what held.
fn found(wrong: Option<String>, held: Said) -> crate::messages::Message {
    wrong.map_or(held.into(), |text| Shared::Data { text }.into())
}

/// Every completed processing of each message, in time order.
fn processings(logs: &[WorkerLog]) -> BTreeMap<(Partition, Offset), Vec<Processing>> {
    let mut all: BTreeMap<(Partition, Offset), Vec<Processing>> = BTreeMap::new();
    for (w, log) in logs.iter().enumerate() {
        for (i, e) in log.lines.iter().enumerate() {
            if let Some(m) = e.event.completion() {
                let once = Processing {
                    at: e.at,
                    place: (w, i),
                };
                all.entry(m)
                    .or_default()
                    .extend(std::iter::repeat_n(once, e.times as usize));
            }
        }
    }
    all.values_mut().for_each(|list| list.sort_by_key(|p| p.at));
    all
}

/// For each of `faults`, seconds from it until every partition processed after it had its first
/// processing after it; none when some partition processed nothing after it. The processings in
/// time order, the faults in time order beside them: the shortest run of processings from a
/// fault on that holds every partition ends at the answer, and only moves on as the faults do.
fn recoveries(
    faults: &[Fault],
    processings: &BTreeMap<(Partition, Offset), Vec<Processing>>,
) -> Vec<Option<f64>> {
    let mut passing: Vec<(NaiveDateTime, Partition)> = processings
        .iter()
        .flat_map(|((p, _), list)| list.iter().map(move |x| (x.at, *p)))
        .collect();
    passing.sort_unstable();
    let mut order: Vec<usize> = (0..faults.len()).collect();
    order.sort_by_key(|&i| faults[i].at);
    // The run is `passing[from..to]`; `held` counts each partition's processings in it.
    let mut held: HashMap<Partition, usize> = processings.keys().map(|&(p, _)| (p, 0)).collect();
    let (partitions, mut covered, mut from, mut to) = (held.len(), 0, 0, 0);
    let mut found = vec![None; faults.len()];
    for i in order {
        let at = faults[i].at;
        while passing.get(from).is_some_and(|x| x.0 < at) {
            if from < to {
                let n = held.entry(passing[from].1).or_insert(0);
                *n -= 1;
                covered -= usize::from(*n == 0);
            }
            from += 1;
        }
        to = to.max(from);
        while covered < partitions && to < passing.len() {
            let n = held.entry(passing[to].1).or_insert(0);
            covered += usize::from(*n == 0);
            *n += 1;
            to += 1;
        }
        if covered == partitions {
            found[i] = Some(to.checked_sub(1).map_or(0.0, |k| seconds(at, passing[k].0)));
        }
    }
    found
}

#[cfg(test)]
mod tests;
