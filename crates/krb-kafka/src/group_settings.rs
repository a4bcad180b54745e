//! The consumer-group settings the worker takes and the labs compare, and its kinds of effect
//! (krb-effect's), named once: the names on the command line are librdkafka's values.

use clap::ValueEnum;

/// The partition assignment strategies of the classic protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Assignor {
    /// Eager: every rebalance revokes every partition (librdkafka's `range`).
    Range,
    /// Eager, partitions dealt out one by one (`roundrobin`).
    Roundrobin,
    /// Incremental: only the partitions that move are revoked (`cooperative-sticky`).
    CooperativeSticky,
}

/// The consumer group protocols of Kafka 4.x.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GroupProtocol {
    /// The classic protocol of the article: members rejoin, a leader assigns.
    Classic,
    /// KIP-848: the broker assigns, members reconcile incrementally.
    Consumer,
}

/// What processing a message does besides taking its time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Effect {
    /// Nothing: the article's labs, byte for byte.
    None,
    /// One row per processing, no key.
    Plain,
    /// One row per message: insert, or do nothing when it is there.
    Idempotent,
    /// A row and the partition's next position in one transaction; the worker starts where
    /// the database says.
    DbOffsets,
    /// A message to an output topic in a Kafka transaction with the consumed offsets.
    KafkaEos,
}

impl Effect {
    /// The table of the kind's effects, if it writes to a database.
    pub fn table(self) -> Option<&'static str> {
        match self {
            Effect::None | Effect::KafkaEos => None,
            Effect::Plain => Some("krb_effects_plain"),
            Effect::Idempotent => Some("krb_effects_idempotent"),
            Effect::DbOffsets => Some("krb_effects_db_offsets"),
        }
    }
}

/// The name a value of an option takes on the command line (`cooperative-sticky`), which for
/// these settings is also librdkafka's value.
pub fn value_name<T: ValueEnum>(value: T) -> String {
    value
        .to_possible_value()
        .map(|v| v.get_name().to_string())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_librdkafkas_values() {
        assert_eq!(
            value_name(Assignor::CooperativeSticky),
            "cooperative-sticky"
        );
        assert_eq!(value_name(Assignor::Roundrobin), "roundrobin");
        assert_eq!(value_name(GroupProtocol::Consumer), "consumer");
    }
}
