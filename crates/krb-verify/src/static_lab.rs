//! Lab 4, 04-static.sh: restarting one consumer costs two rebalances, or none with static
//! membership.

use anyhow::Result;
use krb_log::logline::Event;

use crate::facts::{assigned, revoked, seconds, Run, NO_LINE};
use crate::{shown, Verdict};

/// The session timeout the lab runs with, in seconds.
pub const SESSION_TIMEOUT: f64 = 10.0;

/// Lab 4's verdict for a run.
pub fn verdict(run: &Run, static_membership: bool) -> Result<Verdict> {
    let (variant, article) = if static_membership {
        ("--static", "0 revokes; partitions back 0.14 s after start")
    } else {
        ("dynamic", "the other consumer revoked twice")
    };
    let mut v = Verdict::new(4, "static", variant, &run.group, article);
    let a = run.member("a")?;
    let b = run.member("b")?;
    let stopped = a
        .time_of(0, |e| e == &Event::Stop)
        .ok_or_else(|| Run::missing(NO_LINE[1], "a"))?;
    let restart = a
        .time_of(1, |e| e == &Event::Start)
        .ok_or_else(|| Run::missing(NO_LINE[2], "a"))?;
    let end = a
        .time_of(1, |e| e == &Event::Stop)
        .ok_or_else(|| Run::missing(NO_LINE[3], "a"))?;
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
        "a owned partitions again within the session timeout (10 s) of its stop",
        gone.is_some_and(|s| s < SESSION_TIMEOUT),
        gone.map_or("a got no partitions after its restart".into(), |s| {
            format!("{s:.2} s after its stop")
        }),
    );
    if static_membership {
        v.check(
            "b revoked nothing",
            b_revokes == 0,
            format!("{b_revokes} revoke(s)"),
        );
        v.check(
            "a got its previous partitions back",
            back.as_ref().map(|(_, ps)| ps) == before.as_ref(),
            format!(
                "before {}, after {}",
                shown::opt(before.as_ref().map(shown::list)),
                shown::opt(back.as_ref().map(|(_, ps)| shown::list(ps)))
            ),
        );
    } else {
        v.check(
            "b revoked twice",
            b_revokes == 2,
            format!("{b_revokes} revoke(s)"),
        );
        v.check(
            "a got partitions again",
            back.is_some(),
            shown::opt(back.as_ref().map(|(_, ps)| shown::list(ps))),
        );
    }
    v.ours = format!(
        "b revoked {b_revokes} time(s); a's partitions back {} after start",
        back.map_or("never".into(), |(t, _)| format!(
            "{:.2} s",
            seconds(restart, t)
        ))
    );
    Ok(v)
}
