//! The worker's command line: the article's options, librdkafka's through -X, and the checks
//! clap cannot make.

use std::time::Duration;

use anyhow::{bail, Result};
use clap::Parser;
use krb_cli::lang::Lang;
use krb_effect::Kind as EffectKind;
use krb_kafka::broker::BrokerArgs;
use krb_kafka::group_settings::value_name;
use krb_kafka::group_settings::{Assignor, GroupProtocol};
use krb_kafka::worker::WorkerArgs;

use crate::cadence::Cadence;

krb_cli::msgs! { ALL;
    /// An effect with no store named.
    EFFECT_NEEDS_DB =
        "--effect {effect} writes to a database: pass --db sqlite:PATH or --db \
        postgres://USER@HOST:PORT/DB (tables made by krb-effects init), or, for kafka-eos, --db \
        kafka:TOPIC",
        "--effect {effect}는 데이터베이스에 써요: --db sqlite:PATH나 --db \
        postgres://USER@HOST:PORT/DB(테이블은 krb-effects init이 만들어요)를, kafka-eos라면 --db \
        kafka:TOPIC을 주세요";
    /// --assignor under KIP-848's protocol.
    ASSIGNOR_CLASSIC =
        "--assignor is a classic-protocol setting; with --group-protocol consumer the broker \
        assigns (use -X group.remote.assignor=uniform|range)",
        "--assignor는 classic 프로토콜의 설정이에요. --group-protocol consumer에서는 브로커가 \
        할당해요(-X group.remote.assignor=uniform|range를 쓰세요)";
    /// --session-timeout-ms under KIP-848's protocol.
    SESSION_CLASSIC =
        "--session-timeout-ms is a classic-protocol setting; with --group-protocol consumer the \
        broker's group.consumer.session.timeout.ms applies",
        "--session-timeout-ms는 classic 프로토콜의 설정이에요. --group-protocol consumer에서는 \
        브로커의 group.consumer.session.timeout.ms가 적용돼요";
}

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
/// cleanly: it leaves the group (on_revoke runs) and exits 0; a second signal ends it
/// at once with exit status 130.
///
/// When the broker goes away the worker keeps running: librdkafka logs each failed connection
/// (`%3|...|FAIL|...`), a synchronous commit waits for the group's coordinator, as
/// confluent-kafka's does, and the worker goes on where it was once the broker is back. A fatal error (a
/// static member fenced by another with its --instance-id) ends it with one line and exit 1. A
/// command line it cannot run (a bad option, a name with spaces, an --effect without its --db)
/// is one line and exit 2.
#[derive(Parser, Debug, Clone)]
#[command(name = "krb-worker", version, verbatim_doc_comment)]
pub struct Args {
    #[command(flatten)]
    pub worker: WorkerArgs,

    /// Commit after every N processed messages [default: 100, or no count when
    /// --commit-interval-ms is given alone].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub commit_every: Option<u64>,

    /// Also commit once MS milliseconds have passed since the last commit, as Kafka Streams'
    /// commit.interval.ms does (100 under exactly_once_v2); with --commit-every as well,
    /// whichever comes first. With every --effect, kafka-eos's transactions included.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    pub commit_interval_ms: Option<u64>,

    /// Commit synchronously in on_revoke, up to what was processed, before handing
    /// partitions back (never when they were lost).
    #[arg(long)]
    pub revoke_commit: bool,

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

    /// Exit once every assigned partition has been read to its end, as kcat -e does (to
    /// consume what a topic holds, in a script or a benchmark).
    #[arg(short = 'e', long)]
    pub exit_at_end: bool,

    /// group.protocol: classic (the article's) or consumer (KIP-848).
    #[arg(long, value_enum)]
    pub group_protocol: Option<GroupProtocol>,

    /// What processing a message leaves in --db besides its time: none (the article's), plain
    /// (a row per processing), idempotent (a row per message; a second processing logs
    /// `pP offset O already applied`) or db-offsets (the row and the partition's next position
    /// in one transaction; an assigned partition starts at the database's position, and a
    /// transaction that finds the position moved on is rolled back: `pP offset O refused`) or
    /// kafka-eos (a message to the output topic in a Kafka transaction with the consumed
    /// offsets, committed every --commit-every messages and in on_revoke, aborted when the
    /// partitions are lost or the broker refuses it: `transaction aborted: KafkaError{...}`).
    #[arg(long, value_enum, default_value = "none")]
    pub effect: EffectKind,

    /// The store of --effect: sqlite:PATH or postgres://USER@HOST:PORT/DB, its tables made by
    /// krb-effects init, or for kafka-eos kafka:TOPIC, the output topic.
    #[arg(long, value_name = "URL")]
    pub db: Option<String>,

    /// Test only, hidden from --help: a zombie. The worker holds each polled message back until
    /// it polls the next, and the first one it holds when a revoke callback has taken its
    /// partition away it processes after the callback, on a partition it no longer owns, as a
    /// worker whose processing outlived its ownership does (one revoked and given back in the
    /// same poll is dropped: it comes again from the committed position); lab 7's ownership
    /// check and krb-e2e's worker_guards test need one on demand. Never for a lab.
    #[arg(long, hide = true)]
    pub test_zombie: bool,

    #[command(flatten)]
    pub broker: BrokerArgs,
}

/// How a worker fetches, whatever its pace: with librdkafka's defaults a full queue (100,000
/// messages a partition) stops fetching for a whole second, and a read at full speed went in
/// bursts (docs/en/internals/benchmarks.md); a worker that takes time over each message (every
/// lab) never holds more than it can use.
const FETCH: [(&str, &str); 4] = [
    ("queued.min.messages", "10000"),
    ("queued.max.messages.kbytes", "1024"),
    ("fetch.max.bytes", "1048576"),
    ("fetch.queue.backoff.ms", "10"),
];

