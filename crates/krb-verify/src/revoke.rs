//! Lab 1, 01-revoke.sh: without a commit in the revoke callback the next owner re-reads from the
//! last commit; with one, nobody does.

use anyhow::Result;
use krb_dups::Run as Span;
use krb_log::logline::{Event, Partition};

use crate::facts::{assigned, last_commit, last_processed, seconds, summary, Run};
use crate::{shown, Verdict};

/// Lab 1's verdict for a run.
pub fn verdict(run: &Run, revoke_commit: bool) -> Result<Verdict> {
    let (variant, article) = if revoke_commit {
        ("revcommit", "0 duplicates")
    } else {
        ("nocommit", "82 duplicates on p1 (400..481)")
    };
    let mut v = Verdict::new(1, "revoke", variant, &run.group, article);
    checks(&mut v, run, revoke_commit)?;
    v.ours = summary(&run.report)
        + &run
            .report
            .runs
            .first()
            .map(|r| format!(" ({}..{})", r.first, r.last))
            .unwrap_or_default();
    Ok(v)
}

/// Lab 1's statements; lab 5 checks them too (`v.lab` says which lab reports). Sets `v.ours`
/// to the duplicates and how soon b processed its first message.
pub fn checks(v: &mut Verdict, run: &Run, revoke_commit: bool) -> Result<()> {
    let a = run.member("a")?;
    let b = run.member("b")?;
    let report = &run.report;
    v.check(
        "all 1000 messages processed",
        report.unique == 1000,
        format!("unique {}", report.unique),
    );
    let b_start = b.time_of(0, |e| e == &Event::Start);
    // The rebalance b's join causes, not the revoke of a's clean stop at the end.
    let a_stop = a.find(0, |e| e == &Event::Stop).unwrap_or(a.lines.len());
    let revoke = a.find(0, |e| matches!(e, Event::Revoked(ps) if !ps.is_empty()));
    let revoke = revoke.filter(|&i| i < a_stop && b_start.is_some_and(|s| a.lines[i].at >= s));
    let reassigned = revoke.and_then(|r| a.find(r + 1, |e| matches!(e, Event::Assigned(_))));
    let moved: Vec<Partition> = b
        .lines
        .iter()
        .find_map(|l| assigned(&l.event).filter(|ps| !ps.is_empty()).cloned())
        .unwrap_or_default();
    v.check(
        "a handed partitions back after b joined",
        revoke.is_some(),
        match revoke {
            Some(i) => format!("a {}", a.lines[i].event),
            None => "a logged no revoke after b started and before its stop".into(),
        },
    );
    if v.lab == 1 {
        v.check(
            "a logged revoked [0, 1], then assigned [..]",
            revoke.is_some_and(|i| a.lines[i].event == Event::Revoked(vec![0, 1]))
                && reassigned.is_some(),
            format!(
                "{}, reassigned: {}",
                revoke.map_or("no revoke".into(), |i| a.lines[i].event.to_string()),
                reassigned.is_some()
            ),
        );
    }
    v.check(
        "b was assigned the one partition that moved",
        moved.len() == 1,
        format!("b assigned {}", shown::list(&moved)),
    );
    let b_first_at = b
        .lines
        .iter()
        .find(|l| matches!(l.event, Event::Processed { .. }))
        .map(|l| l.at);
    v.number(crate::verdict::DUPLICATES, report.duplicates() as f64);
    v.ours = match (b_start, b_first_at) {
        (Some(start), Some(first)) => format!(
            "{}; b's first message {:.2} s after its start",
            summary(report),
            seconds(start, first)
        ),
        _ => summary(report),
    };
    let (Some(revoke), [moved]) = (revoke, moved.as_slice()) else {
        return Ok(());
    };
    let reassigned = reassigned.unwrap_or(a.lines.len());
    let moved = *moved;
    let a_last = last_processed(&a.lines[..revoke], moved);
    let b_first = b.processed().find(|(p, _)| *p == moved).map(|(_, o)| o);
    let dups = report.duplicates();
    if revoke_commit {
        v.check("no duplicates", dups == 0, format!("{dups} duplicates"));
        let n = last_commit(&a.lines[revoke..reassigned], moved);
        v.check(
            "a committed the moved partition in the revoke callback, up to its last offset",
            n.is_some() && n == a_last.map(|o| o + 1),
            format!(
                "commit p{moved}={}, a's last offset {}",
                shown::opt(n),
                shown::opt(a_last)
            ),
        );
        v.check(
            "b began the moved partition at that commit",
            n.is_some() && b_first == n,
            format!("b's first offset on p{moved}: {}", shown::opt(b_first)),
        );
    } else {
        let n = last_commit(&a.lines[..revoke], moved).unwrap_or(0);
        v.check(
            "duplicates between 0 and commit-every minus 1 (99)",
            dups <= 99,
            format!("{dups} duplicates"),
        );
        let expected: Vec<Span> = match a_last {
            Some(last) if last >= n => vec![Span {
                partition: moved,
                first: n,
                last,
                times: 2,
            }],
            _ => vec![],
        };
        v.check(
            "duplicates only on the moved partition, from a's last commit to a's last offset",
            report.runs == expected,
            format!(
                "runs {}; a's last commit p{moved}={n}, last offset {}",
                shown::opt((!report.runs.is_empty()).then(|| {
                    report
                        .runs
                        .iter()
                        .map(|r| format!("p{} {}..{}", r.partition, r.first, r.last))
                        .collect::<Vec<_>>()
                        .join(", ")
                })),
                shown::opt(a_last)
            ),
        );
        v.check(
            "b began the moved partition at a's last commit",
            b_first == Some(n),
            format!(
                "b's first offset on p{moved}: {}, a's last commit {n}",
                shown::opt(b_first)
            ),
        );
    }
    Ok(())
}
