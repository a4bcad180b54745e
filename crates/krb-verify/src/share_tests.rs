//! Lab 8's statements, each held on a crafted run that keeps them all and reported FAILED on a
//! run that breaks exactly it.

use krb_log::logline::{Offset, Partition};

use super::{verdict, Scenario};
use crate::messages::Message;
use crate::tests::{all_held, each_break, Case, Logs};
use crate::Verdict;
use krb_cli::lang::Lang;

/// A batch of member `name`: acquired at `ms` (delivery `delivery`), each record processed and
/// acknowledged `ack` one millisecond apart, then, with `commit`, the acknowledgements committed.
#[allow(clippy::too_many_arguments)]
fn batch(
    l: &mut Logs,
    ms: i64,
    name: &str,
    partition: Partition,
    offsets: std::ops::Range<Offset>,
    delivery: u16,
    ack: &str,
    commit: bool,
) -> i64 {
    for o in offsets.clone() {
        l.at(
            ms,
            name,
            &format!("acquired p{partition} offset {o} delivery {delivery}"),
        );
    }
    let mut t = ms;
    for o in offsets.clone() {
        t += 1;
        l.at(t, name, &format!("p{partition} offset {o}"));
        l.at(t, name, &format!("{ack} p{partition} offset {o}"));
    }
    if commit && !offsets.is_empty() {
        t += 1;
        let last = offsets.end - 1;
        l.at(
            t,
            name,
            &format!("acks committed p{partition} [{}..{last}]", offsets.start),
        );
    }
    t + 1
}

fn opening(l: &mut Logs, ms: i64, name: &str, group: &str) {
    l.mark(ms, "start", name).at(
        ms + 1,
        name,
        &format!("consumes {group} in share group {group}"),
    );
}

fn check(l: &Logs, scenario: Scenario) -> Verdict {
    verdict(&l.run("g"), scenario, 3).unwrap()
}

/// Join: a alone reads p0 and p1 0..100; b starts at 5 s and reads p1 100..500, a p0 to 500.
fn join() -> Logs {
    let mut l = Logs::default();
    opening(&mut l, 0, "g-a", "g");
    let mut t = 10;
    for from in (0..100).step_by(20) {
        t = batch(&mut l, t, "g-a", 0, from..from + 20, 1, "accepted", true);
        t = batch(&mut l, t, "g-a", 1, from..from + 20, 1, "accepted", true);
    }
    opening(&mut l, 5000, "g-b", "g");
    let (mut ta, mut tb) = (6000, 6000);
    for from in (100..500).step_by(20) {
        ta = batch(&mut l, ta, "g-a", 0, from..from + 20, 1, "accepted", true);
        tb = batch(&mut l, tb, "g-b", 1, from..from + 20, 1, "accepted", true);
    }
    l.mark(9000, "stop", "g-a").mark(9000, "stop", "g-b");
    l
}

#[test]
fn offsets_committed_that_were_never_acquired_are_not_kept() {
    let mut l = join();
    // A million offsets no member acquired, in one line of 40 bytes.
    l.at(8500, "g-a", "acks committed p0 [1000000..2048575]");
    let records = super::Records::of(&l.run("g").logs);
    assert_eq!(records.committed.len(), 1000);
    all_held(&check(&l, Scenario::Join));
}

