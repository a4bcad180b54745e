//! krb-topic: create a topic with N partitions, empty, so a lab can be rerun; or check that a
//! lab's topic is there, filled.

pub mod messages;

use std::time::{Duration, Instant};

use anyhow::{bail, ensure, Context, Result};
use clap::Parser;
use krb_cli::lang::Lang;
use krb_kafka::broker::{wait, Admin, BrokerArgs, REACH_TIMEOUT};
use krb_kafka::topic_readers::{self, Reader};
use messages as m;
use rdkafka::admin::{AdminOptions, NewTopic, TopicReplication};
use rdkafka::error::RDKafkaErrorCode::{TopicAlreadyExists, UnknownTopicOrPartition};

/// krb-topic: create TOPIC with PARTITIONS partitions (replication factor 1, or --replication N).
///
/// An existing TOPIC is deleted first and created again empty, so a lab can be rerun from a
/// clean start. Prints `Created topic TOPIC.` as kafka-topics.sh does. With --delete, TOPIC is
/// only deleted (lab 7 clears each trial's topic away, so node restarts stay short).
///
/// A topic that a consumer group with live members reads (a member owns one of its partitions;
/// or no member owns any yet, as when one is joining, and the group has committed offsets of
/// it) is neither deleted nor recreated: krb-topic says which groups read it, with their live
/// members, and exits 1. This holds for the topic's name
/// on the broker, with or without a namespace: `krb-topic alice-pay 2` is refused while alice's
/// workers read alice-pay. --force deletes it anyway (the teacher resetting a room).
///
/// With --expect MESSAGES it changes nothing: it checks that TOPIC exists with PARTITIONS
/// partitions holding MESSAGES messages in all, as a lab that reads a topic it did not make
/// needs (lab 1: pay), and says in one line what differs, exiting 1.
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
    /// Delete the topic even while a group with live members reads it.
    #[arg(long)]
    pub force: bool,
    /// Only check, changing nothing: the topic has PARTITIONS partitions holding this many messages.
    #[arg(long, value_name = "MESSAGES", requires = "partitions", conflicts_with_all = ["delete", "force"])]
    pub expect: Option<i64>,
    #[command(flatten)]
    pub broker: BrokerArgs,
}

/// How long a deletion may take to finish, and a new topic to get its leaders.
const RECREATE_TIMEOUT: Duration = Duration::from_secs(30);

/// How long to wait for a group in its first rebalance to show what it reads.
const UNSURE_TIMEOUT: Duration = Duration::from_secs(10);

