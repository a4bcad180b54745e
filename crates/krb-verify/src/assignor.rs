//! Lab 3, 03-assignor.sh: when a third consumer joins, eager (range) assignment revokes every
//! partition and duplicates spread over more partitions than move; cooperative-sticky revokes
//! only the partitions that move, and duplicates stay on them.

use std::collections::BTreeSet;

use anyhow::Result;
use krb_log::logline::{Event, Partition};

use crate::facts::{assigned, revoked, summary, Run, NO_LINE};
use crate::{shown, Assignor, Lab, Verdict};

/// Lab 3's verdict for a run.
pub fn verdict(run: &Run, assignor: Assignor, revoke_commit: bool) -> Result<Verdict> {
    let cooperative = assignor == Assignor::CooperativeSticky;
    let (_, _, variant) = Lab::Assignor {
        assignor,
        revoke_commit,
    }
    .names();
    let article = match (cooperative, revoke_commit) {
        (false, false) => "67 duplicates on all 6 partitions",
        (true, false) => "24 duplicates on the 2 moved partitions",
        (_, true) => "not measured (0 expected)",
    };
    let mut v = Verdict::new(3, "assignor", &variant, &run.group, article);
    let logs = [run.member("a")?, run.member("b")?, run.member("c")?];
    let c_start = logs[2]
        .time_of(0, |e| e == &Event::Start)
        .ok_or_else(|| Run::missing(NO_LINE[0], "c"))?;
    let stopping = logs
        .iter()
        .filter_map(|l| l.time_of(0, |e| e == &Event::Stop))
        .min()
        .unwrap_or(chrono::NaiveDateTime::MAX);
    let revoked_ab: BTreeSet<Partition> = logs[..2]
        .iter()
        .flat_map(|l| l.partitions_between(c_start, stopping, revoked))
        .collect();
    let to_c = logs[2].partitions_between(c_start, stopping, assigned);
    let report = &run.report;
    let dup_partitions: BTreeSet<Partition> = report.runs.iter().map(|r| r.partition).collect();
    v.check(
        "all 3000 messages processed",
        report.unique == 3000,
        format!("unique {}", report.unique),
    );
    v.check(
        "c was assigned partitions",
        !to_c.is_empty(),
        format!("c assigned {}", shown::list(&to_c)),
    );
    if cooperative {
        v.check(
            "only the partitions that moved to c were revoked",
            revoked_ab == to_c,
            format!(
                "revoked {}, moved {}",
                shown::list(&revoked_ab),
                shown::list(&to_c)
            ),
        );
    } else {
        v.check(
            "every partition was revoked",
            revoked_ab == (0..6).collect(),
            format!("revoked {}", shown::list(&revoked_ab)),
        );
    }
    let duplicates_on = format!(
        "duplicates on {}, moved {}",
        shown::list(&dup_partitions),
        shown::list(&to_c)
    );
    match (cooperative, revoke_commit) {
        (_, true) => v.check(
            "no duplicates",
            report.duplicates() == 0,
            format!("{} duplicates", report.duplicates()),
        ),
        (false, false) => v.check(
            "duplicates on more partitions than the ones that moved",
            dup_partitions.len() > to_c.len(),
            duplicates_on,
        ),
        (true, false) => v.check(
            "duplicates on the moved partitions only, and on at least one",
            !dup_partitions.is_empty() && dup_partitions.is_subset(&to_c),
            duplicates_on,
        ),
    }
    v.number(crate::verdict::DUPLICATES, report.duplicates() as f64);
    v.ours = format!(
        "{}; revoked {} partition(s), {} moved",
        summary(report),
        revoked_ab.len(),
        to_c.len()
    );
    Ok(v)
}
