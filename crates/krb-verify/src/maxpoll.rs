//! Lab 2, 02-maxpoll.sh: a consumer slower than max.poll.interval.ms is expelled while it still
//! works; its commit fails and it loses the partition instead of revoking it.

use anyhow::Result;
use chrono::NaiveDateTime;
use krb_cli::lang::Lang;
use krb_log::logline::{format_time, Event, Offset, Partition};
use krb_log::overlap::overlaps;

use crate::facts::{seconds, summary, Run};
use crate::messages::{both, said, Message, Shared, Shown};
use crate::verdict::{DUPLICATES, MAXPOLL_SECONDS, OVERLAP_SECONDS};
use crate::{shown, Lab, Verdict};

said! {
    /// Lab 2's statements and details (lab 5 checks them too, and lab 6 one).
    pub enum Said {
        MaxpollWarning => "librdkafka's MAXPOLL warning about 10 s after offset 3 slow start",
            "offset 3 slow start 약 10초 뒤 librdkafka의 MAXPOLL 경고";
        BTookOffset3 => "b was assigned [0] and processed offset 3 while a was still in it",
            "a가 아직 offset 3을 처리하는 동안 b가 [0]을 받아 offset 3을 처리함";
        CommitFailed => "a's commit after offset 3 failed with UNKNOWN_MEMBER_ID",
            "offset 3 다음 a의 commit이 UNKNOWN_MEMBER_ID로 실패함";
        ConsumerKept =>
            "consumer: a kept [0] until its lost [0]; b was not assigned it while a was in offset 3",
            "consumer: a가 lost [0] 때까지 [0]을 맡았고, a가 offset 3을 처리하는 동안 b는 [0]을 받지 않음";
        ConsumerCommitted => "consumer: a's commit after offset 3 succeeded (commit p0=4)",
            "consumer: offset 3 다음 a의 commit이 성공함 (commit p0=4)";
        LostNotRevoked => "a then logged lost [0], not revoked [0]",
            "이어서 a의 로그에 revoked [0]이 아니라 lost [0]이 남음";
        PollError => "poll returned _MAX_POLL_EXCEEDED with librdkafka's text",
            "poll이 librdkafka의 문구와 함께 _MAX_POLL_EXCEEDED를 돌려줌";
        AllOffset3Twice => "all 10 offsets processed, offset 3 twice and nothing else",
            "offset 10개를 모두 처리함, 두 번 처리한 것은 offset 3뿐";
        ConsumerAllOnce => "consumer: all 10 offsets processed once, none twice",
            "consumer: offset 10개 모두 한 번씩 처리됨, 두 번 처리된 것 없음";
        FinalCommitted => "the group's final committed offset is 10",
            "그룹에 마지막으로 commit된 offset이 10";
        NeverBackwards => "the committed offset never went backwards",
            "commit된 offset이 한 번도 뒤로 가지 않음";
        TogetherFor { seconds: f64, b_processed: bool } => |lang| match (lang, b_processed) {
            (Lang::En, _) => {
                format!("together for {seconds:.2} s, b processed offset 3: {b_processed}")
            }
            (Lang::Ko, true) => format!("{seconds:.2}초 동안 함께 처리, b가 offset 3을 처리함"),
            (Lang::Ko, false) => format!("{seconds:.2}초 동안 함께 처리, b는 offset 3을 처리하지 않음"),
        };
        HandedAt { b_at: Option<String>, done_at: Option<String>, gave_up: Box<Message>,
            lost_at: Option<String>, again_at: Option<Option<String>> } => |lang| {
            let at = |t| Shown(lang, t).to_string();
            let (b_at, done_at, lost_at) = (at(b_at), at(done_at), at(lost_at));
            let gave_up = gave_up.text(lang);
            let mut text = both!(
                lang,
                "b assigned at {b_at}, a done at {done_at}, a {gave_up} at {lost_at}",
                "b가 [0]을 받음 {b_at}, a가 offset 3을 끝냄 {done_at}, a의 {gave_up} {lost_at}"
            );
            if let Some(again_at) = again_at {
                let again_at = at(again_at);
                text += &both!(
                    lang,
                    ", a assigned [0] again at {again_at}",
                    ", a가 다시 [0]을 받음 {again_at}"
                );
            }
            text
        };
        NoCommit => "no commit", "commit 기록 없음";
        Neither => "neither", "lost도 revoked도 없음";
        Maxpoll { seconds: Option<f64> } => |lang| match seconds {
            None => both!(lang, "no MAXPOLL after the slow start", "slow start 뒤 MAXPOLL 없음"),
            Some(seconds) => both!(
                lang,
                "MAXPOLL {seconds:.1} s after the slow start",
                "slow start {seconds:.1}초 뒤 MAXPOLL"
            ),
        };
        Together { seconds: Option<f64> } => |lang| match seconds {
            None => both!(lang, "never together in offset 3", "offset 3을 함께 처리한 적 없음"),
            Some(seconds) => both!(
                lang,
                "{seconds:.1} s together in offset 3",
                "{seconds:.1}초 동안 offset 3을 함께 처리"
            ),
        };
        Offset3Twice => "offset 3 twice", "offset 3을 두 번 처리";
    }
}

