//! What the page shows, built line by line as the logs grow: each worker's partitions over time
//! (from its assigned, revoked and lost lines), its processing, its rebalance events, and each
//! duplicate processing as it happens. Processings are counted in krb-dups' own [`Counts`], so
//! the page's totals are krb-dups' numbers, computed by krb-dups' [`analyse`].

use std::collections::BTreeMap;

use chrono::NaiveDateTime;
use krb_dups::{analyse, Counts, Report};
use krb_log::logline::{Ack, Event, Offset, Partition};
use krb_log::reader::Skipped;

use crate::follow::{Line, What};

/// Processing is counted in steps of this many milliseconds from the first line.
pub const STEP_MS: i64 = 100;

/// How many skipped lines are kept to be shown (all are counted).
const SKIPPED_KEPT: usize = 5;

/// At most this many events and duplicates a worker's lane shows, the latest; the state keeps
/// no more than twice as many of each a worker, however many lines its log has.
pub const LANE_MARKS: usize = 1000;

/// A partition a worker owned, from an assigned line to a revoked or lost one (or to now).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    pub partition: Partition,
    pub from: NaiveDateTime,
    /// When the worker gave it up, and how; `None` while it owns it.
    pub to: Option<(NaiveDateTime, End)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// Handed back in a clean rebalance: `revoked [..]`.
    Revoked,
    /// Taken away without a handover: `lost [..]`.
    Lost,
    /// The worker was started again (`start NAME`) with no revoked or lost line before: the
    /// process it ran in ended without one (killed).
    Restarted,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// common.sh started the worker.
    Start,
    /// common.sh stopped it.
    Stop,
    Assigned,
    Revoked,
    Lost,
    /// librdkafka's MAXPOLL warning: the worker leaves its group.
    Maxpoll,
    CommitFailed,
    PollError,
    TxnAborted,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Happening {
    pub at: NaiveDateTime,
    pub worker: String,
    pub kind: Kind,
    /// Its text as the log has it: the event's line (`assigned [0, 1]`), the Kafka error, or
    /// librdkafka's line.
    pub text: String,
}

/// One processing of a message that had been processed before: a duplicate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Duplicate {
    pub at: NaiveDateTime,
    pub worker: String,
    pub partition: Partition,
    pub offset: Offset,
    /// Which processing of the message this was: 2 for the second.
    pub times: u32,
    /// How many duplicates there were with this one: its number, from 1.
    pub n: u64,
}

#[derive(Clone, Debug, Default)]
pub struct Worker {
    /// The partitions it owned, in the order it was given them.
    pub spans: Vec<Span>,
    pub processed: u64,
    pub duplicates: u64,
    /// Per partition and step ([`STEP_MS`] from the first line): processings, of them
    /// duplicates, and the offset processed last.
    pub steps: BTreeMap<Partition, BTreeMap<i64, (u32, u32, Offset)>>,
    /// The last assigned line's partitions, as the log wrote them.
    pub last_assigned: Option<Vec<Partition>>,
    /// A share group's member (lab 8): what the broker lent it and what it answered.
    pub share: Option<ShareCounts>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct ShareCounts {
    /// Records acquired (`acquired` lines).
    pub acquired: u64,
    /// Of them, deliveries after the first: records another member (or this one) had held.
    pub again: u64,
    pub max_delivery: u16,
    /// Acknowledgements made, by kind.
    pub accepted: u64,
    pub released: u64,
    pub rejected: u64,
    /// Acknowledgements the broker took (`acks committed`).
    pub committed: u64,
    /// Acknowledgements refused (`acks failed`).
    pub failed: u64,
}

impl Worker {
    pub fn owns(&self) -> Vec<Partition> {
        let mut owned: Vec<Partition> = self
            .spans
            .iter()
            .filter(|s| s.to.is_none())
            .map(|s| s.partition)
            .collect();
        owned.sort_unstable();
        owned
    }