#[test]
fn join_holds_and_each_statement_fails_alone() {
    let good = join();
    let v = check(&good, Scenario::Join);
    all_held(&v);
    assert_eq!(v.checks.len(), 4);
    assert_eq!(v.ours.text(Lang::En), "0 duplicates; b took 400 of 1000");
    let cases: Vec<Case> = vec![
        (
            Message::from(super::Said::AllRecords { count: 1000 }),
            "b never processed p1 offset 499",
            Box::new(|l| {
                l.without("g-b", "g-b p1 offset 499");
            }),
        ),
        (
            Message::from(super::Said::NoneTwice),
            "b processed a's p0 offset 5 again",
            Box::new(|l| {
                l.at(8000, "g-b", "p0 offset 5");
            }),
        ),
        (
            Message::from(super::Said::AcceptedOnce),
            "a's acceptance of p0 0..19 was never committed",
            Box::new(|l| {
                l.without("g-a", "acks committed p0 [0..19]");
            }),
        ),
        (
            Message::from(super::Said::AcceptedOnce),
            "b committed p1 100..119 twice",
            Box::new(|l| {
                l.at(8000, "g-b", "accepted p1 offset 100");
                l.at(8001, "g-b", "acks committed p1 [100]");
            }),
        ),
        (
            Message::from(super::Said::AcceptedOnce),
            "b released p1 offset 200 instead of accepting it",
            Box::new(|l| {
                l.replace("g-b", "accepted p1 offset 200", "released p1 offset 200");
            }),
        ),
        (
            Message::from(super::Said::NoHandOver),
            "b read only a partition a never read",
            Box::new(|l| {
                l.replace("g-b", " p1 ", " p2 ");
            }),
        ),
        (
            Message::from(super::Said::NoHandOver),
            "a handed p1 back",
            Box::new(|l| {
                l.at(5500, "g-a", "revoked [1]");
            }),
        ),
    ];
    each_break(&good, cases, |l| check(l, Scenario::Join));
}

/// Kill: a reads p0 from 0 and dies at offset 110 of its batch 100..119 (acquired, 100..110
/// processed and accepted, nothing committed); b reads p1, then gets 100..119 again (delivery
/// 2) and the rest of p0.
fn kill() -> Logs {
    let mut l = Logs::default();
    opening(&mut l, 0, "g-a", "g");
    opening(&mut l, 0, "g-b", "g");
    let mut t = 10;
    for from in (0..100).step_by(20) {
        t = batch(&mut l, t, "g-a", 0, from..from + 20, 1, "accepted", true);
    }
    for o in 100..120 {
        l.at(t, "g-a", &format!("acquired p0 offset {o} delivery 1"));
    }
    for o in 100..=110 {
        t += 1;
        l.at(t, "g-a", &format!("p0 offset {o}"));
        l.at(t, "g-a", &format!("accepted p0 offset {o}"));
    }
    let mut tb = 10;
    for from in (0..500).step_by(20) {
        tb = batch(&mut l, tb, "g-b", 1, from..from + 20, 1, "accepted", true);
    }
    let mut tb = batch(&mut l, 8000, "g-b", 0, 100..120, 2, "accepted", true);
    for from in (120..500).step_by(20) {
        tb = batch(&mut l, tb, "g-b", 0, from..from + 20, 1, "accepted", true);
    }
    l.mark(20000, "stop", "g-b");
    l
}

#[test]
fn kill_holds_and_each_statement_fails_alone() {
    let good = kill();
    let v = check(&good, Scenario::Kill);
    all_held(&v);
    assert_eq!(v.checks.len(), 5);
    assert!(
        v.ours
            .text(Lang::En)
            .starts_with("11 duplicates on p0; 20 records back "),
        "{}",
        v.ours.text(Lang::En)
    );
    let cases: Vec<Case> = vec![
        (
            Message::from(super::Said::AllRecords { count: 1000 }),
            "nobody processed p0 offset 499",
            Box::new(|l| {
                l.without("g-b", "g-b p0 offset 499");
            }),
        ),
        (
            Message::from(super::Said::KilledHolding),
            "a's last batch was committed before it died",
            Box::new(|l| {
                l.at(7000, "g-a", "acks committed p0 [100..119]");
            }),
        ),
        (
            Message::from(super::Said::CameAgain),
            "b got p0 offset 105 for the third time",
            Box::new(|l| {
                l.replace(
                    "g-b",
                    "p0 offset 105 delivery 2",
                    "p0 offset 105 delivery 3",
                );
            }),
        ),
        (
            Message::from(super::Said::CameAgain),
            "a record a had committed came again",
            Box::new(|l| {
                l.replace(
                    "g-b",
                    "p0 offset 120 delivery 1",
                    "p0 offset 120 delivery 2",
                );
            }),
        ),
        (
            Message::from(super::Said::DuplicatesWhereDied),
            "b processed p1 offset 7 twice",
            Box::new(|l| {
                l.at(19000, "g-b", "p1 offset 7");
            }),
        ),
        (
            Message::from(super::Said::AcceptedOnce),
            "b's acceptance of p0 100..119 was refused",
            Box::new(|l| {
                l.replace(
                    "g-b",
                    "acks committed p0 [100..119]",
                    "acks failed p0 [100..119]: KafkaError{code=INVALID_RECORD_STATE,val=121,str=\"x\"}",
                );
            }),
        ),
    ];
    each_break(&good, cases, |l| check(l, Scenario::Kill));
}