pub fn verdict(run: &Run, committed: &[(Partition, Option<Offset>)]) -> Result<Verdict> {
    let article: Vec<Message> = vec![
        Said::Maxpoll {
            seconds: Some(10.4),
        }
        .into(),
        Said::Together { seconds: Some(1.6) }.into(),
        Said::Offset3Twice.into(),
    ];
    let mut v = Verdict::of(Lab::Maxpoll, &run.group, article);
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
    let (a, b) = (run.member("a")?, run.member("b")?);
    let slow_start = a.time_of(0, |e| {
        e == &Event::SlowStart {
            partition: 0,
            offset: 3,
        }
    });
    // None: no slow start or no warning, no number to show.
    let after = slow_start.zip(a.maxpoll()).map(|(s, m)| seconds(s, m));
    v.check(
        Said::MaxpollWarning,
        after.is_some_and(|after| (9.5..=12.0).contains(&after)),
        after.map_or(Shared::Nothing, |seconds| Shared::Seconds { seconds }),
    );
    let done = a.find(0, |e| {
        e == &Event::Processed {
            partition: 0,
            offset: 3,
        }
    });
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
    // A line of a's as the log writes it (a commit or a poll error: no revoke).
    let data = |i: usize| given_up(&a.lines[i].event);
    let commit = after_done.map_or(Said::NoCommit.into(), data);
    let loss =
        after_done.and_then(|i| a.find(i + 1, |e| matches!(e, Event::Lost(_) | Event::Revoked(_))));
    let a_lost = loss.map(|i| a.lines[i].at);
    let at = |t: Option<NaiveDateTime>| t.map(|t| format_time(t.time()));
    // How p0 changed hands: a's `lost [0]`, or its `revoked [0]` (it rejoined in time), and a
    // assigned [0] again after it (it rejoined first).
    let handed = match overlap {
        Some(seconds) => Said::TogetherFor {
            seconds,
            b_processed: b_did_3,
        },
        None => Said::HandedAt {
            b_at: at(b_assigned),
            done_at: at(done.map(|i| a.lines[i].at)),
            gave_up: Box::new(given_up(
                loss.map_or(&Event::Lost(vec![0]), |i| &a.lines[i].event),
            )),
            lost_at: at(a_lost),
            again_at: loss
                .and_then(|i| a.find(i + 1, |e| e == &Event::Assigned(vec![0])))
                .map(|i| at(Some(a.lines[i].at))),
        },
    };
    if classic {
        v.check(Said::BTookOffset3, overlap.is_some() && b_did_3, handed);
        let failed = after_done.is_some_and(|i| {
            matches!(&a.lines[i].event, Event::CommitFailed(e)
                if e.starts_with("KafkaError{code=UNKNOWN_MEMBER_ID,"))
        });
        v.check(Said::CommitFailed, failed, commit);
    } else {
        // librdkafka 2.15 sends the consumer protocol's leave only once the assignment is given
        // up, at the poll after the slow message: until then a owns p0 and the broker keeps it.
        // Then p0 goes to whichever member asks first, b or a itself rejoining.
        v.check(
            Said::ConsumerKept,
            overlap.is_none() && a_lost.is_some_and(|lost| b_assigned.is_none_or(|b| b >= lost)),
            handed,
        );
        let committed_4 = after_done.is_some_and(
            |i| matches!(&a.lines[i].event, Event::Commit(ps) if ps.contains(&(0, 4))),
        );
        v.check(Said::ConsumerCommitted, committed_4, commit);
    }
    v.check(
        Said::LostNotRevoked,
        loss.is_some_and(|i| a.lines[i].event == Event::Lost(vec![0])),
        loss.map_or(Said::Neither.into(), |i| given_up(&a.lines[i].event)),
    );
    let poll_error = done.and_then(|i| {
        a.find(i, |e| {
            matches!(e, Event::PollError(t) if t.starts_with(
                "KafkaError{code=_MAX_POLL_EXCEEDED,val=-147,str=\"Application maximum poll interval (10000ms) exceeded by "))
        })
    });
    v.check(
        Said::PollError,
        poll_error.is_some(),
        poll_error.map_or(Shared::Nothing.into(), data),
    );
    let report = &run.report;
    let processed = Shared::Data {
        text: report.render().trim_end().replace('\n', ";"),
    };
    // Offset 3 twice when a was expelled, nothing twice when it was not.
    let (statement, twice) = match classic {
        true => (Said::AllOffset3Twice, Some((0, 3, 3, 2))),
        false => (Said::ConsumerAllOnce, None),
    };
    let runs = report
        .runs
        .iter()
        .map(|r| (r.partition, r.first, r.last, r.times));
    v.check(statement, report.unique == 10 && runs.eq(twice), processed);
    v.check(
        Said::FinalCommitted,
        committed == [(0, Some(10))],
        Shared::Committed {
            offsets: committed.to_vec(),
        },
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
        Said::NeverBackwards,
        commits.windows(2).all(|w| w[0].1 <= w[1].1),
        Shared::Data {
            text: shown::list(commits.iter().map(|(_, o)| *o)),
        },
    );
    v.number(MAXPOLL_SECONDS, after.unwrap_or(f64::NAN));
    if let Some(o) = overlap {
        v.number(OVERLAP_SECONDS, o);
    }
    v.number(DUPLICATES, report.duplicates() as f64);
    v.ours = vec![
        Said::Maxpoll { seconds: after }.into(),
        Said::Together { seconds: overlap }.into(),
        summary(report).into(),
    ]
    .into();
    Ok(())
}

/// An event of a's as the log writes it (`lost [0]`), but a `revoked [0]` as lab 3 counts a revoke.
pub(crate) fn given_up(event: &Event) -> Message {
    match event {
        Event::Revoked(ps) => Shared::Revoked {
            list: shown::list(ps),
        }
        .into(),
        e => Shared::Data {
            text: e.to_string(),
        }
        .into(),
    }
}
