//! krb-topic: create a topic with N partitions, empty, so a lab can be rerun.

use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use clap::Parser;
use krb_common::broker::{wait, BrokerArgs};
use rdkafka::admin::{NewTopic, TopicReplication};
use rdkafka::error::RDKafkaErrorCode;

/// krb-topic: create TOPIC with PARTITIONS partitions (replication factor 1, or --replication N).
///
/// An existing TOPIC is deleted first and created again empty, so a lab can be rerun from a
/// clean start. Prints `Created topic TOPIC.` as kafka-topics.sh does.
#[derive(Parser, Debug)]
#[command(name = "krb-topic", version, verbatim_doc_comment)]
pub struct Args {
    /// The topic to (re)create.
    pub topic: String,
    /// How many partitions it gets.
    #[arg(value_parser = clap::value_parser!(i32).range(1..))]
    pub partitions: i32,
    /// How many copies of each partition (the brokers' count at most; 3 on the three-node cluster).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(i32).range(1..))]
    pub replication: i32,
    #[command(flatten)]
    pub broker: BrokerArgs,
}

/// How long a deletion may take to finish before the topic can be created again.
const RECREATE_TIMEOUT: Duration = Duration::from_secs(30);

/// Deletes the topic if it exists, creates it, and waits until the broker serves it.
pub fn run(args: &Args) -> Result<()> {
    let (admin, options) = args.broker.admin("krb-topic")?;
    let name = args.broker.name(&args.topic);
    let topic = NewTopic::new(
        &name,
        args.partitions,
        TopicReplication::Fixed(args.replication),
    );
    let deleted =
        wait(admin.delete_topics(&[&name], &options)).context("cannot delete the old topic")?;
    for result in deleted {
        match result {
            Ok(_) | Err((_, RDKafkaErrorCode::UnknownTopicOrPartition)) => {}
            Err((name, code)) => bail!("cannot delete the old topic {name}: {code}"),
        }
    }
    // A deletion finishes in the background; until it has, creating reports that the topic exists.
    let start = Instant::now();
    loop {
        let created =
            wait(admin.create_topics([&topic], &options)).context("cannot create the topic")?;
        match created.into_iter().next() {
            Some(Ok(_)) => break,
            Some(Err((_, RDKafkaErrorCode::TopicAlreadyExists)))
                if start.elapsed() < RECREATE_TIMEOUT =>
            {
                std::thread::sleep(Duration::from_millis(200))
            }
            Some(Err((name, code))) => bail!("cannot create topic {name}: {code}"),
            None => bail!("the broker did not answer the request to create {}", name),
        }
    }
    // Wait until the broker serves every partition, so a producer started next finds them.
    while start.elapsed() < RECREATE_TIMEOUT {
        let metadata = admin
            .inner()
            .fetch_metadata(Some(&name), Duration::from_secs(5))?;
        let ready = metadata.topics().iter().any(|t| {
            t.error().is_none()
                && t.partitions().len() == args.partitions as usize
                && t.partitions().iter().all(|p| p.leader() >= 0)
        });
        if ready {
            println!("Created topic {name}.");
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    bail!(
        "topic {} was created but its partitions had no leader within 30 s",
        name
    )
}
