//! Lab 9, 09-deploy.sh: the article's opening question. Three workers share a topic of six
//! partitions under a steady stream; each in turn is stopped and started again under the same
//! name (a rolling deploy). One row per combination of the article's fixes: what each costs in
//! duplicates, rebalances and stopped partitions, and what only idempotency fixes.
//!
//! The rows ([`Row`]) live here and nowhere else: the script asks `krb-verify deploy-rows` for
//! them and their worker options. Its messages are values ([`Message`]), English and Korean side
//! by side.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;
#[cfg(feature = "kafka")]
use std::time::Duration;

use anyhow::Result;
#[cfg(feature = "kafka")]
use anyhow::{anyhow, Context};
use chrono::NaiveDateTime;
use krb_cli::lang::{columns as width, Lang};
use krb_dups::Report;
#[cfg(feature = "kafka")]
use krb_kafka::broker::BrokerArgs;
use krb_log::logline::{Event, Partition};
use krb_log::worker_log::{Entry, WorkerLog};
#[cfg(feature = "kafka")]
use rdkafka::consumer::{BaseConsumer, Consumer};
use serde::{Deserialize, Serialize};

use crate::facts::{seconds, Run, NO_LINE};
use crate::messages::{both, said, Shared};
use crate::record::Record;
use crate::verdict::DUPLICATES;
use crate::Verdict;
use krb_markup::{escape_html as escape, El};

/// The lab's number.
pub const LAB: u8 = 9;
/// The topic's partitions.
pub const PARTITIONS: i32 = 6;
/// The workers, by the last part of their names (`GROUP-a`).
pub const WORKERS: [&str; 3] = ["a", "b", "c"];
/// The article's settings: seconds a message, a commit every so many.
pub const DELAY: &str = "0.01";
/// See [`DELAY`].
pub const COMMIT_EVERY: u64 = 100;
/// The classic static rows' session.timeout.ms, in seconds: as lab 4, ample for a restart (well
/// under a second here) and short enough that a stopped row's group empties soon.
pub const CLASSIC_SESSION: f64 = 10.0;
/// A KIP-848 group's session timeout, in seconds: the broker's group.consumer.session.timeout.ms
/// (Kafka's default; kafka-local.sh lowers it only on the three-node cluster).
pub const CONSUMER_SESSION: f64 = 45.0;

/// [`Verdict::numbers`]: partitions with a duplicate.
pub const DUPLICATE_PARTITIONS: &str = "duplicate_partitions";
/// [`Verdict::numbers`]: rebalances the workers that stayed went through.
pub const REBALANCES: &str = "rebalances";
/// [`Verdict::numbers`]: partitions the workers that stayed revoked.
pub const REVOKED: &str = "revoked";
/// [`Verdict::numbers`]: the longest a partition waited for an owner to process it, in seconds.
pub const LONGEST_STOP: &str = "longest_stop_seconds";
/// [`Verdict::numbers`]: from the first stop to the last assignment of the deploy, in seconds.
pub const DEPLOY_SECONDS: &str = "deploy_seconds";

/// How the group assigns: the classic protocol's two assignors, or KIP-848's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Assignment {
    /// Classic protocol, range: eager, every member revokes everything.
    Range,
    /// Classic protocol, cooperative-sticky: only what moves is revoked.
    Coop,
    /// The consumer protocol (KIP-848): the broker assigns, incrementally.
    Consumer,
}

/// How each worker is stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Signal {
    /// SIGTERM: a clean stop, the revoke callback runs.
    Term,
    /// SIGKILL: no callback, no leave.
    Kill,
}

/// One row of the matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    /// The protocol and assignor.
    pub assignment: Assignment,
    /// A commit in on_revoke (`--revoke-commit`).
    pub revoke_commit: bool,
    /// group.instance.id (`--instance-id`, the worker's name).
    pub static_membership: bool,
    /// How each worker is stopped.
    pub signal: Signal,
    /// Lab 6's idempotent effect in SQLite.
    pub idempotent: bool,
}

/// The row the kill rows repeat with SIGKILL: the best of the twelve. The consumer protocol
/// cannot be it: a static member killed without its leave keeps its instance id until its
/// session times out (45 s), and its restart is refused until then.
const BEST: Row = Row {
    assignment: Assignment::Coop,
    revoke_commit: true,
    static_membership: true,
    signal: Signal::Term,
    idempotent: false,
};

