//! Lab 2, 02-maxpoll.sh: a consumer slower than max.poll.interval.ms is expelled while it still
//! works; its commit fails and it loses the partition instead of revoking it.

use anyhow::Result;
use chrono::NaiveDateTime;
use krb_dups::Run as Span;
use krb_log::logline::{Event, Offset, Partition};

use krb_log::logline::format_time;
use krb_log::overlap::overlaps;

use crate::facts::{seconds, summary, Run};
use crate::verdict::{DUPLICATES, MAXPOLL_SECONDS, OVERLAP_SECONDS};
use crate::{shown, Verdict};

/// The article's numbers for lab 2.
pub const ARTICLE: &str =
    "MAXPOLL 10.4 s after the slow start; 1.6 s together in offset 3; offset 3 twice";

/// Lab 2's verdict for a run, with the group's committed offsets read from the broker.
pub fn verdict(run: &Run, committed: &[(Partition, Option<Offset>)]) -> Result<Verdict> {
    let mut v = Verdict::new(2, "maxpoll", "expel", &run.group, ARTICLE);
    checks(&mut v, run, committed, true)?;
    Ok(v)
}

/// Lab 2's statements (topic and group of one name, one partition). `classic`: the coordinator
/// expels a at MAXPOLL, b takes p0 while a still works and a's commit fails; under the consumer
/// protocol (lab 5) librdkafka 2.15 keeps p0 with a until a polls again, so the hand-over
/// follows a's commit and nothing is processed twice.
pub fn checks(
    v: &mut Verdict,
    run: &Run,
    committed: &[(Partition, Option<Offset>)],
    classic: bool,
) -> Result<()> {
    let a = run.member("a")?;
    let b = run.member("b")?;
    let slow_start = a.time_of(0, |e| {
        e == &Event::SlowStart {
            partition: 0,
            offset: 3,
        }
    });
    let after = slow_start
        .zip(a.maxpoll())
        .map(|(s, m)| seconds(s, m))
        .unwrap_or(f64::NAN);
    v.check(
        "librdkafka's MAXPOLL warning about 10 s after offset 3 slow start",
        (9.5..=12.0).contains(&after),
        // No slow start or no warning: no number to show.
        if after.is_nan() {
            "none".into()
        } else {
            format!("{after:.2} s")
        },
    );
    let done = a.find(0, |e| {
        e == &Event::Processed {
            partition: 0,
            offset: 3,
        }
    });
    let a_done = done.map(|i| a.lines[i].at);
    let b_assigned = b.time_of(0, |e| e == &Event::Assigned(vec![0]));
    let b_did_3 = b.processed().any(|(p, o)| (p, o) == (0, 3));
    let overlap = overlaps(&run.logs)
        .into_iter()
        .find(|o| (o.partition, o.offset) == (0, 3) && o.slow == a.name && o.other == b.name)
        .map(|o| o.seconds());
    let after_done = done.and_then(|i| {
        a.find(i + 1, |e| {
            matches!(e, Event::Commit(_) | Event::CommitFailed(_))
        })
    });
    let commit = after_done.map_or("no commit".into(), |i| a.lines[i].event.to_string());
    let loss =
        after_done.and_then(|i| a.find(i + 1, |e| matches!(e, Event::Lost(_) | Event::Revoked(_))));
    let handed = Handover {
        b_assigned,
        a_done,
        a_lost: loss.map(|i| a.lines[i].at),
        a_gave_up: loss.map(|i| a.lines[i].event.to_string()),
        a_again: loss
            .and_then(|i| a.find(i + 1, |e| e == &Event::Assigned(vec![0])))
            .map(|i| a.lines[i].at),
        overlap,
        b_did_3,
    };
    if classic {
        v.check(
            "b was assigned [0] and processed offset 3 while a was still in it",
            overlap.is_some() && b_did_3,
            handed.shown(),
        );
        let failed = after_done.and_then(|i| match &a.lines[i].event {
            Event::CommitFailed(e) => Some(e.as_str()),
            _ => None,
        });
        v.check(
            "a's commit after offset 3 failed with UNKNOWN_MEMBER_ID",
            failed.is_some_and(|e| e.starts_with("KafkaError{code=UNKNOWN_MEMBER_ID,")),
            commit,
        );
    } else {
        // librdkafka 2.15 sends the consumer protocol's leave only once the assignment is given
        // up, at the poll after the slow message: until then a owns p0 and the broker keeps it.
        // Then p0 goes to whichever member asks first, b or a itself rejoining.
        v.check(
            "consumer: a kept [0] until its lost [0]; b was not assigned it while a was in offset 3",
            overlap.is_none()
                && handed
                    .a_lost
                    .is_some_and(|lost| handed.b_assigned.is_none_or(|b| b >= lost)),
            handed.shown(),
        );
        let committed_4 = after_done.is_some_and(
            |i| matches!(&a.lines[i].event, Event::Commit(ps) if ps.contains(&(0, 4))),
        );
        v.check(
            "consumer: a's commit after offset 3 succeeded (commit p0=4)",
            committed_4,
            commit,
        );
    }
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
    let report = &run.report;
    let processed = report.render().trim_end().replace('\n', ";");
    if classic {
        v.check(
            "all 10 offsets processed, offset 3 twice and nothing else",
            report.unique == 10
                && report.runs
                    == vec![Span {
                        partition: 0,
                        first: 3,
                        last: 3,
                        times: 2,
                    }],
            processed,
        );
    } else {
        v.check(
            "consumer: all 10 offsets processed once, none twice",
            report.unique == 10 && report.runs.is_empty(),
            processed,
        );
    }
    v.check(
        "the group's final committed offset is 10",
        committed == [(0, Some(10))],
        shown::committed(committed),
    );
    let mut commits: Vec<(NaiveDateTime, Offset)> = a
        .lines
        .iter()
        .chain(&b.lines)
        .filter_map(|l| match &l.event {
            Event::Commit(ps) => ps.iter().find(|(p, _)| *p == 0).map(|(_, o)| (l.at, *o)),
            _ => None,
        })
        .collect();
    commits.sort();
    v.check(
        "the committed offset never went backwards",
        commits.windows(2).all(|w| w[0].1 <= w[1].1),
        shown::list(commits.iter().map(|(_, o)| *o)),
    );
    v.number(MAXPOLL_SECONDS, after);
    if let Some(o) = overlap {
        v.number(OVERLAP_SECONDS, o);
    }
    v.number(DUPLICATES, report.duplicates() as f64);
    v.ours = format!(
        "{}; {} together in offset 3; {}",
        if after.is_nan() {
            "no MAXPOLL after the slow start".into()
        } else {
            format!("MAXPOLL {after:.1} s after the slow start")
        },
        overlap.map_or("never".into(), |o| format!("{o:.1} s")),
        summary(report)
    );
    Ok(())
}

