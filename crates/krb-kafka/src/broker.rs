//! Where the broker is and how every tool builds its librdkafka configuration.

use std::time::Duration;

use anyhow::{Context, Result};
use rdkafka::admin::{AdminClient, AdminOptions};
use rdkafka::client::{Client, ClientContext, DefaultClientContext};
use rdkafka::config::RDKafkaLogLevel;
use rdkafka::error::{KafkaError, RDKafkaErrorCode};
use rdkafka::ClientConfig;

use crate::conf_file::{self, ConfFile};
use krb_cli::lang::Lang;
use krb_cli::namespace::Namespace;

/// The broker of the article's compose.yaml and of scripts/kafka-local.sh.
pub const DEFAULT_BOOTSTRAP: &str = "localhost:9481";

/// An admin client (rust-rdkafka's), as every tool makes it with [`BrokerArgs::admin`].
pub type Admin = AdminClient<DefaultClientContext>;

/// How long a tool waits for the broker's first answer before it says it cannot reach it.
pub const REACH_TIMEOUT: Duration = Duration::from_secs(10);

/// Options every tool takes: the broker address, a librdkafka properties file and any
/// librdkafka property.
#[derive(Clone, Debug, Default)]
pub struct BrokerArgs {
    /// The broker address: --bootstrap, else KRB_BOOTSTRAP, else the file's bootstrap.servers,
    /// else [`DEFAULT_BOOTSTRAP`] (kcat's -b wins over its -F file too).
    pub bootstrap: String,
    pub file: Option<ConfFile>,
    pub properties: Vec<(String, String)>,
    pub namespace: Namespace,
}

/// BrokerArgs as clap parses it: the broker address is settled only once the file is read.
#[derive(clap::Args)]
struct Options {
    /// Broker address; KRB_BOOTSTRAP sets it when this option is absent, else the --config
    /// file's bootstrap.servers, else localhost:9481.
    #[arg(long, value_name = "HOST:PORT", env = "KRB_BOOTSTRAP", hide_env = true)]
    bootstrap: Option<String>,

    /// A file of librdkafka properties, one key=value a line, as `kcat -F` reads (a room's
    /// handout); KRB_CONFIG sets it when this option is absent. Applied after the tool's own
    /// settings and before -X.
    #[arg(long, value_name = "FILE", env = "KRB_CONFIG", hide_env = true, value_parser = conf_file::read)]
    config: Option<ConfFile>,

    /// Set any librdkafka property, as kcat does (repeatable): -X session.timeout.ms=6000.
    /// Applied last, so it overrides what the other options and the --config file set.
    #[arg(short = 'X', value_name = "KEY=VALUE", value_parser = parse_property)]
    properties: Vec<(String, String)>,

    #[command(flatten)]
    namespace: Namespace,
}

impl clap::FromArgMatches for BrokerArgs {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let o = Options::from_arg_matches(matches)?;
        // An empty KRB_BOOTSTRAP is unset, as an empty KRB_CONFIG is: it would not reach the
        // file's broker, or the default, otherwise.
        let bootstrap = o
            .bootstrap
            .filter(|b| !b.is_empty())
            .or_else(|| o.config.as_ref()?.bootstrap().map(String::from))
            .unwrap_or_else(|| DEFAULT_BOOTSTRAP.to_string());
        Ok(BrokerArgs {
            bootstrap,
            file: o.config,
            properties: o.properties,
            namespace: o.namespace,
        })
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = BrokerArgs::from_arg_matches(matches)?;
        Ok(())
    }
}

impl clap::Args for BrokerArgs {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        Options::augment_args(cmd)
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Options::augment_args_for_update(cmd)
    }
}

krb_cli::msgs! { ;
    /// A broker that does not answer (`err` is librdkafka's, as it says it).
    UNREACHABLE = "cannot reach a Kafka broker at {bootstrap} ({err}): start one (scripts/kafka-local.sh \
         start, or docker compose -p kreb up -d) or point --bootstrap / KRB_BOOTSTRAP at yours",
        "{bootstrap}의 Kafka 브로커에 연결할 수 없습니다({err}): 브로커를 띄우거나\
         (scripts/kafka-local.sh start, 또는 docker compose -p kreb up -d) --bootstrap이나 \
         KRB_BOOTSTRAP으로 쓰는 브로커를 지정하세요";
    /// A topic the broker does not have (`name`: as Kafka knows it; `topic`: as the lab calls it).
    NO_TOPIC = "topic {name} does not exist on {bootstrap}: create it first (topic {topic} PARTITIONS, \
         or krb-topic {topic} PARTITIONS)",
        "{bootstrap}에 {name} 토픽이 없습니다: 먼저 만드세요(topic {topic} PARTITIONS, 또는 \
         krb-topic {topic} PARTITIONS)";
}

/// Waits for an admin request: rust-rdkafka's admin client answers through futures, served by
/// its own thread, so a plain executor is enough.
pub fn wait<F: std::future::Future>(request: F) -> F::Output {
    futures_executor::block_on(request)
}