impl Row {
    /// Every row, in the order the script runs them and the table shows them.
    pub fn all() -> Vec<Row> {
        let mut rows = Vec::new();
        for assignment in [Assignment::Range, Assignment::Coop, Assignment::Consumer] {
            for static_membership in [false, true] {
                for revoke_commit in [false, true] {
                    rows.push(Row {
                        assignment,
                        revoke_commit,
                        static_membership,
                        signal: Signal::Term,
                        idempotent: false,
                    });
                }
            }
        }
        let kill = Row {
            signal: Signal::Kill,
            ..BEST
        };
        rows.push(kill);
        rows.push(Row {
            idempotent: true,
            ..kill
        });
        rows
    }

    /// The row's name, what it sets: `range`, `coop-revoke-static`, `kill-idempotent`.
    pub fn name(&self) -> String {
        if self.signal == Signal::Kill {
            return if self.idempotent {
                "kill-idempotent"
            } else {
                "kill"
            }
            .into();
        }
        let mut name = match self.assignment {
            Assignment::Range => "range",
            Assignment::Coop => "coop",
            Assignment::Consumer => "consumer",
        }
        .to_string();
        if self.revoke_commit {
            name += "-revoke";
        }
        if self.static_membership {
            name += "-static";
        }
        name
    }

    /// The row named `name`.
    pub fn parse(name: &str) -> Result<Row, Message> {
        Row::all()
            .into_iter()
            .find(|r| r.name() == name)
            .ok_or_else(|| Message::UnknownRow {
                row: name.to_string(),
                rows: Row::all()
                    .iter()
                    .map(Row::name)
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }

    /// The rows `--only` names (comma-separated), or all of them.
    pub fn select(only: Option<&str>) -> Result<Vec<Row>, Message> {
        let Some(only) = only else {
            return Ok(Row::all());
        };
        let rows = only
            .split(',')
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .map(Row::parse)
            .collect::<Result<Vec<_>, _>>()?;
        if rows.is_empty() {
            return Err(Message::NoRow);
        }
        Ok(rows)
    }

    /// The worker options of the row, the store and the instance id aside.
    pub fn worker_options(&self) -> Vec<String> {
        let mut options: Vec<&str> = match self.assignment {
            Assignment::Range => vec!["--group-protocol", "classic", "--assignor", "range"],
            Assignment::Coop => vec![
                "--group-protocol",
                "classic",
                "--assignor",
                "cooperative-sticky",
            ],
            Assignment::Consumer => vec!["--group-protocol", "consumer"],
        };
        let every = COMMIT_EVERY.to_string();
        options.extend(["--delay", DELAY, "--commit-every", &every]);
        if self.revoke_commit {
            options.push("--revoke-commit");
        }
        let session = format!("{}", (CLASSIC_SESSION * 1000.0) as u32);
        if self.static_membership && self.assignment != Assignment::Consumer {
            options.extend(["--session-timeout-ms", &session]);
        }
        if self.idempotent {
            options.extend(["--effect", "idempotent"]);
        }
        options.into_iter().map(String::from).collect()
    }

    /// How long a static member of this row may be away before the group rebalances.
    pub fn session_timeout(&self) -> f64 {
        match self.assignment {
            Assignment::Consumer => CONSUMER_SESSION,
            _ => CLASSIC_SESSION,
        }
    }

    /// One line for 09-deploy.sh, tab-separated: name, signal (TERM or KILL), membership
    /// (static or dynamic), the effects' store (`-`: none) for group `group`'s logs in `dir`,
    /// then the worker options, space-separated.
    pub fn script_line(&self, group: &str, dir: &Path) -> String {
        let store = if self.idempotent {
            crate::idempotent::default_store(crate::Effect::Idempotent, group, dir)
        } else {
            "-".into()
        };
        format!(
            "{}\t{}\t{}\t{store}\t{}",
            self.name(),
            match self.signal {
                Signal::Term => "TERM",
                Signal::Kill => "KILL",
            },
            if self.static_membership {
                "static"
            } else {
                "dynamic"
            },
            self.worker_options().join(" ")
        )
    }
}

said! {
    /// What lab 9 says: its statements, their details, its numbers and its table, in English and
    /// Korean.
    #[serde(tag = "message", rename_all = "snake_case")]
    pub enum Message {
        Article => "not measured: the article's team saw dozens of orders processed twice",
            "측정 없음: 글의 팀은 같은 주문이 수십 건 두 번 처리되는 것을 봤어요";
        AllProcessed => "every message written during the deploy was processed",
            "배포하는 동안 쓴 메시지를 모두 처리함";
        Processed { unique: u64, produced: u64 } => "{unique} of {produced} processed",
            "{produced}개 중 {unique}개 처리";
        CameBack => "each restarted worker owned partitions again", "다시 띄운 워커마다 파티션을 다시 맡음";
        Back { back: usize, of: usize, missing: String } => |lang| match missing.as_str() {
            "" => both!(lang, "{back} of {of} back", "{of}개 중 {back}개가 돌아옴"),
            _ => both!(
                lang,
                "{back} of {of} back; not back: {missing}",
                "{of}개 중 {back}개가 돌아옴. 돌아오지 않음: {missing}"
            ),
        };
        NoDuplicates =>
            "no duplicates: on_revoke commits what was processed before each hand-over, and \
            SIGTERM lets it run",
            "중복 없음: 파티션을 넘기기 전에 on_revoke가 처리한 위치까지 commit하고, \
            SIGTERM이면 on_revoke가 호출돼요";
        Duplicates { count: u64, partitions: String } => |lang| match count {
            0 => Shared::NoDuplicates.text(lang),
            _ => both!(lang, "{count} duplicates on {partitions}", "{partitions}에서 중복 {count}건"),
        };
        KeepsItsPartitions =>
            "a worker that stays never gives up a partition it keeps: only what moves is \
            revoked",
            "남는 워커는 계속 맡을 파티션을 반납하지 않음: 옮겨 갈 파티션만 반납해요";
        GivenBack { revoked: usize, back: String } => |lang| match back.as_str() {
            "" => both!(
                lang,
                "the workers that stayed revoked {revoked} partition(s), none got back",
                "남은 워커가 파티션 {revoked}개를 반납했고, 다시 받은 것은 없음"
            ),
            _ => both!(
                lang,
                "the workers that stayed revoked {revoked} partition(s); got back: {back}",
                "남은 워커가 파티션 {revoked}개를 반납함. 다시 받음: {back}"
            ),
        };
        BackInSession { limit: f64 } =>
            "each static member owned its partitions again within its session timeout \
            ({limit} s) of its stop",
            "static member마다 멈춘 뒤 session timeout({limit}초) 안에 파티션을 다시 맡음";
        Slowest { worker: String, seconds: String } => "slowest: {worker}, {seconds} s",
            "가장 늦은 워커: {worker}, {seconds}초";
        NoRebalance =>
            "no rebalance: a static member back within its session timeout is still a \
            member, so the others keep their partitions",
            "리밸런스 없음: session timeout 안에 돌아온 static member는 계속 구성원이라, \
            다른 워커는 파티션을 그대로 맡아요";
        StayerLines { count: usize } =>
            "{count} assigned, revoked or lost line(s) from the workers that stayed",
            "남은 워커의 assigned, revoked, lost 줄 {count}개";
        KillBound { every: u64 } =>
            "after SIGKILL, at most commit-every ({every}) duplicates on each partition \
            the killed worker held: only what it processed after its last commit comes \
            again",
            "SIGKILL 뒤 중복은 죽은 워커가 맡던 파티션마다 commit-every({every}건) \
            이하: 마지막 commit 뒤에 처리한 것만 다시 처리돼요";
        KillDetail { counts: String, held: String } =>
            "duplicates {counts}; held by a killed worker: {held}",
            "중복 {counts}; 죽은 워커가 맡던 파티션: {held}";
        NoEffectTwice =>
            "no message's effect twice: the idempotent effect is written once per message, \
            however often it is processed",
            "같은 메시지의 반영은 한 번뿐: 멱등 처리는 몇 번 처리하든 메시지마다 한 번만 \
            반영해요";
        Rows { duplicates: u64 } => "{duplicates} duplicate rows", "중복 행 {duplicates}개";
        EveryEffect => "every message has its effect", "메시지마다 반영이 있음";
        Effects { unique: u64, produced: u64 } => "{unique} of {produced} messages in the database",
            "데이터베이스에 메시지 {produced}개 중 {unique}개";
        Ours { duplicates: u64, partitions: usize, rebalances: usize, revoked: usize,
            stop: String, deploy: String } =>
            "{duplicates} duplicates on {partitions} partition(s); {rebalances} \
            rebalance(s), {revoked} partition(s) revoked; longest stop {stop} s; \
            deploy {deploy} s",
            "파티션 {partitions}개에서 중복 {duplicates}건; 리밸런스 {rebalances}번, \
            반납한 파티션 {revoked}개; 가장 긴 멈춤 {stop}초; 배포 {deploy}초";
        UnknownRow { row: String, rows: String } => "unknown row '{row}': the rows are {rows}",
            "알 수 없는 행: '{row}'. 쓸 수 있는 행: {rows}";
        NoRow => "--only names no row", "--only에 행이 하나도 없습니다";
        Heading => "Lab 9: a rolling deploy, every fix side by side", "실습 9: 롤링 배포, 해법을 모두 나란히";
        Intro =>
            "Three workers under a steady stream are restarted one by one, as a deploy does. \
            Each row adds fixes from the article: a commit in on_revoke, cooperative-sticky \
            or the consumer protocol, static membership; the last two kill the workers \
            instead, with and without the idempotent effect. The table says what each row \
            cost.",
            "계속 메시지가 들어오는 동안 워커 세 개를 하나씩 다시 띄워요. 배포가 하는 \
            그대로예요. 행마다 글의 해법을 더해요: on_revoke에서 commit, cooperative-sticky나 \
            consumer 프로토콜, static membership. 마지막 두 행은 워커를 죽이고 다시 띄워요. \
            멱등 반영이 있을 때와 없을 때예요. 표는 행마다 든 비용이에요.";
        Heads => "row\tduplicates\trebalances\trevoked\tlongest stop\tdeploy\theld",
            "행\t중복\t리밸런스\t반납\t가장 긴 멈춤\t배포\t성립";
        DuplicatesCell { count: u64, partitions: usize } => "{count} ({partitions} partitions)",
            "{count} (파티션 {partitions}개)";
        SecondsCell { seconds: String } => "{seconds} s", "{seconds}초";
        NotHeld { what: String } => "not held: {what}", "성립하지 않음: {what}";
    }
}

impl std::fmt::Display for Message {
    /// The English text: what today's verdicts record (the reader translates at display).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text(Lang::En))
    }
}

/// A worker's restart, as its log and the others' say it.
#[derive(Clone, Debug, PartialEq)]
pub struct Restart {
    /// The worker's name.
    pub worker: String,
    /// When it was stopped (its first stop line).
    pub stopped: NaiveDateTime,
    /// The partitions it owned then.
    pub held: BTreeSet<Partition>,
    /// When it owned partitions again after its restart, if it did.
    pub back: Option<NaiveDateTime>,
    /// The end of its part of the deploy: the next worker's stop, or the final stop.
    pub until: NaiveDateTime,
}

/// What lab 9 measures in a row's logs.
#[derive(Clone, Debug, PartialEq)]
pub struct Deploy {
    /// The restarts, in order.
    pub restarts: Vec<Restart>,
    /// Rebalances the workers that stayed went through (per restart, the most any of them did).
    pub rebalances: usize,
    /// Partitions the workers that stayed revoked or lost.
    pub revoked: usize,
    /// (worker, partition): a worker that stayed revoked it and got it back in the same restart.
    pub given_back: Vec<(String, Partition)>,
    /// Assigned, revoked and lost lines of the workers that stayed.
    pub stayer_lines: usize,
    /// The longest a partition went unprocessed during the deploy, in seconds.
    pub longest_stop: f64,
    /// From the first stop to the deploy's last assignment, in seconds.
    pub seconds: f64,
}

/// The partitions `log` owned just before line `before`, replayed from its last start.
fn owned(log: &WorkerLog, before: usize) -> BTreeSet<Partition> {
    let mut own = BTreeSet::new();
    for l in &log.lines[..before] {
        match &l.event {
            Event::Start => own.clear(),
            Event::Assigned(ps) => own.extend(ps),
            Event::Revoked(ps) | Event::Lost(ps) => {
                for p in ps {
                    own.remove(p);
                }
            }
            _ => {}
        }
    }
    own
}

/// Callbacks this close together, in seconds, are one rebalance's.
const SAME_INSTANT: f64 = 0.05;

fn rebalance_line(e: &Event) -> bool {
    matches!(e, Event::Assigned(_) | Event::Revoked(_) | Event::Lost(_))
}

/// Reads the deploy from a row's logs.
pub fn measure(run: &Run) -> Result<Deploy> {
    let logs = WORKERS
        .iter()
        .map(|w| run.member(w))
        .collect::<Result<Vec<_>>>()?;
    let mut restarts = Vec::new();
    let mut finals = Vec::new();
    for (log, w) in logs.iter().zip(WORKERS) {
        let stop = log
            .find(0, |e| e == &Event::Stop)
            .ok_or_else(|| Run::missing(NO_LINE[1], w))?;
        let restart = log
            .find(stop, |e| e == &Event::Start)
            .ok_or_else(|| Run::missing(NO_LINE[2], w))?;
        if let Some(end) = log.find(restart, |e| e == &Event::Stop) {
            finals.push(log.lines[end].at);
        }
        restarts.push((
            Restart {
                worker: log.name.clone(),
                stopped: log.lines[stop].at,
                held: owned(log, stop),
                back: None,
                until: NaiveDateTime::MAX,
            },
            &log.lines[restart..],
        ));
    }
    restarts.sort_by_key(|(r, _)| r.stopped);
    let end = finals.into_iter().min().unwrap_or(NaiveDateTime::MAX);
    let untils: Vec<NaiveDateTime> = (0..restarts.len())
        .map(|i| restarts.get(i + 1).map_or(end, |(r, _)| r.stopped))
        .collect();
    // Back: owning partitions again before the next worker's stop, not given some later as a
    // worker that stayed.
    let restarts: Vec<Restart> = restarts
        .into_iter()
        .zip(untils)
        .map(|((r, after), until)| Restart {
            back: after
                .iter()
                .filter(|l| l.at < until)
                .filter(|l| matches!(&l.event, Event::Assigned(ps) if !ps.is_empty()))
                .map(|l| l.at)
                .min(),
            until,
            ..r
        })
        .collect();
    let first = restarts[0].stopped;
    let (mut rebalances, mut revoked, mut given_back, mut stayer_lines) = (0, 0, Vec::new(), 0);
    for r in &restarts {
        let mut most = 0;
        for log in logs.iter().filter(|l| l.name != r.worker) {
            let mut lines: Vec<&Entry> = log
                .lines
                .iter()
                .filter(|l| l.at >= r.stopped && l.at < r.until && rebalance_line(&l.event))
                .collect();
            lines.sort_by_key(|l| l.at);
            stayer_lines += lines.len();
            // One rebalance may call a worker more than once: an eager revoke and the
            // assignment after it, cooperative-sticky's follow-up round after a revoke, and
            // librdkafka's callbacks of one instant (an empty incremental assignment with a
            // revoke).
            let mut rounds = 0;
            let mut revoking = false;
            let mut last: Option<NaiveDateTime> = None;
            for (i, l) in lines.iter().enumerate() {
                let instant = last.is_some_and(|t| seconds(t, l.at) <= SAME_INSTANT);
                let revoke = !matches!(l.event, Event::Assigned(_));
                if instant {
                    revoking |= revoke;
                } else if revoking && !revoke {
                    revoking = false;
                } else {
                    rounds += 1;
                    revoking = revoke;
                }
                last = Some(l.at);
                match &l.event {
                    Event::Assigned(ps) => {
                        for p in ps {
                            let gave = lines[..i].iter().any(|e| {
                                matches!(&e.event, Event::Revoked(r) | Event::Lost(r) if r.contains(p))
                            });
                            if gave && !given_back.contains(&(log.name.clone(), *p)) {
                                given_back.push((log.name.clone(), *p));
                            }
                        }
                    }
                    Event::Revoked(ps) | Event::Lost(ps) => {
                        revoking = true;
                        revoked += ps.len();
                    }
                    _ => {}
                }
            }
            most = most.max(rounds);
        }
        rebalances += most;
    }
    let deploy_end = logs
        .iter()
        .flat_map(|l| &l.lines)
        .filter(|l| l.at >= first && l.at < end && matches!(l.event, Event::Assigned(_)))
        .map(|l| l.at)
        .max()
        .unwrap_or(first);
    let mut times: BTreeMap<Partition, Vec<NaiveDateTime>> = BTreeMap::new();
    for l in logs.iter().flat_map(|l| &l.lines) {
        if let Some((p, _)) = l.event.completion() {
            times.entry(p).or_default().push(l.at);
        }
    }
    let mut longest = 0.0_f64;
    for ts in times.values_mut() {
        ts.sort();
        for pair in ts.windows(2) {
            // Only the deploy's part of a wait: from the first stop at the earliest.
            if pair[1] > first && pair[0] < deploy_end {
                longest = longest.max(seconds(pair[0].max(first), pair[1]));
            }
        }
    }
    Ok(Deploy {
        restarts,
        rebalances,
        revoked,
        given_back,
        stayer_lines,
        longest_stop: longest,
        seconds: seconds(first, deploy_end),
    })
}

/// Duplicate processings of each partition.
fn duplicates_by_partition(report: &Report) -> BTreeMap<Partition, u64> {
    let mut by = BTreeMap::new();
    for r in &report.runs {
        let len = u64::try_from(r.len()).unwrap_or(0);
        *by.entry(r.partition).or_default() += len * u64::from(r.times.saturating_sub(1));
    }
    by
}

fn partitions_text(ps: impl IntoIterator<Item = Partition>) -> String {
    ps.into_iter()
        .map(|p| format!("p{p}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Records statement `statement` with its detail, both as today's verdicts hold them.
fn check(v: &mut Verdict, statement: Message, held: bool, detail: Message) {
    v.check(statement, held, detail);
}

/// Lab 9's verdict for a row: `run` is its logs, `produced` how many messages its topic holds,
/// `effects` (the idempotent rows) what the database holds.
pub fn verdict(run: &Run, row: Row, produced: u64, effects: Option<&Report>) -> Result<Verdict> {
    let mut v = Verdict::new(LAB, "deploy", &row.name(), &run.group, Message::Article);
    let d = measure(run)?;
    let report = &run.report;
    check(
        &mut v,
        Message::AllProcessed,
        report.unique == produced,
        Message::Processed {
            unique: report.unique,
            produced,
        },
    );
    let missing: Vec<&str> = d
        .restarts
        .iter()
        .filter(|r| r.back.is_none())
        .map(|r| r.worker.as_str())
        .collect();
    check(
        &mut v,
        Message::CameBack,
        missing.is_empty(),
        Message::Back {
            back: d.restarts.len() - missing.len(),
            of: d.restarts.len(),
            missing: missing.join(", "),
        },
    );
    let by_partition = duplicates_by_partition(report);
    let duplicates = Message::Duplicates {
        count: report.duplicates(),
        partitions: partitions_text(by_partition.keys().copied()),
    };
    if row.revoke_commit && row.signal == Signal::Term {
        check(
            &mut v,
            Message::NoDuplicates,
            report.duplicates() == 0,
            duplicates,
        );
    }
    if row.assignment != Assignment::Range {
        check(
            &mut v,
            Message::KeepsItsPartitions,
            d.given_back.is_empty(),
            Message::GivenBack {
                revoked: d.revoked,
                back: d
                    .given_back
                    .iter()
                    .map(|(w, p)| format!("{w} p{p}"))
                    .collect::<Vec<_>>()
                    .join(", "),
            },
        );
    }
    if row.static_membership {
        let limit = row.session_timeout();
        let away: Vec<(String, Option<f64>)> = d
            .restarts
            .iter()
            .map(|r| (r.worker.clone(), r.back.map(|b| seconds(r.stopped, b))))
            .collect();
        let slowest = away
            .iter()
            .max_by(|a, b| {
                let key = |s: &Option<f64>| s.unwrap_or(f64::INFINITY);
                key(&a.1).total_cmp(&key(&b.1))
            })
            .cloned();
        check(
            &mut v,
            Message::BackInSession { limit },
            away.iter().all(|(_, s)| s.is_some_and(|s| s < limit)),
            Message::Slowest {
                worker: slowest.as_ref().map_or(String::new(), |s| s.0.clone()),
                seconds: slowest
                    .and_then(|s| s.1)
                    .map_or("-".into(), |s| format!("{s:.2}")),
            },
        );
        check(
            &mut v,
            Message::NoRebalance,
            d.stayer_lines == 0,
            Message::StayerLines {
                count: d.stayer_lines,
            },
        );
    }
    if row.signal == Signal::Kill {
        let mut allowed: BTreeMap<Partition, u64> = BTreeMap::new();
        for r in &d.restarts {
            for p in &r.held {
                *allowed.entry(*p).or_default() += COMMIT_EVERY;
            }
        }
        let within = by_partition
            .iter()
            .all(|(p, n)| *n <= allowed.get(p).copied().unwrap_or(0));
        check(
            &mut v,
            Message::KillBound {
                every: COMMIT_EVERY,
            },
            within,
            Message::KillDetail {
                counts: if by_partition.is_empty() {
                    "0".into()
                } else {
                    by_partition
                        .iter()
                        .map(|(p, n)| format!("p{p}={n}"))
                        .collect::<Vec<_>>()
                        .join(" ")
                },
                held: partitions_text(allowed.keys().copied()),
            },
        );
    }
    if let Some(effects) = effects {
        check(
            &mut v,
            Message::NoEffectTwice,
            effects.duplicates() == 0,
            Message::Rows {
                duplicates: effects.duplicates(),
            },
        );
        check(
            &mut v,
            Message::EveryEffect,
            effects.unique == produced,
            Message::Effects {
                unique: effects.unique,
                produced,
            },
        );
    }
    v.number(DUPLICATES, report.duplicates() as f64);
    v.number(DUPLICATE_PARTITIONS, by_partition.len() as f64);
    v.number(REBALANCES, d.rebalances as f64);
    v.number(REVOKED, d.revoked as f64);
    v.number(LONGEST_STOP, d.longest_stop);
    v.number(DEPLOY_SECONDS, d.seconds);
    v.ours = Message::Ours {
        duplicates: report.duplicates(),
        partitions: by_partition.len(),
        rebalances: d.rebalances,
        revoked: d.revoked,
        stop: format!("{:.2}", d.longest_stop),
        deploy: format!("{:.1}", d.seconds),
    }
    .into();
    Ok(v)
}

#[cfg(feature = "kafka")]
/// How many messages topic `topic` holds (the producer wrote), from the broker.
pub fn produced(broker: &BrokerArgs, topic: &str) -> Result<u64> {
    let consumer: BaseConsumer = broker
        .config("krb-verify", &[])
        .create()
        .context("cannot create a consumer to read the topic's offsets")?;
    let mut total = 0;
    for p in 0..PARTITIONS {
        let (low, high) = consumer
            .fetch_watermarks(&broker.name(topic), p, Duration::from_secs(10))
            .map_err(|e| anyhow!(broker.unreachable(&e)))?;
        total += u64::try_from(high - low).unwrap_or(0);
    }
    Ok(total)
}

/// The decision table's cells of one record: row, duplicates, rebalances, revoked, longest
/// stop, deploy, held; and what goes below it.
fn cells(r: &Record, lang: Lang) -> (Vec<String>, String) {
    let Some(v) = &r.verdict else {
        let mut cells = vec![r.variant.clone()];
        cells.extend(std::iter::repeat_n("-".to_string(), 5));
        cells.push(r.status.clone());
        return (cells, r.reason.clone().unwrap_or_default());
    };
    let n = |name: &str| v.numbers.get(name).copied().unwrap_or(f64::NAN);
    let secs = |x: f64, places: usize| {
        Message::SecondsCell {
            seconds: format!("{x:.places$}"),
        }
        .text(lang)
    };
    let cells = vec![
        r.variant.clone(),
        Message::DuplicatesCell {
            count: n(DUPLICATES) as u64,
            partitions: n(DUPLICATE_PARTITIONS) as usize,
        }
        .text(lang),
        format!("{}", n(REBALANCES) as u64),
        format!("{}", n(REVOKED) as u64),
        secs(n(LONGEST_STOP), 2),
        secs(n(DEPLOY_SECONDS), 1),
        v.count(),
    ];
    let below = [
        v.failures_in(lang).replace('\n', "; "),
        r.reason.clone().unwrap_or_default(),
    ]
    .into_iter()
    .filter(|s| !s.is_empty())
    .collect::<Vec<_>>()
    .join("; ");
    (cells, below)
}

/// The decision table of lab 9's records among `records`, for a terminal: one row each, what
/// did not hold (or why a row did not run) below it.
pub fn table(records: &[Record], lang: Lang) -> String {
    let heads: Vec<String> = Message::Heads
        .text(lang)
        .split('\t')
        .map(String::from)
        .collect();
    let rows: Vec<(Vec<String>, String)> = records
        .iter()
        .filter(|r| r.lab == LAB)
        .map(|r| cells(r, lang))
        .collect();
    let mut widths: Vec<usize> = heads.iter().map(|h| width(h)).collect();
    for (cells, _) in &rows {
        for (w, c) in widths.iter_mut().zip(cells) {
            *w = (*w).max(width(c));
        }
    }
    let line = |cells: &[String]| {
        let mut text = String::new();
        for (c, w) in cells.iter().zip(&widths) {
            text += &format!("{c}{}  ", " ".repeat(w.saturating_sub(width(c))));
        }
        text.trim_end().to_string() + "\n"
    };
    let mut out = line(&heads);
    for (cells, below) in &rows {
        out += &line(cells);
        if !below.is_empty() {
            let _ = writeln!(
                out,
                "    {}",
                Message::NotHeld {
                    what: below.clone()
                }
                .text(lang)
            );
        }
    }
    out
}

/// The same table for the lab command's page, then its picture.
pub fn html(records: &[Record], lang: Lang) -> String {
    let mut out = String::from("<table id=\"deploy\"><tr>");
    for h in Message::Heads.text(lang).split('\t') {
        let _ = write!(out, "<th>{}</th>", escape(h));
    }
    out += "</tr>\n";
    for r in records.iter().filter(|r| r.lab == LAB) {
        let (cells, below) = cells(r, lang);
        let class = if r.held() { "held" } else { "failed" };
        out += "<tr>";
        let last = cells.len() - 1;
        for (i, c) in cells.iter().enumerate() {
            if i == last {
                let _ = write!(out, "<td class=\"{class}\">{}</td>", escape(c));
            } else {
                let _ = write!(out, "<td>{}</td>", escape(c));
            }
        }
        out += "</tr>\n";
        if !below.is_empty() {
            let _ = writeln!(
                out,
                "<tr><td colspan=\"{}\" class=\"failed\">{}</td></tr>",
                cells.len(),
                escape(&Message::NotHeld { what: below }.text(lang))
            );
        }
    }
    out + "</table>\n<figure>" + &svg(records, lang) + "</figure>\n"
}

/// The decision table as a picture: a line per row that has a verdict, its duplicates and its
/// longest stop as bars, each column on a scale from 0 to its largest value.
pub fn svg(records: &[Record], lang: Lang) -> String {
    const ROW: f64 = 28.0;
    const LABEL: f64 = 230.0;
    const BAR: f64 = 260.0;
    let heads: Vec<String> = Message::Heads
        .text(lang)
        .split('\t')
        .map(String::from)
        .collect();
    let rows: Vec<(&str, [f64; 2])> = records
        .iter()
        .filter(|r| r.lab == LAB)
        .filter_map(|r| {
            let v = r.verdict.as_ref()?;
            let n = |k: &str| v.numbers.get(k).copied().filter(|x| *x >= 0.0);
            Some((r.variant.as_str(), [n(DUPLICATES)?, n(LONGEST_STOP)?]))
        })
        .collect();
    let text = |x: String, y: f64, text: &str| {
        let at = El::new("text").set("x", x);
        at.set("y", format!("{y:.0}")).text(text)
    };
    let mut body: Vec<El> = Vec::new();
    for (j, (name, _)) in rows.iter().enumerate() {
        body.push(text("0".into(), 30.0 + j as f64 * ROW + ROW - 12.0, name));
    }
    for (i, head) in [1, 4].into_iter().enumerate() {
        let left = LABEL + i as f64 * (BAR + 110.0);
        let max = rows
            .iter()
            .map(|r| r.1[i])
            .fold(f64::MIN_POSITIVE, f64::max);
        body.push(text(left.to_string(), 18.0, &heads[head]).set("font-weight", "bold"));
        for (j, (_, values)) in rows.iter().enumerate() {
            let (y, w) = (30.0 + j as f64 * ROW, values[i] / max * BAR);
            let shown = if i == 0 {
                format!("{}", values[i])
            } else {
                Message::SecondsCell {
                    seconds: format!("{:.2}", values[i]),
                }
                .text(lang)
            };
            let bar = El::new(r##"rect fill="#1f5fa8""##).set("x", left);
            let bar = bar
                .set("y", format!("{y:.0}"))
                .set("width", format!("{w:.1}"));
            body.push(bar.set("height", ROW - 8.0));
            let at = format!("{:.1}", left + w + 6.0);
            body.push(text(at, y + ROW - 12.0, &shown));
        }
    }
    let (width, height) = (LABEL + 2.0 * (BAR + 110.0), 30.0 + rows.len() as f64 * ROW);
    let svg = El::svg()
        .set("class", "deploy")
        .set("width", width)
        .set("height", format!("{height:.0}"))
        .set("viewBox", format!("0 0 {width:.0} {height:.0}"))
        .set("font-family", "sans-serif")
        .set("font-size", 16);
    body.into_iter().fold(svg, El::child).to_string()
}

#[cfg(test)]
#[path = "deploy_tests.rs"]
mod tests;