/// Deletes the topic if it exists and no live group reads it (or --force); then, unless
/// --delete, creates it and waits until the broker serves it.
pub fn run(args: &Args) -> Result<()> {
    let lang = Lang::from_env()?;
    let (admin, options) = args.broker.admin("krb-topic")?;
    let name = args.broker.name(&args.topic);
    if let (Some(messages), Some(partitions)) = (args.expect, args.partitions) {
        let leaders = served(&admin, &name)?
            .ok_or_else(|| anyhow::anyhow!(m::NO_TOPIC.fill(lang, &[("topic", &name)])))?;
        let (found, mut held) = (leaders.len() as i32, 0);
        for p in 0..found {
            let (low, high) = admin
                .inner()
                .fetch_watermarks(&name, p, REACH_TIMEOUT)
                .with_context(|| format!("cannot read the offsets of {name} p{p}"))?;
            held += high - low;
        }
        bail_if_differs(lang, &name, (partitions, messages), (found, held))?;
        println!(
            "{}",
            m::READY.fill(
                lang,
                &[
                    ("topic", &name),
                    ("partitions", &found),
                    ("messages", &held)
                ]
            )
        );
        return Ok(());
    }
    if !args.force && served(&admin, &name)?.is_some() {
        unread(lang, &admin, &name)?;
    }
    let existed = delete(lang, &admin, &options, &name)?;
    let Some(partitions) = args.partitions else {
        let said = if existed { m::DELETED } else { m::ABSENT };
        println!("{}", said.fill(lang, &[("topic", &name)]));
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
            Some(Err((_, TopicAlreadyExists))) if start.elapsed() < RECREATE_TIMEOUT => {
                std::thread::sleep(Duration::from_millis(200))
            }
            Some(Err((name, code))) => {
                bail!(m::NOT_CREATED.fill(lang, &[("topic", &name), ("code", &code)]))
            }
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
    let seconds = RECREATE_TIMEOUT.as_secs();
    bail!(m::NO_LEADER.fill(lang, &[("topic", &name), ("seconds", &seconds)]))
}

/// What a topic the lab did not make must be: `want` (partitions, messages) against `found`.
fn bail_if_differs(lang: Lang, name: &str, want: (i32, i64), found: (i32, i64)) -> Result<()> {
    if found.0 != want.0 {
        bail!(m::PARTITIONS.fill(
            lang,
            &[
                ("topic", &name),
                ("found", &found.0),
                ("partitions", &want.0)
            ]
        ));
    }
    if found.1 != want.1 {
        bail!(m::MESSAGES.fill(
            lang,
            &[("topic", &name), ("found", &found.1), ("messages", &want.1)]
        ));
    }
    Ok(())
}

/// Fails, naming them, when groups with live members read topic `name`. A group in its first
/// rebalance (group.initial.rebalance.delay.ms: 3 s by default, 0 on kafka-local.sh's broker) is
/// asked again for [`UNSURE_TIMEOUT`] at most; one still unsure then may read the topic, which is
/// kept (a rebalance that long is a member stuck in it, whose partitions come back after).
fn unread(lang: Lang, admin: &Admin, name: &str) -> Result<()> {
    let start = Instant::now();
    loop {
        let look = topic_readers::look(admin.inner(), name, REACH_TIMEOUT).with_context(|| {
            format!("cannot tell whether a group reads topic {name} (--force deletes it anyway)")
        })?;
        ensure!(look.readers.is_empty(), refusal(lang, name, &look.readers));
        if look.unsure.is_empty() {
            return Ok(());
        }
        if start.elapsed() >= UNSURE_TIMEOUT {
            bail!(unsure(lang, name, &look.unsure));
        }
        std::thread::sleep(Duration::from_millis(250));
    }
}

/// The one line that refuses to delete topic `name`, which `readers` read.
fn refusal(lang: Lang, name: &str, readers: &[Reader]) -> String {
    let msg = match readers {
        [_] => m::REFUSED_ONE,
        _ => m::REFUSED_MANY,
    };
    let named = topic_readers::named(lang, readers);
    msg.fill(lang, &[("topic", &name), ("readers", &named)])
}

/// The one line that refuses to delete topic `name` while `groups` cannot be told what they read.
fn unsure(lang: Lang, name: &str, groups: &[String]) -> String {
    let msg = match groups {
        [_] => m::UNSURE_ONE,
        _ => m::UNSURE_MANY,
    };
    msg.fill(
        lang,
        &[
            ("topic", &name),
            ("groups", &groups.join(", ")),
            ("seconds", &UNSURE_TIMEOUT.as_secs()),
        ],
    )
}

/// Deletes topic `name` and waits until the broker no longer serves it; says whether it existed.
///
/// The broker applies the controller's records after the controller answers: a topic deleted
/// and created again at once can be served as the old one, then not at all, then as the new
/// one, and a client started meanwhile is told it does not exist, or consumes the old one.
fn delete(lang: Lang, admin: &Admin, options: &AdminOptions, name: &str) -> Result<bool> {
    let deleted =
        wait(admin.delete_topics(&[name], options)).context("cannot delete the old topic")?;
    match deleted.into_iter().next() {
        Some(Ok(_)) => {}
        None | Some(Err((_, UnknownTopicOrPartition))) => return Ok(false),
        Some(Err((name, code))) => {
            bail!(m::NOT_DELETED.fill(lang, &[("topic", &name), ("code", &code)]))
        }
    }
    let start = Instant::now();
    while start.elapsed() < RECREATE_TIMEOUT {
        if served(admin, name)?.is_none() {
            return Ok(true);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let seconds = RECREATE_TIMEOUT.as_secs();
    bail!(m::STILL_SERVED.fill(lang, &[("topic", &name), ("seconds", &seconds)]))
}

/// The leader of each partition of topic `name` as the broker serves it, or None when it does
/// not. Asks for every topic: a request naming one lets a broker create it.
fn served(admin: &Admin, name: &str) -> Result<Option<Vec<i32>>> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_topic_that_differs_from_the_labs_is_one_line_naming_what() {
        assert!(bail_if_differs(Lang::En, "pay", (2, 1000), (2, 1000)).is_ok());
        let err = |found| {
            bail_if_differs(Lang::En, "pay", (2, 1000), found)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(err((1, 1000)), "topic pay has 1 partitions, not 2");
        assert_eq!(err((2, 0)), "topic pay holds 0 messages, not 1000");
        let ko = bail_if_differs(Lang::Ko, "pay", (2, 1000), (2, 0)).unwrap_err();
        assert_eq!(
            ko.to_string(),
            "pay 토픽에 메시지가 1000개가 아니라 0개 있습니다"
        );
        let args = Args::try_parse_from(["krb-topic", "pay", "2", "--expect", "1000"]).unwrap();
        assert_eq!(args.expect, Some(1000));
        assert!(Args::try_parse_from(["krb-topic", "pay", "--expect", "1000"]).is_err());
        assert!(Args::try_parse_from(["krb-topic", "pay", "--delete", "--expect", "1"]).is_err());
    }

    #[test]
    fn the_refusal_names_the_topic_and_every_reading_group_on_one_line() {
        let reader = |group: &str, members| Reader {
            group: group.into(),
            members,
        };
        let one = refusal(Lang::En, "alice-pay", &[reader("alice-nocommit", 2)]);
        assert_eq!(
            one,
            "topic alice-pay is not deleted: group alice-nocommit (2 live members) reads it. \
             Use topics of your own (KRB_NS=yourname), or wait until those workers stop; \
             --force deletes it anyway"
        );
        let two = refusal(Lang::En, "pay", &[reader("a", 1), reader("b", 1)]);
        assert!(two.contains(": groups a (1 live member) and b (1 live member) read it."));
        assert!(!one.contains('\n') && !two.contains('\n'));
        let ko = refusal(Lang::Ko, "alice-pay", &[reader("alice-nocommit", 2)]);
        assert_eq!(
            ko,
            "alice-pay 토픽을 지우지 않았습니다: alice-nocommit 그룹(살아 있는 구성원 2명)이 읽고 \
             있어요. 자기 토픽을 쓰거나(KRB_NS=yourname) 그 컨슈머들이 멈출 때까지 기다리세요. \
             --force를 주면 그래도 지웁니다"
        );
        let ko = refusal(Lang::Ko, "pay", &[reader("a", 1), reader("b", 3)]);
        assert!(
            ko.contains(": a 그룹(살아 있는 구성원 1명), b 그룹(살아 있는 구성원 3명)이 읽고"),
            "{ko}"
        );
    }

    #[test]
    fn a_group_that_cannot_be_told_refuses_the_deletion_on_one_line() {
        let one = unsure(Lang::En, "pay", &["fresh".to_string()]);
        assert_eq!(
            one,
            "topic pay is not deleted: group fresh is still in a rebalance after 10 s, so who \
             reads it cannot be told. Run it again once the group is through, or stop its \
             workers; --force deletes it anyway"
        );
        let two = unsure(Lang::En, "pay", &["a".to_string(), "b".to_string()]);
        assert!(
            two.contains(": groups a, b are still in a rebalance"),
            "{two}"
        );
        assert!(!two.contains('\n'));
        let ko = unsure(Lang::Ko, "pay", &["a".to_string(), "b".to_string()]);
        assert_eq!(
            ko,
            "pay 토픽을 지우지 않았습니다: a, b 그룹이 10초가 지나도 아직 리밸런스 중이라 누가 \
             읽는지 알 수 없어요. 리밸런스가 끝난 뒤 다시 실행하거나 그 컨슈머들을 멈추세요. \
             --force를 주면 그래도 지웁니다"
        );
    }

    #[test]
    fn force_is_a_flag_of_both_forms() {
        let args = Args::try_parse_from(["krb-topic", "pay", "2", "--force"]).unwrap();
        assert!(args.force);
        let args = Args::try_parse_from(["krb-topic", "pay", "--delete", "--force"]).unwrap();
        assert!(args.force && args.delete);
        let args = Args::try_parse_from(["krb-topic", "pay", "2"]).unwrap();
        assert!(!args.force);
    }
}
