//! Lab 5, 05-protocol.sh: labs 1 and 2 again under the classic or the KIP-848 consumer group
//! protocol.

use anyhow::Result;
use krb_log::logline::{Event, Offset, Partition};

use crate::facts::{revoked, Run, NO_LINE};
use crate::{maxpoll, revoke, shown, Protocol, Verdict};

/// The group of lab 5's second part, lab 2's scenario.
pub fn maxpoll_group(group: &str) -> String {
    format!("{group}_maxpoll")
}

/// Lab 5's verdict: `lab1` ran lab 1's scenario in the group, `lab2` lab 2's in
/// [`maxpoll_group`], whose committed offsets are `committed`.
pub fn verdict(
    lab1: &Run,
    lab2: &Run,
    committed: &[(Partition, Option<Offset>)],
    protocol: Protocol,
) -> Result<Verdict> {
    let classic = protocol == Protocol::Classic;
    let mut v = Verdict::new(
        5,
        "protocol",
        &krb_kafka::group::value_name(protocol),
        &lab1.group,
        if classic {
            "classic: see labs 1 and 2"
        } else {
            "not in the article"
        },
    );
    revoke::checks(&mut v, lab1, false)?;
    let first = v.ours.clone();
    // Both parts name their numbers alike (duplicates): each keeps its part's name before it.
    let lab1_numbers = std::mem::take(&mut v.numbers);
    let a = lab1.member("a")?;
    let b_start = lab1
        .member("b")?
        .time_of(0, |e| e == &Event::Start)
        .ok_or_else(|| Run::missing(NO_LINE[0], "b"))?;
    let first_revoke = a
        .lines
        .iter()
        .find(|l| l.at >= b_start && revoked(&l.event).is_some())
        .map(|l| l.event.clone());
    let moved: Vec<Partition> = lab1.report.runs.iter().map(|r| r.partition).collect();
    if classic {
        v.check(
            "classic: a revoked every partition when b joined",
            first_revoke == Some(Event::Revoked(vec![0, 1])),
            shown::opt(first_revoke.as_ref()),
        );
    } else {
        v.check(
            "consumer: a revoked only the partition that moved",
            matches!(&first_revoke, Some(Event::Revoked(ps)) if ps.len() == 1
                && (moved.is_empty() || moved == *ps)),
            shown::opt(first_revoke.as_ref()),
        );
    }
    maxpoll::checks(&mut v, lab2, committed, classic)?;
    let lab2_numbers = std::mem::take(&mut v.numbers);
    for (part, numbers) in [("lab1", lab1_numbers), ("lab2", lab2_numbers)] {
        for (name, n) in numbers {
            v.numbers.insert(format!("{part}.{name}"), n);
        }
    }
    v.ours = format!(
        "lab 1: {first}, a {}; lab 2: {}",
        first_revoke.map_or("revoked nothing".into(), |e| e.to_string()),
        v.ours
    );
    Ok(v)
}
