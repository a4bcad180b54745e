//! The state as the page gets it (`/state`, and inlined in the page): JSON, times in
//! milliseconds from the first line, processing in steps few enough to draw, the latest events
//! and duplicates. The page's own words are apart ([`crate::messages`]); the labels here are
//! the logs' own texts, which the page shows as they are.

use std::collections::{BTreeMap, HashMap};

use krb_log::logline::{format_time, Partition};
use krb_log::rendered_error::rendered_code;
use serde::Serialize;

use crate::state::{End, Kind, ShareCounts, State, LANE_MARKS, STEP_MS};

/// At most this many steps of processing across the run: a long run's steps are widened.
const MAX_STEPS: i64 = 600;
/// At most this many items in the list of the latest.
const FEED: usize = 40;

#[derive(Serialize)]
pub struct View {
    pub group: String,
    /// The logs followed: `DIR/GROUP-*.log`.
    pub files: String,
    pub topic: Option<String>,
    /// The first line's time of day, the axis' zero.
    pub origin: Option<String>,
    pub last: Option<String>,
    /// Milliseconds from the first line to the latest.
    pub length: i64,
    pub step: i64,
    pub processed: u64,
    pub unique: u64,
    pub duplicates: u64,
    pub workers: Vec<WorkerView>,
    /// The partitions' offsets and committed positions.
    pub partitions: BTreeMap<Partition, PartitionView>,
    /// The latest events and runs of duplicates, newest first.
    pub feed: Vec<FeedItem>,
    /// How many lines were skipped, and the first of them.
    pub skipped: u64,
    pub skipped_first: Vec<String>,
    pub error: Option<String>,
}

#[derive(Serialize)]
pub struct WorkerView {
    pub name: String,
    pub processed: u64,
    pub duplicates: u64,
    pub owns: Vec<Partition>,
    pub last_assigned: Option<Vec<Partition>>,
    /// A share group member's records (none for a consumer group's worker).
    pub share: Option<ShareCounts>,
    /// One row per partition it owned or processed.
    pub rows: Vec<Row>,
    /// Its events and duplicates, the latest [`LANE_MARKS`], oldest first.
    pub marks: Vec<Mark>,
}

/// A partition as the group moved through it.
#[derive(Serialize)]
pub struct PartitionView {
    /// Its lowest and highest offset, processed or committed: a row's scale.
    pub range: [i64; 2],
    /// Its committed position: `[time, offset the group reads next]` at the last commit of
    /// each step.
    pub committed: Vec<[i64; 2]>,
}

#[derive(Serialize)]
pub struct Row {
    pub partition: Partition,
    pub spans: Vec<SpanView>,
    /// Its processing: `[step start, processings, duplicates, offset processed last]` for
    /// each step with any.
    pub steps: Vec<[i64; 4]>,
}

/// A partition owned from `from` to `to` (or to the latest line).
#[derive(Serialize)]
pub struct SpanView {
    pub from: i64,
    pub to: Option<i64>,
    /// How: `revoked`, `lost`, `restarted`.
    pub end: Option<&'static str>,
}

#[derive(Clone, Serialize)]
pub struct Mark {
    /// Milliseconds from the first line.
    pub at: i64,
    pub clock: String,
    pub worker: String,
    /// `start`, `stop`, `assigned`, `revoked`, `lost`, `maxpoll`, `commitFailed`,
    /// `pollError`, `txnAborted` or `duplicate`.
    pub kind: &'static str,
    /// The log's text: the line (`assigned [0]`), the Kafka error, librdkafka's line.
    pub text: String,
    pub code: Option<String>,
    /// A duplicate's partition, offset, processings so far and number.
    pub duplicate: Option<[i64; 4]>,
}

/// An item of the list of the latest: an event, or duplicates one after another (one worker,
/// one partition, consecutive offsets, no other duplicate between them), which the list shows
/// as one item that grows as they come.
#[derive(Clone, Serialize)]
pub struct FeedItem {
    /// The event, or the run's first duplicate.
    pub first: Mark,
    /// The run's last duplicate, when it has more than one.
    pub last: Option<Mark>,
}

impl FeedItem {
    /// Adds `mark` to the run this item is, if it continues it.
    fn extend(&mut self, mark: &Mark) -> bool {
        let tail = self.last.as_ref().unwrap_or(&self.first);
        let continues = match (tail.duplicate, mark.duplicate) {
            (Some([p, o, _, n]), Some([p2, o2, _, n2])) => {
                tail.worker == mark.worker && p == p2 && o2 == o + 1 && n2 == n + 1
            }
            _ => false,
        };
        if continues {
            self.last = Some(mark.clone());
        }
        continues
    }
}

