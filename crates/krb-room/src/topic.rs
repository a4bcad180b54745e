//! The room's name and its participants' topics, `NS-krb-room-ROOM`: under their own
//! namespace, which in a room with logins only they may write (their ACLs are on `NS-`). One
//! partition each, so that the page reads a participant's records in the order they were
//! published.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use krb_kafka::broker::{wait, BrokerArgs, REACH_TIMEOUT};
use rdkafka::admin::{NewTopic, TopicReplication};
use rdkafka::error::RDKafkaErrorCode;
use rdkafka::metadata::MetadataTopic;
use rdkafka::producer::{BaseProducer, BaseRecord, DeliveryResult, Producer, ProducerContext};
use rdkafka::ClientContext;

/// What every participant's topic of room `room` ends with, after their namespace and `-`.
pub fn suffix(room: &str) -> String {
    format!("krb-room-{room}")
}

pub fn name(ns: &str, room: &str) -> String {
    format!("{ns}-{}", suffix(room))
}

/// The participant whose topic `topic` is in room `room`: the namespace before its suffix, or
/// none if it is not one of the room's topics.
pub fn owner<'t>(room: &str, topic: &'t str) -> Option<&'t str> {
    let ns = topic.strip_suffix(&suffix(room))?.strip_suffix('-')?;
    (!ns.is_empty()).then_some(ns)
}

/// Checks a room's name: it becomes part of a topic name, so it takes only what a topic name
/// may hold, and its topic's name stays within Kafka's 249 characters.
pub fn parse_room(s: &str) -> Result<String, String> {
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-');
    if s.is_empty() || s.len() > 100 || !s.chars().all(allowed) {
        return Err(format!(
            "a room is 1 to 100 letters, digits, '.', '_' or '-' (each participant's topic is NS-krb-room-ROOM), \
             got {s:?}: e.g. KRB_ROOM=monday"
        ));
    }
    Ok(s.to_string())
}

const SERVED_TIMEOUT: Duration = Duration::from_secs(30);

/// Creates `topic` unless it exists, and waits until the broker serves it; returns its
/// partitions.
pub fn ensure(broker: &BrokerArgs, topic: &str) -> Result<Vec<i32>> {
    let (admin, options) = broker.admin("krb-room")?;
    if let Some(partitions) = served(broker, admin.inner(), topic)? {
        return Ok(partitions);
    }
    let new = NewTopic::new(topic, 1, TopicReplication::Fixed(1));
    let created = wait(admin.create_topics([&new], &options))
        .with_context(|| format!("cannot create topic {topic}"))?;
    match created.into_iter().next() {
        // Another participant's first record may have created it a moment ago.
        Some(Ok(_)) | Some(Err((_, RDKafkaErrorCode::TopicAlreadyExists))) => {}
        Some(Err((_, code))) => bail!(
            "cannot create topic {topic} on {}: {code}",
            broker.bootstrap
        ),
        None => bail!("the broker did not answer the request to create {topic}"),
    }
    let start = Instant::now();
    while start.elapsed() < SERVED_TIMEOUT {
        if let Some(partitions) = served(broker, admin.inner(), topic)? {
            return Ok(partitions);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    bail!("topic {topic} was created but had no leader within 30 s")
}

/// The partitions of `topic` if the broker serves it ([`partitions`]).
fn served<C: rdkafka::client::ClientContext>(
    broker: &BrokerArgs,
    client: &rdkafka::client::Client<C>,
    topic: &str,
) -> Result<Option<Vec<i32>>> {
    // All topics, not Some(topic): a request that names a topic lets the broker create it.
    let metadata = client
        .fetch_metadata(None, REACH_TIMEOUT)
        .map_err(|e| anyhow::anyhow!(broker.unreachable(&e)))?;
    let found = metadata.topics().iter().find(|t| t.name() == topic);
    Ok(found.and_then(partitions))
}

/// A topic's partitions if the broker serves it: no error, and each partition with a leader.
pub fn partitions(t: &MetadataTopic) -> Option<Vec<i32>> {
    let partitions: Vec<i32> = t.partitions().iter().map(|p| p.id()).collect();
    let led = t.partitions().iter().all(|p| p.leader() >= 0);
    (t.error().is_none() && !partitions.is_empty() && led).then_some(partitions)
}

const DELIVERY_TIMEOUT: Duration = Duration::from_secs(15);

#[derive(Default)]
struct Deliveries {
    failed: Mutex<Vec<String>>,
}

impl ClientContext for Deliveries {}

impl ProducerContext for Deliveries {
    type DeliveryOpaque = ();

    fn delivery(&self, result: &DeliveryResult<'_>, _: ()) {
        if let Err((e, _)) = result {
            self.failed
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(e.to_string());
        }
    }
}

/// Creates the participant's topic if missing and sends `lines` to it; returns how many the
/// broker acknowledged (all, or an error).
pub fn send(broker: &BrokerArgs, topic: &str, lines: &[String]) -> Result<usize> {
    ensure(broker, topic)?;
    if lines.is_empty() {
        return Ok(0);
    }
    let timeout = DELIVERY_TIMEOUT.as_millis().to_string();
    let producer: BaseProducer<Deliveries> = broker
        .config("krb-room", &[("message.timeout.ms", timeout)])
        .create_with_context(Deliveries::default())
        .context("cannot create a producer")?;
    for line in lines {
        let record: BaseRecord<'_, (), String> = BaseRecord::to(topic).payload(line);
        if let Err((e, _)) = producer.send(record) {
            bail!("cannot send a record to {topic}: {e}");
        }
    }
    producer
        .flush(DELIVERY_TIMEOUT)
        .with_context(|| format!("the records to {topic} were not acknowledged within 15 s"))?;
    let failed = producer
        .context()
        .failed
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone();
    if let Some(first) = failed.first() {
        bail!(
            "{} of {} record(s) to {topic} failed: {first}",
            failed.len(),
            lines.len()
        );
    }
    Ok(lines.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_room_names_a_topic_and_holds_only_what_a_topic_name_may() {
        assert_eq!(parse_room("monday_2.b-c"), Ok("monday_2.b-c".into()));
        assert_eq!(name("alice", "monday"), "alice-krb-room-monday");
        let longest = "x".repeat(100);
        assert_eq!(parse_room(&longest), Ok(longest.clone()));
        for bad in ["", "mon day", "a/b", "월요일", &"x".repeat(101)] {
            let err = parse_room(bad).unwrap_err();
            assert!(
                err.contains("KRB_ROOM=monday") && err.contains(&format!("{bad:?}")),
                "{bad:?}: {err}"
            );
        }
    }

    #[test]
    fn a_topic_of_the_room_is_owned_by_the_namespace_before_its_suffix() {
        assert_eq!(owner("monday", "alice-krb-room-monday"), Some("alice"));
        // A namespace may hold '-' (without logins): all of it before the suffix.
        assert_eq!(owner("monday", "a-b-krb-room-monday"), Some("a-b"));
        assert_eq!(owner("mon-day", "kim-krb-room-mon-day"), Some("kim"));
        for other in [
            "krb-room-monday",
            "-krb-room-monday",
            "alice-krb-room-monday2",
            "alice-krb-room-tuesday",
            "alicekrb-room-monday",
            "alice-pay",
        ] {
            assert_eq!(owner("monday", other), None, "{other}");
        }
    }
}