/// When p0 changed hands in lab 2, as its statements show it.
struct Handover {
    b_assigned: Option<NaiveDateTime>,
    a_done: Option<NaiveDateTime>,
    a_lost: Option<NaiveDateTime>,
    /// How a gave [0] up: its `lost [0]` line, or its `revoked [0]` (it rejoined in time).
    a_gave_up: Option<String>,
    /// a assigned [0] again after its lost [0] (it rejoined first).
    a_again: Option<NaiveDateTime>,
    overlap: Option<f64>,
    b_did_3: bool,
}

impl Handover {
    fn shown(&self) -> String {
        let at = |t: Option<NaiveDateTime>| shown::opt(t.map(|t| format_time(t.time())));
        match self.overlap {
            Some(o) => format!(
                "together for {o:.2} s, b processed offset 3: {}",
                self.b_did_3
            ),
            None => {
                let mut s = format!(
                    "b assigned at {}, a done at {}, a {} at {}",
                    at(self.b_assigned),
                    at(self.a_done),
                    self.a_gave_up.as_deref().unwrap_or("lost [0]"),
                    at(self.a_lost)
                );
                if self.a_again.is_some() {
                    s += &format!(", a assigned [0] again at {}", at(self.a_again));
                }
                s
            }
        }
    }
}
