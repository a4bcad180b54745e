//! Every statement of every lab, held on a crafted run that keeps them all, and reported FAILED
//! on a run that breaks it.

use std::collections::BTreeMap;

use chrono::{Local, NaiveTime, TimeDelta, TimeZone};
use krb_log::logline::{Offset, Partition};

use crate::facts::Run;
use crate::messages::{Message, Shared};
use crate::{assignor, maxpoll, protocol, revoke, static_lab, Assignor, Protocol, Verdict};
use krb_cli::lang::Lang;
use krb_effect::Kind;

/// A run's log files, line by line, written at 10:00:00.000 plus milliseconds.
#[derive(Clone, Default)]
pub(crate) struct Logs(BTreeMap<String, Vec<String>>);

pub(crate) fn clock(ms: i64) -> NaiveTime {
    NaiveTime::from_hms_opt(10, 0, 0).unwrap() + TimeDelta::milliseconds(ms)
}

impl Logs {
    pub(crate) fn line(&mut self, file: &str, text: String) -> &mut Logs {
        self.0.entry(file.to_string()).or_default().push(text);
        self
    }

    /// A worker line: `TIME NAME EVENT` in NAME's log.
    pub(crate) fn at(&mut self, ms: i64, name: &str, event: &str) -> &mut Logs {
        let text = format!("{} {name} {event}", clock(ms).format("%H:%M:%S%.3f"));
        self.line(name, text)
    }

    /// common.sh's `start NAME` or `stop NAME`.
    pub(crate) fn mark(&mut self, ms: i64, verb: &str, name: &str) -> &mut Logs {
        let text = format!("{} {verb} {name}", clock(ms).format("%H:%M:%S%.3f"));
        self.line(name, text)
    }

    /// Processed lines of `partition`, offsets `from..to`, one millisecond apart from `ms`.
    pub(crate) fn offsets(
        &mut self,
        ms: i64,
        name: &str,
        partition: Partition,
        from: Offset,
        to: Offset,
    ) {
        for (i, o) in (from..to).enumerate() {
            self.at(ms + i as i64, name, &format!("p{partition} offset {o}"));
        }
    }

    /// librdkafka's MAXPOLL warning, stamped in Unix time as librdkafka stamps it.
    fn maxpoll(&mut self, ms: i64, name: &str) -> &mut Logs {
        let local = Local::now().date_naive().and_time(clock(ms));
        let at = Local.from_local_datetime(&local).earliest().unwrap();
        let text = format!(
            "%4|{}.{:03}|MAXPOLL|{name}#consumer-1| [thrd:main]: Application maximum poll interval (10000ms) exceeded by 356ms",
            at.timestamp(),
            at.timestamp_subsec_millis()
        );
        self.line(name, text)
    }

    /// Removes the lines of `file` that contain `text`; there must be one.
    pub(crate) fn without(&mut self, file: &str, text: &str) -> &mut Logs {
        let lines = self.0.get_mut(file).unwrap();
        let before = lines.len();
        lines.retain(|l| !l.contains(text));
        assert!(lines.len() < before, "no line {text:?} in {file}");
        self
    }

    /// Replaces `from` by `to` in the lines of `file` that contain it; there must be one.
    pub(crate) fn replace(&mut self, file: &str, from: &str, to: &str) -> &mut Logs {
        let lines = self.0.get_mut(file).unwrap();
        let mut found = false;
        for l in lines.iter_mut().filter(|l| l.contains(from)) {
            *l = l.replace(from, to);
            found = true;
        }
        assert!(found, "no line {from:?} in {file}");
        self
    }

    pub(crate) fn write(&self) -> krb_testutil::Scratch {
        let files: Vec<(String, String)> = self
            .0
            .iter()
            .map(|(name, lines)| (format!("{name}.log"), lines.join("\n") + "\n"))
            .collect();
        let files: Vec<(&str, &str)> = files
            .iter()
            .map(|(n, t)| (n.as_str(), t.as_str()))
            .collect();
        krb_testutil::scratch_dir("verify", &files)
    }

    /// The logs as the labs read them, each run of completion lines one entry.
    pub(crate) fn run(&self, group: &str) -> Run {
        Run::read(&self.write(), group, &Default::default(), true).unwrap()
    }

    /// The logs as labs 7 and 9 read them, an entry for each completion line.
    pub(crate) fn each_line(&self, group: &str) -> Run {
        Run::read(&self.write(), group, &Default::default(), false).unwrap()
    }
}

/// A verdict's numbers, in name order.
fn numbers(v: &Verdict) -> Vec<(&str, f64)> {
    v.numbers.iter().map(|(k, n)| (k.as_str(), *n)).collect()
}

/// What breaks a statement in a run's logs.
pub(crate) type Breaks = Box<dyn Fn(&mut Logs)>;

