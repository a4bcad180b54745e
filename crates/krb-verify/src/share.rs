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
use crate::messages::{both, partitions, parts, said, Message, Shared};
use crate::{shown, Verdict};

said! {
    /// Lab 8's statements, details and numbers.
    pub enum Said {
        AllRecords { count: u64 } => "all {count} records processed", "레코드 {count}개 모두 처리됨";
        NoneTwice => "no record processed twice", "두 번 처리된 레코드 없음";
        AcceptedOnce => "every record accepted, the acceptance committed once",
            "모든 레코드가 accept되었고, 그 acknowledgement는 한 번만 commit됨";
        NoHandOver => "b took records of a partition a was reading, with no hand-over",
            "반납 없이 b가 a가 읽던 파티션의 레코드를 가져감";
        KilledHolding => "a was killed holding records it had not got acknowledged",
            "a가 acknowledgement를 commit하지 못한 레코드를 쥔 채 강제 종료됨";
        CameAgain => "exactly those records came again, to b, with delivery count 2",
            "바로 그 레코드들이 delivery count 2로 b에게 다시 옴";
        DuplicatesWhereDied =>
            "duplicates only where a processed a record and died before its acknowledgement was committed",
            "중복은 a가 처리했지만 acknowledgement를 commit하기 전에 죽은 레코드에서만";
        ReceivedWhileIn => "b received offset 3 with delivery count 2 while a was still in it",
            "a가 아직 처리하는 동안 b가 offset 3을 delivery count 2로 받음";
        LateAnswered => "a's late acknowledgement of offset 3 was answered, and its log says how",
            "a가 늦게 보낸 offset 3의 acknowledgement에 브로커가 답했고, 그 답이 a의 로그에 있음";
        DuplicatesDeliveredAgain =>
            "duplicates exactly the records delivered again, offset 3 among them",
            "중복은 다시 전달된 레코드와 정확히 같고, offset 3도 그 안에 있음";
        Released { offset: Offset, limit: u16 } =>
            "offset {offset}, released each time, delivered {limit} times (the limit), then no more",
            "offset {offset}은 매번 release되어 {limit}번(한도) 전달되고, 그 뒤로는 오지 않음";
        Rejected { offset: Offset } => "offset {offset}, rejected, delivered once",
            "offset {offset}은 reject되어 한 번만 전달됨";
        Accepted { accepted: usize, want: u64, missing: usize, twice: usize } =>
            "{accepted} accepted of {want}, {missing} never committed, {twice} committed twice",
            "{want}개 중 {accepted}개 accept, commit되지 않음 {missing}개, 두 번 commit {twice}개";
        BRead { partitions: String } => |lang| match partitions.as_str() {
            "" => both!(lang, "b read nothing", "b가 읽은 파티션 없음"),
            _ => both!(lang, "b read {partitions}", "b가 읽은 파티션 {partitions}"),
        };
        ARead { partitions: String } => |lang| match partitions.as_str() {
            "" => both!(lang, "a read nothing before b started", "b가 시작하기 전 a가 읽은 파티션 없음"),
            _ => both!(
                lang,
                "a read {partitions} before b started",
                "b가 시작하기 전 a가 읽은 파티션 {partitions}"
            ),
        };
        Revokes { count: usize } => "{count} revokes", "반납 {count}번";
        BTook { count: usize } => "b took {count} of 1000", "b가 1000개 중 {count}개를 가져감";
        AHeld { records: Option<String> } => "a held {records}", "a가 쥐고 있던 레코드 {records}";
        DeliveredAgain { records: Option<String> } => "delivered again: {records}",
            "다시 전달됨: {records}";
        To { who: String } => "to {who}", "받은 구성원: {who}";
        Twice { records: Option<String> } => "twice: {records}", "두 번: {records}";
        ProcessedHeld { records: Option<String> } => "a processed and held: {records}",
            "a가 처리했고 쥐고 있던 것: {records}";
        Back { count: usize, seconds: f64 } =>
            "{count} records back {seconds:.1} s after a's last line",
            "a의 마지막 줄 {seconds:.1}초 뒤 레코드 {count}개가 돌아옴";
        InOffset3 { from_at: Option<String>, to_at: Option<String> } =>
            "a in offset 3 from {from_at} to {to_at}", "a가 offset 3을 처리한 때 {from_at}부터 {to_at}까지";
        BAcquired { b_at: String, count: u16 } => "b acquired it at {b_at} (delivery {count})",
            "b가 받은 때 {b_at} (delivery {count})";
        BNever => "b never acquired it", "b는 받지 못함";
        LateCommitted => "a's late acknowledgement: committed, no error",
            "a의 늦은 acknowledgement: 오류 없이 commit됨";
        LateFailed { code: String } => "a's late acknowledgement: failed with {code}",
            "a의 늦은 acknowledgement: {code}로 실패";
        LateUnanswered => "a's late acknowledgement: unanswered", "a의 늦은 acknowledgement: 답 없음";
        Deliveries { list: String } => "deliveries {list}", "전달 {list}";
        Acknowledged { kinds: String } => "acknowledged: {kinds}", "acknowledgement 종류: {kinds}";
        NeverAcknowledged => "never acknowledged", "acknowledgement 없음";
        Delivered { offset: Offset, count: usize } => |lang| match count {
            1 => both!(lang, "offset {offset} delivered once", "offset {offset}은 한 번 전달됨"),
            _ => both!(
                lang,
                "offset {offset} delivered {count} times",
                "offset {offset}은 {count}번 전달됨"
            ),
        };
        Lab1 => "lab 1: 82 duplicates on p1 (400..481)", "실습 1: p1에서 중복 82건 (400..481)";
        Lab2 => "lab 2: offset 3 twice, 1.6 s together in it", "실습 2: offset 3을 두 번, 1.6초 동안 함께 처리";
        NotInArticle => "not in the article; we expect a consumer group to retry it forever",
            "글에 없음. 컨슈머 그룹이라면 끝없이 다시 시도할 거라고 예상함";
    }
}

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

