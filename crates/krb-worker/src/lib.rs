//! The lab's manual-commit consumer (the article's worker.py).
//!
//! Auto-commit is off. A message counts as processed when its processing ends; every
//! `--commit-every` processed messages the worker commits, synchronously, the next position of
//! every partition it still owns whose position advanced. Rebalances are logged as they happen,
//! and with `--revoke-commit` the worker commits inside the revoke callback before handing its
//! partitions back. Every line follows [`krb_common::logline`].

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::Parser;
use krb_common::broker::BrokerArgs;
use krb_common::group::value_name;
pub use krb_common::group::{Assignor, GroupProtocol};
use krb_common::kafka_error::{code_of, error_description, render, render_commit_error};
use krb_common::logline::{format_time, Event, LogLine, Offset, Partition};
use krb_common::out::{stderr_line, stdout_line};
use krb_common::rdlog::{LogThread, MAXPOLL};
use krb_effect::{Db, Kind as EffectKind, Outcome, Row};
use rdkafka::client::ClientContext;
use rdkafka::consumer::{BaseConsumer, CommitMode, Consumer, ConsumerContext, Rebalance};
use rdkafka::error::RDKafkaErrorCode;
use rdkafka::message::Message;
use rdkafka::{Offset as KafkaOffset, TopicPartitionList};

/// krb-worker: a manual-commit Kafka consumer that logs every step of a rebalance.
///
/// Joins GROUP, consumes TOPIC from the earliest offset, "processes" each message by sleeping
/// --delay seconds, and writes one line per event to stdout:
///
///   09:13:29.854 nocommit-a p1 offset 481
///   09:13:29.854 nocommit-a revoked [0, 1]
///   09:13:29.861 nocommit-a assigned [0]
///   09:13:56.072 revcommit-a commit p1=490
///
/// librdkafka's own warnings go to stderr in librdkafka's format. SIGTERM or SIGINT stop it
/// cleanly: it leaves the group (the revoke callback runs) and exits 0; a second signal ends it
/// at once with exit status 130.
///
/// When the broker goes away the worker keeps running: librdkafka logs each failed connection
/// (`%3|...|FAIL|...`), a synchronous commit waits for the group's coordinator, as
/// confluent-kafka's does, and the worker goes on where it was once the broker is back. A fatal error (a
/// static member fenced by another with its --instance-id) ends it with one line and exit 1.
#[derive(Parser, Debug, Clone)]
#[command(name = "krb-worker", version, verbatim_doc_comment)]
pub struct Args {
    /// The worker's name: first word of its log lines and librdkafka's client.id.
    pub name: String,
    /// The consumer group to join.
    pub group: String,
    /// The topic to consume.
    pub topic: String,

    /// Seconds to process one message.
    #[arg(long, value_name = "SEC", default_value_t = 0.0)]
    pub delay: f64,

    /// Commit after every N processed messages.
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
    pub commit_every: u64,

    /// Commit synchronously in the revoke callback, up to what was processed, before handing
    /// partitions back (never when they were lost).
    #[arg(long)]
    pub revoke_commit: bool,

    /// Make processing of this offset slow (any partition).
    #[arg(long, value_name = "OFFSET")]
    pub slow_at: Option<Offset>,

    /// Seconds that processing of --slow-at takes.
    #[arg(long, value_name = "SEC", default_value_t = 15.0)]
    pub slow_sec: f64,

    /// max.poll.interval.ms: the longest allowed time between two polls.
    #[arg(long, value_name = "MS")]
    pub max_poll_ms: Option<u32>,

    /// session.timeout.ms: how long the coordinator waits for a heartbeat (classic protocol).
    #[arg(long, value_name = "MS")]
    pub session_timeout_ms: Option<u32>,

    /// partition.assignment.strategy (classic protocol).
    #[arg(long, value_enum)]
    pub assignor: Option<Assignor>,

    /// group.instance.id: a static member id that survives restarts.
    #[arg(long, value_name = "ID")]
    pub instance_id: Option<String>,

