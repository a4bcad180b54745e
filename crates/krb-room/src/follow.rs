//! The reader of the room's topic: from its beginning, then each record as it is published,
//! into a [`Room`] the server reads. On a thread of its own, with librdkafka's plain consumer:
//! the server's async runtime is for the page alone.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Context, Result};
use krb_common::broker::BrokerArgs;
use krb_common::out::stderr_line;
use rdkafka::consumer::{BaseConsumer, Consumer};
use rdkafka::{Message, Offset, TopicPartitionList};

use crate::room::Room;

/// The room as read so far, shared with the server.
pub type Shared = Arc<Mutex<Room>>;

/// Starts reading `topic`'s `partitions` from their beginning; returns the room it fills.
pub fn start(broker: &BrokerArgs, topic: &str, partitions: &[i32]) -> Result<Shared> {
    // The partitions are assigned, not subscribed, and nothing is committed: the page reads
    // the whole topic each time it starts, and the group joins nothing and leaves no offsets
    // on the room's broker. librdkafka wants a group id all the same to assign partitions.
    let consumer: BaseConsumer = broker
        .config(
            "krb-room",
            &[
                ("group.id", "krb-room-page".into()),
                ("enable.auto.commit", "false".into()),
                ("enable.auto.offset.store", "false".into()),
            ],
        )
        .create()
        .context("cannot create a consumer")?;
    let mut assignment = TopicPartitionList::new();
    for p in partitions {
        assignment
            .add_partition_offset(topic, *p, Offset::Beginning)
            .context("cannot read the topic from its beginning")?;
    }
    consumer
        .assign(&assignment)
        .with_context(|| format!("cannot read topic {topic}"))?;
    let shared: Shared = Arc::default();
    let room = Arc::clone(&shared);
    std::thread::Builder::new()
        .name("follow".into())
        .spawn(move || loop {
            let Some(message) = consumer.poll(Duration::from_millis(200)) else {
                continue;
            };
            let mut room = room.lock().unwrap_or_else(|e| e.into_inner());
            match message {
                Ok(m) => {
                    let place = format!("partition {} offset {}", m.partition(), m.offset());
                    if let Some(skipped) = room.add(m.key(), m.payload(), &place) {
                        stderr_line(&format!("krb-room: {skipped}"));
                    }
                }
                Err(e) => {
                    let error = e.to_string();
                    if room.trouble.as_ref() != Some(&error) {
                        stderr_line(&format!("krb-room: reading the topic: {error}"));
                    }
                    room.trouble = Some(error);
                }
            }
        })
        .context("cannot start the topic's reader")?;
    Ok(shared)
}