/// Lock: a acquires 0..9, commits each; offset 3 takes 12 s; b gets 3..9 again (delivery 2)
/// after 5 s; a's late acknowledgements are committed.
fn lock() -> Logs {
    let mut l = Logs::default();
    opening(&mut l, 0, "g-a", "g");
    for o in 0..10 {
        l.at(10, "g-a", &format!("acquired p0 offset {o} delivery 1"));
    }
    let mut t = 100;
    let record = |l: &mut Logs, t: &mut i64, name: &str, o: Offset| {
        *t += 500;
        l.at(*t, name, &format!("p0 offset {o}"));
        l.at(*t, name, &format!("accepted p0 offset {o}"));
        l.at(*t + 2, name, &format!("acks committed p0 [{o}]"));
    };
    for o in 0..3 {
        record(&mut l, &mut t, "g-a", o);
    }
    l.at(t + 3, "g-a", "p0 offset 3 slow start");
    opening(&mut l, t + 100, "g-b", "g");
    let mut tb = t + 5000;
    for o in 3..10 {
        l.at(tb, "g-b", &format!("acquired p0 offset {o} delivery 2"));
    }
    for o in 3..10 {
        record(&mut l, &mut tb, "g-b", o);
    }
    t += 12_000;
    for o in 3..10 {
        record(&mut l, &mut t, "g-a", o);
    }
    l.mark(t + 1000, "stop", "g-a")
        .mark(t + 1000, "stop", "g-b");
    l
}

#[test]
fn lock_holds_and_each_statement_fails_alone() {
    let good = lock();
    let v = check(&good, Scenario::Lock);
    all_held(&v);
    assert_eq!(v.checks.len(), 4);
    assert_eq!(
        v.ours.text(Lang::En),
        "7 duplicates on p0; a's late acknowledgement: committed, no error"
    );
    let cases: Vec<Case> = vec![
        (
            Message::from(super::Said::AllRecords { count: 10 }),
            "nobody processed offset 9",
            Box::new(|l| {
                l.without("g-a", "g-a p0 offset 9");
                l.without("g-b", "g-b p0 offset 9");
            }),
        ),
        (
            Message::from(super::Said::ReceivedWhileIn),
            "b's offset 3 was a first delivery",
            Box::new(|l| {
                l.replace("g-b", "p0 offset 3 delivery 2", "p0 offset 3 delivery 1");
            }),
        ),
        (
            Message::from(super::Said::ReceivedWhileIn),
            "b got offset 3 only after a had finished it",
            Box::new(|l| {
                l.without("g-b", "acquired p0 offset 3 delivery 2");
                l.at(15_000, "g-b", "acquired p0 offset 3 delivery 2");
            }),
        ),
        (
            Message::from(super::Said::LateAnswered),
            "a logged no answer for offset 3",
            Box::new(|l| {
                l.without("g-a", "acks committed p0 [3]");
            }),
        ),
        (
            Message::from(super::Said::DuplicatesDeliveredAgain),
            "a stopped after offset 3: 4..9 were delivered again but processed once",
            Box::new(|l| {
                for o in 4..10 {
                    l.without("g-a", &format!("g-a p0 offset {o}"));
                }
            }),
        ),
    ];
    each_break(&good, cases, |l| check(l, Scenario::Lock));
    // The broker's refusal is an answer too, and the verdict says which.
    let mut refused = good.clone();
    refused.replace(
        "g-a",
        "acks committed p0 [3]",
        "acks failed p0 [3]: KafkaError{code=INVALID_RECORD_STATE,val=121,str=\"x\"}",
    );
    let v = check(&refused, Scenario::Lock);
    all_held(&v);
    assert!(
        v.ours
            .text(Lang::En)
            .ends_with("failed with INVALID_RECORD_STATE"),
        "{}",
        v.ours.text(Lang::En)
    );
}