    /// group.protocol: classic (the article's) or consumer (KIP-848).
    #[arg(long, value_enum)]
    pub group_protocol: Option<GroupProtocol>,

    /// What processing a message leaves in --db besides its time: none (the article's), plain
    /// (a row per processing) or idempotent (a row per message; a second processing logs
    /// `pP offset O already applied`).
    #[arg(long, value_enum, default_value = "none")]
    pub effect: EffectKind,

    /// The database of --effect: sqlite:PATH (made by krb-effects init).
    #[arg(long, value_name = "URL")]
    pub db: Option<String>,

    #[command(flatten)]
    pub broker: BrokerArgs,
}

fn seconds(what: &str, value: f64) -> Result<Duration> {
    Duration::try_from_secs_f64(value)
        .with_context(|| format!("{what} must be a number of seconds, 0 or more; got {value}"))
}

impl Args {
    /// Checks what clap cannot: names without spaces, sane durations, options that fit the protocol.
    pub fn validate(&self) -> Result<()> {
        if self.name.is_empty() || self.name.contains(char::is_whitespace) {
            bail!(
                "the worker name {:?} must be one word: it starts every log line",
                self.name
            );
        }
        seconds("--delay", self.delay)?;
        seconds("--slow-sec", self.slow_sec)?;
        if self.effect != EffectKind::None && self.db.is_none() {
            bail!(
                "--effect {} writes to a database: pass --db sqlite:PATH (made by krb-effects init)",
                value_name(self.effect)
            );
        }
        if self.group_protocol == Some(GroupProtocol::Consumer) {
            if self.assignor.is_some() {
                bail!("--assignor is a classic-protocol setting; with --group-protocol consumer the broker assigns (use -X group.remote.assignor=uniform|range)");
            }
            if self.session_timeout_ms.is_some() {
                bail!("--session-timeout-ms is a classic-protocol setting; with --group-protocol consumer the broker's group.consumer.session.timeout.ms applies");
            }
        }
        Ok(())
    }

    /// The worker's librdkafka configuration.
    pub fn config(&self) -> rdkafka::ClientConfig {
        let mut extra = vec![
            ("group.id", self.group.clone()),
            ("enable.auto.commit", "false".to_string()),
            ("auto.offset.reset", "earliest".to_string()),
        ];
        if let Some(ms) = self.max_poll_ms {
            extra.push(("max.poll.interval.ms", ms.to_string()));
        }
        if let Some(ms) = self.session_timeout_ms {
            extra.push(("session.timeout.ms", ms.to_string()));
        }
        if let Some(a) = self.assignor {
            extra.push(("partition.assignment.strategy", value_name(a)));
        }
        if let Some(id) = &self.instance_id {
            extra.push(("group.instance.id", id.clone()));
        }
        if let Some(p) = self.group_protocol {
            extra.push(("group.protocol", value_name(p)));
        }
        self.broker.config(&self.name, &extra)
    }
}

/// Writes one log line to stdout, whole and at once (so `tail -f` is live).
fn emit(name: &str, event: Event) {
    stdout_line(&LogLine::now(name, event).to_string());
}

/// What the worker has processed and committed, per owned partition.
#[derive(Debug, Default)]
pub struct Positions {
    /// Next offset to read after what was processed.
    processed: BTreeMap<Partition, Offset>,
    /// Last committed next offset.
    committed: BTreeMap<Partition, Offset>,
}

impl Positions {
    /// Records that `offset` of `partition` was processed.
    pub fn processed(&mut self, partition: Partition, offset: Offset) {
        self.processed.insert(partition, offset + 1);
    }

    /// The positions that advanced past the last commit, ascending.
    pub fn uncommitted(&self) -> Vec<(Partition, Offset)> {
        self.processed
            .iter()
            .filter(|(p, o)| self.committed.get(p).is_none_or(|c| *o > c))
            .map(|(p, o)| (*p, *o))
            .collect()
    }