    fn end(&mut self, partitions: &[Partition], at: NaiveDateTime, end: End) {
        let partitions: std::collections::HashSet<Partition> = partitions.iter().copied().collect();
        for span in &mut self.spans {
            if span.to.is_none() && partitions.contains(&span.partition) {
                span.to = Some((at, end));
            }
        }
    }
}

#[derive(Default)]
pub struct State {
    /// The first line's time: the time axis' zero.
    pub origin: Option<NaiveDateTime>,
    pub last: Option<NaiveDateTime>,
    /// The topic the workers said they consume.
    pub topic: Option<String>,
    pub workers: BTreeMap<String, Worker>,
    /// The duplicate processings, in the order they were read: each worker's latest
    /// [`LANE_MARKS`] at least (see [`keep_latest`]).
    pub duplicates: Vec<Duplicate>,
    pub duplicates_seen: u64,
    /// The workers' events, in the order they were read: each worker's latest [`LANE_MARKS`]
    /// at least.
    pub events: Vec<Happening>,
    /// The first lines skipped because they look like worker lines but do not parse.
    pub skipped: Vec<Skipped>,
    pub skipped_count: u64,
    /// Each partition's lowest and highest offset, processed or committed.
    pub offsets: BTreeMap<Partition, (Offset, Offset)>,
    /// Each partition's committed position: per step, the last commit's time and the offset
    /// the group reads next.
    pub committed: BTreeMap<Partition, BTreeMap<i64, (NaiveDateTime, Offset)>>,
    counts: Counts,
    /// How many events and duplicates make [`keep_latest`] look again.
    events_next: usize,
    duplicates_next: usize,
}

impl State {
    pub fn new() -> State {
        State {
            counts: Counts::new(),
            ..State::default()
        }
    }

    /// krb-dups' analysis of the processings read so far: its processed, unique and duplicates.
    pub fn report(&mut self) -> Report {
        analyse(&mut self.counts, None)
    }

    pub fn skip(&mut self, skipped: Vec<Skipped>) {
        self.skipped_count += skipped.len() as u64;
        let room = SKIPPED_KEPT.saturating_sub(self.skipped.len());
        self.skipped.extend(skipped.into_iter().take(room));
    }

    pub fn add(&mut self, line: Line) {
        let Line { worker, at, what } = line;
        self.origin = Some(self.origin.map_or(at, |o| o.min(at)));
        self.last = Some(self.last.map_or(at, |l| l.max(at)));
        let origin = self.origin.unwrap_or(at);
        let event = match what {
            What::Maxpoll(text) => {
                self.workers.entry(worker.clone()).or_default();
                return self.happened(at, worker, Kind::Maxpoll, text);
            }
            What::Event(event) => event,
        };
        let step = (at - origin).num_milliseconds().div_euclid(STEP_MS);
        krb_timeline::widen(&mut self.offsets, &event);
        let w = self.workers.entry(worker.clone()).or_default();
        if let Event::Commit(positions) = &event {
            for &(p, o) in positions {
                self.committed.entry(p).or_default().insert(step, (at, o));
            }
            return;
        }
        if let Some((partition, offset)) = event.completion() {
            // Before it is counted: a message counted already is processed again.
            let before = self.counts.get(partition, offset);
            self.counts.add(worker.as_bytes(), partition, offset);
            w.processed += 1;
            let counted = w
                .steps
                .entry(partition)
                .or_default()
                .entry(step)
                .or_default();
            counted.0 += 1;
            counted.2 = offset;
            if before > 0 {
                counted.1 += 1;
                w.duplicates += 1;
                self.duplicates_seen += 1;
                let n = self.duplicates_seen;
                keep_latest(&mut self.duplicates, &mut self.duplicates_next, |d| {
                    &d.worker
                });
                self.duplicates.push(Duplicate {
                    at,
                    worker,
                    partition,
                    offset,
                    times: before + 1,
                    n,
                });
            }
            return;
        }
        let kind = match &event {
            Event::Start => {
                let owned = w.owns();
                w.end(&owned, at, End::Restarted);
                Kind::Start
            }
            Event::Stop => Kind::Stop,
            Event::Assigned(ps) => {
                let owned = w.owns();
                for &partition in ps.iter().filter(|p| owned.binary_search(p).is_err()) {
                    w.spans.push(Span {
                        partition,
                        from: at,
                        to: None,
                    });
                }
                w.last_assigned = Some(ps.clone());
                Kind::Assigned
            }
            Event::Revoked(ps) => {
                w.end(ps, at, End::Revoked);
                Kind::Revoked
            }
            Event::Lost(ps) => {
                w.end(ps, at, End::Lost);
                Kind::Lost
            }
            Event::CommitFailed(e) => {
                return self.happened(at, worker, Kind::CommitFailed, e.clone())
            }
            Event::PollError(e) => return self.happened(at, worker, Kind::PollError, e.clone()),
            Event::TxnAborted(e) => return self.happened(at, worker, Kind::TxnAborted, e.clone()),
            Event::Consumes { topic, .. } | Event::ShareConsumes { topic, .. } => {
                self.topic.get_or_insert_with(|| topic.clone());
                return;
            }
            // A share group's refused acknowledgements: its commit failures.
            Event::AcksFailed { offsets, .. } => {
                w.share.get_or_insert_default().failed += offsets.len() as u64;
                Kind::CommitFailed
            }
            Event::Acquired { delivery, .. } => {
                let share = w.share.get_or_insert_default();
                share.acquired += 1;
                share.again += u64::from(*delivery > 1);
                share.max_delivery = share.max_delivery.max(*delivery);
                return;
            }
            Event::Acknowledged { ack, .. } => {
                let share = w.share.get_or_insert_default();
                match ack {
                    Ack::Accept => share.accepted += 1,
                    Ack::Release => share.released += 1,
                    Ack::Reject => share.rejected += 1,
                }
                return;
            }
            Event::AcksCommitted { offsets, .. } => {
                w.share.get_or_insert_default().committed += offsets.len() as u64;
                return;
            }
            // Completions and commits are counted above; a slow start moves no partition.
            Event::SlowStart { .. }
            | Event::Commit(_)
            | Event::Processed { .. }
            | Event::AlreadyApplied { .. }
            | Event::Refused { .. } => return,
        };
        let text = event.to_string();
        self.happened(at, worker, kind, text);
    }