/// Reject: one member; offset 3 released at each of its 3 deliveries, offset 6 rejected.
fn reject() -> Logs {
    let mut l = Logs::default();
    opening(&mut l, 0, "g-a", "g");
    for o in 0..10 {
        l.at(10, "g-a", &format!("acquired p0 offset {o} delivery 1"));
    }
    for o in 0..10 {
        let ack = match o {
            3 => "released",
            6 => "rejected",
            _ => "accepted",
        };
        l.at(100 + o, "g-a", &format!("p0 offset {o}"));
        l.at(100 + o, "g-a", &format!("{ack} p0 offset {o}"));
    }
    l.at(200, "g-a", "acks committed p0 [0..9]");
    for delivery in 2..=3u16 {
        let t = 200 + 100 * i64::from(delivery);
        batch(&mut l, t, "g-a", 0, 3..4, delivery, "released", true);
    }
    l.mark(3000, "stop", "g-a");
    l
}

#[test]
fn reject_holds_and_each_statement_fails_alone() {
    let good = reject();
    let v = check(&good, Scenario::Reject);
    all_held(&v);
    assert_eq!(v.checks.len(), 4);
    assert_eq!(
        v.ours.text(Lang::En),
        "offset 3 delivered 3 times; offset 6 delivered once"
    );
    let cases: Vec<Case> = vec![
        (
            Message::from(super::Said::AllRecords { count: 10 }),
            "offset 9 was never processed",
            Box::new(|l| {
                l.without("g-a", "g-a p0 offset 9");
            }),
        ),
        (
            Message::from(super::Said::Released {
                offset: 3,
                limit: 3,
            }),
            "offset 3 came a fourth time",
            Box::new(|l| {
                batch(l, 2000, "g-a", 0, 3..4, 4, "released", true);
            }),
        ),
        (
            Message::from(super::Said::Released {
                offset: 3,
                limit: 3,
            }),
            "offset 3 was accepted at its third delivery",
            Box::new(|l| {
                l.without("g-a", "offset 3 delivery 3");
                batch(l, 500, "g-a", 0, 3..4, 3, "accepted", true);
            }),
        ),
        (
            Message::from(super::Said::Rejected { offset: 6 }),
            "offset 6 was accepted",
            Box::new(|l| {
                l.replace("g-a", "rejected p0 offset 6", "accepted p0 offset 6");
            }),
        ),
        (
            Message::from(super::Said::Rejected { offset: 6 }),
            "offset 6 came again",
            Box::new(|l| {
                batch(l, 2000, "g-a", 0, 6..7, 2, "rejected", true);
            }),
        ),
        (
            Message::from(super::Said::AcceptedOnce),
            "offset 2 was released",
            Box::new(|l| {
                l.replace("g-a", "accepted p0 offset 2", "released p0 offset 2");
            }),
        ),
    ];
    each_break(&good, cases, |l| check(l, Scenario::Reject));
}

#[test]
fn lines_that_do_not_parse_are_reported_not_dropped() {
    let mut logs = reject();
    logs.at(2500, "g-a", "acquired p0 offset 3 delivery x");
    let run = logs.run("g");
    assert!(
        run.skipped().iter().any(|s| s.contains("delivery")),
        "{:?}",
        run.skipped()
    );
}
