//! kafka-eos's effects: messages a worker produced to an output topic inside Kafka
//! transactions, read back as a read_committed consumer sees them (aborted transactions'
//! messages are never seen). Each message is one processing: its key the worker, its value the
//! input message as the log grammar writes a processing, after the input topic
//! (`pay p1 offset 481`).

use std::time::{Duration, Instant};

use anyhow::{bail, Result};
use krb_cli::lang::Lang;
use krb_kafka::broker::BrokerArgs;
use krb_log::logline::{Event, Offset, Partition};
use rdkafka::consumer::{BaseConsumer, Consumer};
use rdkafka::error::KafkaError;
use rdkafka::message::Message;
use rdkafka::{Offset as KafkaOffset, TopicPartitionList};

use crate::messages::{self as m, Said};

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

/// How long a count waits for a transaction of the output topic to close before it says it is
/// open: a worker's commit returns before the broker has written its markers.
const SETTLE_TIMEOUT: Duration = Duration::from_secs(10);

/// How long one watermark query may take.
const QUERY_TIMEOUT: Duration = Duration::from_secs(10);

/// A partition whose last stable offset is below its high watermark: a transaction still open
/// holds back every offset from its first one, and a read_committed reader gets none of them.
struct Unstable {
    partition: Partition,
    /// The last stable offset: the open transaction's first offset.
    stable: Offset,
    high: Offset,
}

/// The partitions of `output` a transaction still open holds back. Each consumer asks the
/// broker for the partition's end at its own isolation level: read_committed's is the last
/// stable offset, read_uncommitted's the high watermark.
fn unstable(
    committed: &BaseConsumer,
    uncommitted: &BaseConsumer,
    output: &str,
    partitions: Partition,
) -> Result<Vec<Unstable>> {
    let end = |consumer: &BaseConsumer, p| {
        consumer
            .fetch_watermarks(output, p, QUERY_TIMEOUT)
            .map(|(_, high)| high)
            .map_err(|e| {
                Said::new(m::END_NOT_READ, &[("topic", &output), ("partition", &p)]).because(e)
            })
    };
    let held = (0..partitions).map(|partition| {
        let (stable, high) = (end(committed, partition)?, end(uncommitted, partition)?);
        let unstable = Unstable {
            partition,
            stable,
            high,
        };
        Ok((stable < high).then_some(unstable))
    });
    held.filter_map(Result::transpose).collect()
}

/// What to tell a user whose count an open transaction would cut short.
fn open_transaction(output: &str, held: &[Unstable]) -> Said {
    let held_in = |lang| {
        let each = held.iter().map(|u| {
            let last = u.high - 1;
            let values: [(&str, &dyn std::fmt::Display); 3] =
                [("from", &u.stable), ("to", &last), ("p", &u.partition)];
            m::HELD.fill(lang, &values)
        });
        each.collect::<Vec<_>>().join(", ")
    };
    Said::new(
        m::OPEN_TRANSACTION,
        &[
            ("seconds", &SETTLE_TIMEOUT.as_secs()),
            ("held", &held_in(Lang::En)),
            ("topic", &output),
        ],
    )
    .ko("held", held_in(Lang::Ko))
}

/// Makes `output` again, empty, with one partition replicated as the cluster's
/// default.replication.factor says (1 on the single node, 3 on the three-node cluster).
pub fn init(broker: &BrokerArgs, output: &str) -> Result<()> {
    krb_topic::run(&krb_topic::Args {
        topic: output.to_string(),
        partitions: Some(1),
        delete: false,
        force: false,
        expect: None,
        replication: -1,
        broker: broker.clone(),
    })
}

/// A consumer of the output topic at `isolation` level.
fn reader(broker: &BrokerArgs, isolation: &str) -> Result<BaseConsumer> {
    broker
        .config(
            "krb-effects",
            &[
                // In the namespace: a room's ACLs allow only the groups under its prefix.
                ("group.id", broker.name("krb-effects")),
                ("enable.auto.commit", "false".to_string()),
                ("enable.partition.eof", "true".to_string()),
                ("isolation.level", isolation.to_string()),
            ],
        )
        .create()
        .map_err(|e| Said::new(m::NO_CONSUMER, &[]).because(e).into())
}

