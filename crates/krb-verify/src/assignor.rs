//! Lab 3, 03-assignor.sh: when a third consumer joins, eager (range) assignment revokes every
//! partition and duplicates spread over more partitions than move; cooperative-sticky revokes
//! only the partitions that move, and duplicates stay on them.

use std::collections::BTreeSet;

use anyhow::Result;
use krb_log::logline::{Event, Partition};

use crate::facts::{assigned, revoked, summary, Run, NO_LINE};
use crate::messages::{parts, said, Shared};
use crate::{shown, Assignor, Lab, Verdict};

said! {
    pub enum Said {
        CAssigned => "c was assigned partitions", "c가 파티션을 받음";
        OnlyMovedRevoked => "only the partitions that moved to c were revoked", "c로 옮겨 간 파티션만 반납됨";
        EveryRevoked => "every partition was revoked", "모든 파티션이 반납됨";
        DuplicatesOnMore => "duplicates on more partitions than the ones that moved",
            "옮겨 간 파티션보다 많은 파티션에서 중복";
        DuplicatesOnMovedOnly => "duplicates on the moved partitions only, and on at least one",
            "중복은 옮겨 간 파티션에서만, 적어도 한 곳에서";
        CGot { list: String } => "c assigned {list}", "c가 받은 파티션 {list}";
        RevokedMoved { revoked: String, moved: String } => "revoked {revoked}, moved {moved}",
            "반납 {revoked}, 이동 {moved}";
        DuplicatesMoved { duplicates: String, moved: String } =>
            "duplicates on {duplicates}, moved {moved}",
            "중복 {duplicates}, 이동 {moved}";
        OnAll { count: u64, n: u64 } => "{count} duplicates on all {n} partitions",
            "파티션 {n}개 모두에서 중복 {count}건";
        OnMoved { count: u64, n: u64 } => "{count} duplicates on the {n} moved partitions",
            "옮겨 간 파티션 {n}개에서 중복 {count}건";
        NotMeasured => "not measured (0 expected)", "측정하지 않음 (0건 예상)";
        RevokedCount { revoked: usize, moved: usize } =>
            "revoked {revoked} partition(s), {moved} moved",
            "파티션 {revoked}개 반납, {moved}개 이동";
    }
}

pub fn verdict(run: &Run, assignor: Assignor, revoke_commit: bool) -> Result<Verdict> {
    let cooperative = assignor == Assignor::CooperativeSticky;
    let article = match (cooperative, revoke_commit) {
        (false, false) => Said::OnAll { count: 67, n: 6 },
        (true, false) => Said::OnMoved { count: 24, n: 2 },
        (_, true) => Said::NotMeasured,
    };
    let lab = Lab::Assignor {
        assignor,
        revoke_commit,
    };
    let mut v = Verdict::of(lab, &run.group, article);
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
    v.all_processed(report, 3000);
    v.check(
        Said::CAssigned,
        !to_c.is_empty(),
        Said::CGot {
            list: shown::list(&to_c),
        },
    );
    if cooperative {
        v.check(
            Said::OnlyMovedRevoked,
            revoked_ab == to_c,
            Said::RevokedMoved {
                revoked: shown::list(&revoked_ab),
                moved: shown::list(&to_c),
            },
        );
    } else {
        v.check(
            Said::EveryRevoked,
            revoked_ab == (0..6).collect(),
            Shared::Revoked {
                list: shown::list(&revoked_ab),
            },
        );
    }
    let duplicates_on = Said::DuplicatesMoved {
        duplicates: shown::list(&dup_partitions),
        moved: shown::list(&to_c),
    };
    match (cooperative, revoke_commit) {
        (_, true) => v.no_duplicates(report),
        (false, false) => v.check(
            Said::DuplicatesOnMore,
            dup_partitions.len() > to_c.len(),
            duplicates_on,
        ),
        (true, false) => v.check(
            Said::DuplicatesOnMovedOnly,
            !dup_partitions.is_empty() && dup_partitions.is_subset(&to_c),
            duplicates_on,
        ),
    }
    v.number(crate::verdict::DUPLICATES, report.duplicates() as f64);
    v.ours = parts![
        summary(report),
        Said::RevokedCount {
            revoked: revoked_ab.len(),
            moved: to_c.len(),
        },
    ];
    Ok(v)
}