    /// Every processed position among `partitions`, committed before or not, ascending.
    pub fn of(&self, partitions: &[Partition]) -> Vec<(Partition, Offset)> {
        self.processed
            .iter()
            .filter(|(p, _)| partitions.contains(p))
            .map(|(p, o)| (*p, *o))
            .collect()
    }

    /// Records a successful commit.
    pub fn committed(&mut self, positions: &[(Partition, Offset)]) {
        self.committed.extend(positions.iter().copied());
    }

    /// Forgets partitions the worker no longer owns, so no later commit can move their position.
    pub fn forget(&mut self, partitions: &[Partition]) {
        for p in partitions {
            self.processed.remove(p);
            self.committed.remove(p);
        }
    }
}

/// The consumer's context: the rebalance callbacks and the positions they commit.
pub struct Worker {
    name: String,
    topic: String,
    revoke_commit: bool,
    positions: Mutex<Positions>,
}

impl ClientContext for Worker {}

fn partitions(tpl: &TopicPartitionList) -> Vec<Partition> {
    let mut ps: Vec<Partition> = tpl.elements().iter().map(|e| e.partition()).collect();
    ps.sort_unstable();
    ps
}

impl Worker {
    /// Commits, synchronously, the advanced positions or, when handing `revoked` partitions
    /// back, every position processed on them (so the hand-over is always on record), and logs it.
    fn commit(&self, consumer: &BaseConsumer<Worker>, revoked: Option<&[Partition]>) {
        let mut positions = self.positions.lock().unwrap_or_else(|e| e.into_inner());
        let pending = match revoked {
            Some(ps) => positions.of(ps),
            None => positions.uncommitted(),
        };
        if pending.is_empty() {
            return;
        }
        let mut tpl = TopicPartitionList::new();
        for (p, o) in &pending {
            // A position is always a valid offset; add_partition_offset only fails for INVALID.
            let _ = tpl.add_partition_offset(&self.topic, *p, KafkaOffset::Offset(*o));
        }
        match consumer.commit(&tpl, CommitMode::Sync) {
            Ok(()) => {
                positions.committed(&pending);
                emit(&self.name, Event::Commit(pending));
            }
            Err(e) => emit(&self.name, Event::CommitFailed(render_commit_error(&e))),
        }
    }
}

impl ConsumerContext for Worker {
    fn pre_rebalance(&self, consumer: &BaseConsumer<Self>, rebalance: &Rebalance<'_>) {
        match rebalance {
            Rebalance::Assign(tpl) => emit(&self.name, Event::Assigned(partitions(tpl))),
            Rebalance::Revoke(tpl) => {
                let ps = partitions(tpl);
                // librdkafka reports a lost assignment through the same revoke event.
                if consumer.assignment_lost() {
                    emit(&self.name, Event::Lost(ps.clone()));
                } else {
                    emit(&self.name, Event::Revoked(ps.clone()));
                    if self.revoke_commit {
                        self.commit(consumer, Some(&ps));
                    }
                }
                self.positions
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .forget(&ps);
            }
            Rebalance::Error(e) => stderr_line(&format!("{}: rebalance error: {e}", self.name)),
        }
    }
}

/// The text of a poll error as librdkafka wrote it. rust-rdkafka keeps only the code of a poll
/// error; for `_MAX_POLL_EXCEEDED` librdkafka wrote the same text, with the same numbers, in
/// its MAXPOLL warning, which the log thread saw first.
fn poll_error_text(code: i32, log: &LogThread<'_>) -> String {
    if code == RDKafkaErrorCode::PollExceeded as i32 {
        if let Some(text) = log.last_text(MAXPOLL) {
            return text.split(" (adjust").next().unwrap_or(&text).to_string();
        }
    }
    error_description(code)
}