/// The lock scenario's slow offset, and the reject scenario's offsets released each time and
/// rejected (10 records on one partition), as 08-share.sh passes them to the workers.
pub const SLOW_AT: Offset = 3;
pub const RELEASE_AT: Offset = 3;
pub const REJECT_AT: Offset = 6;

/// One delivery of a record to a member, from its `acquired` line.
struct Delivery {
    at: NaiveDateTime,
    worker: String,
    key: (Partition, Offset),
    count: u16,
}

/// What a group's logs say about its records: each delivery, each acknowledgement made, and
/// which acknowledgements the broker took (`acks committed`, with the kind each was made
/// with) or refused.
#[derive(Default)]
struct Records {
    deliveries: Vec<Delivery>,
    acks: BTreeMap<(Partition, Offset), Vec<Ack>>,
    committed: BTreeMap<(Partition, Offset), Vec<(String, Ack)>>,
}

impl Records {
    fn of(logs: &[WorkerLog]) -> Records {
        let mut r = Records::default();
        for log in logs {
            let worker = &log.name;
            let first = r.deliveries.len();
            r.deliveries
                .extend(log.lines.iter().filter_map(|line| match line.event {
                    Event::Acquired {
                        partition,
                        offset,
                        delivery,
                    } => Some(Delivery {
                        at: line.at,
                        worker: worker.clone(),
                        key: (partition, offset),
                        count: delivery,
                    }),
                    _ => None,
                }));
            // What it acquired: an offset committed that it neither acquired nor acknowledged
            // bears on no statement, and is not kept (a line may commit a million of them).
            let acquired: BTreeSet<_> = r.deliveries[first..].iter().map(|d| d.key).collect();
            // What the worker acknowledged and has not yet had committed, and how.
            let mut pending: BTreeMap<(Partition, Offset), Ack> = BTreeMap::new();
            for line in &log.lines {
                match &line.event {
                    Event::Acknowledged {
                        partition,
                        offset,
                        ack,
                    } => {
                        pending.insert((*partition, *offset), *ack);
                        r.acks.entry((*partition, *offset)).or_default().push(*ack);
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

    fn delivered_again(&self) -> BTreeSet<(Partition, Offset)> {
        self.deliveries
            .iter()
            .filter(|d| d.count > 1)
            .map(|d| d.key)
            .collect()
    }

    fn of_worker<'a>(&'a self, worker: &'a str) -> impl Iterator<Item = &'a Delivery> + 'a {
        self.deliveries.iter().filter(move |d| d.worker == worker)
    }
}

/// Lab 8's verdict for a run of `scenario`; `limit` is the group's share.delivery.count.limit
/// (the reject scenario's), as the script set it.
pub fn verdict(run: &Run, scenario: Scenario, limit: u16) -> Result<Verdict> {
    let variant = krb_kafka::group_settings::value_name(scenario);
    // The number beside ours: the consumer-group lab the scenario mirrors; and how many
    // records the scenario writes.
    let (article, n) = match scenario {
        Scenario::Join | Scenario::Kill => (Said::Lab1, 1000),
        Scenario::Lock => (Said::Lab2, 10),
        Scenario::Reject => (Said::NotInArticle, 10),
    };
    let mut v = Verdict::new(8, "share", &variant, &run.group, article);
    let unique = run.report.unique;
    v.check(
        Said::AllRecords { count: n },
        unique == n,
        Shared::Unique { count: unique },
    );
    let records = Records::of(&run.logs);
    // Members a and b, which every scenario but reject's (a alone) has.
    let (a, b) = (run.member("a"), run.member("b"));
    match scenario {
        Scenario::Join => join(&mut v, run, &records, [a?, b?]),
        Scenario::Kill => kill(&mut v, run, &records, [a?, b?]),
        Scenario::Lock => lock(&mut v, run, &records, [a?, b?]),
        Scenario::Reject => reject(&mut v, &records, limit),
    }
    v.number(crate::verdict::DUPLICATES, run.report.duplicates() as f64);
    Ok(v)
}

/// "every record's acceptance committed once": each of the `n` records was accepted, and the
/// broker took that acceptance, once in all.
fn accepted_once(v: &mut Verdict, r: &Records, n: u64, except: &[Offset]) {
    let accepted: BTreeSet<(Partition, Offset)> = r
        .acks
        .iter()
        .filter(|(_, acks)| acks.contains(&Ack::Accept))
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
        Said::AcceptedOnce,
        accepted.len() as u64 == want && missing == 0 && twice == 0,
        Said::Accepted {
            accepted: accepted.len(),
            want,
            missing,
            twice,
        },
    );
}

fn join(v: &mut Verdict, run: &Run, r: &Records, [a, b]: [&WorkerLog; 2]) {
    let dups = run.report.duplicates();
    v.check(
        Said::NoneTwice,
        dups == 0,
        Shared::Duplicates { count: dups },
    );
    accepted_once(v, r, 1000, &[]);
    // A partition b read that a had read before b began: no hand-over made it b's.
    let b_start = b.time_of(0, |e| e == &Event::Start);
    let a_before: BTreeSet<Partition> = r
        .of_worker(&a.name)
        .filter(|d| b_start.is_some_and(|s| d.at < s))
        .map(|d| d.key.0)
        .collect();
    let b_took: BTreeSet<Partition> = r.of_worker(&b.name).map(|d| d.key.0).collect();
    let revokes = [a, b]
        .iter()
        .flat_map(|l| &l.lines)
        .filter(|l| matches!(l.event, Event::Revoked(_) | Event::Lost(_)))
        .count();
    let (b_read, a_read) = (partitions(&b_took), partitions(&a_before));
    v.check(
        Said::NoHandOver,
        !b_took.is_disjoint(&a_before) && revokes == 0,
        parts![
            Said::BRead { partitions: b_read },
            Said::ARead { partitions: a_read },
            Said::Revokes { count: revokes },
        ],
    );
    v.ours = parts![
        summary(&run.report),
        Said::BTook {
            count: r.of_worker(&b.name).count(),
        },
    ];
}

fn kill(v: &mut Verdict, run: &Run, r: &Records, [a, b]: [&WorkerLog; 2]) {
    // What a held when it died: acquired, and no acknowledgement of it taken by the broker.
    let held: BTreeSet<(Partition, Offset)> = r
        .of_worker(&a.name)
        .map(|d| d.key)
        .filter(|k| {
            !r.committed
                .get(k)
                .is_some_and(|c| c.iter().any(|(w, _)| *w == a.name))
        })
        .collect();
    v.check(
        Said::KilledHolding,
        !held.is_empty(),
        Said::AHeld {
            records: ranges(&held),
        },
    );
    let again: Vec<&Delivery> = r.deliveries.iter().filter(|d| d.count > 1).collect();
    let again_set = r.delivered_again();
    let to_b = again.iter().all(|d| d.worker == b.name && d.count == 2);
    let member = format!("{}-", run.group);
    let to: BTreeSet<String> = again
        .iter()
        .map(|d| (d.worker.strip_prefix(&member).unwrap_or(&d.worker), d.count))
        .map(|(who, count)| format!("{who} #{count}"))
        .collect();
    v.check(
        Said::CameAgain,
        again_set == held && to_b,
        parts![
            Said::DeliveredAgain {
                records: ranges(&again_set),
            },
            Said::To {
                who: Vec::from_iter(to).join(", "),
            },
        ],
    );
    // a processed some of what it held before it died: those, and only those, twice.
    let expected: BTreeSet<_> = a.processed().filter(|k| held.contains(k)).collect();
    let twice = processed_twice(run);
    v.check(
        Said::DuplicatesWhereDied,
        twice == expected,
        parts![
            Said::Twice {
                records: ranges(&twice),
            },
            Said::ProcessedHeld {
                records: ranges(&expected),
            },
        ],
    );
    accepted_once(v, r, 1000, &[]);
    let died = a.lines.last().map(|l| l.last);
    let back = again.iter().map(|d| d.at).min();
    v.ours = match (died, back) {
        (Some(d), Some(b)) => parts![
            summary(&run.report),
            Said::Back {
                count: again_set.len(),
                seconds: seconds(d, b),
            },
        ],
        _ => summary(&run.report).into(),
    };
}

fn lock(v: &mut Verdict, run: &Run, r: &Records, [a, b]: [&WorkerLog; 2]) {
    let slow = (0, SLOW_AT);
    let in_it = a.time_of(
        0,
        |e| matches!(e, Event::SlowStart { partition, offset } if (*partition, *offset) == slow),
    );
    let done = a.time_of(
        0,
        |e| matches!(e, Event::Processed { partition, offset } if (*partition, *offset) == slow),
    );
    let b_got = r.of_worker(&b.name).find(|d| d.key == slow);
    let inside = match (in_it, done, b_got) {
        (Some(s), Some(e), Some(d)) => d.at > s && d.at < e && d.count == 2,
        _ => false,
    };
    let at = |t: NaiveDateTime| t.format("%H:%M:%S%.3f").to_string();
    v.check(
        Said::ReceivedWhileIn,
        inside,
        parts![
            Said::InOffset3 {
                from_at: in_it.map(at),
                to_at: done.map(at),
            },
            b_got.map_or(Said::BNever, |d| Said::BAcquired {
                b_at: at(d.at),
                count: d.count,
            }),
        ],
    );
    // What the broker said to a's acknowledgement of offset 3, made after its lock had ended.
    let of_slow = |p: &Partition, offsets: &Vec<Offset>| *p == slow.0 && offsets.contains(&slow.1);
    let late = a
        .lines
        .iter()
        .filter(|l| done.is_some_and(|e| l.at >= e))
        .find_map(|l| match &l.event {
            Event::AcksCommitted { partition, offsets } if of_slow(partition, offsets) => {
                Some(Said::LateCommitted)
            }
            Event::AcksFailed {
                partition,
                offsets,
                error,
            } if of_slow(partition, offsets) => Some(Said::LateFailed {
                code: krb_log::rendered_error::rendered_code(error).to_string(),
            }),
            _ => None,
        })
        .unwrap_or(Said::LateUnanswered);
    v.check(
        Said::LateAnswered,
        late != Said::LateUnanswered,
        late.clone(),
    );
    // Everything of a's batch that was not committed when its locks ended went to b as well.
    let again = r.delivered_again();
    let twice = processed_twice(run);
    v.check(
        Said::DuplicatesDeliveredAgain,
        twice == again && twice.contains(&slow),
        parts![
            Said::Twice {
                records: ranges(&twice),
            },
            Said::DeliveredAgain {
                records: ranges(&again),
            },
        ],
    );
    v.ours = parts![summary(&run.report), late];
}

fn reject(v: &mut Verdict, r: &Records, limit: u16) {
    let deliveries = |o: Offset| -> Vec<u16> {
        r.deliveries
            .iter()
            .filter(|d| d.key == (0, o))
            .map(|d| d.count)
            .collect()
    };
    let kinds = |o: Offset| r.acks.get(&(0, o)).cloned().unwrap_or_default();
    // What the broker delivered of offset `o` (`counts`) and how each was acknowledged.
    let detail = |counts: &[u16], o: Offset| -> Message {
        let words: Vec<&str> = kinds(o).iter().map(|k| k.word()).collect();
        let acknowledged = match words[..] {
            [] => Said::NeverAcknowledged,
            _ => Said::Acknowledged {
                kinds: words.join(", "),
            },
        };
        let list = shown::list(counts);
        parts![Said::Deliveries { list }, acknowledged]
    };
    let released = deliveries(RELEASE_AT);
    let want: Vec<u16> = (1..=limit).collect();
    v.check(
        Said::Released {
            offset: RELEASE_AT,
            limit,
        },
        released == want && kinds(RELEASE_AT).iter().all(|k| *k == Ack::Release),
        detail(&released, RELEASE_AT),
    );
    let rejected = deliveries(REJECT_AT);
    v.check(
        Said::Rejected { offset: REJECT_AT },
        rejected == [1] && kinds(REJECT_AT) == [Ack::Reject],
        detail(&rejected, REJECT_AT),
    );
    accepted_once(v, r, 10, &[RELEASE_AT, REJECT_AT]);
    v.ours = parts![
        Said::Delivered {
            offset: RELEASE_AT,
            count: released.len(),
        },
        Said::Delivered {
            offset: REJECT_AT,
            count: rejected.len(),
        },
    ];
}

/// The records krb-dups found processed more than once.
fn processed_twice(run: &Run) -> BTreeSet<(Partition, Offset)> {
    run.report
        .runs
        .iter()
        .flat_map(|s| (s.first..=s.last).map(move |o| (s.partition, o)))
        .collect()
}

/// `p0 100..119, p1 7` (or none): records as ranges.
fn ranges(records: &BTreeSet<(Partition, Offset)>) -> Option<String> {
    let mut runs: Vec<(Partition, Offset, Offset)> = Vec::new();
    for &(p, o) in records {
        match runs.last_mut() {
            Some((rp, _, last)) if *rp == p && *last + 1 == o => *last = o,
            _ => runs.push((p, o, o)),
        }
    }
    let shown: Vec<String> = runs
        .iter()
        .map(|(p, first, last)| match first == last {
            true => format!("p{p} {first}"),
            false => format!("p{p} {first}..{last}"),
        })
        .collect();
    (!shown.is_empty()).then(|| shown.join(", "))
}

#[cfg(test)]
#[path = "share_tests.rs"]
mod tests;
