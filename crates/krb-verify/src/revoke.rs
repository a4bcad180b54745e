//! Lab 1, 01-revoke.sh: without a commit in on_revoke the next owner re-reads from the
//! last commit; with one, nobody does.

use anyhow::Result;
use krb_dups::Run as Span;
use krb_log::logline::{Event, Offset, Partition};

use krb_cli::lang::Lang;

use crate::facts::{assigned, last_commit, last_processed, revoked, seconds, summary, Run};
use crate::messages::{parts, said, Shared};
use crate::{shown, Lab, Verdict};

said! {
    pub enum Said {
        HandedBack => "a handed partitions back after b joined", "b가 들어온 뒤 a가 파티션을 반납함";
        RevokedThenAssigned => "a logged revoked [0, 1], then assigned [..]",
            "a의 로그에 revoked [0, 1], 이어서 assigned [..]가 남음";
        OneMoved => "b was assigned the one partition that moved", "b가 옮겨 간 파티션 하나를 받음";
        CommittedInRevoke =>
            "a committed the moved partition in on_revoke, up to its last offset",
            "a가 on_revoke에서 옮겨 가는 파티션을 처리한 위치까지 commit함";
        BeganAtThatCommit => "b began the moved partition at that commit",
            "b가 옮겨 간 파티션을 그 commit 위치부터 읽음";
        DuplicatesBelowCommitEvery => "duplicates between 0 and commit-every minus 1 (99)",
            "중복은 0건에서 commit-every - 1(99건) 사이";
        DuplicatesOnlyMoved =>
            "duplicates only on the moved partition, from a's last commit to a's last offset",
            "중복은 옮겨 간 파티션에서만, a의 마지막 commit부터 a가 마지막으로 처리한 offset까지";
        BeganAtLastCommit => "b began the moved partition at a's last commit",
            "b가 옮겨 간 파티션을 a의 마지막 commit 위치부터 읽음";
        ARevoked { list: String } => "a revoked {list}", "a가 {list} 반납";
        NoRevoke => "a logged no revoke after b started and before its stop",
            "b가 시작한 뒤 a가 멈추기 전까지 a의 로그에 revoked가 없음";
        Reassigned { list: Option<String>, reassigned: bool } => |lang| match (lang, list) {
            (Lang::En, Some(list)) => format!("revoked {list}, reassigned: {reassigned}"),
            (Lang::En, None) => format!("no revoke, reassigned: {reassigned}"),
            (Lang::Ko, Some(list)) if *reassigned => format!("revoked {list}, 이어서 assigned 있음"),
            (Lang::Ko, Some(list)) => format!("revoked {list}, 이어서 assigned 없음"),
            (Lang::Ko, None) => "revoked 없음".into(),
        };
        BAssigned { list: String } => "b assigned {list}", "b가 받은 파티션 {list}";
        CommitAndLast { p: Partition, commit: Option<Offset>, offset: Option<Offset> } =>
            "commit p{p}={commit}, a's last offset {offset}",
            "commit p{p}={commit}, a가 마지막으로 처리한 offset {offset}";
        BFirst { p: Partition, offset: Option<Offset> } => "b's first offset on p{p}: {offset}",
            "b가 p{p}에서 처음 처리한 offset {offset}";
        BFirstAndCommit { p: Partition, offset: Option<Offset>, commit: Offset } =>
            "b's first offset on p{p}: {offset}, a's last commit {commit}",
            "b가 p{p}에서 처음 처리한 offset {offset}, a의 마지막 commit {commit}";
        RunsAndCommit { runs: Option<String>, p: Partition, commit: Offset,
            offset: Option<Offset> } =>
            "runs {runs}; a's last commit p{p}={commit}, last offset {offset}",
            "중복 구간 {runs}; a의 마지막 commit p{p}={commit}, 마지막으로 처리한 offset {offset}";
        BFirstMessage { seconds: f64 } => "b's first message {seconds:.2} s after its start",
            "b의 첫 메시지는 시작 {seconds:.2}초 뒤";
    }
}