/// Runs the worker until SIGTERM or SIGINT.
pub fn run(args: Args) -> Result<()> {
    args.validate()?;
    let stop = Arc::new(AtomicBool::new(false));
    for signal in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGINT] {
        // The first signal asks for a clean stop; a second one, while the worker still waits
        // (for a slow message, a commit, a broker that does not answer), ends it at once.
        signal_hook::flag::register_conditional_shutdown(signal, FORCED_EXIT, stop.clone())
            .context("cannot install signal handler")?;
        signal_hook::flag::register(signal, stop.clone())
            .context("cannot install signal handler")?;
    }
    let delay = seconds("--delay", args.delay)?;
    // The database answers before the worker joins its group, or the worker does not start.
    let db = match &args.db {
        Some(url) if args.effect != EffectKind::None => {
            let db = Db::open(url)?;
            db.check(args.effect)?;
            Some(db)
        }
        _ => None,
    };
    let slow = seconds("--slow-sec", args.slow_sec)?;
    let worker = Worker {
        name: args.name.clone(),
        topic: args.topic.clone(),
        revoke_commit: args.revoke_commit,
        positions: Mutex::new(Positions::default()),
    };
    let consumer: BaseConsumer<Worker> = args
        .config()
        .create_with_context(worker)
        .context("cannot create the consumer")?;
    emit(
        &args.name,
        Event::Consumes {
            topic: args.topic.clone(),
            group: args.group.clone(),
        },
    );
    let log = LogThread::start(consumer.client());
    args.broker
        .topic_partitions(consumer.client(), &args.topic)?;
    consumer
        .subscribe(&[&args.topic])
        .with_context(|| format!("cannot subscribe to {}", args.topic))?;

    let worker = consumer.context().clone();
    let mut since_commit = 0u64;
    while !stop.load(Ordering::Relaxed) {
        let message = match consumer.poll(Duration::from_millis(100)) {
            None => continue,
            Some(Err(e)) => {
                let code = code_of(&e).unwrap_or(-1);
                emit(
                    &args.name,
                    Event::PollError(render(code, &poll_error_text(code, &log))),
                );
                // A fatal error (a static member fenced by another with its instance id) leaves
                // the consumer unusable: say so and exit instead of polling forever.
                if let Some((code, reason)) = consumer.client().fatal_error() {
                    bail!(
                        "fatal error, the consumer cannot go on: {}",
                        render(code as i32, &reason)
                    );
                }
                continue;
            }
            Some(Ok(m)) => m,
        };
        let (partition, offset) = (message.partition(), message.offset());
        let payload = message
            .payload()
            .map(|p| String::from_utf8_lossy(p).into_owned())
            .unwrap_or_default();
        drop(message);
        if args.slow_at == Some(offset) {
            emit(&args.name, Event::SlowStart { partition, offset });
            std::thread::sleep(slow);
        } else {
            std::thread::sleep(delay);
        }
        // A database that fails ends the worker here, before anything past it is committed.
        let outcome = match &db {
            Some(db) => db.apply(
                args.effect,
                &Row {
                    topic: args.topic.clone(),
                    partition,
                    offset,
                    payload,
                    worker: args.name.clone(),
                    at: format_time(krb_common::logline::now()),
                },
            )?,
            None => Outcome::Applied,
        };
        emit(
            &args.name,
            match outcome {
                Outcome::Applied => Event::Processed { partition, offset },
                Outcome::AlreadyApplied => Event::AlreadyApplied { partition, offset },
            },
        );
        worker
            .positions
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .processed(partition, offset);
        since_commit += 1;
        if since_commit >= args.commit_every {
            since_commit = 0;
            worker.commit(&consumer, None);
        }
    }

    // Leave the group: the revoke callback runs inside these polls (and commits with
    // --revoke-commit); messages still arriving are not processed.
    consumer
        .close_queue()
        .context("cannot close the consumer")?;
    let closing = std::time::Instant::now();
    while !consumer.closed() {
        let _ = consumer.poll(Duration::from_millis(100));
        if closing.elapsed() > CLOSE_TIMEOUT {
            bail!(
                "could not leave group {} within {} s: is the broker at {} reachable?",
                args.group,
                CLOSE_TIMEOUT.as_secs(),
                args.broker.bootstrap
            );
        }
    }
    drop(log);
    Ok(())
}

