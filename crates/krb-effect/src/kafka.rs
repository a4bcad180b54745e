//! kafka-eos's effects: messages a worker produced to an output topic inside Kafka
//! transactions, read back as a read_committed consumer sees them (aborted transactions'
//! messages are never seen). Each message is one processing: its key the worker, its value the
//! input message as the log grammar writes a processing, after the input topic
//! (`pay p1 offset 481`).

use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use krb_common::broker::BrokerArgs;
use krb_common::logline::{Event, Offset, Partition};
use rdkafka::consumer::{BaseConsumer, Consumer};
use rdkafka::error::KafkaError;
use rdkafka::message::Message;
use rdkafka::{Offset as KafkaOffset, TopicPartitionList};

/// The value of the output message of processing `offset` of `partition` of `topic`.
pub fn value(topic: &str, partition: Partition, offset: Offset) -> String {
    format!("{topic} {}", Event::Processed { partition, offset })
}

/// The input message an output message's value names: (topic, partition, offset).
pub fn parse_value(value: &str) -> Option<(&str, Partition, Offset)> {
    let (topic, event) = value.split_once(' ')?;
    match Event::parse(event) {
        Ok(Some(Event::Processed { partition, offset })) => Some((topic, partition, offset)),
        _ => None,
    }
}

/// How long reading the output topic to its end may take.
const READ_TIMEOUT: Duration = Duration::from_secs(60);

/// Makes `output` again, empty, with one partition replicated as the cluster's
/// default.replication.factor says (1 on the single node, 3 on the three-node cluster).
pub fn init(broker: &BrokerArgs, output: &str) -> Result<()> {
    krb_topic::run(&krb_topic::Args {
        topic: output.to_string(),
        partitions: Some(1),
        delete: false,
        replication: -1,
        broker: broker.clone(),
    })
}

/// The committed effects in `output` (as the lab calls it) of processing `topic`'s messages
/// (as Kafka calls it), counted per message.
pub fn counts(broker: &BrokerArgs, output: &str, topic: &str) -> Result<krb_dups::Counts> {
    let consumer: BaseConsumer = broker
        .config(
            "krb-effects",
            &[
                ("group.id", "krb-effects".to_string()),
                ("enable.auto.commit", "false".to_string()),
                ("enable.partition.eof", "true".to_string()),
                ("isolation.level", "read_committed".to_string()),
            ],
        )
        .create()
        .context("cannot create the consumer")?;
    let partitions = broker.topic_partitions(consumer.client(), output)? as Partition;
    let output = &broker.name(output);
    let mut tpl = TopicPartitionList::new();
    for p in 0..partitions {
        tpl.add_partition_offset(output, p, KafkaOffset::Beginning)
            .context("cannot read from the beginning")?;
    }
    consumer
        .assign(&tpl)
        .with_context(|| format!("cannot read {output}"))?;
    let mut counts = krb_dups::Counts::new();
    let mut at_end = 0;
    let start = Instant::now();
    while at_end < partitions {
        if start.elapsed() > READ_TIMEOUT {
            bail!(
                "{output} was not read to its end within {} s: is a transaction still open?",
                READ_TIMEOUT.as_secs()
            );
        }
        match consumer.poll(Duration::from_millis(200)) {
            None => {}
            Some(Err(KafkaError::PartitionEOF(_))) => at_end += 1,
            Some(Err(e)) => bail!("cannot read {output}: {e}"),
            Some(Ok(m)) => {
                let text = m.payload().map(String::from_utf8_lossy).unwrap_or_default();
                let worker = m.key().unwrap_or_default();
                match parse_value(&text) {
                    Some((t, p, o)) if t == topic => counts.add(worker, p, o),
                    Some(_) => {}
                    None => bail!(
                        "{output} p{} offset {} is not a processing's effect: {text:?}",
                        m.partition(),
                        m.offset()
                    ),
                }
            }
        }
    }
    Ok(counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_names_its_input_message() {
        let v = value("pay", 1, 481);
        assert_eq!(v, "pay p1 offset 481");
        assert_eq!(parse_value(&v), Some(("pay", 1, 481)));
        assert_eq!(parse_value("pay p1 offset x"), None);
        assert_eq!(parse_value("pay"), None);
    }
}