    fn happened(&mut self, at: NaiveDateTime, worker: String, kind: Kind, text: String) {
        keep_latest(&mut self.events, &mut self.events_next, |e| &e.worker);
        self.events.push(Happening {
            at,
            worker,
            kind,
            text,
        });
    }
}

/// Before `items` grows past what it may hold, keeps only each worker's latest [`LANE_MARKS`]
/// of them, in their order: what a lane shows. Done when they have doubled since the last
/// time, so each item costs a constant time in all; a log of 10M duplicates is a few thousand
/// marks, not 10M.
fn keep_latest<T>(items: &mut Vec<T>, next: &mut usize, worker: impl Fn(&T) -> &str) {
    if items.len() < (*next).max(2 * LANE_MARKS) {
        return;
    }
    let mut seen: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let mut keep = vec![false; items.len()];
    for (i, item) in items.iter().enumerate().rev() {
        let n = seen.entry(worker(item)).or_default();
        *n += 1;
        keep[i] = *n <= LANE_MARKS;
    }
    let mut flags = keep.into_iter();
    items.retain(|_| flags.next().unwrap_or(true));
    *next = 2 * items.len();
}

#[cfg(test)]
mod tests {
    use super::*;
    use krb_log::worker_log::day_zero;

    fn at(ms: i64) -> NaiveDateTime {
        day_zero().and_hms_opt(9, 0, 0).unwrap() + chrono::TimeDelta::milliseconds(ms)
    }

    fn line(ms: i64, worker: &str, event: Event) -> Line {
        Line {
            worker: worker.into(),
            at: at(ms),
            what: What::Event(event),
        }
    }

    fn processed(ms: i64, worker: &str, partition: Partition, offset: Offset) -> Line {
        line(ms, worker, Event::Processed { partition, offset })
    }

