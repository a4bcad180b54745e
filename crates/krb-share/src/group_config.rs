//! The share group's own settings (share.auto.offset.reset, share.record.lock.duration.ms,
//! share.delivery.count.limit), set with Kafka's admin API before a member joins: librdkafka's
//! share consumer takes none of them as a client property, and share.auto.offset.reset must be
//! in place before the group first reads a partition (latest, the broker's default, would skip
//! every record already in the topic).

use anyhow::{bail, Context, Result};
use krb_common::broker::{wait, BrokerArgs};
use rdkafka::admin::{AlterConfig, ResourceSpecifier};

/// Sets `settings` on share group `group` (Kafka's name of it). AlterConfigs replaces the
/// group's settings as a whole; every member of a lab's group sets the same ones.
pub fn set(broker: &BrokerArgs, group: &str, settings: &[(String, String)]) -> Result<()> {
    let (admin, options) = broker.admin("krb-share")?;
    let config = settings.iter().fold(
        AlterConfig::new(ResourceSpecifier::Group(group)),
        |c, (k, v)| c.set(k, v),
    );
    let results = wait(admin.alter_configs(&[config], &options))
        .with_context(|| format!("cannot set share group {group}'s settings"))?;
    for result in results {
        if let Err((_, code)) = result {
            bail!(
                "the broker refused share group {group}'s settings {}: {code} (see the broker's \
                 group.share.min.* and group.share.max.* limits)",
                shown(settings)
            );
        }
    }
    Ok(())
}

/// `a=1 b=2`.
fn shown(settings: &[(String, String)]) -> String {
    settings
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(" ")
}