/// How long the broker holds a fetch that finds nothing new for a worker run with -e: the end
/// of a partition is only known from such a fetch, and librdkafka's 500 ms was the last half
/// second of every read to the end.
const FETCH_WAIT_AT_END_MS: &str = "10";

impl Args {
    /// When the worker commits: every --commit-every messages and/or every --commit-interval-ms.
    pub fn cadence(&self) -> Cadence {
        Cadence {
            every: self
                .commit_every
                .or(self.commit_interval_ms.is_none().then_some(100)),
            interval: self.commit_interval_ms.map(Duration::from_millis),
        }
    }

    /// Checks what clap cannot: names without spaces, sane durations, options that fit the protocol.
    pub fn validate(&self) -> Result<()> {
        self.worker.validate()?;
        match &self.db {
            None if self.effect != EffectKind::None => {
                bail!(EFFECT_NEEDS_DB
                    .fill(Lang::of_process(), &[("effect", &value_name(self.effect))]))
            }
            Some(url) => krb_effect::check_url(self.effect, url)?,
            None => {}
        }
        if self.group_protocol == Some(GroupProtocol::Consumer) {
            let lang = Lang::of_process();
            if self.assignor.is_some() {
                bail!(ASSIGNOR_CLASSIC.text(lang));
            }
            if self.session_timeout_ms.is_some() {
                bail!(SESSION_CLASSIC.text(lang));
            }
        }
        Ok(())
    }

    pub fn config(&self) -> rdkafka::ClientConfig {
        let mut extra = vec![
            ("enable.auto.commit", "false".to_string()),
            ("auto.offset.reset", "earliest".to_string()),
        ];
        extra.extend(FETCH.iter().map(|(k, v)| (*k, v.to_string())));
        if self.exit_at_end {
            extra.push(("enable.partition.eof", "true".to_string()));
            extra.push(("fetch.wait.max.ms", FETCH_WAIT_AT_END_MS.to_string()));
        }
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
        self.worker.config(&self.broker, &extra)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Args, clap::Error> {
        Args::try_parse_from(std::iter::once("krb-worker").chain(args.iter().copied()))
    }

    #[test]
    fn the_refusals_are_in_both_languages() {
        assert_eq!(krb_cli::lang::table_problems(ALL), Vec::<String>::new());
    }

    #[test]
    fn name_group_topic_and_the_pace_are_krb_kafkas_worker_args_once() {
        use clap::CommandFactory;
        assert_eq!(
            WorkerArgs::not_held_once_by(&Args::command()),
            Vec::<String>::new()
        );
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
        assert_eq!(config.get("queued.max.messages.kbytes"), Some("1024"));
        assert_eq!(config.get("fetch.queue.backoff.ms"), Some("10"));
        assert_eq!(
            config.get("fetch.wait.max.ms"),
            None,
            "librdkafka's unless -e"
        );
        let overridden = parse(&["a", "g", "t", "-X", "queued.min.messages=500"]).unwrap();
        assert_eq!(overridden.config().get("queued.min.messages"), Some("500"));
        assert_eq!(args.worker.slow_at, Some(3));
    }

    #[test]
    fn defaults_match_the_article() {
        let args = parse(&["a", "g", "t"]).unwrap();
        assert_eq!(args.cadence().every, Some(100));
        assert_eq!(args.cadence().interval, None);
        assert!(!args.revoke_commit);
        assert_eq!(args.config().get("partition.assignment.strategy"), None);
        assert_eq!(args.config().get("enable.partition.eof"), None);
    }

    #[test]
    fn exit_at_end_asks_for_the_end_of_each_partition_and_a_namespace_names_the_group() {
        let args = parse(&["a", "g", "t", "-e", "--ns", "alice"]).unwrap();
        assert!(args.exit_at_end);
        assert_eq!(args.config().get("enable.partition.eof"), Some("true"));
        assert_eq!(args.config().get("fetch.wait.max.ms"), Some("10"));
        assert_eq!(args.config().get("group.id"), Some("alice-g"));
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
        let eos = ["a", "g", "t", "--effect", "kafka-eos", "--db"];
        let check = |db: &str| {
            let args: Vec<&str> = eos.iter().copied().chain([db]).collect();
            parse(&args).unwrap().validate().map_err(|e| e.to_string())
        };
        check("kafka:t-out").unwrap();
        assert!(check("sqlite:x.db")
            .unwrap_err()
            .contains("use kafka:TOPIC"));
        assert!(check("kafka:").unwrap_err().contains("names no topic"));
        let args = parse(&["a", "g", "t", "--effect", "plain", "--db", "kafka:t-out"]).unwrap();
        let err = args.validate().unwrap_err().to_string();
        assert!(err.contains("use sqlite:PATH"), "{err}");
    }

    #[test]
    fn an_interval_alone_commits_by_time_and_with_a_count_by_both() {
        let alone = parse(&["a", "g", "t", "--commit-interval-ms", "100"]).unwrap();
        assert_eq!(alone.cadence().every, None);
        assert_eq!(alone.cadence().interval, Some(Duration::from_millis(100)));
        let both = parse(&[
            "a",
            "g",
            "t",
            "--commit-interval-ms",
            "100",
            "--commit-every",
            "7",
        ]);
        assert_eq!(both.unwrap().cadence().every, Some(7));
        assert!(parse(&["a", "g", "t", "--commit-interval-ms", "0"]).is_err());
        assert!(parse(&["a", "g", "t", "--commit-interval-ms", "x"]).is_err());
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
}