    #[test]
    fn ownership_runs_from_assigned_to_revoked_or_lost() {
        let mut s = State::new();
        s.add(line(0, "g-a", Event::Start));
        s.add(line(10, "g-a", Event::Assigned(vec![0, 1])));
        s.add(line(500, "g-a", Event::Revoked(vec![0, 1])));
        s.add(line(600, "g-a", Event::Assigned(vec![0])));
        s.add(line(700, "g-b", Event::Assigned(vec![1])));
        s.add(line(900, "g-b", Event::Lost(vec![1])));
        // Assigned again while owned (an eager assignment lists every partition): one span.
        s.add(line(950, "g-a", Event::Assigned(vec![0, 1])));
        let a = &s.workers["g-a"];
        let spans: Vec<_> = a
            .spans
            .iter()
            .map(|s| (s.partition, s.from, s.to))
            .collect();
        assert_eq!(
            spans,
            vec![
                (0, at(10), Some((at(500), End::Revoked))),
                (1, at(10), Some((at(500), End::Revoked))),
                (0, at(600), None),
                (1, at(950), None),
            ]
        );
        assert_eq!(a.owns(), vec![0, 1]);
        let b = &s.workers["g-b"];
        assert_eq!(b.spans[0].to, Some((at(900), End::Lost)));
        assert!(b.owns().is_empty());
        assert_eq!(b.last_assigned, Some(vec![1]));
        // A revoked partition it did not own changes nothing.
        s.add(line(1000, "g-b", Event::Revoked(vec![0])));
        assert_eq!(s.workers["g-b"].spans.len(), 1);
        // Started again without giving its partitions up: the old process took them with it.
        s.add(line(1100, "g-a", Event::Start));
        let a = &s.workers["g-a"];
        assert!(a.owns().is_empty());
        assert_eq!(a.spans[3].to, Some((at(1100), End::Restarted)));
        let kinds: Vec<Kind> = s.events.iter().map(|e| e.kind).collect();
        assert_eq!(
            kinds,
            vec![
                Kind::Start,
                Kind::Assigned,
                Kind::Revoked,
                Kind::Assigned,
                Kind::Assigned,
                Kind::Lost,
                Kind::Assigned,
                Kind::Revoked,
                Kind::Start
            ]
        );
        assert_eq!(s.events[1].text, "assigned [0, 1]");
        assert_eq!((s.origin, s.last), (Some(at(0)), Some(at(1100))));
    }

    #[test]
    fn each_extra_processing_is_one_duplicate_and_the_total_is_krb_dups() {
        let mut s = State::new();
        s.add(processed(0, "g-a", 1, 400));
        s.add(processed(10, "g-a", 1, 401));
        assert!(s.duplicates.is_empty());
        s.add(processed(20, "g-b", 1, 400));
        s.add(line(
            30,
            "g-b",
            Event::AlreadyApplied {
                partition: 1,
                offset: 401,
            },
        ));
        // A third processing of one message: one more duplicate, not two.
        s.add(processed(150, "g-a", 1, 400));
        // Another partition's offset 400 is another message.
        s.add(processed(160, "g-a", 0, 400));
        let seen: Vec<_> = s
            .duplicates
            .iter()
            .map(|d| (d.worker.as_str(), d.partition, d.offset, d.times, d.n))
            .collect();
        assert_eq!(
            seen,
            vec![
                ("g-b", 1, 400, 2, 1),
                ("g-b", 1, 401, 2, 2),
                ("g-a", 1, 400, 3, 3)
            ]
        );
        let report = s.report();
        assert_eq!((report.processed, report.unique), (6, 3));
        assert_eq!(report.duplicates(), s.duplicates.len() as u64);
        let a = &s.workers["g-a"];
        assert_eq!((a.processed, a.duplicates), (4, 1));
        assert_eq!(s.workers["g-b"].duplicates, 2);
        // Steps of 100 ms: a's two first processings in step 0, its third (a duplicate) in 1,
        // each with the offset processed last.
        assert_eq!(
            a.steps[&1],
            BTreeMap::from([(0, (2, 0, 401)), (1, (1, 1, 400))])
        );
        assert_eq!(a.steps[&0], BTreeMap::from([(1, (1, 0, 400))]));
    }

    #[test]
    fn the_committed_position_is_the_groups_last_commit_of_each_step() {
        let mut s = State::new();
        s.add(line(0, "g-a", Event::Commit(vec![(0, 5), (1, 3)])));
        s.add(line(50, "g-a", Event::Commit(vec![(0, 7)])));
        // Another worker's commit moves the same position: it is the group's.
        s.add(line(150, "g-b", Event::Commit(vec![(0, 9)])));
        s.add(processed(160, "g-b", 0, 2));
        assert_eq!(
            s.committed[&0],
            BTreeMap::from([(0, (at(50), 7)), (1, (at(150), 9))])
        );
        assert_eq!(s.committed[&1], BTreeMap::from([(0, (at(0), 3))]));
        assert_eq!(s.offsets, BTreeMap::from([(0, (2, 9)), (1, (3, 3))]));
        assert!(s.events.is_empty(), "a commit is no event");
    }