pub fn parse_property(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_string(), v.to_string())),
        _ => Err(format!(
            "expected KEY=VALUE (a librdkafka property such as session.timeout.ms=6000), got {s:?}"
        )),
    }
}

impl BrokerArgs {
    /// The name Kafka knows the topic or group `name` by (see [`krb_cli::namespace`]).
    pub fn name(&self, name: &str) -> String {
        self.namespace.name(name)
    }

    /// A librdkafka configuration with the broker, the client id, librdkafka's usual log level
    /// (notices and warnings reach stderr), `extra` settings, the --config file's properties,
    /// then every `-X` property.
    pub fn config(&self, client_id: &str, extra: &[(&str, String)]) -> ClientConfig {
        let mut config = ClientConfig::new();
        config
            .set("bootstrap.servers", &self.bootstrap)
            .set("client.id", client_id)
            // Every tool asks for metadata first; librdkafka closes its bootstrap connection once
            // it knows the brokers' ids and, with sparse connections, may not open another for
            // 50 ms: 7 starts in 8 waited (krb-produce of 20,000 took 70 ms, not 20). Each tool
            // talks to every broker anyway.
            .set("enable.sparse.connections", "false")
            .set_log_level(RDKafkaLogLevel::Info);
        for (k, v) in extra {
            config.set(*k, v);
        }
        // The file's broker list is already in self.bootstrap, below --bootstrap and
        // KRB_BOOTSTRAP: setting it again would put the file above them.
        let file = self.file.iter().flat_map(|f| &f.properties);
        for p in file.filter(|p| !conf_file::is_bootstrap(&p.key)) {
            config.set(&p.key, &p.value);
        }
        for (k, v) in &self.properties {
            config.set(k, v);
        }
        if config.get("debug").is_some() {
            config.set_log_level(RDKafkaLogLevel::Debug);
        }
        config
    }

    pub fn unreachable(&self, err: &KafkaError) -> String {
        UNREACHABLE.fill(
            Lang::of_process(),
            &[("bootstrap", &self.bootstrap), ("err", err)],
        )
    }

    /// An admin client for a broker that answered, and options that wait for the broker's reply.
    pub fn admin(&self, client_id: &str) -> Result<(Admin, AdminOptions)> {
        let admin: Admin = self
            .config(client_id, &[])
            .create()
            .context("cannot create an admin client")?;
        admin
            .inner()
            .fetch_metadata(None, REACH_TIMEOUT)
            .map_err(|e| anyhow::anyhow!(self.unreachable(&e)))?;
        Ok((admin, AdminOptions::new().request_timeout(Some(REACH_TIMEOUT))))
    }

