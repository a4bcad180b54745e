//! krb-group: forget a consumer group, so a lab rerun with the same group name starts clean.

use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use clap::Parser;
use krb_common::broker::{wait, BrokerArgs};
use rdkafka::error::RDKafkaErrorCode;

/// krb-group: delete consumer group GROUP and its committed offsets.
///
/// A group that does not exist is fine (nothing to forget). A group that still has members is
/// not deleted: stop its workers first.
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
                if (start.elapsed() < COORDINATOR_TIMEOUT
                    && matches!(
                        code,
                        RDKafkaErrorCode::NotCoordinator
                            | RDKafkaErrorCode::CoordinatorNotAvailable
                            | RDKafkaErrorCode::CoordinatorLoadInProgress
                    ))
                    || (code == RDKafkaErrorCode::NonEmptyGroup
                        && start.elapsed() < Duration::from_secs(args.wait)) =>
            {
                std::thread::sleep(Duration::from_millis(200));
                continue;
            }
            Ok(name) => println!("Deleted group {name}."),
            Err((name, RDKafkaErrorCode::GroupIdNotFound)) => {
                println!("Group {name} does not exist.")
            }
            Err((name, RDKafkaErrorCode::NonEmptyGroup)) => {
                bail!("group {name} still has members: stop its workers first (static members stay until their session times out: --wait SECONDS)")
            }
            Err((name, code)) => bail!("cannot delete group {name}: {code}"),
        }
        return Ok(());
    }
}
