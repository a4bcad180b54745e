//! krb-group: forget a consumer group, so a lab rerun with the same group name starts clean.

pub mod messages;

use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use clap::Parser;
use krb_cli::lang::Lang;
use krb_kafka::broker::{wait, Admin, BrokerArgs, REACH_TIMEOUT};
use krb_kafka::{group_admin, topic_readers};
use messages as m;
use rdkafka::error::RDKafkaErrorCode::{GroupIdNotFound, NonEmptyGroup};

/// krb-group: delete consumer group GROUP and its committed offsets.
///
/// A group that does not exist is fine (nothing to forget). A group that still has live
/// members is not deleted (the broker refuses): krb-group says how many it has and exits 1.
/// Stop its workers first; a static member (--instance-id) stays until its session times out,
/// which --wait waits for.
#[derive(Parser, Debug)]
#[command(name = "krb-group", version, verbatim_doc_comment)]
pub struct Args {
    /// The consumer group to delete.
    pub group: String,
    /// Wait up to SECONDS for a group that still has members to empty (static members stay
    /// until their session times out) instead of refusing at once.
    #[arg(long, value_name = "SECONDS", default_value_t = 0)]
    pub wait: u64,
    #[command(flatten)]
    pub broker: BrokerArgs,
}

/// How long the group coordinator may take to come up (a fresh broker creates
/// `__consumer_offsets` on first use).
const COORDINATOR_TIMEOUT: Duration = Duration::from_secs(20);

/// Deletes the group; prints what happened on one line.
pub fn run(args: &Args) -> Result<()> {
    let lang = Lang::from_env()?;
    let (admin, options) = args.broker.admin("krb-group")?;
    let group = args.broker.name(&args.group);
    let start = Instant::now();
    loop {
        let results =
            wait(admin.delete_groups(&[&group], &options)).context("cannot delete the group")?;
        let Some(result) = results.into_iter().next() else {
            bail!("the broker did not answer the request to delete {}", group);
        };
        match result {
            Err((_, code))
                if (group_admin::loading(code) && start.elapsed() < COORDINATOR_TIMEOUT)
                    || (code == NonEmptyGroup
                        && start.elapsed() < Duration::from_secs(args.wait)) =>
            {
                std::thread::sleep(Duration::from_millis(200));
                continue;
            }
            Ok(name) => println!("Deleted group {name}."),
            Err((name, GroupIdNotFound)) => println!("Group {name} does not exist."),
            Err((name, NonEmptyGroup)) => bail!(refusal(lang, &name, live_members(&admin, &name))),
            Err((name, code)) => {
                bail!(m::NOT_DELETED.fill(lang, &[("group", &name), ("code", &code)]))
            }
        }
        return Ok(());
    }
}

fn live_members(admin: &Admin, name: &str) -> Option<usize> {
    let described =
        group_admin::describe(admin.inner(), &[name.to_string()], REACH_TIMEOUT).ok()?;
    described
        .into_iter()
        .find(|g| g.id == name)
        .map(|g| g.members.len())
}

/// The one line that refuses to delete group `name`, which has `members` live members (None:
/// the broker said it has members but not how many).
fn refusal(lang: Lang, name: &str, members: Option<usize>) -> String {
    let has = match (members.filter(|n| *n > 0), lang) {
        (Some(n), _) => topic_readers::members(lang, n),
        (None, Lang::En) => "live members".to_string(),
        (None, Lang::Ko) => "살아 있는 구성원".to_string(),
    };
    m::REFUSED.fill(lang, &[("group", &name), ("has", &has)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_refusal_names_the_group_and_its_live_members_on_one_line() {
        assert_eq!(
            refusal(Lang::En, "alice-nocommit", Some(2)),
            "group alice-nocommit is not deleted: it has 2 live members, and the broker deletes \
             no group with members. Stop its workers first (a static member stays until its \
             session times out: --wait SECONDS)"
        );
        assert!(refusal(Lang::En, "g", Some(1)).contains(": it has 1 live member, "));
        // Emptied since the broker refused, or not described: still a refusal, without a count.
        for unknown in [None, Some(0)] {
            assert!(refusal(Lang::En, "g", unknown).contains(": it has live members, "));
            assert!(
                refusal(Lang::Ko, "g", unknown).contains(": 살아 있는 구성원이 있고, "),
                "{}",
                refusal(Lang::Ko, "g", unknown)
            );
        }
        assert_eq!(
            refusal(Lang::Ko, "alice-nocommit", Some(2)),
            "alice-nocommit 그룹을 지우지 않았습니다: 살아 있는 구성원 2명이 있고, 브로커는 \
             구성원이 있는 그룹을 지우지 않아요. 먼저 그 컨슈머들을 멈추세요(static member는 \
             세션이 끝날 때까지 남아요: --wait SECONDS)"
        );
    }
}