/// A statement, how the run breaks it, and the change that does.
pub(crate) type Case = (Message, &'static str, Breaks);

/// Asserts that every statement held.
pub(crate) fn all_held(v: &Verdict) {
    assert!(v.held(), "{}", v.render());
    shown_plainly(v);
}

/// Asserts that no detail shows a Rust debug value, and that every statement is in Korean
/// when the verdict is.
fn shown_plainly(v: &Verdict) {
    for c in &v.checks {
        for debug in ["Some(", "None", "{0", "\"p"] {
            assert!(
                !c.detail.text(Lang::En).contains(debug),
                "{debug} in {:?}: {:?}",
                c.statement,
                c.detail
            );
        }
    }
    let korean = v.render_in(krb_cli::lang::Lang::Ko);
    let english_statement = v
        .checks
        .iter()
        .find(|c| korean.contains(&c.statement.text(Lang::En)));
    assert!(
        english_statement.is_none(),
        "untranslated: {english_statement:?}\n{korean}"
    );
}

/// Asserts that `statement` was checked and reported FAILED.
pub(crate) fn fails(v: &Verdict, statement: impl Into<Message>, broken: &str) {
    shown_plainly(v);
    let statement = statement.into();
    let check = v
        .check_of(statement.clone())
        .unwrap_or_else(|| panic!("{statement:?} was not checked ({broken}):\n{}", v.render()));
    assert!(
        !check.held,
        "{statement:?} held on a run where {broken}:\n{}",
        v.render()
    );
}

/// Breaks the good run each way a case says, and asserts each case's statement FAILED.
pub(crate) fn each_break<B: AsRef<str>>(
    good: &Logs,
    cases: Vec<(Message, B, Breaks)>,
    verdict: impl Fn(&Logs) -> Verdict,
) {
    for (statement, broken, breaks) in cases {
        let mut logs = good.clone();
        breaks(&mut logs);
        fails(&verdict(&logs), statement, broken.as_ref());
    }
}

/// Lab 1: a alone on p0 and p1, commit every 100; b joins at 2 s and takes p1.
fn lab1(group: &str, revoke_commit: bool) -> Logs {
    let (a, b) = (&format!("{group}-a"), &format!("{group}-b"));
    let mut l = Logs::default();
    l.mark(0, "start", a)
        .at(1, a, &format!("consumes pay in group {group}"))
        .at(10, a, "assigned [0, 1]");
    l.offsets(100, a, 1, 0, 100);
    l.at(300, a, "commit p1=100");
    l.offsets(400, a, 1, 100, 150);
    l.mark(2000, "start", b)
        .at(2001, b, &format!("consumes pay in group {group}"))
        .at(2100, a, "revoked [0, 1]");
    if revoke_commit {
        l.at(2101, a, "commit p1=150");
    }
    l.at(2110, a, "assigned [0]").at(2110, b, "assigned [1]");
    l.offsets(2200, a, 0, 0, 500);
    l.at(2800, a, "commit p0=500");
    let b_from = if revoke_commit { 150 } else { 100 };
    l.offsets(2200, b, 1, b_from, 500);
    l.at(2800, b, "commit p1=500")
        .mark(3000, "stop", a)
        .mark(3000, "stop", b)
        .at(3001, a, "revoked [0]")
        .at(3001, b, "revoked [1]");
    l
}

#[test]
fn lab1_without_the_revoke_commit() {
    let good = lab1("g", false);
    let v = revoke::verdict(&good.run("g"), false).unwrap();
    all_held(&v);
    assert_eq!(v.checks.len(), 7);
    assert_eq!(v.ours.text(Lang::En), "50 duplicates on p1 (100..149)");
    assert_eq!(numbers(&v), [("duplicates", 50.0)]);
    let cases: Vec<Case> = vec![
        (
            Message::from(Shared::AllProcessed { count: 1000 }),
            "b's last message is missing",
            Box::new(|l| {
                l.without("g-b", "p1 offset 499");
            }),
        ),
        (
            Message::from(revoke::Said::HandedBack),
            "a never revoked",
            Box::new(|l| {
                l.without("g-a", "revoked [0, 1]");
            }),
        ),
        (
            Message::from(revoke::Said::RevokedThenAssigned),
            "a revoked only p1",
            Box::new(|l| {
                l.replace("g-a", "revoked [0, 1]", "revoked [1]");
            }),
        ),
        (
            Message::from(revoke::Said::OneMoved),
            "b got both partitions",
            Box::new(|l| {
                l.replace("g-b", "assigned [1]", "assigned [0, 1]");
            }),
        ),
        (
            Message::from(revoke::Said::DuplicatesBelowCommitEvery),
            "b re-read p1 from 0",
            Box::new(|l| {
                l.offsets(2150, "g-b", 1, 0, 100);
            }),
        ),
        (
            Message::from(revoke::Said::DuplicatesOnlyMoved),
            "a processed p0 offset 5 twice",
            Box::new(|l| {
                l.at(2900, "g-a", "p0 offset 5");
            }),
        ),
        (
            Message::from(revoke::Said::BeganAtLastCommit),
            "b began at 101",
            Box::new(|l| {
                l.without("g-b", "p1 offset 100");
            }),
        ),
    ];
    each_break(&good, cases, |logs| {
        revoke::verdict(&logs.run("g"), false).unwrap()
    });
}

#[test]
fn lab1_with_the_revoke_commit() {
    let good = lab1("g", true);
    let v = revoke::verdict(&good.run("g"), true).unwrap();
    all_held(&v);
    assert_eq!(v.checks.len(), 7);
    assert_eq!(numbers(&v), [("duplicates", 0.0)]);
    let cases: Vec<Case> = vec![
        (
            Message::from(Shared::NoDuplicates),
            "b re-read offset 149",
            Box::new(|l| {
                l.at(2150, "g-b", "p1 offset 149");
            }),
        ),
        (
            Message::from(revoke::Said::CommittedInRevoke),
            "the revoke commit stopped short",
            Box::new(|l| {
                l.replace("g-a", "commit p1=150", "commit p1=149");
            }),
        ),
        (
            Message::from(revoke::Said::CommittedInRevoke),
            "there was no revoke commit",
            Box::new(|l| {
                l.without("g-a", "commit p1=150");
            }),
        ),
        (
            Message::from(revoke::Said::BeganAtThatCommit),
            "b began past the commit",
            Box::new(|l| {
                l.without("g-b", "p1 offset 150");
            }),
        ),
    ];
    each_break(&good, cases, |logs| {
        revoke::verdict(&logs.run("g"), true).unwrap()
    });
}

/// Lab 2's start under either protocol: a owns p0 and commits offsets 0 to 2, b has joined,
/// a's offset 3 starts slow at 2.5 s and MAXPOLL comes 10.4 s later.
fn lab2_opening(group: &str) -> Logs {
    let (a, b) = (&format!("{group}-a"), &format!("{group}-b"));
    let mut l = Logs::default();
    l.mark(0, "start", a)
        .at(1, a, &format!("consumes {group} in group {group}"))
        .at(100, a, "assigned [0]")
        .mark(200, "start", b)
        .at(201, b, &format!("consumes {group} in group {group}"));
    for o in 0..3 {
        l.at(1000 + o * 500, a, &format!("p0 offset {o}")).at(
            1001 + o * 500,
            a,
            &format!("commit p0={}", o + 1),
        );
    }
    l.at(2500, a, "p0 offset 3 slow start").maxpoll(12_900, a);
    l
}

/// Lab 2: a owns p0 and takes 15 s at offset 3; MAXPOLL at 10.4 s; b takes over at 11 s.
fn lab2(group: &str) -> Logs {
    let (a, b) = (&format!("{group}-a"), &format!("{group}-b"));
    let mut l = lab2_opening(group);
    l.at(300, b, "assigned []");
    let t = 2500;
    l.at(t + 11_000, b, "assigned [0]");
    for o in 3..10 {
        l.at(t + 11_500 + (o - 3) * 500, b, &format!("p0 offset {o}"))
            .at(
                t + 11_501 + (o - 3) * 500,
                b,
                &format!("commit p0={}", o + 1),
            );
    }
    let failure =
        r#"KafkaError{code=UNKNOWN_MEMBER_ID,val=25,str="Commit failed: Broker: Unknown member"}"#;
    l.at(t + 15_000, a, "p0 offset 3")
        .at(t + 15_001, a, &format!("commit failed: {failure}"))
        .at(t + 15_002, a, "lost [0]")
        .at(t + 15_003, a, r#"poll error: KafkaError{code=_MAX_POLL_EXCEEDED,val=-147,str="Application maximum poll interval (10000ms) exceeded by 356ms"}"#)
        .mark(t + 16_000, "stop", a)
        .mark(t + 16_000, "stop", b);
    l
}

/// Lab 2 under the consumer protocol on librdkafka 2.15 (lab 5): a keeps p0 through its 20 s
/// offset 3, commits p0=4, then loses p0 at its next poll; b (or a, rejoining first) is
/// assigned p0 after that and starts at offset 4.
fn lab2_consumer(group: &str, a_rejoins: bool) -> Logs {
    let (a, b) = (&format!("{group}-a"), &format!("{group}-b"));
    let mut l = lab2_opening(group);
    let t = 2500;
    l
        .at(t + 20_000, a, "p0 offset 3")
        .at(t + 20_004, a, "commit p0=4")
        .at(t + 20_005, a, "lost [0]")
        .at(t + 20_006, a, r#"poll error: KafkaError{code=_MAX_POLL_EXCEEDED,val=-147,str="Application maximum poll interval (10000ms) exceeded by 391ms"}"#)
        ;
    let next = if a_rejoins { a } else { b };
    l.at(t + 20_480, next, "assigned [0]");
    for o in 4..10 {
        l.at(t + 21_000 + (o - 4) * 500, next, &format!("p0 offset {o}"))
            .at(
                t + 21_001 + (o - 4) * 500,
                next,
                &format!("commit p0={}", o + 1),
            );
    }
    l.mark(t + 25_000, "stop", a).mark(t + 25_000, "stop", b);
    l
}

/// The consumer protocol's own statements of lab 2, each with a run that breaks it.
fn lab2_consumer_cases(g: &str) -> Vec<(Message, String, Breaks)> {
    let (a, b) = (format!("{g}-a"), format!("{g}-b"));
    let (a2, b2, b3) = (a.clone(), b.clone(), b.clone());
    vec![
        (
            Message::from(maxpoll::Said::ConsumerKept),
            "b was assigned while a was in offset 3 and processed it too".into(),
            Box::new(move |l: &mut Logs| {
                l.without(&b, "assigned [0]")
                    .at(14_000, &b, "assigned [0]")
                    .at(14_500, &b, "p0 offset 3");
            }),
        ),
        (
            Message::from(maxpoll::Said::ConsumerKept),
            "b was assigned between a's offset 3 and its lost [0], not in offset 3".into(),
            Box::new(move |l: &mut Logs| {
                l.without(&b2, "assigned [0]")
                    .at(22_502, &b2, "assigned [0]");
            }),
        ),
        (
            Message::from(maxpoll::Said::ConsumerCommitted),
            "a's commit failed".into(),
            Box::new(move |l: &mut Logs| {
                l.replace(&a, "commit p0=4", r#"commit failed: KafkaError{code=UNKNOWN_MEMBER_ID,val=25,str="Commit failed: Broker: Unknown member"}"#);
            }),
        ),
        (
            Message::from(maxpoll::Said::ConsumerCommitted),
            "a committed p0=3 again".into(),
            Box::new(move |l: &mut Logs| {
                l.replace(&a2, "commit p0=4", "commit p0=3");
            }),
        ),
        (
            Message::from(maxpoll::Said::ConsumerAllOnce),
            "b processed offset 3 again after a".into(),
            Box::new(move |l: &mut Logs| {
                l.at(23_200, &b3, "p0 offset 3");
            }),
        ),
    ]
}

/// Lab 2's statements, each with a run that breaks it (`g` is the group): those of either
/// protocol, then the classic protocol's or the consumer protocol's own.
fn lab2_cases(g: &str, classic: bool) -> Vec<(Message, String, Breaks)> {
    let (a, b) = (format!("{g}-a"), format!("{g}-b"));
    let (a2, a3, a4, a5) = (a.clone(), a.clone(), a.clone(), a.clone());
    let mut cases: Vec<(Message, String, Breaks)> = vec![
        (
            Message::from(maxpoll::Said::MaxpollWarning),
            "no MAXPOLL line".into(),
            Box::new(move |l: &mut Logs| {
                l.without(&a, "|MAXPOLL|");
            }),
        ),
        (
            Message::from(maxpoll::Said::LostNotRevoked),
            "a revoked".into(),
            Box::new(move |l: &mut Logs| {
                l.replace(&a2, "lost [0]", "revoked [0]");
            }),
        ),
        (
            Message::from(maxpoll::Said::PollError),
            "no poll error".into(),
            Box::new(move |l: &mut Logs| {
                l.without(&a3, "poll error");
            }),
        ),
        (
            Message::from(maxpoll::Said::NeverBackwards),
            "a committed p0=6 after b's p0=10".into(),
            Box::new(move |l: &mut Logs| {
                l.at(30_000, &a4, "commit p0=6");
            }),
        ),
        (
            Message::from(maxpoll::Said::MaxpollWarning),
            "MAXPOLL came 5 s after the slow start".into(),
            Box::new(move |l: &mut Logs| {
                l.without(&a5, "|MAXPOLL|").maxpoll(7_500, &a5);
            }),
        ),
    ];
    if !classic {
        cases.extend(lab2_consumer_cases(g));
        return cases;
    }
    let (b2, b3) = (b.clone(), b.clone());
    cases.extend([
        (
            Message::from(maxpoll::Said::BTookOffset3),
            "b was assigned after a finished".into(),
            Box::new(move |l: &mut Logs| {
                l.without(&b, "assigned [0]").at(19_000, &b, "assigned [0]");
            }) as Breaks,
        ),
        (
            Message::from(maxpoll::Said::AllOffset3Twice),
            "b processed offset 4 twice".into(),
            Box::new(move |l: &mut Logs| {
                l.at(16_500, &b2, "p0 offset 4");
            }),
        ),
        (
            Message::from(maxpoll::Said::BTookOffset3),
            "b never processed offset 3".into(),
            Box::new(move |l: &mut Logs| {
                l.without(&b3, "p0 offset 3");
            }),
        ),
    ]);
    cases
}

#[test]
fn lab2_the_expelled_consumer() {
    let committed = [(0, Some(10))];
    let good = lab2("slow");
    let v = maxpoll::verdict(&good.run("slow"), &committed).unwrap();
    all_held(&v);
    assert_eq!(v.checks.len(), 8);
    assert!(
        v.ours
            .text(Lang::En)
            .starts_with("MAXPOLL 10.4 s after the slow start; 4.0 s together"),
        "{}",
        v.ours.text(Lang::En)
    );
    // The numbers ours shows rounded, as computed.
    let n = numbers(&v);
    assert_eq!(n.len(), 3, "{n:?}");
    assert_eq!(n[0], ("duplicates", 1.0));
    assert_eq!(n[1].0, "maxpoll_seconds");
    assert_eq!(format!("{:.1}", n[1].1), "10.4");
    assert_eq!(n[2].0, "overlap_seconds");
    assert_eq!(format!("{:.1}", n[2].1), "4.0");
    // No slow start, no MAXPOLL line: no overlap and no MAXPOLL time (not a NaN), duplicates still.
    let mut never = good.clone();
    never
        .without("slow-a", "p0 offset 3 slow start")
        .without("slow-a", "|MAXPOLL|");
    let v = maxpoll::verdict(&never.run("slow"), &committed).unwrap();
    assert_eq!(numbers(&v), [("duplicates", 1.0)]);
    each_break(&good, lab2_cases("slow", true), |logs| {
        maxpoll::verdict(&logs.run("slow"), &committed).unwrap()
    });
    let mut other_error = good.clone();
    other_error.replace(
        "slow-a",
        "code=UNKNOWN_MEMBER_ID,val=25",
        "code=REBALANCE_IN_PROGRESS,val=27",
    );
    fails(
        &maxpoll::verdict(&other_error.run("slow"), &committed).unwrap(),
        Message::from(maxpoll::Said::CommitFailed),
        "it failed with another error",
    );
    let v = maxpoll::verdict(&good.run("slow"), &[(0, Some(9))]).unwrap();
    fails(
        &v,
        Message::from(maxpoll::Said::FinalCommitted),
        "the broker holds 9",
    );
}

/// Lab 3: a on p0-p2, b on p3-p5, 500 messages each; c joins at 5 s and takes p4 and p5.
/// Duplicates: eager re-reads on p0, p1 and p4; cooperative only on p4; none with the revoke
/// commit.
fn lab3(assignor: Assignor, revoke_commit: bool) -> Logs {
    let rereads: &[Partition] = match (assignor, revoke_commit) {
        (_, true) => &[],
        (Assignor::Range | Assignor::Roundrobin, false) => &[0, 1, 4],
        (Assignor::CooperativeSticky, false) => &[4],
    };
    lab3_rereading(assignor, rereads)
}

/// Lab 3 with the first five offsets of `rereads` processed twice.
fn lab3_rereading(assignor: Assignor, rereads: &[Partition]) -> Logs {
    let mut l = Logs::default();
    for w in ["a", "b", "c"] {
        let name = format!("g-{w}");
        let start = if w == "c" { 5000 } else { 0 };
        l.mark(start, "start", &name)
            .at(start + 1, &name, "consumes g in group g");
    }
    l.at(10, "g-a", "assigned [0, 1, 2]")
        .at(20, "g-b", "assigned [3, 4, 5]");
    for p in 0..6 {
        let w = if p < 3 {
            "g-a"
        } else if p < 4 {
            "g-b"
        } else {
            "g-c"
        };
        l.offsets(100 + i64::from(p) * 1000, w, p, 0, 500);
    }
    let eager = assignor == Assignor::Range;
    if eager {
        l.at(5100, "g-a", "revoked [0, 1, 2]")
            .at(5100, "g-b", "revoked [3, 4, 5]")
            .at(5200, "g-a", "assigned [0, 1, 2]")
            .at(5200, "g-b", "assigned [3]");
    } else {
        l.at(5100, "g-a", "revoked []")
            .at(5100, "g-b", "revoked [4, 5]")
            .at(5200, "g-b", "assigned []");
    }
    l.at(5200, "g-c", "assigned [4, 5]");
    for &p in rereads {
        let w = if p < 3 { "g-a" } else { "g-c" };
        l.offsets(5300 + i64::from(p) * 10, w, p, 0, 5);
    }
    for w in ["a", "b", "c"] {
        l.mark(9000, "stop", &format!("g-{w}"));
    }
    l
}

#[test]
fn lab3_every_assignor_and_revoke_commit() {
    use Assignor::{CooperativeSticky as Coop, Range};
    for (assignor, revoke_commit) in [(Range, false), (Coop, false), (Range, true), (Coop, true)] {
        let good = lab3(assignor, revoke_commit);
        let verdict = |l: &Logs| assignor::verdict(&l.run("g"), assignor, revoke_commit).unwrap();
        let v = verdict(&good);
        all_held(&v);
        // Five re-read offsets on each partition of lab3's rereads.
        let dups = match (assignor, revoke_commit) {
            (_, true) => 0.0,
            (Coop, false) => 5.0,
            _ => 15.0,
        };
        assert_eq!(numbers(&v), [("duplicates", dups)], "{assignor:?}");
        let mut cases: Vec<Case> = vec![
            (
                Message::from(Shared::AllProcessed { count: 3000 }),
                "p0 offset 499 is missing",
                Box::new(|l| {
                    l.without("g-a", "p0 offset 499");
                }),
            ),
            (
                Message::from(assignor::Said::CAssigned),
                "c was assigned nothing",
                Box::new(|l| {
                    l.without("g-c", "assigned [4, 5]");
                }),
            ),
        ];
        match (assignor, revoke_commit) {
            (_, true) => cases.push((
                Message::from(Shared::NoDuplicates),
                "c re-read p5 offset 0",
                Box::new(|l| {
                    l.at(6000, "g-c", "p5 offset 0");
                }),
            )),
            (Range | Assignor::Roundrobin, false) => cases.push((
                Message::from(assignor::Said::DuplicatesOnMore),
                "only p4 was re-read",
                Box::new(|l| *l = lab3_rereading(Range, &[4])),
            )),
            (Coop, false) => {
                cases.push((
                    Message::from(assignor::Said::DuplicatesOnMovedOnly),
                    "a re-read p0",
                    Box::new(|l| *l = lab3_rereading(Coop, &[0, 4])),
                ));
                cases.push((
                    Message::from(assignor::Said::DuplicatesOnMovedOnly),
                    "nothing was re-read",
                    Box::new(|l| *l = lab3_rereading(Coop, &[])),
                ));
            }
        }
        if assignor == Range {
            cases.push((
                Message::from(assignor::Said::EveryRevoked),
                "a kept p2",
                Box::new(|l| {
                    l.replace("g-a", "revoked [0, 1, 2]", "revoked [0, 1]");
                }),
            ));
        } else {
            cases.push((
                Message::from(assignor::Said::OnlyMovedRevoked),
                "a revoked p0 too",
                Box::new(|l| {
                    l.replace("g-a", "revoked []", "revoked [0]");
                }),
            ));
        }
        each_break(&good, cases, verdict);
    }
}

/// Lab 4: a (p0, p1) and b (p2, p3); a stops at 5 s and starts again at 8 s.
fn lab4(static_membership: bool) -> Logs {
    let mut l = Logs::default();
    l.mark(0, "start", "g-a")
        .at(1, "g-a", "consumes g in group g")
        .at(10, "g-a", "assigned [0, 1]")
        .mark(100, "start", "g-b")
        .at(101, "g-b", "consumes g in group g")
        .at(200, "g-b", "assigned [2, 3]")
        .mark(5000, "stop", "g-a")
        .at(5001, "g-a", "revoked [0, 1]")
        .mark(8000, "start", "g-a")
        .at(8001, "g-a", "consumes g in group g");
    if static_membership {
        l.at(8100, "g-a", "assigned [0, 1]");
    } else {
        l.at(5100, "g-b", "revoked [2, 3]")
            .at(5200, "g-b", "assigned [0, 1, 2, 3]")
            .at(8200, "g-b", "revoked [0, 1, 2, 3]")
            .at(8300, "g-b", "assigned [2, 3]")
            .at(8300, "g-a", "assigned [0, 1]");
    }
    l.mark(12_000, "stop", "g-a").mark(12_000, "stop", "g-b");
    l
}

#[test]
fn lab4_restarts_with_and_without_static_membership() {
    for static_membership in [true, false] {
        let good = lab4(static_membership);
        let verdict = |l: &Logs| static_lab::verdict(&l.run("g"), static_membership).unwrap();
        all_held(&verdict(&good));
        let late = if static_membership {
            "08.100 g-a assigned"
        } else {
            "08.300 g-a assigned"
        };
        let mut cases: Vec<Case> = vec![(
            Message::from(static_lab::Said::BackWithinTimeout),
            "a's partitions came back 11 s after its stop",
            Box::new(move |l| {
                l.without("g-a", late).at(16_000, "g-a", "assigned [0, 1]");
            }),
        )];
        if static_membership {
            cases.push((
                Message::from(static_lab::Said::BRevokedNothing),
                "b revoked once",
                Box::new(|l| {
                    l.at(5100, "g-b", "revoked [2, 3]");
                }),
            ));
            cases.push((
                Message::from(static_lab::Said::PreviousBack),
                "a came back with p0 only",
                Box::new(|l| {
                    l.replace(
                        "g-a",
                        "08.100 g-a assigned [0, 1]",
                        "08.100 g-a assigned [0]",
                    );
                }),
            ));
        } else {
            cases.push((
                Message::from(static_lab::Said::BRevokedTwice),
                "b revoked once",
                Box::new(|l| {
                    l.without("g-b", "revoked [0, 1, 2, 3]");
                }),
            ));
            cases.push((
                Message::from(static_lab::Said::GotAgain),
                "a got nothing back",
                Box::new(|l| {
                    l.without("g-a", "08.300 g-a assigned");
                }),
            ));
        }
        each_break(&good, cases, verdict);
    }
}

#[test]
fn lab5_both_protocols() {
    for protocol in [Protocol::Classic, Protocol::Consumer] {
        let classic = protocol == Protocol::Classic;
        let mut good = lab1("g", false);
        if !classic {
            good.replace("g-a", "revoked [0, 1]", "revoked [1]")
                .without("g-a", "assigned [0]\n".trim_end());
        }
        let slow = if classic {
            lab2("g_maxpoll")
        } else {
            lab2_consumer("g_maxpoll", false)
        };
        good.0.extend(slow.0.clone());
        let committed = [(0, Some(10))];
        let verdict = |l: &Logs| {
            protocol::verdict(&l.run("g"), &l.run("g_maxpoll"), &committed, protocol).unwrap()
        };
        let v = verdict(&good);
        all_held(&v);
        assert_eq!(v.checks.len(), 15);
        // Each part's numbers under its own name: lab 2's duplicates do not hide lab 1's.
        let n = numbers(&v);
        let names: Vec<&str> = n.iter().map(|(k, _)| *k).collect();
        let mut expected = vec!["lab1.duplicates", "lab2.duplicates", "lab2.maxpoll_seconds"];
        if classic {
            expected.push("lab2.overlap_seconds");
        }
        assert_eq!(names, expected);
        // Under the consumer protocol on librdkafka 2.15, lab 2 processes nothing twice.
        assert_eq!((n[0].1, n[1].1), (50.0, if classic { 1.0 } else { 0.0 }));
        let revoke_all = &Message::from(protocol::Said::ClassicRevokedEvery);
        let revoke_moved = &Message::from(protocol::Said::ConsumerRevokedOnlyMoved);
        if classic {
            let mut one = good.clone();
            one.replace("g-a", "revoked [0, 1]", "revoked [1]");
            fails(&verdict(&one), revoke_all, "a revoked p1 only");
        } else {
            let mut both = good.clone();
            both.replace("g-a", "revoked [1]", "revoked [0, 1]");
            fails(&verdict(&both), revoke_moved, "a revoked both partitions");
        }
        // Lab 1's and lab 2's statements, broken the same ways, fail in lab 5 too.
        let mut lab1_breaks: Vec<(Message, Breaks)> = vec![
            (
                Message::from(Shared::AllProcessed { count: 1000 }),
                Box::new(|l| {
                    l.without("g-b", "p1 offset 499");
                }),
            ),
            (
                Message::from(revoke::Said::OneMoved),
                Box::new(|l| {
                    l.replace("g-b", "assigned [1]", "assigned [0, 1]");
                }),
            ),
            (
                Message::from(revoke::Said::DuplicatesBelowCommitEvery),
                Box::new(|l| {
                    l.offsets(2150, "g-b", 1, 0, 100);
                }),
            ),
            (
                Message::from(revoke::Said::DuplicatesOnlyMoved),
                Box::new(|l| {
                    l.at(2900, "g-a", "p0 offset 5");
                }),
            ),
            (
                Message::from(revoke::Said::BeganAtLastCommit),
                Box::new(|l| {
                    l.without("g-b", "p1 offset 100");
                }),
            ),
        ];
        let revoked = if classic {
            "revoked [0, 1]"
        } else {
            "revoked [1]"
        };
        lab1_breaks.push((
            Message::from(revoke::Said::HandedBack),
            Box::new(move |l| {
                l.without("g-a", revoked);
            }),
        ));
        let lab1_cases = lab1_breaks
            .into_iter()
            .map(|(statement, breaks)| (statement, "as in lab 1", breaks))
            .collect();
        each_break(&good, lab1_cases, verdict);
        each_break(&good, lab2_cases("g_maxpoll", classic), verdict);
        if !classic {
            // a rejoins before b's next heartbeat and gets p0 back: as good a hand-over.
            let mut rejoined = good.clone();
            rejoined.0.retain(|name, _| !name.starts_with("g_maxpoll"));
            rejoined.0.extend(lab2_consumer("g_maxpoll", true).0);
            all_held(&verdict(&rejoined));
        }
    }
}

/// What the database would hold: one row per processing with `plain`, per message with
/// `idempotent`, in krb-dups' report.
pub(crate) fn effects(pairs: &[(Partition, Offset)], once: bool) -> krb_dups::Report {
    let mut counts = krb_dups::Counts::new();
    let mut seen = std::collections::BTreeSet::new();
    for &(p, o) in pairs {
        if !once || seen.insert((p, o)) {
            counts.add(b"w", p, o);
        }
    }
    krb_dups::analyse(&mut counts, None)
}

/// Every processing in a run's logs, in order.
fn processings(run: &Run) -> Vec<(Partition, Offset)> {
    run.logs.iter().flat_map(|l| l.processed()).collect()
}

#[test]
fn lab6_plain_effects_repeat_where_processing_does() {
    use crate::idempotent::{Said, Scenario};
    let repeat = &Message::from(Said::RowsAsProcessings);
    let lost = &Message::from(Said::EveryEffect { messages: 1000 });
    let run = lab1("g", false).run("g");
    let all = processings(&run);
    all_held(
        &verdict(
            &run,
            &effects(&all, false),
            lab6(Kind::Plain, Scenario::Revoke),
        )
        .unwrap(),
    );
    let one_row_fewer: Vec<_> = all.iter().skip(1).copied().collect();
    let missing = all
        .iter()
        .filter(|&&p| p != (0, 7))
        .copied()
        .collect::<Vec<_>>();
    for (rows, statement, broken) in [
        (effects(&all, true), repeat, "the rows are once per message"),
        (effects(&missing, false), lost, "p0 offset 7 has no row"),
        (
            effects(&one_row_fewer, false),
            lost,
            "the first row is missing",
        ),
    ] {
        fails(
            &verdict(&run, &rows, lab6(Kind::Plain, Scenario::Revoke)).unwrap(),
            statement,
            broken,
        );
    }
    // The rows a plain effect leaves: one per processing of the run.
    let plain = |run: &Run, scenario| {
        let rows = effects(&processings(run), false);
        verdict(run, &rows, lab6(Kind::Plain, scenario)).unwrap()
    };
    // Lab 1's duplicates are 0 to 99: nothing is processed twice when a's last commit came just
    // before its revoke, and its rows then repeat nothing either.
    all_held(&plain(&lab1("g", true).run("g"), Scenario::Revoke));
    // Lab 2's offset 3 is processed twice in every run: a run without it shows nothing.
    all_held(&plain(&lab2("slow").run("slow"), Scenario::Maxpoll));
    let mut once = lab2("slow");
    once.replace(
        "slow-a",
        "17.500 slow-a p0 offset 3",
        "17.500 slow-a commit p0=4",
    );
    fails(
        &plain(&once.run("slow"), Scenario::Maxpoll),
        Message::from(Said::EffectsRepeat),
        "nothing was processed twice",
    );
}

#[test]
fn lab6_idempotent_effects_are_there_once() {
    use crate::idempotent::Scenario;
    let twice = &Message::from(crate::idempotent::Said::NoEffectTwice);
    let logged = &Message::from(crate::idempotent::Said::SecondsAlreadyApplied);
    let late = &Message::from(crate::idempotent::Said::LateAlreadyApplied);
    // Lab 1: b's re-read of p1 100..149 finds the rows a wrote.
    let mut logs = lab1("g", false);
    for o in 100..150 {
        logs.replace(
            "g-b",
            &format!(" g-b p1 offset {o}"),
            &format!(" g-b p1 offset {o} already applied"),
        );
    }
    let run = logs.run("g");
    let all = processings(&run);
    all_held(
        &verdict(
            &run,
            &effects(&all, true),
            lab6(Kind::Idempotent, Scenario::Revoke),
        )
        .unwrap(),
    );
    let v = verdict(
        &run,
        &effects(&all, false),
        lab6(Kind::Idempotent, Scenario::Revoke),
    )
    .unwrap();
    fails(&v, twice, "the rows repeat");
    let mut unlogged = logs.clone();
    unlogged.replace(
        "g-b",
        " g-b p1 offset 120 already applied",
        " g-b p1 offset 120",
    );
    let run2 = unlogged.run("g");
    let v = verdict(
        &run2,
        &effects(&all, true),
        lab6(Kind::Idempotent, Scenario::Revoke),
    )
    .unwrap();
    fails(&v, logged, "one re-read is logged as a plain processing");
    // Lab 2: b finishes offset 3 first; a's late processing finds b's row.
    let mut slow = lab2("slow");
    slow.replace(
        "slow-a",
        "17.500 slow-a p0 offset 3",
        "17.500 slow-a p0 offset 3 already applied",
    );
    let run = slow.run("slow");
    let all = processings(&run);
    all_held(
        &verdict(
            &run,
            &effects(&all, true),
            lab6(Kind::Idempotent, Scenario::Maxpoll),
        )
        .unwrap(),
    );
    let mut swapped = lab2("slow");
    swapped.replace(
        "slow-b",
        "14.000 slow-b p0 offset 3",
        "14.000 slow-b p0 offset 3 already applied",
    );
    let run = swapped.run("slow");
    let v = verdict(
        &run,
        &effects(&all, true),
        lab6(Kind::Idempotent, Scenario::Maxpoll),
    )
    .unwrap();
    fails(
        &v,
        late,
        "b's processing, not a's, is the one logged as already applied",
    );
    let lost = &Message::from(crate::idempotent::Said::EveryEffect { messages: 10 });
    let fewer: Vec<_> = all.iter().filter(|&&p| p != (0, 9)).copied().collect();
    let v = verdict(
        &slow.run("slow"),
        &effects(&fewer, true),
        lab6(Kind::Idempotent, Scenario::Maxpoll),
    )
    .unwrap();
    fails(&v, lost, "offset 9 has no row");
}

#[test]
fn lab6_db_offsets_start_where_the_database_says() {
    use crate::idempotent::Scenario;
    let twice = &Message::from(crate::idempotent::Said::NoEffectTwice);
    let again = &Message::from(crate::idempotent::Said::NothingTwice);
    let refused = &Message::from(crate::idempotent::Said::LateRefused);
    let lost = &Message::from(crate::idempotent::Said::EveryEffect { messages: 10 });
    let lab = lab6(Kind::DbOffsets, Scenario::Revoke);
    // Lab 1: b takes p1 over at 150, where a's last transaction left it.
    let run = lab1("g", true).run("g");
    let all = processings(&run);
    all_held(&verdict(&run, &effects(&all, false), lab).unwrap());
    let run = lab1("g", false).run("g");
    let all = processings(&run);
    let v = verdict(&run, &effects(&all, true), lab).unwrap();
    fails(&v, again, "b re-read p1 100..149 from a's Kafka commit");
    let v = verdict(&run, &effects(&all, false), lab).unwrap();
    fails(&v, twice, "the re-read wrote its rows again");
    // Lab 2: a's late offset 3 is refused; its row is not there.
    let lab = lab6(Kind::DbOffsets, Scenario::Maxpoll);
    let mut slow = lab2("slow");
    slow.replace(
        "slow-a",
        "17.500 slow-a p0 offset 3",
        "17.500 slow-a p0 offset 3 refused",
    );
    let run = slow.run("slow");
    let applied: Vec<_> = run
        .logs
        .iter()
        .flat_map(|l| l.lines.iter().flat_map(|e| e.lines()))
        .filter(|(_, e)| matches!(e, krb_log::logline::Event::Processed { .. }))
        .filter_map(|(_, e)| e.completion())
        .collect();
    all_held(&verdict(&run, &effects(&applied, false), lab).unwrap());
    let v = verdict(&run, &effects(&processings(&run), false), lab).unwrap();
    fails(&v, twice, "a's late row was written after all");
    let fewer: Vec<_> = applied.iter().filter(|&&p| p != (0, 9)).copied().collect();
    fails(
        &verdict(&run, &effects(&fewer, false), lab).unwrap(),
        lost,
        "offset 9 has no row",
    );
    let run = lab2("slow").run("slow");
    let v = verdict(&run, &effects(&applied, false), lab).unwrap();
    fails(&v, refused, "a's late offset 3 is logged as applied");
}

/// Lab 6's verdict of a run whose group ended committed at p0=10, as lab 2's does.
fn verdict(run: &Run, effects: &krb_dups::Report, lab: crate::Lab) -> anyhow::Result<Verdict> {
    crate::idempotent::verdict(run, effects, &[(0, Some(10))], lab)
}

#[test]
fn lab6_kafka_eos_output_once_and_the_zombie_fenced() {
    use crate::idempotent::Scenario;
    let once = &Message::from(crate::idempotent::Said::OutputOnce);
    let fenced = &Message::from(crate::idempotent::Said::LateAborted);
    let ten = &Message::from(maxpoll::Said::FinalCommitted);
    // Lab 1: on revoke, a's open transaction commits its output and its offsets together.
    let lab = lab6(Kind::KafkaEos, Scenario::Revoke);
    let run = lab1("g", true).run("g");
    let all = processings(&run);
    all_held(&verdict(&run, &effects(&all, false), lab).unwrap());
    let twice: Vec<_> = all.iter().chain(&all[..5]).copied().collect();
    fails(
        &verdict(&run, &effects(&twice, false), lab).unwrap(),
        once,
        "five outputs are there twice",
    );
    // Lab 2: a's transaction with offset 3 is refused by the group and aborted.
    let lab = lab6(Kind::KafkaEos, Scenario::Maxpoll);
    let mut slow = lab2("slow");
    slow.replace("slow-a", " commit failed: ", " transaction aborted: ");
    let run = slow.run("slow");
    let outputs: Vec<_> = run
        .member("b")
        .unwrap()
        .processed()
        .chain(
            run.member("a")
                .unwrap()
                .processed()
                .filter(|&p| p != (0, 3)),
        )
        .collect();
    let v = verdict(&run, &effects(&outputs, false), lab).unwrap();
    all_held(&v);
    fails(
        &verdict(&run, &effects(&processings(&run), false), lab).unwrap(),
        once,
        "a's late output of offset 3 was committed after all",
    );
    fails(
        &crate::idempotent::verdict(&run, &effects(&outputs, false), &[(0, Some(4))], lab).unwrap(),
        ten,
        "a's commit of p0=4 landed after b's p0=10",
    );
    let plain = lab2("slow").run("slow");
    fails(
        &verdict(&plain, &effects(&outputs, false), lab).unwrap(),
        fenced,
        "a's log has no aborted transaction",
    );
}

/// Lab 6's variant of `effect` and `scenario`, on SQLite.
fn lab6(effect: Kind, scenario: crate::idempotent::Scenario) -> crate::Lab {
    crate::Lab::Idempotent {
        effect,
        scenario,
        postgres: false,
    }
}

#[test]
fn lab6_an_already_applied_line_written_again_at_once_counts_twice() {
    use crate::idempotent::Scenario;
    let mut logs = lab1("g", false);
    for o in 100..150 {
        logs.replace(
            "g-b",
            &format!(" g-b p1 offset {o}"),
            &format!(" g-b p1 offset {o} already applied"),
        );
    }
    // The copy ends a run, the line it copies begins the next; the verdict counts both.
    let b = logs.0.get_mut("g-b").unwrap();
    let i = b
        .iter()
        .position(|l| l.ends_with(" g-b p1 offset 120 already applied"))
        .unwrap();
    b.insert(i, b[i].clone());
    let run = logs.run("g");
    assert!(run
        .logs
        .iter()
        .flat_map(|l| &l.lines)
        .any(|e| e.run && e.nth(e.times - 1).completion() == Some((1, 120))));
    all_held(
        &verdict(
            &run,
            &effects(&processings(&run), true),
            lab6(Kind::Idempotent, Scenario::Revoke),
        )
        .unwrap(),
    );
}

#[test]
fn runs_of_completion_lines_kept_as_one_entry_change_no_verdict() {
    let same = |logs: &Logs, group: &str, verdict: &dyn Fn(&Run) -> Verdict| {
        assert_eq!(verdict(&logs.run(group)), verdict(&logs.each_line(group)));
    };
    let entries = |r: &Run| r.logs.iter().map(|l| l.lines.len()).sum::<usize>();
    for revoke_commit in [false, true] {
        let mut logs = lab1("g", revoke_commit);
        assert!(entries(&logs.run("g")) * 10 < entries(&logs.each_line("g")));
        same(&logs, "g", &|r| revoke::verdict(r, revoke_commit).unwrap());
        // A run cut short, and a processing out of its place.
        logs.without("g-b", "p1 offset 150")
            .at(2900, "g-a", "p0 offset 5");
        same(&logs, "g", &|r| revoke::verdict(r, revoke_commit).unwrap());
        for assignor in [Assignor::Range, Assignor::CooperativeSticky] {
            same(&lab3(assignor, revoke_commit), "g", &|r| {
                assignor::verdict(r, assignor, revoke_commit).unwrap()
            });
        }
    }
    let committed = [(0, Some(10))];
    same(&lab2("slow"), "slow", &|r| {
        maxpoll::verdict(r, &committed).unwrap()
    });
    for static_membership in [true, false] {
        same(&lab4(static_membership), "g", &|r| {
            static_lab::verdict(r, static_membership).unwrap()
        });
    }
}
