//! The share group's own settings (share.auto.offset.reset, share.record.lock.duration.ms,
//! share.delivery.count.limit), set with Kafka's admin API before a member joins: librdkafka's
//! share consumer takes none of them as a client property, and share.auto.offset.reset must be
//! in place before the group first reads a partition (latest, the broker's default, would skip
//! every record already in the topic).

use anyhow::Result;
use krb_kafka::broker::{BrokerArgs, REACH_TIMEOUT};
use krb_kafka::group_admin;

/// Checks that `topic` (as the lab calls it) exists and sets `settings` on share group `group`
/// (Kafka's name of it); every member of a lab's group sets the same ones. The broker checks
/// each against its limits (group.share.min.* and group.share.max.*) and its refusal is the
/// error.
pub fn set(
    broker: &BrokerArgs,
    topic: &str,
    group: &str,
    settings: &[(String, String)],
) -> Result<()> {
    let (admin, _) = broker.admin("krb-share")?;
    broker.topic_partitions(admin.inner(), topic)?;
    group_admin::set_configs(admin.inner(), group, settings, REACH_TIMEOUT)
}