/// The committed effects in `output` (as the lab calls it) of processing `topic`'s messages
/// (as Kafka calls it), counted per message. A transaction of `output` still open after
/// [`SETTLE_TIMEOUT`] is an error: the count would silently stop before it.
pub fn counts(broker: &BrokerArgs, output: &str, topic: &str) -> Result<krb_dups::Counts> {
    let consumer = reader(broker, "read_committed")?;
    let partitions = broker.topic_partitions(consumer.client(), output)? as Partition;
    let output = &broker.name(output);
    let uncommitted = reader(broker, "read_uncommitted")?;
    let start = Instant::now();
    loop {
        let held = unstable(&consumer, &uncommitted, output, partitions)?;
        if held.is_empty() {
            break;
        }
        if start.elapsed() > SETTLE_TIMEOUT {
            bail!(open_transaction(output, &held));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let mut tpl = TopicPartitionList::new();
    for p in 0..partitions {
        tpl.add_partition_offset(output, p, KafkaOffset::Beginning)
            .map_err(|e| Said::new(m::NO_BEGINNING, &[]).because(e))?;
    }
    consumer
        .assign(&tpl)
        .map_err(|e| Said::new(m::TOPIC_NOT_READ, &[("topic", &output)]).because(e))?;
    let mut counts = krb_dups::Counts::new();
    let mut at_end = 0;
    let start = Instant::now();
    while at_end < partitions {
        if start.elapsed() > READ_TIMEOUT {
            bail!(Said::new(
                m::NOT_TO_THE_END,
                &[("topic", &output), ("seconds", &READ_TIMEOUT.as_secs())]
            ));
        }
        match consumer.poll(Duration::from_millis(200)) {
            None => {}
            Some(Err(KafkaError::PartitionEOF(_))) => at_end += 1,
            Some(Err(e)) => {
                bail!(Said::new(m::TOPIC_NOT_READ, &[("topic", &output)]).because(e))
            }
            Some(Ok(message)) => {
                let text = message
                    .payload()
                    .map(String::from_utf8_lossy)
                    .unwrap_or_default();
                let worker = message.key().unwrap_or_default();
                match parse_value(&text) {
                    Some((t, p, o)) if t == topic => counts.add(worker, p, o),
                    Some(_) => {}
                    None => bail!(Said::new(
                        m::NOT_AN_EFFECT,
                        &[
                            ("topic", &output),
                            ("partition", &message.partition()),
                            ("offset", &message.offset()),
                            ("value", &format!("{text:?}"))
                        ]
                    )),
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
    fn an_open_transaction_names_the_offsets_it_holds_back() {
        let held = [
            Unstable {
                partition: 0,
                stable: 7,
                high: 12,
            },
            Unstable {
                partition: 2,
                stable: 3,
                high: 4,
            },
        ];
        let said = open_transaction("pay-out", &held);
        let line = said.to_string();
        assert!(
            line.starts_with(
                "a transaction open for 10 s holds back offsets 7..11 of p0, offsets 3..3 of p2 \
                 of pay-out: a read_committed count would stop before it;"
            ),
            "{line}"
        );
        assert!(!line.contains('\n'));
        let korean = said.text(krb_cli::lang::Lang::Ko);
        assert!(
            korean.starts_with(
                "10초째 열려 있는 트랜잭션이 pay-out 토픽의 p0의 offset 7..11, p2의 offset 3..3에서 \
                 읽기를 막고 있습니다:"
            ),
            "{korean}"
        );
    }

    #[test]
    fn a_value_names_its_input_message() {
        let v = value("pay", 1, 481);
        assert_eq!(v, "pay p1 offset 481");
        assert_eq!(parse_value(&v), Some(("pay", 1, 481)));
        assert_eq!(parse_value("pay p1 offset x"), None);
        assert_eq!(parse_value("pay"), None);
    }
}
