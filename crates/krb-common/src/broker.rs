//! Where the broker is and how every tool builds its librdkafka configuration.

use std::time::Duration;

use anyhow::{Context, Result};
use rdkafka::admin::{AdminClient, AdminOptions};
use rdkafka::client::{Client, ClientContext, DefaultClientContext};
use rdkafka::config::RDKafkaLogLevel;
use rdkafka::error::{KafkaError, RDKafkaErrorCode};
use rdkafka::ClientConfig;

use crate::namespace::Namespace;

/// The broker of the article's compose.yaml and of scripts/kafka-local.sh.
pub const DEFAULT_BOOTSTRAP: &str = "localhost:9481";

/// How long a tool waits for the broker's first answer before it says it cannot reach it.
pub const REACH_TIMEOUT: Duration = Duration::from_secs(10);

/// Options every tool takes: the broker address and any librdkafka property.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct BrokerArgs {
    /// Broker address; KRB_BOOTSTRAP sets it when this option is absent.
    #[arg(long, value_name = "HOST:PORT", env = "KRB_BOOTSTRAP", default_value = DEFAULT_BOOTSTRAP, hide_env = true)]
    pub bootstrap: String,

    /// Set any librdkafka property, as kcat does (repeatable): -X session.timeout.ms=6000.
    /// Applied last, so it overrides what the other options set.
    #[arg(short = 'X', value_name = "KEY=VALUE", value_parser = parse_property)]
    pub properties: Vec<(String, String)>,

    #[command(flatten)]
    pub namespace: Namespace,
}

/// Waits for an admin request: rust-rdkafka's admin client answers through futures, served by
/// its own thread, so a plain executor is enough.
pub fn wait<F: std::future::Future>(request: F) -> F::Output {
    futures_executor::block_on(request)
}

/// Parses one `-X key=value`.
pub fn parse_property(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_string(), v.to_string())),
        _ => Err(format!(
            "expected KEY=VALUE (a librdkafka property such as session.timeout.ms=6000), got {s:?}"
        )),
    }
}

impl BrokerArgs {
    /// The name Kafka knows the topic or group `name` by (see [`crate::namespace`]).
    pub fn name(&self, name: &str) -> String {
        self.namespace.name(name)
    }

    /// A librdkafka configuration with the broker, the client id, librdkafka's usual log level
    /// (notices and warnings reach stderr), `extra` settings, then every `-X` property.
    pub fn config(&self, client_id: &str, extra: &[(&str, String)]) -> ClientConfig {
        let mut config = ClientConfig::new();
        config
            .set("bootstrap.servers", &self.bootstrap)
            .set("client.id", client_id)
            // Every tool asks for metadata first thing. librdkafka sends that on its bootstrap
            // connection, closes it once it has learned the brokers' ids, and with sparse
            // connections may then not open another for 50 ms: 7 starts in 8 waited 50 ms
            // (krb-produce of 20,000 messages took 70 ms instead of 20). Connecting to every
            // broker at once answers at once; each tool talks to all of them anyway.
            .set("enable.sparse.connections", "false")
            .set_log_level(RDKafkaLogLevel::Info);
        for (k, v) in extra {
            config.set(*k, v);
        }
        for (k, v) in &self.properties {
            config.set(k, v);
        }
        if config.get("debug").is_some() {
            config.set_log_level(RDKafkaLogLevel::Debug);
        }
        config
    }

    /// What to tell a user whose broker does not answer.
    pub fn unreachable(&self, err: &KafkaError) -> String {
        format!(
            "cannot reach a Kafka broker at {} ({err}): start one (scripts/kafka-local.sh start, \
             or docker compose -p kreb up -d) or point --bootstrap / KRB_BOOTSTRAP at yours",
            self.bootstrap
        )
    }

    /// An admin client for a broker that answered, and options that wait for the broker's reply.
    pub fn admin(
        &self,
        client_id: &str,
    ) -> Result<(AdminClient<DefaultClientContext>, AdminOptions)> {
        let admin: AdminClient<DefaultClientContext> = self
            .config(client_id, &[])
            .create()
            .context("cannot create an admin client")?;
        admin
            .inner()
            .fetch_metadata(None, REACH_TIMEOUT)
            .map_err(|e| anyhow::anyhow!(self.unreachable(&e)))?;
        let options = AdminOptions::new().request_timeout(Some(REACH_TIMEOUT));
        Ok((admin, options))
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
        let missing = || {
            anyhow::anyhow!(
                "topic {name} does not exist on {}: create it first (topic {topic} PARTITIONS, or krb-topic {topic} PARTITIONS)",
                self.bootstrap
            )
        };
        let Some(t) = metadata.topics().iter().find(|t| t.name() == name) else {
            return Err(missing());
        };
        match t.error() {
            None => Ok(t.partitions().len()),
            Some(e) if RDKafkaErrorCode::from(e) == RDKafkaErrorCode::UnknownTopicOrPartition => {
                Err(missing())
            }
            Some(e) => Err(KafkaError::MetadataFetch(e.into()))
                .with_context(|| format!("cannot describe topic {name} on {}", self.bootstrap)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
