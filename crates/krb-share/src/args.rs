//! The share worker's command line: krb-worker's [`WorkerArgs`], the share group's own
//! settings, and the checks clap cannot make.

use anyhow::{bail, Result};
use clap::Parser;
use krb_cli::lang::Lang;
use krb_kafka::broker::BrokerArgs;
use krb_kafka::worker::WorkerArgs;
use krb_log::logline::Offset;

krb_cli::msgs! { ALL;
    SAME_OFFSET =
        "--release-at and --reject-at name the same offset: a record is acknowledged one way",
        "--release-at과 --reject-at이 같은 offset을 가리켜요: 레코드 하나는 한 가지로만 \
        acknowledge돼요";
}

/// krb-share: a member of a share group (KIP-932) that logs every record it acquires,
/// processes and acknowledges.
///
/// Joins share group GROUP, consumes TOPIC, "processes" each record by sleeping --delay
/// seconds, acknowledges it (accepted, or released / rejected with --release-at /
/// --reject-at) and, every --commit-every records and at the end of each batch, commits the
/// acknowledgements and waits for the broker's answer. One line per event on stdout:
///
///   09:20:01.100 share-a consumes pay in share group share
///   09:20:01.230 share-a acquired p0 offset 3 delivery 1
///   09:20:01.240 share-a p0 offset 3
///   09:20:01.240 share-a accepted p0 offset 3
///   09:20:01.250 share-a acks committed p0 [0..3]
///   09:20:31.250 share-a acks failed p0 [3]: KafkaError{code=INVALID_RECORD_STATE,...}
///
/// In a share group no member owns a partition: the broker lends each record to one member
/// at a time, under a lock (share.record.lock.duration.ms). A record whose acknowledgement
/// does not reach the broker before the lock ends, or whose member dies, goes to another member
/// with its delivery count up; after share.delivery.count.limit deliveries it is archived.
///
/// --group-config KEY=VALUE sets a setting of the share group itself (Kafka's admin API,
/// before the worker joins): share.auto.offset.reset=earliest (the lab's, and this worker's
/// default), share.record.lock.duration.ms, share.delivery.count.limit. Every member of a group
/// sets the same values.
///
/// librdkafka's share consumer is a preview (2.15.0). SIGTERM or SIGINT stop the worker
/// after the record in hand: it commits what it acknowledged, leaves the group and exits 0; a
/// second signal ends it at once with exit status 130. A command line it cannot run is one
/// line and exit 2; a broker that refuses is one line and exit 1.
#[derive(Parser, Debug, Clone)]
#[command(name = "krb-share", version, verbatim_doc_comment)]
pub struct Args {
    #[command(flatten)]
    pub worker: WorkerArgs,

    /// Commit the acknowledgements after every N records (and at the end of each batch).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub commit_every: Option<u64>,

    /// Release this offset (any partition) instead of accepting it: it fails each time, and
    /// the broker delivers it again until its delivery count limit.
    #[arg(long, value_name = "OFFSET")]
    pub release_at: Option<Offset>,

    /// Reject this offset (any partition): it is never delivered again.
    #[arg(long, value_name = "OFFSET")]
    pub reject_at: Option<Offset>,

    /// A setting of the share group, set with Kafka's admin API before joining (repeatable):
    /// --group-config share.record.lock.duration.ms=5000.
    #[arg(long = "group-config", value_name = "KEY=VALUE", value_parser = krb_kafka::broker::parse_property)]
    pub group_config: Vec<(String, String)>,

    #[command(flatten)]
    pub broker: BrokerArgs,
}

impl Args {
    /// Checks what clap cannot: a name without spaces, sane durations, known group settings,
    /// one fate per offset.
    pub fn validate(&self) -> Result<()> {
        self.worker.validate()?;
        if self.release_at.is_some() && self.release_at == self.reject_at {
            bail!(SAME_OFFSET.text(Lang::of_process()));
        }
        // The broker checks names and values (and says which it refuses); a key outside the
        // share group's settings would set another kind of group's.
        for (key, _) in &self.group_config {
            if !key.starts_with("share.") {
                bail!(
                    "--group-config {key}: not a share group setting (they start with share., \
                     e.g. share.record.lock.duration.ms)"
                );
            }
        }
        Ok(())
    }

    /// The group settings to set: the lab's share.auto.offset.reset=earliest unless given,
    /// then those given.
    pub fn group_settings(&self) -> Vec<(String, String)> {
        let mut settings = self.group_config.clone();
        if !settings.iter().any(|(k, _)| k == "share.auto.offset.reset") {
            settings.insert(0, ("share.auto.offset.reset".into(), "earliest".into()));
        }
        settings
    }

    pub fn config(&self) -> rdkafka::ClientConfig {
        self.worker.config(&self.broker, &[])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_refusal_is_in_both_languages() {
        assert_eq!(krb_cli::lang::table_problems(ALL), Vec::<String>::new());
    }

    fn parse(args: &[&str]) -> Result<Args, clap::Error> {
        Args::try_parse_from(std::iter::once("krb-share").chain(args.iter().copied()))
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
    fn parses_the_labs_options() {
        let args = parse(&[
            "lock-a",
            "lock",
            "lock",
            "--delay",
            "0.5",
            "--slow-at",
            "3",
            "--slow-sec",
            "12",
            "--commit-every",
            "1",
            "--group-config",
            "share.record.lock.duration.ms=5000",
            "-X",
            "debug=cgrp",
            "--ns",
            "alice",
        ])
        .unwrap();
        args.validate().unwrap();
        let config = args.config();
        assert_eq!(config.get("group.id"), Some("alice-lock"));
        assert_eq!(config.get("client.id"), Some("lock-a"));
        assert_eq!(config.get("debug"), Some("cgrp"));
        assert_eq!(
            args.group_settings(),
            vec![
                ("share.auto.offset.reset".into(), "earliest".into()),
                ("share.record.lock.duration.ms".into(), "5000".into())
            ]
        );
        assert_eq!(args.worker.slow_sec, 12.0);
    }

    #[test]
    fn a_given_offset_reset_wins() {
        let args = parse(&[
            "a",
            "g",
            "t",
            "--group-config",
            "share.auto.offset.reset=latest",
        ]);
        assert_eq!(
            args.unwrap().group_settings(),
            vec![("share.auto.offset.reset".into(), "latest".into())]
        );
    }

    #[test]
    fn rejects_bad_input() {
        assert!(parse(&["a", "g"]).is_err());
        assert!(parse(&["a", "g", "t", "--commit-every", "0"]).is_err());
        assert!(parse(&["a", "g", "t", "--group-config", "novalue"]).is_err());
        let invalid = |extra: &[&str]| {
            let all: Vec<&str> = ["a", "g", "t"].iter().chain(extra).copied().collect();
            parse(&all).unwrap().validate().unwrap_err().to_string()
        };
        assert!(invalid(&["--delay=-1"]).contains("--delay must be"));
        assert!(invalid(&["--release-at", "3", "--reject-at", "3"]).contains("same offset"));
        let err = invalid(&["--group-config", "session.timeout.ms=6000"]);
        assert!(err.contains("not a share group setting"), "{err}");
        assert!(parse(&["a b", "g", "t"]).unwrap().validate().is_err());
    }
}