/// The latest `n` items of the list: `marks` in time order, runs of duplicates joined, newest
/// first.
fn feed(marks: &[Mark], n: usize) -> Vec<FeedItem> {
    let mut items: Vec<FeedItem> = Vec::new();
    for mark in marks {
        if !items.last_mut().is_some_and(|item| item.extend(mark)) {
            items.push(FeedItem {
                first: mark.clone(),
                last: None,
            });
        }
    }
    let from = items.len().saturating_sub(n);
    items.split_off(from).into_iter().rev().collect()
}

fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Start => "start",
        Kind::Stop => "stop",
        Kind::Assigned => "assigned",
        Kind::Revoked => "revoked",
        Kind::Lost => "lost",
        Kind::Maxpoll => "maxpoll",
        Kind::CommitFailed => "commitFailed",
        Kind::PollError => "pollError",
        Kind::TxnAborted => "txnAborted",
    }
}

fn end_name(end: End) -> &'static str {
    match end {
        End::Revoked => "revoked",
        End::Lost => "lost",
        End::Restarted => "restarted",
    }
}

impl View {
    pub fn of(state: &mut State, group: &str, files: &str) -> View {
        let report = state.report();
        let origin = state.origin;
        let ms = |t: chrono::NaiveDateTime| origin.map_or(0, |o| (t - o).num_milliseconds());
        let length = state.last.map_or(0, ms);
        // Steps of STEP_MS, widened to whole multiples until the run has few enough.
        let per = (length / STEP_MS / MAX_STEPS + 1).max(1);
        let step = STEP_MS * per;
        let mark = |at: chrono::NaiveDateTime, worker: &str, kind| Mark {
            at: ms(at),
            clock: format_time(at.time()),
            worker: worker.to_string(),
            kind,
            text: String::new(),
            code: None,
            duplicate: None,
        };
        let failed = |k: Kind| matches!(k, Kind::CommitFailed | Kind::PollError | Kind::TxnAborted);
        let mut marks: Vec<Mark> = (state.events.iter())
            .map(|e| Mark {
                text: e.text.clone(),
                code: failed(e.kind).then(|| rendered_code(&e.text).to_string()),
                ..mark(e.at, &e.worker, kind_name(e.kind))
            })
            .collect();
        marks.extend(state.duplicates.iter().map(|d| {
            let (p, times, n) = (i64::from(d.partition), i64::from(d.times), d.n as i64);
            Mark {
                duplicate: Some([p, d.offset, times, n]),
                ..mark(d.at, &d.worker, "duplicate")
            }
        }));
        // In time order; a stable sort keeps events before duplicates of the same millisecond.
        marks.sort_by_key(|m| m.at);
        // Each worker's marks, found once rather than searched for in every lane.
        let mut by_worker: HashMap<&str, Vec<Mark>> = HashMap::new();
        for m in &marks {
            by_worker.entry(&m.worker).or_default().push(m.clone());
        }
        let workers = state
            .workers
            .iter()
            .map(|(name, w)| {
                // Each partition's spans, in the order it was given them.
                let mut spans_of: BTreeMap<Partition, Vec<SpanView>> =
                    w.steps.keys().map(|&p| (p, Vec::new())).collect();
                for s in &w.spans {
                    spans_of.entry(s.partition).or_default().push(SpanView {
                        from: ms(s.from),
                        to: s.to.map(|(t, _)| ms(t)),
                        end: s.to.map(|(_, e)| end_name(e)),
                    });
                }
                let rows = spans_of
                    .into_iter()
                    .map(|(partition, spans)| {
                        let mut steps: Vec<[i64; 4]> = Vec::new();
                        for (&n, &(all, dups, o)) in w.steps.get(&partition).into_iter().flatten() {
                            let start = n.div_euclid(per) * step;
                            match steps.last_mut() {
                                Some(last) if last[0] == start => {
                                    last[1] += i64::from(all);
                                    last[2] += i64::from(dups);
                                    last[3] = o;
                                }
                                _ => steps.push([start, i64::from(all), i64::from(dups), o]),
                            }
                        }
                        Row {
                            partition,
                            spans,
                            steps,
                        }
                    })
                    .collect();
                let own = by_worker.remove(name.as_str()).unwrap_or_default();
                WorkerView {
                    name: name.clone(),
                    processed: w.processed,
                    duplicates: w.duplicates,
                    owns: w.owns(),
                    last_assigned: w.last_assigned.clone(),
                    share: w.share,
                    rows,
                    marks: own[own.len().saturating_sub(LANE_MARKS)..].to_vec(),
                }
            })
            .collect();
        let partitions = state
            .offsets
            .iter()
            .map(|(&p, &(lo, hi))| {
                // The last commit of each widened step.
                let (mut committed, mut before) = (Vec::new(), None);
                for (&n, &(t, o)) in state.committed.get(&p).into_iter().flatten() {
                    if before.replace(n.div_euclid(per)) == Some(n.div_euclid(per)) {
                        committed.pop();
                    }
                    committed.push([ms(t), o]);
                }
                let range = [lo, hi];
                (p, PartitionView { range, committed })
            })
            .collect();
        let feed = feed(&marks, FEED);
        View {
            group: group.to_string(),
            files: files.to_string(),
            topic: state.topic.clone(),
            origin: origin.map(|o| format_time(o.time())),
            last: state.last.map(|l| format_time(l.time())),
            length,
            step,
            processed: report.processed,
            unique: report.unique,
            duplicates: report.duplicates(),
            workers,
            partitions,
            feed,
            skipped: state.skipped_count,
            skipped_first: state.skipped.iter().map(|s| s.to_string()).collect(),
            error: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::follow::{Line, What};
    use krb_log::logline::Event;
    use krb_log::worker_log::day_zero;

    fn line(ms: i64, worker: &str, event: Event) -> Line {
        Line {
            worker: worker.into(),
            at: day_zero().and_hms_opt(9, 0, 0).unwrap() + chrono::TimeDelta::milliseconds(ms),
            what: What::Event(event),
        }
    }

    fn processed(ms: i64, worker: &str, partition: Partition, offset: i64) -> Line {
        line(ms, worker, Event::Processed { partition, offset })
    }

    #[test]
    fn duplicates_one_after_another_are_one_growing_item_of_the_list() {
        let mut s = State::new();
        s.add(line(0, "g-a", Event::Assigned(vec![1])));
        for o in 0..5 {
            s.add(processed(10 + o, "g-a", 1, o));
        }
        s.add(line(100, "g-a", Event::Revoked(vec![1])));
        s.add(line(110, "g-b", Event::Assigned(vec![1])));
        // b does 2..4 again, then 9 twice (its second time not next to 4), then a does 0 again.
        for (ms, o) in [(120, 2), (130, 3), (140, 4), (150, 9), (160, 9)] {
            s.add(processed(ms, "g-b", 1, o));
        }
        s.add(processed(170, "g-a", 1, 0));
        let view = View::of(&mut s, "g", "logs/g-*.log");
        assert_eq!((view.processed, view.unique, view.duplicates), (11, 6, 5));
        let items: Vec<(String, Option<i64>)> = view
            .feed
            .iter()
            .map(|i| {
                let m = i.last.as_ref().unwrap_or(&i.first);
                let text = match i.first.duplicate {
                    Some([_, o, _, n]) => format!("#{n} o{o}"),
                    None => i.first.text.clone(),
                };
                (text, m.duplicate.map(|d| d[3]))
            })
            .collect();
        // Newest first: a's 0; b's second 9; b's 2..4, one item #1..#3.
        assert_eq!(
            items,
            vec![
                ("#5 o0".to_string(), Some(5)),
                ("#4 o9".to_string(), Some(4)),
                ("#1 o2".to_string(), Some(3)),
                ("assigned [1]".to_string(), None),
                ("revoked [1]".to_string(), None),
                ("assigned [1]".to_string(), None),
            ]
        );
        let b = &view.workers[1];
        assert_eq!(b.marks.iter().filter(|m| m.kind == "duplicate").count(), 4);
        assert_eq!(b.rows[0].spans[0].to, None);
        assert_eq!(view.workers[0].rows[0].spans[0].end, Some("revoked"));
    }

    #[test]
    fn a_long_run_is_drawn_in_fewer_wider_steps() {
        let mut s = State::new();
        for (ms, o) in [(0, 0), (50, 1), (150, 2), (119_990, 3)] {
            s.add(processed(ms, "g-a", 0, o));
            s.add(line(ms, "g-a", Event::Commit(vec![(0, o + 1)])));
        }
        let view = View::of(&mut s, "g", "logs/g-*.log");
        assert_eq!(view.length, 119_990);
        // 1200 steps of 0.1 s would be too many: steps of 0.2 s, at most 600 across the run.
        assert_eq!(view.step, 200);
        assert!(view.length / view.step <= MAX_STEPS);
        assert_eq!(
            view.workers[0].rows[0].steps,
            vec![[0, 3, 0, 2], [119_800, 1, 0, 3]]
        );
        // The committed position, the last commit of each wider step.
        let p0 = &view.partitions[&0];
        assert_eq!(p0.committed, vec![[150, 3], [119_990, 4]]);
        assert_eq!(p0.range, [0, 4]);
        let short = View::of(&mut State::new(), "g", "logs/g-*.log");
        assert_eq!((short.length, short.step, short.origin), (0, STEP_MS, None));
    }
}
