//! krb-topic: create a topic with N partitions, empty, so a lab can be rerun.

use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use clap::Parser;
use krb_common::broker::{wait, BrokerArgs};
use rdkafka::admin::{AdminClient, AdminOptions, NewTopic, TopicReplication};
use rdkafka::client::DefaultClientContext;
use rdkafka::error::RDKafkaErrorCode;

/// krb-topic: create TOPIC with PARTITIONS partitions (replication factor 1, or --replication N).
///
/// An existing TOPIC is deleted first and created again empty, so a lab can be rerun from a
/// clean start. Prints `Created topic TOPIC.` as kafka-topics.sh does. With --delete, TOPIC is
/// only deleted (lab 7 clears each trial's topic away, so node restarts stay short).
#[derive(Parser, Debug)]
#[command(name = "krb-topic", version, verbatim_doc_comment)]
pub struct Args {
    /// The topic to (re)create.
    pub topic: String,
    /// How many partitions it gets.
    #[arg(value_parser = clap::value_parser!(i32).range(1..), required_unless_present = "delete", conflicts_with = "delete")]
    pub partitions: Option<i32>,
    /// How many copies of each partition (the brokers' count at most; 3 on the three-node cluster).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(i32).range(1..))]
    pub replication: i32,
    /// Only delete the topic.
    #[arg(long)]
    pub delete: bool,
    #[command(flatten)]
    pub broker: BrokerArgs,
}

/// How long a deletion may take to finish, and a new topic to get its leaders.
const RECREATE_TIMEOUT: Duration = Duration::from_secs(30);

/// Deletes the topic if it exists; then, unless --delete, creates it and waits until the
/// broker serves it.
pub fn run(args: &Args) -> Result<()> {
    let (admin, options) = args.broker.admin("krb-topic")?;
    let name = args.broker.name(&args.topic);
    let existed = delete(&admin, &options, &name)?;
    let Some(partitions) = args.partitions else {
        if existed {
            println!("Deleted topic {name}.");
        } else {
            println!("Topic {name} does not exist.");
        }
        return Ok(());
    };
    let topic = NewTopic::new(&name, partitions, TopicReplication::Fixed(args.replication));
    // The controller may still be removing the old topic's partitions: until it has, creating
    // reports that the topic exists.
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
            None => bail!("the broker did not answer the request to create {name}"),
        }
    }
    // Wait until the broker serves every partition, so a producer started next finds them.
    while start.elapsed() < RECREATE_TIMEOUT {
        let ready = served(&admin, &name)?.is_some_and(|leaders| {
            leaders.len() == partitions as usize && leaders.iter().all(|l| *l >= 0)
        });
        if ready {
            println!("Created topic {name}.");
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    bail!("topic {name} was created but its partitions had no leader within 30 s")
}

/// Deletes topic `name` and waits until the broker no longer serves it; says whether it existed.
///
/// Waiting matters: the broker applies the controller's records after the controller answers,
/// so a topic deleted and created again at once can still be served as the old one for a
/// moment, then not at all, then as the new one. A client started in that moment is told the
/// topic does not exist, or consumes the old one.
fn delete(
    admin: &AdminClient<DefaultClientContext>,
    options: &AdminOptions,
    name: &str,
) -> Result<bool> {
    let deleted =
        wait(admin.delete_topics(&[name], options)).context("cannot delete the old topic")?;
    match deleted.into_iter().next() {
        Some(Ok(_)) => {}
        None | Some(Err((_, RDKafkaErrorCode::UnknownTopicOrPartition))) => return Ok(false),
        Some(Err((name, code))) => bail!("cannot delete the old topic {name}: {code}"),
    }
    let start = Instant::now();
    while start.elapsed() < RECREATE_TIMEOUT {
        if served(admin, name)?.is_none() {
            return Ok(true);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    bail!("topic {name} was deleted but the broker still served it after 30 s")
}

/// The leader of each partition of topic `name` as the broker serves it, or None when it does
/// not. Asks for every topic: a request naming one lets a broker create it.
fn served(admin: &AdminClient<DefaultClientContext>, name: &str) -> Result<Option<Vec<i32>>> {
    let metadata = admin
        .inner()
        .fetch_metadata(None, Duration::from_secs(5))
        .context("cannot read the broker's topics")?;
    Ok(metadata
        .topics()
        .iter()
        .find(|t| t.name() == name && t.error().is_none())
        .map(|t| t.partitions().iter().map(|p| p.leader()).collect()))
}
