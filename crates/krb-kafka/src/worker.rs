//! What krb-worker and krb-share take alike, defined once and flattened into both: who the
//! worker is, the group and topic it joins, and how long processing takes.

use std::time::Duration;

use anyhow::Result;
use krb_cli::cli::{seconds, worker_name};
use krb_log::logline::{Event, Offset, Partition};
use rdkafka::ClientConfig;

use crate::broker::BrokerArgs;

#[derive(clap::Args, Debug, Clone)]
pub struct WorkerArgs {
    /// The worker's name: first word of its log lines and librdkafka's client.id.
    pub name: String,
    /// The group to join.
    pub group: String,
    /// The topic to consume.
    pub topic: String,

    /// Seconds to process one message.
    #[arg(long, value_name = "SEC", default_value_t = 0.0)]
    pub delay: f64,

    /// Make processing of this offset slow (any partition).
    #[arg(long, value_name = "OFFSET")]
    pub slow_at: Option<Offset>,

    /// Seconds that processing of --slow-at takes.
    #[arg(long, value_name = "SEC", default_value_t = 15.0)]
    pub slow_sec: f64,
}

impl WorkerArgs {
    /// The arguments of these that `tool` (a command that flattens them) does not hold exactly
    /// once as they are defined here: empty unless a tool copied one and changed it.
    pub fn not_held_once_by(tool: &clap::Command) -> Vec<String> {
        use clap::Args as _;
        let ours = WorkerArgs::augment_args(clap::Command::new("x"));
        ours.get_arguments()
            .filter(|arg| {
                let same = tool.get_arguments().filter(|a| a.get_id() == arg.get_id());
                same.map(|a| format!("{a:?}")).collect::<Vec<_>>() != [format!("{arg:?}")]
            })
            .map(|arg| arg.get_id().to_string())
            .collect()
    }

    /// Checks what clap cannot: a name without spaces, durations of 0 seconds or more.
    pub fn validate(&self) -> Result<()> {
        worker_name(&self.name)?;
        seconds("--delay", self.delay)?;
        seconds("--slow-sec", self.slow_sec)?;
        Ok(())
    }

    /// "Processes" `offset`: a `slow` line to `emit` if it is --slow-at's, then its time
    /// asleep (the arguments checked by [`WorkerArgs::validate`]).
    pub fn process(&self, partition: Partition, offset: Offset, emit: impl FnOnce(Event)) {
        if self.slow_at == Some(offset) {
            emit(Event::SlowStart { partition, offset });
        }
        std::thread::sleep(self.processing(offset));
    }

    fn processing(&self, offset: Offset) -> Duration {
        let slow = self.slow_at == Some(offset);
        Duration::from_secs_f64(if slow { self.slow_sec } else { self.delay })
    }

    /// A worker that never waits between messages writes its lines in blocks.
    pub fn gathers(&self) -> bool {
        self.delay == 0.0 && self.slow_at.is_none()
    }

    /// The worker's librdkafka configuration: client.id NAME, group.id GROUP (in the
    /// namespace), then `extra`, then what [`BrokerArgs::config`] puts above them.
    pub fn config(&self, broker: &BrokerArgs, extra: &[(&str, String)]) -> ClientConfig {
        let group = [("group.id", broker.name(&self.group))];
        broker.config(&self.name, &[&group[..], extra].concat())
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    #[test]
    fn a_tool_is_held_to_the_arguments_as_defined_here() {
        use clap::Args as _;
        let flattened = WorkerArgs::augment_args(clap::Command::new("t"));
        assert_eq!(
            WorkerArgs::not_held_once_by(&flattened),
            Vec::<String>::new()
        );
        let changed = clap::Command::new("t").arg(clap::Arg::new("delay").long("delay"));
        let named = WorkerArgs::not_held_once_by(&changed);
        assert!(named.contains(&"delay".to_string()) && named.contains(&"name".to_string()));
    }

    use super::*;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        worker: WorkerArgs,
        #[command(flatten)]
        broker: BrokerArgs,
    }

    fn parse(args: &[&str]) -> Cli {
        Cli::try_parse_from(std::iter::once("krb-x").chain(args.iter().copied())).unwrap()
    }

    #[test]
    fn the_slow_offset_takes_slow_sec_and_the_rest_delay() {
        let cli = parse(&["a", "g", "t", "--delay", "0.5", "--slow-at", "3"]);
        cli.worker.validate().unwrap();
        let mut said = Vec::new();
        parse(&["a", "g", "t", "--slow-at", "3", "--slow-sec", "0"])
            .worker
            .process(1, 3, |e| said.push(e.to_string()));
        parse(&["a", "g", "t", "--slow-at", "3"])
            .worker
            .process(1, 4, |e| said.push(e.to_string()));
        assert_eq!(said, ["p1 offset 3 slow start"]);
        assert_eq!(cli.worker.processing(3), Duration::from_secs(15));
        assert_eq!(cli.worker.processing(4), Duration::from_millis(500));
        assert!(!cli.worker.gathers());
        assert!(parse(&["a", "g", "t"]).worker.gathers());
        let slow_only = parse(&["a", "g", "t", "--slow-at", "3"]);
        assert!(!slow_only.worker.gathers());
    }

    #[test]
    fn the_group_is_namespaced_and_the_name_is_the_client_id() {
        let cli = parse(&["a", "g", "t", "--ns", "alice"]);
        let config = cli.worker.config(&cli.broker, &[("x.y", "1".into())]);
        assert_eq!(config.get("group.id"), Some("alice-g"));
        assert_eq!(config.get("client.id"), Some("a"));
        assert_eq!(config.get("x.y"), Some("1"));
    }

    #[test]
    fn bad_names_and_durations_are_refused() {
        let invalid = |args: &[&str]| parse(args).worker.validate().unwrap_err().to_string();
        assert!(invalid(&["a b", "g", "t"]).contains("a b"));
        assert!(invalid(&["a", "g", "t", "--delay=-1"]).contains("--delay"));
        assert!(invalid(&["a", "g", "t", "--slow-sec=-1"]).contains("--slow-sec"));
    }
}