    /// Checks that the broker answers and that `topic` (as the lab calls it: the namespace
    /// applies here) exists; returns its partition count.
    pub fn topic_partitions<C: ClientContext>(
        &self,
        client: &Client<C>,
        topic: &str,
    ) -> Result<usize> {
        let name = self.name(topic);
        // All topics, not Some(topic): a request that names a topic lets the broker create it
        // (a producer asks for that), and a mistyped name would become a one-partition topic.
        let metadata = client
            .fetch_metadata(None, REACH_TIMEOUT)
            .map_err(|e| anyhow::anyhow!(self.unreachable(&e)))?;
        let t = metadata.topics().iter().find(|t| t.name() == name);
        match t.map(|t| (t.partitions().len(), t.error().map(RDKafkaErrorCode::from))) {
            Some((partitions, None)) => Ok(partitions),
            None | Some((_, Some(RDKafkaErrorCode::UnknownTopicOrPartition))) => {
                Err(anyhow::anyhow!(NO_TOPIC.fill(
                    Lang::of_process(),
                    &[
                        ("name", &name),
                        ("bootstrap", &self.bootstrap),
                        ("topic", &topic)
                    ]
                )))
            }
            Some((_, Some(e))) => Err(KafkaError::MetadataFetch(e))
                .with_context(|| format!("cannot describe topic {name} on {}", self.bootstrap)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_broker_errors_keep_their_english_and_speak_korean() {
        assert!(krb_cli::lang::table_problems(&[UNREACHABLE, NO_TOPIC]).is_empty());
        let err = "Local: Broker transport failure";
        let values: &[(&str, &dyn std::fmt::Display)] =
            &[("bootstrap", &"localhost:9481"), ("err", &err)];
        assert_eq!(
            UNREACHABLE.fill(Lang::En, values),
            "cannot reach a Kafka broker at localhost:9481 (Local: Broker transport failure): \
             start one (scripts/kafka-local.sh start, or docker compose -p kreb up -d) or point \
             --bootstrap / KRB_BOOTSTRAP at yours"
        );
        assert_eq!(
            UNREACHABLE.fill(Lang::Ko, values),
            "localhost:9481의 Kafka 브로커에 연결할 수 없습니다(Local: Broker transport failure): \
             브로커를 띄우거나(scripts/kafka-local.sh start, 또는 docker compose -p kreb up -d) \
             --bootstrap이나 KRB_BOOTSTRAP으로 쓰는 브로커를 지정하세요"
        );
        let values: &[(&str, &dyn std::fmt::Display)] = &[
            ("name", &"alice-pay"),
            ("bootstrap", &"h:1"),
            ("topic", &"pay"),
        ];
        assert_eq!(
            NO_TOPIC.fill(Lang::En, values),
            "topic alice-pay does not exist on h:1: create it first (topic pay PARTITIONS, or \
             krb-topic pay PARTITIONS)"
        );
        assert_eq!(
            NO_TOPIC.fill(Lang::Ko, values),
            "h:1에 alice-pay 토픽이 없습니다: 먼저 만드세요(topic pay PARTITIONS, 또는 krb-topic \
             pay PARTITIONS)"
        );
    }

    #[test]
    fn parses_properties() {
        assert_eq!(
            parse_property("session.timeout.ms=6000"),
            Ok(("session.timeout.ms".into(), "6000".into()))
        );
        assert_eq!(parse_property("a=b=c"), Ok(("a".into(), "b=c".into())));
        assert!(parse_property("novalue").is_err());
        assert!(parse_property("=x").is_err());
    }

    #[test]
    fn properties_override_options() {
        let args = BrokerArgs {
            bootstrap: "h:1".into(),
            properties: vec![("session.timeout.ms".into(), "7000".into())],
            ..Default::default()
        };
        let config = args.config("me", &[("session.timeout.ms", "6000".into())]);
        assert_eq!(config.get("bootstrap.servers"), Some("h:1"));
        assert_eq!(config.get("client.id"), Some("me"));
        assert_eq!(config.get("session.timeout.ms"), Some("7000"));
        assert_eq!(config.get("enable.sparse.connections"), Some("false"));
    }

    use crate::conf_file::tests::file;

    #[derive(clap::Parser)]
    struct Tool {
        #[command(flatten)]
        broker: BrokerArgs,
    }

    fn parse(args: &[&str]) -> Result<BrokerArgs, clap::Error> {
        use clap::Parser;
        let args = ["tool"].iter().chain(args);
        Tool::try_parse_from(args).map(|t| t.broker)
    }

    #[test]
    fn the_file_comes_after_the_tools_settings_and_before_x() {
        let path = file(
            "order.conf",
            "session.timeout.ms=8000\nfetch.wait.max.ms=20\nclient.id=file\n",
        );
        let args = parse(&["--config", &path, "-X", "fetch.wait.max.ms=30"]).unwrap();
        let config = args.config("me", &[("session.timeout.ms", "6000".into())]);
        assert_eq!(config.get("session.timeout.ms"), Some("8000"));
        assert_eq!(config.get("fetch.wait.max.ms"), Some("30"));
        assert_eq!(config.get("client.id"), Some("file"));
    }

    #[test]
    fn bootstrap_wins_over_the_files_which_wins_over_the_default() {
        let path = file("boot.conf", "bootstrap.servers=room:9092\n");
        let from_file = parse(&["--config", &path]).unwrap();
        assert_eq!(from_file.bootstrap, "room:9092");
        assert_eq!(
            from_file.config("me", &[]).get("bootstrap.servers"),
            Some("room:9092")
        );
        let given = parse(&["--config", &path, "--bootstrap", "h:1"]).unwrap();
        assert_eq!(given.bootstrap, "h:1");
        assert_eq!(
            given.config("me", &[]).get("bootstrap.servers"),
            Some("h:1")
        );
        let alias = file("alias.conf", "metadata.broker.list=room:9093\n");
        let given = parse(&["--config", &alias, "--bootstrap", "h:1"]).unwrap();
        assert_eq!(given.config("me", &[]).get("metadata.broker.list"), None);
        let empty = parse(&["--config", &path, "--bootstrap", ""]).unwrap();
        assert_eq!(empty.bootstrap, "room:9092");
        let none = file("no-broker.conf", "client.id=x\n");
        assert_eq!(
            parse(&["--config", &none]).unwrap().bootstrap,
            DEFAULT_BOOTSTRAP
        );
    }

    #[test]
    fn a_bad_file_is_a_usage_error_naming_it() {
        let path = file("bad.conf", "a=b\nnonsense\n");
        let e = parse(&["--config", &path]).unwrap_err();
        assert_eq!(e.kind(), clap::error::ErrorKind::ValueValidation);
        assert!(
            e.to_string()
                .contains(&format!("{path}:2: expected property=value")),
            "{e}"
        );
        let e = parse(&["--config", "/nonexistent/x.conf"]).unwrap_err();
        assert!(
            e.to_string()
                .contains("cannot read the librdkafka properties file"),
            "{e}"
        );
    }
}