/// The exit status when a second SIGTERM or SIGINT ends the worker before its clean stop.
pub const FORCED_EXIT: i32 = 130;

/// How long leaving the group may take before the worker gives up on a clean stop.
const CLOSE_TIMEOUT: Duration = Duration::from_secs(30);

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Args, clap::Error> {
        Args::try_parse_from(std::iter::once("krb-worker").chain(args.iter().copied()))
    }

    #[test]
    fn parses_the_articles_options() {
        let args = parse(&[
            "slow-a",
            "slow",
            "slow",
            "--delay",
            "0.5",
            "--commit-every",
            "1",
            "--slow-at",
            "3",
            "--slow-sec",
            "15",
            "--max-poll-ms",
            "10000",
            "--session-timeout-ms",
            "6000",
            "-X",
            "debug=cgrp",
        ])
        .unwrap();
        args.validate().unwrap();
        let config = args.config();
        assert_eq!(config.get("group.id"), Some("slow"));
        assert_eq!(config.get("client.id"), Some("slow-a"));
        assert_eq!(config.get("enable.auto.commit"), Some("false"));
        assert_eq!(config.get("max.poll.interval.ms"), Some("10000"));
        assert_eq!(config.get("session.timeout.ms"), Some("6000"));
        assert_eq!(config.get("debug"), Some("cgrp"));
        assert_eq!(args.slow_at, Some(3));
    }

    #[test]
    fn defaults_match_the_article() {
        let args = parse(&["a", "g", "t"]).unwrap();
        assert_eq!(args.commit_every, 100);
        assert!(!args.revoke_commit);
        assert_eq!(args.config().get("partition.assignment.strategy"), None);
    }

    #[test]
    fn an_effect_needs_a_database() {
        let args = parse(&["a", "g", "t", "--effect", "idempotent"]).unwrap();
        let err = args.validate().unwrap_err().to_string();
        assert!(err.contains("pass --db sqlite:PATH"), "{err}");
        let args = parse(&["a", "g", "t", "--effect", "plain", "--db", "sqlite:x.db"]).unwrap();
        args.validate().unwrap();
        assert_eq!(parse(&["a", "g", "t"]).unwrap().effect, EffectKind::None);
        assert!(parse(&["a", "g", "t", "--effect", "twice"]).is_err());
    }

    #[test]
    fn rejects_bad_input() {
        assert!(parse(&["a", "g", "t", "--commit-every", "0"]).is_err());
        assert!(parse(&["a", "g", "t", "--delay", "x"]).is_err());
        assert!(parse(&["a", "g", "t", "--assignor", "sticky"]).is_err());
        assert!(parse(&["a", "g"]).is_err());
        assert!(parse(&["a b", "g", "t"]).unwrap().validate().is_err());
        assert!(parse(&["a", "g", "t", "--delay=-1"])
            .unwrap()
            .validate()
            .is_err());
        assert!(parse(&[
            "a",
            "g",
            "t",
            "--group-protocol",
            "consumer",
            "--assignor",
            "range"
        ])
        .unwrap()
        .validate()
        .is_err());
    }

    #[test]
    fn commits_only_what_advanced_and_is_still_owned() {
        let mut pos = Positions::default();
        pos.processed(0, 10);
        pos.processed(1, 20);
        assert_eq!(pos.uncommitted(), vec![(0, 11), (1, 21)]);
        pos.committed(&[(0, 11), (1, 21)]);
        assert!(pos.uncommitted().is_empty());
        assert_eq!(pos.of(&[0]), vec![(0, 11)]);
        pos.processed(1, 21);
        assert_eq!(pos.uncommitted(), vec![(1, 22)]);
        pos.forget(&[1]);
        assert!(pos.uncommitted().is_empty());
        assert!(pos.of(&[1]).is_empty());
    }
}
