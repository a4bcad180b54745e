//! What lab 7 asks the cluster between faults, from librdkafka's metadata: which node leads a
//! partition, and whether every partition's replicas are back in sync after a node restarted.
//! Kafka's own tools answer the same from the same metadata, but each question would start a
//! JVM, on the machine whose three nodes are recovering.

use std::fmt;
use std::time::{Duration, Instant};

use anyhow::{bail, Result};
use krb_kafka::broker::BrokerArgs;
use krb_log::logline::Partition;

/// One partition as the cluster's metadata describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartitionState {
    pub topic: String,
    pub partition: Partition,
    /// The node that leads it (-1: none).
    pub leader: i32,
    /// The nodes that hold a copy.
    pub replicas: Vec<i32>,
    /// Those of them in sync with the leader.
    pub isr: Vec<i32>,
}

impl PartitionState {
    /// A partition with a leader and every copy in sync.
    pub fn in_sync(&self) -> bool {
        self.leader >= 0 && self.replicas.iter().all(|r| self.isr.contains(r))
    }
}

impl fmt::Display for PartitionState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} p{}: leader {}, in sync {:?} of {:?}",
            self.topic, self.partition, self.leader, self.isr, self.replicas
        )
    }
}

/// Every partition of every topic, internal ones too, as the metadata describes it.
pub fn states(broker: &BrokerArgs) -> Result<Vec<PartitionState>> {
    let (admin, _) = broker.admin("krb-trial")?;
    let metadata = admin
        .inner()
        .fetch_metadata(None, Duration::from_secs(5))
        .map_err(|e| anyhow::anyhow!(broker.unreachable(&e)))?;
    Ok(metadata
        .topics()
        .iter()
        .flat_map(|t| {
            t.partitions().iter().map(|p| PartitionState {
                topic: t.name().to_string(),
                partition: p.id(),
                leader: p.leader(),
                replicas: p.replicas().to_vec(),
                isr: p.isr().to_vec(),
            })
        })
        .collect())
}

/// Waits until every partition has a leader and all its copies in sync, up to `timeout`.
pub fn insync(broker: &BrokerArgs, timeout: Duration) -> Result<()> {
    let start = Instant::now();
    loop {
        let states = states(broker)?;
        let Some(behind) = states.iter().find(|s| !s.in_sync()) else {
            return Ok(());
        };
        if start.elapsed() > timeout {
            let count = states.iter().filter(|s| !s.in_sync()).count();
            bail!(
                "{count} partition(s) still out of sync after {} s, e.g. {behind}",
                timeout.as_secs()
            );
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// The node that leads partition `partition` of `topic` (as the lab calls it).
pub fn leader(broker: &BrokerArgs, topic: &str, partition: Partition) -> Result<i32> {
    let name = broker.name(topic);
    match states(broker)?
        .into_iter()
        .find(|s| s.topic == name && s.partition == partition)
    {
        Some(s) if s.leader >= 0 => Ok(s.leader),
        Some(_) => bail!("{name} p{partition} has no leader now"),
        None => bail!("{name} has no partition {partition}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(leader: i32, replicas: &[i32], isr: &[i32]) -> PartitionState {
        PartitionState {
            topic: "t".into(),
            partition: 3,
            leader,
            replicas: replicas.to_vec(),
            isr: isr.to_vec(),
        }
    }

    #[test]
    fn a_partition_is_in_sync_with_a_leader_and_every_copy() {
        assert!(state(1, &[1, 2, 3], &[3, 1, 2]).in_sync());
        assert!(!state(1, &[1, 2, 3], &[1, 2]).in_sync());
        assert!(!state(-1, &[1, 2, 3], &[1, 2, 3]).in_sync());
        assert_eq!(
            state(1, &[1, 2, 3], &[1, 2]).to_string(),
            "t p3: leader 1, in sync [1, 2] of [1, 2, 3]"
        );
    }
}