pub fn verdict(run: &Run, revoke_commit: bool) -> Result<Verdict> {
    let article = match revoke_commit {
        true => Shared::Duplicates { count: 0 },
        false => Shared::Summary {
            count: 82,
            partitions: vec![1],
            range: Some((400, 481)),
        },
    };
    let mut v = Verdict::of(Lab::Revoke { revoke_commit }, &run.group, article);
    checks(&mut v, run, revoke_commit)?;
    let mut ours = summary(&run.report);
    if let Shared::Summary { range, .. } = &mut ours {
        *range = run.report.runs.first().map(|r| (r.first, r.last));
    }
    v.ours = ours.into();
    Ok(v)
}

/// Lab 1's statements; lab 5 checks them too (`v.lab` says which lab reports). Sets `v.ours`
/// to the duplicates and how soon b processed its first message.
pub fn checks(v: &mut Verdict, run: &Run, revoke_commit: bool) -> Result<()> {
    let a = run.member("a")?;
    let b = run.member("b")?;
    let report = &run.report;
    v.all_processed(report, 1000);
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
    let list = revoke.and_then(|i| revoked(&a.lines[i].event).map(shown::list));
    v.check(
        Said::HandedBack,
        revoke.is_some(),
        list.clone()
            .map_or(Said::NoRevoke, |list| Said::ARevoked { list }),
    );
    if v.lab == 1 {
        v.check(
            Said::RevokedThenAssigned,
            revoke.is_some_and(|i| a.lines[i].event == Event::Revoked(vec![0, 1]))
                && reassigned.is_some(),
            Said::Reassigned {
                list,
                reassigned: reassigned.is_some(),
            },
        );
    }
    v.check(
        Said::OneMoved,
        moved.len() == 1,
        Said::BAssigned {
            list: shown::list(&moved),
        },
    );
    let b_first_at = b
        .lines
        .iter()
        .find(|l| matches!(l.event, Event::Processed { .. }))
        .map(|l| l.at);
    v.number(crate::verdict::DUPLICATES, report.duplicates() as f64);
    v.ours = match (b_start, b_first_at) {
        (Some(start), Some(first)) => parts![
            summary(report),
            Said::BFirstMessage {
                seconds: seconds(start, first),
            },
        ],
        _ => summary(report).into(),
    };
    let (Some(revoke), &[moved]) = (revoke, moved.as_slice()) else {
        return Ok(());
    };
    let reassigned = reassigned.unwrap_or(a.lines.len());
    let a_last = last_processed(&a.lines[..revoke], moved);
    let b_first = b.processed().find(|(p, _)| *p == moved).map(|(_, o)| o);
    let dups = report.duplicates();
    if revoke_commit {
        v.no_duplicates(report);
        let n = last_commit(&a.lines[revoke..reassigned], moved);
        v.check(
            Said::CommittedInRevoke,
            n.is_some() && n == a_last.map(|o| o + 1),
            Said::CommitAndLast {
                p: moved,
                commit: n,
                offset: a_last,
            },
        );
        v.check(
            Said::BeganAtThatCommit,
            n.is_some() && b_first == n,
            Said::BFirst {
                p: moved,
                offset: b_first,
            },
        );
    } else {
        let n = last_commit(&a.lines[..revoke], moved).unwrap_or(0);
        v.check(
            Said::DuplicatesBelowCommitEvery,
            dups <= 99,
            Shared::Duplicates { count: dups },
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
            Said::DuplicatesOnlyMoved,
            report.runs == expected,
            Said::RunsAndCommit {
                runs: (!report.runs.is_empty()).then(|| {
                    report
                        .runs
                        .iter()
                        .map(|r| format!("p{} {}..{}", r.partition, r.first, r.last))
                        .collect::<Vec<_>>()
                        .join(", ")
                }),
                p: moved,
                commit: n,
                offset: a_last,
            },
        );
        v.check(
            Said::BeganAtLastCommit,
            b_first == Some(n),
            Said::BFirstAndCommit {
                p: moved,
                offset: b_first,
                commit: n,
            },
        );
    }
    Ok(())
}
