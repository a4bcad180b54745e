//! Lab 4, 04-static.sh: restarting one consumer costs two rebalances, or none with static
//! membership.

use anyhow::Result;
use krb_log::logline::Event;

use crate::facts::{assigned, revoked, seconds, Run, NO_SECOND_START, NO_SECOND_STOP, NO_STOP};
use crate::messages::{both, parts, said, Message, Shared};
use crate::{shown, Lab, Verdict};

said! {
    pub enum Said {
        BackWithinTimeout =>
            "a owned partitions again within the session timeout (10 s) of its stop",
            "a가 멈춘 뒤 session.timeout.ms(10초) 안에 다시 파티션을 맡음";
        BRevokedNothing => "b revoked nothing", "b가 아무것도 반납하지 않음";
        PreviousBack => "a got its previous partitions back", "a가 전에 맡던 파티션을 그대로 다시 받음";
        BRevokedTwice => "b revoked twice", "b가 두 번 반납함";
        GotAgain => "a got partitions again", "a가 다시 파티션을 받음";
        AfterStop { seconds: f64 } => "{seconds:.2} s after its stop", "멈춘 지 {seconds:.2}초 뒤";
        NoneAfterRestart => "a got no partitions after its restart", "a가 재시작 뒤 파티션을 받지 못함";
        Revokes { count: usize } => "{count} revoke(s)", "반납 {count}번";
        BeforeAfter { before: Option<String>, after: Option<String> } =>
            "before {before}, after {after}",
            "재시작 전 {before}, 재시작 뒤 {after}";
        NoRevokes { count: usize } => "{count} revokes", "반납 {count}번";
        BackAfterStart { seconds: f64 } => "partitions back {seconds:.2} s after start",
            "시작 {seconds:.2}초 만에 파티션을 다시 받음";
        OtherRevokedTwice => "the other consumer revoked twice", "다른 컨슈머가 두 번 반납";
        BRevokedTimes { count: usize } => "b revoked {count} time(s)", "b가 {count}번 반납";
        ABack { seconds: Option<f64> } => |lang| match seconds {
            None => both!(lang, "a's partitions back never after start", "a가 파티션을 다시 받지 못함"),
            Some(seconds) => both!(
                lang,
                "a's partitions back {seconds:.2} s after start",
                "a가 시작 {seconds:.2}초 만에 파티션을 다시 받음"
            ),
        };
    }
}

/// The session timeout the lab runs with, in seconds.
pub const SESSION_TIMEOUT: f64 = 10.0;

pub fn verdict(run: &Run, static_membership: bool) -> Result<Verdict> {
    let article: Message = match static_membership {
        true => parts![
            Said::NoRevokes { count: 0 },
            Said::BackAfterStart { seconds: 0.14 },
        ],
        false => Said::OtherRevokedTwice.into(),
    };
    let mut v = Verdict::of(Lab::Static { static_membership }, &run.group, article);
    let a = run.member("a")?;
    let b = run.member("b")?;
    let line = |nth, event: Event, msg| {
        a.time_of(nth, |e| e == &event)
            .ok_or_else(|| Run::missing(msg, "a"))
    };
    let stopped = line(0, Event::Stop, NO_STOP)?;
    let restart = line(1, Event::Start, NO_SECOND_START)?;
    let end = line(1, Event::Stop, NO_SECOND_STOP)?;
    let before = a
        .lines
        .iter()
        .filter(|l| l.at < stopped)
        .filter_map(|l| assigned(&l.event).filter(|ps| !ps.is_empty()))
        .next_back()
        .cloned();
    let back = a.lines.iter().filter(|l| l.at >= restart).find_map(|l| {
        assigned(&l.event)
            .filter(|ps| !ps.is_empty())
            .map(|ps| (l.at, ps.clone()))
    });
    let b_revokes = b
        .lines
        .iter()
        .filter(|l| l.at >= stopped && l.at < end && revoked(&l.event).is_some())
        .count();
    // What the session timeout bounds: from the stop to owning partitions again, the restart
    // and the rejoin included, not only the pause between stop and start.
    let gone = back.as_ref().map(|(t, _)| seconds(stopped, *t));
    v.check(
        Said::BackWithinTimeout,
        gone.is_some_and(|s| s < SESSION_TIMEOUT),
        gone.map_or(Said::NoneAfterRestart, |seconds| Said::AfterStop {
            seconds,
        }),
    );
    if static_membership {
        v.check(
            Said::BRevokedNothing,
            b_revokes == 0,
            Said::Revokes { count: b_revokes },
        );
        v.check(
            Said::PreviousBack,
            back.as_ref().map(|(_, ps)| ps) == before.as_ref(),
            Said::BeforeAfter {
                before: before.as_ref().map(shown::list),
                after: back.as_ref().map(|(_, ps)| shown::list(ps)),
            },
        );
    } else {
        v.check(
            Said::BRevokedTwice,
            b_revokes == 2,
            Said::Revokes { count: b_revokes },
        );
        v.check(
            Said::GotAgain,
            back.is_some(),
            back.as_ref()
                .map_or(Shared::Nothing, |(_, ps)| Shared::Data {
                    text: shown::list(ps),
                }),
        );
    }
    v.ours = parts![
        Said::BRevokedTimes { count: b_revokes },
        Said::ABack {
            seconds: back.map(|(t, _)| seconds(restart, t)),
        },
    ];
    Ok(v)
}