    #[test]
    fn a_log_of_one_line_repeated_keeps_what_a_lane_shows_not_every_line() {
        let mut s = State::new();
        s.add(line(0, "g-b", Event::Start));
        s.add(processed(1, "g-b", 0, 7));
        let copies = 20 * LANE_MARKS as i64;
        for i in 0..copies {
            s.add(processed(2 + i, "g-a", 0, 7));
        }
        assert!(
            s.duplicates.len() <= 2 * LANE_MARKS,
            "{}",
            s.duplicates.len()
        );
        assert_eq!(s.duplicates_seen, copies as u64);
        assert_eq!(s.workers["g-a"].duplicates, copies as u64);
        // The latest are kept, with their numbers; another worker's events stay.
        let last = s.duplicates.last().unwrap();
        assert_eq!((last.n, last.times), (copies as u64, copies as u32 + 1));
        assert_eq!(s.events.len(), 1);
        let report = s.report();
        assert_eq!(report.duplicates(), copies as u64);
        let view = crate::view::View::of(&mut s, "g", "logs/g-*.log");
        let a = view.workers.iter().find(|w| w.name == "g-a").unwrap();
        assert_eq!(a.marks.len(), LANE_MARKS);
        assert_eq!(a.marks.last().unwrap().duplicate.unwrap()[3], copies);
        let b = view.workers.iter().find(|w| w.name == "g-b").unwrap();
        assert_eq!(b.marks.len(), 1);
    }

    #[test]
    fn failures_and_maxpoll_are_events_with_their_text() {
        let mut s = State::new();
        let err = "KafkaError{code=UNKNOWN_MEMBER_ID,val=25,str=\"x\"}";
        s.add(line(0, "g-a", Event::CommitFailed(err.into())));
        s.add(Line {
            worker: "g-a".into(),
            at: at(5),
            what: What::Maxpoll("%4|1.000|MAXPOLL|g-a#consumer-1| x".into()),
        });
        s.add(line(6, "g-a", Event::PollError(err.into())));
        s.add(line(
            7,
            "g-a",
            Event::Consumes {
                topic: "pay".into(),
                group: "g".into(),
            },
        ));
        s.add(line(8, "g-a", Event::Commit(vec![(0, 5)])));
        let kinds: Vec<(Kind, &str)> = s.events.iter().map(|e| (e.kind, e.text.as_str())).collect();
        assert_eq!(
            kinds,
            vec![
                (Kind::CommitFailed, err),
                (Kind::Maxpoll, "%4|1.000|MAXPOLL|g-a#consumer-1| x"),
                (Kind::PollError, err)
            ]
        );
        assert_eq!(s.topic.as_deref(), Some("pay"));
    }

    #[test]
    fn a_share_members_records_are_counted_and_a_refusal_is_an_event() {
        let mut s = State::new();
        s.add(line(
            0,
            "g-a",
            Event::ShareConsumes {
                topic: "pay".into(),
                group: "g".into(),
            },
        ));
        for (offset, delivery) in [(3, 1), (4, 1), (3, 2), (3, 3)] {
            s.add(line(
                10,
                "g-a",
                Event::Acquired {
                    partition: 0,
                    offset,
                    delivery,
                },
            ));
        }
        for ack in [Ack::Accept, Ack::Release, Ack::Release, Ack::Reject] {
            s.add(line(
                20,
                "g-a",
                Event::Acknowledged {
                    partition: 0,
                    offset: 3,
                    ack,
                },
            ));
        }
        s.add(line(
            30,
            "g-a",
            Event::AcksCommitted {
                partition: 0,
                offsets: vec![3, 4],
            },
        ));
        s.add(line(
            40,
            "g-a",
            Event::AcksFailed {
                partition: 0,
                offsets: vec![3],
                error: "KafkaError{code=INVALID_RECORD_STATE,val=121,str=\"x\"}".into(),
            },
        ));
        let share = s.workers["g-a"].share.unwrap();
        assert_eq!(
            share,
            ShareCounts {
                acquired: 4,
                again: 2,
                max_delivery: 3,
                accepted: 1,
                released: 2,
                rejected: 1,
                committed: 2,
                failed: 1,
            }
        );
        assert_eq!(s.topic.as_deref(), Some("pay"));
        assert_eq!(s.events.len(), 1);
        assert_eq!(s.events[0].kind, Kind::CommitFailed);
        // A consumer group's worker has none.
        let mut c = State::new();
        c.add(processed(0, "g-b", 0, 1));
        assert!(c.workers["g-b"].share.is_none());
    }
}
