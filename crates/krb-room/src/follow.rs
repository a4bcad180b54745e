//! The reader of the room's topics: every participant's topic (`NS-krb-room-ROOM`) from its
//! beginning, then each record as it is published, into a [`Room`] the server reads. A
//! participant's topic appears with their first record, so the broker's topics are looked at
//! again every [`LOOK_EVERY`]. On a thread of its own, with librdkafka's plain consumer: the
//! server's async runtime is for the page alone.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use krb_cli::out::stderr_line;
use krb_kafka::broker::{BrokerArgs, REACH_TIMEOUT};
use rdkafka::consumer::{BaseConsumer, Consumer};
use rdkafka::metadata::Metadata;
use rdkafka::{Message, Offset, TopicPartitionList};

use crate::room::Room;
use crate::topic;

/// The room as read so far, shared with the server.
pub type Shared = Arc<Mutex<Room>>;

/// How often the reader looks for topics of participants who have just published their first
/// record: as often as the page reloads.
pub const LOOK_EVERY: Duration = Duration::from_secs(2);

/// Starts reading room `room`'s topics from their beginning; returns the room it fills. Fails
/// if the broker does not answer.
pub fn start(broker: &BrokerArgs, room: &str) -> Result<Shared> {
    // The partitions are assigned, not subscribed, and nothing is committed: the page reads
    // every topic whole each time it starts, and joins no group and leaves no offsets on the
    // room's broker. librdkafka wants a group id all the same to assign partitions.
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
    let metadata = consumer
        .fetch_metadata(None, REACH_TIMEOUT)
        .map_err(|e| anyhow::anyhow!(broker.unreachable(&e)))?;
    let mut reading = BTreeSet::new();
    assign_new(&consumer, room, &metadata, &mut reading)?;
    let shared: Shared = Arc::default();
    let filled = Arc::clone(&shared);
    let room = room.to_string();
    std::thread::Builder::new()
        .name("follow".into())
        .spawn(move || {
            let mut looked = Instant::now();
            loop {
                if looked.elapsed() >= LOOK_EVERY {
                    looked = Instant::now();
                    let found = consumer
                        .fetch_metadata(None, REACH_TIMEOUT)
                        .map_err(anyhow::Error::from)
                        .and_then(|m| assign_new(&consumer, &room, &m, &mut reading));
                    if let Err(e) = found {
                        trouble(&filled, format!("{e:#}"));
                    }
                }
                match consumer.poll(Duration::from_millis(200)) {
                    Some(Ok(m)) => {
                        let Some(owner) = topic::owner(&room, m.topic()) else {
                            continue;
                        };
                        let place = format!(
                            "{} partition {} offset {}",
                            m.topic(),
                            m.partition(),
                            m.offset()
                        );
                        let mut room = filled.lock().unwrap_or_else(|e| e.into_inner());
                        if let Some(skipped) = room.add(owner, m.payload(), &place) {
                            stderr_line(&format!("krb-room: {skipped}"));
                        }
                    }
                    Some(Err(e)) => trouble(&filled, e.to_string()),
                    None => {}
                }
            }
        })
        .context("cannot start the topics' reader")?;
    Ok(shared)
}

/// Says the reader's error once, and keeps it for the page until the next message.
fn trouble(shared: &Shared, error: String) {
    let mut room = shared.lock().unwrap_or_else(|e| e.into_inner());
    if room.trouble.as_ref() != Some(&error) {
        stderr_line(&format!("krb-room: reading the topics: {error}"));
    }
    room.trouble = Some(error);
}

/// Adds the room's new topics to the consumer's assignment, each from its beginning: those in
/// `metadata` that are served ([`topic::partitions`]) and not yet in `reading`.
fn assign_new(
    consumer: &BaseConsumer,
    room: &str,
    metadata: &Metadata,
    reading: &mut BTreeSet<String>,
) -> Result<()> {
    let new: Vec<(String, Vec<i32>)> = metadata
        .topics()
        .iter()
        .filter(|t| topic::owner(room, t.name()).is_some() && !reading.contains(t.name()))
        .filter_map(|t| Some((t.name().to_string(), topic::partitions(t)?)))
        .collect();
    if new.is_empty() {
        return Ok(());
    }
    let mut assignment = TopicPartitionList::new();
    for (name, partitions) in &new {
        for p in partitions {
            assignment
                .add_partition_offset(name, *p, Offset::Beginning)
                .with_context(|| format!("cannot read topic {name} from its beginning"))?;
        }
    }
    consumer
        .incremental_assign(&assignment)
        .context("cannot read the room's new topics")?;
    reading.extend(new.into_iter().map(|(name, _)| name));
    Ok(())
}
